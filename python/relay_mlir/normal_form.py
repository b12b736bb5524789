"""Relay's normal forms of expressions: A-normal form, basic-block normal form, graph form.

They are forms of the expression tree only: relay-mlir's MLIR is SSA, where every value is
named once in the region that computes it (A-normal form and basic-block normal form by
construction), so these passes work on the Python expressions (``relay.transform``'s
``ToANormalForm``, ``ToBasicBlockNormalForm``, ``ToGraphNormalForm``).

As TVM 0.19 places a shared expression: in the innermost scope holding every use of it (a
scope is a function body, an ``if`` branch, a ``match`` clause), computed before the first.

- A-normal form: every expression but variables, global functions, operators and
  constructors is bound by a ``let`` in that scope (constants, closures and ``if``s too); the
  value of a scope is a variable. A let already there binds its value directly.
- Basic-block normal form: only expressions used from a scope other than their own (inside
  a branch or closure and outside it, or in two branches) are let-bound, in that scope; the
  rest stays a graph. Lets already there stay.
- Graph normal form: lets become graph nodes (the variable replaced by the value), except a
  closure calling itself (recursive), a value with a reference operation, and an unused
  value calling something that is not an operator or constructor (it may have an effect):
  TVM 0.19 removes those too, dropping effects whose result is unused.

    >>> import relay_mlir as relay
    >>> from relay_mlir.normal_form import to_a_normal_form, count_lets
    >>> x = relay.var("x", shape=(2,))
    >>> e = relay.exp(x + relay.const(1.0))
    >>> count_lets(to_a_normal_form(relay.Function([x], e * e)))   # 1f, add, exp, multiply
    4
"""
from __future__ import annotations

from typing import Dict, List, Optional

from .adt import Constructor, Match
from .expr import Expr, Function, GlobalVar, If, Let, Op, TupleWrapper, Var
from .expr_functor import ExprMutator, ExprVisitor
from .expr_parts import parts, rebuild

__all__ = ["to_a_normal_form", "to_basic_block_normal_form", "to_graph_normal_form",
           "count_lets"]

_ATOMS = (Var, GlobalVar, Op, Constructor)


def _u(e):
    return e.astuple() if isinstance(e, TupleWrapper) else e


class _Scope:
    """A function body, ``if`` branch or ``match`` clause: the lets bound in it, in order."""

    def __init__(self, parent: Optional["_Scope"]) -> None:
        self.parent = parent
        self.depth = 0 if parent is None else parent.depth + 1
        self.bindings: List[tuple] = []

    def lca(self, other: "_Scope") -> "_Scope":
        a, b = self, other
        while a.depth > b.depth:
            a = a.parent
        while b.depth > a.depth:
            b = b.parent
        while a is not b:
            a, b = a.parent, b.parent
        return a

    def close(self, result: Expr) -> Expr:
        for var, value in reversed(self.bindings):
            result = Let(var, value, result)
        return result


def _scope_index(e: Expr, i: int) -> Optional[int]:
    """Which scope part ``i`` of ``e`` (``expr_parts.parts`` order) opens: an if's branches,
    a function's body and a match's clauses do; operands and a let's parts do not."""
    if isinstance(e, (If, Match)):
        return i - 1 if i >= 1 else None
    if isinstance(e, Function):
        return 0
    return None


def _children(e: Expr) -> List[tuple]:
    """(part, index of the scope it opens or None) for each part of ``e``."""
    return [(c, _scope_index(e, i)) for i, c in enumerate(parts(e))]


class _Placement:
    """Phase 1: the scope of each expression (the innermost holding all its uses) and whether
    it is used from another scope, for one function body."""

    def __init__(self, body: Expr) -> None:
        self.root = _Scope(None)
        self.scope: Dict[Expr, _Scope] = {body: self.root}
        self.opened: Dict[tuple, _Scope] = {}
        self.crosses: Dict[Expr, bool] = {}
        self.order = self._post_order(body)
        uses: Dict[Expr, List[_Scope]] = {}
        for e in reversed(self.order):          # users before what they use
            s = self.scope[e] if e is body else self._lca(uses[e])
            self.scope[e] = s
            self.crosses[e] = any(u is not s for u in uses.get(e, ()))
            for child, i in _children(e):
                at = s if i is None else self.opened.setdefault((e, i), _Scope(s))
                uses.setdefault(child, []).append(at)

    @staticmethod
    def _lca(scopes: List[_Scope]) -> _Scope:
        s = scopes[0]
        for other in scopes[1:]:
            s = s.lca(other)
        return s

    @staticmethod
    def _post_order(body: Expr) -> List[Expr]:
        order, seen, stack = [], {body}, [(body, iter(_children(body)))]
        while stack:
            e, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                stack.pop()
                order.append(e)
            elif nxt[0] not in seen:
                seen.add(nxt[0])
                stack.append((nxt[0], iter(_children(nxt[0]))))
        return order


class _Binder:
    """Phase 2: rebuilds one function body in post-order, let-binding what ``bind`` selects in
    its scope; a Let's variable is bound when its value is built (before the body's uses)."""

    def __init__(self, body: Expr, anf: bool) -> None:
        self.p = _Placement(body)
        self.anf = anf
        self.new: Dict[Expr, Expr] = {}
        self.lets_of: Dict[Expr, List[Let]] = {}
        for e in self.p.order:
            if isinstance(e, Let):
                self.lets_of.setdefault(_u(e.value), []).append(e)
        self.fresh = 0

    def run(self, body: Expr) -> Expr:
        for e in self.p.order:
            self.new[e] = self._bound(e, self._rebuild(e))
        return self.p.root.close(self.new[body])

    def _bind(self, e: Expr) -> bool:
        if isinstance(e, _ATOMS) or isinstance(e, Let):
            return False
        return self.anf or self.p.crosses[e]

    def _bound(self, e: Expr, rebuilt: Expr) -> Expr:
        lets = self.lets_of.get(e, [])
        # A-normal form: `let %a = value` binds the value itself, no fresh variable first
        direct = self.anf and self._bind(e) and len(lets) == 1 \
            and self.p.scope[lets[0]] is self.p.scope[e]
        if self._bind(e) and not direct:
            self.fresh += 1
            v = Var(f"x_{self.fresh}")
            self.p.scope[e].bindings.append((v, rebuilt))
            rebuilt = v
        for let in lets:
            self.p.scope[let].bindings.append((let.var, rebuilt))
        return let.var if direct else rebuilt

    def _scope(self, e: Expr, i: int, part: Expr) -> Expr:
        return self.p.opened[(e, i)].close(self.new[part])

    def _rebuild(self, e: Expr) -> Expr:
        if isinstance(e, Let):                 # its variable is bound in its scope already
            return self.new[_u(e.body)]
        return rebuild(e, [self.new[c] if i is None else self.p.opened[(e, i)].close(self.new[c])
                           for c, i in _children(e)])


def _by_function(fn: Function, anf: bool) -> Function:
    if not isinstance(fn, Function):
        raise TypeError(f"normal forms apply to a Function, got {type(fn).__name__}")
    body = _Binder(_u(fn.body), anf).run(_u(fn.body))
    return Function(fn.params, body, fn.ret_type, fn.type_params, fn.attrs)


def to_a_normal_form(fn: Function) -> Function:
    """``fn`` in A-normal form (TVM 0.19's ToANormalForm on one function)."""
    return _by_function(fn, anf=True)


def to_basic_block_normal_form(fn: Function) -> Function:
    """``fn`` in basic-block normal form (TVM 0.19's ToBasicBlockNormalForm on one function)."""
    return _by_function(fn, anf=False)


def _effects(value: Expr) -> tuple:
    """(reference operations, calls of something that is not an operator or constructor) in
    ``value``, closures' bodies not counted (creating a closure has no effect)."""
    refs, calls = [], []

    class V(ExprVisitor):
        def visit_function(self, f):
            pass

        def visit_call(self, c):
            if not isinstance(c.op, (Op, Constructor)):
                calls.append(c)
            super().visit_call(c)

        def visit_ref_read(self, r):
            refs.append(r)
            super().visit_ref_read(r)

        def visit_ref_write(self, r):
            refs.append(r)
            super().visit_ref_write(r)

        def visit_ref_create(self, r):
            refs.append(r)
            super().visit_ref_create(r)

    V().visit(value)
    return bool(refs), bool(calls)


class _ToGraph(ExprMutator):
    def __init__(self, used: set) -> None:
        super().__init__()
        self.subst: Dict[Var, Expr] = {}
        self.used = used

    def visit_var(self, var: Var) -> Expr:
        return self.subst.get(var, var)

    def _keep(self, let: Let) -> bool:
        value = _u(let.value)
        if isinstance(value, Function) and let.var in _free(value):
            return True                      # a closure calling itself
        refs, calls = _effects(value)
        return refs or (calls and let.var not in self.used)

    def visit_let(self, let: Let) -> Expr:
        kept, e = [], let
        while isinstance(e, Let):           # a chain of lets in a loop (no deep recursion)
            value = self.visit(_u(e.value))
            if self._keep(e):
                kept.append((e.var, value))
            else:
                self.subst[e.var] = value
            e = _u(e.body)
        result = self.visit(e)
        for var, value in reversed(kept):
            result = Let(var, value, result)
        return result


def _free(e: Expr) -> List[Var]:
    from .analysis import free_vars

    return free_vars(e)


def to_graph_normal_form(fn: Function) -> Function:
    """``fn`` with its lets made graph nodes (TVM 0.19's ToGraphNormalForm on one function)."""
    if not isinstance(fn, Function):
        raise TypeError(f"normal forms apply to a Function, got {type(fn).__name__}")
    body = _u(fn.body)
    used = {e for e in _Placement._post_order(body) if isinstance(e, Var)}
    return Function(fn.params, _ToGraph(used).visit(body), fn.ret_type, fn.type_params, fn.attrs)


def count_lets(e: Expr) -> int:
    """How many ``let``s ``e`` has (closures and branches included)."""
    n = [0]

    class V(ExprVisitor):
        def visit_let(self, let):
            n[0] += 1
            super().visit_let(let)

    V().visit(e)
    return n[0]
