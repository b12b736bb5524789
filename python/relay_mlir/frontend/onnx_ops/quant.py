"""Quantization ONNX ops: QuantizeLinear, DequantizeLinear (per-tensor and per-axis)."""
from __future__ import annotations


from ..common import round_half_to_even
from ._base import Node, register
from .elementwise import _onnx_dtype

_RANGES = {"uint8": (0, 255), "int8": (-128, 127), "uint16": (0, 65535), "int16": (-32768, 32767)}


def _per_axis(n: Node, i: int, rank: int):
    """Input ``i`` (a scale or zero point) shaped to broadcast along ``axis``."""
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


def _check_block(n: Node) -> None:
    if n.opset >= 21 and int(n.attr("block_size", 0)) != 0:
        raise n.unsupported("blocked quantization (block_size)")


@register("QuantizeLinear", since=10)
def _quantize(n: Node):
    _check_block(n)
    if n.opset >= 19:
        n.expect("saturate", 1, default=1)
    out_dt = n.dtype(2) if n.has(2) else "uint8"
    if n.opset >= 23 and n.has_attr("output_dtype") and not n.has(2):
        out_dt = _onnx_dtype(n, n.attr("output_dtype"))
    n.ignore("output_dtype", "precision")
    if out_dt not in _RANGES:
        raise n.unsupported(f"quantizing to {out_dt}")
    r = n.rank(0)
    n.ignore("axis")
    scale, _ = _per_axis(n, 1, r)
    x = n.expr(0)
    fdt = n.dtype(1)
    if n.dtype(0) != fdt:
        x = n.op("cast")(x, fdt)
    # ONNX rounds halves to even (relay.round: away from zero, as TVM)
    q = round_half_to_even(n.op("divide")(x, scale), n.scalar(0.5, dtype=fdt))
    if n.has(2):
        zp, _ = _per_axis(n, 2, r)
        q = n.op("add")(q, n.op("cast")(zp, fdt))
    lo, hi = _RANGES[out_dt]
    q = n.op("minimum")(n.op("maximum")(q, n.scalar(float(lo), dtype=fdt)), n.scalar(float(hi), dtype=fdt))
    return n.op("cast")(q, out_dt)


@register("DequantizeLinear", since=10)
def _dequantize(n: Node):
    _check_block(n)
    n.ignore("output_dtype")
    if n.dtype(0) not in _RANGES and n.dtype(0) != "int32":
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
