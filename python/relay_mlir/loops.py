"""``relay.loops``: loops as Relay writes them, a let-bound recursive function.

``while_loop(cond, loop_vars, loop_bodies)`` is TVM Relay's helper of the same
name and meaning: it returns an expression evaluating to a function of the
loop variables that, while ``cond(*vars)`` holds, calls itself with
``loop_bodies(*vars)``, and otherwise returns the variables as a tuple::

    i = relay.var("i", shape=(), dtype="int32")
    s = relay.var("s", shape=(2,))
    loop = relay.loops.while_loop(lambda i, s: relay.less(i, relay.const(10)),
                                  [i, s], lambda i, s: [i + relay.const(1), s * s])
    result = loop(relay.const(0), x)          # a tuple (i, s)

The function is a recursive closure (``let %while_loop = fn (...) {...};
%while_loop``); compiled, its self tail call becomes a loop
(relay-eliminate-recursion). A loop variable keeps its type across
iterations: a variable that is not a ``Var`` with a type annotation gets its
type from inference.
"""
from __future__ import annotations

from typing import Callable, Sequence

from .expr import Expr, Function, Let, Tuple, Var, var
from .scope_builder import ScopeBuilder

__all__ = ["while_loop"]


def _type_of(e: Expr):
    """A loop variable's declared type (None: left to inference)."""
    return e.type_annotation if isinstance(e, Var) else None


def while_loop(cond: Callable[..., Expr], loop_vars: Sequence[Expr],
               loop_bodies: Callable[..., Sequence[Expr]]) -> Expr:
    """A loop over ``loop_vars``: an expression evaluating to its function (call it with the
    initial values; it returns the final values as a tuple)."""
    loop_vars = list(loop_vars)
    if not loop_vars:
        raise ValueError("while_loop needs at least one loop variable")
    loop = var("while_loop")
    fresh = [var(v.name_hint if isinstance(v, Var) else f"arg{i}", _type_of(v))
             for i, v in enumerate(loop_vars)]
    sb = ScopeBuilder()
    with sb.if_scope(cond(*fresh)):
        nxt = loop_bodies(*fresh)
        nxt = list(nxt.fields) if isinstance(nxt, Tuple) else list(nxt)
        if len(nxt) != len(fresh):
            raise ValueError(f"loop_bodies gave {len(nxt)} values for {len(fresh)} loop variables")
        sb.ret(loop(*nxt))
    with sb.else_scope():
        sb.ret(Tuple(fresh))
    return Let(loop, Function(fresh, sb.get()), loop)
