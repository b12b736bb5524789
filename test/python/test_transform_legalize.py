"""relay.transform.Legalize (relay-legalize) against TVM 0.19.

TVM's results were recorded in the side venv (/work/tvmvenv, TVM 0.19): each program parsed
with ``tvm.relay.fromtext``, typed, ``Legalize()`` applied inside ``tvm.target.Target("llvm")``
and ``PassContext(opt_level=3)``, and main's operators listed (operands first). On llvm TVM
leaves float32 erf, conv2d (NCHW, NHWC, uint8 x int8), dense (float32, int8), batch_matmul,
take and matmul alone.
"""
from __future__ import annotations

import numpy as np
import pytest

import relay_mlir as relay
from relay_mlir.expr import Call, Op
from relay_mlir.expr_functor import ExprVisitor
from relay_mlir.transform import Legalize

PROGRAMS = {
    "erf16": ('def @main(%x: Tensor[(2, 8), float16]) { erf(%x) }',
              ["cast", "erf", "cast"]),
    "erf32": ('def @main(%x: Tensor[(2, 8), float32]) { erf(%x) }', ["erf"]),
    "conv_transpose_nhwc": (
        'def @main(%x: Tensor[(1, 8, 8, 3), float32], %w: Tensor[(3, 3, 4, 3), float32]) {'
        ' nn.conv2d_transpose(%x, %w, channels=4, kernel_size=[3, 3], data_layout="NHWC",'
        ' kernel_layout="HWOI") }',
        ["transpose", "transpose", "nn.conv2d_transpose", "transpose"]),
    "conv_transpose_nchw": (
        'def @main(%x: Tensor[(1, 3, 8, 8), float32], %w: Tensor[(3, 4, 3, 3), float32]) {'
        ' nn.conv2d_transpose(%x, %w, channels=4, kernel_size=[3, 3]) }',
        ["nn.conv2d_transpose"]),
    "conv2d_nhwc": (
        'def @main(%x: Tensor[(1, 8, 8, 3), float32], %w: Tensor[(3, 3, 3, 4), float32]) {'
        ' nn.conv2d(%x, %w, padding=[1, 1, 1, 1], data_layout="NHWC", kernel_layout="HWIO") }',
        ["nn.conv2d"]),
    "dense_int8": (
        'def @main(%x: Tensor[(2, 8), int8], %w: Tensor[(4, 8), int8]) {'
        ' nn.dense(%x, %w, units=4, out_dtype="int32") }', ["nn.dense"]),
}
# TVM 0.19's transposes for the NHWC / HWOI case: data, kernel, result
TVM_AXES = [[0, 3, 1, 2], [3, 2, 0, 1], [0, 2, 3, 1]]


class _Ops(ExprVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.calls = []

    def visit_call(self, call: Call) -> None:
        super().visit_call(call)
        if isinstance(call.op, Op):
            self.calls.append(call)


def ops(mod) -> list:
    v = _Ops()
    v.visit(mod["main"])
    return v.calls


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_legalize_as_tvm(name):
    text, tvm_ops = PROGRAMS[name]
    mod = relay.fromtext(text)
    out = Legalize()(mod)
    calls = ops(out)
    assert [c.op.name for c in calls] == tvm_ops
    if name == "conv_transpose_nhwc":
        assert [list(c.attrs["axes"]) for c in calls if c.op.name == "transpose"] == TVM_AXES
    rng = np.random.default_rng(1)
    args = []
    for p in mod["main"].params:
        t = p.type_annotation
        shape = [int(d) for d in t.shape]
        args.append(rng.integers(-4, 4, shape).astype(t.dtype) if "int" in t.dtype
                    else rng.standard_normal(shape).astype(t.dtype))
    run = lambda m: np.asarray(relay.create_executor("debug", mod=m).evaluate()(*args))  # noqa: E731
    before, after = run(mod), run(out)
    assert after.dtype == before.dtype and after.shape == before.shape
    # float16 erf: the interpreter computes it in float16 before, float32 after
    np.testing.assert_allclose(after.astype("float64"), before.astype("float64"),
                               rtol=1e-3 if name == "erf16" else 1e-5, atol=1e-3 if name == "erf16" else 1e-5)


def test_info_and_other_maps():
    p = Legalize()
    assert (p.info.name, p.info.opt_level, p.info.required) == ("Legalize", 1, ("InferType",))
    with pytest.raises(ValueError, match="not 'FTVMQnnLegalize'"):
        Legalize("FTVMQnnLegalize")
