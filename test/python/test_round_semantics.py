"""``relay.round`` is TVM 0.19's: halves away from zero; the importers keep their
frameworks' rule (ONNX Round / QuantizeLinear and ``torch.round``: halves to even).

TVM_ROUND is what TVM 0.19 returned for HALVES, measured with
``relay.create_executor(kind, target="llvm")`` for kind debug, graph and vm
(float32, float64 and float16, signs of zeros included; FoldConstant gives
the same). TVM_NEAREST_TIES is its nearest-neighbour resize2d / upsampling
with align_corners from 3 to 5 pixels (coordinates 0, 0.5, 1, 1.5, 2: the
"round" rounding of coordinates is the same rule). Written out here, not
computed, so the tests do not depend on numpy's rule either.
"""
import numpy as np
import pytest

import relay_mlir as relay
from relay_mlir.frontend import from_onnx, from_torch

from conftest import vulkan_device_reason

HALVES = [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.49999997, 3.5, -3.5, -0.25, 7.0]
TVM_ROUND = [1.0, 2.0, 3.0, -1.0, -2.0, -3.0, 0.0, 4.0, -4.0, -0.0, 7.0]
TVM_NEAREST_TIES = [0.0, 10.0, 10.0, 20.0, 20.0]  # row 0 of the 5x5 output for [[0, 10, 20], ...]
HALF_TO_EVEN = [0.0, 2.0, 2.0, -0.0, -2.0, -2.0, 0.0, 4.0, -4.0, -0.0, 7.0]


def _round_module(dtype):
    x = relay.var("x", shape=(len(HALVES),), dtype=dtype)
    return relay.IRModule.from_expr(relay.Function([x], relay.round(x)))


def _assert_exact(got, want, dtype):
    got = np.asarray(got)
    want = np.array(want, dtype=dtype)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))  # -0.5 -> -0


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
def test_relay_round_is_tvms(dtype):
    mod = _round_module(dtype)
    x = np.array(HALVES, dtype=dtype)
    want = TVM_ROUND if dtype != "float16" else TVM_ROUND[:6] + [1.0] + TVM_ROUND[7:]  # 0.49999997 -> 0.5 in f16
    _assert_exact(relay.create_executor("debug", mod=mod).evaluate()(x), want, dtype)
    _assert_exact(relay.compile(mod, target="llvm-cpu")(x), want, dtype)


def test_relay_round_on_vulkan():
    reason = vulkan_device_reason()
    if reason:
        pytest.skip(reason)
    exe = relay.compile(_round_module("float32"), target="vulkan-spirv")
    _assert_exact(exe(np.array(HALVES, "float32")), TVM_ROUND, "float32")


@pytest.mark.parametrize("which", ["resize2d", "upsampling"])
def test_nearest_align_corners_ties_are_tvms(which):
    x = relay.var("x", shape=(1, 1, 3, 3))
    if which == "resize2d":
        y = relay.image.resize2d(x, size=(5, 5), method="nearest_neighbor",
                                 coordinate_transformation_mode="align_corners")
    else:
        y = relay.nn.upsampling(x, scale_h=5 / 3, scale_w=5 / 3, align_corners=True)
    mod = relay.IRModule.from_expr(relay.Function([x], y))
    v = (np.arange(9, dtype="float32") * 10).reshape(1, 1, 3, 3)
    for got in (relay.create_executor("debug", mod=mod).evaluate()(v), relay.compile(mod)(v)):
        np.testing.assert_array_equal(np.asarray(got)[0, 0, 0], TVM_NEAREST_TIES)


def _onnx_model(nodes, inputs, outputs, opset=13):
    from onnx import helper
    graph = helper.make_graph(nodes, "round_test", inputs, outputs)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def test_onnx_round_is_half_to_even():
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper
    n = len(HALVES)
    model = _onnx_model([helper.make_node("Round", ["x"], ["y"])],
                        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [n])],
                        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [n])])
    onnx.checker.check_model(model)
    mod = from_onnx(model)
    x = np.array(HALVES, "float32")
    _assert_exact(relay.compile(mod)(x), HALF_TO_EVEN, "float32")
    _assert_exact(relay.create_executor("debug", mod=mod).evaluate()(x), HALF_TO_EVEN, "float32")


def test_onnx_quantize_linear_rounds_half_to_even():
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper, numpy_helper
    x = np.array([1.0, 3.0, 5.0, -1.0, -3.0, -5.0, 7.0, 0.2], "float32")  # / 2: halves
    model = _onnx_model([helper.make_node("QuantizeLinear", ["x", "s", "z"], ["y"])],
                        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [8])],
                        [helper.make_tensor_value_info("y", TensorProto.INT8, [8])])
    model.graph.initializer.extend([numpy_helper.from_array(np.array(2.0, "float32"), "s"),
                                    numpy_helper.from_array(np.array(0, "int8"), "z")])
    onnx.checker.check_model(model)
    got = relay.compile(from_onnx(model))(x)
    np.testing.assert_array_equal(got, np.array([0, 2, 2, 0, -2, -2, 4, 0], "int8"))


def test_torch_round_is_half_to_even():
    torch = pytest.importorskip("torch")

    class Round(torch.nn.Module):
        def forward(self, x):
            return torch.round(x)
    x = np.array(HALVES, "float32")
    mod = from_torch(Round(), (torch.from_numpy(x),))
    _assert_exact(relay.compile(mod)(x), HALF_TO_EVEN, "float32")
    _assert_exact(torch.round(torch.from_numpy(x)).numpy(), HALF_TO_EVEN, "float32")  # the rule we follow
