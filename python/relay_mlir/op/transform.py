"""More shape/transform operators (``relay.squeeze``, ``split``, ``strided_slice``, ``full``, ...).

Example::

    >>> import relay_mlir as relay
    >>> x = relay.var("x", shape=(6, 4))
    >>> parts = relay.split(x, 3, axis=0)
    >>> len(parts), parts[2].index
    (3, 2)
    >>> relay.strided_slice(x, begin=[1, 0], end=[5, 4], strides=[2, 1]).attrs["slice_mode"]
    'end'
"""
from __future__ import annotations

from typing import Optional, Sequence, Union

import numpy as np

from ..expr import Call, Constant, Expr, Tuple, TupleWrapper, const
from .tensor import IntList, _call, _int, _ints, _opt_int, _str

__all__ = ["squeeze", "expand_dims", "stack", "split", "strided_slice", "tile", "repeat", "reverse",
           "broadcast_to", "broadcast_to_like", "collapse_sum_like", "zeros", "ones", "full",
           "arange", "reshape_like", "layout_transform", "einsum", "zeros_like", "ones_like", "full_like"]


def _fields(data, what: str) -> list:
    if isinstance(data, Tuple):
        return list(data.fields)
    if isinstance(data, (list, tuple)):
        return list(data)
    raise TypeError(f"{what} takes a relay_mlir.Tuple or a list/tuple of expressions")


def squeeze(data: Expr, axis: Optional[IntList] = None) -> Call:
    """Removes size-1 dims (all of them when ``axis`` is None), ``relay.squeeze``."""
    return _call("squeeze", [data], axis=_ints(axis, "axis"))


def expand_dims(data: Expr, axis: int, num_newaxis: int = 1) -> Call:
    """Inserts ``num_newaxis`` size-1 dims at ``axis`` (``relay.expand_dims``)."""
    return _call("expand_dims", [data], axis=_int("axis", axis), num_newaxis=_int("num_newaxis", num_newaxis))


def stack(data: Union[Sequence[Expr], Tuple], axis: int) -> Call:
    """Stacks tensors along a new ``axis`` (``relay.stack``)."""
    return _call("stack", _fields(data, "stack"), axis=_int("axis", axis))


def split(data: Expr, indices_or_sections: Union[int, Sequence[int]], axis: int = 0) -> TupleWrapper:
    """Splits into equal sections or at indices (``relay.split``); returns a ``TupleWrapper``."""
    if isinstance(indices_or_sections, (int, np.integer)):
        n = _int("indices_or_sections", indices_or_sections)
        attr: object = n
    else:
        attr = _ints(indices_or_sections, "indices_or_sections")
        n = len(attr) + 1
    return TupleWrapper(_call("split", [data], indices_or_sections=attr, axis=_int("axis", axis)), n)


def strided_slice(data: Expr, begin: IntList, end: IntList, strides: Optional[IntList] = None,
                  axes: Optional[IntList] = None, slice_mode: str = "end") -> Call:
    """``data[begin:end:strides]`` per axis (``relay.strided_slice``)."""
    return _call("strided_slice", [data], begin=_ints(begin, "begin"), end=_ints(end, "end"),
                 strides=_ints(strides, "strides"), axes=_ints(axes, "axes"),
                 slice_mode=_str("slice_mode", slice_mode))


def tile(data: Expr, reps: IntList) -> Call:
    """Repeats the whole tensor ``reps`` times per axis (``relay.tile``)."""
    return _call("tile", [data], reps=_ints(reps, "reps"))


def repeat(data: Expr, repeats: int, axis: int) -> Call:
    """Repeats each element ``repeats`` times along ``axis`` (``relay.repeat``)."""
    return _call("repeat", [data], repeats=_int("repeats", repeats), axis=_int("axis", axis))


def reverse(data: Expr, axis: int) -> Call:
    """Reverses the order along ``axis`` (``relay.reverse``)."""
    return _call("reverse", [data], axis=_int("axis", axis))


def broadcast_to(data: Expr, shape: IntList) -> Call:
    """Broadcasts to ``shape`` (``relay.broadcast_to``)."""
    return _call("broadcast_to", [data], shape=_ints(shape, "shape"))


def broadcast_to_like(data: Expr, broadcast_type: Expr) -> Call:
    """Broadcasts to the shape of ``broadcast_type`` (``relay.broadcast_to_like``)."""
    return _call("broadcast_to_like", [data, broadcast_type])


def collapse_sum_like(data: Expr, collapse_type: Expr) -> Call:
    """Sums broadcast dims away to the shape of ``collapse_type`` (``relay.collapse_sum_like``)."""
    return _call("collapse_sum_like", [data, collapse_type])


def zeros(shape: IntList, dtype: str) -> Call:
    """A tensor of zeros (``relay.zeros``)."""
    return _call("zeros", [], shape=_ints(shape, "shape"), dtype=_str("dtype", dtype))


def ones(shape: IntList, dtype: str) -> Call:
    """A tensor of ones (``relay.ones``)."""
    return _call("ones", [], shape=_ints(shape, "shape"), dtype=_str("dtype", dtype))


def full(fill_value: Union[Expr, float, int], shape: IntList = (), dtype: str = "") -> Call:
    """A tensor filled with the scalar ``fill_value`` (``relay.full``)."""
    if not isinstance(fill_value, Expr):
        fill_value = const(fill_value, dtype or None)
    return _call("full", [fill_value], shape=_ints(shape, "shape"), dtype=_str("dtype", dtype))


def arange(start: Union[Expr, float], stop: Union[Expr, float, None] = None,
           step: Union[Expr, float, None] = None, dtype: str = "float32") -> Call:
    """``[start, stop)`` by ``step`` (``relay.arange``); numbers become constants of ``dtype``."""
    if stop is None:
        start, stop = 0, start
    if step is None:
        step = 1
    args = [a if isinstance(a, Expr) else const(a, dtype) for a in (start, stop, step)]
    return _call("arange", args, dtype=_str("dtype", dtype))


def reshape_like(data: Expr, shape_like: Expr, lhs_begin: int = 0, lhs_end: Optional[int] = None,
                 rhs_begin: int = 0, rhs_end: Optional[int] = None) -> Call:
    """Reshapes ``data`` to (part of) the shape of ``shape_like`` (``relay.reshape_like``)."""
    return _call("reshape_like", [data, shape_like], lhs_begin=_int("lhs_begin", lhs_begin),
                 lhs_end=_opt_int("lhs_end", lhs_end), rhs_begin=_int("rhs_begin", rhs_begin),
                 rhs_end=_opt_int("rhs_end", rhs_end))


def layout_transform(data: Expr, src_layout: str, dst_layout: str) -> Call:
    """Changes the data layout, e.g. NCHW -> NHWC (``relay.layout_transform``)."""
    return _call("layout_transform", [data], src_layout=_str("src_layout", src_layout),
                 dst_layout=_str("dst_layout", dst_layout))


def einsum(data: Union[Sequence[Expr], Tuple], equation: str) -> Call:
    """Einstein summation over a tuple of tensors (``relay.einsum``)."""
    return _call("einsum", _fields(data, "einsum"), equation=_str("equation", equation))


def zeros_like(data: Expr) -> Call:
    """Zeros shaped like ``data`` (``relay.zeros_like``)."""
    return _call("zeros_like", [data])


def ones_like(data: Expr) -> Call:
    """Ones shaped like ``data`` (``relay.ones_like``)."""
    return _call("ones_like", [data])


def full_like(data: Expr, fill_value: Expr) -> Call:
    """``data``'s shape filled with the scalar ``fill_value`` (``relay.full_like``)."""
    return _call("full_like", [data, fill_value])
