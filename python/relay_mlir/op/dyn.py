"""Shapes as values and Relay's ``dyn`` operators (shapes computed at run time).

``shape_of``/``ndarray_size`` turn a tensor's shape into a value; the
``dyn.*`` operators take that kind of value where their static forms take an
attribute. The static builders (``relay.reshape``, ``relay.broadcast_to``,
``relay.zeros``, ``relay.ones``, ``relay.full``) dispatch here when given an
expression instead of a list, as in TVM::

    >>> import relay_mlir as relay
    >>> x = relay.var("x", shape=(relay.Any(), 4))
    >>> s = relay.shape_of(x, "int64")
    >>> relay.reshape(x, relay.reverse(s, 0)).op.name
    'dyn.reshape'

So do ``relay.strided_slice``, ``relay.nn.pad``, ``relay.tile``,
``relay.topk``, ``relay.one_hot``, ``relay.squeeze`` and
``relay.expand_dims``, which give the dialect's ``dyn.strided_slice``,
``dyn.nn.pad``, ``dyn.tile``, ``dyn.topk``, ``dyn.one_hot``, ``dyn.squeeze``
and ``dyn.expand_dims`` (typed by their own rules, lowered directly, turned
back into the static ops by ``relay-dynamic-to-static`` when the arguments
become constants)::

    >>> relay.strided_slice(x, relay.const([1], "int64"), s).op.name
    'dyn.strided_slice'

``dyn.image.resize2d``/``dyn.nn.upsampling``, ``argwhere`` and ``unique`` are
compositions of static operators with run-time operands (below), shared by
the Python API and the ONNX importer; sizes that depend on values are ``?``::

    >>> w = relay.argwhere(relay.var("c", shape=(3, 4), dtype="bool"))
    >>> relay.transform.InferType()(relay.IRModule.from_expr(w))["main"].body.checked_type
    TensorType([?, 2], int32)
"""
from __future__ import annotations

from typing import Callable, List, Optional, Sequence, Tuple as PyTuple

import numpy as np

from ..errors import RelayRuntimeError
from ..expr import Call, Constant, Expr, Tuple, TupleGetItem, TupleWrapper, Var, const
from ..interpreter_ops import get_kernel
from ..ty import TensorType
from ._make import _bool, _call, _str

__all__ = ["shape_of", "ndarray_size", "reshape", "broadcast_to", "zeros", "ones", "full", "strided_slice",
           "pad", "tile", "topk", "one_hot", "squeeze", "expand_dims", "resize2d", "upsampling", "argwhere", "unique"]


def _dtype(name: str, dtype: object) -> str:
    if not isinstance(dtype, str):
        dtype = np.dtype(dtype).name
    return _str(name, dtype)


def _shape(shape: object, what: str) -> Expr:
    if not isinstance(shape, Expr):
        raise TypeError(f"'{what}' of a dyn operator must be a relay expression, got {shape!r}")
    return shape


def shape_of(data: Expr, dtype: str = "int32") -> Call:
    """The shape of ``data`` as a 1-d tensor of ``dtype`` (``relay.shape_of``)."""
    return _call("shape_of", [data], dtype=_dtype("dtype", dtype))


def ndarray_size(data: Expr, dtype: str = "int32") -> Call:
    """The number of elements of ``data`` as a 0-d tensor (``relay.ndarray_size``)."""
    return _call("ndarray_size", [data], dtype=_dtype("dtype", dtype))


def reshape(data: Expr, newshape: Expr, allowzero: bool = False) -> Call:
    """``dyn.reshape``: ``newshape`` is a 1-d integer tensor (codes 0 and -1 as in ``reshape``)."""
    return _call("dyn.reshape", [data, _shape(newshape, "newshape")],
                 allowzero=_bool("allowzero", allowzero))


def broadcast_to(data: Expr, shape: Expr) -> Call:
    """``dyn.broadcast_to``: numpy-broadcasts ``data`` to the run-time ``shape``."""
    return _call("dyn.broadcast_to", [data, _shape(shape, "shape")])


def zeros(shape: Expr, dtype: str) -> Call:
    """``dyn.zeros`` of the run-time ``shape``."""
    return _call("dyn.zeros", [_shape(shape, "shape")], dtype=_dtype("dtype", dtype))


def ones(shape: Expr, dtype: str) -> Call:
    """``dyn.ones`` of the run-time ``shape``."""
    return _call("dyn.ones", [_shape(shape, "shape")], dtype=_dtype("dtype", dtype))


def full(fill_value: object, shape: Expr, dtype: Optional[str] = "") -> Call:
    """``dyn.full``: the 0-d ``fill_value`` over the run-time ``shape``."""
    if not isinstance(fill_value, Expr):
        fill_value = const(fill_value, dtype or None)
    return _call("dyn.full", [fill_value, _shape(shape, "shape")],
                 dtype=_dtype("dtype", dtype) if dtype else "")


def strided_slice(data: Expr, begin: Expr, end: Expr, strides: Optional[Expr] = None,
                  slice_mode: str = "end") -> Call:
    """``dyn.strided_slice``: ``begin``/``end``/``strides`` are 1-d integer tensors (of a
    static length k <= rank: dims k.. are whole; ``strides`` may have one entry for all);
    ``slice_mode="size"`` reads ``end`` as sizes (-1: to the end, stride 1)."""
    if strides is None:
        strides = _i64([1])
    return _call("dyn.strided_slice", [data, _shape(begin, "begin"), _shape(end, "end"),
                                       _shape(strides, "strides")],
                 slice_mode=_str("slice_mode", slice_mode))


def pad(data: Expr, pad_width: Expr, pad_value: Expr, pad_mode: str = "constant") -> Call:
    """``dyn.nn.pad``: ``pad_width`` a (rank, 2) integer tensor of (before, after) per dim."""
    return _call("dyn.nn.pad", [data, _shape(pad_width, "pad_width"), pad_value],
                 pad_mode=_str("pad_mode", pad_mode))


def tile(data: Expr, reps: Expr) -> Call:
    """``dyn.tile``: ``reps`` a 1-d integer tensor of static length (numpy's rank rules);
    negative repeats are a run-time error."""
    return _call("dyn.tile", [data, _shape(reps, "reps")])


def topk(data: Expr, k: Expr, axis: int = -1, ret_type: str = "both", is_ascend: bool = False,
         dtype: str = "int32") -> object:
    """``dyn.topk``: ``k`` a run-time integer (0-d or one element), checked at run time to lie
    in [0, dim]."""
    call = _call("dyn.topk", [data, _shape(k, "k")], axis=axis, ret_type=_str("ret_type", ret_type),
                 is_ascend=_bool("is_ascend", bool(is_ascend)), dtype=_dtype("dtype", dtype))
    return TupleWrapper(call, 2) if ret_type == "both" else call


def one_hot(indices: Expr, on_value: Expr, off_value: Expr, depth: Expr, axis: int = -1,
            dtype: str = "float32") -> Call:
    """``dyn.one_hot``: ``depth`` a run-time integer (0-d or one element, checked >= 0); indices
    outside [0, depth) give all ``off_value``; ``on_value``/``off_value`` are cast to ``dtype``."""
    dt = _dtype("dtype", dtype)
    on, off = (v if _dtype_of(v) == dt else _call("cast", [v], dtype=dt) for v in (on_value, off_value))
    return _call("dyn.one_hot", [indices, on, off, _shape(depth, "depth")], axis=axis, dtype=dt)


def squeeze(data: Expr, axis: Expr) -> Call:
    """``dyn.squeeze``: ``axis`` a 1-d integer tensor of static length k (negative from the
    end): the result has rank - k dims; an axis out of range or given twice, or a squeezed dim
    that is not 1, is a run-time error."""
    return _call("dyn.squeeze", [data, _shape(axis, "axis")])


def expand_dims(data: Expr, axis: Expr, num_newaxis: int = 1) -> Call:
    """``dyn.expand_dims``: ``axis`` a run-time integer (0-d or one element; negative counts
    from rank + 1, checked at run time to be in range)."""
    return _call("dyn.expand_dims", [data, _shape(axis, "axis")], num_newaxis=num_newaxis)


# ---------------------------------------------------------------------------
# Compositions: the dyn operators TVM 0.19 has that relay-mlir builds from
# static operators with run-time operands (take at a run-time arange, where,
# argsort, dyn.reshape, dyn.broadcast_to). One place, used by the Python API
# (relay.strided_slice(x, Expr, ...), relay.nn.pad(x, Expr), ...) and by the
# ONNX importer (Slice/Pad/Tile/TopK/OneHot/Resize/NonZero/Unique with values
# known only at run time). With constant arguments the Python API builds the
# static operator instead (as TVM does), and inside a program constant
# folding turns the run-time aranges into constants, so the takes get static
# result shapes.
#
# Bad run-time values stop the compiled program (RelayRuntimeError) through
# the lowering's checks: ``checked_nonneg`` (a dyn.zeros whose shape must
# have no negative entry and at most 2^40 elements), arange's checks (step
# 0, too many elements) and dyn.reshape's element-count check.
# ---------------------------------------------------------------------------
TypeOracle = Callable[[Expr], Optional[PyTuple[PyTuple[Optional[int], ...], str]]]
_type_oracle: Optional[TypeOracle] = None


def set_type_oracle(fn: TypeOracle) -> None:
    """Installs the type inference the compositions use to learn the rank of an operand that
    carries no annotation (``relay_mlir.transform`` installs Relay's InferType)."""
    global _type_oracle
    _type_oracle = fn


def type_of(e: Expr) -> PyTuple[PyTuple[Optional[int], ...], str]:
    """(shape with None for ``?`` dims, dtype) of ``e``: from its annotation, constant value or
    checked type, else by type inference. A TypeError when it cannot be known."""
    t = getattr(e, "_checked_type", None)
    if t is None and isinstance(e, Var):
        t = e.type_annotation
    if isinstance(t, TensorType):
        return tuple(d if isinstance(d, int) else None for d in t.shape), t.dtype
    if isinstance(e, Constant):
        return tuple(e.data.shape), e.data.dtype.name
    r = _type_oracle(e) if _type_oracle is not None else None
    if r is None:
        raise TypeError(f"the type of {type(e).__name__} operand is not known (it must be a tensor "
                        "of known rank)")
    return r


def _dtype_of(e: Expr) -> Optional[str]:
    try:
        return type_of(e)[1]
    except TypeError:
        return None


def _i64(v: object) -> Expr:
    return const(np.array(v, np.int64), "int64")


# index arithmetic the compositions fold when every operand is a constant, so that constant
# arguments give constant indices and static result shapes (the folded value is computed by the
# debug interpreter's kernel, the same definition the interpreter runs)
_FOLDABLE = {"add", "subtract", "multiply", "divide", "floor_divide", "floor_mod", "minimum", "maximum",
             "where", "less", "greater", "less_equal", "greater_equal", "equal", "not_equal", "logical_and",
             "logical_or", "logical_not", "cast", "reshape", "take", "concatenate", "arange", "floor", "ceil",
             "round", "clip", "sum", "all", "argsort", "expand_dims"}
_FOLD_LIMIT = 4096  # elements: larger results stay computed at run time


def _op(name: str, *args: Expr, **attrs: object) -> Expr:
    call = _call(name, list(args), **attrs)
    if name in _FOLDABLE and all(isinstance(a, Constant) for a in args) \
            and sum(a.data.size for a in args) <= _FOLD_LIMIT:
        try:
            v = np.asarray(get_kernel(name)([a.data for a in args], dict(call.attrs)))
        except (RelayRuntimeError, ValueError, IndexError):
            return call  # (e.g. arange with step 0: the run-time check reports it)
        if v.size <= _FOLD_LIMIT:
            return const(v, v.dtype.name)
    return call


def _int64(e: Expr, dtype: Optional[str] = None) -> Expr:
    dt = dtype if dtype is not None else type_of(e)[1]
    return e if dt == "int64" else _op("cast", e, dtype="int64")


def _scalar_of(v: Expr) -> Expr:
    """A 0-d view of a one-element tensor."""
    return _op("reshape", v, newshape=[], allowzero=False)


def entry(v: Expr, j: int) -> Expr:
    """Entry ``j`` of the 1-d ``v`` as a 0-d tensor."""
    return _op("take", v, _i64(j), axis=0, batch_dims=0, mode="clip")


def dim(x: Expr, shape: Sequence[Optional[int]], a: int) -> Expr:
    """Dim ``a`` of ``x`` as a 0-d int64 (a constant when static)."""
    if shape[a] is not None:
        return _i64(shape[a])
    return entry(_op("shape_of", x, dtype="int64"), a)


def _vec(scalars: Sequence[Expr]) -> Expr:
    """A 1-d int64 from 0-d int64s."""
    parts = [_op("reshape", s, newshape=[1], allowzero=False) for s in scalars]
    return parts[0] if len(parts) == 1 else _op("concatenate", *parts, axis=0)


def checked_nonneg(sizes: Expr) -> Expr:
    """``sizes`` (1-d int64), checked at run time to be non-negative with a product of at most
    2^40 (the shape of a ``dyn.zeros`` of those sizes, whose lowering asserts it). Use the
    result, not ``sizes``, so that the check is part of the program."""
    if isinstance(sizes, Constant):  # known sizes: checked now
        v = sizes.data.astype(np.int64)
        if (v < 0).any() or float(np.prod(v.astype(np.float64))) > 2.0 ** 40:
            raise ValueError(f"shape {v.tolist()} has a negative entry or more than 2^40 elements")
        return sizes
    return _op("shape_of", _op("dyn.zeros", sizes, dtype="int8"), dtype="int64")


def checked_sizes(sizes: Sequence[Expr]) -> List[Expr]:
    """0-d int64 sizes, checked together (``checked_nonneg``); the checked 0-d values."""
    v = checked_nonneg(_vec(sizes))
    return [entry(v, j) for j in range(len(sizes))]


def runtime_check(ok: Expr) -> Expr:
    """A 0-d int64 zero computed from the 0-d bool ``ok``; the program stops with a run-time
    error when ``ok`` is false ("a shape entry is negative"). Add it to a value the result
    depends on."""
    v = _op("reshape", _op("where", ok, _i64(0), _i64(-1)), newshape=[1], allowzero=False)
    return _scalar_of(checked_nonneg(v))


def _take_range(x: Expr, axis: int, start: Expr, stop: Expr, step: Expr) -> Expr:
    idx = _op("arange", start, stop, step, dtype="int64")
    return _op("take", x, idx, axis=axis, batch_dims=0, mode="clip")


def slice_axis(x: Expr, axis: int, d: Expr, start: Expr, end: Expr, step: Expr) -> Expr:
    """``x[..., start:end:step, ...]`` along ``axis`` of size ``d`` with Python's clamping (0-d
    int64 run-time operands; negative start/end count from the end, a step of 0 is a
    run-time error)."""
    neg = _op("less", step, _i64(0))
    start = _op("where", _op("less", start, _i64(0)), _op("add", start, d), start)
    end = _op("where", _op("less", end, _i64(0)), _op("add", end, d), end)
    lo = _op("where", neg, _i64(-1), _i64(0))
    hi = _op("where", neg, _op("subtract", d, _i64(1)), d)
    start = _op("minimum", _op("maximum", start, _i64(0)), hi)
    end = _op("minimum", _op("maximum", end, lo), hi)
    return _take_range(x, axis, start, end, step)


def _vec_len(v: Expr, what: str) -> int:
    s, _ = type_of(v)
    if len(s) != 1 or s[0] is None:
        raise ValueError(f"'{what}' must be a 1-d tensor of static length, got shape "
                         f"{['?' if d is None else d for d in s]}")
    return int(s[0])


def pad_axes(data: Expr, shape: Sequence[Optional[int]], before: Sequence[Optional[Expr]],
             after: Sequence[Optional[Expr]], value: Optional[Expr], mode: str) -> Expr:
    """Pads each dim ``a`` by the 0-d int64 run-time ``before[a]``/``after[a]`` (None: not
    padded; negative: cropped): output index i reads input index i - before, wrapped by
    ``mode`` (constant: ``value`` outside; edge: clamped; reflect: mirrored; wrap: modulo).
    The output shape is checked at run time (no negative dim, at most 2^40 elements)."""
    r = len(shape)
    padded = [a for a in range(r) if before[a] is not None]
    if not padded:
        return data
    dims = [dim(data, shape, a) for a in range(r)]
    out = checked_sizes([_op("add", _op("add", dims[a], before[a]), after[a]) if a in padded
                         else dims[a] for a in range(r)])
    y = data
    for a in padded:
        d = dims[a]
        src = _op("subtract", _op("arange", _i64(0), out[a], _i64(1), dtype="int64"), before[a])
        dm1 = _op("subtract", d, _i64(1))
        if mode == "wrap":
            idx = _op("floor_mod", src, _op("maximum", d, _i64(1)))
        elif mode == "reflect":
            period = _op("maximum", _op("multiply", dm1, _i64(2)), _i64(1))
            m = _op("floor_mod", src, period)
            idx = _op("where", _op("less", m, d), m, _op("subtract", period, m))
        elif mode in ("edge", "constant"):
            idx = _op("minimum", _op("maximum", src, _i64(0)), _op("maximum", dm1, _i64(0)))
        else:
            raise ValueError(f"pad mode {mode!r}")
        y = _op("take", y, idx, axis=a, batch_dims=0, mode="clip")
        if mode == "constant":
            inside = _op("logical_and", _op("greater_equal", src, _i64(0)), _op("less", src, d))
            bshape = [1] * r
            bshape[a] = -1
            y = _op("where", _op("reshape", inside, newshape=bshape, allowzero=False), y, value)
    return y


def tile_dims(y: Expr, rs: Sequence[Expr], dims: Sequence[Expr]) -> Expr:
    """Tiles ``y`` (of the 0-d int64 ``dims``) ``rs[a]`` times along each dim (0-d int64,
    checked non-negative at run time): y as [1, d0, 1, d1, ...] broadcast to
    [r0, d0, r1, d1, ...], reshaped to [r0*d0, r1*d1, ...]."""
    r = len(dims)
    rs = checked_sizes(list(rs))
    z = y
    for a in range(r):  # [d0, d1, ...] -> [1, d0, 1, d1, ...]
        z = _op("expand_dims", z, axis=2 * a, num_newaxis=1)
    big = []
    for a in range(r):
        big += [rs[a], dims[a]]
    z = _op("dyn.broadcast_to", z, _vec(big))
    return _op("dyn.reshape", z, _vec([_op("multiply", rs[a], dims[a]) for a in range(r)]), allowzero=False)


def topk_take(data: Expr, axis: int, d: Expr, k: Expr, is_ascend: bool, dtype: str) -> PyTuple[Expr, Expr]:
    """(values, indices) of the top ``k`` (0-d int64, checked at run time to lie in [0, d]) along
    ``axis`` (of size ``d``): every element sorted (topk with k = 0), the first k taken."""
    k = checked_sizes([k, _op("subtract", d, k)])[0]
    full = _op("topk", data, k=0, axis=axis, ret_type="both", is_ascend=bool(is_ascend), dtype=dtype)
    return (_take_range(TupleGetItem(full, 0), axis, _i64(0), k, _i64(1)),
            _take_range(TupleGetItem(full, 1), axis, _i64(0), k, _i64(1)))


def one_hot_axis(indices: Expr, rank: int, on_value: Expr, off_value: Expr, depth: Expr, axis: int) -> Expr:
    """One-hot of the int64 ``indices`` (rank ``rank``) with a 0-d int64 run-time ``depth``
    (checked >= 0): ``indices == arange(depth)`` along the new ``axis``."""
    classes = _op("arange", _i64(0), depth, _i64(1), dtype="int64")
    classes = _op("reshape", classes, newshape=[-1] + [1] * (rank - axis), allowzero=False)
    hit = _op("equal", _op("expand_dims", indices, axis=axis, num_newaxis=1), classes)
    return _op("where", hit, on_value, off_value)


# -- resize ---------------------------------------------------------------------------
def _f(v: float, dtype: str) -> Expr:
    return const(np.array(v, dtype), dtype)


def _cubic_weights(r: Expr, a: float, dt: str) -> List[Expr]:
    """Keys' cubic convolution weights of taps -1, 0, 1, 2 at fraction ``r`` (ONNX's
    cubic_coeff_a / Relay's cubic_alpha ``a``)."""
    A = _f(a, dt)

    def c(v: float) -> Expr:
        return _f(v, dt)

    def outer(t: Expr) -> Expr:  # ((A t - 5A) t + 8A) t - 4A, for 1 < |t| < 2
        return _op("subtract", _op("multiply", _op("add", _op("multiply", _op("subtract", _op("multiply", A, t),
                                                                                   c(5 * a)), t), c(8 * a)), t),
                   c(4 * a))

    def inner(t: Expr) -> Expr:  # ((A + 2) t - (A + 3)) t t + 1, for |t| <= 1
        return _op("add", _op("multiply", _op("multiply", _op("subtract", _op("multiply", c(a + 2), t), c(a + 3)),
                                              t), t), c(1.0))
    one_minus = _op("subtract", c(1.0), r)
    return [outer(_op("add", r, c(1.0))), inner(r), inner(one_minus), outer(_op("add", one_minus, c(1.0)))]


def resize_axis(data: Expr, rank: int, axis: int, in_d: Expr, out_d: Expr, coord: Expr, method: str,
                rounding: str, cubic_a: float, exclude: bool, outside: Optional[Expr] = None,
                extrapolation: float = 0.0, fudge: float = 0.0, antialias: Optional[Expr] = None) -> Expr:
    """Resizes ``axis`` of ``data`` from ``in_d`` to ``out_d`` elements (0-d int64, ``out_d``
    checked): output i reads input coordinate ``coord[i]`` (1-d float) by ``method``
    ("nearest_neighbor" with ``rounding``, "linear", "cubic"), taps clamped to the edge;
    ``exclude`` drops (and renormalizes) cubic taps outside the input; where the 1-d bool
    ``outside`` holds the result is ``extrapolation``. ``fudge``: Relay's nearest floor/ceil
    tolerance. ``antialias``: the 0-d scale of ONNX's antialiasing linear/cubic filter (when
    downsampling, the kernel stretched by 1/scale over a run-time number of taps)."""
    _, dt = type_of(coord)
    _, xdt = type_of(data)
    ok = _op("logical_or", _op("greater", in_d, _i64(0)), _op("equal", out_d, _i64(0)))
    hi = _op("add", _op("subtract", in_d, _i64(1)), runtime_check(ok))  # resizing an empty dim

    def clamp(i: Expr) -> Expr:
        return _op("minimum", _op("maximum", i, _i64(0)), _op("maximum", hi, _i64(0)))

    def to_i(v: Expr) -> Expr:
        return _op("cast", v, dtype="int64")

    bshape = [1] * rank
    bshape[axis] = -1

    def along(v: Expr) -> Expr:
        return _op("reshape", v, newshape=bshape, allowzero=False)

    def tap(i: Expr) -> Expr:
        return _op("take", data, clamp(i), axis=axis, batch_dims=0, mode="clip")
    if method == "nearest_neighbor":
        if rounding == "round_prefer_floor":
            idx = _op("ceil", _op("subtract", coord, _f(0.5, dt)))
        elif rounding == "round_prefer_ceil":
            idx = _op("floor", _op("add", coord, _f(0.5, dt)))
        elif rounding == "floor":
            idx = _op("floor", _op("add", coord, _f(fudge, dt)))
        elif rounding == "ceil":
            idx = _op("ceil", _op("subtract", coord, _f(fudge, dt)))
        elif rounding == "round":
            idx = _op("round", coord)
        else:
            raise ValueError(f"resize: rounding method {rounding!r}")
        y = tap(to_i(idx))
    elif method in ("linear", "cubic") and antialias is not None:
        if np.dtype(xdt).kind != "f":
            raise ValueError(f"resize: {method} interpolation of {xdt} data")
        y = _antialias_axis(data, rank, axis, in_d, coord, method, cubic_a, exclude, antialias, tap, dt, xdt)
    elif method in ("linear", "cubic"):
        if np.dtype(xdt).kind != "f":
            raise ValueError(f"resize: {method} interpolation of {xdt} data")
        x0f = _op("floor", coord)
        r = _op("subtract", coord, x0f)
        x0 = to_i(x0f)
        if method == "linear":
            taps, ws = [0, 1], [_op("subtract", _f(1.0, dt), r), r]
        else:
            taps, ws = [-1, 0, 1, 2], _cubic_weights(r, cubic_a, dt)
        idxs = [_op("add", x0, _i64(t)) if t else x0 for t in taps]
        if exclude:
            ins = [_op("logical_and", _op("greater_equal", i, _i64(0)), _op("less", i, in_d)) for i in idxs]
            ws = [_op("where", m, w, _f(0.0, dt)) for m, w in zip(ins, ws)]
            total = ws[0]
            for w in ws[1:]:
                total = _op("add", total, w)
            total = _op("where", _op("equal", total, _f(0.0, dt)), _f(1.0, dt), total)
            ws = [_op("divide", w, total) for w in ws]
        y = None
        for i, w in zip(idxs, ws):
            term = _op("multiply", tap(i), along(_op("cast", w, dtype=xdt)))
            y = term if y is None else _op("add", y, term)
    else:
        raise ValueError(f"resize: method {method!r}")
    if outside is not None:
        y = _op("where", along(outside), _f(extrapolation, xdt), y)
    return y


def _antialias_axis(data: Expr, rank: int, axis: int, in_d: Expr, coord: Expr, method: str, cubic_a: float,
                    exclude: bool, scale: Expr, tap, dt: str, xdt: str) -> Expr:
    """ONNX's antialiasing resize of one axis: taps ``floor(x) + i`` for i in
    [i0, 2 - i0), i0 = floor(-support / s) + 1 with s = min(scale, 1), weighted by the linear
    or cubic kernel at ``s * (i - frac)``, normalised (a (out, taps) matrix: the tap count is
    known only at run time)."""
    c = lambda v: _f(v, dt)  # noqa: E731
    support = 1.0 if method == "linear" else 2.0
    s = _op("minimum", _op("cast", scale, dtype=dt), c(1.0))
    i0 = _op("cast", _op("add", _op("floor", _op("divide", c(-support), s)), c(1.0)), dtype="int64")
    offs = _op("arange", i0, _op("subtract", _i64(2), i0), _i64(1), dtype="int64")  # (T,)
    x0f = _op("floor", coord)
    r = _op("subtract", coord, x0f)  # (out,)
    col = lambda v: _op("expand_dims", v, axis=1, num_newaxis=1)  # noqa: E731
    args = _op("abs", _op("multiply", _op("subtract", _op("cast", offs, dtype=dt), col(r)), s))  # (out, T)
    if method == "linear":
        w = _op("maximum", _op("subtract", c(1.0), args), c(0.0))
    else:
        A = cubic_a
        a2 = _op("multiply", args, args)
        a3 = _op("multiply", a2, args)
        inner = _op("add", _op("subtract", _op("multiply", c(A + 2), a3), _op("multiply", c(A + 3), a2)), c(1.0))
        outer = _op("subtract", _op("add", _op("subtract", _op("multiply", c(A), a3), _op("multiply", c(5 * A), a2)),
                                        _op("multiply", c(8 * A), args)), c(4 * A))
        w = _op("where", _op("less_equal", args, c(1.0)), inner,
                _op("where", _op("less", args, c(2.0)), outer, c(0.0)))

    def normalised(w: Expr) -> Expr:
        total = _op("sum", w, axis=[1], keepdims=True, exclude=False)
        return _op("divide", w, _op("where", _op("equal", total, c(0.0)), c(1.0), total))
    w = normalised(w)
    idx = _op("add", col(_op("cast", x0f, dtype="int64")), offs)  # (out, T)
    if exclude:
        inside = _op("logical_and", _op("greater_equal", idx, _i64(0)), _op("less", idx, in_d))
        w = normalised(_op("where", inside, w, c(0.0)))
    w = _op("cast", w, dtype=xdt)
    if axis:
        w = _op("expand_dims", w, axis=0, num_newaxis=axis)
    if rank - axis - 1:
        w = _op("expand_dims", w, axis=axis + 2, num_newaxis=rank - axis - 1)
    return _op("sum", _op("multiply", tap(idx), w), axis=[axis + 1], keepdims=False, exclude=False)


def onnx_coords(mode: str, in_d: Expr, out_d: Expr, scale: Expr, roi: Optional[PyTuple[Expr, Expr]] = None
                ) -> PyTuple[Expr, Optional[Expr]]:
    """ONNX Resize's input coordinates (float64) of the outputs of one axis and, for
    tf_crop_and_resize, the mask of those outside the input: ``scale`` the 0-d float64 scale
    (the given one, or out/in for sizes)."""
    dt = "float64"
    c = lambda v: _f(v, dt)  # noqa: E731
    xo = _op("cast", _op("arange", _i64(0), out_d, _i64(1), dtype="int64"), dtype=dt)
    in_f, out_f = _op("cast", in_d, dtype=dt), _op("cast", out_d, dtype=dt)
    width = _op("multiply", scale, in_f)  # ONNX's output_width (a float)
    one = _op("equal", width, c(1.0))
    half = _op("subtract", _op("divide", _op("add", xo, c(0.5)), scale), c(0.5))
    in_m1 = _op("subtract", in_f, c(1.0))
    outside = None
    if mode == "half_pixel":
        x = half
    elif mode == "half_pixel_symmetric":
        adj = _op("divide", out_f, width)
        offset = _op("multiply", _op("divide", in_f, c(2.0)), _op("subtract", c(1.0), adj))
        x = _op("add", offset, half)
    elif mode == "pytorch_half_pixel":
        x = _op("where", one, c(-0.5), half)
    elif mode == "align_corners":
        x = _op("where", one, c(0.0), _op("divide", _op("multiply", xo, in_m1), _op("subtract", width, c(1.0))))
    elif mode == "asymmetric":
        x = _op("divide", xo, scale)
    elif mode == "tf_crop_and_resize":
        if roi is None:
            raise ValueError("resize: tf_crop_and_resize needs a roi")
        start, end = (_op("cast", v, dtype=dt) for v in roi)
        span = _op("multiply", _op("subtract", end, start), in_m1)
        x = _op("where", one, _op("divide", span, c(2.0)),
                _op("divide", _op("multiply", xo, span), _op("subtract", width, c(1.0))))
        x = _op("add", x, _op("multiply", start, in_m1))
        outside = _op("logical_or", _op("less", x, c(0.0)), _op("greater", x, in_m1))
    else:
        raise ValueError(f"resize: coordinate_transformation_mode {mode!r}")
    return x, outside


def _relay_coords(mode: str, in_d: Expr, out_d: Expr, roi: Optional[PyTuple[Expr, Expr]]
                  ) -> PyTuple[Expr, Optional[Expr]]:
    """Relay's (topi's) input coordinates (float32, scale = in/out) of one axis."""
    dt = "float32"
    c = lambda v: _f(v, dt)  # noqa: E731
    xo = _op("cast", _op("arange", _i64(0), out_d, _i64(1), dtype="int64"), dtype=dt)
    in_f, out_f = _op("cast", in_d, dtype=dt), _op("cast", out_d, dtype=dt)
    scale = _op("divide", in_f, out_f)
    big = _op("greater", out_d, _i64(1))
    in_m1 = _op("subtract", in_f, c(1.0))
    half = _op("subtract", _op("multiply", _op("add", xo, c(0.5)), scale), c(0.5))
    outside = None
    if mode == "half_pixel":
        x = half
    elif mode == "align_corners":
        x = _op("where", big, _op("multiply", _op("divide", in_m1, _op("subtract", out_f, c(1.0))), xo), c(0.0))
    elif mode == "asymmetric":
        x = _op("multiply", scale, xo)
    elif mode == "pytorch_half_pixel":
        x = _op("where", big, half, c(0.0))
    elif mode == "tf_half_pixel_for_nn":
        x = _op("multiply", _op("add", xo, c(0.5)), scale)
    elif mode == "tf_crop_and_resize":
        start, end = (_op("cast", v, dtype=dt) for v in roi)
        x = _op("where", big,
                _op("add", _op("multiply", start, in_m1),
                    _op("divide", _op("multiply", _op("multiply", xo, _op("subtract", end, start)), in_m1),
                        _op("subtract", out_f, c(1.0)))),
                _op("multiply", _op("multiply", c(0.5), _op("add", start, end)), in_m1))
        outside = _op("logical_or", _op("less", x, c(0.0)), _op("greater", x, in_m1))
    else:
        raise ValueError(f"resize2d: coordinate_transformation_mode {mode!r}")
    return x, outside


def resize2d(data: Expr, size: Expr, roi: Optional[object] = None, layout: str = "NCHW",
             method: str = "linear", coordinate_transformation_mode: str = "half_pixel",
             rounding_method: str = "", cubic_alpha: float = -0.5, cubic_exclude: int = 0,
             extrapolation_value: float = 0.0, out_dtype: Optional[str] = None) -> Expr:
    """``dyn.image.resize2d``: ``size`` a run-time (2,) integer tensor (out_h, out_w), checked
    non-negative; ``roi`` ([start_h, start_w, end_h, end_w]) a list or a run-time tensor.
    Relay's coordinates (scale in/out) and rounding (default: round for align_corners,
    else floor)."""
    xs, xdt = type_of(data)
    if len(xs) != 4 or layout not in ("NCHW", "NHWC"):
        raise ValueError(f"resize2d: a 4-d NCHW/NHWC input, got rank {len(xs)} layout {layout!r}")
    if _vec_len(size, "size") != 2:
        raise ValueError("resize2d: size must have 2 entries")
    axes = (2, 3) if layout == "NCHW" else (1, 2)
    sz = _int64(size)
    out_dims = [dim(data, xs, a) for a in range(4)]
    out_dims[axes[0]], out_dims[axes[1]] = entry(sz, 0), entry(sz, 1)
    out_dims = checked_sizes(out_dims)  # the whole result: no negative size, at most 2^40 elements
    outs = [out_dims[axes[0]], out_dims[axes[1]]]
    if roi is None:
        roi = [0.0] * 4
    rv = roi if isinstance(roi, Expr) else const(np.array(roi, np.float32), "float32")
    rounding = rounding_method or ("round" if coordinate_transformation_mode == "align_corners" else "floor")
    y = data
    for j, a in enumerate(axes):
        in_d = dim(data, xs, a)
        coord, outside = _relay_coords(coordinate_transformation_mode, in_d, outs[j],
                                       (entry(rv, j), entry(rv, j + 2)))
        y = resize_axis(y, 4, a, in_d, outs[j], coord, method, rounding, cubic_alpha, bool(cubic_exclude),
                        outside, extrapolation_value, fudge=1e-5)
    if out_dtype and out_dtype != xdt:
        y = _op("cast", y, dtype=out_dtype)
    return y


def upsampling(data: Expr, scale_h: Expr, scale_w: Expr, layout: str = "NCHW",
               method: str = "nearest_neighbor", align_corners: bool = False) -> Expr:
    """``dyn.nn.upsampling``: run-time 0-d float scales; the output is ``round(h * scale_h)`` x
    ``round(w * scale_w)`` (checked), resized as Relay's upsampling does (resize2d with
    align_corners or asymmetric coordinates; "bilinear"/"bicubic" are linear/cubic)."""
    xs, _ = type_of(data)
    if len(xs) != 4 or layout not in ("NCHW", "NHWC"):
        raise ValueError(f"upsampling: a 4-d NCHW/NHWC input, got rank {len(xs)} layout {layout!r}")
    axes = (2, 3) if layout == "NCHW" else (1, 2)
    sizes = []
    for a, s in zip(axes, (scale_h, scale_w)):
        scaled = _op("multiply", _op("cast", dim(data, xs, a), dtype="float64"),
                     _op("cast", _scalar_of(s), dtype="float64"))
        sizes.append(_op("cast", _op("round", scaled), dtype="int64"))
    if method.startswith("bi"):
        method = method[2:]
    return resize2d(data, _vec(sizes), None, layout, method, "align_corners" if align_corners else "asymmetric")


# -- data-dependent output sizes ---------------------------------------------------------
def _unravel(flat: Expr, dims: Sequence[Expr]) -> List[Expr]:
    """The coordinates of the flat row-major indices ``flat`` in a tensor of ``dims``."""
    out = []
    stride: Optional[Expr] = None
    for a in reversed(range(len(dims))):
        q = flat if stride is None else _op("floor_divide", flat, stride)
        out.append(q if a == 0 else _op("floor_mod", q, _op("maximum", dims[a], _i64(1))))
        stride = dims[a] if stride is None else _op("multiply", stride, dims[a])
    return out[::-1]


def argwhere(condition: Expr, shape: Optional[Sequence[Optional[int]]] = None, dtype: Optional[str] = None
             ) -> Expr:
    """``relay.argwhere``: the (?, rank) int32 coordinates of the non-zero elements of
    ``condition`` in row-major order. Composed: each true element's place among them is the
    exclusive cumulative sum of the flattened mask; place j of the ``count`` (a run-time
    arange) takes the flat position whose place is j (a reduction over the positions), and the
    positions are unravelled. (Each kernel reads the mask once: a stable argsort of it read the
    mask twice, element against element, and IREE then gave a fused mask computed from an
    arange a private copy it could not size.)"""
    xs, dt = type_of(condition) if shape is None or dtype is None else (tuple(shape), dtype)
    r = len(xs)
    if r == 0:
        raise ValueError("argwhere of a 0-d tensor")
    mask = condition if dt == "bool" else _op("not_equal", condition, const(np.array(0, dt), dt))
    flat = _op("reshape", mask, newshape=[-1], allowzero=False)
    ones = _op("cast", flat, dtype="int64")
    count = _op("sum", ones, axis=[0], keepdims=False, exclude=False)
    place = _op("cumsum", ones, axis=0, dtype="int64", exclusive=True)
    row = lambda v: _op("reshape", v, newshape=[1, -1], allowzero=False)  # noqa: E731
    positions = _op("arange", _i64(0), entry(_op("shape_of", flat, dtype="int64"), 0), _i64(1),
                    dtype="int64")
    places = _op("reshape", _op("arange", _i64(0), count, _i64(1), dtype="int64"), newshape=[-1, 1],
                 allowzero=False)
    hit = _op("logical_and", _op("equal", row(place), places), row(flat))
    sel = _op("sum", _op("where", hit, row(positions), _i64(0)), axis=[1], keepdims=False,
              exclude=False)
    coords = _unravel(sel, [dim(condition, xs, a) for a in range(r)])
    return _op("cast", _op("stack", *coords, axis=1), dtype="int32")


def unique(data: Expr, is_sorted: bool = True, return_counts: bool = False,
           shape: Optional[Sequence[Optional[int]]] = None) -> TupleWrapper:
    """``relay.unique`` of a 1-d tensor, as in TVM: ``(output, indices, inverse_indices,
    num_unique[, counts])``; ``output``/``indices``/``counts`` have the input's length and only
    their first ``num_unique[0]`` entries are defined (``indices``: first occurrence in
    ``data``; ``inverse_indices``: position in ``output`` of each input element); int32.
    ``is_sorted=False`` orders by first occurrence. Composed from a stable argsort, a
    cumulative sum of the first-of-a-run flags and gathers."""
    xs = tuple(shape) if shape is not None else type_of(data)[0]
    if len(xs) != 1:
        raise ValueError(f"unique of a rank-{len(xs)} tensor (it takes 1-d data)")
    n = dim(data, xs, 0)
    order = _op("argsort", data, axis=0, is_ascend=True, dtype="int64")
    out, idx, inverse, num, counts = _unique_sorted_runs(data, order, n, is_sorted)
    i32 = lambda v: _op("cast", v, dtype="int32")  # noqa: E731
    fields = [out, i32(idx), i32(inverse), i32(_op("reshape", num, newshape=[1], allowzero=False))]
    if return_counts:
        fields.append(i32(counts))
    return TupleWrapper(Tuple(fields), len(fields))


def _take0(v: Expr, i: Expr) -> Expr:
    return _op("take", v, i, axis=0, batch_dims=0, mode="clip")


def _unique_sorted_runs(data: Expr, order: Expr, n: Expr, is_sorted: bool, rank: int = 1) -> PyTuple[Expr, ...]:
    """unique's results from ``order``, a stable permutation sorting the rows (entries) of
    ``data`` (of rank ``rank``) along axis 0 (``n`` of them): (output rows, first-occurrence indices, inverse
    indices, number of unique rows (0-d), counts), int64, padded to ``n``."""
    pos = _op("arange", _i64(0), n, _i64(1), dtype="int64")
    srt = _take0(data, order)
    prev = _take0(srt, _op("maximum", _op("subtract", pos, _i64(1)), _i64(0)))
    differs = _op("not_equal", srt, prev)
    if rank > 1:  # a row differs when any of its entries does
        differs = _op("any", differs, axis=list(range(1, rank)), keepdims=False, exclude=False)
    first = _op("logical_or", differs, _op("equal", pos, _i64(0)))
    ifirst = _op("cast", first, dtype="int64")
    group = _op("subtract", _op("cumsum", ifirst, axis=0, dtype="int64", exclusive=None), _i64(1))
    num = _op("sum", ifirst, axis=[0], keepdims=False, exclude=False)
    # the positions (in sorted order) of each run's first element, first num entries
    starts = _op("argsort", _op("cast", _op("logical_not", first), dtype="int32"), axis=0, is_ascend=True,
                 dtype="int64")
    valid = _op("less", pos, num)
    out = _take0(srt, starts)
    idx = _op("where", valid, _take0(order, starts), n)
    nxt = _op("where", _op("less", _op("add", pos, _i64(1)), num), _take0(starts, _op("add", pos, _i64(1))), n)
    counts = _op("where", valid, _op("subtract", nxt, starts), _i64(0))
    inverse = _take0(group, _op("argsort", order, axis=0, is_ascend=True, dtype="int64"))
    if not is_sorted:  # groups by first occurrence
        perm = _op("argsort", _op("where", valid, idx, _op("add", pos, n)), axis=0, is_ascend=True,
                   dtype="int64")
        rank = _op("argsort", perm, axis=0, is_ascend=True, dtype="int64")
        out, idx, counts = (_take0(v, perm) for v in (out, idx, counts))
        inverse = _take0(rank, inverse)
    return out, idx, inverse, num, counts


def unique_rows(rows: Expr, m: int, is_sorted: bool = True) -> PyTuple[Expr, ...]:
    """unique of the rows of the (n, ``m``) ``rows`` (``m`` static), compared entry by entry:
    (first-occurrence row indices, inverse indices, number of unique rows (0-d), counts), int64,
    padded to n, rows in lexicographic order (``is_sorted``) or by first occurrence. The
    lexicographic order is m stable argsorts, last column first."""
    n = entry(_op("shape_of", rows, dtype="int64"), 0)
    order = _op("arange", _i64(0), n, _i64(1), dtype="int64")
    for j in reversed(range(m)):
        col = _take0(_op("take", rows, _i64(j), axis=1, batch_dims=0, mode="clip"), order)
        order = _take0(order, _op("argsort", col, axis=0, is_ascend=True, dtype="int64"))
    _, idx, inverse, num, counts = _unique_sorted_runs(rows, order, n, is_sorted, 2)
    return idx, inverse, num, counts


class _Namespace:
    """``relay.op.dyn.nn`` / ``relay.op.dyn.image``: where Relay's text names them
    (``dyn.nn.pad``, ``dyn.image.resize2d``)."""

    def __init__(self, **fns: Callable) -> None:
        self.__dict__.update(fns)


nn = _Namespace(pad=pad, upsampling=upsampling)
image = _Namespace(resize2d=resize2d)

