"""Elementwise, reduction and shape-transform operators (Relay's top-level ops).

Keyword names and defaults are Relay's (``python/tvm/relay/op/tensor.py``,
``transform.py``, ``reduce.py``). Each function only builds a ``Call``;
attributes are passed through by name and converted by generic rules in
``relay_mlir.emit``.

Example::

    >>> import relay_mlir as relay
    >>> x = relay.var("x", shape=(2, 3))
    >>> relay.sum(relay.exp(x), axis=1, keepdims=True).attrs
    {'axis': [1], 'keepdims': True, 'exclude': False}
"""
from __future__ import annotations

from typing import Optional, Sequence, Union

import numpy as np

from ..expr import Call, Expr, Op, Tuple, TupleWrapper

__all__ = [
    "add", "subtract", "multiply", "divide", "maximum", "minimum",
    "negative", "exp", "log", "sqrt", "tanh", "sigmoid",
    "reshape", "transpose", "concatenate", "sum", "mean",
]

IntList = Union[int, Sequence[int]]


def _call(name: str, args: Sequence[Expr], **attrs: object) -> Call:
    args = [a.astuple() if isinstance(a, TupleWrapper) else a for a in args]
    return Call(Op.get(name), args, attrs)


def _int(name: str, v: object) -> int:
    """``v`` as an int; attribute values are checked here so that the C++
    relations only ever see attributes of the declared kind."""
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
        raise TypeError(f"'{name}' must be an int, got {v!r}")
    return int(v)


def _opt_int(name: str, v: object) -> Optional[int]:
    return None if v is None else _int(name, v)


def _bool(name: str, v: object) -> bool:
    if not isinstance(v, (bool, np.bool_)):
        raise TypeError(f"'{name}' must be a bool, got {v!r}")
    return bool(v)


def _str(name: str, v: object) -> str:
    if not isinstance(v, str):
        raise TypeError(f"'{name}' must be a str, got {v!r}")
    return v


def _ints(v: Optional[IntList], name: str = "value") -> Optional[list]:
    if v is None:
        return None
    if isinstance(v, (int, np.integer)) and not isinstance(v, bool):
        return [int(v)]
    if isinstance(v, (str, bytes)) or not hasattr(v, "__iter__"):
        raise TypeError(f"'{name}' must be an int or a sequence of ints, got {v!r}")
    return [_int(name, i) for i in v]


# -- binary, broadcasting ---------------------------------------------------
def add(lhs: Expr, rhs: Expr) -> Call:
    """Elementwise ``lhs + rhs`` with numpy broadcasting.

    >>> import relay_mlir as relay
    >>> relay.add(relay.var("a", shape=(4, 1)), relay.var("b", shape=(3,))).op.name
    'add'
    """
    return _call("add", [lhs, rhs])


def subtract(lhs: Expr, rhs: Expr) -> Call:
    """Elementwise ``lhs - rhs`` with broadcasting (``relay.subtract``)."""
    return _call("subtract", [lhs, rhs])


def multiply(lhs: Expr, rhs: Expr) -> Call:
    """Elementwise ``lhs * rhs`` with broadcasting (``relay.multiply``)."""
    return _call("multiply", [lhs, rhs])


def divide(lhs: Expr, rhs: Expr) -> Call:
    """Elementwise ``lhs / rhs`` with broadcasting (``relay.divide``)."""
    return _call("divide", [lhs, rhs])


def maximum(lhs: Expr, rhs: Expr) -> Call:
    """Elementwise maximum with broadcasting (``relay.maximum``)."""
    return _call("maximum", [lhs, rhs])


def minimum(lhs: Expr, rhs: Expr) -> Call:
    """Elementwise minimum with broadcasting (``relay.minimum``)."""
    return _call("minimum", [lhs, rhs])


# -- unary -----------------------------------------------------------------
def negative(data: Expr) -> Call:
    """``-data`` (``relay.negative``).

    >>> import relay_mlir as relay
    >>> relay.negative(relay.var("x", shape=(2,))).op.name
    'negative'
    """
    return _call("negative", [data])


def exp(data: Expr) -> Call:
    """``e ** data`` (``relay.exp``)."""
    return _call("exp", [data])


def log(data: Expr) -> Call:
    """Natural logarithm (``relay.log``)."""
    return _call("log", [data])


def sqrt(data: Expr) -> Call:
    """Square root (``relay.sqrt``)."""
    return _call("sqrt", [data])


def tanh(data: Expr) -> Call:
    """Hyperbolic tangent (``relay.tanh``)."""
    return _call("tanh", [data])


def sigmoid(data: Expr) -> Call:
    """``1 / (1 + e ** -data)`` (``relay.sigmoid``)."""
    return _call("sigmoid", [data])


# -- transforms ------------------------------------------------------------
def reshape(data: Expr, newshape: IntList, allowzero: bool = False) -> Call:
    """``relay.reshape(data, newshape, allowzero=False)`` with Relay's codes 0, -1, -2, -3, -4.

    >>> import relay_mlir as relay
    >>> relay.reshape(relay.var("x", shape=(2, 3, 4)), (0, -1)).attrs
    {'newshape': [0, -1], 'allowzero': False}
    """
    return _call("reshape", [data], newshape=_ints(newshape, "newshape"),
                 allowzero=_bool("allowzero", allowzero))


def transpose(data: Expr, axes: Optional[Sequence[int]] = None) -> Call:
    """Permutes dims (``relay.transpose``); ``axes=None`` reverses them.

    >>> import relay_mlir as relay
    >>> relay.transpose(relay.var("x", shape=(2, 3)), (1, 0)).attrs
    {'axes': [1, 0]}
    """
    return _call("transpose", [data], axes=_ints(axes, "axes"))


def concatenate(data: Union[Sequence[Expr], Tuple], axis: int) -> Call:
    """Joins a tuple/list of tensors along ``axis`` (``relay.concatenate``).

    >>> import relay_mlir as relay
    >>> a, b = relay.var("a", shape=(1, 2)), relay.var("b", shape=(1, 3))
    >>> len(relay.concatenate((a, b), axis=1).args)
    2
    """
    if isinstance(data, Tuple):
        fields = data.fields
    elif isinstance(data, (list, tuple)):
        fields = list(data)
    else:
        raise TypeError("concatenate takes a relay_mlir.Tuple or a list/tuple of expressions")
    if not fields:
        raise ValueError("relay.concatenate requires data to be non-empty.")
    return _call("concatenate", fields, axis=_int("axis", axis))


# -- reductions ------------------------------------------------------------
def sum(data: Expr, axis: Optional[IntList] = None, keepdims: bool = False,  # noqa: A001
        exclude: bool = False) -> Call:
    """Sum over ``axis`` (all axes when None), ``relay.sum``.

    >>> import relay_mlir as relay
    >>> relay.sum(relay.var("x", shape=(2, 3))).attrs
    {'axis': None, 'keepdims': False, 'exclude': False}
    """
    return _call("sum", [data], axis=_ints(axis, "axis"), keepdims=_bool("keepdims", keepdims),
                 exclude=_bool("exclude", exclude))


def mean(data: Expr, axis: Optional[IntList] = None, keepdims: bool = False,
         exclude: bool = False) -> Call:
    """Mean over ``axis`` (all axes when None), ``relay.mean``."""
    return _call("mean", [data], axis=_ints(axis, "axis"), keepdims=_bool("keepdims", keepdims),
                 exclude=_bool("exclude", exclude))
