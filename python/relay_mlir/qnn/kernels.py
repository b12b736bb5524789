"""The debug interpreter's kernels of the qnn operators (numpy, bit-exact with TVM 0.19).

Written from TVM 0.19's canonical forms of the ops (what
``relay.qnn.transform.CanonicalizeOps`` makes of them), independently of the
linalg lowering; registered into ``relay_mlir.interpreter_ops.KERNELS``.

    >>> import numpy as np
    >>> from relay_mlir.interpreter_ops import get_kernel
    >>> get_kernel("qnn.quantize")([np.array([-0.5, 0.5, 1e9], "float32"), np.float32(1.0),
    ...                             np.int32(1)], {"axis": -1, "out_dtype": "int8"})
    array([  0,   2, 127], dtype=int8)
"""
from __future__ import annotations

from typing import Tuple

import numpy as np

from ..errors import RelayRuntimeError
from ..interpreter_ops import KERNELS, _reg
from .fixed_point import requantize_int32

__all__ = ["dtype_range"]


def dtype_range(dtype) -> Tuple[int, int]:
    info = np.iinfo(np.dtype(dtype))
    return int(info.min), int(info.max)


def _axis(attrs: dict, key: str, ndim: int) -> int:
    a = int(attrs.get(key, -1))
    return a + ndim if a < 0 else a


def _along(p: np.ndarray, ndim: int, axis: int) -> np.ndarray:
    """A 0-d parameter as is; a 1-D one shaped to broadcast along ``axis``."""
    p = np.asarray(p)
    if p.ndim == 0:
        return p
    return p.reshape([p.size if d == axis else 1 for d in range(ndim)])


def _clip_cast(v: np.ndarray, dtype) -> np.ndarray:
    """int32 ``v`` clipped to ``dtype`` (not for int32, as TVM) and cast."""
    dt = np.dtype(dtype)
    if dt != np.int32:
        lo, hi = dtype_range(dt)
        v = np.clip(v, lo, hi)
    return np.asarray(v).astype(dt)


def _round_half_away(r: np.ndarray) -> np.ndarray:
    t = np.trunc(r)
    return t + np.where(np.abs(r - t) >= 0.5, np.sign(r), 0).astype(r.dtype)


def _scaled_down(x: np.ndarray, s: np.ndarray, axis: int) -> np.ndarray:
    """``x / s`` as TVM 0.19's compiled code computes it: times the float32
    reciprocal for one scale (LLVM folds the divide by a constant), a true
    divide per channel."""
    if s.ndim == 0:
        return x * (np.float32(1) / s)
    return x / _along(s, x.ndim, axis)


@_reg("qnn.quantize")
def _quantize(args, attrs):
    x, s, z = args
    axis = _axis(attrs, "axis", x.ndim)
    out = np.dtype(attrs.get("out_dtype") or "int8")
    lo, hi = dtype_range(out)
    r = _round_half_away(_scaled_down(x.astype(np.float32), np.asarray(s, np.float32), axis))
    r = r + _along(z, x.ndim, axis).astype(np.float32)
    r = np.where(np.isnan(r), np.float32(lo), r)
    r = np.clip(r.astype(np.float64), lo, hi)
    return np.asarray(r).astype(np.int64).astype(out)


@_reg("qnn.dequantize")
def _dequantize(args, attrs):
    q, s, z = args
    axis = _axis(attrs, "axis", q.ndim)
    with np.errstate(over="ignore"):
        shifted = q.astype(np.int32) - _along(z, q.ndim, axis).astype(np.int32)
    y = shifted.astype(np.float32) * _along(s, q.ndim, axis).astype(np.float32)
    out = np.dtype(attrs.get("out_dtype") or "float32")
    if out == np.float16:
        y = np.clip(y, -65504, 65504)
    return np.asarray(y).astype(out)


@_reg("qnn.requantize")
def _requantize(args, attrs):
    q, si, zi, so, zo = args
    if attrs.get("compute_dtype", "None") not in ("None", "int64"):
        raise RelayRuntimeError("qnn.requantize: compute_dtype "
                                f"{attrs['compute_dtype']!r} is not supported (\"None\" or \"int64\")")
    axis = _axis(attrs, "axis", q.ndim)
    with np.errstate(over="ignore"):
        if q.dtype == np.int64:
            q = q.astype(np.int32)
        v = requantize_int32(q, si, zi, float(so), axis, attrs.get("rounding", "None"))
        v = v + np.int32(zo)
    return _clip_cast(v, attrs.get("out_dtype") or "int8")


# -- contractions: exact sums of (x - zx)(w - zw), wrapped to the accumulator dtype ---------
def _shifted(x: np.ndarray, zp) -> np.ndarray:
    return x.astype(np.int64) - np.asarray(zp, np.int64)


@_reg("qnn.dense")
def _dense(args, attrs):
    x, w, zx, zw, _sx, _sw = args
    wz = _shifted(w, _along(zw, 2, 0))
    return np.asarray(np.matmul(_shifted(x, zx), wz.T)).astype(attrs.get("out_dtype") or "int32")


@_reg("qnn.batch_matmul")
def _batch_matmul(args, attrs):
    x, y, zx, zy, _sx, _sy = args
    out = np.matmul(_shifted(x, zx), np.swapaxes(_shifted(y, zy), 1, 2))
    return np.asarray(out).astype(attrs.get("out_dtype") or "int32")


@_reg("qnn.conv2d")
def _conv2d(args, attrs):
    """nn.conv2d of the shifted operands: padding with 0 after the shift is
    padding with the input zero point before it."""
    x, w, zx, zw, _sx, _sw = args
    kl = attrs.get("kernel_layout") or "OIHW"
    wz = _shifted(w, _along(zw, 4, kl.index("O")))
    conv_attrs = dict(attrs, out_dtype="int64")
    out = KERNELS["nn.conv2d"]([_shifted(x, zx), wz], conv_attrs)
    return np.asarray(out).astype(attrs.get("out_dtype") or "int32")


# -- add / subtract / mul -----------------------------------------------------------------
def _rescaled(q, s, z, out_scale, attrs, key):
    """An operand requantized to ``out_scale`` with zero point 0, in int32."""
    return requantize_int32(q, s, z, out_scale, _axis(attrs, key, q.ndim), "UPWARD")


def _add_like(sign: int):
    def k(args, attrs):
        a, b, sa, za, sb, zb, so, zo = args
        ra = _rescaled(a, sa, za, float(so), attrs, "lhs_axis")
        rb = _rescaled(b, sb, zb, float(so), attrs, "rhs_axis")
        with np.errstate(over="ignore"):
            v = (ra + rb if sign > 0 else ra - rb) + np.int32(zo)
        return _clip_cast(v, a.dtype)
    return k


KERNELS["qnn.add"] = _add_like(+1)
KERNELS["qnn.subtract"] = _add_like(-1)


@_reg("qnn.mul")
def _mul(args, attrs):
    """(a - za)(b - zb) in int32 at scale float32(sa * sb), requantized to the output's."""
    a, b, sa, za, sb, zb, so, zo = args
    with np.errstate(over="ignore"):
        xa = a.astype(np.int32) - _along(za, a.ndim, _axis(attrs, "lhs_axis", a.ndim)).astype(np.int32)
        xb = b.astype(np.int32) - _along(zb, b.ndim, _axis(attrs, "rhs_axis", b.ndim)).astype(np.int32)
        prod = xa * xb
    scale = np.float32(np.asarray(sa, np.float32).reshape(-1)[0] * np.asarray(sb, np.float32).reshape(-1)[0])
    if np.size(sa) > 1 or np.size(sb) > 1:
        raise RelayRuntimeError("qnn.mul: per-channel scales are not supported by the debug interpreter")
    v = requantize_int32(prod, scale, np.int32(0), float(so), 0, "UPWARD")
    with np.errstate(over="ignore"):
        v = v + np.int32(zo)
    return _clip_cast(v, a.dtype)
