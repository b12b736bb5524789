"""Forward rewriting with temporary expressions: the engine of quantize's three passes.

TVM 0.19's ``ForwardRewrite`` (src/relay/transforms/forward_rewrite.cc), which partition,
annotate and realize are written in: a post-order walk of a function's dataflow graph in which
a call of an operator that has a rule is given its rewritten arguments, which may be
*temporary expressions* (values that carry extra facts, such as "this is an int8 tensor at
scale 1/16"). The rule returns a new expression or temporary, or ``None`` to keep the call.
Where a temporary meets a call without a rule (or a rule that returns ``None``), a tuple, a
tuple projection or the function's result, it is ``realize()``d into a plain expression
(``concatenate`` takes its inputs as operands here, not as a tuple).
``multi_ref`` (annotate's trigger) is applied to an argument used more than once.
"""
from __future__ import annotations

from typing import Callable, Dict, List, Optional, Union

from ..expr import Call, Constant, Expr, Function, Op, Tuple, TupleGetItem, Var
from ..expr_functor import dataflow_children

__all__ = ["TempExpr", "forward_rewrite", "post_order", "realized", "scalar_of"]


class TempExpr:
    """A rewrite-time value; ``realize()`` turns it into an ordinary expression."""

    def realize(self) -> Expr:
        raise NotImplementedError


Value = Union[Expr, TempExpr]
Rule = Callable[[Call, List[Value]], Optional[Value]]


def realized(v: Value) -> Expr:
    """``v`` as an expression (a temporary is realized)."""
    return v.realize() if isinstance(v, TempExpr) else v


def scalar_of(e: Expr, what: str) -> float:
    """The value of a scalar constant (a calibrated scale or bound)."""
    if not isinstance(e, Constant) or e.data.size != 1:
        raise ValueError(f"relay.quantize: {what} must be a calibrated scalar constant, got {e!r}; "
                         "run calibrate before realize")
    return e.data.reshape(()).item()


def _operands(e: Expr) -> List[Expr]:
    if isinstance(e, (Call, Tuple, TupleGetItem, Var, Constant, Op)):
        return dataflow_children(e)
    raise ValueError(f"relay.quantize: the function must be a dataflow graph of operator calls, "
                     f"tuples and projections (run it through InferType/inlining first); "
                     f"found {type(e).__name__}")


def post_order(root: Expr) -> List[Expr]:
    """The distinct nodes of ``root``'s graph, operands first (left to right)."""
    order, seen, stack = [], set(), [(root, False)]
    while stack:
        e, done = stack.pop()
        if done:
            order.append(e)
            continue
        if id(e) in seen:
            continue
        seen.add(id(e))
        stack.append((e, True))
        stack.extend((a, False) for a in reversed(_operands(e)) if id(a) not in seen)
    return order


def _ref_counts(order: List[Expr]) -> Dict[int, int]:
    counts: Dict[int, int] = {}
    for e in order:
        for a in _operands(e):
            counts[id(a)] = counts.get(id(a), 0) + 1
    return counts


def _rewrite_call(call: Call, args: List[Value], rules: Dict[str, Rule]) -> Value:
    if not isinstance(call.op, Op):
        raise ValueError("relay.quantize: calls of functions are not supported; inline them first")
    rule = rules.get(call.op.name)
    if rule is not None:
        out = rule(call, args)
        if out is not None:
            return out
    plain = [realized(a) for a in args]
    if all(p is a for p, a in zip(plain, call.args)):
        return call
    return Call(call.op, plain, dict(call.attrs))


def forward_rewrite(fn: Function, rules: Dict[str, Rule],
                    multi_ref: Optional[Callable[[Value], Value]] = None,
                    leaf: Optional[Callable[[Expr], Value]] = None) -> Function:
    """``fn`` with every call rewritten by ``rules[op name]`` (see the module docstring);
    ``leaf`` may replace variables and constants."""
    order = post_order(fn.body)
    refs = _ref_counts(order)
    post: Dict[int, Value] = {}

    def arg(a: Expr) -> Value:
        v = post[id(a)]
        return multi_ref(v) if multi_ref is not None and refs.get(id(a), 0) > 1 else v

    for e in order:
        if isinstance(e, Call):
            post[id(e)] = _rewrite_call(e, [arg(a) for a in e.args], rules)
        elif isinstance(e, Tuple):
            fields = [realized(post[id(f)]) for f in e.fields]
            post[id(e)] = e if all(a is b for a, b in zip(fields, e.fields)) else Tuple(fields)
        elif isinstance(e, TupleGetItem):
            (tup,) = _operands(e)
            value = realized(post[id(tup)])
            post[id(e)] = e if value is tup else TupleGetItem(value, e.index)
        else:
            post[id(e)] = leaf(e) if leaf is not None else e
    return Function(list(fn.params), realized(post[id(fn.body)]), None, fn.type_params, fn.attrs)
