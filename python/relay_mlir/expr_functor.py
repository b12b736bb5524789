"""``ExprFunctor``, ``ExprVisitor`` and ``ExprMutator``: traversals of Relay expressions.

They mirror ``tvm.relay.expr_functor``: ``visit(expr)`` dispatches to
``visit_var``, ``visit_call``, ``visit_function``, ``visit_let``,
``visit_if``, ``visit_tuple``, ``visit_tuple_getitem``, ``visit_constant``,
``visit_global_var`` or ``visit_op`` and memoises the result, so a node
shared by several users (a DAG) is visited once.

Deep programs do not hit Python's recursion limit (as TVM's C++
``MixedModeVisitor``): before ``visit_call``/``visit_tuple``/
``visit_tuple_getitem`` runs, the operands of calls, tuple fields and tuple
values below it are visited in post-order with an explicit stack, so the
handler's own ``self.visit(arg)`` calls are memo hits. Chains of ``Let``
are walked in a loop by ``ExprVisitor.visit_let``/``ExprMutator.visit_let``.
Only the nesting of ``Function`` and ``If`` (which open scopes) recurses.

Example::

    >>> import relay_mlir as relay
    >>> class CountCalls(relay.ExprVisitor):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.count = 0
    ...     def visit_call(self, call):
    ...         self.count += 1
    ...         super().visit_call(call)
    >>> x = relay.var("x", shape=(2,))
    >>> y = relay.exp(x)
    >>> c = CountCalls()
    >>> c.visit(relay.add(y, y))       # y is shared: visited once
    >>> c.count
    2
"""
from __future__ import annotations

from typing import Any as PyAny, Dict, List

from .expr import (Call, Constant, Expr, Function, GlobalVar, If, Let, Op, Tuple, TupleGetItem,
                   TupleWrapper, Var)

__all__ = ["ExprFunctor", "ExprVisitor", "ExprMutator"]

_METHODS = {
    Var: "visit_var", Call: "visit_call", Function: "visit_function", Let: "visit_let",
    If: "visit_if", Tuple: "visit_tuple", TupleGetItem: "visit_tuple_getitem",
    Constant: "visit_constant", GlobalVar: "visit_global_var", Op: "visit_op",
}


def _method_name(cls: type) -> str:
    name = _METHODS.get(cls)
    if name is None:
        for base in cls.__mro__[1:]:
            if base in _METHODS:
                name = _METHODS[cls] = _METHODS[base]
                break
        else:
            raise TypeError(f"cannot visit a {cls.__name__} (not a relay expression)")
    return name


def _unwrap(e: PyAny) -> PyAny:
    return e.astuple() if isinstance(e, TupleWrapper) else e


def dataflow_children(e: Expr) -> List[Expr]:
    """The operands of ``e`` visited before it: call target (unless an ``Op``
    or ``GlobalVar``) and arguments, tuple fields, the tuple of a
    ``TupleGetItem``. Scoped parts (function bodies, branches, let bodies) are not."""
    if isinstance(e, Call):
        kids = [] if isinstance(e.op, (Op, GlobalVar)) else [e.op]
        kids.extend(e.args)
        return kids
    if isinstance(e, Tuple):
        return list(e.fields)
    if isinstance(e, TupleGetItem):
        return [_unwrap(e.tuple_value)]
    return []


class ExprFunctor:
    """Dispatches ``visit(expr)`` to ``visit_<kind>(expr)`` and memoises the result.

    ``memo_map`` maps each visited expression (by identity) to its result.
    Subclasses implement the ``visit_*`` methods; unimplemented ones raise
    ``NotImplementedError``.
    """

    def __init__(self) -> None:
        self.memo_map: Dict[Expr, PyAny] = {}

    def visit(self, expr: Expr) -> PyAny:
        """Applies the functor to ``expr`` (memoised)."""
        expr = _unwrap(expr)
        memo = self.memo_map
        if expr in memo:
            return memo[expr]
        # Post-order over the dataflow operands with an explicit stack: a
        # node is dispatched once all its operands are in the memo.
        stack = [(expr, False)]
        while stack:
            node, ready = stack.pop()
            if node in memo:
                continue
            if ready:
                memo[node] = self._dispatch(node)
                continue
            stack.append((node, True))
            for child in reversed(dataflow_children(node)):
                if child not in memo:
                    stack.append((child, False))
        return memo[expr]

    def _dispatch(self, expr: Expr) -> PyAny:
        return getattr(self, _method_name(type(expr)))(expr)

    def visit_var(self, var: Var) -> PyAny:
        raise NotImplementedError()

    def visit_call(self, call: Call) -> PyAny:
        raise NotImplementedError()

    def visit_function(self, fn: Function) -> PyAny:
        raise NotImplementedError()

    def visit_let(self, let: Let) -> PyAny:
        raise NotImplementedError()

    def visit_if(self, ite: If) -> PyAny:
        raise NotImplementedError()

    def visit_tuple(self, tup: Tuple) -> PyAny:
        raise NotImplementedError()

    def visit_tuple_getitem(self, t: TupleGetItem) -> PyAny:
        raise NotImplementedError()

    def visit_constant(self, const: Constant) -> PyAny:
        raise NotImplementedError()

    def visit_global_var(self, gv: GlobalVar) -> PyAny:
        raise NotImplementedError()

    def visit_op(self, op: Op) -> PyAny:
        raise NotImplementedError()

    def visit_type(self, t: PyAny) -> PyAny:
        """Types are left as they are (like TVM's ``ExprFunctor.visit_type``)."""
        return t


def _let_chain(functor: ExprFunctor, let: Let, base_method) -> List[Let]:
    """``let`` and the ``Let``s nested in its body that ``base_method`` handles
    in one loop: not yet visited, and not handled by an override of ``visit_let``."""
    chain = [let]
    if getattr(type(functor), "visit_let") is not base_method:
        return chain  # an override must see every Let itself
    e = _unwrap(let.body)
    while isinstance(e, Let) and e not in functor.memo_map:
        chain.append(e)
        e = _unwrap(e.body)
    return chain


class ExprVisitor(ExprFunctor):
    """Visits every sub-expression once; override ``visit_*`` to act on some.

    Call ``super().visit_<kind>(e)`` from an override to keep traversing.

    >>> import relay_mlir as relay
    >>> class Names(relay.ExprVisitor):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.ops = []
    ...     def visit_op(self, op):
    ...         self.ops.append(op.name)
    >>> v = Names()
    >>> v.visit(relay.nn.relu(relay.exp(relay.var("x"))))
    >>> v.ops
    ['exp', 'nn.relu']
    """

    def visit_var(self, var: Var) -> None:
        pass

    def visit_call(self, call: Call) -> None:
        self.visit(call.op)
        for a in call.args:
            self.visit(a)

    def visit_function(self, fn: Function) -> None:
        for p in fn.params:
            self.visit(p)
        self.visit(fn.body)

    def visit_let(self, let: Let) -> None:
        chain = _let_chain(self, let, ExprVisitor.visit_let)
        for e in chain:
            self.visit(e.var)
            self.visit(e.value)
        self.visit(chain[-1].body)
        for e in chain[1:]:
            self.memo_map[e] = None

    def visit_if(self, ite: If) -> None:
        self.visit(ite.cond)
        self.visit(ite.true_branch)
        self.visit(ite.false_branch)

    def visit_tuple(self, tup: Tuple) -> None:
        for f in tup.fields:
            self.visit(f)

    def visit_tuple_getitem(self, t: TupleGetItem) -> None:
        self.visit(t.tuple_value)

    def visit_constant(self, const: Constant) -> None:
        pass

    def visit_global_var(self, gv: GlobalVar) -> None:
        pass

    def visit_op(self, op: Op) -> None:
        pass


def _same(a: List[PyAny], b: List[PyAny]) -> bool:
    return len(a) == len(b) and all(x is y for x, y in zip(a, b))


def _rebuilt(new: Expr, old: Expr) -> Expr:
    new.span = old.span  # diagnostics keep pointing at the user's code
    return new


class ExprMutator(ExprFunctor):
    """Rebuilds an expression bottom-up; override ``visit_*`` to replace nodes.

    Memoised, and a node is rebuilt only if one of its parts changed, so an
    unchanged program comes back as the same object and sharing is kept.

    >>> import relay_mlir as relay
    >>> class ExpToSigmoid(relay.ExprMutator):
    ...     def visit_call(self, call):
    ...         new = super().visit_call(call)
    ...         if isinstance(new.op, relay.Op) and new.op.name == "exp":
    ...             return relay.sigmoid(new.args[0])
    ...         return new
    >>> x = relay.var("x", shape=(2,))
    >>> ExpToSigmoid().visit(relay.nn.relu(relay.exp(x))).args[0].op.name
    'sigmoid'
    """

    def visit_var(self, var: Var) -> Expr:
        return var

    def visit_call(self, call: Call) -> Expr:
        op = self.visit(call.op)
        args = [self.visit(a) for a in call.args]
        if op is call.op and _same(args, call.args):
            return call
        return _rebuilt(Call(op, args, call.attrs), call)

    def visit_function(self, fn: Function) -> Expr:
        params = [self.visit(p) for p in fn.params]
        body = self.visit(fn.body)
        if body is _unwrap(fn.body) and _same(params, fn.params):
            return fn
        return _rebuilt(Function(params, body, fn.ret_type, fn.type_params, fn.attrs), fn)

    def visit_let(self, let: Let) -> Expr:
        chain = _let_chain(self, let, ExprMutator.visit_let)
        parts = [(self.visit(e.var), self.visit(e.value)) for e in chain]
        body = self.visit(chain[-1].body)
        for e, (var, value) in zip(reversed(chain), reversed(parts)):
            if not (var is e.var and value is _unwrap(e.value) and body is _unwrap(e.body)):
                body = _rebuilt(Let(var, value, body), e)
            else:
                body = e
            if e is not let:
                self.memo_map[e] = body
        return body

    def visit_if(self, ite: If) -> Expr:
        parts = [self.visit(ite.cond), self.visit(ite.true_branch), self.visit(ite.false_branch)]
        if _same(parts, [_unwrap(ite.cond), _unwrap(ite.true_branch), _unwrap(ite.false_branch)]):
            return ite
        return _rebuilt(If(*parts), ite)

    def visit_tuple(self, tup: Tuple) -> Expr:
        fields = [self.visit(f) for f in tup.fields]
        if _same(fields, tup.fields):
            return tup
        return _rebuilt(Tuple(fields), tup)

    def visit_tuple_getitem(self, t: TupleGetItem) -> Expr:
        value = self.visit(t.tuple_value)
        if value is _unwrap(t.tuple_value):
            return t
        return _rebuilt(TupleGetItem(value, t.index), t)

    def visit_constant(self, const: Constant) -> Expr:
        return const

    def visit_global_var(self, gv: GlobalVar) -> Expr:
        return gv

    def visit_op(self, op: Op) -> Expr:
        return op
