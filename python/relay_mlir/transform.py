"""Module passes in Relay's calling style: ``relay_mlir.transform.InferType()(mod)``.

Example::

    >>> import relay_mlir as relay
    >>> x = relay.var("x", shape=(2, 3))
    >>> mod = relay.IRModule.from_expr(relay.Function([x], relay.sum(x, axis=1)))
    >>> mod = relay.transform.InferType()(mod)
    >>> mod["main"].body.checked_type
    TensorType([2], float32)
"""
from __future__ import annotations

from .autodiff import gradient, jvp
from .errors import CompileError
from .module import IRModule
from .op import dyn as _dyn
from .ty import TensorType

__all__ = ["InferType", "gradient", "jvp"]


def _infer_expr_type(e):
    """(shape with None for ``?`` dims, dtype) of a tensor expression by InferType, or None
    (the type oracle of the dyn compositions, ``op.dyn.type_of``)."""
    try:
        InferType()(IRModule.from_expr(e))
    except (CompileError, ValueError, TypeError):
        return None
    t = getattr(e, "_checked_type", None)
    if not isinstance(t, TensorType):
        return None
    return tuple(d if isinstance(d, int) else None for d in t.shape), t.dtype


class InferType:
    """Runs ``relay-infer-type`` (the C++ relations) on a module.

    Every expression of the module gets ``checked_type``; ``mod.mlir()``
    shows the typed MLIR. Type errors raise ``CompileError``.
    """

    def __call__(self, mod: IRModule) -> IRModule:
        if not isinstance(mod, IRModule):
            raise TypeError("InferType() applies to an IRModule")
        mod._emitted = mod.to_mlir(infer=True)
        return mod


_dyn.set_type_oracle(_infer_expr_type)
