"""ONNX Cast/CastLike to the narrow element types (float8, int4/uint4, int2/uint2).

ONNX 1.23 (Cast-19/21/24/25, CastLike-19+; its reference ``op_cast.cast_to``):

* to FLOAT8E4M3FN/E4M3FNUZ/E5M2/E5M2FNUZ with ``saturate=1`` (the default): the
  value is clipped to the type's finite range first (NaN stays NaN, +-inf becomes
  +-max, for E5M2 too), then rounded to nearest even; with ``saturate=0`` out of
  range gives NaN (inf for E5M2, which has one). ``relay.cast`` itself is the
  non-saturating conversion (MLIR's ``arith.truncf``, checked equal to ml_dtypes),
  so saturation is a ``clip`` before it.
* to FLOAT8E8M0 rounds the exponent by ``round_mode``: refused (no lowering does
  that rounding yet; IREE's ``truncf`` to f8E8M0FNU truncates).
* to INT4/UINT4/INT2/UINT2: ``relay.cast`` (a float truncates towards zero and is
  0 outside the type's range, an integer wraps: as ml_dtypes, which the reference
  uses); ``saturate`` does not apply.
"""
from __future__ import annotations

import ml_dtypes

from ... import expr as E
from ...narrow_dtypes import FLOAT8S, numpy_dtype
from ._base import Node

_NAN_MAX = ("float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2", "float8_e5m2fnuz")
_FLOATS = ("float16", "bfloat16", "float32", "float64")


def cast_to_narrow(n: Node, x: E.Expr, src: str, dst: str, saturate: bool) -> E.Expr:
    """``x`` (dtype ``src``) cast to the narrow dtype ``dst`` with ONNX's rules."""
    if dst == "float8_e8m0fnu":
        raise n.unsupported("Cast to float8_e8m0fnu (ONNX rounds the exponent by round_mode; "
                            "the lowering has no such rounding)")
    if src == "float64" and dst in FLOAT8S:
        raise n.unsupported(f"Cast from float64 to {dst} (the lowering rounds through float32: "
                            "twice, where ONNX rounds once)")
    if dst not in _NAN_MAX or not saturate or src == "bool":
        return n.op("cast")(x, dst)
    if src not in _FLOATS:  # integers and float8 sources are clipped in float32
        x, src = n.op("cast")(x, "float32"), "float32"
    top = float(ml_dtypes.finfo(numpy_dtype(dst)).max)
    return n.op("cast")(n.op("clip")(x, -top, top), dst)

