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

from .autodiff import _run_passes, gradient, jvp
from .errors import CompileError
from .module import IRModule
from .op import dyn as _dyn
from .ty import TensorType

__all__ = ["InferType", "DynamicToStatic", "FoldConstant", "gradient", "jvp"]


def _infer_expr_type(e):
    """(shape with None for ``?`` dims, dtype) of a tensor expression by InferType, or None
    (the type oracle of the dyn compositions, ``op.dyn.type_of``). An operand that does not
    type-check is a TypeError saying why (a dtype mismatch inside a shape computation, e.g.)."""
    try:
        InferType()(IRModule.from_expr(e))
    except CompileError as err:
        raise TypeError(f"the operand does not type-check: {err}") from None
    except (ValueError, TypeError):
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


class _PipelinePass:
    """A module pass that runs relay-mlir passes (after relay-infer-type) on the module's
    MLIR and reads the result back into expressions."""

    passes = ""

    def __call__(self, mod: IRModule) -> IRModule:
        if not isinstance(mod, IRModule):
            raise TypeError(f"{type(self).__name__}() applies to an IRModule")
        out = _run_passes(mod.to_mlir(infer=True).text(), "relay-infer-type," + self.passes,
                          type(self).__name__, types_of=mod)
        InferType()(out)
        return out


class DynamicToStatic(_PipelinePass):
    """Relay's DynamicToStatic (``relay-dynamic-to-static``): ``dyn.*`` operators whose shape
    arguments are constants become their static operators, ``shape_of`` of a static shape a
    constant, and the types after them are inferred again::

        >>> import numpy as np, relay_mlir as relay
        >>> x = relay.var("x", shape=(4, 6))
        >>> y = relay.op.dyn.tile(x, relay.const([2, 1], "int64"))
        >>> mod = relay.transform.DynamicToStatic()(relay.IRModule.from_expr(relay.Function([x], y)))
        >>> mod["main"].body.op.name, mod["main"].body.checked_type
        ('tile', TensorType([8, 6], float32))
    """

    passes = "relay-dynamic-to-static"


class FoldConstant(_PipelinePass):
    """Relay's FoldConstant (``relay-fold-constants``): operators on constants are computed
    at compile time."""

    passes = "relay-fold-constants"


_dyn.set_type_oracle(_infer_expr_type)
