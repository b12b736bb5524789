"""Shape-transform and tensor-creation operators (Relay's ``transform.py``).

Keyword names and defaults are Relay's (``python/tvm/relay/op/transform.py``,
``tensor.py``). ``reshape``, ``transpose`` and ``concatenate`` live in
``relay_mlir.op.tensor``; everything here is re-exported at the package top
level (``relay_mlir.split`` ...).

Example::

    >>> import relay_mlir as relay
    >>> x = relay.var("x", shape=(6, 4))
    >>> parts = relay.split(x, 3, axis=0)
    >>> len(parts), parts[2].index
    (3, 2)
    >>> relay.stack([parts[0], parts[1]], axis=0).attrs
    {'axis': 0}
"""
from __future__ import annotations

from typing import Optional, Sequence, Union

import numpy as np

from ..expr import Call, Constant, Expr, Tuple, TupleWrapper, const
from . import dyn as _dyn
from ._make import IntList, _bool, _call, _float, _int, _ints, _opt_int, _str

__all__ = [
    "reshape_like", "slice_like", "squeeze", "expand_dims", "stack", "split", "strided_slice", "strided_set", "tile",
    "repeat", "reverse", "broadcast_to", "broadcast_to_like", "collapse_sum_like",
    "zeros", "ones", "full", "zeros_like", "ones_like", "full_like", "arange",
    "layout_transform", "einsum", "shape_of", "ndarray_size", "argwhere", "unique",
    "trilu", "sequence_mask", "reverse_sequence", "meshgrid", "unravel_index", "invert_permutation",
    "matrix_set_diag", "collapse_sum_to", "reinterpret", "reverse_reshape", "sliding_window",
    "sparse_to_dense",
]


def _const_value(v: object) -> object:
    """A Constant argument as its numpy value (TVM's builders do the same: constants give the
    static operator), anything else unchanged."""
    return v.data if isinstance(v, Constant) else v


argwhere = _dyn.argwhere
unique = _dyn.unique

shape_of = _dyn.shape_of
ndarray_size = _dyn.ndarray_size

_INT64_MAX = np.iinfo(np.int64).max


def _fields(data: Union[Sequence[Expr], Tuple], name: str) -> list:
    if isinstance(data, Tuple):
        fields = list(data.fields)
    elif isinstance(data, (list, tuple)):
        fields = list(data)
    else:
        raise TypeError(f"{name} takes a relay_mlir.Tuple or a list/tuple of expressions")
    if not fields:
        raise ValueError(f"relay.{name} requires data to be non-empty.")
    return fields


def _dtype(name: str, dtype: object) -> str:
    if not isinstance(dtype, str):
        dtype = np.dtype(dtype).name
    return _str(name, dtype)


def _scalar(value: object, dtype: Optional[str]) -> Expr:
    """``value`` as an expression: Exprs pass through, numbers become 0-d constants."""
    if isinstance(value, Expr):
        return value
    if isinstance(value, (bool, int, float, np.generic, np.ndarray)):
        return const(value, dtype or None)
    raise TypeError(f"expected a relay expression or a number, got {value!r}")


def reshape_like(data: Expr, shape_like: Expr, lhs_begin: int = 0, lhs_end: Optional[int] = None,
                 rhs_begin: int = 0, rhs_end: Optional[int] = None) -> Call:
    """Reshapes dims ``[lhs_begin, lhs_end)`` of ``data`` to dims ``[rhs_begin, rhs_end)``
    of ``shape_like`` (``relay.reshape_like``; None = to the end).

    >>> import relay_mlir as relay
    >>> x, s = relay.var("x", shape=(1, 2, 3, 4)), relay.var("s", shape=(6, 2, 2, 3))
    >>> relay.reshape_like(x, s, lhs_begin=1, rhs_end=3).attrs["rhs_end"]
    3
    """
    return _call("reshape_like", [data, shape_like], lhs_begin=_int("lhs_begin", lhs_begin),
                 lhs_end=_opt_int("lhs_end", lhs_end), rhs_begin=_int("rhs_begin", rhs_begin),
                 rhs_end=_opt_int("rhs_end", rhs_end))


def slice_like(data: Expr, shape_like: Expr, axes: Optional[IntList] = None) -> Expr:
    """``data`` cut from index 0 to the sizes of ``shape_like`` on ``axes`` (every dim the two
    have in common when None), ``relay.slice_like``. Composed: a ``strided_slice``, static when
    those sizes of ``shape_like`` are, else a ``dyn.strided_slice`` of its run-time sizes
    (TVM prints one in front of every ``dyn.strided_slice`` built by ``relay.strided_slice``).

    >>> import relay_mlir as relay
    >>> x, s = relay.var("x", shape=(4, 6)), relay.var("s", shape=(2, 3))
    >>> y = relay.slice_like(x, s, axes=[1])
    >>> y.op.name, y.attrs["end"], y.attrs["axes"]
    ('strided_slice', [3], [1])
    """
    ds, _ = _dyn.type_of(data)
    ss, _ = _dyn.type_of(shape_like)
    if not axes:
        ax = list(range(min(len(ds), len(ss))))
    else:
        ax = []
        for a in _ints(axes, "axes"):
            if not -len(ds) <= a < len(ds) or (a % len(ds)) >= len(ss):
                raise ValueError(f"slice_like: axis {a} is out of range for data of rank {len(ds)} "
                                 f"and shape_like of rank {len(ss)}")
            ax.append(a % len(ds))
    for a in ax:
        if ss[a] is not None and ds[a] is not None and ss[a] > ds[a]:
            raise ValueError(f"slice_like: shape_like's dim {a} ({ss[a]}) is larger than data's "
                             f"({ds[a]})")
    if all(ss[a] is not None for a in ax):
        return strided_slice(data, [0] * len(ax), [ss[a] for a in ax], axes=ax)
    ends = [_dyn.dim(shape_like, ss, i) if i in ax else _dyn.dim(data, ds, i) for i in range(len(ds))]
    return _dyn.strided_slice(data, const([0] * len(ds), "int64"), _dyn._vec(ends),
                              const([1] * len(ds), "int64"))


def squeeze(data: Expr, axis: Optional[IntList] = None) -> Call:
    """Removes size-1 dims: those in ``axis``, or all static 1s when None (``relay.squeeze``).

    >>> import relay_mlir as relay
    >>> relay.squeeze(relay.var("x", shape=(1, 3, 1)), axis=[0]).attrs
    {'axis': [0]}

    An expression ``axis`` (a 1-d integer tensor) is ``dyn.squeeze``.
    """
    axis = _const_value(axis)
    if isinstance(axis, Expr):
        return _dyn.squeeze(data, axis)
    return _call("squeeze", [data], axis=_ints(axis, "axis"))


def expand_dims(data: Expr, axis: int, num_newaxis: int = 1) -> Call:
    """Inserts ``num_newaxis`` unit dims at ``axis`` in ``[-ndim - 1, ndim]`` (``relay.expand_dims``).

    >>> import relay_mlir as relay
    >>> relay.expand_dims(relay.var("x", shape=(3,)), 0, num_newaxis=2).attrs
    {'axis': 0, 'num_newaxis': 2}

    An expression ``axis`` (a run-time integer) is ``dyn.expand_dims``.
    """
    axis = _const_value(axis)
    if isinstance(axis, Expr):
        return _dyn.expand_dims(data, axis, _int("num_newaxis", num_newaxis))
    if isinstance(axis, np.ndarray):
        axis = int(axis.reshape(-1)[0])
    return _call("expand_dims", [data], axis=_int("axis", axis),
                 num_newaxis=_int("num_newaxis", num_newaxis))


def stack(data: Union[Sequence[Expr], Tuple], axis: int) -> Call:
    """Joins same-shaped tensors along a new ``axis`` (``relay.stack``)."""
    return _call("stack", _fields(data, "stack"), axis=_int("axis", axis))


def split(data: Expr, indices_or_sections: Union[int, Sequence[int]], axis: int = 0) -> TupleWrapper:
    """Splits ``data`` along ``axis`` (``relay.split``): an int gives that many equal
    sections, a list the ascending indices to split at.

    >>> import relay_mlir as relay
    >>> parts = relay.split(relay.var("x", shape=(6,)), [1, 4])
    >>> len(parts), parts.astuple().attrs["indices_or_sections"]
    (3, [1, 4])
    """
    if isinstance(indices_or_sections, (int, np.integer)) and not isinstance(indices_or_sections, bool):
        spec: object = int(indices_or_sections)
        size = int(indices_or_sections)
    else:
        spec = _ints(indices_or_sections, "indices_or_sections")
        size = len(spec) + 1
    return TupleWrapper(_call("split", [data], indices_or_sections=spec, axis=_int("axis", axis)), size)


def strided_slice(data: Expr, begin: IntList, end: IntList, strides: Optional[IntList] = None,
                  axes: Optional[IntList] = None, slice_mode: str = "end") -> Call:
    """numpy-style slicing with Relay's clamping (``relay.strided_slice``).

    Without ``axes``, entry i applies to dim i and missing entries take the
    whole dim; ``slice_mode="size"`` reads ``end`` as sizes (-1: to the end).
    A ``None`` entry of ``begin``/``end`` means the start/end of the dim as in
    Relay (for a negative stride, a ``None`` end stops before index 0).

    >>> import relay_mlir as relay
    >>> relay.strided_slice(relay.var("x", shape=(3, 4)), [0, 1], [2, 4]).attrs["strides"]
    [1]

    Expressions (1-d integer tensors) for ``begin``/``end``/``strides`` give
    ``dyn.strided_slice`` (without ``axes``).
    """
    begin, end, strides = _const_value(begin), _const_value(end), _const_value(strides)
    if any(isinstance(v, Expr) for v in (begin, end, strides)):
        if axes is not None:
            raise ValueError("strided_slice: axes with run-time begin/end/strides")
        vec = lambda v: v if isinstance(v, Expr) or v is None else const(v, "int64")  # noqa: E731
        return _dyn.strided_slice(data, vec(begin), vec(end), vec(strides), slice_mode)
    if isinstance(strides, np.ndarray):
        strides = strides.tolist()
    strides = _ints(strides or [1], "strides")
    n = len(strides)

    def fill(values: IntList, name: str, none_value) -> list:
        if isinstance(values, (int, np.integer)):
            values = [values]
        out = []
        for i, v in enumerate(values):
            s = strides[i] if i < n else (strides[0] if axes is not None and n == 1 else 1)
            out.append(none_value(s) if v is None else _int(name, v))
        return out

    b = fill(begin, "begin", lambda s: 0 if s > 0 else _INT64_MAX)
    e = fill(end, "end", lambda s: 0 if s < 0 else _INT64_MAX)
    return _call("strided_slice", [data], begin=b, end=e, strides=strides,
                 axes=_ints(axes, "axes"), slice_mode=_str("slice_mode", slice_mode))


def strided_set(data: Expr, v: Expr, begin: Union[Expr, IntList], end: Union[Expr, IntList],
                strides: Optional[Union[Expr, IntList]] = None) -> Call:
    """``data`` with the slice ``[begin:end:strides]`` replaced by ``v`` (``relay.strided_set``).

    ``begin``/``end``/``strides`` are 1-d integer tensors or lists (k <= rank entries, dims k..
    whole; ``strides`` may have one entry, for dim 0, the others taking 1 as in TVM; default 1);
    the slice follows
    ``strided_slice`` (negative indices count from the end, clamped to the dim) and ``v`` must
    have its shape.

    >>> import numpy as np, relay_mlir as relay
    >>> x = relay.var("x", shape=(4, 3))
    >>> y = relay.strided_set(x, relay.var("v", shape=(1, 3)), [2], [3])
    >>> relay.IRModule.from_expr(relay.Function([x], y))  # doctest: +ELLIPSIS
    IRModule(...)
    """
    def vec(value, name):
        if isinstance(value, Expr):
            return value
        return const(np.array(_ints(value, name), np.int64), "int64")
    return _call("strided_set", [data, v, vec(begin, "begin"), vec(end, "end"),
                                 vec([1] if strides is None else strides, "strides")])


def tile(data: Expr, reps: IntList) -> Call:
    """Repeats the whole tensor ``reps`` times per dim, like ``numpy.tile`` (``relay.tile``).

    >>> import relay_mlir as relay
    >>> relay.tile(relay.var("x", shape=(2, 2)), (2, 3)).attrs
    {'reps': [2, 3]}

    An expression ``reps`` (a 1-d integer tensor) is ``dyn.tile``.
    """
    reps = _const_value(reps)
    if isinstance(reps, Expr):
        return _dyn.tile(data, reps)
    return _call("tile", [data], reps=_ints(reps, "reps"))


def repeat(data: Expr, repeats: int, axis: int) -> Call:
    """Repeats each element ``repeats`` times along ``axis`` (``relay.repeat``)."""
    return _call("repeat", [data], repeats=_int("repeats", repeats), axis=_int("axis", axis))


def reverse(data: Expr, axis: int) -> Call:
    """Reverses the order of elements along ``axis`` (``relay.reverse``)."""
    return _call("reverse", [data], axis=_int("axis", axis))


def broadcast_to(data: Expr, shape: IntList) -> Call:
    """numpy-broadcasts ``data`` to the static ``shape`` (``relay.broadcast_to``).

    >>> import relay_mlir as relay
    >>> relay.broadcast_to(relay.var("x", shape=(3, 1)), (2, 3, 4)).attrs
    {'shape': [2, 3, 4]}
    """
    if isinstance(shape, Constant):  # as TVM: a constant shape is the static operator
        shape = shape.data.reshape(-1).tolist()
    if isinstance(shape, Expr):  # a shape computed at run time
        return _dyn.broadcast_to(data, shape)
    return _call("broadcast_to", [data], shape=_ints(shape, "shape"))


def broadcast_to_like(data: Expr, broadcast_type: Expr) -> Call:
    """numpy-broadcasts ``data`` to the shape of ``broadcast_type`` (``relay.broadcast_to_like``)."""
    return _call("broadcast_to_like", [data, broadcast_type])


def collapse_sum_like(data: Expr, collapse_type: Expr) -> Call:
    """Sums ``data`` down to the shape of ``collapse_type``, undoing a broadcast
    (``relay.collapse_sum_like``)."""
    return _call("collapse_sum_like", [data, collapse_type])


def zeros(shape: IntList, dtype: str) -> Call:
    """A tensor of zeros (``relay.zeros``).

    >>> import relay_mlir as relay
    >>> relay.zeros((2, 3), "float32").attrs
    {'shape': [2, 3], 'dtype': 'float32'}
    """
    if isinstance(shape, Constant):  # as TVM: a constant shape is the static operator
        shape = shape.data.reshape(-1).tolist()
    if isinstance(shape, Expr):
        return _dyn.zeros(shape, dtype)
    return _call("zeros", [], shape=_ints(shape, "shape"), dtype=_dtype("dtype", dtype))


def ones(shape: IntList, dtype: str) -> Call:
    """A tensor of ones (``relay.ones``)."""
    if isinstance(shape, Constant):  # as TVM: a constant shape is the static operator
        shape = shape.data.reshape(-1).tolist()
    if isinstance(shape, Expr):
        return _dyn.ones(shape, dtype)
    return _call("ones", [], shape=_ints(shape, "shape"), dtype=_dtype("dtype", dtype))


def full(fill_value: Union[Expr, float, int], shape: IntList = (), dtype: str = "") -> Call:
    """A tensor of ``shape`` filled with the scalar ``fill_value`` (``relay.full``);
    ``dtype=""`` keeps the dtype of ``fill_value``, otherwise the value is cast.

    >>> import relay_mlir as relay
    >>> relay.full(relay.const(2.0), (2, 2), "int32").attrs
    {'shape': [2, 2], 'dtype': 'int32'}
    """
    dtype = _dtype("dtype", dtype) if dtype else ""
    if isinstance(shape, Constant):  # as TVM: a constant shape is the static operator
        shape = shape.data.reshape(-1).tolist()
    if isinstance(shape, Expr):
        return _dyn.full(_scalar(fill_value, dtype), shape, dtype)
    return _call("full", [_scalar(fill_value, dtype)], shape=_ints(shape, "shape"), dtype=dtype)


def zeros_like(data: Expr) -> Call:
    """Zeros with the shape and dtype of ``data`` (``relay.zeros_like``)."""
    return _call("zeros_like", [data])


def ones_like(data: Expr) -> Call:
    """Ones with the shape and dtype of ``data`` (``relay.ones_like``)."""
    return _call("ones_like", [data])


def full_like(data: Expr, fill_value: Union[Expr, float, int]) -> Call:
    """The scalar ``fill_value`` (cast to ``data``'s dtype) in the shape of ``data``
    (``relay.full_like``)."""
    return _call("full_like", [data, _scalar(fill_value, None)])


def arange(start: Union[Expr, float, int], stop: Union[Expr, float, int, None] = None,
           step: Union[Expr, float, int, None] = None, dtype: str = "float32") -> Call:
    """Evenly spaced values in ``[start, stop)`` (``relay.arange``).

    As in numpy, a single argument is ``stop``. Numbers become constants of
    ``dtype``; when start, stop and step are all constants the length is
    static, otherwise it is ``?``.

    >>> import relay_mlir as relay
    >>> relay.arange(5).attrs
    {'dtype': 'float32'}
    """
    dtype = _dtype("dtype", dtype)
    if step is None:
        step = 1
    if stop is None:
        stop, start = start, 0
    return _call("arange", [_scalar(start, dtype), _scalar(stop, dtype), _scalar(step, dtype)],
                 dtype=dtype)


def layout_transform(data: Expr, src_layout: str, dst_layout: str) -> Call:
    """Converts between layouts such as ``NCHW``, ``NHWC`` and ``NCHW16c``
    (``relay.layout_transform``).

    >>> import relay_mlir as relay
    >>> relay.layout_transform(relay.var("x", shape=(1, 8, 2, 2)), "NCHW", "NCHW4c").attrs
    {'src_layout': 'NCHW', 'dst_layout': 'NCHW4c'}
    """
    return _call("layout_transform", [data], src_layout=_str("src_layout", src_layout),
                 dst_layout=_str("dst_layout", dst_layout))


def einsum(data: Union[Sequence[Expr], Tuple], equation: str) -> Call:
    """Einstein summation with numpy's equation syntax (``relay.einsum``).

    >>> import relay_mlir as relay
    >>> a, b = relay.var("a", shape=(2, 3, 4)), relay.var("b", shape=(2, 4, 5))
    >>> relay.einsum([a, b], "bij,bjk->bik").attrs
    {'equation': 'bij,bjk->bik'}
    """
    if not isinstance(equation, str):
        raise ValueError("einsum `equation` must be a str")
    return _call("einsum", _fields(data, "einsum"), equation=equation)


# --- TVM 0.19's masks, diagonals, grids and index maps (RelayTransformOps.td) -------------------

def trilu(data: Expr, k: Union[int, Expr], upper: bool = True) -> Call:
    """The upper (``j - i >= k``) or lower (``j - i <= k``) triangle of the last two dims,
    zeros elsewhere (``relay.trilu``); an int ``k`` becomes an int32 constant, as TVM's.

    >>> import relay_mlir as relay
    >>> relay.trilu(relay.var("x", shape=(3, 3)), 1, upper=False).attrs
    {'upper': False}
    """
    if isinstance(upper, (int, np.integer)) and not isinstance(upper, bool):
        upper = bool(upper)  # TVM prints TriluAttrs to the metadata section as 0 / 1
    return _call("trilu", [data, _scalar(k, "int32")], upper=_bool("upper", upper))


def sequence_mask(data: Expr, valid_length: Expr, mask_value: float = 0, axis: int = 0) -> Call:
    """``data`` with the steps ``t >= valid_length[b]`` along ``axis`` (0 or 1; the batch is the
    other of the first two dims) set to ``mask_value`` (``relay.sequence_mask``)."""
    return _call("sequence_mask", [data, valid_length], mask_value=_float("mask_value", mask_value),
                 axis=_int("axis", axis))


def reverse_sequence(data: Expr, seq_lengths: Expr, seq_axis: int = 1, batch_axis: int = 0) -> Call:
    """Reverses the first ``seq_lengths[b]`` steps along ``seq_axis`` of each batch entry ``b``
    of ``batch_axis`` (``relay.reverse_sequence``)."""
    return _call("reverse_sequence", [data, seq_lengths], seq_axis=_int("seq_axis", seq_axis),
                 batch_axis=_int("batch_axis", batch_axis))


def meshgrid(data: Union[Sequence[Expr], Tuple], indexing: str = "ij") -> TupleWrapper:
    """Coordinate grids of 0-d / 1-D tensors (``relay.meshgrid``, numpy's): a ``TupleWrapper``
    of one grid per input; ``indexing="xy"`` swaps the first two dims.

    >>> import relay_mlir as relay
    >>> len(relay.meshgrid([relay.var("a", shape=(2,)), relay.var("b", shape=(3,))]))
    2
    """
    fields = _fields(data, "meshgrid")
    return TupleWrapper(_call("meshgrid", fields, indexing=_str("indexing", indexing)), len(fields))


def unravel_index(indices: Expr, shape: Expr) -> Call:
    """Coordinates of flat ``indices`` in ``shape`` (``relay.unravel_index``): ``[len(shape)]``
    or ``[len(shape), len(indices)]``; lists become constants of the indices' dtype."""
    if not isinstance(shape, Expr):
        shape = const(np.asarray(shape, dtype="int32"))
    if not isinstance(indices, Expr):
        indices = const(np.asarray(indices, dtype="int32"))
    return _call("unravel_index", [indices, shape])


def invert_permutation(data: Expr) -> Call:
    """The inverse permutation, ``y[x[i]] = i`` (``relay.invert_permutation``)."""
    return _call("invert_permutation", [data])


def matrix_set_diag(data: Expr, diagonal: Expr, k: Union[int, Sequence[int]] = 0,
                    align: str = "RIGHT_LEFT") -> Call:
    """Writes ``diagonal`` onto diagonals ``k`` (an int, or ``(k1, k2)``) of the last two dims
    (``relay.matrix_set_diag``); ``align`` (``RIGHT_LEFT``, ``LEFT_RIGHT``, ``LEFT_LEFT``,
    ``RIGHT_RIGHT``: super-diagonals, then sub-diagonals) is stored as TVM's attributes.

    >>> import relay_mlir as relay
    >>> x, d = relay.var("x", shape=(3, 4)), relay.var("d", shape=(3, 3))
    >>> relay.matrix_set_diag(x, d, k=(-1, 1), align="LEFT_RIGHT").attrs["sub_diag_right_align"]
    True
    """
    k1, k2 = (k, k) if isinstance(k, (int, np.integer)) else tuple(k)
    aligns = {"RIGHT_LEFT": (True, False), "LEFT_RIGHT": (False, True),
              "LEFT_LEFT": (False, False), "RIGHT_RIGHT": (True, True)}
    if align not in aligns:
        raise ValueError(f"matrix_set_diag: align must be one of {sorted(aligns)}, got {align!r}")
    sup, sub = aligns[align]
    return _call("matrix_set_diag", [data, diagonal], k1=_int("k", k1), k2=_int("k", k2),
                 super_diag_right_align=sup, sub_diag_right_align=sub)


def collapse_sum_to(data: Expr, shape: Union[IntList, Expr]) -> Call:
    """Sums ``data`` down to the static ``shape`` (``relay.collapse_sum_to``); a constant
    ``shape`` is read, as TVM's builder does.

    >>> import relay_mlir as relay
    >>> relay.collapse_sum_to(relay.var("x", shape=(2, 3, 4)), (3, 1)).attrs
    {'shape': [3, 1]}
    """
    shape = _const_value(shape)
    if isinstance(shape, Expr):
        raise TypeError("collapse_sum_to: 'shape' must be a list of ints or a constant")
    return _call("collapse_sum_to", [data], shape=_ints(list(np.asarray(shape).reshape(-1)), "shape"))


def reinterpret(data: Expr, dtype: str) -> Call:
    """The elements' bits read as ``dtype`` of the same width (``relay.reinterpret``).

    >>> import relay_mlir as relay
    >>> relay.reinterpret(relay.var("x", shape=(4,)), "int32").attrs
    {'dtype': 'int32'}
    """
    return _call("reinterpret", [data], dtype=_dtype("dtype", dtype))


def reverse_reshape(data: Expr, newshape: IntList) -> Call:
    """Reshape with ``newshape``'s codes read from the right (``relay.reverse_reshape``, the
    operator ``contrib_reverse_reshape``): ``(10, 5, 4)`` by ``(-1, 0)`` gives ``(50, 4)``.

    >>> import relay_mlir as relay
    >>> relay.reverse_reshape(relay.var("x", shape=(10, 5, 4)), (-1, 0)).attrs
    {'newshape': [-1, 0]}
    """
    return _call("contrib_reverse_reshape", [data], newshape=_ints(newshape, "newshape"))


def sliding_window(data: Expr, axis: int, window_shape: Sequence[int], strides: Sequence[int]) -> Call:
    """The windows of ``window_shape`` (with ``strides``) over the dims from ``axis`` on
    (``relay.sliding_window``): ``data.shape[:axis] + [(d - w) // s + 1 ...] + window_shape``."""
    return _call("sliding_window", [data], axis=_int("axis", axis),
                 window_shape=_ints(window_shape, "window_shape"), strides=_ints(strides, "strides"))


def sparse_to_dense(sparse_indices: Expr, output_shape: Union[IntList, Expr], sparse_values: Expr,
                    default_value: Union[float, Expr] = 0) -> Call:
    """A dense ``output_shape`` tensor holding ``sparse_values`` at ``sparse_indices`` and
    ``default_value`` elsewhere (``relay.sparse_to_dense``; a constant ``output_shape`` is
    read; a run-time one, TVM's ``dyn.sparse_to_dense``, is not supported)."""
    output_shape = _const_value(output_shape)
    if isinstance(output_shape, Expr):
        raise TypeError("sparse_to_dense: a run-time output_shape (dyn.sparse_to_dense) is not "
                        "supported; pass a list of ints or a constant")
    if not isinstance(default_value, Expr):
        # of the values' dtype where known (TVM's builder makes a plain const)
        ty = getattr(sparse_values, "_checked_type", None) or getattr(sparse_values, "type_annotation", None)
        dtype = getattr(ty, "dtype", None)
        default_value = const(default_value, dtype) if dtype else const(default_value)
    return _call("sparse_to_dense", [sparse_indices, sparse_values, default_value],
                 output_shape=_ints(list(np.asarray(output_shape).reshape(-1)), "output_shape"))
