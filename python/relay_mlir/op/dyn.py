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
"""
from __future__ import annotations

from typing import Optional

import numpy as np

from ..expr import Call, Expr, const
from ._make import _bool, _call, _str

__all__ = ["shape_of", "ndarray_size", "reshape", "broadcast_to", "zeros", "ones", "full"]


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
