"""Image operators, ``relay_mlir.image`` (Relay's ``relay.image``).

Example::

    >>> import relay_mlir as relay
    >>> x = relay.var("x", shape=(1, 3, 8, 8))
    >>> relay.image.resize2d(x, size=(16, 16)).attrs["method"]
    'linear'
"""
from __future__ import annotations

from typing import Optional, Sequence


from ..expr import Call, Constant, Expr, const
from . import dyn as _dyn
from ._make import _call, _int, _ints, _str

__all__ = ["resize2d"]


def _float(name: str, v: object) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise TypeError(f"'{name}' must be a number, got {v!r}")
    return float(v)


def resize2d(data: Expr, size: Sequence[int], roi: Optional[Sequence[float]] = None, layout: str = "NCHW",
             method: str = "linear", coordinate_transformation_mode: str = "half_pixel",
             rounding_method: str = "", cubic_alpha: float = -0.5, cubic_exclude: int = 0,
             extrapolation_value: float = 0.0, out_dtype: Optional[str] = None) -> Call:
    """Resizes the spatial dims to ``size`` (``relay.image.resize2d``); an expression ``size``
    or ``roi`` is ``dyn.image.resize2d``."""
    if isinstance(size, Constant):
        size = size.data.tolist()
    if isinstance(roi, Constant):
        roi = roi.data.tolist()
    if isinstance(size, Expr) or isinstance(roi, Expr):
        if not isinstance(size, Expr):
            size = const(size, "int64")
        return _dyn.resize2d(data, size, roi, _str("layout", layout), _str("method", method),
                             _str("coordinate_transformation_mode", coordinate_transformation_mode),
                             _str("rounding_method", rounding_method), _float("cubic_alpha", cubic_alpha),
                             _int("cubic_exclude", cubic_exclude),
                             _float("extrapolation_value", extrapolation_value), out_dtype)
    roi_attr = None if roi is None else [_float("roi", v) for v in roi]  # -> DenseF64ArrayAttr
    return _call("image.resize2d", [data], size=_ints(size, "size"), roi=roi_attr,
                 layout=_str("layout", layout), method=_str("method", method),
                 coordinate_transformation_mode=_str("coordinate_transformation_mode",
                                                     coordinate_transformation_mode),
                 rounding_method=_str("rounding_method", rounding_method),
                 cubic_alpha=_float("cubic_alpha", cubic_alpha),
                 cubic_exclude=_int("cubic_exclude", cubic_exclude),
                 extrapolation_value=_float("extrapolation_value", extrapolation_value),
                 out_dtype=out_dtype)

