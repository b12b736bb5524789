"""relay.transform.ConvertLayout (relay-convert-layout) against TVM 0.19.

TVM's results were recorded in the side venv (/work/tvmvenv, TVM 0.19): NET parsed with
``tvm.relay.fromtext``, typed, ``ConvertLayout(desired)`` applied in a PassContext(opt_level=3);
the layouts of its convolutions and pool and its layout changes counted.
"""
from __future__ import annotations

import numpy as np
import pytest

import relay_mlir as relay
from pass_checks import assert_same_outputs, node_counts
from relay_mlir.expr import Call
from relay_mlir.expr_functor import ExprVisitor
from relay_mlir.transform import ConvertLayout

NET = """
def @main(%x: Tensor[(1, 3, 8, 8), float32], %w: Tensor[(4, 3, 3, 3), float32],
          %w2: Tensor[(4, 4, 3, 3), float32], %b: Tensor[(4), float32]) {
  %0 = nn.conv2d(%x, %w, padding=[1, 1, 1, 1]);
  %1 = nn.bias_add(%0, %b);
  %2 = nn.relu(%1);
  %3 = nn.conv2d(%2, %w2, padding=[1, 1, 1, 1]);
  %4 = nn.max_pool2d(%3, pool_size=[2, 2], strides=[2, 2]);
  add(%4, 1f)
}"""
# TVM 0.19: (conv2d data/kernel layouts in order, max_pool2d layout, layout_transforms of
# data, of weights)
TVM = {
    "NHWC": ([("NHWC", "HWIO"), ("NHWC", "HWIO")], "NHWC", 4, 2),
    "NCHW": ([("NCHW", "OIHW"), ("NCHW", "OIHW")], "NCHW", 0, 0),
}


class _Layouts(ExprVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.convs, self.pool = [], None

    def visit_call(self, call: Call) -> None:
        super().visit_call(call)
        name = getattr(call.op, "name", "")
        if name == "nn.conv2d":
            self.convs.append((call.attrs.get("data_layout", "NCHW"),
                               call.attrs.get("kernel_layout", "OIHW")))
        elif name == "nn.max_pool2d":
            self.pool = call.attrs.get("layout", "NCHW")


@pytest.mark.parametrize("data", sorted(TVM))
@pytest.mark.parametrize("kernel_given", [False, True])
def test_convert_layout_as_tvm(data, kernel_given):
    mod = relay.fromtext(NET)
    kernel = {"NHWC": "HWIO", "NCHW": "OIHW"}[data] if kernel_given else "default"
    out = ConvertLayout({"nn.conv2d": [data, kernel]})(mod)
    v = _Layouts()
    v.visit(out["main"])
    convs, pool, tvm_data_changes, tvm_weight_changes = TVM[data]
    assert (v.convs, v.pool) == (convs, pool)
    # relay-mlir's layout changes are layout_transforms as TVM's, moved through bias_add
    # and relu, so the two in the middle cancel (TVM 0.19 keeps bias_add in NCHW: 4 changes
    # of the data); the run-time weights' changes are TVM's
    counts = node_counts(out)
    assert counts.get("layout_transform", 0) == (2 + tvm_weight_changes if tvm_data_changes else 0)
    assert counts.get("transpose", 0) == 0
    assert_same_outputs(mod, out)


def test_layouts_not_converted_are_refused():
    for bad, match in (({"nn.conv2d": ["NHWC", "OHWI"]}, "nn.conv2d layouts are"),
                       ({"nn.conv2d": ["NCHW4c", "default"]}, "nn.conv2d layouts are"),
                       ({"nn.conv2d_transpose": ["NHWC", "default"]}, "nn.conv2d only"),
                       ({}, "needs 'nn.conv2d'")):
        with pytest.raises(ValueError, match=match):
            ConvertLayout(bad)
    with pytest.raises(TypeError, match="desired_layouts is a dict"):
        ConvertLayout("NHWC")


def test_info():
    p = ConvertLayout({"nn.conv2d": ["NHWC", "default"]})
    assert (p.info.name, p.info.opt_level, p.info.required) == \
        ("ConvertLayout", 3, ("InferType", "CanonicalizeOps"))


def test_compiled_converted_net_matches_numpy_reference():
    """The NHWC program compiled on llvm-cpu equals the NCHW program run by the interpreter."""
    mod = relay.fromtext(NET)
    out = ConvertLayout({"nn.conv2d": ["NHWC", "default"]})(mod)
    rng = np.random.default_rng(3)
    args = [rng.standard_normal([int(d) for d in p.type_annotation.shape]).astype("float32")
            for p in mod["main"].params]
    want = relay.create_executor("debug", mod=mod).evaluate()(*args)
    got = relay.compile(out, target="llvm-cpu")(*args)
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-4, atol=1e-4)
