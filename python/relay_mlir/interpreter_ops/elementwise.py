"""The debug interpreter's numpy kernels of the Elementwise ops (``dialect/relay/RelayElementwiseOps.td``)."""
from __future__ import annotations

import math
from typing import Callable, Optional

import numpy as np

from ..errors import RelayRuntimeError
from ..narrow_dtypes import FLOAT8S, NARROW_DTYPES, float8_e8m0_down, numpy_dtype
from ._common import _arr, _f64, _is_float, _same_dtype
from ._registry import KERNELS, _reg


def _binary(name: str, fn: Callable, result_dtype: Optional[str] = None) -> None:
    def k(args, attrs):
        a, b = args
        if a.dtype != b.dtype:
            raise RelayRuntimeError(f"'{name}': operand dtypes differ ({a.dtype} vs {b.dtype})")
        return _arr(fn(a, b), result_dtype or a.dtype)
    KERNELS[name] = k


def _trunc_div(a, b):
    if _is_float(a):
        return a / b
    q = np.floor_divide(a, np.where(b == 0, 1, b))
    fix = (np.remainder(a, np.where(b == 0, 1, b)) != 0) & ((a < 0) != (b < 0))
    return np.where(b == 0, 0, q + fix)


def _floor_divide(a, b):
    if _is_float(a):
        return np.floor(a / b)
    return np.where(b == 0, 0, np.floor_divide(a, np.where(b == 0, 1, b)))


def _trunc_divide(a, b):
    """TVM's ``truncdiv``: ``trunc(a / b)`` on floats, C's division on integers (x / 0 is 0)."""
    if _is_float(a):
        return np.trunc(a / b)
    return _trunc_div(a, b)


def _mod(a, b):
    if _is_float(a):
        return np.fmod(a, b)
    return np.where(b == 0, 0, np.fmod(a, np.where(b == 0, 1, b)))


def _floor_mod(a, b):
    if _is_float(a):
        return a - np.floor(a / b) * b
    return np.where(b == 0, 0, np.mod(a, np.where(b == 0, 1, b)))


_binary("add", np.add)
_binary("subtract", np.subtract)
_binary("multiply", np.multiply)
_binary("divide", _trunc_div)
_binary("floor_divide", _floor_divide)
_binary("trunc_divide", _trunc_divide)
_binary("mod", _mod)
_binary("trunc_mod", _mod)
_binary("floor_mod", _floor_mod)
_binary("power", np.power)
_binary("maximum", np.maximum)
_binary("minimum", np.minimum)
for _n, _f in [("equal", np.equal), ("not_equal", np.not_equal), ("less", np.less),
               ("less_equal", np.less_equal), ("greater", np.greater),
               ("greater_equal", np.greater_equal)]:
    _binary(_n, _f, "bool")
_binary("logical_and", np.logical_and, "bool")
_binary("logical_or", np.logical_or, "bool")
_binary("logical_xor", np.logical_xor, "bool")
_binary("bitwise_and", np.bitwise_and)
_binary("bitwise_or", np.bitwise_or)
_binary("bitwise_xor", np.bitwise_xor)
_binary("left_shift", np.left_shift)
_binary("right_shift", np.right_shift)


# -- elementwise, unary ----------------------------------------------------------------
def _unary(name: str, fn: Callable, result_dtype: Optional[str] = None, wide: bool = False) -> None:
    """``wide``: float inputs are computed in float64 and rounded once."""
    def k(args, attrs):
        (x,) = args
        return _arr(fn(_f64(x) if wide and _is_float(x) else x), result_dtype or x.dtype)
    KERNELS[name] = k


_erf64 = np.vectorize(math.erf, otypes=[np.float64])


def _erf(x):
    return _erf64(x) if x.size else x.astype(np.float64)


def _int_identity(fn):
    return lambda x: fn(x) if _is_float(x) else x.copy()


def _round_half_away(x):
    """TVM's round (C's ``round``): halves away from zero (numpy's ``round`` goes to even);
    ``trunc(x) +- 1`` when ``|x - trunc(x)| >= 0.5``, the sign of ``x`` kept (-0.2 -> -0)."""
    with np.errstate(invalid="ignore"):  # inf - inf at infinities: no step, trunc(inf) = inf
        t = np.trunc(x)
        y = np.where(np.abs(x - t) >= 0.5, t + np.sign(x), t)
    return np.copysign(y, x).astype(x.dtype)


_unary("negative", np.negative)
_unary("abs", np.abs)
_unary("sign", np.sign)
_unary("ceil", _int_identity(np.ceil))
_unary("floor", _int_identity(np.floor))
_unary("round", _int_identity(_round_half_away))
_unary("trunc", _int_identity(np.trunc))
_unary("copy", np.copy)
_unary("exp", np.exp, wide=True)
_unary("fast_exp", np.exp, wide=True)
_unary("log", np.log, wide=True)
_unary("log2", np.log2, wide=True)
_unary("log10", np.log10, wide=True)
_unary("sqrt", np.sqrt, wide=True)
_unary("rsqrt", lambda x: 1.0 / np.sqrt(x), wide=True)
_unary("tanh", np.tanh, wide=True)
_unary("fast_tanh", np.tanh, wide=True)
_unary("sigmoid", lambda x: 1.0 / (1.0 + np.exp(-x)), wide=True)
_unary("sin", np.sin, wide=True)
_unary("cos", np.cos, wide=True)
_unary("tan", np.tan, wide=True)
_unary("asin", np.arcsin, wide=True)
_unary("acos", np.arccos, wide=True)
_unary("atan", np.arctan, wide=True)
_unary("sinh", np.sinh, wide=True)
_unary("cosh", np.cosh, wide=True)
_unary("acosh", np.arccosh, wide=True)
_unary("asinh", np.arcsinh, wide=True)
_unary("atanh", np.arctanh, wide=True)
_unary("erf", _erf, wide=True)
_unary("fast_erf", _erf, wide=True)
_unary("isnan", np.isnan, "bool")
_unary("isinf", np.isinf, "bool")
_unary("isfinite", np.isfinite, "bool")
_unary("logical_not", np.logical_not, "bool")
_unary("bitwise_not", np.invert)


@_reg("nn.relu")
def _relu(args, attrs):
    (x,) = args
    return _arr(np.maximum(x, np.zeros((), x.dtype)), x.dtype)


@_reg("clip")
def _clip(args, attrs):
    (x,) = args
    lo, hi = float(attrs["a_min"]), float(attrs["a_max"])
    if _is_float(x):
        return _arr(np.clip(_f64(x), lo, hi), x.dtype)
    info = np.iinfo(x.dtype) if x.dtype.kind in "iu" else None
    lo_i, hi_i = math.trunc(lo) if math.isfinite(lo) else lo, math.trunc(hi) if math.isfinite(hi) else hi
    if info is not None:
        lo_i, hi_i = max(lo_i, info.min), min(hi_i, info.max)
    return _arr(np.clip(x.astype(np.int64), lo_i, hi_i), x.dtype)


def _cast(x: np.ndarray, dtype: str) -> np.ndarray:
    """relay.cast; to a narrow type (int4, float8, ...) as ml_dtypes converts (float8 from
    float rounds to nearest even without saturating; int4 from float truncates and is 0
    out of range, from int wraps), the lowering's rules too."""
    dt = numpy_dtype(dtype) if isinstance(dtype, str) and dtype in NARROW_DTYPES else np.dtype(dtype)
    if x.dtype.name in FLOAT8S:
        x = x.astype(np.float32)  # exact; then as from float32
    if dt.name == "float8_e8m0fnu":
        return _arr(float8_e8m0_down(x))
    if dt == np.bool_:
        return _arr(x != 0)
    if _is_float(x) and dt.kind in "iu":
        with np.errstate(invalid="ignore"):
            return _arr(np.trunc(x).astype(dt))
    return _arr(x.astype(dt))


@_reg("cast")
def _cast_k(args, attrs):
    return _cast(args[0], attrs["dtype"])


@_reg("reinterpret")
def _reinterpret(args, attrs):
    (x,) = args
    dtype = str(attrs["dtype"])
    return x.view(numpy_dtype(dtype) or np.dtype(dtype)).copy()


@_reg("cast_like")
def _cast_like(args, attrs):
    return _cast(args[0], args[1].dtype)


@_reg("where")
def _where(args, attrs):
    c, x, y = args
    _same_dtype("where", x, y)
    return _arr(np.where(c if c.dtype == np.bool_ else c != 0, x, y), x.dtype)
