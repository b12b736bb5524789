"""Indexing, scatter, scans and sorting (``relay.take``, ``gather``, ``one_hot``, ``topk``, ...).

Example::

    >>> import relay_mlir as relay
    >>> x = relay.var("x", shape=(4, 5))
    >>> i = relay.var("i", shape=(2,), dtype="int32")
    >>> relay.take(x, i, axis=1).attrs
    {'axis': 1, 'batch_dims': 0, 'mode': 'clip'}
    >>> len(relay.topk(x, k=2))
    2
"""
from __future__ import annotations

from typing import Optional, Union

from ..expr import Call, Constant, Expr, TupleWrapper
from . import dyn as _dyn
from ._make import _bool, _call, _int, _opt_int, _str

__all__ = ["take", "gather", "gather_nd", "scatter_elements", "scatter_nd", "one_hot", "cumsum",
           "cumprod", "sort", "argsort", "topk", "searchsorted"]


def take(data: Expr, indices: Expr, axis: Optional[int] = None, batch_dims: int = 0,
         mode: str = "clip") -> Call:
    """Elements of ``data`` at ``indices`` along ``axis`` (flattened when None), ``relay.take``."""
    return _call("take", [data, indices], axis=_opt_int("axis", axis),
                 batch_dims=_int("batch_dims", batch_dims), mode=_str("mode", mode))


def gather(data: Expr, axis: int, indices: Expr) -> Call:
    """``relay.gather(data, axis, indices)`` (note Relay's argument order)."""
    return _call("gather", [data, indices], axis=_int("axis", axis))


def gather_nd(data: Expr, indices: Expr, batch_dims: int = 0, index_rank: Optional[int] = None) -> Call:
    """Gathers slices addressed by the first dim of ``indices`` (``relay.gather_nd``)."""
    return _call("gather_nd", [data, indices], batch_dims=_int("batch_dims", batch_dims),
                 index_rank=_opt_int("index_rank", index_rank))


def scatter_elements(data: Expr, indices: Expr, updates: Expr, axis: int = 0,
                     reduction: str = "update") -> Call:
    """Writes ``updates`` at ``indices`` along ``axis`` (``relay.scatter_elements``)."""
    return _call("scatter_elements", [data, indices, updates], axis=_int("axis", axis),
                 reduction=_str("reduction", reduction))


def scatter_nd(data: Expr, indices: Expr, updates: Expr, mode: str = "update") -> Call:
    """Writes ``updates`` at n-d ``indices`` (``relay.scatter_nd``)."""
    return _call("scatter_nd", [data, indices, updates], mode=_str("mode", mode))


def one_hot(indices: Expr, on_value: Expr, off_value: Expr, depth: int, axis: int, dtype: str) -> Call:
    """One-hot encoding (``relay.one_hot``); an expression ``depth`` is ``dyn.one_hot``."""
    if isinstance(depth, Constant):
        depth = int(depth.data.reshape(-1)[0])
    if isinstance(depth, Expr):
        return _dyn.one_hot(indices, on_value, off_value, depth, _int("axis", axis), _str("dtype", dtype))
    return _call("one_hot", [indices, on_value, off_value], depth=_int("depth", depth),
                 axis=_int("axis", axis), dtype=_str("dtype", dtype))


def cumsum(data: Expr, axis: Optional[int] = None, dtype: Optional[str] = None,
           exclusive: Optional[bool] = None) -> Call:
    """Running sum along ``axis`` (``relay.cumsum``)."""
    return _call("cumsum", [data], axis=_opt_int("axis", axis), dtype=dtype,
                 exclusive=None if exclusive is None else _bool("exclusive", exclusive))


def cumprod(data: Expr, axis: Optional[int] = None, dtype: Optional[str] = None,
            exclusive: Optional[bool] = None) -> Call:
    """Running product along ``axis`` (``relay.cumprod``)."""
    return _call("cumprod", [data], axis=_opt_int("axis", axis), dtype=dtype,
                 exclusive=None if exclusive is None else _bool("exclusive", exclusive))


def sort(data: Expr, axis: int = -1, is_ascend: Union[bool, int] = 1) -> Call:
    """Sorted values along ``axis`` (``relay.sort``)."""
    return _call("sort", [data], axis=_int("axis", axis), is_ascend=bool(is_ascend))


def argsort(data: Expr, axis: int = -1, is_ascend: Union[bool, int] = 1, dtype: str = "int32") -> Call:
    """Indices that sort ``data`` along ``axis`` (``relay.argsort``)."""
    return _call("argsort", [data], axis=_int("axis", axis), is_ascend=bool(is_ascend),
                 dtype=_str("dtype", dtype))


def topk(data: Expr, k: int = 1, axis: int = -1, ret_type: str = "both", is_ascend: bool = False,
         dtype: str = "int32") -> Union[TupleWrapper, Call]:
    """The ``k`` largest (or smallest) along ``axis`` (``relay.topk``).

    ``ret_type="both"`` gives a ``TupleWrapper`` ``(values, indices)``; ``k < 1``
    selects the whole axis (as in Relay). An expression ``k`` (a run-time integer)
    is ``dyn.topk`` (which takes k in [0, the axis size]: a run-time k < 1 is made the
    axis size first, a k past it is a run-time error).
    """
    if isinstance(k, Constant):
        k = int(k.data.reshape(-1)[0])
    if isinstance(k, Expr):
        axis = _int("axis", axis)
        k64 = _dyn._op("cast", _dyn._op("reshape", k, newshape=[]), dtype="int64")
        size = _call("take", [_call("shape_of", [data], dtype="int64"), _dyn._i64(axis)], axis=0,
                     mode="wrap", batch_dims=0)  # (wrap: a negative axis counts from the end)
        k = _dyn._op("where", _dyn._op("less", k64, _dyn._i64(1)), size, k64)
        return _dyn.topk(data, k, axis, _str("ret_type", ret_type), bool(is_ascend), _str("dtype", dtype))
    call = _call("topk", [data], k=_int("k", k), axis=_int("axis", axis),
                 ret_type=_str("ret_type", ret_type), is_ascend=bool(is_ascend), dtype=_str("dtype", dtype))
    return TupleWrapper(call, 2) if ret_type == "both" else call


def searchsorted(sorted_sequence: Expr, values: Expr, right: bool = False, dtype: str = "int32") -> Call:
    """Where ``values`` go in ``sorted_sequence`` along the last dim (``relay.searchsorted``):
    the count of elements ``< v`` (``<= v`` with ``right``), of ``dtype``.

    >>> import relay_mlir as relay
    >>> relay.searchsorted(relay.var("s", shape=(5,)), relay.var("v", shape=(3,)), right=True).attrs
    {'right': True, 'dtype': 'int32'}
    """
    return _call("searchsorted", [sorted_sequence, values], right=_bool("right", right),
                 dtype=_str("dtype", dtype))
