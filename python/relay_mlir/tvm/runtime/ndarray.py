"""``tvm.nd``: ``NDArray``, ``array``, ``empty``.

TVM 0.19's NDArray is a tensor on a device: ``.shape`` (a tuple of ints), ``.dtype``
(a string), ``.device``, ``.numpy()`` (a copy), ``.copyto(device or NDArray)``,
``.copyfrom(numpy or NDArray)``. Here the data lives in host memory (a numpy array);
the device is where compiled code using it runs: IREE moves inputs to the device and
results back at each call.

``copyfrom`` (and ``GraphModule.set_input``, which uses it) checks the shape as TVM
does (``ValueError``) and the dtype more strictly than TVM: a numpy value is cast
when numpy calls the cast ``same_kind`` (float64 -> float32, int64 -> int32, as TVM
casts), and refused otherwise (TVM also casts float to int); an NDArray of another
dtype is refused (TVM copies its bytes, giving wrong values)::

    >>> import numpy as np, relay_mlir.tvm as tvm
    >>> a = tvm.nd.array(np.arange(6, dtype="float32").reshape(2, 3))
    >>> a.shape, a.dtype, a.device
    ((2, 3), 'float32', cpu(0))
    >>> b = tvm.nd.empty((2, 3), "float32")
    >>> a.copyto(b).numpy()[1]
    array([3., 4., 5.], dtype=float32)
"""
from __future__ import annotations

from typing import Optional, Sequence, Tuple

import numpy as np

from .device import Device, cpu

__all__ = ["NDArray", "array", "empty", "coerce"]


def _dims(shape: Sequence[Optional[int]]) -> str:
    return "(" + ", ".join("?" if d is None else str(d) for d in shape) + (",)" if len(shape) == 1 else ")")


def coerce(value: object, shape: Sequence[Optional[int]], dtype: str, what: str) -> np.ndarray:
    """``value`` (numpy-like or NDArray) as a numpy array of ``shape`` (``None``: any size)
    and ``dtype``, else a ``ValueError`` naming ``what`` and what was expected."""
    if isinstance(value, NDArray):
        if value.dtype != dtype:
            raise ValueError(f"{what} expects dtype {dtype}, got an NDArray of dtype {value.dtype} "
                             f"(convert it with .numpy().astype('{dtype}'))")
        arr = value._data
    else:
        try:
            arr = np.asarray(value)
        except Exception as e:
            raise ValueError(f"{what} expects a numpy array or NDArray, got {type(value).__name__}: {e}") from None
        if arr.dtype == object:
            raise ValueError(f"{what} expects a numpy array or NDArray, got {type(value).__name__}")
        if arr.dtype != np.dtype(dtype):
            if not np.can_cast(arr.dtype, dtype, "same_kind"):
                raise ValueError(f"{what} expects dtype {dtype}, got {arr.dtype} (numpy does not "
                                 f"cast {arr.dtype} to {dtype} as the same kind)")
            arr = arr.astype(dtype)
    if len(arr.shape) != len(shape) or any(d is not None and d != s for d, s in zip(shape, arr.shape)):
        raise ValueError(f"{what} expects shape {_dims(shape)}, got {tuple(arr.shape)}")
    return arr


class NDArray:
    """A tensor (host memory) tagged with a ``Device``."""

    def __init__(self, data: np.ndarray, device: Optional[Device] = None) -> None:
        if not isinstance(data, np.ndarray):
            raise TypeError(f"NDArray holds a numpy array, got {type(data).__name__}")
        self._data = data
        self.device = device if device is not None else cpu(0)

    @property
    def shape(self) -> Tuple[int, ...]:
        return tuple(int(d) for d in self._data.shape)

    @property
    def dtype(self) -> str:
        return str(self._data.dtype)

    @property
    def ndim(self) -> int:
        return self._data.ndim

    def numpy(self) -> np.ndarray:
        """A copy of the data as a numpy array."""
        return np.array(self._data, copy=True)

    def asnumpy(self) -> np.ndarray:
        """TVM's older name of ``numpy()``."""
        return self.numpy()

    def copyfrom(self, source_array: object) -> "NDArray":
        """Copies ``source_array`` (same shape; dtype as the module docstring says) in."""
        self._data = np.array(coerce(source_array, self.shape, self.dtype, "NDArray.copyfrom"), copy=True)
        return self

    def copyto(self, target: object, mem_scope: Optional[str] = None) -> "NDArray":
        """A copy on device ``target``, or copied into NDArray ``target`` (returned)."""
        if isinstance(target, NDArray):
            return target.copyfrom(self)
        if isinstance(target, Device):
            return NDArray(self.numpy(), target)
        raise ValueError(f"copyto expects a Device or an NDArray, got {type(target).__name__}")

    def __array__(self, dtype=None, copy=None):
        return self._data if dtype is None else self._data.astype(dtype)

    def __setitem__(self, index, value) -> None:
        """``a[:] = value`` copies ``value`` in, as TVM allows (only the full slice)."""
        if not (isinstance(index, slice) and index == slice(None)):
            raise ValueError("NDArray only supports a[:] = value")
        self.copyfrom(value)

    def __repr__(self) -> str:
        return f"<tvm.nd.NDArray shape={self.shape}, {self.device}>\n{self._data!r}"

    def __str__(self) -> str:
        return str(self._data)


def array(arr: object, device: Device = cpu(0), mem_scope: Optional[str] = None) -> NDArray:
    """``tvm.nd.array(arr, device=cpu(0))``: a copy of ``arr`` (numpy-like or NDArray)."""
    if isinstance(arr, NDArray):
        return NDArray(arr.numpy(), device)
    data = np.array(arr, copy=True)
    if data.dtype.kind not in "biuf":
        raise ValueError(f"tvm.nd.array expects numeric or bool data, got {type(arr).__name__} "
                         f"of dtype {data.dtype}")
    return NDArray(data, device)


def empty(shape: Sequence[int], dtype: str = "float32", device: Device = cpu(0),
          mem_scope: Optional[str] = None) -> NDArray:
    """``tvm.nd.empty(shape, dtype="float32", device=cpu(0))`` (zero-filled here)."""
    try:
        dt = np.dtype(dtype)
    except TypeError:
        dt = None
    if dt is None or dt.kind not in "biuf":
        raise ValueError(f"tvm.nd.empty: unknown or non-numeric dtype {dtype!r}")
    return NDArray(np.zeros(tuple(int(d) for d in shape), dtype=dt), device)
