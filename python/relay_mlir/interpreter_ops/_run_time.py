"""Checks of run-time shape and size operands (the ``dyn.*`` ops and ``strided_set``)."""
from __future__ import annotations

from typing import Sequence

import numpy as np

from ..errors import RelayRuntimeError


def _run_time_shape(op: str, shape: np.ndarray) -> list:
    if shape.ndim != 1 or shape.dtype.kind not in "iu":
        raise RelayRuntimeError(f"{op}: the shape must be a 1-d integer tensor, got {shape.dtype} {shape.shape}")
    return [int(v) for v in shape]


def _one_value(op: str, what: str, v: np.ndarray) -> int:
    if v.size != 1 or v.dtype.kind not in "iu":
        raise RelayRuntimeError(f"{op}: {what} must be one integer, got {v.dtype} {v.shape}")
    return int(v.reshape(()))


def _check_sizes(op: str, sizes: Sequence[int]) -> None:
    if any(s < 0 for s in sizes) or float(np.prod([float(s) for s in sizes])) > 2.0 ** 40:
        raise RelayRuntimeError(f"{op}: a shape entry is negative or the shape has more than 2^40 elements "
                                f"({list(sizes)})")


def _slice_indices(n: int, begin: int, end: int, stride: int) -> np.ndarray:
    """The indices strided_slice reads along a dim of size n (negative begin/end count from the
    end, then clamp to [0, n] (stride > 0) or [-1, n - 1] (stride < 0))."""
    lo, hi = (-1, n - 1) if stride < 0 else (0, n)

    def canonical(i: int) -> int:
        return min(max(i + n if i < 0 else i, lo), hi)
    first, last = canonical(begin), canonical(end)
    count = max(0, -((first - last) // stride))  # ceil((last - first) / stride)
    return first + stride * np.arange(count, dtype=np.int64)
