"""``ExprFunctor``, ``ExprVisitor`` and ``ExprMutator``: traversals of Relay expressions.

They mirror ``tvm.relay.expr_functor``: ``visit(expr)`` dispatches to
``visit_var``, ``visit_call``, ``visit_function``, ``visit_let``,
``visit_if``, ``visit_tuple``, ``visit_tuple_getitem``, ``visit_constant``,
``visit_global_var``, ``visit_op``, ``visit_match``, ``visit_constructor``,
``visit_ref_create``, ``visit_ref_read`` or ``visit_ref_write`` and memoises the result, so a node
shared by several users (a DAG) is visited once.

Deep programs do not hit Python's recursion limit (like TVM's C++
``MixedModeVisitor``): before a node's handler runs, the sub-expressions it
will visit are visited in post-order with an explicit stack, so the
handler's own ``self.visit(child)`` calls are memo hits. Operands of calls,
tuple fields and tuple values are always visited first. The parts of
``Let``, ``If``, ``Function`` and ``Match`` (which open scopes) are visited first too,
unless a subclass overrides ``visit_let``/``visit_if``/``visit_function``/``visit_match``:
then that handler visits them itself, in its own order (recursively; the
nesting depth of those constructs is then bounded by the recursion limit).
A subclass whose overrides do not depend on that order sets
``iterative_scopes = True`` to keep every traversal iterative.

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

from .adt import Clause, Constructor, Match, pattern_vars
from .expr import (Call, Constant, Expr, Function, GlobalVar, If, Let, Op, RefCreate, RefRead,
                   RefWrite, Tuple, TupleGetItem, TupleWrapper, Var)

__all__ = ["ExprFunctor", "ExprVisitor", "ExprMutator", "Substitute"]

_METHODS = {
    Var: "visit_var", Call: "visit_call", Function: "visit_function", Let: "visit_let",
    If: "visit_if", Tuple: "visit_tuple", TupleGetItem: "visit_tuple_getitem",
    Constant: "visit_constant", GlobalVar: "visit_global_var", Op: "visit_op",
    Match: "visit_match", Constructor: "visit_constructor", RefCreate: "visit_ref_create",
    RefRead: "visit_ref_read", RefWrite: "visit_ref_write",
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
    """The operands of ``e`` always visited before it: call target (unless an
    ``Op``, ``GlobalVar`` or ``Constructor``) and arguments, tuple fields, the
    tuple of a ``TupleGetItem``, the operands of ref operations. Scoped parts
    (function bodies, branches, let bodies, match data and clauses) are not."""
    if isinstance(e, Call):
        kids = [] if isinstance(e.op, (Op, GlobalVar, Constructor)) else [e.op]
        kids.extend(e.args)
        return kids
    if isinstance(e, Tuple):
        return list(e.fields)
    if isinstance(e, TupleGetItem):
        return [_unwrap(e.tuple_value)]
    if isinstance(e, RefCreate):
        return [e.value]
    if isinstance(e, RefRead):
        return [e.ref]
    if isinstance(e, RefWrite):
        return [e.ref, e.value]
    return []


def _scoped_children(e: Expr) -> List[Expr]:
    if isinstance(e, Let):
        return [e.var, _unwrap(e.value), _unwrap(e.body)]
    if isinstance(e, If):
        return [_unwrap(e.cond), _unwrap(e.true_branch), _unwrap(e.false_branch)]
    if isinstance(e, Function):
        return list(e.params) + [_unwrap(e.body)]
    if isinstance(e, Match):
        kids = [e.data]
        for c in e.clauses:
            kids.extend(pattern_vars(c.lhs))
            kids.append(c.rhs)
        return kids
    return []


class ExprFunctor:
    """Dispatches ``visit(expr)`` to ``visit_<kind>(expr)`` and memoises the result.

    ``memo_map`` maps each visited expression (by identity) to its result.
    Subclasses implement the ``visit_*`` methods; unimplemented ones raise
    ``NotImplementedError``.
    """

    #: Visit the parts of Let/If/Function before their overridden handlers
    #: run (set it when those overrides do not depend on visiting order).
    iterative_scopes = False
    #: handlers whose default implementation only visits the node's parts
    _PURE_HANDLERS: Dict[str, PyAny] = {}

    def __init__(self) -> None:
        self.memo_map: Dict[Expr, PyAny] = {}
        self._previsit = {cls: self.iterative_scopes or
                          getattr(type(self), name, None) is self._PURE_HANDLERS.get(name)
                          for cls, name in ((Let, "visit_let"), (If, "visit_if"),
                                            (Function, "visit_function"), (Match, "visit_match"))}

    def visit(self, expr: Expr) -> PyAny:
        """Applies the functor to ``expr`` (memoised)."""
        expr = _unwrap(expr)
        memo = self.memo_map
        if expr in memo:
            return memo[expr]
        previsit = self._previsit
        # Post-order with an explicit stack: a node is dispatched once the
        # parts its handler visits are in the memo.
        stack = [(expr, False)]
        while stack:
            node, ready = stack.pop()
            if node in memo:
                continue
            if ready:
                memo[node] = self._dispatch(node)
                continue
            stack.append((node, True))
            kids = dataflow_children(node)
            if not kids and previsit.get(type(node)):
                kids = _scoped_children(node)
            for child in reversed(kids):
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

    def visit_match(self, m: Match) -> PyAny:
        raise NotImplementedError()

    def visit_constructor(self, c: Constructor) -> PyAny:
        raise NotImplementedError()

    def visit_ref_create(self, r: RefCreate) -> PyAny:
        raise NotImplementedError()

    def visit_ref_read(self, r: RefRead) -> PyAny:
        raise NotImplementedError()

    def visit_ref_write(self, r: RefWrite) -> PyAny:
        raise NotImplementedError()

    def visit_type(self, t: PyAny) -> PyAny:
        """Types are left as they are (like TVM's ``ExprFunctor.visit_type``)."""
        return t


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
        self.visit(let.var)
        self.visit(let.value)
        self.visit(let.body)

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

    def visit_match(self, m: Match) -> None:
        self.visit(m.data)
        for c in m.clauses:
            for v in pattern_vars(c.lhs):
                self.visit(v)
            self.visit(c.rhs)

    def visit_constructor(self, c: Constructor) -> None:
        pass

    def visit_ref_create(self, r: RefCreate) -> None:
        self.visit(r.value)

    def visit_ref_read(self, r: RefRead) -> None:
        self.visit(r.ref)

    def visit_ref_write(self, r: RefWrite) -> None:
        self.visit(r.ref)
        self.visit(r.value)


ExprVisitor._PURE_HANDLERS = {"visit_let": ExprVisitor.visit_let, "visit_if": ExprVisitor.visit_if,
                              "visit_function": ExprVisitor.visit_function,
                              "visit_match": ExprVisitor.visit_match}


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
        var, value, body = self.visit(let.var), self.visit(let.value), self.visit(let.body)
        if var is let.var and value is _unwrap(let.value) and body is _unwrap(let.body):
            return let
        return _rebuilt(Let(var, value, body), let)

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

    def visit_match(self, m: Match) -> Expr:
        data = self.visit(m.data)
        rhss = [self.visit(c.rhs) for c in m.clauses]
        if data is _unwrap(m.data) and _same(rhss, [_unwrap(c.rhs) for c in m.clauses]):
            return m
        clauses = [Clause(c.lhs, rhs) for c, rhs in zip(m.clauses, rhss)]
        return _rebuilt(Match(data, clauses, m.complete), m)

    def visit_constructor(self, c: Constructor) -> Expr:
        return c

    def visit_ref_create(self, r: RefCreate) -> Expr:
        value = self.visit(r.value)
        return r if value is r.value else _rebuilt(RefCreate(value), r)

    def visit_ref_read(self, r: RefRead) -> Expr:
        ref = self.visit(r.ref)
        return r if ref is r.ref else _rebuilt(RefRead(ref), r)

    def visit_ref_write(self, r: RefWrite) -> Expr:
        ref, value = self.visit(r.ref), self.visit(r.value)
        return r if ref is r.ref and value is r.value else _rebuilt(RefWrite(ref, value), r)


ExprMutator._PURE_HANDLERS = {"visit_let": ExprMutator.visit_let, "visit_if": ExprMutator.visit_if,
                              "visit_function": ExprMutator.visit_function,
                              "visit_match": ExprMutator.visit_match}


class Substitute(ExprMutator):
    """Replaces the variables of ``values`` (Var -> Expr) wherever they occur."""

    def __init__(self, values: Dict[Var, Expr]) -> None:
        super().__init__()
        self.values = values

    def visit_var(self, var: Var) -> Expr:
        return self.values.get(var, var)
