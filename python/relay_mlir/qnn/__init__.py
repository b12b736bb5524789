"""Relay's quantized operators, ``relay.qnn`` (TVM 0.19's ``tvm.relay.qnn``).

``relay.qnn.op.quantize / dequantize / requantize / ...`` build calls of the
``qnn.*`` dialect ops; the debug interpreter's kernels are in
``relay_mlir.qnn.kernels`` (registered into ``interpreter_ops.KERNELS`` on import).

    >>> import relay_mlir as relay
    >>> x = relay.var("x", shape=(4,))
    >>> relay.qnn.op.quantize(x, relay.const(0.5), relay.const(3)).op.name
    'qnn.quantize'
"""
from . import kernels, more_kernels, op, simulated_kernels  # noqa: F401  (registers the qnn kernels)

__all__ = ["op", "transform"]


def __getattr__(name: str):
    """``relay.qnn.transform`` (its passes sit above the core layers: loaded when first used)."""
    if name == "transform":
        import importlib

        return importlib.import_module(".transform", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
