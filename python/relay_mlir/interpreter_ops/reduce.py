"""The debug interpreter's numpy kernels of the Reduce ops (``dialect/relay/RelayReduceOps.td``)."""
from __future__ import annotations

from typing import Callable

import numpy as np

from ..errors import RelayRuntimeError
from ._common import _arr, _axis, _f64, _is_float
from ._registry import KERNELS, _reg
from .elementwise import _trunc_div


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
