"""Matching a pattern against an expression, as TVM 0.19's ``DFPatternMatcher`` does.

The matcher walks pattern and expression together from the root. It remembers which
expression each pattern node matched (``memo``), so a pattern node used twice must match one
and the same expression node; a failed branch forgets what it matched. Calls of ``add`` and
``multiply`` also match with their arguments swapped, and ``(a * b) / c`` matches
``(a / c) * b`` (TVM's commutative and associative rules). Type constraints
(``has_type``/``has_dtype``/``has_shape``) type an untyped expression first.

>>> import relay_mlir as relay
>>> from relay_mlir.dataflow_pattern import is_op, wildcard
>>> x = relay.var("x", shape=(2,))
>>> is_op("add")(wildcard(), is_op("exp")(wildcard())).match(relay.exp(x) + x)
True
"""
from __future__ import annotations

from typing import Dict, List, Optional

from ..expr import (Call, Constant, Expr, Function, GlobalVar, If, Let, Op, Tuple, TupleGetItem,
                    TupleWrapper, Var)
from ..module import IRModule
from ..op.op_attr import get_op_attr
from ..ty import TensorType, Type
from .attrs import MISSING, tvm_call_attr
from .graph import IndexedGraph
from .pattern import (AltPattern, AttrPattern, CallPattern, ConstantPattern, DataTypePattern,
                      DFPattern, DominatorPattern, ExprPattern, FunctionPattern, IfPattern,
                      LetPattern, ShapePattern, TupleGetItemPattern, TuplePattern, TypePattern,
                      VarPattern, WildcardPattern)
from .structural import attr_equal, structural_equal

__all__ = ["DFPatternMatcher", "match", "type_of"]


def type_of(expr: Expr) -> Type:
    """``expr``'s checked type, running type inference on it first if it has none (TVM's
    matcher types the expression it is given the same way)."""
    if getattr(expr, "_checked_type", None) is None:
        IRModule.from_expr(expr).to_mlir(infer=True)  # types the expression's nodes
        if getattr(expr, "_checked_type", None) is None:  # a function: its type is main's
            raise TypeError(f"cannot infer the type of {expr!r} to match a type pattern")
    return expr.checked_type


_LEAVES = (Var, Constant, GlobalVar, Op)


# Operators TVM 0.19 gives one tuple argument, whose relay-mlir builders take the fields as
# the call's arguments: patterns see TVM's form (``is_op("concatenate")(is_tuple(None))``).
TUPLE_ARG_OPS = frozenset(("concatenate", "stack", "einsum"))


class FieldsTuple(Tuple):
    """The tuple TVM would pass to a ``TUPLE_ARG_OPS`` call ``call``: its arguments."""

    def __init__(self, call: Call) -> None:
        super().__init__(call.args)
        self.span = call.span
        self.call = call


def _op_name(p: DFPattern) -> Optional[str]:
    if isinstance(p, ExprPattern) and isinstance(p.expr, Op):
        return p.expr.name
    return None


def _is_op_call(e: Expr, name: str) -> bool:
    return isinstance(e, Call) and isinstance(e.op, Op) and e.op.name == name


class DFPatternMatcher:
    """Matches patterns against sub-expressions of one expression (``root``)."""

    def __init__(self, root: Expr) -> None:
        self.root = root
        self._graph: Optional[IndexedGraph] = None
        self.memo: Dict[DFPattern, List[Expr]] = {}
        self.fields_tuples: Dict[Call, FieldsTuple] = {}
        self.matched: List[DFPattern] = []
        self.memoize = True

    @property
    def graph(self) -> IndexedGraph:
        if self._graph is None:
            self._graph = IndexedGraph(self.root)
        return self._graph

    def match(self, pattern: DFPattern, expr: Expr) -> bool:
        self.memo, self.matched = {}, []
        return self.visit(pattern, expr)

    def clear(self, watermark: int) -> None:
        for p in self.matched[watermark:]:
            self.memo.pop(p, None)
        del self.matched[watermark:]

    def visit(self, pattern: DFPattern, expr: Expr) -> bool:
        if isinstance(expr, TupleWrapper):
            expr = expr.astuple()
        if self.memoize and pattern in self.memo:
            return self.memo[pattern][0] is expr
        watermark = len(self.matched)
        ok = getattr(self, _handler(type(pattern)))(pattern, expr)
        if ok:
            self.memo.setdefault(pattern, []).append(expr)
            self.matched.append(pattern)
        else:
            self.clear(watermark)
        return ok

    # -- one handler per pattern kind -------------------------------------------------------
    def _alt(self, p: AltPattern, e: Expr) -> bool:
        return self.visit(p.left, e) or self.visit(p.right, e)

    def _wildcard(self, p: WildcardPattern, e: Expr) -> bool:
        return True if p.redirect is None else self.visit(p.redirect, e)

    def _expr(self, p: ExprPattern, e: Expr) -> bool:
        if isinstance(p.expr, Op):  # the common case, is_op(name)
            return isinstance(e, Op) and e.name == p.expr.name
        return structural_equal(p.expr, e)

    def _var(self, p: VarPattern, e: Expr) -> bool:
        return isinstance(e, Var) and (not p.name_hint or p.name_hint == e.name_hint)

    def _constant(self, p: ConstantPattern, e: Expr) -> bool:
        return isinstance(e, Constant)

    def _tuple(self, p: TuplePattern, e: Expr) -> bool:
        if not isinstance(e, Tuple):
            return False
        return p.fields is None or self._all(p.fields, e.fields)

    def _tuple_get_item(self, p: TupleGetItemPattern, e: Expr) -> bool:
        return (isinstance(e, TupleGetItem) and (p.index == -1 or p.index == e.index)
                and self.visit(p.tuple_value, e.tuple_value))

    def _if(self, p: IfPattern, e: Expr) -> bool:
        return isinstance(e, If) and self._all([p.cond, p.true_branch, p.false_branch],
                                               [e.cond, e.true_branch, e.false_branch])

    def _let(self, p: LetPattern, e: Expr) -> bool:
        return isinstance(e, Let) and self._all([p.var, p.value, p.body], [e.var, e.value, e.body])

    def _function(self, p: FunctionPattern, e: Expr) -> bool:
        if not isinstance(e, Function):
            return False
        if p.params is not None and not self._all(p.params, e.params):
            return False
        return self.visit(p.body, e.body)

    def _all(self, ps: List[DFPattern], es: List[Expr]) -> bool:
        return len(ps) == len(es) and all(self.visit(q, x) for q, x in zip(ps, es))

    def _type(self, p: TypePattern, e: Expr) -> bool:
        return type_of(e) == p.type and self.visit(p.pattern, e)

    def _shape(self, p: ShapePattern, e: Expr) -> bool:
        t = type_of(e)
        return (isinstance(t, TensorType) and list(t.shape) == p.shape
                and self.visit(p.pattern, e))

    def _dtype(self, p: DataTypePattern, e: Expr) -> bool:
        t = type_of(e)
        return isinstance(t, TensorType) and t.dtype == p.dtype and self.visit(p.pattern, e)

    def _attr(self, p: AttrPattern, e: Expr) -> bool:
        if not self.visit(p.pattern, e):
            return False
        if isinstance(e, Op):
            return all(attr_equal(get_op_attr(e.name, k, MISSING), v) for k, v in p.attrs.items())
        if isinstance(e, Call):
            return all(attr_equal(tvm_call_attr(e, k), v) for k, v in p.attrs.items())
        if isinstance(e, Function):
            return all(k in e.attrs and attr_equal(e.attrs[k], v) for k, v in p.attrs.items())
        return False

    def tvm_args(self, e: Call) -> List[Expr]:
        """``e``'s arguments as TVM has them (one tuple for ``TUPLE_ARG_OPS``, the same
        object each time, so a pattern node keeps matching one node)."""
        if isinstance(e.op, Op) and e.op.name in TUPLE_ARG_OPS:
            if e not in self.fields_tuples:
                self.fields_tuples[e] = FieldsTuple(e)
            return [self.fields_tuples[e]]
        return e.args

    def _call(self, p: CallPattern, e: Expr) -> bool:
        if not isinstance(e, Call):
            return False
        watermark = len(self.matched)
        if self.visit(p.op, e.op):
            args = self.tvm_args(e)
            if self._call_args(p.args, args):
                return True
            if _op_name(p.op) in ("add", "multiply") and p.args is not None:
                return self._call_args(list(reversed(p.args)), args)
            return False
        self.clear(watermark)
        return self._reassociated(p, e, watermark)

    def _call_args(self, ps: Optional[List[DFPattern]], es: List[Expr]) -> bool:
        watermark = len(self.matched)
        if ps is None or self._all(ps, es):
            return True
        self.clear(watermark)
        return False

    def _reassociated(self, p: CallPattern, e: Call, watermark: int) -> bool:
        """TVM's rules: ``(a * b) / c`` also matches ``(a / c) * b`` or ``b * (a / c)``, and
        ``(a / b) * c`` matches ``(a * c) / b``."""
        name = _op_name(p.op)
        if name == "divide" and p.args and isinstance(p.args[0], CallPattern):
            inner = p.args[0]
            if (_op_name(inner.op) == "multiply" and _is_op_call(e, "multiply")
                    and any(_is_op_call(a, "divide") for a in e.args)):
                for i in range(2):
                    div = CallPattern(p.op, [inner.args[i], p.args[1]])
                    if self.visit(CallPattern(inner.op, [inner.args[(i + 1) % 2], div]), e):
                        return True
                    self.clear(watermark)
                return False
        if name == "multiply" and p.args:
            for i in range(2):
                inner = p.args[i]
                if (isinstance(inner, CallPattern) and _op_name(inner.op) == "divide"
                        and _is_op_call(e, "divide")
                        and any(_is_op_call(a, "multiply") for a in e.args)):
                    mul = CallPattern(p.op, [inner.args[0], p.args[(i + 1) % 2]])
                    return self.visit(CallPattern(inner.op, [mul, inner.args[1]]), e)
        return False

    def _dominator(self, p: DominatorPattern, e: Expr) -> bool:
        if self.visit(p.child, e):
            on_path = self._matches_path(p, e)
            self.memoize = True
            if on_path:
                return self._dominates_parent(p, e)
        return False

    def _matches_path(self, p: DominatorPattern, e: Expr) -> bool:
        """Every input of ``e`` that is computed (not a callee, variable or constant) is the
        parent, or matches the path and has only such inputs itself; an input-less node does
        not reach the parent (TVM 0.19's rule, measured)."""
        counted = 0
        for node in self.graph.node(e).inputs:
            ref = node.ref
            if (isinstance(e, Call) and ref is e.op) or isinstance(ref, _LEAVES):
                continue
            counted += 1
            self.memoize = True
            if not self.visit(p.parent, ref):
                self.memoize = False
                if not self.visit(p.path, ref) or not self._matches_path(p, ref):
                    return False
        return counted > 0

    def _dominates_parent(self, p: DominatorPattern, e: Expr) -> bool:
        stack, seen = [self.graph.node(e)], set()
        while stack:
            for node in stack.pop().dominator_children:
                if id(node) in seen:
                    continue
                if self.visit(p.parent, node.ref):
                    return True
                stack.append(node)
                seen.add(id(node))
        return False


_HANDLERS = {
    AltPattern: "_alt", WildcardPattern: "_wildcard", ExprPattern: "_expr", VarPattern: "_var",
    ConstantPattern: "_constant", TuplePattern: "_tuple", TupleGetItemPattern: "_tuple_get_item",
    IfPattern: "_if", LetPattern: "_let", FunctionPattern: "_function", TypePattern: "_type",
    ShapePattern: "_shape", DataTypePattern: "_dtype", AttrPattern: "_attr", CallPattern: "_call",
    DominatorPattern: "_dominator",
}


def _handler(cls: type) -> str:
    for base in cls.__mro__:
        if base in _HANDLERS:
            return _HANDLERS[base]
    raise TypeError(f"{cls.__name__} is not a dataflow pattern")


def checked_args(what: str, pattern: object, expr: object) -> Expr:
    """``expr`` (a TupleWrapper unwrapped) after checking the two arguments of ``what``."""
    if not isinstance(pattern, DFPattern):
        raise TypeError(f"{what} expects a dataflow pattern, got {pattern!r}")
    if isinstance(expr, TupleWrapper):
        expr = expr.astuple()
    if not isinstance(expr, Expr):
        raise TypeError(f"{what} expects a relay expression, got {expr!r}")
    return expr


def match(pattern: DFPattern, expr: Expr) -> bool:
    """Whether ``expr`` matches ``pattern`` (``tvm.relay.dataflow_pattern.match``)."""
    expr = checked_args("match", pattern, expr)
    return DFPatternMatcher(expr).match(pattern, expr)


DFPattern.match = match  # ``pattern.match(expr)``, as in TVM
