"""The debug interpreter's numpy kernels of the Dynamic ops (``dialect/relay/RelayDynamicOps.td``)."""
from __future__ import annotations

import numpy as np

from ..errors import RelayRuntimeError
from ._common import _arr, _axis
from ._registry import _reg
from ._run_time import _check_sizes, _one_value, _run_time_shape, _slice_indices
from .elementwise import _cast
from .index import _argsort, _one_hot
from .transform import _expand_dims


@_reg("shape_of")
def _shape_of(args, attrs):
    return np.array(args[0].shape, dtype=attrs.get("dtype") or "int32")


@_reg("ndarray_size")
def _ndarray_size(args, attrs):
    return np.array(args[0].size, dtype=attrs.get("dtype") or "int32")


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
