"""What every operator module shares: building a ``Call`` and checking attribute values.

The op modules (``tensor``, ``nn``, ``transform``, ...) import these helpers
from here; this module depends only on ``relay_mlir.expr``.

Example::

    >>> from relay_mlir.op._make import _call, _ints
    >>> from relay_mlir.expr import var
    >>> c = _call("nn.softmax", [var("x", shape=(2, 3))], axis=_ints(-1)[0])
    >>> c.op.name, c.attrs
    ('nn.softmax', {'axis': -1})
"""
from __future__ import annotations

from typing import Optional, Sequence, Union

import numpy as np

from ..expr import Call, Expr, Op, TupleWrapper

IntList = Union[int, Sequence[int]]


def _call(name: str, args: Sequence[Expr], **attrs: object) -> Call:
    """A call of the operator ``name``; tuple wrappers among ``args`` are unwrapped."""
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


def _float(name: str, v: object) -> float:
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, np.integer, np.floating)):
        raise TypeError(f"'{name}' must be a number, got {v!r}")
    return float(v)


def _ints(v: Optional[IntList], name: str = "value") -> Optional[list]:
    if v is None:
        return None
    if isinstance(v, (int, np.integer)) and not isinstance(v, bool):
        return [int(v)]
    if isinstance(v, (str, bytes)) or not hasattr(v, "__iter__"):
        raise TypeError(f"'{name}' must be an int or a sequence of ints, got {v!r}")
    return [_int(name, i) for i in v]
