"""numpy kernels of the Relay operators for the debug interpreter.

``KERNELS`` maps a Relay op name (``"add"``, ``"nn.conv2d"``, ...) to
``kernel(args, attrs) -> value``: ``args`` a list of numpy arrays (the
call's arguments), ``attrs`` the call's attribute dict as the builders in
``relay_mlir.op`` store it (Relay's names and defaults). A kernel returns a
numpy array with the Relay result dtype, or a Python tuple of arrays for
tuple-valued ops (``nn.batch_norm``, ``split``, ``topk``, ``nn.dropout``).

Kernels run with numpy's floating-point warnings off (the interpreter sets
``numpy.errstate(all="ignore")``): NaN/inf results are values, not errors.

The kernels are written from Relay's operator definitions, independently of
the linalg lowering. Float arithmetic that accumulates (matmul, conv,
reductions, normalisations, softmax) is done in float64 and rounded to the
result dtype once; integer accumulation in int64.

An op without a kernel raises ``RelayRuntimeError("the debug interpreter has
no kernel for '<op>'")`` (``get_kernel``), never a wrong result.

    >>> import numpy as np
    >>> get_kernel("add")([np.array([1, 2], "int32"), np.array(3, "int32")], {})
    array([4, 5], dtype=int32)
"""
from __future__ import annotations

import itertools
import math
from typing import Callable, Dict, List, Optional, Sequence

import numpy as np

from .errors import RelayRuntimeError
from .narrow_dtypes import FLOAT8S, NARROW_DTYPES, numpy_dtype

__all__ = ["KERNELS", "get_kernel", "kernel_names"]

Kernel = Callable[[List[np.ndarray], dict], object]
KERNELS: Dict[str, Kernel] = {}


def get_kernel(name: str) -> Kernel:
    """The kernel of op ``name``; a clear error if there is none."""
    k = KERNELS.get(name)
    if k is None:
        raise RelayRuntimeError(f"the debug interpreter has no kernel for '{name}'")
    return k


def kernel_names() -> List[str]:
    return sorted(KERNELS)


def _reg(*names: str):
    def deco(fn: Kernel) -> Kernel:
        for n in names:
            KERNELS[n] = fn
        return fn
    return deco


def _arr(x, dtype=None) -> np.ndarray:
    """``x`` as an ndarray (numpy ufuncs return scalars for 0-d inputs)."""
    if type(x) is np.ndarray and (dtype is None or x.dtype == dtype):
        return x
    return np.asarray(x, dtype=dtype)


def _is_float(a: np.ndarray) -> bool:
    return a.dtype.kind == "f" or a.dtype.name == "bfloat16"   # ml_dtypes' kind is "V"


def _f64(a: np.ndarray) -> np.ndarray:
    return a.astype(np.float64)


def _same_dtype(name: str, *arrays: np.ndarray) -> None:
    d = arrays[0].dtype
    for a in arrays[1:]:
        if a.dtype != d:
            raise RelayRuntimeError(f"'{name}': operand dtypes differ ({d} vs {a.dtype})")


def _axis(axis: int, ndim: int) -> int:
    a = axis + ndim if axis < 0 else axis
    if not 0 <= a < max(ndim, 1):
        raise RelayRuntimeError(f"axis {axis} out of range for rank {ndim}")
    return a


# -- elementwise, binary -------------------------------------------------------------
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
_binary("mod", _mod)
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
_unary("erf", _erf, wide=True)
_unary("fast_erf", _erf, wide=True)
_unary("nn.gelu", lambda x: 0.5 * x * (1.0 + _erf(x / math.sqrt(2.0))), wide=True)
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
    if dt == np.bool_:
        return _arr(x != 0)
    if _is_float(x) and dt.kind in "iu":
        with np.errstate(invalid="ignore"):
            return _arr(np.trunc(x).astype(dt))
    return _arr(x.astype(dt))


@_reg("cast")
def _cast_k(args, attrs):
    return _cast(args[0], attrs["dtype"])


@_reg("cast_like")
def _cast_like(args, attrs):
    return _cast(args[0], args[1].dtype)


@_reg("where")
def _where(args, attrs):
    c, x, y = args
    _same_dtype("where", x, y)
    return _arr(np.where(c if c.dtype == np.bool_ else c != 0, x, y), x.dtype)


@_reg("nn.leaky_relu")
def _leaky_relu(args, attrs):
    (x,) = args
    a = float(attrs.get("alpha", 0.01))
    return _arr(np.where(x > 0, _f64(x), _f64(x) * a), x.dtype)


@_reg("nn.prelu")
def _prelu(args, attrs):
    x, alpha = args
    ax = _axis(attrs.get("axis", 1), x.ndim)
    shape = [1] * x.ndim
    shape[ax] = -1
    return _arr(np.where(x > 0, _f64(x), _f64(x) * _f64(alpha).reshape(shape)), x.dtype)


# -- reductions ------------------------------------------------------------------------
def _red_axes(attrs: dict, ndim: int) -> tuple:
    axis = attrs.get("axis")
    if axis is None or len(axis) == 0:
        # no axis and an empty axis list both mean every axis, `exclude` or not
        # (Relay's GetReduceAxes; the typing rule, lib/Relations, agrees)
        return tuple(range(ndim))
    axes = tuple(sorted({_axis(a, ndim) for a in axis}))
    if attrs.get("exclude"):
        axes = tuple(i for i in range(ndim) if i not in axes)
    return axes


def _reduce(name: str, fn: Callable, acc: Callable) -> None:
    def k(args, attrs):
        (x,) = args
        axes = _red_axes(attrs, x.ndim)
        keep = bool(attrs.get("keepdims", False))
        with np.errstate(all="ignore"):
            r = fn(acc(x), axes, keep)
        return _arr(r, x.dtype)
    KERNELS[name] = k


def _wide(x: np.ndarray) -> np.ndarray:
    if _is_float(x):
        return _f64(x)
    if x.dtype == np.bool_:
        return x
    return x.astype(np.uint64 if x.dtype.kind == "u" else np.int64)


def _mean(x, axes, keep):
    n = int(np.prod([x.shape[a] for a in axes])) if axes else 1
    s = np.sum(x, axis=axes, keepdims=keep)
    if _is_float(x):
        return s / n
    return _trunc_div(np.asarray(s), np.asarray(n, s.dtype))


_reduce("sum", lambda x, a, k: np.sum(x, axis=a, keepdims=k), _wide)
_reduce("prod", lambda x, a, k: np.prod(x, axis=a, keepdims=k), _wide)
_reduce("mean", _mean, _wide)
def _extreme_identity(dtype, largest: bool):
    """What max (``largest``) / min of nothing is: the lowest / highest value
    of ``dtype`` (-inf / inf for floats), as the compiled reductions start from."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return not largest
    if dtype.kind == "f":
        return -np.inf if largest else np.inf
    info = np.iinfo(dtype)
    return info.min if largest else info.max


def _amax(x, axis=None, keepdims=False):
    """np.max, with an empty reduction giving the lowest value (numpy raises)."""
    return np.max(x, axis=axis, keepdims=keepdims, initial=_extreme_identity(x.dtype, True))


def _amin(x, axis=None, keepdims=False):
    """np.min, with an empty reduction giving the highest value (numpy raises)."""
    return np.min(x, axis=axis, keepdims=keepdims, initial=_extreme_identity(x.dtype, False))


_reduce("max", lambda x, a, k: _amax(x, axis=a, keepdims=k), lambda x: x)
_reduce("min", lambda x, a, k: _amin(x, axis=a, keepdims=k), lambda x: x)
_reduce("all", lambda x, a, k: np.all(x, axis=a, keepdims=k), lambda x: x)
_reduce("any", lambda x, a, k: np.any(x, axis=a, keepdims=k), lambda x: x)


def _arg_reduce(name: str, fn: Callable) -> None:
    def k(args, attrs):
        (x,) = args
        axes = _red_axes(attrs, x.ndim)
        keep = bool(attrs.get("keepdims", False))
        last = bool(attrs.get("select_last_index", False))
        # move the reduced axes to the end, flatten them, reduce over that one axis
        rest = [i for i in range(x.ndim) if i not in axes]
        empty = [i for i in axes if x.shape[i] == 0]
        if empty:
            raise RelayRuntimeError(f"relay.{name}: an empty axis has no index of an extreme "
                                    f"(dim {empty[0]} is 0)")
        y = np.transpose(x, rest + list(axes)).reshape([x.shape[i] for i in rest] + [-1])
        if last:
            idx = y.shape[-1] - 1 - fn(y[..., ::-1], axis=-1)
        else:
            idx = fn(y, axis=-1)
        idx = np.asarray(idx)
        if keep:
            shape = [1 if i in axes else x.shape[i] for i in range(x.ndim)]
            idx = idx.reshape(shape)
        return _arr(idx, "int32")
    KERNELS[name] = k


_arg_reduce("argmax", np.argmax)
_arg_reduce("argmin", np.argmin)


@_reg("variance")
def _variance(args, attrs):
    x, m = args
    axes = _red_axes(attrs, x.ndim)
    keep = bool(attrs.get("keepdims", False))
    n = int(np.prod([x.shape[a] for a in axes])) if axes else 1
    d = _f64(x) - _f64(m)
    s = np.sum(d * d, axis=axes, keepdims=keep)
    return _arr(s / (n - 1 if attrs.get("unbiased") else n), x.dtype)


# -- nn: dense / matmul ------------------------------------------------------------------
def _acc_matmul(a: np.ndarray, b: np.ndarray, out_dtype: Optional[str]) -> np.ndarray:
    dt = np.dtype(out_dtype) if out_dtype else a.dtype
    if _is_float(a) or _is_float(b):
        return _arr(np.matmul(_f64(a), _f64(b)), dt)
    return _arr(np.matmul(a.astype(np.int64), b.astype(np.int64)), dt)


@_reg("nn.dense")
def _dense(args, attrs):
    x, w = args
    return _acc_matmul(x, w.T, attrs.get("out_dtype") or None)


@_reg("nn.matmul")
def _matmul(args, attrs):
    a, b = args
    if attrs.get("transpose_a"):
        a = np.swapaxes(a, -1, -2)
    if attrs.get("transpose_b"):
        b = b.T
    return _acc_matmul(a, b, attrs.get("out_dtype") or None)


@_reg("nn.batch_matmul")
def _batch_matmul(args, attrs):
    x, y = args
    if attrs.get("transpose_a", False):
        x = np.swapaxes(x, 1, 2)
    if attrs.get("transpose_b", True):
        y = np.swapaxes(y, 1, 2)
    return _acc_matmul(x, y, attrs.get("out_dtype") or None)


@_reg("nn.bias_add")
def _bias_add(args, attrs):
    x, b = args
    ax = _axis(attrs.get("axis", 1), x.ndim)
    shape = [1] * x.ndim
    shape[ax] = -1
    return _arr(x + b.reshape(shape), x.dtype)


@_reg("nn.batch_flatten")
def _batch_flatten(args, attrs):
    (x,) = args
    return x.reshape(x.shape[0], -1)


@_reg("nn.softmax")
def _softmax(args, attrs):
    (x,) = args
    ax = attrs.get("axis", -1)
    y = _f64(x)
    e = np.exp(y - _amax(y, axis=ax, keepdims=True))
    return _arr(e / e.sum(axis=ax, keepdims=True), x.dtype)


@_reg("nn.log_softmax")
def _log_softmax(args, attrs):
    (x,) = args
    ax = attrs.get("axis", -1)
    y = _f64(x)
    m = _amax(y, axis=ax, keepdims=True)
    return _arr(y - m - np.log(np.exp(y - m).sum(axis=ax, keepdims=True)), x.dtype)


@_reg("nn.dropout")
def _dropout(args, attrs):
    (x,) = args  # inference: the identity, and a mask of ones
    return (x.copy(), np.ones_like(x))


# -- normalisations ------------------------------------------------------------------------
def _param_shape(ndim: int, axis: int) -> list:
    shape = [1] * ndim
    shape[axis] = -1
    return shape


def _affine(y, x, gamma, beta, axis, attrs):
    shape = _param_shape(x.ndim, axis)
    if attrs.get("scale", True):
        y = y * _f64(gamma).reshape(shape)
    if attrs.get("center", True):
        y = y + _f64(beta).reshape(shape)
    return _arr(y, x.dtype)


@_reg("nn.batch_norm")
def _batch_norm(args, attrs):
    x, gamma, beta, mean, var = args
    ax = _axis(attrs.get("axis", 1), x.ndim)
    shape = _param_shape(x.ndim, ax)
    y = (_f64(x) - _f64(mean).reshape(shape)) / np.sqrt(_f64(var).reshape(shape) + attrs.get("epsilon", 1e-5))
    return (_affine(y, x, gamma, beta, ax, attrs), mean, var)


def _normalize(x64: np.ndarray, axes, eps: float) -> np.ndarray:
    m = x64.mean(axis=axes, keepdims=True)
    v = ((x64 - m) ** 2).mean(axis=axes, keepdims=True)
    return (x64 - m) / np.sqrt(v + eps)


@_reg("nn.layer_norm")
def _layer_norm(args, attrs):
    x, gamma, beta = args
    ax = _axis(attrs.get("axis", -1), x.ndim)
    return _affine(_normalize(_f64(x), (ax,), attrs.get("epsilon", 1e-5)), x, gamma, beta, ax, attrs)


@_reg("nn.instance_norm")
def _instance_norm(args, attrs):
    x, gamma, beta = args
    ax = _axis(attrs.get("axis", 1), x.ndim)
    axes = tuple(i for i in range(1, x.ndim) if i != ax)
    return _affine(_normalize(_f64(x), axes, attrs.get("epsilon", 1e-5)), x, gamma, beta, ax, attrs)


@_reg("nn.group_norm")
def _group_norm(args, attrs):
    x, gamma, beta = args
    ax = _axis(attrs.get("axis", 1), x.ndim)
    g = int(attrs["num_groups"])
    c = x.shape[ax]
    shape = list(x.shape[:ax]) + [g, c // g] + list(x.shape[ax + 1:])
    xg = _f64(x).reshape(shape)
    axes = tuple(range(ax + 1, len(shape)))
    y = _normalize(xg, axes, attrs.get("epsilon", 1e-5)).reshape(x.shape)
    return _affine(y, x, gamma, beta, ax, attrs)


@_reg("nn.l2_normalize")
def _l2_normalize(args, attrs):
    (x,) = args
    axis = attrs.get("axis") or list(range(x.ndim))
    axes = tuple(_axis(a, x.ndim) for a in axis)
    y = _f64(x)
    s = np.sum(y * y, axis=axes, keepdims=True)
    return _arr(y / np.sqrt(np.maximum(s, attrs["eps"])), x.dtype)


@_reg("nn.lrn")
def _lrn(args, attrs):
    (x,) = args
    size, ax = int(attrs.get("size", 5)), _axis(attrs.get("axis", 1), x.ndim)
    bias, alpha, beta = attrs.get("bias", 2.0), attrs.get("alpha", 1e-5), attrs.get("beta", 0.75)
    sq = np.moveaxis(_f64(x) ** 2, ax, 0)
    c = sq.shape[0]
    acc = np.zeros_like(sq)
    for i in range(c):
        lo, hi = max(0, i - size // 2), min(c, i - size // 2 + size)
        acc[i] = sq[lo:hi].sum(axis=0)
    acc = np.moveaxis(acc, 0, ax)
    return _arr(_f64(x) / (bias + alpha / size * acc) ** beta, x.dtype)


# -- layouts -------------------------------------------------------------------------------
def _to_cf(x: np.ndarray, layout: str, canon: str) -> np.ndarray:
    """``x`` (in ``layout``) transposed to the canonical layout ``canon`` (same letters)."""
    if layout == canon:
        return x
    if sorted(layout) != sorted(canon):
        raise RelayRuntimeError(f"the debug interpreter does not support layout '{layout}' here")
    return np.transpose(x, [layout.index(c) for c in canon])


def _from_cf(x: np.ndarray, canon: str, layout: str) -> np.ndarray:
    if layout == canon:
        return x
    return np.transpose(x, [canon.index(c) for c in layout])


_SPATIAL = {1: "W", 2: "HW", 3: "DHW"}


def _pads(padding: Optional[Sequence[int]], n: int):
    p = list(padding or [0] * n)
    if len(p) == 1:
        p = p * (2 * n)
    if len(p) == n:
        p = p + p
    if len(p) != 2 * n:
        raise RelayRuntimeError(f"padding {padding} does not fit {n} spatial dims")
    return p[:n], p[n:]


# -- convolutions -------------------------------------------------------------------------
def _conv_nd(x: np.ndarray, w: np.ndarray, strides, lo, hi, dilation, groups: int) -> np.ndarray:
    """x [N, C, S...], w [O, C/groups, K...] -> float64/int64 [N, O, S'...]."""
    n = x.ndim - 2
    acc = np.float64 if (_is_float(x) or _is_float(w)) else np.int64
    xp = np.pad(x.astype(acc), [(0, 0), (0, 0)] + list(zip(lo, hi)))
    ks = w.shape[2:]
    outs = [(xp.shape[2 + i] - dilation[i] * (ks[i] - 1) - 1) // strides[i] + 1 for i in range(n)]
    o, cg = w.shape[0], w.shape[1]
    og = o // groups
    out = np.zeros((x.shape[0], o) + tuple(outs), acc)
    wa = w.astype(acc)
    for kpos in itertools.product(*[range(k) for k in ks]):
        sl = tuple(slice(kpos[i] * dilation[i], kpos[i] * dilation[i] + strides[i] * (outs[i] - 1) + 1,
                         strides[i]) for i in range(n))
        xs = xp[(slice(None), slice(None)) + sl]
        for g in range(groups):
            wk = wa[(slice(g * og, (g + 1) * og), slice(None)) + kpos]
            out[:, g * og:(g + 1) * og] += np.einsum("nc...,oc->no...", xs[:, g * cg:(g + 1) * cg], wk)
    return out


def _conv_kernel(n: int, name: str):
    sp = _SPATIAL[n]

    def k(args, attrs):
        x, w = args
        dl = attrs.get("data_layout") or "NC" + sp
        kl = attrs.get("kernel_layout") or "OI" + sp
        ol = attrs.get("out_layout") or dl
        xc = _to_cf(x, dl, "NC" + sp)
        wc = _to_cf(w, kl, "OI" + sp)
        lo, hi = _pads(attrs.get("padding"), n)
        strides = attrs.get("strides") or [1] * n
        dil = attrs.get("dilation") or [1] * n
        out = _conv_nd(xc, wc, strides, lo, hi, dil, int(attrs.get("groups", 1)))
        dt = attrs.get("out_dtype") or x.dtype
        return _arr(_from_cf(out, "NC" + sp, ol), dt)
    KERNELS[name] = k


_conv_kernel(1, "nn.conv1d")
_conv_kernel(2, "nn.conv2d")
_conv_kernel(3, "nn.conv3d")


@_reg("nn.conv2d_transpose")
def _conv2d_transpose(args, attrs):
    x, w = args
    dl = attrs.get("data_layout") or "NCHW"
    kl = attrs.get("kernel_layout") or "IOHW"
    ol = attrs.get("out_layout") or dl
    xc = _f64(_to_cf(x, dl, "NCHW"))
    wc = _f64(_to_cf(w, kl, "IOHW"))
    s = attrs.get("strides") or [1, 1]
    d = attrs.get("dilation") or [1, 1]
    op = attrs.get("output_padding") or [0, 0]
    groups = int(attrs.get("groups", 1))
    lo, hi = _pads(attrs.get("padding"), 2)
    n, c, h, wd = xc.shape
    ci, og, kh, kw = wc.shape
    cg = c // groups
    full_h = (h - 1) * s[0] + d[0] * (kh - 1) + 1 + op[0]
    full_w = (wd - 1) * s[1] + d[1] * (kw - 1) + 1 + op[1]
    full = np.zeros((n, og * groups, full_h, full_w))
    for i in range(kh):
        for j in range(kw):
            for g in range(groups):
                contrib = np.einsum("nchw,co->nohw", xc[:, g * cg:(g + 1) * cg], wc[g * cg:(g + 1) * cg, :, i, j])
                full[:, g * og:(g + 1) * og, i * d[0]:i * d[0] + s[0] * (h - 1) + 1:s[0],
                     j * d[1]:j * d[1] + s[1] * (wd - 1) + 1:s[1]] += contrib
    out = full[:, :, lo[0]:full_h - hi[0], lo[1]:full_w - hi[1]]
    return _arr(_from_cf(out, "NCHW", ol), attrs.get("out_dtype") or x.dtype)


# -- pooling ---------------------------------------------------------------------------------
def _pool_nd(x: np.ndarray, kind: str, pool, strides, dil, lo, hi, ceil_mode: bool,
             include_pad: bool) -> np.ndarray:
    """Channel-first N-d pooling. A window holds the positions start + k*dil
    (start = o*stride - pad_lo); max ignores positions outside the input;
    avg divides by the in-input count, or with ``include_pad`` by the count
    inside the padded input."""
    n = x.ndim - 2
    ins = x.shape[2:]
    outs = []
    for i in range(n):
        span = dil[i] * (pool[i] - 1) + 1
        num = ins[i] + lo[i] + hi[i] - span + (strides[i] - 1 if ceil_mode else 0)
        outs.append(num // strides[i] + 1)
    out = np.zeros(x.shape[:2] + tuple(outs), np.float64 if kind == "avg" else x.dtype)
    xw = _f64(x) if kind == "avg" else x
    for idx in itertools.product(*[range(o) for o in outs]):
        sel, count = [], 1
        for i in range(n):
            start = idx[i] * strides[i] - lo[i]
            pos = [start + k * dil[i] for k in range(pool[i])]
            valid = [p for p in pos if 0 <= p < ins[i]]
            count *= len([p for p in pos if p < ins[i] + hi[i]]) if include_pad else len(valid)
            sel.append(valid)
        key = (slice(None), slice(None)) + idx
        if not all(sel):
            if kind == "max":
                raise RelayRuntimeError("max pooling window lies entirely in the padding")
            out[key] = 0
            continue
        win = xw[(slice(None), slice(None)) + np.ix_(*sel)].reshape(x.shape[:2] + (-1,))
        out[key] = win.max(-1) if kind == "max" else win.sum(-1) / max(count, 1)
    return _arr(out, x.dtype)


def _pool_kernel(n: int, kind: str, name: str):
    sp = _SPATIAL[n]

    def k(args, attrs):
        (x,) = args
        layout = attrs.get("layout") or "NC" + sp
        ol = attrs.get("out_layout") or layout
        xc = _to_cf(x, layout, "NC" + sp)
        lo, hi = _pads(attrs.get("padding"), n)
        out = _pool_nd(xc, kind, attrs.get("pool_size") or [1] * n, attrs.get("strides") or [1] * n,
                       attrs.get("dilation") or [1] * n, lo, hi, bool(attrs.get("ceil_mode", False)),
                       bool(attrs.get("count_include_pad", False)))
        return _from_cf(out, "NC" + sp, ol)
    KERNELS[name] = k


for _n in (1, 2, 3):
    _pool_kernel(_n, "max", f"nn.max_pool{_n}d")
    _pool_kernel(_n, "avg", f"nn.avg_pool{_n}d")


def _global_pool(kind: str, name: str):
    def k(args, attrs):
        (x,) = args
        layout = attrs.get("layout") or "NCHW"
        ol = attrs.get("out_layout") or layout
        xc = _to_cf(x, layout, "NCHW")
        if kind == "max":
            out = _amax(xc, axis=(2, 3), keepdims=True)
        else:
            out = _arr(_f64(xc).mean(axis=(2, 3), keepdims=True), x.dtype)
        return _from_cf(out, "NCHW", ol)
    KERNELS[name] = k


_global_pool("avg", "nn.global_avg_pool2d")
_global_pool("max", "nn.global_max_pool2d")


def _adaptive(kind: str, name: str):
    def k(args, attrs):
        (x,) = args
        layout = attrs.get("layout") or "NCHW"
        ol = attrs.get("out_layout") or layout
        xc = _to_cf(x, layout, "NCHW")
        h, w = xc.shape[2:]
        size = list(attrs.get("output_size") or [])
        if not size:
            size = [h, w]
        elif len(size) == 1:
            size = size * 2
        oh, ow = size
        out = np.zeros(xc.shape[:2] + (oh, ow), np.float64)
        for i in range(oh):
            h0, h1 = (i * h) // oh, -((-(i + 1) * h) // oh)
            for j in range(ow):
                w0, w1 = (j * w) // ow, -((-(j + 1) * w) // ow)
                win = _f64(xc[:, :, h0:h1, w0:w1])
                out[:, :, i, j] = _amax(win, axis=(2, 3)) if kind == "max" else win.mean(axis=(2, 3))
        return _from_cf(_arr(out, x.dtype), "NCHW", ol)
    KERNELS[name] = k


_adaptive("avg", "nn.adaptive_avg_pool2d")
_adaptive("max", "nn.adaptive_max_pool2d")


# -- nn: pad, upsampling, depth/space ---------------------------------------------------------
@_reg("nn.pad")
def _pad(args, attrs):
    x, value = args
    flat = list(attrs["pad_width"])
    width = [(flat[2 * i], flat[2 * i + 1]) for i in range(len(flat) // 2)]
    mode = attrs.get("pad_mode", "constant")
    if mode == "constant":
        return np.pad(x, width, mode="constant", constant_values=value.astype(x.dtype))
    if mode in ("edge", "reflect"):
        return np.pad(x, width, mode=mode)
    raise RelayRuntimeError(f"nn.pad: unknown pad_mode '{mode}'")


@_reg("nn.upsampling")
def _upsampling(args, attrs):
    (x,) = args
    layout = attrs.get("layout", "NCHW")
    xc = _to_cf(x, layout, "NCHW")
    h, w = xc.shape[2:]
    oh, ow = int(round(h * attrs.get("scale_h", 1.0))), int(round(w * attrs.get("scale_w", 1.0)))
    align = bool(attrs.get("align_corners", False))

    def coords(n_in, n_out):
        o = np.arange(n_out, dtype=np.float32)
        if align:
            return o * np.float32((n_in - 1) / max(n_out - 1, 1))
        return o * np.float32(n_in / n_out)
    cy, cx = coords(h, oh), coords(w, ow)
    if attrs.get("method", "nearest_neighbor") == "nearest_neighbor":
        iy = _round_half_away(cy) if align else np.floor(cy + np.float32(1e-5))
        ix = _round_half_away(cx) if align else np.floor(cx + np.float32(1e-5))
        iy, ix = np.clip(iy.astype(int), 0, h - 1), np.clip(ix.astype(int), 0, w - 1)
        out = xc[:, :, iy][:, :, :, ix]
    else:
        y0, x0 = np.floor(cy).astype(int), np.floor(cx).astype(int)
        fy, fx = (cy - y0)[:, None].astype(np.float64), (cx - x0)[None, :].astype(np.float64)
        y1, x1 = np.clip(y0 + 1, 0, h - 1), np.clip(x0 + 1, 0, w - 1)
        y0, x0 = np.clip(y0, 0, h - 1), np.clip(x0, 0, w - 1)

        def g(a, b):
            return _f64(xc[:, :, a][:, :, :, b])
        top = g(y0, x0) * (1 - fx) + g(y0, x1) * fx
        bot = g(y1, x0) * (1 - fx) + g(y1, x1) * fx
        out = _arr(top * (1 - fy) + bot * fy, x.dtype)
    return _from_cf(out, "NCHW", layout)


@_reg("nn.depth_to_space")
def _depth_to_space(args, attrs):
    (x,) = args
    layout = attrs.get("layout", "NCHW")
    b = int(attrs["block_size"])
    xc = _to_cf(x, layout, "NCHW")
    n, c, h, w = xc.shape
    oc = c // (b * b)
    if attrs.get("mode", "DCR") == "DCR":
        y = xc.reshape(n, b, b, oc, h, w).transpose(0, 3, 4, 1, 5, 2)
    else:
        y = xc.reshape(n, oc, b, b, h, w).transpose(0, 1, 4, 2, 5, 3)
    return _from_cf(y.reshape(n, oc, h * b, w * b), "NCHW", layout)


@_reg("nn.space_to_depth")
def _space_to_depth(args, attrs):
    (x,) = args
    layout = attrs.get("layout", "NCHW")
    b = int(attrs["block_size"])
    xc = _to_cf(x, layout, "NCHW")
    n, c, h, w = xc.shape
    y = xc.reshape(n, c, h // b, b, w // b, b).transpose(0, 3, 5, 1, 2, 4)
    return _from_cf(y.reshape(n, c * b * b, h // b, w // b), "NCHW", layout)


# -- shape transforms ---------------------------------------------------------------------------
def _reshape_shape(shape: Sequence[int], newshape: Sequence[int], allowzero: bool) -> List[int]:
    """Relay's ``newshape`` codes: 0 copy a dim (unless ``allowzero``), -1 infer,
    -2 copy the remaining dims, -3 merge two dims, -4 split a dim in two."""
    out: List[int] = []
    i = 0  # index into shape
    j = 0
    infer = -1
    while j < len(newshape):
        s = newshape[j]
        if s == 0 and not allowzero:
            out.append(shape[i])
            i += 1
        elif s > 0 or s == 0:
            out.append(s)
            i += 1
        elif s == -1:
            if infer >= 0:
                raise RelayRuntimeError("reshape: more than one -1 in newshape")
            infer = len(out)
            out.append(1)
            i += 1
        elif s == -2:
            out.extend(shape[i:])
            i = len(shape)
        elif s == -3:
            out.append(shape[i] * shape[i + 1])
            i += 2
        elif s == -4:
            a, b = newshape[j + 1], newshape[j + 2]
            if a == -1:
                a = shape[i] // b
            elif b == -1:
                b = shape[i] // a
            out.extend([a, b])
            i += 1
            j += 2
        else:
            raise RelayRuntimeError(f"reshape: bad newshape entry {s}")
        j += 1
    if infer >= 0:
        total = int(np.prod(shape))
        rest = int(np.prod([d for k, d in enumerate(out) if k != infer]))
        out[infer] = total // rest if rest else 0
    return out


@_reg("reshape")
def _reshape(args, attrs):
    (x,) = args
    shape = _reshape_shape(x.shape, attrs["newshape"], bool(attrs.get("allowzero", False)))
    return x.reshape(shape)


@_reg("reshape_like")
def _reshape_like(args, attrs):
    x, like = args
    lb, le = attrs.get("lhs_begin", 0), attrs.get("lhs_end")
    rb, re_ = attrs.get("rhs_begin", 0), attrs.get("rhs_end")
    xs, ls = list(x.shape), list(like.shape)
    lb, rb = lb % (len(xs) + 1) if lb < 0 else lb, rb % (len(ls) + 1) if rb < 0 else rb
    le = len(xs) if le is None else (le + len(xs) if le < 0 else le)
    re_ = len(ls) if re_ is None else (re_ + len(ls) if re_ < 0 else re_)
    return x.reshape(xs[:lb] + ls[rb:re_] + xs[le:])


@_reg("transpose")
def _transpose(args, attrs):
    (x,) = args
    axes = attrs.get("axes")
    return np.transpose(x, None if not axes else [_axis(a, x.ndim) for a in axes])


def _fields(args) -> list:
    if len(args) == 1 and isinstance(args[0], tuple):
        return list(args[0])
    return list(args)


@_reg("concatenate")
def _concatenate(args, attrs):
    fields = _fields(args)
    _same_dtype("concatenate", *fields)
    return np.concatenate(fields, axis=_axis(attrs.get("axis", 0), fields[0].ndim))


@_reg("stack")
def _stack(args, attrs):
    fields = _fields(args)
    _same_dtype("stack", *fields)
    return np.stack(fields, axis=_axis(attrs.get("axis", 0), fields[0].ndim + 1))


@_reg("einsum")
def _einsum(args, attrs):
    fields = _fields(args)
    dt = fields[0].dtype
    wide = [(_f64(f) if _is_float(f) else f.astype(np.int64)) for f in fields]
    return _arr(np.einsum(attrs["equation"], *wide), dt)


@_reg("squeeze")
def _squeeze(args, attrs):
    (x,) = args
    axis = attrs.get("axis")
    if axis is None:
        return x.reshape([d for d in x.shape if d != 1])
    axes = {_axis(a, x.ndim) for a in axis}
    for a in axes:
        if x.shape[a] != 1:
            raise RelayRuntimeError(f"squeeze: dim {a} has size {x.shape[a]}, not 1")
    return x.reshape([d for i, d in enumerate(x.shape) if i not in axes])


@_reg("expand_dims")
def _expand_dims(args, attrs):
    (x,) = args
    axis = attrs["axis"]
    k = int(attrs.get("num_newaxis", 1))
    a = axis + x.ndim + 1 if axis < 0 else axis
    return x.reshape(list(x.shape[:a]) + [1] * k + list(x.shape[a:]))


@_reg("split")
def _split(args, attrs):
    (x,) = args
    ax = _axis(attrs.get("axis", 0), x.ndim)
    spec = attrs["indices_or_sections"]
    if isinstance(spec, int):
        if x.shape[ax] % spec:
            raise RelayRuntimeError(f"split: dim {x.shape[ax]} is not divisible into {spec} sections")
        return tuple(np.split(x, spec, axis=ax))
    return tuple(np.split(x, list(spec), axis=ax))


@_reg("strided_slice")
def _strided_slice(args, attrs):
    (x,) = args
    begin, end = list(attrs["begin"]), list(attrs["end"])
    strides = list(attrs.get("strides") or [1])
    given_axes = attrs.get("axes")
    size_mode = attrs.get("slice_mode", "end") == "size"
    axes = list(range(len(begin))) if given_axes is None else [_axis(a, x.ndim) for a in given_axes]
    sl = [slice(None)] * x.ndim
    for k, ax in enumerate(axes):
        n = x.shape[ax]
        if size_mode:
            st = 1
        elif k < len(strides):
            st = strides[k]
        else:
            st = strides[0] if given_axes is not None and len(strides) == 1 else 1
        if st == 0:
            raise RelayRuntimeError("strided_slice: stride 0")
        b = begin[k]
        b = b + n if b < 0 else b
        e = end[k] if k < len(end) else n
        if size_mode:
            e = n if e < 0 else b + e
        elif e < 0:
            e = e + n
        if st > 0:
            b, e = min(max(b, 0), n), min(max(e, 0), n)
            sl[ax] = slice(b, e, st)
        else:
            b, e = min(max(b, -1), n - 1), min(max(e, -1), n - 1)
            sl[ax] = slice(b, e, st) if b >= 0 and e >= 0 else (slice(b, None, st) if b >= 0 else slice(0, 0))
    return np.array(x[tuple(sl)])


@_reg("tile")
def _tile(args, attrs):
    return np.tile(args[0], attrs["reps"])


@_reg("repeat")
def _repeat(args, attrs):
    (x,) = args
    return np.repeat(x, int(attrs["repeats"]), axis=_axis(attrs["axis"], x.ndim))


@_reg("reverse")
def _reverse(args, attrs):
    (x,) = args
    return np.flip(x, axis=_axis(attrs["axis"], x.ndim)).copy()


@_reg("broadcast_to")
def _broadcast_to(args, attrs):
    return np.broadcast_to(args[0], attrs["shape"]).copy()


@_reg("broadcast_to_like")
def _broadcast_to_like(args, attrs):
    return np.broadcast_to(args[0], args[1].shape).copy()


@_reg("collapse_sum_like")
def _collapse_sum_like(args, attrs):
    x, like = args
    shape = like.shape
    lead = x.ndim - len(shape)
    axes = list(range(lead)) + [lead + i for i, d in enumerate(shape) if d == 1 and x.shape[lead + i] != 1]
    s = np.sum(_wide(x), axis=tuple(axes), keepdims=True)
    return _arr(s.reshape(shape), x.dtype)


@_reg("zeros")
def _zeros(args, attrs):
    return np.zeros(attrs["shape"], attrs["dtype"])


@_reg("ones")
def _ones(args, attrs):
    return np.ones(attrs["shape"], attrs["dtype"])


@_reg("zeros_like")
def _zeros_like(args, attrs):
    return np.zeros_like(args[0])


@_reg("ones_like")
def _ones_like(args, attrs):
    return np.ones_like(args[0])


@_reg("full")
def _full(args, attrs):
    (v,) = args
    dt = attrs.get("dtype") or v.dtype
    return np.full(attrs["shape"], _cast(v, dt), dt)


@_reg("full_like")
def _full_like(args, attrs):
    x, v = args
    return np.full(x.shape, _cast(v, x.dtype), x.dtype)


@_reg("arange")
def _arange(args, attrs):
    start, stop, step = (a.item() for a in args)
    dt = np.dtype(attrs.get("dtype") or args[0].dtype)
    if step == 0:
        raise RelayRuntimeError("arange: step is 0")
    n = max(int(math.ceil((stop - start) / step)), 0)
    if dt.kind == "f":
        return _arr(start + np.arange(n, dtype=np.float64) * step, dt)
    return _arr(start + np.arange(n, dtype=np.int64) * step, dt)


def _parse_layout(layout: str):
    """``"NCHW4c"`` -> [('N', None), ('C', None), ('H', None), ('W', None), ('c', 4)]."""
    out, num = [], ""
    for ch in layout:
        if ch.isdigit():
            num += ch
        else:
            out.append((ch, int(num) if num else None))
            num = ""
    return out


@_reg("layout_transform")
def _layout_transform(args, attrs):
    (x,) = args
    src, dst = _parse_layout(attrs["src_layout"]), _parse_layout(attrs["dst_layout"])
    # to the primal layout: merge each sub-axis into its primal axis
    primal = [c for c, _ in src if c.isupper()]
    factors = {c.upper(): f for c, f in src if c.islower()}
    y = x
    letters = [c for c, _ in src]
    # order: the primal axes in src order, each followed by its sub-axis
    perm = []
    for c in primal:
        perm.append(letters.index(c))
        if c in factors:
            perm.append(letters.index(c.lower()))
    y = np.transpose(y, perm)
    shape = []
    k = 0
    for c in primal:
        if c in factors:
            shape.append(y.shape[k] * y.shape[k + 1])
            k += 2
        else:
            shape.append(y.shape[k])
            k += 1
    y = y.reshape(shape)
    # split for dst and permute
    dfactors = {c.upper(): f for c, f in dst if c.islower()}
    split_shape, split_names = [], []
    for c, d in zip(primal, y.shape):
        if c in dfactors:
            f = dfactors[c]
            split_shape += [d // f, f]
            split_names += [c, c.lower()]
        else:
            split_shape.append(d)
            split_names.append(c)
    y = y.reshape(split_shape)
    return np.ascontiguousarray(np.transpose(y, [split_names.index(c) for c, _ in dst]))


# -- indexing / scans / sorting ---------------------------------------------------------------
@_reg("take")
def _take(args, attrs):
    data, idx = args
    axis = attrs.get("axis")
    mode = attrs.get("mode", "clip")
    bd = int(attrs.get("batch_dims", 0))

    def one(a, i, ax, b):
        if ax is None:
            a, ax = a.reshape(-1), 0
        if b:
            return np.stack([one(a[k], i[k], ax - 1, b - 1) for k in range(a.shape[0])])
        n = a.shape[ax]
        i = i.astype(np.int64)
        if mode == "nan":
            ok = (i >= 0) & (i < n)
            r = np.take(a, np.clip(i, 0, n - 1), axis=ax)
            okb = ok.reshape([1] * ax + list(ok.shape) + [1] * (a.ndim - ax - 1))
            return np.where(okb, r, np.array(np.nan, a.dtype))
        if mode == "wrap":
            return np.take(a, np.mod(i, n), axis=ax)
        if mode == "fast" and ((i < 0) | (i >= n)).any():
            raise RelayRuntimeError('relay.take: an index is out of range (mode "fast")')
        return np.take(a, np.clip(i, 0, n - 1), axis=ax)  # clip; "fast" (in-range indices) too
    ax = None if axis is None else _axis(axis, data.ndim)
    return _arr(one(data, idx, ax, bd), data.dtype)


def _check_indices(op: str, i: np.ndarray, n: int) -> None:
    """Indices outside ``[-n, n)`` are a run-time error (as the compiled program's)."""
    i = i.astype(np.int64)
    if ((i < -n) | (i >= n)).any():
        raise RelayRuntimeError(f"relay.{op}: an index is out of range")


@_reg("gather")
def _gather(args, attrs):
    data, idx = args
    # out[i..] = data[i.. with indices[i..] at axis]: the indices may be smaller than
    # data in every dim (not only along axis), so not np.take_along_axis
    ax = _axis(attrs["axis"], data.ndim)
    _check_indices("gather", idx, data.shape[ax])
    grid = list(np.indices(idx.shape, sparse=True))
    grid[ax] = idx.astype(np.int64)
    return data[tuple(grid)]


@_reg("gather_nd")
def _gather_nd(args, attrs):
    data, idx = args
    bd = int(attrs.get("batch_dims", 0))

    def one(a, i, b):
        if b:
            return np.stack([one(a[k], i[:, k], b - 1) for k in range(a.shape[0])])
        m = i.shape[0]
        for j in range(m):
            _check_indices("gather_nd", i[j], a.shape[j])
        return a[tuple(i[j].astype(np.int64) for j in range(m))]
    return _arr(one(data, idx, bd), data.dtype)


@_reg("scatter_elements")
def _scatter_elements(args, attrs):
    data, idx, upd = args
    ax = _axis(attrs.get("axis", 0), data.ndim)
    red = attrs.get("reduction", "update")
    out = data.copy()
    n = data.shape[ax]
    _check_indices("scatter_elements", idx, n)
    for u in np.ndindex(*idx.shape):
        t = list(u)
        t[ax] = int(idx[u]) % n if idx[u] < 0 else int(idx[u])
        t = tuple(t)
        if red == "update":
            out[t] = upd[u]
        elif red == "add":
            out[t] = out[t] + upd[u]
        elif red == "mul":
            out[t] = out[t] * upd[u]
        elif red == "mean":
            out[t] = (out[t] + upd[u]) / 2
        elif red == "min":
            out[t] = min(out[t], upd[u])
        elif red == "max":
            out[t] = max(out[t], upd[u])
        else:
            raise RelayRuntimeError(f"scatter_elements: unknown reduction '{red}'")
    return out


@_reg("scatter_nd")
def _scatter_nd(args, attrs):
    data, idx, upd = args
    mode = attrs.get("mode", "update")
    out = data.copy()
    for j in range(idx.shape[0]):
        _check_indices("scatter_nd", idx[j], data.shape[j])
    for y in np.ndindex(*idx.shape[1:]):
        t = tuple(int(v) for v in idx[(slice(None),) + y])
        if mode == "update":
            out[t] = upd[y]
        elif mode == "add":
            out[t] = out[t] + upd[y]
        elif mode == "mul":
            out[t] = out[t] * upd[y]
        elif mode == "min":
            out[t] = np.minimum(out[t], upd[y])
        elif mode == "max":
            out[t] = np.maximum(out[t], upd[y])
        else:
            raise RelayRuntimeError(f"scatter_nd: unknown mode '{mode}'")
    return out


@_reg("one_hot")
def _one_hot(args, attrs):
    idx, on, off = args
    depth, dt = int(attrs["depth"]), attrs["dtype"]
    axis = attrs.get("axis", -1)
    hot = idx[..., None] == np.arange(depth)
    out = np.where(hot, on.astype(dt), off.astype(dt)).astype(dt)
    return np.ascontiguousarray(np.moveaxis(out, -1, axis if axis >= 0 else out.ndim - 1))


def _scan(fn: Callable, ident: int, name: str):
    def k(args, attrs):
        (x,) = args
        axis = attrs.get("axis")
        dt = np.dtype(attrs.get("dtype") or x.dtype)
        y = x.reshape(-1) if axis is None else x
        ax = 0 if axis is None else _axis(axis, x.ndim)
        y = y.astype(dt)
        out = fn(_f64(y) if dt.kind == "f" else y, axis=ax)
        if attrs.get("exclusive"):
            shifted = np.full_like(out, ident)
            src = [slice(None)] * out.ndim
            dst = [slice(None)] * out.ndim
            src[ax], dst[ax] = slice(0, -1), slice(1, None)
            shifted[tuple(dst)] = out[tuple(src)]
            out = shifted
        return _arr(out, dt)
    KERNELS[name] = k


_scan(np.cumsum, 0, "cumsum")
_scan(np.cumprod, 1, "cumprod")


def _argsort(x: np.ndarray, axis: int, ascend: bool) -> np.ndarray:
    """Stable; descending order keeps equal elements in index order."""
    key = x if ascend else -_f64(x) if x.dtype != np.bool_ else ~x
    return np.argsort(key, axis=axis, kind="stable")


@_reg("argsort")
def _argsort_k(args, attrs):
    (x,) = args
    return _arr(_argsort(x, attrs.get("axis", -1), bool(attrs.get("is_ascend", True))),
                attrs.get("dtype") or "int32")


@_reg("sort")
def _sort(args, attrs):
    (x,) = args
    ax = attrs.get("axis", -1)
    return np.take_along_axis(x, _argsort(x, ax, bool(attrs.get("is_ascend", True))), axis=ax)


@_reg("topk")
def _topk(args, attrs):
    (x,) = args
    ax = _axis(attrs.get("axis", -1), x.ndim)
    k = int(attrs.get("k", 1))
    idx = _argsort(x, ax, bool(attrs.get("is_ascend", False)))
    if k >= 1:
        idx = np.take(idx, range(k), axis=ax)
    vals = np.take_along_axis(x, idx, axis=ax)
    idx = _arr(idx, attrs.get("dtype") or "int32")
    rt = attrs.get("ret_type", "both")
    return {"both": (vals, idx), "values": vals, "indices": idx}[rt]


# -- image ---------------------------------------------------------------------------------------
def _in_coord(o, in_size, out_size, mode, roi=None):
    f32 = np.float32
    x = o.astype(f32)
    scale = f32(in_size) / f32(out_size)
    if mode == "half_pixel":
        return (x + f32(0.5)) * scale - f32(0.5)
    if mode == "align_corners":
        return (f32(in_size - 1) / f32(out_size - 1)) * x if out_size > 1 else np.zeros_like(x)
    if mode == "asymmetric":
        return scale * x
    if mode == "pytorch_half_pixel":
        return (x + f32(0.5)) * scale - f32(0.5) if out_size > 1 else np.zeros_like(x)
    if mode == "tf_half_pixel_for_nn":
        return (x + f32(0.5)) * scale
    raise RelayRuntimeError(f"the debug interpreter has no kernel for 'image.resize2d' with "
                            f"coordinate_transformation_mode '{mode}'")


def _nearest(c, rounding, mode):
    f32 = np.float32
    if rounding == "":
        rounding = "round" if mode == "align_corners" else "floor"
    if rounding == "round":
        r = _round_half_away(c)
    elif rounding == "floor":
        r = np.floor(c + f32(1e-5))
    elif rounding == "ceil":
        r = np.ceil(c - f32(1e-5))
    elif rounding == "round_prefer_floor":
        r = np.ceil(c - f32(0.5))
    else:
        r = np.floor(c + f32(0.5))
    return r.astype(np.int64)


@_reg("image.resize2d")
def _resize2d(args, attrs):
    (x,) = args
    f32 = np.float32
    layout = attrs.get("layout", "NCHW")
    method = attrs.get("method", "linear")
    mode = attrs.get("coordinate_transformation_mode", "half_pixel")
    # coordinates and weights in float32 as the compiled kernel; pixels in
    # float32, or float64 for float64 data (which must not lose precision)
    img = _to_cf(x, layout, "NCHW").astype(np.float64 if x.dtype == np.float64 else f32)
    H, W = img.shape[2:]
    oh, ow = attrs["size"]
    cy, cx = _in_coord(np.arange(oh), H, oh, mode), _in_coord(np.arange(ow), W, ow, mode)

    def px(iy, ix):
        return img[:, :, np.clip(iy, 0, H - 1)[:, None], np.clip(ix, 0, W - 1)[None, :]]
    if method == "nearest_neighbor":
        rnd = attrs.get("rounding_method", "")
        out = px(_nearest(cy, rnd, mode), _nearest(cx, rnd, mode))
    elif method == "linear":
        y0, x0 = np.floor(cy).astype(np.int64), np.floor(cx).astype(np.int64)
        ly, lx = (cy - np.floor(cy))[:, None], (cx - np.floor(cx))[None, :]
        top = px(y0, x0) * (1 - lx) + px(y0, x0 + 1) * lx
        bottom = px(y0 + 1, x0) * (1 - lx) + px(y0 + 1, x0 + 1) * lx
        out = top * (1 - ly) + bottom * ly
    elif method == "cubic":
        a = f32(attrs.get("cubic_alpha", -0.5))
        y0, x0 = np.floor(cy).astype(np.int64), np.floor(cx).astype(np.int64)

        def weights(t):
            t2, t3 = t * t, t * t * t
            return [a * (t3 - 2 * t2 + t), (a + 2) * t3 - (3 + a) * t2 + 1,
                    -(a + 2) * t3 + (3 + 2 * a) * t2 - a * t, -a * t3 + a * t2]
        wy = weights((cy - np.floor(cy)).astype(f32))
        wx = weights((cx - np.floor(cx)).astype(f32))
        if attrs.get("cubic_exclude", 0):
            wy = [np.where((y0 - 1 + k < 0) | (y0 + k > H), 0, w) for k, w in enumerate(wy)]
            wx = [np.where((x0 - 1 + k < 0) | (x0 + k > W), 0, w) for k, w in enumerate(wx)]
            sy, sx = sum(wy), sum(wx)
            wy, wx = [w / sy for w in wy], [w / sx for w in wx]
        out = 0
        for j in range(4):
            for i in range(4):
                out = out + px(y0 + j - 1, x0 + i - 1) * wy[j][:, None] * wx[i][None, :]
    else:
        raise RelayRuntimeError(f"image.resize2d: unknown method '{method}'")
    out = _from_cf(np.asarray(out), "NCHW", layout)
    return _arr(out, attrs.get("out_dtype") or x.dtype)


# -- shapes as values and the dyn.* operators ------------------------------------------
@_reg("shape_of")
def _shape_of(args, attrs):
    return np.array(args[0].shape, dtype=attrs.get("dtype") or "int32")


@_reg("ndarray_size")
def _ndarray_size(args, attrs):
    return np.array(args[0].size, dtype=attrs.get("dtype") or "int32")


def _run_time_shape(op: str, shape: np.ndarray) -> list:
    if shape.ndim != 1 or shape.dtype.kind not in "iu":
        raise RelayRuntimeError(f"{op}: the shape must be a 1-d integer tensor, got {shape.dtype} {shape.shape}")
    return [int(v) for v in shape]


@_reg("dyn.reshape")
def _dyn_reshape(args, attrs):
    x, s = args
    req = _run_time_shape("relay.dyn.reshape", s)
    allowzero = bool(attrs.get("allowzero", False))
    out = [x.shape[i] if (v == 0 and not allowzero and i < x.ndim) else v for i, v in enumerate(req)]
    if out.count(-1) > 1 or any(v < -1 for v in out):
        raise RelayRuntimeError(f"relay.dyn.reshape: newshape {req} has more than one -1 or a negative entry")
    known = int(np.prod([v for v in out if v != -1], dtype=np.int64))
    if -1 in out:
        out[out.index(-1)] = x.size // known if known else 0
    if int(np.prod(out, dtype=np.int64)) != x.size:
        raise RelayRuntimeError(f"relay.dyn.reshape: newshape {req} does not fit {x.size} elements")
    return x.reshape(out)


@_reg("dyn.broadcast_to")
def _dyn_broadcast_to(args, attrs):
    x, s = args
    shape = _run_time_shape("relay.dyn.broadcast_to", s)
    try:
        return np.broadcast_to(x, shape).copy()
    except ValueError:
        raise RelayRuntimeError(f"relay.dyn.broadcast_to: {x.shape} does not broadcast to {shape}") from None


@_reg("dyn.zeros")
def _dyn_zeros(args, attrs):
    return np.zeros(_run_time_shape("relay.dyn.zeros", args[0]), attrs["dtype"])


@_reg("dyn.ones")
def _dyn_ones(args, attrs):
    return np.ones(_run_time_shape("relay.dyn.ones", args[0]), attrs["dtype"])


@_reg("dyn.full")
def _dyn_full(args, attrs):
    v, s = args
    dt = attrs.get("dtype") or v.dtype
    return np.full(_run_time_shape("relay.dyn.full", s), _cast(v, dt), dt)


def _one_value(op: str, what: str, v: np.ndarray) -> int:
    if v.size != 1 or v.dtype.kind not in "iu":
        raise RelayRuntimeError(f"{op}: {what} must be one integer, got {v.dtype} {v.shape}")
    return int(v.reshape(()))


def _check_sizes(op: str, sizes: Sequence[int]) -> None:
    if any(s < 0 for s in sizes) or float(np.prod([float(s) for s in sizes])) > 2.0 ** 40:
        raise RelayRuntimeError(f"{op}: a shape entry is negative or the shape has more than 2^40 elements "
                                f"({list(sizes)})")


def _slice_indices(n: int, begin: int, end: int, stride: int) -> np.ndarray:
    """The indices strided_slice reads along a dim of size n (negative begin/end count from the
    end, then clamp to [0, n] (stride > 0) or [-1, n - 1] (stride < 0))."""
    lo, hi = (-1, n - 1) if stride < 0 else (0, n)

    def canonical(i: int) -> int:
        return min(max(i + n if i < 0 else i, lo), hi)
    first, last = canonical(begin), canonical(end)
    count = max(0, -((first - last) // stride))  # ceil((last - first) / stride)
    return first + stride * np.arange(count, dtype=np.int64)


@_reg("dyn.strided_slice")
def _dyn_strided_slice(args, attrs):
    x, b, e, s = args
    op = "relay.dyn.strided_slice"
    begin, end = _run_time_shape(op, b), _run_time_shape(op, e)
    strides = _run_time_shape(op, s)
    size_mode = attrs.get("slice_mode", "end") == "size"
    for a in range(len(begin)):
        stride = 1 if size_mode else strides[a if len(strides) > 1 else 0]
        if stride == 0:
            raise RelayRuntimeError(f"{op}: a stride is 0")
        en = end[a]
        if size_mode:
            en = np.iinfo(np.int64).max if en < 0 else begin[a] + en
        x = np.take(x, _slice_indices(x.shape[a], begin[a], en, stride), axis=a)
    return np.ascontiguousarray(x)


@_reg("strided_set")
def _strided_set(args, attrs):
    x, v, b, e, s = args
    op = "relay.strided_set"
    begin, end = _run_time_shape(op, b), _run_time_shape(op, e)
    strides = _run_time_shape(op, s)
    index = []
    for a in range(x.ndim):
        if a >= len(begin):
            index.append(np.arange(x.shape[a]))
            continue
        stride = strides[a] if a < len(strides) else 1
        if stride == 0:
            raise RelayRuntimeError(f"{op}: a stride is 0")
        index.append(_slice_indices(x.shape[a], begin[a], end[a], stride))
    if tuple(len(i) for i in index) != v.shape:
        raise RelayRuntimeError(f"{op}: v's shape {v.shape} is not the slice's "
                                f"{tuple(len(i) for i in index)}")
    out = x.copy()
    out[np.ix_(*index)] = v
    return out


@_reg("dyn.tile")
def _dyn_tile(args, attrs):
    x, r = args
    reps = _run_time_shape("relay.dyn.tile", r)
    _check_sizes("relay.dyn.tile", reps)
    shape = [1] * (len(reps) - x.ndim) + list(x.shape)
    _check_sizes("relay.dyn.tile", [d * k for d, k in zip(shape, [1] * (len(shape) - len(reps)) + reps)])
    return np.tile(x, reps)


@_reg("dyn.nn.pad")
def _dyn_pad(args, attrs):
    x, w, value = args
    op = "relay.dyn.nn.pad"
    if w.shape != (x.ndim, 2) or w.dtype.kind not in "iu":
        raise RelayRuntimeError(f"{op}: pad_width must be a ({x.ndim}, 2) integer tensor")
    width = [(int(b), int(a)) for b, a in w]
    mode = attrs.get("pad_mode", "constant")
    out = [d + b + a for d, (b, a) in zip(x.shape, width)]
    _check_sizes(op, out)
    if mode != "constant" and any(d == 0 and (b, a) != (0, 0) for d, (b, a) in zip(x.shape, width)):
        raise RelayRuntimeError(f"{op}: edge or reflect padding of an empty dim")
    # output index i reads input index i - before (negative widths crop)
    y = x
    for a, (b, _) in enumerate(width):
        d = x.shape[a]
        src = np.arange(out[a], dtype=np.int64) - b
        if mode == "constant":
            inside = (src >= 0) & (src < d)
            idx = np.clip(src, 0, max(d - 1, 0))
        elif mode == "edge":
            idx = np.clip(src, 0, d - 1)
        else:  # reflect, repeated as often as the width needs
            period = max(2 * (d - 1), 1)
            m = np.mod(src, period)
            idx = np.where(m < d, m, period - m)
        if y.shape[a] == 0:
            y = np.zeros(y.shape[:a] + (out[a],) + y.shape[a + 1:], y.dtype)
        else:
            y = np.take(y, idx, axis=a)
        if mode == "constant":
            shape = [1] * x.ndim
            shape[a] = -1
            y = np.where(inside.reshape(shape), y, value.astype(x.dtype))
    return np.ascontiguousarray(y.astype(x.dtype))


@_reg("dyn.one_hot")
def _dyn_one_hot(args, attrs):
    idx, on, off, d = args
    depth = _one_value("relay.dyn.one_hot", "depth", d)
    _check_sizes("relay.dyn.one_hot", list(idx.shape) + [depth])
    return _one_hot([idx, on, off], dict(attrs, depth=depth))


@_reg("dyn.squeeze")
def _dyn_squeeze(args, attrs):
    x, ax = args
    op = "relay.dyn.squeeze"
    axes = [a + x.ndim if a < 0 else a for a in _run_time_shape(op, ax)]
    if any(not 0 <= a < x.ndim for a in axes):
        raise RelayRuntimeError(f"{op}: an axis is out of range")
    if len(set(axes)) != len(axes) or any(x.shape[a] != 1 for a in axes):
        raise RelayRuntimeError(f"{op}: an axis is given twice or a squeezed dim is not 1")
    return x.reshape([d for i, d in enumerate(x.shape) if i not in axes])


@_reg("dyn.expand_dims")
def _dyn_expand_dims(args, attrs):
    x, ax = args
    a = _one_value("relay.dyn.expand_dims", "axis", ax)
    if not -x.ndim - 1 <= a <= x.ndim:
        raise RelayRuntimeError("relay.dyn.expand_dims: axis is out of range")
    return _expand_dims([x], dict(attrs, axis=a))


@_reg("dyn.topk")
def _dyn_topk(args, attrs):
    x, kk = args
    k = _one_value("relay.dyn.topk", "k", kk)
    ax = _axis(attrs.get("axis", -1), x.ndim)
    if not 0 <= k <= x.shape[ax]:
        raise RelayRuntimeError("relay.dyn.topk: k is not in [0, the axis size]")
    idx = np.take(_argsort(x, ax, bool(attrs.get("is_ascend", False))), range(k), axis=ax)
    vals = np.take_along_axis(x, idx, axis=ax)
    idx = _arr(idx, attrs.get("dtype") or "int32")
    return {"both": (vals, idx), "values": vals, "indices": idx}[attrs.get("ret_type", "both")]
