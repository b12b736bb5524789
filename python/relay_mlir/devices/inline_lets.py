"""``inline_lets``: a planned ``main`` without ``let``s, for cutting it into stages.

First-order dataflow is pure, so substituting each let-bound value for its variable changes no
result; ``PlanDevices``' devices (``virtual_device_``) are kept.
"""
from __future__ import annotations

from typing import Dict

from ..expr import Call, Expr, Function, If, Let, Tuple, TupleGetItem, Var
from ..interpreter import _children

__all__ = ["inline_lets"]


def _without_lets(body: Expr) -> Expr:
    """``body`` with each let-bound variable replaced by its value, iteratively (ANF programs
    are long let chains)."""
    new: Dict[int, Expr] = {}
    value_of: Dict[int, Var] = {}  # a let's value -> its variable
    stack = [(body, False)]
    while stack:
        e, ready = stack.pop()
        if id(e) in new:
            continue
        if not ready:
            if isinstance(e, Let):
                value_of[id(e.value)] = e.var
            stack.append((e, True))
            stack.extend((k, False) for k in reversed(_children(e)) if id(k) not in new)
            continue
        if isinstance(e, Let):
            out = new[id(e.body)]
        elif isinstance(e, Var):
            out = new.get(id(e), e)
        elif isinstance(e, Call):
            out = Call(e.op, [new[id(a)] for a in e.args], dict(e.attrs))
        elif isinstance(e, Tuple):
            out = Tuple([new[id(f)] for f in e.fields])
        elif isinstance(e, TupleGetItem):
            out = TupleGetItem(new[id(e.tuple_value)], e.index)
        elif isinstance(e, If):
            out = If(new[id(e.cond)], new[id(e.true_branch)], new[id(e.false_branch)])
        else:
            out = e
        new[id(e)] = out
        if id(e) in value_of:
            new[id(value_of[id(e)])] = out
    return new[id(body)]


def inline_lets(fn: Function) -> Function:
    """``fn`` with its let-bound values substituted for their variables (first-order dataflow
    is pure, so this changes no result), keeping ``PlanDevices``' devices."""
    out = Function(fn.params, _without_lets(fn.body), fn.ret_type, fn.type_params, fn.attrs)
    for attr in ("virtual_device_", "param_virtual_devices"):
        if hasattr(fn, attr):
            setattr(out, attr, getattr(fn, attr))
    return out
