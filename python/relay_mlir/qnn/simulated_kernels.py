"""The debug interpreter's kernels of ``fixed_point_multiply``,
``fixed_point_multiply_per_axis``, ``qnn.simulated_quantize`` and
``qnn.simulated_dequantize`` — numpy, bit-exact with TVM 0.19's compiled code.

Written from what TVM 0.19 computes (topi's ``q_multiply_shift`` /
``q_multiply_shift_per_axis`` and ``topi.nn.qnn.simulated_*``, probed on its
llvm target), independently of the linalg lowering; registered into
``relay_mlir.interpreter_ops.KERNELS``.

    >>> import numpy as np
    >>> from relay_mlir.interpreter_ops import get_kernel
    >>> get_kernel("fixed_point_multiply")([np.array([5, -5, 7], "int32")],
    ...                                    {"multiplier": 1 << 30, "shift": 0})
    array([ 3, -2,  4], dtype=int32)
"""
from __future__ import annotations

import numpy as np

from ..interpreter_ops import _reg
from .kernels import _round_half_away

__all__ = ["q_multiply_shift"]

#: TVM's SQNN dtype codes -> the range an integer code clips to
_CODE_RANGES = {1: (-128, 127), 2: (0, 255), 3: (-2147483648, 2147483647)}


def q_multiply_shift(x: np.ndarray, multiplier, left, right) -> np.ndarray:
    """TVM's q_multiply_shift: in int64 (wrapping) ``((x << left) * multiplier +
    2^(right - 1)) >> right`` (``right`` the total right shift), truncated to int32 and
    returned in x's dtype (int32, or int64 sign-extended: TVM's kernels compute int32)."""
    with np.errstate(over="ignore"):
        v = np.left_shift(x.astype(np.int64), np.asarray(left, np.int64)) * np.asarray(multiplier, np.int64)
        right = np.asarray(right, np.int64)
        v = (v + np.left_shift(np.int64(1), right - 1)) >> right
    return v.astype(np.int32).astype(x.dtype)


@_reg("fixed_point_multiply")
def _fixed_point_multiply(args, attrs):
    shift = int(attrs["shift"])
    return q_multiply_shift(np.asarray(args[0]), int(attrs["multiplier"]), max(shift, 0),
                            31 + max(-shift, 0))


def _along_axes(p: np.ndarray, ndim: int, axes) -> np.ndarray:
    """A parameter indexed by data's indices along ``axes``, shaped to broadcast."""
    axes = [a + ndim if a < 0 else a for a in axes]
    p = np.asarray(p)
    if not axes:
        return p.reshape(())
    p = p.transpose(np.argsort(axes))
    return p.reshape([p.shape[sorted(axes).index(d)] if d in axes else 1 for d in range(ndim)])


@_reg("fixed_point_multiply_per_axis")
def _fixed_point_multiply_per_axis(args, attrs):
    x, m, ls, rs = (np.asarray(a) for a in args)
    axes = list(attrs.get("axes") or [])
    m, ls, rs = (_along_axes(p, x.ndim, axes) for p in (m, ls, rs))
    left = ls if attrs["is_lshift_required"] else 0
    return q_multiply_shift(x, m, left, rs.astype(np.int64) + 31)


def _simulated_param(p, x: np.ndarray, axis: int) -> np.ndarray:
    """A 0-d parameter, a 1-D one of one entry, or one entry per channel along ``axis``,
    in x's float type, shaped to broadcast."""
    p = np.asarray(p).astype(x.dtype)
    if p.ndim == 0 or p.size == 1:
        return p.reshape(())
    axis = axis + x.ndim if axis < 0 else axis
    return p.reshape([p.size if d == axis else 1 for d in range(x.ndim)])


@_reg("qnn.simulated_quantize")
def _simulated_quantize(args, attrs):
    x, code = np.asarray(args[0]), int(np.asarray(args[1]))
    if code not in _CODE_RANGES:
        return x.copy()
    axis = int(attrs.get("axis", -1))
    s, z = _simulated_param(args[2], x, axis), _simulated_param(args[3], x, axis)
    with np.errstate(invalid="ignore"):  # inf - inf inside the rounding of an infinite x
        q = _round_half_away(x / s) + z
    lo, hi = (x.dtype.type(v) for v in _CODE_RANGES[code])
    q = np.where(q < hi, q, hi)  # TVM's min/max as selects: NaN gives the maximum
    return np.asarray(np.where(q > lo, q, lo), x.dtype)


@_reg("qnn.simulated_dequantize")
def _simulated_dequantize(args, attrs):
    x, code = np.asarray(args[0]), int(np.asarray(args[1]))
    if code not in _CODE_RANGES:
        return x.copy()
    axis = int(attrs.get("axis", -1))
    s, z = _simulated_param(args[2], x, axis), _simulated_param(args[3], x, axis)
    return np.asarray((x - z) * s, x.dtype)
