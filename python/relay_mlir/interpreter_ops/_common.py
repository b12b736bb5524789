"""Array helpers shared by the kernels of every family."""
from __future__ import annotations

import numpy as np

from ..errors import RelayRuntimeError


def _arr(x, dtype=None) -> np.ndarray:
    """``x`` as an ndarray (numpy ufuncs return scalars for 0-d inputs)."""
    if type(x) is np.ndarray and (dtype is None or x.dtype == dtype):
        return x
    return np.asarray(x, dtype=dtype)


def _is_float(a: np.ndarray) -> bool:
    return a.dtype.kind == "f" or a.dtype.name == "bfloat16"   # ml_dtypes' kind is "V"


def _f64(a: np.ndarray) -> np.ndarray:
    return a.astype(np.float64)


def _same_dtype(name: str, *arrays: np.ndarray) -> None:
    d = arrays[0].dtype
    for a in arrays[1:]:
        if a.dtype != d:
            raise RelayRuntimeError(f"'{name}': operand dtypes differ ({d} vs {a.dtype})")


def _axis(axis: int, ndim: int) -> int:
    a = axis + ndim if axis < 0 else axis
    if not 0 <= a < max(ndim, 1):
        raise RelayRuntimeError(f"axis {axis} out of range for rank {ndim}")
    return a
