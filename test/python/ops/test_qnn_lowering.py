"""The qnn operators compiled for llvm-cpu, bit-exact with TVM 0.19, and
their typing rules' located errors.

Every case of qnn_cases.py is a function of one of two modules, each compiled once, and must
equal TVM 0.19's recorded result (qnn_tvm_results.json, see test_qnn.py)
EXACTLY: qnn.quantize, qnn.dequantize, qnn.requantize, qnn.dense,
qnn.batch_matmul, qnn.conv2d, qnn.add, qnn.subtract, qnn.mul (one module) and
qnn.concatenate, avg_pool2d, conv2d_transpose, the unary lookup-table ops,
leaky_relu, softmax (a second module). TVM's printed
text of a quantized program compiles to TVM's results; a 3-D qnn.dense, which
TVM 0.19 cannot compile for x86, is checked against an independent numpy
formula; bad parameters are errors naming the op and the operand.
"""
from __future__ import annotations

import numpy as np
import pytest

import relay_mlir as relay
from _qnn_common import assert_bit_exact, case_function, recorded
from qnn_cases import CASES, PROGRAM_TEXT, inputs, program_inputs


# The first nine ops (Qnn.cpp) and the others (QnnComposite.cpp, QnnLookup.cpp) compile as two
# modules, so a lowering failure in one family does not hide the other's results.
FIRST_OPS = {"quantize", "dequantize", "requantize", "dense", "batch_matmul", "conv2d", "add", "subtract",
             "mul"}


def _family(name: str) -> str:
    return "first" if CASES[name]["op"] in FIRST_OPS else "more"


@pytest.fixture(scope="module")
def compiled():
    cache = {}

    def get(family: str):
        if family not in cache:
            mod = relay.IRModule({n: case_function(n) for n in CASES if _family(n) == family})
            cache[family] = relay.compile(mod, target="llvm-cpu")
        return cache[family]
    return get


@pytest.mark.parametrize("name", sorted(CASES))
def test_compiled_matches_tvm(compiled, name):
    assert_bit_exact(compiled(_family(name)).run(name, *inputs(name)), recorded(name))


def test_tvm_text_compiles_to_tvm_results():
    mod = relay.fromtext(PROGRAM_TEXT)
    assert_bit_exact(relay.compile(mod, target="llvm-cpu")(*program_inputs()), recorded("program"))


def test_dense_3d_against_numpy():
    """[2, 3, 8] · [4, 8]ᵀ: exact sums of (x - zx)(w - zw), numpy in int64."""
    rng = np.random.RandomState(5)
    x = rng.randint(0, 256, size=(2, 3, 8)).astype("uint8")
    w = rng.randint(-128, 128, size=(4, 8)).astype("int8")
    zw = np.array([1, -2, 3, 0], "int32")
    xv, wv = relay.var("x", shape=x.shape, dtype="uint8"), relay.var("w", shape=w.shape, dtype="int8")
    y = relay.qnn.op.dense(xv, wv, relay.const(100), relay.const(zw), relay.const(0.1),
                           relay.const(np.full(4, 0.2, "float32")), units=4)
    mod = relay.IRModule.from_expr(relay.Function([xv, wv], y))
    want = ((x.astype(np.int64) - 100) @ (w.astype(np.int64) - zw[:, None]).T).astype("int32")
    assert_bit_exact(relay.compile(mod, target="llvm-cpu")(x, w), want)
    assert_bit_exact(relay.create_executor("debug", mod=mod).evaluate()(x, w), want)


# -- bad input: errors naming the op and the operand -------------------------------------
X = relay.var("x", shape=(2, 3), dtype="float32")
Q = relay.var("q", shape=(2, 3), dtype="int8")


@pytest.mark.parametrize("build, message", [
    (lambda: relay.qnn.op.quantize(X, relay.const(0.0), relay.const(0)),
     "'relay.qnn.quantize' op operand 'output_scale' must be positive and finite, got 0"),
    (lambda: relay.qnn.op.quantize(X, relay.const(-0.5), relay.const(0)),
     "operand 'output_scale' must be positive and finite, got -0.5"),
    (lambda: relay.qnn.op.dequantize(Q, relay.const(np.array([1.0, np.inf, 1.0], "float32")),
                                     relay.const(0)),
     "operand 'input_scale' must be positive and finite, got inf at index 1"),
    (lambda: relay.qnn.op.quantize(X, relay.const(0.5), relay.const(300)),
     "operand 'output_zero_point' must be in [-128, 127] (the range of i8), got 300"),
    (lambda: relay.qnn.op.quantize(X, relay.const(0.5), relay.const(-1), out_dtype="uint8"),
     "operand 'output_zero_point' must be in [0, 255] (the range of ui8), got -1"),
    (lambda: relay.qnn.op.quantize(X, relay.const(np.array([0.5, 0.25], "float32")), relay.const(0)),
     "operand 'output_scale' must be 0-d or 1-D with one entry per channel (3 along the axis)"),
    (lambda: relay.qnn.op.requantize(Q, relay.const(0.5), relay.const(0),
                                     relay.const(np.array([0.5, 0.5, 0.5], "float32")), relay.const(0)),
     "operand 'output_scale' must be a 0-d tensor"),
    (lambda: relay.qnn.op.quantize(X, relay.const(0.5, "float64"), relay.const(0)),
     "operand 'output_scale' must be float32, got 'f64'"),
    (lambda: relay.qnn.op.quantize(Q, relay.const(0.5), relay.const(0)),
     "'relay.qnn.quantize' op operand 'data' must be float32, got 'i8'"),
    (lambda: relay.qnn.op.quantize(X, relay.const(0.5), relay.const(0), out_dtype="float32"),
     "out_dtype must be int8, uint8, int16, uint16 or int32, got 'f32'"),
    (lambda: relay.qnn.op.add(Q, relay.var("u", shape=(2, 3), dtype="uint8"), 0.5, 0, 0.5, 0, 0.5, 0),
     "operands 'lhs' and 'rhs' must have one dtype, got 'i8' and 'ui8'"),
    (lambda: relay.qnn.op.dense(Q, relay.var("w", shape=(4, 3), dtype="int16"), 0, 0, 0.5, 0.5, 4),
     "'relay.qnn.dense' op operand 'weight' must be int8 or uint8, got 'i16'"),
    (lambda: relay.qnn.op.concatenate([Q, Q], [0.5, 0.0], [0, 0], 0.5, 0, axis=1),
     "'relay.qnn.concatenate' op operand 'input_scales[1]' must be positive and finite, got 0"),
    (lambda: relay.qnn.op.concatenate([Q, relay.var("u", shape=(2, 3), dtype="uint8")], [0.5, 0.5],
                                      [0, 0], 0.5, 0, axis=1),
     "operands 'data[0]' and 'data[1]' must have one dtype, got 'i8' and 'ui8'"),
    (lambda: relay.qnn.op.avg_pool2d(relay.var("p", shape=(1, 4, 4, 2), dtype="int8"), 0.5, 200, 0.5, 0,
                                     (2, 2), (2, 2), (0, 0), (1, 1)),
     "'relay.qnn.avg_pool2d' op operand 'input_zero_point' must be in [-128, 127] (the range of i8), got 200"),
    (lambda: relay.qnn.op.sigmoid(relay.var("h", shape=(4,), dtype="int16"), 0.5, 0, 0.5, 0),
     "'relay.qnn.sigmoid' op operand 'x' must be int8 or uint8, got 'i16'"),
    (lambda: relay.qnn.op.softmax(relay.var("u", shape=(4,), dtype="uint8"), 0.5, 0, 0.5, 0),
     "'relay.qnn.softmax' op operand 'x' must be int8, got 'ui8'"),
    (lambda: relay.qnn.op.tanh(Q, 0.5, 0, float("nan"), 0),
     "'relay.qnn.tanh' op operand 'output_scale' must be positive and finite, got nan"),
    (lambda: relay.qnn.op.conv2d_transpose(relay.var("d", shape=(1, 4, 5, 5), dtype="int8"),
                                           relay.var("k", shape=(4, 2, 3, 3), dtype="int8"), 0, 0, 0.5,
                                           np.array([0.5, 0.5, 0.5], "float32")),
     "operand 'kernel_scale' must be 0-d or 1-D with one entry per channel (2 along the axis)"),
])
def test_bad_parameters_are_located_errors(build, message):
    with pytest.raises(Exception) as e:
        relay.transform.InferType()(relay.IRModule.from_expr(build()))
    assert message in str(e.value)


def test_requantize_needs_constant_scales():
    s = relay.var("s", shape=(), dtype="float32")
    y = relay.qnn.op.requantize(Q, s, relay.const(0), relay.const(0.5), relay.const(0))
    with pytest.raises(Exception) as e:
        relay.compile(relay.IRModule.from_expr(relay.Function([Q, s], y)), target="llvm-cpu")
    assert "'relay.qnn.requantize' op needs constant input_scale and output_scale" in str(e.value)


# (name, data shape, dtype, zp, kernel shape, dtype, kernel zp, attrs): kernel zero point 0 (after
# moving uint8 down by 128), int32 out — the int8 x int8 -> int32 convolution over data padded
# with its zero point, minus z·Σw (Qnn.cpp int8Conv2D); per-channel zero points of zeros,
# depthwise, grouped, NCHW and NHWC
INT8_CONVS = [
    ("int8_nchw_pad_stride", (1, 3, 9, 9), "int8", 5, (4, 3, 3, 3), "int8", 0,
     dict(kernel_size=(3, 3), channels=4, padding=(1, 1), strides=(2, 2))),
    ("uint8_nhwc_per_channel_zeros", (2, 7, 6, 8), "uint8", 131, (2, 3, 8, 3), "int8", [0, 0, 0],
     dict(kernel_size=(2, 3), channels=3, padding=(1, 0, 2, 1), dilation=(2, 1),
          data_layout="NHWC", kernel_layout="HWIO")),
    ("uint8_uint8_depthwise_nhwc", (1, 10, 9, 32), "uint8", 3, (3, 3, 32, 1), "uint8", 128,
     dict(kernel_size=(3, 3), channels=32, padding=(1, 1), groups=32,
          data_layout="NHWC", kernel_layout="HWOI")),
    ("int8_grouped_zp0", (1, 4, 6, 6), "int8", 0, (6, 2, 3, 3), "int8", 0,
     dict(kernel_size=(3, 3), channels=6, padding=(2, 1), groups=2)),
]


@pytest.mark.parametrize("name,xs,xt,xz,ws,wt,wz,attrs", INT8_CONVS, ids=[c[0] for c in INT8_CONVS])
def test_int8_conv2d_form_matches_numpy(name, xs, xt, xz, ws, wt, wz, attrs):
    """qnn.conv2d whose kernel zero point is 0 compiles to an int8 x int8 -> int32 convolution
    (IREE's, or relay-vnni-matmul's kernel where the host has AVX-512 VNNI; no int32 convolution
    of shifted operands) and equals Σ (x - zx)·(w - zw) over x padded with zx, in int64 numpy."""
    import re
    from relay_mlir.testing import numpy_ref as ref
    rng = np.random.default_rng(7)
    lo, hi = (0, 256) if xt == "uint8" else (-128, 128)
    x = rng.integers(lo, hi, xs).astype(xt)
    lo, hi = (0, 256) if wt == "uint8" else (-128, 128)
    w = rng.integers(lo, hi, ws).astype(wt)
    zw = np.array(wz, np.int32)
    data = relay.var("x", shape=xs, dtype=xt)
    y = relay.qnn.op.conv2d(data, relay.const(w), relay.const(np.int32(xz)), relay.const(zw),
                            relay.const(np.float32(0.5)), relay.const(np.float32(0.25)),
                            out_dtype="int32", **attrs)
    exe = relay.compile(relay.IRModule.from_expr(relay.Function([data], y)), target="llvm-cpu")
    lowered = exe.iree_input
    assert "relay_vnni_" in lowered or re.search(r"linalg\.(depthwise_)?conv_2d\w* .*ins\(.*xi8>, tensor<[^>]*xi8>\)",
                                                lowered), name
    layout = attrs.get("data_layout", "NCHW")
    kernel = attrs.get("kernel_layout", "OIHW")
    o_axis = kernel.index("O")
    shape = [1] * 4
    shape[o_axis] = -1
    wshift = w.astype(np.int64) - np.broadcast_to(zw, (ws[o_axis],)).reshape(shape)
    pad = attrs.get("padding", (0, 0))
    pad4 = tuple(pad) * 2 if len(pad) == 2 else tuple(pad)
    t, l, b, r = pad4
    hw = [layout.index("H"), layout.index("W")]
    widths = [(0, 0)] * 4
    widths[hw[0]], widths[hw[1]] = (t, b), (l, r)
    xp = np.pad(x.astype(np.int64) - xz, widths)
    want = ref.conv2d(xp, wshift, strides=attrs.get("strides", (1, 1)), dilation=attrs.get("dilation", (1, 1)),
                      groups=attrs.get("groups", 1), data_layout=layout, kernel_layout=kernel)
    np.testing.assert_array_equal(exe(x), want)


@pytest.mark.parametrize("wz", [0, 5], ids=["kernel_zp0", "kernel_zp5"])
def test_uint8_int8_dense_is_an_int8_contraction(wz):
    """qnn.dense of uint8 data (zero point 131) and int8 weights: both int8 (the data moved down
    by 128) and one int8 x int8 -> int32 contraction (our kernel on an AVX-512 VNNI host),
    corrected by the zero points' terms (none for a kernel zero point of 0), as numpy's
    Σ (x - zx)·(w - zw)."""
    import re
    rng = np.random.default_rng(11)
    x = rng.integers(0, 256, (5, 40)).astype(np.uint8)
    w = rng.integers(-128, 128, (24, 40)).astype(np.int8)
    data = relay.var("x", shape=x.shape, dtype="uint8")
    y = relay.qnn.op.dense(data, relay.const(w), relay.const(np.int32(131)), relay.const(np.int32(wz)),
                           relay.const(np.float32(0.5)), relay.const(np.float32(0.25)), units=24,
                           out_dtype="int32")
    exe = relay.compile(relay.IRModule.from_expr(relay.Function([data], y)), target="llvm-cpu")
    assert "relay_vnni_gemm_" in exe.iree_input or re.search(
        r"linalg\.matmul .*ins\(.*xi8>, tensor<[^>]*xi8>\)", exe.iree_input)
    want = (x.astype(np.int64) - 131) @ (w.astype(np.int64) - wz).T
    np.testing.assert_array_equal(exe(x), want)
