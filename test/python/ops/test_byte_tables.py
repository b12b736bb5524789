"""relay-byte-tables: a float function of one 8-bit tensor (dequantize, GELU / sigmoid /
tanh, quantize) becomes a lookup in a table of its 256 values computed at compile time
(test/lit/transforms/byte-tables.mlir checks the IR). Against numpy's float64 evaluation
of the same function on all 256 bytes: float results within 1e-6, quantized results equal
except at most one step where numpy's value is within 1e-3 of a rounding tie (the table's
float32 folding and numpy's float64 may round such a value apart)."""
from __future__ import annotations

import math

import numpy as np
import pytest

import relay_mlir as relay

BYTES = np.arange(256, dtype=np.uint8).reshape(16, 16)
SCALE, ZERO = 0.05, 128


def _c(v):
    return relay.const(np.float32(v))


def _dequantized(x):
    return (relay.cast(x, "float32") - _c(ZERO)) * _c(SCALE)


FUNCTIONS = {
    "gelu": (lambda y: y * _c(0.5) * (_c(1.0) + relay.erf(y / _c(math.sqrt(2.0)))),
             lambda y: y * 0.5 * (1.0 + np.vectorize(math.erf)(y / math.sqrt(2.0)))),
    "sigmoid": (relay.sigmoid, lambda y: 1.0 / (1.0 + np.exp(-y))),
    "tanh": (relay.tanh, np.tanh),
}


def _compile(fn):
    return relay.compile(relay.IRModule.from_expr(fn), target="llvm-cpu")


@pytest.mark.parametrize("name", list(FUNCTIONS))
def test_float_function_of_bytes(name):
    """Dequantize then f, in float32: a table for GELU (13 ops); a dequantized sigmoid or
    tanh is too short for one (fewer than 8 ops) and runs as it is."""
    ours, ref = FUNCTIONS[name]
    x = relay.var("x", shape=BYTES.shape, dtype="uint8")
    exe = _compile(relay.Function([x], ours(_dequantized(x))))
    assert ("tensor<256xf32>" in exe.iree_input) == (name == "gelu")
    want = ref((BYTES.astype(np.float64) - ZERO) * SCALE)
    np.testing.assert_allclose(exe(BYTES), want, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("name", list(FUNCTIONS))
def test_quantized_function_of_bytes(name):
    """uint8 -> dequantize -> f -> quantize (round half to even, zero point 3, int8)."""
    ours, ref = FUNCTIONS[name]
    x = relay.var("x", shape=BYTES.shape, dtype="uint8")
    s_out = 0.02
    q = relay.cast(relay.clip(relay.round(ours(_dequantized(x)) / _c(s_out)) + _c(3.0), -128, 127),
                   "int8")
    exe = _compile(relay.Function([x], q))
    assert "tensor<256xi8>" in exe.iree_input
    v = ref((BYTES.astype(np.float64) - ZERO) * SCALE) / s_out
    # relay.round rounds half away from zero
    want = np.clip(np.sign(v) * np.floor(np.abs(v) + 0.5) + 3, -128, 127)
    got = exe(BYTES).astype(np.float64)
    near_tie = np.abs(np.abs(v - np.trunc(v)) - 0.5) < 1e-3
    assert np.all(np.abs(got - want) <= 1)
    np.testing.assert_array_equal(got[~near_tie], want[~near_tie])


def test_short_function_is_left_alone():
    """A dequantization alone (a few ops) is cheaper than a lookup: no table."""
    x = relay.var("x", shape=BYTES.shape, dtype="uint8")
    exe = _compile(relay.Function([x], _dequantized(x)))
    assert "tensor<256x" not in exe.iree_input
    np.testing.assert_allclose(exe(BYTES), (BYTES.astype(np.float64) - ZERO) * SCALE, rtol=1e-6)
