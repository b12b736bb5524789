"""ONNX Cast/CastLike to the narrow element types (float8, int4/uint4, int2/uint2).

ONNX 1.23 (Cast-19/21/24/25, CastLike-19+; its reference ``op_cast.cast_to``):

* to FLOAT8E4M3FN/E4M3FNUZ/E5M2/E5M2FNUZ with ``saturate=1`` (the default): the
  value is clipped to the type's finite range first (NaN stays NaN, +-inf becomes
  +-max, for E5M2 too), then rounded to nearest even; with ``saturate=0`` out of
  range gives NaN (inf for E5M2, which has one). ``relay.cast`` itself is the
  non-saturating conversion (MLIR's ``arith.truncf``, checked equal to ml_dtypes),
  so saturation is a ``clip`` before it.
* to FLOAT8E8M0 rounds the exponent by ``round_mode``: "down" is ``relay.cast`` (the
  exponent of ``|x|``, as IREE's ``truncf``), "up" (the default) a comparison after it,
  "nearest" is refused.
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


def cast_to_narrow(n: Node, x: E.Expr, src: str, dst: str, saturate: bool,
                   round_mode: str = "up") -> E.Expr:
    """``x`` (dtype ``src``) cast to the narrow dtype ``dst`` with ONNX's rules."""
    if dst == "float8_e8m0fnu":
        return _cast_to_e8m0(n, x, src, saturate, round_mode)
    if src == "float64" and dst in FLOAT8S:
        raise n.unsupported(f"Cast from float64 to {dst} (the lowering rounds through float32: "
                            "twice, where ONNX rounds once)")
    if dst not in _NAN_MAX or not saturate or src == "bool":
        return n.op("cast")(x, dst)
    if src not in _FLOATS:  # integers and float8 sources are clipped in float32
        x, src = n.op("cast")(x, "float32"), "float32"
    top = float(ml_dtypes.finfo(numpy_dtype(dst)).max)
    return n.op("cast")(n.op("clip")(x, -top, top), dst)


def _cast_to_e8m0(n: Node, x: E.Expr, src: str, saturate: bool, round_mode: str) -> E.Expr:
    """Cast to FLOAT8E8M0 (ONNX's ``to_float8e8m0``, on the float32 value): the exponent of
    ``|x|`` ("down": ``relay.cast``), plus one where ``|x|`` is not a power of two ("up", the
    default: also every nonzero float32 subnormal, whose exponent field is 0); with
    ``saturate`` 2^127 stays 2^127 (else it becomes NaN); inf and NaN give NaN."""
    if round_mode not in ("up", "down"):
        raise n.unsupported(f"Cast to float8_e8m0fnu with round_mode '{round_mode}' (only 'up' "
                            "and 'down')")
    if src != "float32":
        x = n.op("cast")(x, "float32")
    a = n.op("abs")(x)
    down = n.op("cast")(a, "float8_e8m0fnu")
    if round_mode == "down":
        return down
    f32 = "float32"
    d = n.op("cast")(down, f32)
    tiny = n.op("logical_and")(n.op("greater")(a, n.scalar(0.0, dtype=f32)),
                               n.op("less")(a, n.scalar(2.0 ** -126, dtype=f32)))
    up = n.op("logical_or")(n.op("greater")(a, d), tiny)
    if saturate:
        up = n.op("logical_and")(up, n.op("less")(d, n.scalar(2.0 ** 127, dtype=f32)))
    u = n.op("where")(up, n.op("multiply")(d, n.scalar(2.0, dtype=f32)), d)
    return n.op("cast")(u, "float8_e8m0fnu")
