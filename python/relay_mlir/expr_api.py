"""TVM 0.19's free functions on expressions: ``relay.bind``, ``relay.astext``,
``relay.pretty_print``.

``bind(expr, binds)`` substitutes variables (``binds``: Var -> Expr) everywhere in ``expr``;
for a Function, a parameter bound to a variable becomes that variable and a parameter bound
to any other expression is dropped from the parameters (measured in TVM 0.19: binding ``y``
to ``1f`` in ``fn (%x, %y)`` gives ``fn (%x)``, binding ``x`` to ``%z`` gives ``fn (%z, ...)``).

    >>> import relay_mlir as relay
    >>> x, y, z = relay.var("x", shape=(2,)), relay.var("y", shape=(2,)), relay.var("z", shape=(2,))
    >>> f = relay.bind(relay.Function([x, y], x + y), {y: relay.const(1.0), x: z})
    >>> [p.name_hint for p in f.params], f.body.args[1].data.item()
    (['z'], 1.0)
"""
from __future__ import annotations

from typing import Mapping, Optional

from .expr import Expr, Function, Var
from .expr_functor import Substitute

__all__ = ["bind", "astext", "pretty_print"]


def bind(expr: Expr, binds: Mapping[Var, Expr]) -> Expr:
    """``expr`` with the variables of ``binds`` replaced (module docstring)."""
    for v, e in binds.items():
        if not isinstance(v, Var) or not isinstance(e, Expr):
            raise TypeError(f"bind: binds maps relay Vars to relay Exprs, got {type(v).__name__} -> "
                            f"{type(e).__name__}")
    sub = Substitute(dict(binds))
    if not isinstance(expr, Function):
        return sub.visit(expr)
    params = [binds.get(p, p) for p in expr.params]
    params = [p for p in params if isinstance(p, Var)]
    return Function(params, sub.visit(expr.body), expr.ret_type, expr.type_params, expr.attrs)


def astext(obj, show_meta_data: bool = True, annotate: Optional[object] = None) -> str:
    """Relay text of an expression or module (TVM's ``relay.astext``). ``annotate`` (TVM's
    per-node comment callback) is not supported."""
    if annotate is not None:
        raise NotImplementedError("relay.astext: the annotate callback is not supported")
    if not hasattr(obj, "astext"):
        raise TypeError(f"relay.astext: an expression or IRModule, got {type(obj).__name__}")
    return obj.astext(show_meta_data=show_meta_data)


def pretty_print(obj) -> None:
    """Prints the Relay text of ``obj`` (TVM's ``relay.pretty_print``)."""
    print(astext(obj))
