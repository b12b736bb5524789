"""Quantization ONNX ops: QuantizeLinear, DequantizeLinear (per tensor, per axis, blocked; to and
from int4/uint4/int2/uint2 and float8 too: docs/quantization.md "Narrow element types")."""
from __future__ import annotations

import numpy as np

from ...narrow_dtypes import FLOAT8S
from ..common import ROUNDING_MAGIC, round_half_to_even, round_half_to_even_clipped
from ._base import Node, register
from .elementwise import _onnx_dtype
from .narrow_cast import cast_to_narrow

_RANGES = {"uint8": (0, 255), "int8": (-128, 127), "uint16": (0, 65535), "int16": (-32768, 32767),
           "uint4": (0, 15), "int4": (-8, 7), "uint2": (0, 3), "int2": (-2, 1)}


def _per_axis(n: Node, i: int, rank: int):
    """Input ``i`` (a scale or zero point) shaped to broadcast along ``axis`` (or
    expanded to x's shape for blocked quantization)."""
    block = _block_size(n)
    if block:
        return _per_block(n, i, rank, block)
    s = n.shape(i)
    if s is None:
        raise n.unsupported(f"the rank of input {i} is unknown")
    if len(s) == 0 or (len(s) == 1 and s[0] == 1):
        return n.expr(i), None
    if len(s) != 1:
        raise n.unsupported("blocked quantization (scale of rank > 1)")
    axis = n.axis("axis", rank, 1)
    shape = [1] * rank
    shape[axis] = s[0] if s[0] is not None else -1  # (reshape infers the one unknown dim)
    if n.is_const(i):
        return n.constant(n.const(i).reshape(shape)), axis
    return n.op("reshape")(n.expr(i), shape), axis


def _block_size(n: Node) -> int:
    """``block_size`` (opset >= 21; 0: per tensor or per axis)."""
    b = int(n.attr("block_size", 0)) if n.opset >= 21 else 0
    if b < 0:
        raise n.invalid(f"block_size must be >= 0, got {b}")
    return b


def _per_block(n: Node, i: int, rank: int, block: int):
    """Input ``i`` of blocked quantization (ONNX-21: the shape of x with ``axis`` divided by
    ``block_size``, rounded up) repeated ``block_size`` times along ``axis`` and cut to x's dim."""
    axis = n.axis("axis", rank, 1)
    xs, s = n.static_shape(0, "x"), n.static_shape(i, f"input {i}")
    want = [d if k != axis else -(-d // block) for k, d in enumerate(xs)]
    if list(s) != want:
        raise n.invalid(f"input {i} of blocked quantization has shape {list(s)}, x {list(xs)} with "
                        f"block_size {block} along axis {axis} needs {want}")
    if n.is_const(i):
        return n.constant(np.repeat(n.const(i), block, axis).take(range(xs[axis]), axis)), axis
    rep = n.op("repeat")(n.expr(i), block, axis)
    return n.op("strided_slice")(rep, [0], [xs[axis]], axes=[axis]), axis


@register("QuantizeLinear", since=10)
def _quantize(n: Node):
    saturate = bool(n.attr("saturate", 1)) if n.opset >= 19 else True  # (float8 only)
    out_dt = n.dtype(2) if n.has(2) else "uint8"
    if n.opset >= 23 and n.has_attr("output_dtype") and not n.has(2):
        out_dt = _onnx_dtype(n, n.attr("output_dtype"))
    n.ignore("output_dtype", "precision")
    if out_dt in FLOAT8S:
        return _quantize_float8(n, out_dt, saturate)
    if out_dt not in _RANGES:
        raise n.unsupported(f"quantizing to {out_dt}")
    r = n.rank(0)
    n.ignore("axis")
    scale, _ = _per_axis(n, 1, r)
    x = n.expr(0)
    fdt = n.dtype(1)
    if n.dtype(0) != fdt:
        x = n.op("cast")(x, fdt)
    # ONNX rounds halves to even (relay.round: away from zero, as TVM); every range saturated
    # to is within +-2^22, so in float32 the short form rounds
    q = n.op("divide")(x, scale)
    q = (round_half_to_even_clipped(q, n.scalar(ROUNDING_MAGIC, dtype=fdt)) if fdt == "float32"
         else round_half_to_even(q, n.scalar(0.5, dtype=fdt)))
    if n.has(2):
        zp, _ = _per_axis(n, 2, r)
        q = n.op("add")(q, n.op("cast")(zp, fdt))
    lo, hi = _RANGES[out_dt]
    q = n.op("minimum")(n.op("maximum")(q, n.scalar(float(lo), dtype=fdt)), n.scalar(float(hi), dtype=fdt))
    return n.op("cast")(q, out_dt)


def _quantize_float8(n: Node, out_dt: str, saturate: bool):
    """QuantizeLinear to a float8 type, as ONNX 1.23's reference: ``x / scale`` cast with
    Cast's float8 rules (``saturate``); the zero point gives only the type (the spec
    requires it to be 0) and is not added."""
    if out_dt == "float8_e8m0fnu":
        raise n.unsupported("quantizing to float8_e8m0fnu")
    scale, _ = _per_axis(n, 1, n.rank(0))
    n.ignore("axis")
    fdt = n.dtype(1)
    x = n.expr(0) if n.dtype(0) == fdt else n.op("cast")(n.expr(0), fdt)
    return cast_to_narrow(n, n.op("divide")(x, scale), fdt, out_dt, saturate)


@register("DequantizeLinear", since=10)
def _dequantize(n: Node):
    n.ignore("output_dtype")
    if n.dtype(0) not in _RANGES and n.dtype(0) not in ("int32", *FLOAT8S):
        raise n.unsupported(f"dequantizing {n.dtype(0)}")
    r = n.rank(0)
    n.ignore("axis")
    scale, _ = _per_axis(n, 1, r)
    fdt = n.dtype(1)
    x = n.op("cast")(n.expr(0), fdt)
    if n.has(2):
        zp, _ = _per_axis(n, 2, r)
        x = n.op("subtract")(x, n.op("cast")(zp, fdt))
    return n.op("multiply")(x, scale)
