"""``relay.qnn.transform`` (TVM 0.19's ``tvm.relay.qnn.transform``): ``Legalize``.

    >>> import relay_mlir as relay
    >>> from relay_mlir.tvm.target import Target
    >>> x = relay.var("x", shape=(2, 8), dtype="int8")
    >>> w = relay.var("w", shape=(4, 8), dtype="int8")
    >>> y = relay.qnn.op.dense(x, w, 1, 2, 0.5, 0.25, units=4)
    >>> mod = relay.IRModule.from_expr(relay.Function([x, w], y))
    >>> with Target("llvm"):
    ...     relay.qnn.transform.Legalize()(mod)["main"].body.op.name
    'nn.dense'
"""
from __future__ import annotations

from ..pass_infra import PassInfo
from ..transform import _CPUTargetPass

__all__ = ["Legalize"]


class Legalize(_CPUTargetPass):
    """``relay.qnn.transform.Legalize()`` (TVM: ``relay.transform.Legalize("FTVMQnnLegalize")``;
    PassInfo "Legalize", opt level 1, requires InferType, a function pass): under a CPU
    ``tvm.target.Target``, TVM 0.19's rewrite of ``qnn.conv2d`` / ``qnn.dense`` for its x86
    targets, ``relay-qnn-legalize{fast-int8=..}`` with fast int8 when the target has sse4.2
    (``relay_mlir.x86_target.has_fast_int8``): without it int16 ``nn.conv2d`` / ``nn.dense`` of
    the operands minus their zero points, with it int8 data shifted to uint8 and a uint8 kernel
    to int8. With no target or another kind, the module is unchanged."""

    _info = PassInfo(1, "Legalize", ["InferType"])

    def _cpu_passes(self, target) -> str:
        from ..x86_target import has_fast_int8

        return f"relay-qnn-legalize{{fast-int8={str(has_fast_int8(target)).lower()}}}"
