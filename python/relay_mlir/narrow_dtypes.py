"""The narrow element types beyond TVM 0.19: int4, uint4, int2, uint2 and the float8 family.

Relay dtype names follow ml_dtypes (the numpy types ONNX 1.23's ``numpy_helper``
gives for ``INT4``, ``FLOAT8E4M3FN``, ...): ``"int4"``, ``"uint4"``, ``"int2"``,
``"uint2"``, ``"float8_e4m3fn"``, ``"float8_e4m3fnuz"``, ``"float8_e5m2"``,
``"float8_e5m2fnuz"``, ``"float8_e8m0fnu"`` (MLIR ``i4``, ``ui4``, ``i2``, ``ui2``,
``f8E4M3FN``, ``f8E4M3FNUZ``, ``f8E5M2``, ``f8E5M2FNUZ``, ``f8E8M0FNU``). They are
storage types: only ``cast``, ``cast_like`` and data movement (reshape,
transpose, squeeze, expand_dims, copy) take them; arithmetic casts to a wider
dtype first (the dialect's verifier says so).

At the IREE boundary a float8 tensor is itself (IREE 3.13 maps it to the
ml_dtypes array); a narrow integer is stored one value per byte in int8/uint8
(IREE holds no int4 tensor whose byte size is not whole), so inputs are
widened here and results narrowed back to the ml_dtypes type.

Example::

    >>> import numpy as np
    >>> a = np.array([-8, 7], numpy_dtype("int4"))
    >>> to_storage(a).dtype.name, from_storage(to_storage(a), "int4").tolist()
    ('int8', [-8, 7])
"""
from __future__ import annotations

from typing import Optional

import numpy as np

NARROW_INTS = ("int4", "uint4", "int2", "uint2")
FLOAT8S = ("float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2", "float8_e5m2fnuz", "float8_e8m0fnu")
NARROW_DTYPES = NARROW_INTS + FLOAT8S


def _ml_dtypes():
    """The ml_dtypes module, imported when a narrow dtype is first met: its import takes
    ~0.55 s of CPU (it registers numpy types and ufuncs), which ``import relay_mlir`` and
    every compile worker paid before."""
    import ml_dtypes

    return ml_dtypes


def numpy_dtype(dtype: str) -> Optional[np.dtype]:
    """The ml_dtypes numpy dtype of a narrow relay dtype; None for any other name."""
    if dtype not in NARROW_DTYPES:
        return None
    return np.dtype(getattr(_ml_dtypes(), dtype))


def to_storage(arr: np.ndarray) -> np.ndarray:
    """A narrow-integer array as the int8/uint8 array IREE takes; any other array unchanged."""
    if arr.dtype.isbuiltin != 2:  # numpy's own dtypes (the narrow ones are user-defined)
        return arr
    name = arr.dtype.name
    if name not in NARROW_INTS:
        return arr
    return arr.astype(np.uint8 if name.startswith("u") else np.int8)


def check_narrow_inputs(values, dtypes, function: str) -> None:
    """Refuses an argument for a narrow-integer parameter that is not of that ml_dtypes type:
    its int8 storage would hold values outside the type's range (a wrong result later).
    ``dtypes``: each parameter's relay dtype (None where it is not a tensor)."""
    for i, (v, dt) in enumerate(zip(values, dtypes)):
        have = getattr(v, "dtype", None)
        if dt in NARROW_INTS and (have is None or np.dtype(have).name != dt):
            raise TypeError(f"{function}: argument #{i} must be a {dt} array (ml_dtypes.{dt}), "
                            f"got {'a ' + np.dtype(have).name + ' array' if have is not None else type(v).__name__}")


def from_storage(arr: np.ndarray, dtype: str) -> np.ndarray:
    """An int8/uint8 storage array (values in range) as the narrow integer ``dtype``."""
    want = numpy_dtype(dtype)
    if want is None or arr.dtype == want:
        return arr
    return arr.astype(want)


def float8_e8m0_down(x: np.ndarray) -> np.ndarray:
    """``relay.cast(x, "float8_e8m0fnu")``: the exponent of ``|x|`` in float32 (the power of two
    at or below it, NaN for inf/NaN), as IREE 3.13's ``arith.truncf`` to f8E8M0FNU and ONNX's
    ``round_mode="down"`` give it (ml_dtypes rounds to nearest instead)."""
    bits = np.asarray(x, np.float32).view(np.uint32)
    return ((bits >> 23) & 0xFF).astype(np.uint8).view(_ml_dtypes().float8_e8m0fnu)
