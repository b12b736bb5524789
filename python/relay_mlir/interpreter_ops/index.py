"""The debug interpreter's numpy kernels of the Index ops (``dialect/relay/RelayIndexOps.td``)."""
from __future__ import annotations

from typing import Callable

import numpy as np

from ..errors import RelayRuntimeError
from ._common import _arr, _axis, _f64
from ._registry import KERNELS, _reg


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


@_reg("searchsorted")
def _searchsorted(args, attrs):
    s, v = args
    side = "right" if attrs.get("right", False) else "left"
    dtype = attrs.get("dtype") or "int32"
    if s.ndim == 1:
        return _arr(np.searchsorted(s, v, side=side), dtype)
    out = np.empty(v.shape, dtype=dtype)
    for lead in np.ndindex(*v.shape[:-1]):
        out[lead] = np.searchsorted(s[lead], v[lead], side=side)
    return out


@_reg("sparse_to_dense")
def _sparse_to_dense(args, attrs):
    indices, values, default = args
    shape = [int(s) for s in attrs["output_shape"]]
    out = np.full(shape, default, dtype=values.dtype)
    idx = indices.reshape(-1, 1) if indices.ndim < 2 else indices
    vals = np.broadcast_to(values, (idx.shape[0],))
    for i in range(idx.shape[0]):
        out[tuple(int(v) for v in idx[i])] = vals[i]
    return out
