"""Tensor-manipulation ONNX ops: Reshape, Transpose, Concat, Split, Slice, Gather, Squeeze,
Unsqueeze, Expand, Tile, Pad, Shape, Constant, ConstantOfShape, Range, Trilu, ..."""
from __future__ import annotations

from typing import List, Optional

import numpy as np

from ... import expr as E
from ._base import Node, fmt_shape, have_op, register
from ._shape import prod, reshape, squeeze, unsqueeze


# -- constants and shapes -------------------------------------------------------------
@register("Constant", since=1)
def _constant(n: Node):
    from onnx import AttributeProto
    for a in n.proto.attribute:
        if a.name == "value":
            return np.asarray(n.attr("value"))
        if a.name == "value_float":
            return np.array(n.attr("value_float"), dtype=np.float32)
        if a.name == "value_floats":
            return np.array(n.attr("value_floats"), dtype=np.float32)
        if a.name == "value_int":
            return np.array(n.attr("value_int"), dtype=np.int64)
        if a.name == "value_ints":
            return np.array(n.attr("value_ints"), dtype=np.int64)
        raise n.unsupported(f"constant given as '{a.name}' ({AttributeProto.AttributeType.Name(a.type)})")
    raise n.unsupported("Constant without a value")


@register("Shape", since=1)
def _shape(n: Node):
    s = n.shape(0)
    start, end = n.attr("start", 0), n.attr("end", None)
    if s is None:
        raise n.unsupported("the input rank is unknown")
    r = len(s)
    sel = s[slice(start, end)] if end is not None else s[start:]
    if any(d is None for d in sel):
        if have_op("shape_of") and start == 0 and end is None:
            return n.op("shape_of")(n.expr(0), dtype="int64")
        raise n.unsupported(f"shape {fmt_shape(s)} has unknown dims (no shape_of)")
    del r
    return np.array(sel, dtype=np.int64)


@register("Size", since=1)
def _size(n: Node):
    return np.array(prod(n.static_shape(0)), dtype=np.int64)


@register("ConstantOfShape", since=9)
def _constant_of_shape(n: Node):
    if not n.is_const(0) and n.static_out_shape() is not None:
        shape = list(n.static_out_shape())
    else:
        shape = [int(d) for d in n.const(0, "shape")]
    if any(d < 0 for d in shape):
        raise n.invalid(f"negative dim in the shape {shape}")
    v = n.attr("value", None)
    if v is None:
        v = np.zeros((1,), np.float32)
    v = np.asarray(v).reshape(-1)
    if v.size != 1:
        raise n.invalid(f"attribute 'value' must hold one element, it holds {v.size}")
    n.check_materialize(shape, v.dtype, "the result")
    return np.full(shape, v[0], dtype=v.dtype)


@register("Range", since=11)
def _range(n: Node):
    s, l, d = (n.const_scalar(i, "range bound") for i in range(3))
    if not np.isfinite(np.array([s, l, d], np.float64)).all() or d == 0:
        raise n.invalid(f"Range({s}, {l}, {d}) has no finite length")
    count = max(int(np.ceil((float(l) - float(s)) / float(d))), 0)
    n.check_materialize([count], s.dtype, "the result")
    return np.arange(s, l, d).astype(s.dtype)


@register("EyeLike", since=9)
def _eye_like(n: Node):
    shp = n.static_shape(0)
    k = int(n.attr("k", 0))
    dt = n.attr("dtype", None)
    if dt is None:
        dtype = n.dtype(0)
    else:
        from .elementwise import _onnx_dtype
        dtype = _onnx_dtype(n, dt)
    return np.eye(shp[0], shp[1], k=k, dtype=dtype)


# -- reshape family --------------------------------------------------------------------
@register("Reshape", since=5)
def _reshape(n: Node):
    if not n.is_const(1) and n.static_out_shape() is not None:
        n.ignore("allowzero")
        out = list(n.static_out_shape())
        return n.op("reshape")(n.expr(0), out, allowzero=0 in out)
    shape = [int(d) for d in n.const(1, "shape")]
    allowzero = bool(n.attr("allowzero", 0))
    if allowzero and 0 in shape and -1 in shape:
        raise n.unsupported("allowzero=1 with both 0 and -1 in the shape")
    xs = n.shape(0)
    if not allowzero and xs is not None and all(d is not None for d in xs):
        # resolve 0 and -1 statically
        out = [xs[i] if d == 0 else d for i, d in enumerate(shape)]
        if -1 in out:
            known = prod([d for d in out if d != -1]) or 0
            total = prod(xs)
            out[out.index(-1)] = total // known if known else 0
        return n.op("reshape")(n.expr(0), out, allowzero=0 in out)
    return n.op("reshape")(n.expr(0), shape, allowzero=allowzero)


@register("Transpose", since=1)
def _transpose(n: Node):
    perm = n.attr("perm", None)
    if perm is not None:
        r = n.rank(0)
        if sorted(int(p) for p in perm) != list(range(r)):
            raise n.invalid(f"attribute 'perm' {list(perm)} is not a permutation of the {r} axes")
    return n.op("transpose")(n.expr(0), None if perm is None else [int(p) for p in perm])


@register("Concat", since=4)
def _concat(n: Node):
    xs = [n.expr(i) for i in range(len(n)) if n.has(i)]
    axis = int(n.attr("axis"))
    r = n.rank(0)
    return n.op("concatenate")(xs, axis=n.check_axis(axis, r, "attribute 'axis'"))


@register("Squeeze", since=1)
def _squeeze(n: Node):
    s = n.shape(0)
    if s is None:
        raise n.unsupported("the input rank is unknown")
    if n.opset >= 13:
        if n.has(1) and not n.is_const(1) and n.static_out_shape() is not None:
            return reshape(n, n.expr(0), list(n.static_out_shape()), s)
        axes = None if not n.has(1) else [int(a) for a in n.const(1, "axes")]
    else:
        axes = n.attr("axes", None)
    if axes is None:
        if any(d is None for d in s):
            raise n.unsupported(f"squeeze without axes needs a static shape, got {fmt_shape(s)}")
        axes = [i for i, d in enumerate(s) if d == 1]
    return squeeze(n, n.expr(0), s, [int(a) for a in axes])


@register("Unsqueeze", since=1)
def _unsqueeze(n: Node):
    s = n.shape(0)
    if s is None:
        raise n.unsupported("the input rank is unknown")
    if n.opset >= 13 and not n.is_const(1) and n.static_out_shape() is not None:
        return reshape(n, n.expr(0), list(n.static_out_shape()), s)
    axes = [int(a) for a in n.const(1, "axes")] if n.opset >= 13 else [int(a) for a in n.attr("axes")]
    return unsqueeze(n, n.expr(0), s, axes)


@register("Expand", since=8)
def _expand(n: Node):
    if not n.is_const(1) and n.static_out_shape() is not None:
        shape = list(n.static_out_shape())
    else:
        shape = [int(d) for d in n.const(1, "shape")]
    xs = n.shape(0)
    if xs is None or any(d is None for d in xs):
        raise n.unsupported(f"Expand needs a static input shape, got {fmt_shape(xs)}")
    try:
        out = list(np.broadcast_shapes(tuple(xs), tuple(shape)))
    except ValueError:
        raise n.unsupported(f"shapes {list(xs)} and {shape} do not broadcast") from None
    if list(out) == list(xs):
        return n.expr(0)
    if have_op("broadcast_to"):
        return n.op("broadcast_to")(n.expr(0), out)
    dt = n.dtype(0)
    if dt == "bool":
        return n.op("logical_or")(n.expr(0), n.constant(np.zeros(out, bool)))
    return n.op("add")(n.expr(0), n.constant(np.zeros(out, dt)))


@register("Tile", since=6)
def _tile(n: Node):
    xs, out = n.shape(0), n.static_out_shape()
    if not n.is_const(1) and out is not None and xs is not None and all(d for d in xs):
        reps = [o // i for o, i in zip(out, xs)]
    else:
        reps = [int(r) for r in n.const(1, "repeats")]
    return n.op("tile")(n.expr(0), reps)


# -- split / slice -------------------------------------------------------------------
def _slice_static(n: Node, x, xs, starts, ends, axes, steps):
    """Slices with positive steps become one strided_slice (bounds clamped
    statically); negative steps gather the elements with ``take``."""
    r = len(xs)
    if not len(starts) == len(ends) == len(axes) == len(steps):
        raise n.invalid(f"starts, ends, axes and steps have different lengths "
                        f"({len(starts)}, {len(ends)}, {len(axes)}, {len(steps)})")
    begin = [0] * r
    end = [d if d is not None else _BIG for d in xs]
    stride = [1] * r
    reverse = []
    seen = set()
    for s, e, a, st in zip(starts, ends, axes, steps):
        a = n.check_axis(a, r, "slice axes")
        if a in seen:
            raise n.invalid(f"slice axes: axis {a} repeated")
        seen.add(a)
        dim = xs[a]
        if st == 0:
            raise n.unsupported("slice step 0")
        if dim is None:
            if s < 0 or e < 0 or st < 0:
                raise n.unsupported(f"negative slice bounds or steps on the unknown dim {a}")
            begin[a], end[a], stride[a] = int(s), int(min(e, _BIG)), int(st)
            continue
        b2, e2, st2 = slice(int(s), int(e), int(st)).indices(dim)
        if st2 > 0:
            begin[a], end[a], stride[a] = b2, max(e2, b2), st2
        else:
            reverse.append((a, np.arange(b2, e2, st2, dtype=np.int64)))
    if not all(begin[i] == 0 and stride[i] == 1 and xs[i] is not None and end[i] == xs[i]
               for i in range(r)):
        x = n.op("strided_slice")(x, begin, end, strides=stride)
    for a, idx in reverse:
        x = n.op("take")(x, n.constant(idx), axis=a, mode="clip")
    return x


_BIG = 2**31 - 1


@register("Slice", since=1)
def _slice1(n: Node):
    xs = n.shape(0)
    if xs is None:
        raise n.unsupported("the input rank is unknown")
    starts, ends = n.attr("starts"), n.attr("ends")
    axes = n.attr("axes", list(range(len(starts))))
    return _slice_static(n, n.expr(0), xs, starts, ends, axes, [1] * len(starts))


@register("Slice", since=10)
def _slice10(n: Node):
    xs = n.shape(0)
    if xs is None:
        raise n.unsupported("the input rank is unknown")
    starts = n.const_ints(1, "starts")
    ends = n.const_ints(2, "ends")
    axes = n.const_ints(3, "axes") if n.has(3) else list(range(len(starts)))
    steps = n.const_ints(4, "steps") if n.has(4) else [1] * len(starts)
    return _slice_static(n, n.expr(0), xs, starts, ends, axes, steps)


def _split_sizes(n: Node, dim: Optional[int], nout: int) -> List[int]:
    if n.opset >= 13:
        outs = [n.static_out_shape(j) for j in range(len(n.outputs))]
        if n.has(1) and not n.is_const(1) and all(o is not None for o in outs):
            axis = n.axis("axis", len(outs[0]), 0)
            return [o[axis] for o in outs]
        split = [int(v) for v in n.const(1, "split")] if n.has(1) else None
    else:
        split = n.attr("split", None)
    if n.opset >= 18 and split is None:
        num = n.attr("num_outputs", None)
        if num is not None:
            nout = int(num)
            if nout != len(n.outputs):
                raise n.invalid(f"attribute 'num_outputs'={nout} but the node has {len(n.outputs)} outputs")
            if dim is None:
                raise n.unsupported("num_outputs on an unknown dim")
            chunk = -(-dim // nout)
            split = [chunk] * (nout - 1) + [dim - chunk * (nout - 1)]
    if split is None:
        if dim is None:
            raise n.unsupported("even split of an unknown dim")
        if dim % nout:
            raise n.unsupported(f"dim {dim} does not split evenly into {nout}")
        split = [dim // nout] * nout
    return [int(s) for s in split]


@register("Split", since=2)
def _split(n: Node):
    xs = n.shape(0)
    if xs is None:
        raise n.unsupported("the input rank is unknown")
    r = len(xs)
    axis = n.axis("axis", r, 0)
    sizes = _split_sizes(n, xs[axis], len(n.outputs))
    x = n.expr(0)
    outs, off = [], 0
    for sz in sizes:
        if sz == 0 and all(d is not None for d in xs):
            # an empty piece: a constant (slicing an empty range does not lower)
            outs.append(np.zeros([0 if i == axis else d for i, d in enumerate(xs)], n.dtype(0)))
            continue
        begin = [0] * r
        end = [d if d is not None else 2**31 - 1 for d in xs]
        begin[axis], end[axis] = off, off + sz
        outs.append(n.op("strided_slice")(x, begin, end, strides=[1] * r))
        off += sz
    return outs


# -- gather --------------------------------------------------------------------------
@register("Gather", since=1)
def _gather(n: Node):
    xs = n.shape(0)
    if xs is None:
        raise n.unsupported("the input rank is unknown")
    axis = n.axis("axis", len(xs), 0)
    dim = xs[axis]
    if n.is_const(1):
        idx = n.const(1).astype(np.int64)
        if dim is not None:
            if ((idx < -dim) | (idx >= dim)).any():
                raise n.unsupported("index out of range")
            idx = np.where(idx < 0, idx + dim, idx)
        elif (idx < 0).any():
            raise n.unsupported("negative indices into an unknown dim")
        return n.op("take")(n.expr(0), n.constant(idx.astype(np.int64)), axis=axis, mode="clip")
    if dim is not None:
        return n.op("take")(n.expr(0), _normalize_indices(n, 1, dim), axis=axis, mode="clip")
    return n.op("take")(n.expr(0), n.expr(1), axis=axis, mode="wrap")


@register("GatherElements", since=11)
def _gather_elements(n: Node):
    xs = n.shape(0)
    axis = n.axis("axis", n.rank(0), 0)
    return n.op("gather")(n.expr(0), axis, _normalize_indices(n, 1, xs[axis]))


@register("GatherND", since=11)
def _gather_nd(n: Node):
    bd = int(n.attr("batch_dims", 0))
    ir = n.rank(1)
    xs, isz = n.shape(0), n.shape(1)
    k = isz[-1] if isz is not None else None
    if k is None or xs is None or any(d is None for d in xs[bd:bd + k]):
        raise n.unsupported("GatherND needs a static index depth and indexed dims")
    dims = np.array(xs[bd:bd + k], dtype=n.dtype(1))
    if n.is_const(1):
        c = n.const(1)
        idx = n.constant(np.where(c < 0, c + dims, c))
    else:
        x = n.expr(1)
        idx = n.op("where")(n.op("less")(x, n.scalar(0, like=1)), n.op("add")(x, n.constant(dims)), x)
    idx = n.op("transpose")(idx, [ir - 1] + list(range(ir - 1)))
    return n.op("gather_nd")(n.expr(0), idx, batch_dims=bd)


# -- Pad ------------------------------------------------------------------------------
def _pad(n: Node, pads: List[int], value, mode: str, axes: Optional[List[int]] = None):
    xs = n.shape(0)
    if xs is None:
        raise n.unsupported("the input rank is unknown")
    r = len(xs)
    if axes is None:
        axes = list(range(r))
    axes = n.check_axes(axes, r, "pad axes")
    if len(pads) != 2 * len(axes):
        raise n.unsupported(f"pads {pads} do not match {len(axes)} axes")
    width = [[0, 0] for _ in range(r)]
    for k, a in enumerate(axes):
        width[a] = [int(pads[k]), int(pads[len(axes) + k])]
    if any(b < 0 or e < 0 for b, e in width):
        raise n.unsupported("negative pads")
    if mode not in ("constant", "edge", "reflect"):
        raise n.unsupported(f"pad mode {mode!r}")
    if all(b == 0 and e == 0 for b, e in width):
        return n.expr(0)
    pad_value = value if isinstance(value, E.Expr) else n.scalar(value)
    return n.op("nn.pad")(n.expr(0), width, pad_value=pad_value, pad_mode=mode)


@register("Pad", since=2)
def _pad2(n: Node):
    mode = n.attr("mode", "constant")
    return _pad(n, list(n.attr("pads")), float(n.attr("value", 0.0)), mode)


@register("Pad", since=11)
def _pad11(n: Node):
    mode = n.attr("mode", "constant")
    pads = [int(p) for p in n.const(1, "pads")]
    value = 0.0
    if n.has(2) and not n.is_const(2) and mode == "constant":
        # a run-time pad value: a 0-d (or one-element) tensor of the input's type
        value = n.expr(2)
        vs = n.shape(2)
        if vs is None or any(d not in (1, None) for d in vs):
            raise n.unsupported(f"input 2 (constant_value) of shape {fmt_shape(vs)} is not a scalar")
        if len(vs) != 0:
            value = n.op("reshape")(value, [])
        axes = [int(a) for a in n.const(3, "axes")] if n.has(3) else None
        return _pad(n, pads, value, mode, axes)
    if n.has(2) and mode == "constant":
        v = n.const(2, "constant_value").reshape(-1)
        value = v[0].item() if v.size else 0.0
    axes = [int(a) for a in n.const(3, "axes")] if n.has(3) else None
    return _pad(n, pads, float(value), mode, axes)


# -- Trilu / Where-like masks ---------------------------------------------------------
@register("Trilu", since=14)
def _trilu(n: Node):
    xs = n.shape(0)
    if xs is not None and len(xs) < 2:
        raise n.invalid(f"input 0 must have rank 2 or more, got {fmt_shape(xs)}")
    if xs is None or xs[-1] is None or xs[-2] is None:
        raise n.unsupported(f"needs static last two dims, got {fmt_shape(xs)}")
    upper = int(n.attr("upper", 1))
    M, N = xs[-2], xs[-1]
    zero = n.constant(np.zeros((), n.dtype(0)))
    if n.has(1) and not n.is_const(1):
        # run-time k: keep x[i, j] where j - i >= k (upper) or j - i <= k (lower)
        diff = np.arange(N, dtype=np.int64)[None, :] - np.arange(M, dtype=np.int64)[:, None]
        k = n.expr(1)
        if n.dtype(1) != "int64":
            k = n.op("cast")(k, "int64")
        if n.rank(1) != 0:
            k = n.op("reshape")(k, [])
        mask = n.op("greater_equal" if upper else "less_equal")(n.constant(diff), k)
        return n.op("where")(mask, n.expr(0), zero)
    k = int(n.const_scalar(1, "k")) if n.has(1) else 0
    mask = np.triu(np.ones((M, N), bool), k) if upper else np.tril(np.ones((M, N), bool), k)
    return n.op("where")(n.constant(mask), n.expr(0), zero)


@register("OneHot", since=9)
def _one_hot(n: Node):
    vals = n.const(2, "values")
    axis = n.axis("axis", n.rank(0) + 1, -1)
    if not n.is_const(1) and n.static_out_shape() is not None:
        depth = n.static_out_shape()[axis]
    else:
        depth = int(n.const_scalar(1, "depth"))
    idx = n.expr(0)
    # negative indices count from the end
    if n.dtype(0) not in ("int32", "int64"):
        idx = n.op("cast")(idx, "int64")
    dt = "int64" if n.dtype(0) not in ("int32",) else n.dtype(0)
    idx = n.op("where")(n.op("less")(idx, n.scalar(0, dtype=dt)), n.op("add")(idx, n.scalar(depth, dtype=dt)), idx)
    return n.op("one_hot")(idx, n.constant(vals[1]), n.constant(vals[0]), depth, axis, vals.dtype.name)


@register("Einsum", since=12)
def _einsum(n: Node):
    eq = n.attr("equation")
    return n.op("einsum")([n.expr(i) for i in range(len(n))], eq.replace(" ", ""))


_REDUCTIONS = {"none": "update", "add": "add", "mul": "mul", "min": "min", "max": "max"}


def _normalize_indices(n: Node, i: int, dim: Optional[int]):
    if n.is_const(i):
        idx = n.const(i)
        if dim is not None:
            idx = np.where(idx < 0, idx + dim, idx)
        elif (idx < 0).any():
            raise n.unsupported("negative indices into an unknown dim")
        return n.constant(idx)
    if dim is None:
        raise n.unsupported("run-time indices into an unknown dim")
    dt = n.dtype(i)
    x = n.expr(i)
    return n.op("where")(n.op("less")(x, n.scalar(0, dtype=dt)), n.op("add")(x, n.scalar(dim, dtype=dt)), x)


@register("ScatterElements", since=11)
def _scatter_elements(n: Node):
    xs = n.shape(0)
    if xs is None:
        raise n.unsupported("the input rank is unknown")
    axis = n.axis("axis", len(xs), 0)
    red = n.attr("reduction", "none")
    if red not in _REDUCTIONS:
        raise n.unsupported(f"reduction {red!r}")
    idx = _normalize_indices(n, 1, xs[axis])
    return n.op("scatter_elements")(n.expr(0), idx, n.expr(2), axis=axis, reduction=_REDUCTIONS[red])


@register("ScatterND", since=11)
def _scatter_nd(n: Node):
    red = n.attr("reduction", "none")
    if red not in _REDUCTIONS:
        raise n.unsupported(f"reduction {red!r}")
    ir = n.rank(1)
    idx = n.op("transpose")(n.expr(1), [ir - 1] + list(range(ir - 1)))
    return n.op("scatter_nd")(n.expr(0), idx, n.expr(2), mode=_REDUCTIONS[red])
