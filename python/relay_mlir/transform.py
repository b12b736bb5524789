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
from .module import IRModule

__all__ = ["InferType", "gradient", "jvp"]


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
