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
    targets (relay_mlir.qnn_legalize says which); with no target or another kind, the module
    is unchanged."""

    _info = PassInfo(1, "Legalize", ["InferType"])

    def _for_target(self, target):
        from ..qnn_legalize import legalize_qnn
        from ..x86_target import has_fast_int8

        fast = has_fast_int8(target)
        return lambda fn: legalize_qnn(fn, fast)
