"""The narrow dtypes beyond TVM 0.19: int4/uint4/int2/uint2 and the float8 family.

References: torch's float8 dtypes (round to nearest even) for the compiled float8
casts in range (torch saturates beyond; ``relay.cast``, as ml_dtypes, overflows to NaN/inf); onnxruntime for ONNX Cast (``saturate``) to float8 and
QuantizeLinear/DequantizeLinear with int4 and float8; the rule written out in
numpy (truncate towards zero, 0 outside the range; integers wrap) for casts to
int4/uint4/int2/uint2, which ONNX's reference (ml_dtypes) follows and onnxruntime
does not (it rounds and wraps: 7.9 -> -8). Exact equality throughout (NaNs equal).
"""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
import torch

import relay_mlir as relay
from relay_mlir.errors import CompileError, InputShapeError

X = np.array([0.3, -1000.0, 3.3, np.inf, 7.9, -2.6, -8.7, 1e-3, 250.0, np.nan, -0.0, 0.1015625],
             np.float32)
INTS = np.array([9, -9, 15, 16, -1, 127, -128, 3], np.int32)
FLOAT8_TORCH = {"float8_e4m3fn": "float8_e4m3fn", "float8_e5m2": "float8_e5m2",
                "float8_e4m3fnuz": "float8_e4m3fnuz", "float8_e5m2fnuz": "float8_e5m2fnuz"}
#: |x| from which relay.cast overflows (max + half an ulp at max; torch saturates there instead)
OVERFLOW = {"float8_e4m3fn": 464.0, "float8_e5m2": 61440.0, "float8_e4m3fnuz": 248.0,
            "float8_e5m2fnuz": 61440.0}
NARROW_INTS = {"int4": (-8, 7), "uint4": (0, 15), "int2": (-2, 1), "uint2": (0, 3)}


def _narrow_rule(x: np.ndarray, dtype: str) -> np.ndarray:
    """Cast to a narrow integer, written out: floats truncate and are 0 out of range (NaN
    too); integers keep their low bits (two's complement for the signed types)."""
    lo, hi = NARROW_INTS[dtype]
    if x.dtype.kind == "f":
        with np.errstate(invalid="ignore"):
            t = np.where(np.isfinite(x), np.trunc(x), 0.0)
        return np.where((t >= lo) & (t <= hi), t, 0).astype(np.int64)
    bits = (hi - lo + 1)
    return ((x.astype(np.int64) - lo) % bits) + lo


def _cast_program():
    """main(x: f32[12], i: i32[8]) -> the four float8 casts of x (as f32), the four
    narrow-integer casts of x and of i (as int8 and as themselves), float8_e8m0 (as f32)
    and float8 -> int8."""
    x = relay.var("x", shape=X.shape, dtype="float32")
    i = relay.var("i", shape=INTS.shape, dtype="int32")
    outs = []
    for dt in FLOAT8_TORCH:
        outs.append(relay.cast(relay.cast(x, dt), "float32"))
    for dt in NARROW_INTS:
        outs.append(relay.cast(relay.cast(x, dt), "int8"))
        outs.append(relay.cast(i, dt))
    outs.append(relay.cast(relay.cast(x, "float8_e8m0fnu"), "float32"))
    outs.append(relay.cast(relay.reshape(relay.cast(x, "float8_e5m2"), (3, 4)), "int8"))
    return relay.IRModule.from_expr(relay.Function([x, i], relay.Tuple(outs)))


@pytest.fixture(scope="module")
def cast_outputs():
    exe = relay.compile(_cast_program(), target="llvm")
    return exe(X, INTS)


def _assert_same(got: np.ndarray, want: np.ndarray) -> None:
    assert got.shape == want.shape
    np.testing.assert_array_equal(np.asarray(got, np.float64), np.asarray(want, np.float64))


def test_float8_casts_match_torch(cast_outputs):
    """In range: torch's rounding (to nearest even). Beyond max + half an ulp (torch
    saturates there): NaN, or +-inf for e5m2, the one type with infinities."""
    for k, dt in enumerate(FLOAT8_TORCH):
        want = torch.from_numpy(X).to(getattr(torch, FLOAT8_TORCH[dt])).to(torch.float32).numpy()
        with np.errstate(invalid="ignore"):
            over = ~np.isfinite(X) | (np.abs(X) >= OVERFLOW[dt])
        want = np.where(over, np.nan, want)
        if dt == "float8_e5m2":
            want = np.where(over & ~np.isnan(X), np.copysign(np.inf, X), want)
        _assert_same(cast_outputs[k], want)


def test_narrow_int_casts_follow_the_rule(cast_outputs):
    outs = cast_outputs[len(FLOAT8_TORCH):]
    for k, dt in enumerate(NARROW_INTS):
        from_float, from_int = outs[2 * k], outs[2 * k + 1]
        assert from_float.dtype == np.int8
        _assert_same(from_float, _narrow_rule(X, dt))
        assert from_int.dtype == np.dtype(getattr(ml_dtypes, dt))  # results come back as ml_dtypes
        _assert_same(from_int, _narrow_rule(INTS, dt))
    # float8 -> int8 through f32 (truncated towards zero; NaN/inf are left out)
    got = outs[-1].ravel()
    want = np.trunc(X.astype(ml_dtypes.float8_e5m2).astype(np.float32))
    ok = np.abs(want) < 128
    _assert_same(got[ok], want[ok])


def test_float8_e8m0_cast_is_the_exponent(cast_outputs):
    """relay.cast to float8_e8m0fnu: the power of two at or below |x| (NaN for inf/NaN), as
    ONNX's reference ``to_float8e8m0(x, round_mode="down")`` (IREE's truncf; ml_dtypes would
    round to nearest)."""
    from onnx.numpy_helper import to_float8e8m0

    want = to_float8e8m0(X, saturate=True, round_mode="down").astype(np.float32)
    _assert_same(cast_outputs[len(FLOAT8_TORCH) + 2 * len(NARROW_INTS)], want)


def test_interpreter_agrees_with_compiled(cast_outputs):
    ref = relay.create_executor("debug", _cast_program()).evaluate()(X, INTS)
    for got, want in zip(cast_outputs[:-1], ref[:-1]):
        _assert_same(got, want)


def test_narrow_inputs_and_constants_round_trip():
    """int4 and float8 arguments go in as ml_dtypes arrays and come back unchanged;
    constants of those types fold into the program."""
    a = relay.var("a", shape=(5,), dtype="int4")
    f = relay.var("f", shape=(5,), dtype="float8_e4m3fn")
    c = relay.const(np.array([-8, 7, 1, 0, -1], ml_dtypes.int4))
    summed = relay.add(relay.cast(a, "int32"), relay.cast(c, "int32"))
    fn = relay.Function([a, f], relay.Tuple([relay.transpose(a), relay.cast(f, "float32"), summed]))
    exe = relay.compile(relay.IRModule.from_expr(fn), target="llvm")
    av = np.array([1, -2, 7, -8, 3], ml_dtypes.int4)
    fv = np.array([0.5, -448, 1.125, np.nan, 3], ml_dtypes.float8_e4m3fn)
    ta, ff, s = exe(av, fv)
    assert ta.dtype == av.dtype and ta.tolist() == av.tolist()
    _assert_same(ff, fv.astype(np.float32))
    _assert_same(s, av.astype(np.int32) + np.array([-8, 7, 1, 0, -1]))
    # int8 values for an int4 parameter would break its storage's range: refused by name
    with pytest.raises(TypeError, match=r"argument #0 must be a int4 array \(ml_dtypes.int4\), got a int8"):
        exe(np.array([100, 0, 0, 0, 0], np.int8), fv)
    with pytest.raises(InputShapeError, match="input1 element type mismatch; expected f8E4M3FN"):
        exe(av, np.zeros(5, np.float32))  # IREE checks the float8 parameter's element type


def test_arithmetic_on_narrow_types_is_refused():
    x = relay.var("x", shape=(4,), dtype="float8_e4m3fn")
    mod = relay.IRModule.from_expr(relay.Function([x], relay.add(x, x)))
    with pytest.raises(CompileError) as info:
        relay.compile(mod, target="llvm")
    assert "narrow element type 'f8E4M3FN'" in str(info.value)
    assert "cast it to a wider dtype first" in str(info.value)


def test_tvm_float8_spellings_are_accepted():
    """TVM 0.19 spells the float8 types e4m3_float8 / e5m2_float8 (``tvm.DataType``); its text and
    ``relay.cast(x, "e4m3_float8")`` port, naming ml_dtypes' types (float8_e4m3fn, float8_e5m2)."""
    mod = relay.fromtext('#[version = "0.0.5"]\n'
                         'def @main(%x: Tensor[(4), float32], %y: Tensor[(4), e5m2_float8]) {\n'
                         '  (cast(%x, dtype="e4m3_float8"), cast(%y, dtype="float32"))\n}')
    assert mod["main"].params[1].type_annotation == relay.TensorType((4,), "float8_e5m2")
    assert relay.cast(relay.var("v", shape=(1,)), "e4m3_float8").attrs["dtype"] == "float8_e4m3fn"
    x = np.array([0.3, 500.0, -2.6, 1.0], np.float32)
    y = np.array([1.5, -3.0, 0.25, 57344.0], ml_dtypes.float8_e5m2)
    a, b = relay.create_executor("debug", mod).evaluate()(x, y)
    assert a.dtype == np.dtype(ml_dtypes.float8_e4m3fn)
    # 500 is past e4m3fn's max + half an ulp (464): NaN; the rest to nearest (torch agrees)
    _assert_same(a, np.array([0.3125, np.nan, -2.5, 1.0]))
    _assert_same(b, y.astype(np.float32))
