"""``tvm.runtime.container.ADT``: the value of a Relay tuple or ADT constructor, as TVM's
VM and executors return it (``tag``, ``len``, ``[i]``, iteration); fields are NDArrays
or nested ADTs. TVM 0.19 gives a tuple result tag 0.

    >>> import numpy as np
    >>> from relay_mlir.tvm.runtime.container import ADT, from_relay_value
    >>> v = from_relay_value((np.zeros(2, "float32"), (np.ones(1, "int32"),)))
    >>> len(v), v.tag, v[0].shape, len(v[1]), v[1][0].dtype
    (2, 0, (2,), 1, 'int32')
"""
from __future__ import annotations

from typing import Iterator, List

import numpy as np

from ...adt_value import ADT as _RelayADT
from .ndarray import NDArray

__all__ = ["ADT", "from_relay_value", "to_relay_value"]


class ADT:
    """A tagged tuple of fields."""

    def __init__(self, tag: int, fields: List[object]) -> None:
        self.tag = tag
        self._fields = list(fields)

    def __len__(self) -> int:
        return len(self._fields)

    def __getitem__(self, i: int) -> object:
        return self._fields[i]

    def __iter__(self) -> Iterator[object]:
        return iter(self._fields)

    def __repr__(self) -> str:
        return f"ADT(tag={self.tag}, {self._fields!r})"


def from_relay_value(value: object) -> object:
    """A relay-mlir result (numpy array, tuple, ``adt_value.ADT``) as TVM's (NDArray, ADT)."""
    if isinstance(value, np.ndarray):
        return NDArray(value)
    if isinstance(value, (tuple, list)):
        return ADT(0, [from_relay_value(v) for v in value])
    if isinstance(value, _RelayADT):
        return ADT(value.tag, [from_relay_value(v) for v in value.fields])
    if np.isscalar(value):
        return NDArray(np.asarray(value))
    return value


def to_relay_value(value: object) -> object:
    """An argument given TVM's way (NDArray, ADT, nested tuples of them) as relay-mlir takes
    it (numpy arrays, tuples)."""
    if isinstance(value, NDArray):
        return value._data
    if isinstance(value, (ADT, tuple, list)):
        return tuple(to_relay_value(v) for v in value)
    return value
