"""The qnn operators' builders and debug-interpreter kernels, bit-exact with TVM 0.19.

Reference values were recorded from TVM 0.19 (side venv, ``relay.build`` for
llvm at opt_level 3, graph executor) by record_qnn_tvm.py on the cases of
qnn_cases.py (seeded random inputs; constant scales and zero points, per
tensor and per channel) into qnn_tvm_results.json. The interpreter must
match them EXACTLY (tolerance 0, integer and float results) for
relay.qnn.op.quantize, dequantize, requantize, dense, batch_matmul, conv2d,
add, subtract, mul, concatenate, avg_pool2d, conv2d_transpose, the unary ops
(abs, exp, log, sigmoid, tanh, erf, sqrt, rsqrt, hardswish: TVM's lookup
tables), leaky_relu and softmax. The compiled (llvm-cpu) side is test_qnn_lowering.py.
"""
from __future__ import annotations

import numpy as np
import pytest

import relay_mlir as relay
from _qnn_common import RECORDED, assert_bit_exact, case_function, recorded
from qnn_cases import CASES, PROGRAM_TEXT, inputs, program_inputs

QNN_OPS = ("qnn.quantize", "qnn.dequantize", "qnn.requantize", "qnn.dense", "qnn.batch_matmul",
           "qnn.conv2d", "qnn.add", "qnn.subtract", "qnn.mul", "qnn.concatenate", "qnn.avg_pool2d",
           "qnn.conv2d_transpose", "qnn.abs", "qnn.exp", "qnn.log", "qnn.sigmoid", "qnn.tanh",
           "qnn.erf", "qnn.sqrt", "qnn.rsqrt", "qnn.hardswish", "qnn.leaky_relu", "qnn.softmax")


def test_every_qnn_op_has_tvm_cases():
    assert sorted({"qnn." + c["op"] for c in CASES.values()}) == sorted(QNN_OPS)
    assert sorted(RECORDED) == sorted(list(CASES) + ["program"])


@pytest.mark.parametrize("name", sorted(CASES))
def test_interpreter_matches_tvm(name):
    mod = relay.IRModule.from_expr(case_function(name))
    run = relay.create_executor("debug", mod=mod).evaluate()
    assert_bit_exact(run(*inputs(name)), recorded(name))


def test_tvm_text_parses_and_interprets_as_tvm():
    """TVM's own text of a quantized program (quantize, conv2d, per-channel
    requantize, add, mul, dequantize) parses, and the interpreter gives TVM's
    float32 results exactly."""
    mod = relay.fromtext(PROGRAM_TEXT)
    assert mod["main"].body.op.name == "qnn.dequantize"
    assert_bit_exact(relay.create_executor("debug", mod=mod).evaluate()(*program_inputs()),
                     recorded("program"))


# TVM 0.19's text of avg_pool2d -> leaky_relu -> sigmoid -> concatenate -> softmax and a
# conv2d_transpose (mod.astext()), and its results (relay.build, llvm, opt_level 3) on
# _more_text_inputs(): recorded by hand with the side venv, as data.
MORE_TEXT = """#[version = "0.0.5"]
def @main(%x: Tensor[(1, 4, 4, 2), int8], %d: Tensor[(1, 2, 3, 3), int8], %w: Tensor[(2, 3, 2, 2), int8]) {
  %0 = qnn.avg_pool2d(%x, 0.5f, 1, 0.25f, 0, pool_size=[2, 2], strides=[2, 2], layout="NHWC", count_include_pad=True);
  %1 = qnn.leaky_relu(%0, 0.25f, 0, 0.25f, 0, alpha=0.1f);
  %2 = qnn.sigmoid(%1, 0.25f, 0, 0.00390625f, -128);
  %3 = (%2, %2);
  %4 = (0.00390625f, 0.00390625f);
  %5 = (-128, -128);
  %6 = qnn.concatenate(%3, %4, %5, 0.0078125f, 0, axis=3);
  %7 = qnn.softmax(%6, 0.0078125f, 0, 0.00390625f, -128);
  %8 = qnn.conv2d_transpose(%d, %w, 0, 0, 0.5f, 0.5f, channels=3, kernel_size=[2, 2], padding=[0, 0, 0, 0], out_dtype="int32");
  (%7, %8)
}
"""
MORE_TEXT_Y = [-64, -66, -64, -66, -64, -66, -64, -66, -64, -64, -64, -64, -64, -64, -64, -64]
MORE_TEXT_T = [4960, -2273, -14625, -13296, 11526, 24948, 10595, -9105, -3066, -3020, 13152, 17224, 4390, 3200, -9586, -3657, 4732, 2962, -15631, -5505, 5738, 19897, 3436, 4956, -9074, 1144, 5791, 2233, 2331, -5027, -3190, -214, -6536, -7698, 12326, 12804, -1422, -18080, -4260, 8028, 118, -12209, 40, 7740, 4853, -1892, -6491, -446]


def _more_text_inputs():
    rng = np.random.RandomState(3)
    return [rng.randint(-128, 128, size=(1, 4, 4, 2)).astype("int8"),
            rng.randint(-128, 128, size=(1, 2, 3, 3)).astype("int8"),
            rng.randint(-128, 128, size=(2, 3, 2, 2)).astype("int8")]


def test_tvm_text_of_the_other_ops_parses_and_interprets_as_tvm():
    """TVM's printed forms (avg_pool2d's omitted window attributes, leaky_relu's alpha
    after the parameters, concatenate's three tuples) parse; the interpreter gives TVM's
    results exactly."""
    mod = relay.fromtext(MORE_TEXT)
    y, t = relay.create_executor("debug", mod=mod).evaluate()(*_more_text_inputs())
    assert_bit_exact(y, np.array(MORE_TEXT_Y, "int8").reshape(1, 2, 2, 4))
    assert_bit_exact(t, np.array(MORE_TEXT_T, "int32").reshape(1, 3, 4, 4))


X = relay.var("x", shape=(2, 3), dtype="float32")
Q = relay.var("q", shape=(2, 3), dtype="int8")


def test_builders_mirror_tvm_defaults():
    """TVM 0.19's defaults (python/tvm/relay/qnn/op/qnn.py); numbers become constants."""
    assert relay.qnn.op.quantize(X, 0.5, 0).attrs == {"axis": -1, "out_dtype": "int8"}
    assert relay.qnn.op.dequantize(Q, 0.5, 0).attrs == {"axis": -1, "out_dtype": "float32"}
    assert relay.qnn.op.requantize(Q, 0.5, 0, 0.25, 0).attrs == {
        "axis": -1, "rounding": "None", "compute_dtype": "None", "out_dtype": "int8"}
    assert relay.qnn.op.dense(Q, Q, 0, 0, 0.5, 0.5, None).attrs["out_dtype"] == "int32"
    assert relay.qnn.op.batch_matmul(Q, Q, 0, 0, 0.5, 0.5).attrs == {"out_dtype": "int32"}
    conv = relay.qnn.op.conv2d(Q, Q, 0, 0, 0.5, 0.5, (3, 3), 4)
    assert conv.attrs["padding"] == [0, 0] and conv.attrs["out_dtype"] == "int32"
    assert relay.qnn.op.add(Q, Q, 0.5, 0, 0.5, 0, 0.5, 0).attrs == {"lhs_axis": -1, "rhs_axis": -1}
    scale = relay.qnn.op.quantize(X, 0.5, 3).args[1]
    assert isinstance(scale, relay.Constant) and scale.data.dtype == np.float32
    with pytest.raises(ValueError, match="'rounding' must be one of None, UPWARD, TONEAREST"):
        relay.qnn.op.requantize(Q, 0.5, 0, 0.25, 0, rounding="DOWN")
    with pytest.raises(TypeError, match="'output_scale' must be a relay expression or a number"):
        relay.qnn.op.quantize(X, "0.5", 0)


def test_builders_of_the_other_ops_mirror_tvm_defaults():
    """concatenate / avg_pool2d / conv2d_transpose / unary / leaky_relu / softmax:
    TVM 0.19's argument order and defaults (avg_pool2d NHWC, count_include_pad)."""
    cat = relay.qnn.op.concatenate([Q, Q], [0.5, 0.25], [0, 1], 0.5, 0, axis=1)
    assert len(cat.args) == 8 and cat.attrs == {"axis": 1}
    pool = relay.qnn.op.avg_pool2d(Q, 0.5, 0, 0.5, 0, (2, 2), (1, 1), (0, 0), (1, 1))
    assert pool.attrs["layout"] == "NHWC" and pool.attrs["count_include_pad"] is True
    assert pool.attrs["ceil_mode"] is False
    tconv = relay.qnn.op.conv2d_transpose(Q, Q, 0, 0, 0.5, 0.5)
    assert tconv.attrs["kernel_layout"] == "IOHW" and tconv.attrs["out_dtype"] == "int32"
    assert relay.qnn.op.sigmoid(Q, 0.5, 0, 0.5, 0).op.name == "qnn.sigmoid"
    assert relay.qnn.op.leaky_relu(Q, 0.1, 0.5, 0, 0.5, 0).attrs == {"alpha": 0.1}
    assert relay.qnn.op.softmax(Q, 0.5, 0, 0.5, 0).attrs == {"axis": -1}
    with pytest.raises(ValueError, match="2 tensors need as many input_scales and input_zero_points"):
        relay.qnn.op.concatenate([Q, Q], [0.5], [0, 1], 0.5, 0, axis=1)


def test_interpreter_refuses_float_compute_dtype():
    mod = relay.IRModule.from_expr(relay.Function(
        [Q], relay.qnn.op.requantize(Q, 0.5, 0, 0.25, 0, compute_dtype="float32")))
    with pytest.raises(relay.RelayRuntimeError, match="compute_dtype 'float32' is not supported"):
        relay.create_executor("debug", mod=mod).evaluate()(np.zeros((2, 3), "int8"))


@pytest.mark.parametrize("name", ["relay_mlir.qnn", "relay_mlir.qnn.op.qnn", "relay_mlir.qnn.fixed_point",
                                  "relay_mlir.qnn.kernels", "relay_mlir.qnn.more_kernels"])
def test_docstring_examples(name):
    import doctest
    import importlib
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
