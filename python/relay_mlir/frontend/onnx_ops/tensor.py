"""Tensor-manipulation ONNX ops: Reshape, Transpose, Concat, Split, Slice, Gather, Squeeze,
Unsqueeze, Expand, Tile, Pad, Shape, Constant, ConstantOfShape, Range, Trilu, ..."""
from __future__ import annotations

from typing import List, Optional

import numpy as np

from ... import expr as E
from ...op import dyn as D
from ._base import Node, fmt_shape, have_op, register
from ._shape import dims_of, prod, squeeze, unsqueeze
from ._symshape import axes_are_one_of, checked_nonneg, depend, Dim, elems_expr, runtime_check, shape_sym, Sym, sym_of
from .elementwise import _onnx_dtype


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
    # (start/end exist from opset 15; an attribute the schema does not declare is refused)
    start, end = (n.attr("start", 0), n.attr("end", None)) if n.opset >= 15 else (0, None)
    if n.opset < 15 and (n.has_attr("start") or n.has_attr("end")):
        raise n.invalid(f"Shape has no start/end attributes before opset 15 (opset {n.opset})")
    if s is None:
        raise n.unsupported("the input rank is unknown")
    sel = s[slice(start, end)] if end is not None else s[start:]
    if any(d is None for d in sel):
        # computed at run time; the static dims stay known (see _symshape)
        return shape_sym(n, n.expr(0), s, start, end)
    return np.array(sel, dtype=np.int64)


@register("Size", since=1)
def _size(n: Node):
    s = n.shape(0)
    if s is not None and all(d is not None for d in s):
        return np.array(prod(s), dtype=np.int64)
    return n.op("ndarray_size")(n.expr(0), dtype="int64")


def _shape_input(n: Node, i: int, what: str) -> Sym:
    """Input ``i``, a 1-d integer tensor giving a shape (Reshape's, Expand's, ...), as a ``Sym``:
    known entries where the importer knows them, the run-time value for the others."""
    sym = sym_of(n, i)
    if sym is not None:
        if sym.scalar:
            raise n.invalid(f"input {i} ({what}) must be a 1-D integer tensor, got a scalar")
        return sym
    s = n.shape(i)
    dt = n.dtype(i)
    if s is None or len(s) != 1 or s[0] is None:
        raise n.unsupported(f"input {i} ({what}) is only known at run time and its length "
                            f"({fmt_shape(s)}) is not: it decides the rank of the result")
    if np.dtype(dt).kind not in "iu":
        raise n.invalid(f"input {i} ({what}) must be an integer tensor, got {dt}")
    if s[0] > 64:
        raise n.unsupported(f"input {i} ({what}) has {s[0]} entries")
    return Sym(n.expr(i), [None] * s[0], False, dt)


def _sym_expr(n: Node, sym: Sym, elems, dtype: str = "int64"):
    """The run-time 1-d expression of ``elems`` (entries of ``sym`` where None)."""
    return elems_expr(n, elems, dtype, [(sym, j) for j in range(len(elems))])


@register("ConstantOfShape", since=9)
def _constant_of_shape(n: Node):
    v = n.attr("value", None)
    if v is None:
        v = np.zeros((1,), np.float32)
    v = np.asarray(v).reshape(-1)
    if v.size != 1:
        raise n.invalid(f"attribute 'value' must hold one element, it holds {v.size}")
    if not n.is_const(0):
        # a shape computed at run time: dyn.full (entries checked at run time: none
        # negative, at most 2^40 elements)
        sym = _shape_input(n, 0, "shape")
        if any(isinstance(e, int) and e < 0 for e in sym.elems):
            raise n.invalid(f"negative dim in the shape {sym.elems}")
        fill = n.constant(np.array(v[0], dtype=v.dtype))
        return n.op("full")(fill, _sym_expr(n, sym, sym.elems), v.dtype.name)
    shape = [int(d) for d in n.const(0, "shape")]
    if any(d < 0 for d in shape):
        raise n.invalid(f"negative dim in the shape {shape}")
    n.check_materialize(shape, v.dtype, "the result")
    return np.full(shape, v[0], dtype=v.dtype)


@register("Range", since=11)
def _range(n: Node):
    if not all(n.is_const(i) for i in range(3)):
        # bounds known only at run time: arange of length ? (checked at run time: the step is
        # not 0 and the length at most 2^40)
        dt = n.dtype(0)
        if dt in ("float16", "bfloat16"):
            # the length is computed on the host, and IREE's VM has no 16-bit float arithmetic
            raise n.unsupported(f"Range with {dt} bounds known only at run time")
        bounds = []
        for i in range(3):
            if n.is_const(i):
                bounds.append(n.constant(n.const_scalar(i, "range bound").astype(dt)))
                continue
            sh = n.shape(i)
            if sh is None or any(d not in (1, None) for d in sh) or len(sh) > 1:
                raise n.invalid(f"input {i} (a range bound) must be a scalar, got shape {fmt_shape(sh)}")
            if n.dtype(i) != dt:
                raise n.invalid(f"range bounds have different element types ({dt}, {n.dtype(i)})")
            e = n.expr(i)
            bounds.append(e if len(sh) == 0 else n.op("reshape")(e, []))
        if n.is_const(2) and float(n.const_scalar(2)) == 0:
            raise n.invalid("Range with delta 0 has no finite length")
        return n.op("arange")(bounds[0], bounds[1], bounds[2], dtype=dt)
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
        dtype = _onnx_dtype(n, dt)
    return np.eye(shp[0], shp[1], k=k, dtype=dtype)


# -- reshape family --------------------------------------------------------------------
def _reshape_runtime(n: Node):
    """Reshape to a shape computed at run time: Relay's static codes where every entry is known
    or is the same dim of the input at the same position (0 = copy), else dyn.reshape on the
    run-time value (element count checked at run time)."""
    sym = _shape_input(n, 1, "shape")
    allowzero = bool(n.attr("allowzero", 0))
    x = n.expr(0)
    xs = n.shape(0)
    elems = list(sym.elems)
    if sum(1 for e in elems if isinstance(e, int) and e == -1) > 1 or any(
            isinstance(e, int) and e < -1 for e in elems):
        raise n.invalid(f"shape {elems} has more than one -1 or a negative entry")
    codes = []
    literal_zero = allowzero and any(isinstance(e, int) and e == 0 for e in elems)
    for i, e in enumerate(elems):
        if isinstance(e, int):
            codes.append(e)
        elif isinstance(e, Dim) and e.of is x and e.axis == i and not literal_zero:
            codes.append(0)
        elif isinstance(e, Dim) and xs is not None and e.of is x and xs[e.axis] is not None:
            codes.append(xs[e.axis])  # pragma: no cover - static dims are ints already
        else:
            codes = None
            break
    if codes is not None:
        return n.op("reshape")(x, codes, allowzero=literal_zero)
    return n.op("reshape")(x, _sym_expr(n, sym, elems), allowzero=allowzero)


@register("Reshape", since=5)
def _reshape(n: Node):
    if not n.is_const(1):
        return _reshape_runtime(n)
    shape = n.const_ints(1, "shape")
    allowzero = bool(n.attr("allowzero", 0))
    if allowzero and 0 in shape and -1 in shape:
        raise n.unsupported("allowzero=1 with both 0 and -1 in the shape")
    xs = n.shape(0)
    if not allowzero and xs is not None and all(d is not None for d in xs):
        # resolve 0 and -1 statically
        zeros = [i for i, d in enumerate(shape) if d == 0]
        if zeros and zeros[-1] >= len(xs):
            raise n.invalid(f"shape entry {zeros[-1]} is 0 (copy the input dim) but the input "
                            f"{fmt_shape(xs)} has rank {len(xs)}")
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
        if n.has(1) and not n.is_const(1):
            return _squeeze_unsqueeze_runtime(n, s, squeeze=True)
        axes = None if not n.has(1) else n.const_ints(1, "axes")
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
    if n.opset >= 13 and not n.is_const(1):
        return _squeeze_unsqueeze_runtime(n, s, squeeze=False)
    axes = [int(a) for a in n.const(1, "axes")] if n.opset >= 13 else [int(a) for a in n.attr("axes")]
    return unsqueeze(n, n.expr(0), s, axes)


def _squeeze_unsqueeze_runtime(n: Node, s, squeeze: bool):
    """Axes known only at run time (they decide the result's rank): the output shape the model
    declares (or ONNX infers) gives the result, and the axes are checked at run time to be ones
    that give that shape (a clear run-time error otherwise, never a silently different shape)."""
    import itertools
    out = n.out_shape(0)
    ls = n.shape(1)
    if out is None or ls is None or len(ls) != 1 or ls[0] is None:
        raise n.unsupported("input 1 (axes) is only known at run time and the output rank is unknown")
    k = int(ls[0])
    big, small = (s, out) if squeeze else (out, s)
    if len(big) - len(small) != k:
        raise n.invalid(f"{k} axes, but the shapes {fmt_shape(s)} and {fmt_shape(out)} differ in rank by "
                        f"{abs(len(big) - len(small))}")
    cands = []
    for c in itertools.combinations(range(len(big)), k):
        rest = [d for j, d in enumerate(big) if j not in c]
        if all(big[j] in (1, None) for j in c) and len(rest) == len(small) and all(
                a is None or b is None or a == b for a, b in zip(rest, small)):
            cands.append(c)
    if not cands or len(cands) > 64:
        raise n.unsupported("input 1 (axes) is only known at run time and the declared shapes do not "
                            "determine the result")
    c = cands[0]
    x = n.op("squeeze")(n.expr(0), list(c)) if squeeze else n.expr(0)
    if not squeeze:
        for a in c:
            x = n.op("expand_dims")(x, a, 1)
    if len(cands) > 1 and any(None in [big[j] for j in cc] for cc in cands):
        raise n.unsupported("input 1 (axes) is only known at run time and several axes fit the shapes")
    return depend(n, x, axes_are_one_of(n, 1, len(big), cands))


def _expand_runtime(n: Node):
    """Expand to a shape computed at run time: per entry (ONNX broadcasting both ways) the
    target is the entry, or the data dim where the entry is 1; unknown entries are resolved at
    run time and dyn.broadcast_to checks that every data dim is 1 or the target."""
    sym = _shape_input(n, 1, "shape")
    xs = n.shape(0)
    if xs is None:
        raise n.unsupported("the input rank is unknown")
    x = n.expr(0)
    k, r = len(sym.elems), len(xs)
    rank = max(k, r)
    target, srcs = [], []
    for i in range(rank):
        e = sym.elems[i - (rank - k)] if i >= rank - k else 1
        j = i - (rank - r)
        d = xs[j] if j >= 0 else 1
        dim = (d if d is not None else Dim(x, j)) if j >= 0 else 1
        src = (sym, i - (rank - k)) if i >= rank - k else None
        if isinstance(e, int):
            if e < 0:
                raise n.invalid(f"negative entry {e} in the shape")
            if e == 1 or e == d:
                target.append(dim)
            elif d is None or d == 1:
                target.append(e)
            else:
                raise n.invalid(f"shape entry {e} does not broadcast with the input dim {d}")
        elif e == dim or d == 1:
            target.append(e)
        elif isinstance(d, int):
            target.append(("where1", src, d))
        else:
            target.append(("where1", src, dim))
        srcs.append(src)
    if all(not isinstance(t, tuple) for t in target) and rank == r and all(
            t == (xs[i] if xs[i] is not None else Dim(x, i)) for i, t in enumerate(target)):
        return x
    # the target as a run-time expression; a ("where1", src, d) entry is d where the
    # requested entry is 1, else the entry
    pieces_elems = [None if isinstance(t, tuple) else t for t in target]
    base = elems_expr(n, pieces_elems, "int64", srcs)
    if any(isinstance(t, tuple) for t in target):
        req = elems_expr(n, [None if s is not None else 1 for s in srcs], "int64", srcs)
        alt = elems_expr(n, [t[2] if isinstance(t, tuple) else 0 for t in target], "int64")
        mask = np.array([isinstance(t, tuple) for t in target])
        use_alt = n.op("logical_and")(n.constant(mask), n.op("equal")(req, n.constant(np.array(1, np.int64))))
        base = n.op("where")(use_alt, alt, base)
        # (the other masked entries of base are the requested entries themselves)
    return n.op("broadcast_to")(x, base)


@register("Expand", since=8)
def _expand(n: Node):
    if not n.is_const(1):
        return _expand_runtime(n)
    shape = [int(d) for d in n.const(1, "shape")]
    xs = n.shape(0)
    if xs is None:
        raise n.unsupported("the input rank is unknown")
    if any(d is None for d in xs):
        # input dims known only at run time: broadcast per entry as for a run-time shape
        return _expand_runtime(n)
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
    if not n.is_const(1):
        return _tile_runtime(n)
    reps = [int(r) for r in n.const(1, "repeats")]
    return n.op("tile")(n.expr(0), reps)


def _tile_runtime(n: Node):
    """Tile by repeats computed at run time: ``dyn.tile`` (negative repeats and more than
    2^40 elements are run-time errors)."""
    sym = _shape_input(n, 1, "repeats")
    xs = n.shape(0)
    if xs is None:
        raise n.unsupported("the input rank is unknown")
    x = n.expr(0)
    r = len(xs)
    if len(sym.elems) != r:
        raise n.invalid(f"repeats has {len(sym.elems)} entries, the input has rank {r}")
    if any(isinstance(e, int) and e < 0 for e in sym.elems):
        raise n.invalid(f"negative repeats {sym.elems}")
    reps = elems_expr(n, sym.elems, "int64", [(sym, i) for i in range(r)])
    return D.tile(x, reps)


# -- split / slice -------------------------------------------------------------------
def _slice_static(n: Node, x, xs, starts, ends, axes, steps):
    """Slices with positive steps become one strided_slice (bounds clamped
    statically); negative steps gather the elements with ``take``."""
    r = len(xs)
    src = x
    if not len(starts) == len(ends) == len(axes) == len(steps):
        raise n.invalid(f"starts, ends, axes and steps have different lengths "
                        f"({len(starts)}, {len(ends)}, {len(axes)}, {len(steps)})")
    begin = [0] * r
    end = [d if d is not None else _BIG for d in xs]
    stride = [1] * r
    reverse = []
    runtime = []
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
                # counted from the end of a dim known at run time: ONNX's clamping computed
                # in the program, a gather at arange(start, end, step)
                runtime.append((a, int(s), int(e), int(st)))
                continue
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
    i64 = lambda v: n.constant(np.array(v, np.int64))  # noqa: E731
    for a, s, e, st in runtime:
        # (dim a of the input: the slicing before did not change it)
        x = D.slice_axis(x, a, D.dim(src, xs, a), i64(s), i64(e), i64(st))
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


def _slice_runtime(n: Node, xs):
    """starts/ends/steps known only at run time (axes must be constant: they decide which dims
    change): per axis, ONNX's clamping computed at run time and ``take`` at
    ``arange(start, end, step)`` (a step of 0 is a run-time error)."""
    r = len(xs)
    x = n.expr(0)
    lens = [n.shape(i) for i in (1, 2)]
    if any(ls is None or len(ls) != 1 or ls[0] is None for ls in lens):
        raise n.unsupported("starts/ends known only at run time must have a known length")
    k = int(lens[0][0])
    if int(lens[1][0]) != k:
        raise n.invalid("starts and ends have different lengths")
    i64 = lambda v: n.constant(np.array(v, np.int64))  # noqa: E731

    def vec(i, default):
        if not n.has(i):
            return i64([default] * k)
        v = n.expr(i)
        return v if n.dtype(i) == "int64" else n.op("cast")(v, "int64")
    starts, ends, steps = vec(1, 0), vec(2, 0), vec(4, 1)
    if n.has(3) and not n.is_const(3):
        # axes known only at run time: every dim is sliced, by the entry whose axis is its own
        # (or whole); an axis given twice is a run-time error
        ax = vec(3, 0)
        ax = n.op("where")(n.op("less")(ax, i64(0)), n.op("add")(ax, i64(r)), ax)
        plan = []
        check = None
        for a in range(r):
            m = n.op("equal")(ax, i64(a))
            hits = n.op("sum")(n.op("cast")(m, "int64"), axis=[0])
            ok = n.op("less_equal")(hits, i64(1))
            check = ok if check is None else n.op("logical_and")(check, ok)
            has = n.op("greater")(hits, i64(0))

            def pick(v, default, m=m, has=has):
                return n.op("where")(has, n.op("sum")(n.op("where")(m, v, i64(0)), axis=[0]), i64(default))
            plan.append((a, pick(starts, 0), pick(ends, _BIG), pick(steps, 1)))
        zero = runtime_check(n, check)
        plan = [(a, n.op("add")(st, zero), en, sp) for a, st, en, sp in plan]
    else:
        axes = n.const_ints(3, "axes") if n.has(3) else list(range(k))
        if len(axes) != k:
            raise n.invalid("starts, ends and axes have different lengths")
        axes = n.check_axes(axes, r, "slice axes")

        def entry(v, j):
            return n.op("reshape")(n.op("take")(v, i64([j]), axis=0), [])
        plan = [(a, entry(starts, j), entry(ends, j), entry(steps, j)) for j, a in enumerate(axes)]
    dims = dims_of(x, xs)
    y = x
    for a, st, en, sp in plan:
        d = elems_expr(n, [dims[a]], "int64")
        d = n.op("reshape")(d, [])
        y = D.slice_axis(y, a, d, st, en, sp)
    return y


@register("Slice", since=10)
def _slice10(n: Node):
    xs = n.shape(0)
    if xs is None:
        raise n.unsupported("the input rank is unknown")
    if any(n.has(i) and not n.is_const(i) for i in (1, 2, 4)):
        return _slice_runtime(n, xs)
    starts = n.const_ints(1, "starts")
    ends = n.const_ints(2, "ends")
    axes = n.const_ints(3, "axes") if n.has(3) else list(range(len(starts)))
    steps = n.const_ints(4, "steps") if n.has(4) else [1] * len(starts)
    return _slice_static(n, n.expr(0), xs, starts, ends, axes, steps)


def _split_sizes(n: Node, dim: Optional[int], nout: int) -> List[int]:
    if n.opset >= 13:
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


def _split_runtime(n: Node, xs, axis: int):
    """Split sizes known only at run time: piece k is ``take(x, arange(off_k, off_k + s_k))``
    along the axis; x is first passed through two dyn.reshapes that check at run time that the
    sizes sum to the dim and that their absolute values do too (so none is negative)."""
    sym = _shape_input(n, 1, "split")
    k = len(sym.elems)
    if k != len(n.outputs):
        raise n.invalid(f"input 1 (split) has {k} entries, the node has {len(n.outputs)} outputs")
    x = n.expr(0)
    r = len(xs)
    sizes = _sym_expr(n, sym, sym.elems)
    i64 = lambda v: n.constant(np.array(v, np.int64))  # noqa: E731
    dims = [xs[i] if xs[i] is not None else Dim(x, i) for i in range(r)]
    checked = x
    for total in (n.op("sum")(sizes, axis=[0], keepdims=True),
                  n.op("sum")(n.op("abs")(sizes), axis=[0], keepdims=True)):
        parts = []
        if axis > 0:
            parts.append(elems_expr(n, dims[:axis], "int64"))
        parts.append(total)
        if axis < r - 1:
            parts.append(elems_expr(n, dims[axis + 1:], "int64"))
        target = parts[0] if len(parts) == 1 else n.op("concatenate")(parts, axis=0)
        checked = n.op("reshape")(checked, target)
    ends = n.op("cumsum")(sizes, axis=0)
    outs = []
    for j in range(k):
        end = n.op("reshape")(n.op("take")(ends, i64([j]), axis=0), [])
        size = n.op("reshape")(n.op("take")(sizes, i64([j]), axis=0), [])
        idx = n.op("arange")(n.op("subtract")(end, size), end, i64(1), dtype="int64")
        outs.append(n.op("take")(checked, idx, axis=axis, mode="clip"))
    return outs


@register("Split", since=2)
def _split(n: Node):
    xs = n.shape(0)
    if xs is None:
        raise n.unsupported("the input rank is unknown")
    r = len(xs)
    axis = n.axis("axis", r, 0)
    if n.opset >= 13 and n.has(1) and not n.is_const(1):
        return _split_runtime(n, xs, axis)
    sizes = _split_sizes(n, xs[axis], len(n.outputs))
    x = n.expr(0)
    outs, off = [], 0
    for sz in sizes:
        if sz == 0 and all(d is not None for d in xs):
            # an empty piece: a constant (slicing an empty range does not lower)
            shape = [0 if i == axis else d for i, d in enumerate(xs)]
            n.check_materialize(shape, n.dtype(0), f"an empty piece of shape {shape}")
            outs.append(np.zeros(shape, n.dtype(0)))
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
        else:
            return n.op("take")(n.expr(0), _const_indices_runtime(n, idx, n.expr(0), xs, axis),
                                axis=axis, mode="clip")
        return n.op("take")(n.expr(0), n.constant(idx.astype(np.int64)), axis=axis, mode="clip")
    # run-time indices: negative ones normalized; one out of [-dim, dim) is a run-time error
    # (onnxruntime's; a clamped or wrapped index would be a silently wrong result), checked by
    # take's mode "fast" after the program's work, not with a wait for the device before it
    return n.op("take")(n.expr(0), _normalized_runtime(n, 1, n.expr(0), xs, axis), axis=axis,
                        mode="fast")


def _const_indices_runtime(n: Node, idx: np.ndarray, x, xs, axis: int):
    """Constant indices (negative ones counting from the end) into the dim ``axis`` of ``x``,
    unknown at import time: normalized at run time, with a run-time check that every index
    is in ``[-dim, dim)`` (onnxruntime's error, never a clamped or wrapped index)."""
    idx = idx.astype(np.int64)
    if idx.size == 0:
        return n.constant(idx)
    d = D.dim(x, xs, axis)
    i64 = lambda v: n.constant(np.array(v, np.int64))  # noqa: E731
    lo, hi = int(idx.min()), int(idx.max())
    ok = n.op("less")(i64(hi), d)
    if lo < 0:
        ok = n.op("logical_and")(ok, n.op("greater_equal")(i64(lo), n.op("negative")(d)))
    zero = runtime_check(n, ok)
    if lo < 0:
        norm = n.op("where")(n.constant(idx < 0), n.op("add")(n.constant(idx), d), n.constant(idx))
    else:
        norm = n.constant(idx)
    return n.op("add")(norm, zero)


def _normalized_runtime(n: Node, i: int, x, xs, axis: int):
    """Run-time indices (input ``i``, negative ones counting from the end) into the dim ``axis``
    of ``x`` (its size known at import time or not), made non-negative at run time; those out
    of ``[-dim, dim)`` stay out of ``[0, dim)``."""
    dt = n.dtype(i)
    idx = n.expr(i)
    if xs[axis] is not None:
        d = n.scalar(xs[axis], dtype=dt)
    else:
        d = D.dim(x, xs, axis)
        if dt != "int64":
            d = n.op("cast")(d, dt)
    return n.op("where")(n.op("less")(idx, n.scalar(0, dtype=dt)), n.op("add")(idx, d), idx)


@register("GatherElements", since=11)
def _gather_elements(n: Node):
    xs = n.shape(0)
    axis = n.axis("axis", n.rank(0), 0)
    # relay.gather takes negative indices from the end, as ONNX, and one out of [-dim, dim) is
    # its run-time error (onnxruntime's too): the indices go in as they are
    x, idx = n.expr(0), n.expr(1)
    if xs[axis] is not None:
        return n.op("gather")(x, axis, idx)
    # a gathered dim known only at run time: (as onnxruntime checks) the other dims of the
    # indices at most the data's
    return n.op("gather")(x, axis, _indices_within(n, idx, n.shape(1), x, xs, axis))


def _indices_within(n: Node, idx, isz, x, xs, axis: int):
    """``idx`` made to depend on a run-time check that its dims other than ``axis`` are at most
    ``x``'s (GatherElements: onnxruntime refuses larger ones)."""
    if isz is None:
        raise n.unsupported("the rank of input 1 (indices) is unknown")
    if len(isz) != len(xs):
        raise n.invalid(f"indices of shape {fmt_shape(isz)} for data of shape {fmt_shape(xs)}: "
                        "the ranks must be equal")
    ok = None
    for a in range(len(xs)):
        if a == axis or (isz[a] is not None and xs[a] is not None):
            if a != axis and isz[a] > xs[a]:
                raise n.invalid(f"indices dim {a} ({isz[a]}) is larger than the data's ({xs[a]})")
            continue
        c = n.op("less_equal")(D.dim(idx, isz, a), D.dim(x, xs, a))
        ok = c if ok is None else n.op("logical_and")(ok, c)
    if ok is None:
        return idx
    return depend(n, idx, runtime_check(n, ok))


@register("GatherND", since=11)
def _gather_nd(n: Node):
    bd = int(n.attr("batch_dims", 0))
    ir = n.rank(1)
    xs, isz = n.shape(0), n.shape(1)
    k = isz[-1] if isz is not None else None
    if k is None or xs is None:
        raise n.unsupported("GatherND needs a static index depth and data rank")
    # relay.gather_nd takes negative indices from the end, as ONNX, and one out of
    # [-dim, dim) is its run-time error (onnxruntime's too): the indices go in as they are
    idx = n.op("transpose")(n.expr(1), [ir - 1] + list(range(ir - 1)))
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


def _pad_runtime(n: Node, mode: str):
    """pads known only at run time (axes constant): per padded dim, the output index i reads
    input index i - before, wrapped by the mode (constant: out of range gives the pad value;
    edge: clamped; reflect: mirrored; wrap: modulo), gathered with ``take``; a negative output
    size is a run-time error."""
    xs = n.shape(0)
    if xs is None:
        raise n.unsupported("the input rank is unknown")
    r = len(xs)
    if mode not in ("constant", "edge", "reflect", "wrap"):
        raise n.unsupported(f"pad mode {mode!r}")
    runtime_axes = n.has(3) and not n.is_const(3)
    if runtime_axes:
        if r == 0:
            raise n.invalid("input 0 is a scalar: there is no axis to pad")
        als = n.shape(3)
        if als is None or len(als) != 1 or als[0] is None:
            raise n.unsupported("input 3 (axes) is only known at run time and its length is unknown")
        k = int(als[0])
    else:
        axes = n.check_axes([int(a) for a in n.const(3, "axes")], r, "pad axes") if n.has(3) else list(range(r))
        k = len(axes)
    ps = n.shape(1)
    if ps is None or len(ps) != 1 or (ps[0] is not None and ps[0] != 2 * k):
        raise n.invalid(f"input 1 (pads) of shape {fmt_shape(ps)} does not match {k} axes")
    pads = n.expr(1)
    if n.dtype(1) != "int64":
        pads = n.op("cast")(pads, "int64")
    i64 = lambda v: n.constant(np.array(v, np.int64))  # noqa: E731
    if runtime_axes:
        # every dim is padded by the entry whose axis is its own (or not at all); an axis given
        # twice is a run-time error
        ax = n.expr(3)
        if n.dtype(3) != "int64":
            ax = n.op("cast")(ax, "int64")
        ax = n.op("where")(n.op("less")(ax, i64(0)), n.op("add")(ax, i64(r)), ax)
        firsts = n.op("take")(pads, i64(list(range(k))), axis=0)
        lasts = n.op("take")(pads, i64(list(range(k, 2 * k))), axis=0)
        bs, es, check = [], [], None
        for a in range(r):
            m = n.op("equal")(ax, i64(a))
            hits = n.op("sum")(n.op("cast")(m, "int64"), axis=[0])
            ok = n.op("less_equal")(hits, i64(1))
            check = ok if check is None else n.op("logical_and")(check, ok)
            bs.append(n.op("sum")(n.op("where")(m, firsts, i64(0)), axis=[0], keepdims=True))
            es.append(n.op("sum")(n.op("where")(m, lasts, i64(0)), axis=[0], keepdims=True))
        pads = n.op("concatenate")(bs + es, axis=0)
        pads = n.op("add")(pads, runtime_check(n, check))
        axes, k = list(range(r)), r
    value = None
    if mode == "constant":
        if n.has(2):
            vs = n.shape(2)
            if vs is None or any(d not in (1, None) for d in vs):
                raise n.unsupported(f"input 2 (constant_value) of shape {fmt_shape(vs)} is not a scalar")
            value = n.expr(2)
            if len(vs) != 0:
                value = n.op("reshape")(value, [])
        else:
            value = n.scalar(0)
    before, after = [None] * r, [None] * r
    for j, a in enumerate(axes):
        before[a], after[a] = D.entry(pads, j), D.entry(pads, k + j)
    return D.pad_axes(n.expr(0), xs, before, after, value, mode)


@register("Pad", since=11)
def _pad11(n: Node):
    mode = n.attr("mode", "constant")
    if not n.is_const(1):
        return _pad_runtime(n, mode)
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
    if xs is None:
        raise n.unsupported("the input rank is unknown")
    upper = int(n.attr("upper", 1))
    if xs[-1] is None or xs[-2] is None:
        return _trilu_runtime(n, xs, upper)
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


def _trilu_runtime(n: Node, xs, upper: int):
    """Trilu of matrices with run-time sizes: keep x[..., i, j] where j - i >= k (upper) or
    j - i <= k (lower), the (M, N) difference computed from run-time ``arange``s."""
    x = n.expr(0)
    r = len(xs)
    i64 = lambda v: n.constant(np.array(v, np.int64))  # noqa: E731
    rows = n.op("arange")(i64(0), D.dim(x, xs, r - 2), i64(1), dtype="int64")
    cols = n.op("arange")(i64(0), D.dim(x, xs, r - 1), i64(1), dtype="int64")
    diff = n.op("subtract")(n.op("expand_dims")(cols, 0), n.op("expand_dims")(rows, 1))
    if n.has(1):
        if n.is_const(1):
            k = i64(int(n.const_scalar(1, "k")))
        else:
            k = n.expr(1)
            if n.dtype(1) != "int64":
                k = n.op("cast")(k, "int64")
            if n.rank(1) != 0:
                k = n.op("reshape")(k, [])
    else:
        k = i64(0)
    mask = n.op("greater_equal" if upper else "less_equal")(diff, k)
    return n.op("where")(mask, x, n.constant(np.zeros((), n.dtype(0))))


@register("OneHot", since=9)
def _one_hot(n: Node):
    axis = n.axis("axis", n.rank(0) + 1, -1)
    if not n.is_const(1) or not n.is_const(2):
        return _one_hot_runtime(n, axis)
    vals = n.const(2, "values")
    depth = int(n.const_scalar(1, "depth"))
    idx = n.expr(0)
    # negative indices count from the end
    if n.dtype(0) not in ("int32", "int64"):
        idx = n.op("cast")(idx, "int64")
    dt = "int64" if n.dtype(0) not in ("int32",) else n.dtype(0)
    idx = n.op("where")(n.op("less")(idx, n.scalar(0, dtype=dt)), n.op("add")(idx, n.scalar(depth, dtype=dt)), idx)
    return n.op("one_hot")(idx, n.constant(vals[1]), n.constant(vals[0]), depth, axis, vals.dtype.name)


def _one_hot_runtime(n: Node, axis: int):
    """A depth (or values) known only at run time: ``indices == arange(depth)`` along the new
    axis (negative indices count from the end); the depth is checked at run time to be at
    least 1."""
    vs = n.shape(2)
    if vs is None or len(vs) != 1 or vs[0] not in (2, None):
        raise n.invalid(f"input 2 (values) must be a 1-D tensor of 2 elements, got {fmt_shape(vs)}")
    if n.is_const(2):
        v = n.const(2)
        if v.size != 2:
            raise n.invalid(f"input 2 (values) must hold 2 elements, got {v.size}")
        off, on = n.constant(v.reshape(-1)[0]), n.constant(v.reshape(-1)[1])
    else:
        vals = n.expr(2)
        off, on = (n.op("reshape")(n.op("take")(vals, n.constant(np.array([j], np.int64)), axis=0), [])
                   for j in (0, 1))
    ds = n.shape(1)
    if ds is None or len(ds) > 1 or any(d not in (1, None) for d in ds):
        raise n.invalid(f"input 1 (depth) must hold one element, got shape {fmt_shape(ds)}")
    depth = n.expr(1)
    if n.dtype(1) != "int64":
        if np.dtype(n.dtype(1)).kind == "f":
            depth = n.op("floor")(depth)  # (ONNX: a float depth is truncated)
        depth = n.op("cast")(depth, "int64")
    depth = n.op("reshape")(depth, [1])
    one = n.constant(np.array([1], np.int64))
    # depth >= 1, and the result (indices x depth) at most 2^40 elements, checked at run time
    idims = dims_of(n.expr(0), n.shape(0))
    req = n.op("concatenate")([elems_expr(n, idims, "int64"), n.op("subtract")(depth, one)], axis=0) \
        if idims else n.op("subtract")(depth, one)
    req = checked_nonneg(n, req)
    depth = n.op("add")(n.op("take")(req, n.constant(np.array([len(idims)], np.int64)), axis=0), one)
    depth = n.op("reshape")(depth, [])
    idx = n.expr(0)
    if n.dtype(0) != "int64":
        idx = n.op("cast")(idx, "int64")
    zero = n.constant(np.array(0, np.int64))
    idx = n.op("where")(n.op("less")(idx, zero), n.op("add")(idx, depth), idx)
    return D.one_hot_axis(idx, n.rank(0), on, off, depth, axis)


@register("Einsum", since=12)
def _einsum(n: Node):
    eq = n.attr("equation")
    return n.op("einsum")([n.expr(i) for i in range(len(n))], eq.replace(" ", ""))


_REDUCTIONS = {"none": "update", "add": "add", "mul": "mul", "min": "min", "max": "max"}


@register("ScatterElements", since=11)
def _scatter_elements(n: Node):
    xs = n.shape(0)
    if xs is None:
        raise n.unsupported("the input rank is unknown")
    axis = n.axis("axis", len(xs), 0)
    red = n.attr("reduction", "none")
    if red not in _REDUCTIONS:
        raise n.unsupported(f"reduction {red!r}")
    # relay.scatter_elements takes negative indices from the end, as ONNX, and one out of
    # [-dim, dim) is its run-time error (onnxruntime's too): the indices go in as they are
    return n.op("scatter_elements")(n.expr(0), n.expr(1), n.expr(2), axis=axis,
                                    reduction=_REDUCTIONS[red])


@register("ScatterND", since=11)
def _scatter_nd(n: Node):
    red = n.attr("reduction", "none")
    if red not in _REDUCTIONS:
        raise n.unsupported(f"reduction {red!r}")
    ir = n.rank(1)
    idx = n.op("transpose")(n.expr(1), [ir - 1] + list(range(ir - 1)))
    return n.op("scatter_nd")(n.expr(0), idx, n.expr(2), mode=_REDUCTIONS[red])


# -- data-dependent output sizes ---------------------------------------------------------
@register("NonZero", since=9)
def _nonzero(n: Node):
    """(rank, ?) int64 coordinates of the non-zero elements: ``argwhere`` transposed."""
    xs = n.shape(0)
    if xs is None or len(xs) == 0:
        raise n.unsupported(f"NonZero of an input of shape {fmt_shape(xs)}")
    w = D.argwhere(n.expr(0), xs, n.dtype(0))
    return n.op("transpose")(n.op("cast")(w, "int64"), [1, 0])


@register("Compress", since=9)
def _compress(n: Node):
    """The slices along ``axis`` (or the elements of the flattened input) whose entry in the
    1-d ``condition`` is true: ``take`` at the condition's ``argwhere``, a run-time count. A
    condition shorter than the axis drops the rest; entries past the axis are ignored, as
    onnxruntime does."""
    xs, cs = n.shape(0), n.shape(1)
    if xs is None or cs is None or len(cs) != 1:
        raise n.unsupported(f"Compress of an input of shape {fmt_shape(xs)} by a condition of "
                            f"shape {fmt_shape(cs)} (a 1-d condition is needed)")
    x, c = n.expr(0), n.expr(1)
    if n.has_attr("axis"):
        a = n.check_axis(n.attr("axis"), len(xs), "axis")
    else:
        x, a = n.op("reshape")(x, [-1]), 0
        xs = (prod(xs),)
    if n.dtype(1) != "bool":
        c = n.op("not_equal")(c, n.constant(np.array(0, n.dtype(1))))
    if cs[0] is None or xs[a] is None or cs[0] > xs[a]:  # entries past the axis: false
        pos = n.op("arange")(n.constant(np.array(0, np.int64)), D.dim(c, cs, 0),
                             n.constant(np.array(1, np.int64)), dtype="int64")
        c = n.op("logical_and")(c, n.op("less")(pos, D.dim(x, xs, a)))
    idx = n.op("reshape")(n.op("cast")(D.argwhere(c, cs, "bool"), "int64"), [-1])
    return n.op("take")(x, idx, axis=a, mode="fast")


@register("Unique", since=11)
def _unique(n: Node):
    """Unique of the flattened input (``relay.unique``), or of the slices along ``axis``
    (``op.dyn.unique_rows``), its padded results cut to the run-time number of unique values;
    ``sorted=0`` orders by first occurrence."""
    xs = n.shape(0)
    if xs is None:
        raise n.unsupported("the input rank is unknown")
    x = n.expr(0)
    zero, one = n.constant(np.array(0, np.int64)), n.constant(np.array(1, np.int64))
    if n.has_attr("axis") and len(xs) > 1:
        # unique slices along the axis: rows of [dim, rest] compared entry by entry
        a = n.check_axis(n.attr("axis"), len(xs), "axis")
        rest = prod(xs[:a] + xs[a + 1:])
        if rest is None:
            raise n.unsupported("Unique along an axis needs the other dims static")
        rows = n.op("reshape")(n.op("transpose")(x, [a] + [i for i in range(len(xs)) if i != a]), [-1, rest])
        idx, inv, num, counts = D.unique_rows(rows, rest, bool(n.attr("sorted", 1)))
        first = n.op("arange")(zero, num, one, dtype="int64")
        idx, counts = (n.op("take")(v, first, axis=0, mode="clip") for v in (idx, counts))
        return [n.op("take")(x, idx, axis=a, mode="clip"), idx, inv, counts]
    total = prod(xs)
    flat = x if len(xs) == 1 else n.op("reshape")(x, [-1])
    out, idx, inv, num, counts = D.unique(flat, bool(n.attr("sorted", 1)), True, shape=(total,))
    num = n.op("cast")(n.op("reshape")(num, []), "int64")
    first = n.op("arange")(zero, num, one, dtype="int64")

    def cut(v, dt=None):
        v = n.op("take")(v, first, axis=0, mode="clip")
        return v if dt is None else n.op("cast")(v, dt)
    return [cut(out), cut(idx, "int64"), n.op("cast")(inv, "int64"), cut(counts, "int64")]
