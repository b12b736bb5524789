"""The debug interpreter's kernels of qnn.concatenate, avg_pool2d, conv2d_transpose,
the unary qnn ops (lookup tables), leaky_relu and softmax — numpy, bit-exact with TVM 0.19.

Written from TVM 0.19's canonical forms (src/relay/qnn/op/*.cc and
qnn/op/legalizations.py), independently of the linalg lowering; registered
into ``relay_mlir.interpreter_ops.KERNELS``.

    >>> import numpy as np
    >>> from relay_mlir.interpreter_ops import get_kernel
    >>> get_kernel("qnn.abs")([np.array([-3, 2], "int8"), np.float32(0.5), np.int32(0),
    ...                        np.float32(0.5), np.int32(0)], {})
    array([3, 2], dtype=int8)
"""
from __future__ import annotations

import math

import numpy as np

from ..interpreter_ops import KERNELS, _reg
from .fixed_point import multiply
from .kernels import _clip_cast, _dequantize, _quantize, _requantize, _shifted

__all__ = ["lookup_table"]


def _equal(a, b) -> bool:
    """TVM's IsEqualScalar on constant parameters."""
    return np.asarray(a).shape == np.asarray(b).shape and bool(np.all(np.asarray(a) == np.asarray(b)))


def _requantize_or_upcast(x, s, z, so, zo) -> np.ndarray:
    """int32 ``x`` in the output's parameters (a cast when they are equal)."""
    if _equal(s, so) and _equal(z, zo):
        return x.astype(np.int32)
    return _requantize([x, s, z, so, zo], {"out_dtype": "int32"})


@_reg("qnn.concatenate")
def _concatenate(args, attrs):
    n = (len(args) - 2) // 3
    so, zo = args[3 * n], args[3 * n + 1]
    fields = []
    for x, s, z in zip(args[:n], args[n:2 * n], args[2 * n:3 * n]):
        if not (_equal(s, so) and _equal(z, zo)):
            x = _requantize([x, s, z, so, zo], {"out_dtype": str(x.dtype)})
        fields.append(x)
    axis = int(attrs.get("axis", 0))
    return np.concatenate(fields, axis=axis + fields[0].ndim if axis < 0 else axis)


@_reg("qnn.avg_pool2d")
def _avg_pool2d(args, attrs):
    x, s, z, so, zo = args
    q = _requantize_or_upcast(x, s, z, so, zo)
    pool_attrs = {k: attrs.get(k) for k in ("pool_size", "strides", "padding", "dilation",
                                            "ceil_mode", "count_include_pad", "out_layout")}
    pool_attrs["layout"] = attrs.get("layout") or "NHWC"
    pooled = KERNELS["nn.avg_pool2d"]([q], pool_attrs)
    return _clip_cast(np.asarray(pooled, np.int32), x.dtype)


@_reg("qnn.conv2d_transpose")
def _conv2d_transpose(args, attrs):
    x, w, zx, zw, _sx, _sw = args
    conv_attrs = dict(attrs, out_dtype="int64")
    out = KERNELS["nn.conv2d_transpose"]([_shifted(x, zx), _shifted(w, zw)], conv_attrs)
    return np.asarray(out).astype(attrs.get("out_dtype") or "int32")


# -- the unary ops: TVM 0.19's lookup tables (create_integer_lookup_op) -------------------
def _hardswish(x):
    return x * np.clip(x + 3.0, 0.0, 6.0) / 6.0


def _erf(x):
    return np.array([math.erf(float(v)) for v in x.reshape(-1)], np.float64).astype(np.float32)


_FUNCTIONS = {  # the numpy functions TVM registers (qnn/op/legalizations.py)
    "qnn.abs": np.abs, "qnn.exp": np.exp, "qnn.log": np.log,
    "qnn.sigmoid": lambda a: 1 / (1 + np.exp(-a)), "qnn.tanh": np.tanh, "qnn.erf": _erf,
    "qnn.sqrt": np.sqrt, "qnn.rsqrt": lambda a: 1 / np.sqrt(a), "qnn.hardswish": _hardswish,
}


def lookup_table(op: str, dtype, s, z, so, zo) -> np.ndarray:
    """The table of ``op`` indexed by the input's bit pattern (as unsigned)."""
    bits = np.dtype(dtype).itemsize * 8
    patterns = np.arange(2 ** bits, dtype=f"uint{bits}").view(dtype)
    real = _dequantize([patterns, s, z], {})
    with np.errstate(all="ignore"):
        out = np.asarray(_FUNCTIONS[op](real), np.float32)
    table = _quantize([out, so, zo], {"out_dtype": str(np.dtype(dtype))})
    # TVM 0.19 (measured): a NaN (log or sqrt of a negative) quantizes to the highest value
    return np.where(np.isnan(out), np.iinfo(np.dtype(dtype)).max, table).astype(dtype)


def _lookup(op: str):
    def k(args, attrs):
        x, s, z, so, zo = args
        table = lookup_table(op, x.dtype, s, z, so, zo)
        return table[x.view(f"uint{x.dtype.itemsize * 8}").astype(np.int64)]
    KERNELS[op] = k


for _op in _FUNCTIONS:
    _lookup(_op)


def _times(x32: np.ndarray, m: float) -> np.ndarray:
    """TVM's FixedPointMultiply of int32 ``x32`` by the double ``m`` (UPWARD)."""
    return multiply(np.asarray(x32, np.int32), [m], 0, "UPWARD")


@_reg("qnn.leaky_relu")
def _leaky_relu(args, attrs):
    """x < zp_in ? alpha·q' + (1 - alpha)·zp_out : q', with q' = x in the output's
    parameters (int32), clipped to the dtype (TVM 0.19, measured: 256 saturates to 255)."""
    x, s, z, so, zo = args
    alpha = float(attrs.get("alpha", 0.01))
    q = _requantize_or_upcast(x, s, z, so, zo)
    x32 = x.astype(np.int32)
    with np.errstate(over="ignore"):
        below = _times(q, alpha) + _times(np.int32(zo), 1 - alpha)
    return _clip_cast(np.where(x32 < np.int32(z), below, q), x.dtype)


@_reg("qnn.softmax")
def _softmax(args, attrs):
    """TVM 0.19's integer softmax (arXiv 2207.01405 Algorithm 1; m = 30): quotients clipped
    to [0, 20], each exponential shifted by its row's largest quotient minus its own."""
    x, s, z, so, zo = args
    axis = int(attrs.get("axis", -1))
    scale = float(np.float32(s))
    if not 0.0 < scale <= 1.0:
        raise ValueError(f"qnn.softmax needs an input scale in (0, 1] (TVM's integer softmax), got {scale}")
    x0 = np.int32(math.floor(float(np.float32(1) / np.float32(s)) + 0.5))  # round, ties away
    q = x.astype(np.int32) - np.int32(z)
    d = q - q.max(axis=axis, keepdims=True)
    xp = d + (d >> 1) - (d >> 4)
    quot = np.clip(np.trunc(xp / -x0), 0, 20).astype(np.int32)
    r = xp - quot * -x0
    xb = (r >> 1) + x0
    shift = quot.max(axis=axis, keepdims=True) - quot
    exps = (xb.astype(np.int64) << shift.astype(np.int64)).astype(np.int32)
    sums = exps.sum(axis=axis, keepdims=True, dtype=np.int32)
    sums = np.where(sums == 0, np.int32(1), sums)  # exponentials clipped at 20 can cancel (as the lowering)
    out = (np.trunc(np.float64(1 << 30) / sums).astype(np.int32) * exps) >> 23
    return _requantize([out.astype(np.int32), np.float32(1 / 128), np.int32(0), so, zo],
                       {"out_dtype": "int8"})
