"""Analyses of expressions (``tvm.relay.analysis``): ``free_vars``, ``bound_vars``, ``all_vars``,
``post_order_visit``.

Built on ``ExprVisitor``, so they take time linear in the number of distinct
nodes and work on arbitrarily deep programs.

Example::

    >>> import relay_mlir as relay
    >>> from relay_mlir.analysis import free_vars, bound_vars
    >>> x, y = relay.var("x"), relay.var("y")
    >>> f = relay.Function([y], x * y)
    >>> [v.name_hint for v in free_vars(f)], [v.name_hint for v in bound_vars(f)]
    (['x'], ['y'])
"""
from __future__ import annotations

from typing import Dict, List

from .adt import Match, pattern_vars
from .expr import Call, Expr, Function, Let, Var
from .expr_functor import ExprVisitor

__all__ = ["free_vars", "bound_vars", "all_vars", "post_order_visit"]


class _VarVisitor(ExprVisitor):
    """Collects the Vars used (in order of first use) and those bound by a
    Function parameter, a Let or a match pattern."""

    iterative_scopes = True  # the result does not depend on visiting order

    def __init__(self) -> None:
        super().__init__()
        self.used: List[Var] = []
        self.bound: Dict[Var, None] = {}  # ordered set

    def visit_var(self, var: Var) -> None:
        self.used.append(var)

    def visit_function(self, fn: Function) -> None:
        for p in fn.params:
            self.bound.setdefault(p)
        self.visit(fn.body)

    def visit_let(self, let: Let) -> None:
        self.bound.setdefault(let.var)
        self.visit(let.value)
        self.visit(let.body)

    def visit_match(self, m: Match) -> None:
        self.visit(m.data)
        for c in m.clauses:
            for v in pattern_vars(c.lhs):
                self.bound.setdefault(v)
            self.visit(c.rhs)


def _collect(expr: Expr) -> _VarVisitor:
    v = _VarVisitor()
    v.visit(expr)
    return v


def free_vars(expr: Expr) -> List[Var]:
    """Variables used in ``expr`` but bound by no Function/Let in it, in order of first use.

    >>> import relay_mlir as relay
    >>> a, b = relay.var("a"), relay.var("b")
    >>> [v.name_hint for v in free_vars(a * b + a)]
    ['a', 'b']
    """
    v = _collect(expr)
    return [x for x in v.used if x not in v.bound]


def bound_vars(expr: Expr) -> List[Var]:
    """Variables bound in ``expr`` (function parameters, let variables), in order."""
    return list(_collect(expr).bound)


def all_vars(expr: Expr) -> List[Var]:
    """Variables used or bound in ``expr``."""
    v = _collect(expr)
    return list(v.bound) + [x for x in v.used if x not in v.bound]


def _visit_order_parts(e: Expr) -> List[Expr]:
    """What TVM 0.19's ExprVisitor visits of ``e``, in its order: ``expr_parts.parts`` with
    a function's parameters before its body, a call's operator (``Op``, global or
    constructor too) before its arguments, a let's variable between its value and body."""
    from .expr_parts import parts

    if isinstance(e, Function):
        return list(e.params) + [e.body]
    if isinstance(e, Call):
        return [e.op] + list(e.args)
    if isinstance(e, Let):
        return [e.value, e.var, e.body]
    return parts(e)


def post_order_visit(expr: Expr, fvisit) -> None:
    """TVM 0.19's ``relay.analysis.post_order_visit(expr, fvisit)``: ``fvisit(node)`` once for
    every node of ``expr`` (operators, variables and constants included), after the nodes it
    contains, in the order TVM's visitor reaches them; iterative, so deep programs are fine::

        >>> import relay_mlir as relay
        >>> x = relay.var("x", shape=(2,))
        >>> names = []
        >>> post_order_visit(relay.Function([x], relay.exp(x) + x),
        ...                  lambda e: names.append(getattr(e, "name", type(e).__name__)))
        >>> names
        ['Var', 'add', 'exp', 'Call', 'Call', 'Function']
    """
    seen = {expr}
    stack = [(expr, iter(_visit_order_parts(expr)))]
    while stack:
        e, it = stack[-1]
        nxt = next(it, None)
        if nxt is None:
            stack.pop()
            fvisit(e)
        elif nxt not in seen:
            seen.add(nxt)
            stack.append((nxt, iter(_visit_order_parts(nxt))))
