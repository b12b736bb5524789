"""TVM 0.19's fixed-point rescaling of integers, in numpy (for the debug interpreter).

A real multiplier ``m`` (``double(float32 s_in) / double(float32 s_out)``)
becomes a Q31 mantissa and a shift (``frexp``; the mantissa rounded half away
from zero); ``x * m`` is then ``((int64(x) << left) * mantissa + rounding) >>
right`` with ``right = 31 + max(-shift, 0)``, truncated to int32. "UPWARD"
rounding adds ``2^(right-1)`` (ties to +inf); "TONEAREST" adds one less for
negative products (ties away from zero). Integer widths and wrap-around are
TVM's: the input is cast to int32 and its zero point subtracted in int32.

    >>> import numpy as np
    >>> fixed_point(0.75)
    (1610612736, 0)
    >>> multiply(np.array([3, -3, 5], "int32"), [0.5], 0, "UPWARD")
    array([ 2, -1,  3], dtype=int32)
"""
from __future__ import annotations

import math
from typing import Sequence, Tuple

import numpy as np

__all__ = ["fixed_point", "multiply", "requantize_int32"]


def fixed_point(multiplier: float) -> Tuple[int, int]:
    """``(mantissa, shift)`` with ``multiplier = mantissa * 2^(shift - 31)``."""
    if multiplier == 0:
        return 0, 0
    significand, shift = math.frexp(multiplier)
    scaled = significand * 2.0 ** 31
    q31 = int(math.floor(abs(scaled) + 0.5)) * (1 if scaled >= 0 else -1)
    if q31 == 1 << 31:
        q31 //= 2
        shift += 1
    return q31, shift


def _along(values: Sequence[int], ndim: int, axis: int) -> np.ndarray:
    """Per-channel ``values`` shaped to broadcast along ``axis`` (or a 0-d array)."""
    v = np.asarray(values, np.int64)
    if v.size == 1:
        return v.reshape(())
    shape = [1] * ndim
    shape[axis] = v.size
    return v.reshape(shape)


def multiply(x32: np.ndarray, multipliers: Sequence[float], axis: int, rounding: str) -> np.ndarray:
    """``x32`` (int32) times each channel's multiplier along ``axis``, in fixed point."""
    fps = [fixed_point(m) for m in multipliers]
    mant = _along([m for m, _ in fps], x32.ndim, axis)
    left = _along([max(s, 0) for _, s in fps], x32.ndim, axis)
    right = _along([31 + max(-s, 0) for _, s in fps], x32.ndim, axis)
    with np.errstate(over="ignore"):
        v = (x32.astype(np.int64) << left) * mant
        half = np.left_shift(np.int64(1), right - 1)
        if rounding == "TONEAREST":
            half = np.where(v < 0, half - 1, half)
        return ((v + half) >> right).astype(np.int32)


def requantize_int32(q: np.ndarray, in_scales: np.ndarray, in_zp: np.ndarray, out_scale: float,
                     axis: int, rounding: str) -> np.ndarray:
    """``(q - in_zp) * in_scale / out_scale`` in int32 (no output zero point, no clip).

    ``in_scales`` / ``in_zp``: 0-d or 1-D along ``axis``; scales as float32.
    """
    scales = np.asarray(in_scales, np.float32).reshape(-1)
    zp = np.asarray(in_zp, np.int32)
    if zp.ndim == 1 and q.ndim > 0:
        zp = zp.reshape([zp.size if d == axis else 1 for d in range(q.ndim)])
    with np.errstate(over="ignore"):
        x32 = q.astype(np.int32) - zp
    multipliers = [float(s) / float(np.float32(out_scale)) for s in scales]
    return multiply(x32, multipliers, axis, "UPWARD" if rounding in ("None", "UPWARD") else rounding)
