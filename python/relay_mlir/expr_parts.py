"""The parts of a Relay expression, and the expression rebuilt from new parts.

What rewrites that visit every sub-expression once, operands first (relay_mlir.normal_form,
relay_mlir.fuse_ops), need of each kind of node::

    >>> import relay_mlir as relay
    >>> from relay_mlir.expr_parts import parts, rebuild
    >>> x = relay.var("x", shape=(2,))
    >>> e = relay.add(relay.exp(x), x)
    >>> [type(p).__name__ for p in parts(e)]
    ['Call', 'Var']
    >>> rebuild(e, [x, x]).args[0] is x
    True
"""
from __future__ import annotations

from typing import List, Sequence

from .adt import Clause, Constructor, Match
from .expr import (Call, Expr, Function, GlobalVar, If, Let, Op, RefCreate, RefRead, RefWrite,
                   Tuple, TupleGetItem, TupleWrapper)

__all__ = ["parts", "rebuild"]


def _u(e):
    return e.astuple() if isinstance(e, TupleWrapper) else e


def parts(e: Expr) -> List[Expr]:
    """The sub-expressions of ``e``, in order: a call's callee (unless an operator, global
    function or constructor) and arguments, tuple fields, the tuple of a ``TupleGetItem``,
    reference operands, a let's value and body (not its variable), an if's condition and
    branches, a function's body (not its parameters), a match's data and clause bodies."""
    if isinstance(e, Call):
        callee = [] if isinstance(e.op, (Op, GlobalVar, Constructor)) else [_u(e.op)]
        return callee + [_u(a) for a in e.args]
    if isinstance(e, Tuple):
        return [_u(f) for f in e.fields]
    if isinstance(e, TupleGetItem):
        return [_u(e.tuple_value)]
    if isinstance(e, Let):
        return [_u(e.value), _u(e.body)]
    if isinstance(e, If):
        return [_u(e.cond), _u(e.true_branch), _u(e.false_branch)]
    if isinstance(e, Function):
        return [_u(e.body)]
    if isinstance(e, Match):
        return [_u(e.data)] + [_u(c.rhs) for c in e.clauses]
    if isinstance(e, RefCreate):
        return [e.value]
    if isinstance(e, RefRead):
        return [e.ref]
    if isinstance(e, RefWrite):
        return [e.ref, e.value]
    return []


def rebuild(e: Expr, new: Sequence[Expr]) -> Expr:
    """``e`` with its parts (in ``parts(e)``'s order) replaced by ``new``; an expression without
    parts (variable, constant, global, operator, constructor) is itself."""
    n = list(new)
    if isinstance(e, Call):
        if isinstance(e.op, (Op, GlobalVar, Constructor)):
            return Call(e.op, n, e.attrs)
        return Call(n[0], n[1:], e.attrs)
    if isinstance(e, Tuple):
        return Tuple(n)
    if isinstance(e, TupleGetItem):
        return TupleGetItem(n[0], e.index)
    if isinstance(e, Let):
        return Let(e.var, n[0], n[1])
    if isinstance(e, If):
        return If(n[0], n[1], n[2])
    if isinstance(e, Function):
        return Function(e.params, n[0], e.ret_type, e.type_params, e.attrs)
    if isinstance(e, Match):
        return Match(n[0], [Clause(c.lhs, r) for c, r in zip(e.clauses, n[1:])], e.complete)
    if isinstance(e, RefCreate):
        return RefCreate(n[0])
    if isinstance(e, RefRead):
        return RefRead(n[0])
    if isinstance(e, RefWrite):
        return RefWrite(n[0], n[1])
    return e
