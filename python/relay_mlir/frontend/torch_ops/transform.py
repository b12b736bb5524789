"""Shapes and views: reshapes, squeezes, permutations, broadcasts, concatenation,
splits, slices, ``select`` and ``flip``."""
from __future__ import annotations

from typing import List

import numpy as np

from ... import op
from ._base import _Ctx, _TV, _axis, _packet, _register


@_register("view", "_unsafe_view", "reshape", "flatten", "unflatten", "view_as", "reshape_as")
def _reshape(c: _Ctx) -> _TV:
    shape, _ = c.out()
    return c.result(op.reshape(c.ex(c.a["self"]), shape))


@_register("squeeze", "unsqueeze", "expand_dims")
def _squeeze(c: _Ctx) -> _TV:
    shape, _ = c.out()
    x = c.tv(c.a["self"])
    if x.shape == shape:
        return c.result(x.expr)
    return c.result(op.reshape(x.expr, shape))


@_register("permute")
def _permute(c: _Ctx) -> _TV:
    x = c.tv(c.a["self"])
    return c.result(op.transpose(x.expr, [_axis(int(d), x.ndim) for d in c.a["dims"]]))


@_register("transpose", "swapaxes")
def _transpose(c: _Ctx) -> _TV:
    x = c.tv(c.a["self"])
    d0 = _axis(int(c.a.get("dim0", c.a.get("axis0"))), x.ndim)
    d1 = _axis(int(c.a.get("dim1", c.a.get("axis1"))), x.ndim)
    perm = list(range(x.ndim))
    perm[d0], perm[d1] = perm[d1], perm[d0]
    return c.result(op.transpose(x.expr, perm))


@_register("t", "numpy_T")
def _t(c: _Ctx) -> _TV:
    x = c.tv(c.a["self"])
    return c.result(op.transpose(x.expr, list(range(x.ndim))[::-1]) if x.ndim > 1 else x.expr)


@_register("expand", "expand_as", "broadcast_to")
def _expand(c: _Ctx) -> _TV:
    shape, _ = c.out()
    x = c.tv(c.a["self"])
    return c.result(x.expr if x.shape == shape else op.broadcast_to(x.expr, shape))


@_register("repeat")
def _repeat(c: _Ctx) -> _TV:
    x = c.tv(c.a["self"])
    reps = [int(r) for r in c.a["repeats"]]
    e = x.expr
    if len(reps) > x.ndim:
        e = op.reshape(e, (1,) * (len(reps) - x.ndim) + x.shape)
    return c.result(op.tile(e, reps))


@_register("cat", "concat", "concatenate")
def _cat(c: _Ctx) -> _TV:
    shape, dtype = c.out()
    parts = [c.tv(t, dtype) for t in c.a["tensors"]]
    parts = [p for p in parts if not (p.ndim == 1 and p.shape[0] == 0)]  # torch skips empty 1-d
    axis = _axis(int(c.a["dim"]), len(shape))
    if len(parts) == 1:
        return c.result(parts[0].expr)
    return c.result(op.concatenate([p.expr for p in parts], axis=axis))


@_register("stack")
def _stack(c: _Ctx) -> _TV:
    shape, dtype = c.out()
    return c.result(op.stack([c.ex(t, dtype) for t in c.a["tensors"]], axis=_axis(int(c.a["dim"]), len(shape))))


def _split_at(c: _Ctx, x: _TV, sizes: List[int], axis: int) -> List[_TV]:
    if len(sizes) == 1:
        return [x]
    idx = list(np.cumsum(sizes)[:-1])
    parts = op.split(x.expr, [int(i) for i in idx], axis=axis)
    out = []
    for i, s in enumerate(sizes):
        shp = list(x.shape)
        shp[axis] = s
        out.append(_TV(parts[i], tuple(shp), x.dtype))
    return out


@_register("split", "split_with_sizes", "chunk", "tensor_split", "unsafe_split",
           "split_with_sizes_copy", "unsafe_split_with_sizes")
def _split(c: _Ctx) -> List[_TV]:
    packet, overload = _packet(c.node.target)
    x = c.tv(c.a["self"])
    axis = _axis(int(c.a["dim"]), x.ndim)
    n = x.shape[axis]
    if packet == "chunk":
        k = int(c.a["chunks"])
        each = -(-n // k)
        sizes = [min(each, n - i) for i in range(0, n, each)]
    elif packet == "tensor_split":
        raise c.unsupported("tensor_split is not supported")
    elif "split_size" in c.a and isinstance(c.a["split_size"], int):
        each = int(c.a["split_size"])
        sizes = [min(each, n - i) for i in range(0, n, each)]
    else:
        sizes = [int(s) for s in c.a.get("split_sizes", c.a.get("split_size"))]
    return _split_at(c, x, sizes, axis)


@_register("unbind")
def _unbind(c: _Ctx) -> List[_TV]:
    x = c.tv(c.a["self"])
    axis = _axis(int(c.a["dim"]), x.ndim)
    parts = _split_at(c, x, [1] * x.shape[axis], axis)
    shape = x.shape[:axis] + x.shape[axis + 1:]
    return [_TV(op.reshape(p.expr, shape), shape, x.dtype) for p in parts]


@_register("slice", "slice_copy")
def _slice(c: _Ctx) -> _TV:
    x = c.tv(c.a["self"])
    axis = _axis(int(c.a["dim"]), x.ndim)
    n = x.shape[axis]
    start, end, step = c.a.get("start"), c.a.get("end"), int(c.a.get("step") or 1)
    start = 0 if start is None else int(start)
    end = n if end is None else int(end)
    start = max(0, min(n, start + n if start < 0 else start))
    end = max(0, min(n, end + n if end < 0 else end))
    if start == 0 and end == n and step == 1:
        return c.result(x.expr)
    return c.result(op.strided_slice(x.expr, begin=[start], end=[end], strides=[step], axes=[axis]))


@_register("select", "select_copy")
def _select(c: _Ctx) -> _TV:
    x = c.tv(c.a["self"])
    axis = _axis(int(c.a["dim"]), x.ndim)
    i = int(c.a["index"])
    i = i + x.shape[axis] if i < 0 else i
    shape, _ = c.out()
    y = op.strided_slice(x.expr, begin=[i], end=[i + 1], strides=[1], axes=[axis])
    return c.result(op.reshape(y, shape))


@_register("flip")
def _flip(c: _Ctx) -> _TV:
    x = c.tv(c.a["self"])
    y = x.expr
    for d in c.a["dims"]:
        y = op.reverse(y, axis=_axis(int(d), x.ndim))
    return c.result(y)
