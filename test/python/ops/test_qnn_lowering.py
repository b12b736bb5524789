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
