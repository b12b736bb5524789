"""The debug interpreter's numpy kernels of the Transform ops (``dialect/relay/RelayTransformOps.td``)."""
from __future__ import annotations

import math
from typing import List, Sequence

import numpy as np

from ..errors import RelayRuntimeError
from ._common import _arr, _axis, _f64, _is_float, _same_dtype
from ._layout import layout_transform
from ._registry import _reg
from ._run_time import _run_time_shape, _slice_indices
from .elementwise import _cast
from .reduce import _wide


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


@_reg("layout_transform")
def _layout_transform(args, attrs):
    (x,) = args
    return layout_transform(x, attrs["src_layout"], attrs["dst_layout"])


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


# --- TVM 0.19's masks, diagonals, grids and index maps --------------------------------------------

@_reg("trilu")
def _trilu(args, attrs):
    x, k = args
    rows, cols = x.shape[-2], x.shape[-1]
    diff = np.arange(cols)[None, :] - np.arange(rows)[:, None]
    keep = diff >= int(k) if attrs.get("upper", True) else diff <= int(k)
    return np.where(keep, x, np.zeros((), x.dtype)).astype(x.dtype)


@_reg("sequence_mask")
def _sequence_mask(args, attrs):
    x, length = args
    axis = int(attrs.get("axis", 0))
    t = np.arange(x.shape[axis]).reshape([-1 if d == axis else 1 for d in range(x.ndim)])
    lens = length.astype(np.int64).reshape([-1 if d == 1 - axis else 1 for d in range(x.ndim)])
    mask = np.asarray(attrs.get("mask_value", 0.0)).astype(x.dtype)
    return np.where(t < lens, x, mask).astype(x.dtype)


@_reg("reverse_sequence")
def _reverse_sequence(args, attrs):
    x, lengths = args
    seq = _axis(attrs.get("seq_axis", 1), x.ndim)
    batch = _axis(attrs.get("batch_axis", 0), x.ndim)
    out = x.copy()
    n = x.shape[seq]
    for b, length in enumerate(lengths.astype(np.int64)):
        m = int(min(length, n))
        if m <= 0:
            continue
        src = [slice(None)] * x.ndim
        src[batch] = b
        src[seq] = slice(0, m)
        rev = np.flip(x[tuple(src)], axis=seq - (seq > batch))
        out[tuple(src)] = rev
    return out


@_reg("meshgrid")
def _meshgrid(args, attrs):
    flat = [a.reshape(-1) for a in args]
    return tuple(g.copy() for g in np.meshgrid(*flat, indexing=attrs.get("indexing", "ij")))


@_reg("unravel_index")
def _unravel_index(args, attrs):
    indices, shape = args
    dims = [int(s) for s in shape]
    idx = indices.astype(np.int64)
    out = []
    for r in range(len(dims)):
        stride = int(np.prod(dims[r + 1:], dtype=np.int64))
        out.append(np.floor_divide(idx, stride) % dims[r])  # Relay's floordiv / floormod
    return np.stack(out).astype(indices.dtype)


@_reg("invert_permutation")
def _invert_permutation(args, attrs):
    (p,) = args
    if sorted(p.tolist()) != list(range(p.size)):
        raise RelayRuntimeError(f"invert_permutation: {p.tolist()} is not a permutation of 0..{p.size - 1}")
    out = np.empty_like(p)
    out[p.astype(np.int64)] = np.arange(p.size, dtype=p.dtype)
    return out


def _diag_len(rows: int, cols: int, d: int) -> int:
    return min(rows + min(d, 0), cols - max(d, 0))


@_reg("matrix_set_diag")
def _matrix_set_diag(args, attrs):
    x, diag = args
    k1, k2 = int(attrs.get("k1", 0)), int(attrs.get("k2", 0))
    sup, sub = bool(attrs.get("super_diag_right_align", True)), bool(attrs.get("sub_diag_right_align", False))
    rows, cols = x.shape[-2], x.shape[-1]
    max_len = max(_diag_len(rows, cols, d) for d in range(k1, k2 + 1))
    out = x.copy()
    for d in range(k1, k2 + 1):
        vals = diag if k1 == k2 else diag[..., k2 - d, :]
        right = sup if d >= 0 else sub
        offset = max_len - _diag_len(rows, cols, d) if right else 0
        for p in range(_diag_len(rows, cols, d)):
            i, j = (p, p + d) if d >= 0 else (p - d, p)
            out[..., i, j] = vals[..., p + offset]
    return out


@_reg("collapse_sum_to")
def _collapse_sum_to(args, attrs):
    (x,) = args
    shape = [int(s) for s in attrs["shape"]]
    lead = x.ndim - len(shape)
    axes = list(range(lead)) + [lead + i for i, d in enumerate(shape) if d == 1 and x.shape[lead + i] != 1]
    s = np.sum(_wide(x), axis=tuple(axes), keepdims=True)
    return _arr(s.reshape(shape), x.dtype)


@_reg("contrib_reverse_reshape")
def _reverse_reshape(args, attrs):
    (x,) = args
    shape = _reshape_shape(list(x.shape)[::-1], list(attrs["newshape"])[::-1], False)
    return x.reshape(shape[::-1])


@_reg("sliding_window")
def _sliding_window(args, attrs):
    (x,) = args
    axis = int(attrs["axis"])
    window, strides = list(attrs["window_shape"]), list(attrs["strides"])
    counts = [(x.shape[axis + i] - w) // s + 1 for i, (w, s) in enumerate(zip(window, strides))]
    out = np.empty(list(x.shape[:axis]) + counts + window, dtype=x.dtype)
    for start in np.ndindex(*counts):
        sl = tuple(slice(n * s, n * s + w) for n, s, w in zip(start, strides, window))
        out[(slice(None),) * axis + start] = x[(slice(None),) * axis + sl]
    return out
