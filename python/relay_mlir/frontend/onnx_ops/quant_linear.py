"""ONNX's integer and QLinear operators with onnxruntime's arithmetic: ConvInteger,
MatMulInteger, QLinearConv, QLinearMatMul, DynamicQuantizeLinear.

The contraction is exact integer work (int32 sums of ``(x - zp_x)(w - zp_w)``,
the input padded with its zero point); QLinear ops then rescale as
onnxruntime's MLAS does: ``float32(acc) * (x_scale * w_scale / y_scale)``
(float32; per output channel for a per-channel weight), rounded half to even,
plus the output zero point, saturated. Quantization parameters that are
constants are checked: scales positive and finite, zero points inside their
dtype, per-channel lengths equal to the channel count.

    >>> import numpy as np
    >>> from onnx import TensorProto, helper
    >>> from relay_mlir.frontend import from_onnx
    >>> node = helper.make_node("MatMulInteger", ["a", "b"], ["y"])
    >>> g = helper.make_graph([node], "g", [helper.make_tensor_value_info("a", TensorProto.UINT8, [2, 3]),
    ...                                    helper.make_tensor_value_info("b", TensorProto.INT8, [3, 2])],
    ...                       [helper.make_tensor_value_info("y", TensorProto.INT32, [2, 2])])
    >>> mod = from_onnx(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]))
    >>> import relay_mlir as relay
    >>> run = relay.create_executor("debug", mod=mod).evaluate()
    >>> run(np.array([[1, 2, 3], [4, 5, 6]], "uint8"), np.array([[1, -1], [2, 0], [-3, 1]], "int8"))
    array([[-4,  2],
           [-4,  2]], dtype=int32)
"""
from __future__ import annotations

import copy
from typing import Optional

import numpy as np

from ...expr import Constant
from ..common import ROUNDING_MAGIC, round_half_to_even, round_half_to_even_clipped
from . import nn as _nn
from ._base import Node, register
from .quant_contract import conv_i8, matmul_i8

_RANGES = {"uint8": (0, 255), "int8": (-128, 127)}


# -- quantization parameters ---------------------------------------------------------------
def check_scale(n: Node, i: int, what: str, channels: Optional[int] = None) -> None:
    """A constant scale must be positive and finite, 0-d/1 element or ``channels`` long."""
    if not n.is_const(i):
        return
    s = n.const(i).astype(np.float64).reshape(-1)
    bad = np.flatnonzero(~np.isfinite(s) | (s <= 0))
    if bad.size:
        raise n.invalid(f"input {i} ({what}) must be positive and finite, got {s[bad[0]]:g}"
                        + (f" at index {bad[0]}" if s.size > 1 else ""))
    if s.size != 1 and (channels is None or s.size != channels):
        raise n.invalid(f"input {i} ({what}) must have 1 element"
                        + (f" or one per channel ({channels})" if channels is not None else "")
                        + f", got {s.size}")


def check_zero_point(n: Node, i: int, what: str, dtype: str, channels: Optional[int] = None) -> None:
    """A constant zero point must be of ``dtype``'s range, 1 element or ``channels`` long."""
    if not n.has(i) or not n.is_const(i):
        return
    z = n.const(i).reshape(-1)
    if z.dtype.name != dtype:
        raise n.invalid(f"input {i} ({what}) must be {dtype} like the data it describes, got {z.dtype.name}")
    if z.size != 1 and (channels is None or z.size != channels):
        raise n.invalid(f"input {i} ({what}) must have 1 element"
                        + (f" or one per channel ({channels})" if channels is not None else "")
                        + f", got {z.size}")


def _quantized_dtype(n: Node, i: int, what: str) -> str:
    dt = n.dtype(i)
    if dt not in _RANGES:
        raise n.unsupported(f"input {i} ({what}) of dtype {dt} (uint8 or int8 are)")
    return dt


def shifted(n: Node, i: int, zp_index: Optional[int], axis: int = 0):
    """Input ``i`` as int32 minus its zero point (input ``zp_index``, 0-d or along ``axis``)."""
    rank = n.rank(i)
    if n.is_const(i) and (zp_index is None or not n.has(zp_index) or n.is_const(zp_index)):
        x = n.const(i).astype(np.int32)
        if zp_index is not None and n.has(zp_index):
            z = n.const(zp_index).astype(np.int32).reshape(-1)
            shape = [1] * rank
            if z.size > 1:
                shape[axis] = z.size
            x = x - (z.reshape(shape) if z.size > 1 else z[0])
        return x
    x = n.op("cast")(n.expr(i), "int32")
    if zp_index is None or not n.has(zp_index):
        return x
    z = n.op("cast")(n.expr(zp_index), "int32")
    zs = n.shape(zp_index)
    if zs and len(zs) == 1 and zs[0] != 1:
        shape = [1] * rank
        shape[axis] = -1
        z = n.op("reshape")(z, shape)
    elif zs and len(zs) == 1:
        z = n.op("reshape")(z, [])
    return n.op("subtract")(x, z)


def _sub_node(n: Node, inputs, types) -> Node:
    """A view of ``n`` whose inputs are ``inputs`` (expressions or arrays) of ``types``."""
    m = copy.copy(n)
    m.inputs = list(inputs)
    m.in_types = list(types)
    m.syms = [None] * len(inputs)
    return m


def _int32_type(n: Node, i: int):
    return (n.shape(i), "int32")


def integer_conv(n: Node, x: int, xz: Optional[int], w: int, wz: Optional[int],
                 bias: Optional[int] = None):
    """int32 Conv of ``(x - xz)`` and ``(w - wz)`` (per output channel), plus input
    ``bias`` (int32) when given: int8 x int8 -> int32 where quant_contract applies."""
    y = conv_i8(n, x, xz, w, wz, bias)
    if y is not None:
        return y
    inputs = [shifted(n, x, xz), shifted(n, w, wz, 0)]
    types = [_int32_type(n, x), _int32_type(n, w)]
    if bias is not None:
        inputs.append(n.inputs[bias])
        types.append(n.in_types[bias])
    return _nn._conv(_sub_node(n, inputs, types))


def integer_matmul(n: Node, a: int, az: Optional[int], b: int, bz: Optional[int]):
    """int32 MatMul of ``(a - az)`` and ``(b - bz)`` (bz per column of b): int8 x int8 -> int32
    where quant_contract applies."""
    y = matmul_i8(n, a, az, b, bz)
    if y is not None:
        return y
    rb = n.rank(b)
    inputs = [shifted(n, a, az), shifted(n, b, bz, rb - 1)]
    return _nn._matmul(_sub_node(n, inputs, [_int32_type(n, a), _int32_type(n, b)]))


def _along(n: Node, v, size: int, channel_axis: int, rank: int):
    """A 1-D parameter of ``size`` entries shaped to broadcast along ``channel_axis``."""
    shape = [1] * rank
    shape[channel_axis] = size
    if isinstance(v, np.ndarray):
        return v.reshape(shape) if size > 1 else v.reshape(())
    return n.op("reshape")(v, shape if size > 1 else [])


def _param_f32(n: Node, i: int):
    """Input ``i`` (a scale) as float32: an array when constant, else an expression."""
    if n.is_const(i):
        return n.const(i).astype(np.float32).reshape(-1)
    return n.op("cast")(n.expr(i), "float32") if n.dtype(i) != "float32" else n.expr(i)


def multiplier(n: Node, x_scale: int, w_scale: int, y_scale: int, channel_axis: int, rank: int):
    """``x_scale * w_scale / y_scale`` in float32 (w_scale per channel along ``channel_axis``)."""
    xs, ws, ys = (_param_f32(n, i) for i in (x_scale, w_scale, y_scale))
    wshape = n.shape(w_scale)
    size = 1 if not wshape else int(np.prod([d or 1 for d in wshape]))
    if all(isinstance(v, np.ndarray) for v in (xs, ws, ys)):
        return n.constant(_along(n, xs * ws / ys, size, channel_axis, rank))
    c = lambda v: n.constant(v) if isinstance(v, np.ndarray) else v  # noqa: E731
    xs_, ys_ = (c(v.reshape(())) if isinstance(v, np.ndarray) else n.op("reshape")(v, [])
                for v in (xs, ys))
    ws_ = c(_along(n, ws, size, channel_axis, rank)) if isinstance(ws, np.ndarray) \
        else _along(n, ws, size, channel_axis, rank)
    return n.op("divide")(n.op("multiply")(xs_, ws_), ys_)


def _round_half_even_finite(n: Node, x):
    """``round_half_to_even`` of a finite ``x`` (an int32 accumulator times a constant,
    checked multiplier) that is then saturated to 8 bits: ``x`` clipped to
    +-2^22 (no saturated result changes), plus and minus 1.5 * 2^23. Between 2^23 and 2^24
    float32's spacing is 1, so the addition rounds to an integer, ties to even (the
    constant is even), and the subtraction is exact: 4 elementwise ops where the
    ``round``/``trunc`` form took 11 (the requantize epilogues were ~40% of MobileNetV2
    int8). Only elementwise unary and binary ops, so relay-convert-layout sinks the NHWC
    convolution's transposes through the epilogue (``where`` is ternary)."""
    return round_half_to_even_clipped(x, n.constant(np.float32(ROUNDING_MAGIC)))


def requantize_ort(n: Node, acc, mult, zp_index: Optional[int], out_dtype: str):
    """onnxruntime's requantize: ``float32(acc) * mult`` rounded half to even, plus the
    zero point (input ``zp_index``, 0 if absent), saturated to ``out_dtype``."""
    f = n.op("multiply")(n.op("cast")(acc, "float32"), mult)
    half = n.constant(np.float32(0.5))
    r = _round_half_even_finite(n, f) if isinstance(mult, Constant) else round_half_to_even(f, half)
    if zp_index is not None and n.has(zp_index):
        z = n.const(zp_index).astype(np.float32).reshape(()) if n.is_const(zp_index) else None
        zexpr = n.constant(z) if z is not None else n.op("reshape")(n.op("cast")(n.expr(zp_index), "float32"), [])
        r = n.op("add")(r, zexpr)
    lo, hi = _RANGES[out_dtype]
    return n.op("cast")(n.op("clip")(r, float(lo), float(hi)), out_dtype)


def _check_params(n: Node, scales, zero_points) -> None:
    """``scales``: (index, name, channels); ``zero_points``: (index, name, dtype, channels)."""
    for i, what, ch in scales:
        check_scale(n, i, what, ch)
    for i, what, dt, ch in zero_points:
        check_zero_point(n, i, what, dt, ch)


# -- the operators ---------------------------------------------------------------------------
@register("ConvInteger", since=10)
def _conv_integer(n: Node):
    x_dt = _quantized_dtype(n, 0, "x")
    w_dt = _quantized_dtype(n, 1, "w")
    out_ch = n.static_shape(1, "w")[0]
    check_zero_point(n, 2, "x_zero_point", x_dt)
    check_zero_point(n, 3, "w_zero_point", w_dt, out_ch)
    return integer_conv(n, 0, 2 if n.has(2) else None, 1, 3 if n.has(3) else None)


@register("MatMulInteger", since=10)
def _matmul_integer(n: Node):
    a_dt = _quantized_dtype(n, 0, "A")
    b_dt = _quantized_dtype(n, 1, "B")
    check_zero_point(n, 2, "a_zero_point", a_dt)
    sb = n.shape(1)
    check_zero_point(n, 3, "b_zero_point", b_dt, None if sb is None else sb[-1])
    return integer_matmul(n, 0, 2 if n.has(2) else None, 1, 3 if n.has(3) else None)


@register("QLinearConv", since=10)
def _qlinear_conv(n: Node):
    # inputs: x, x_scale, x_zero_point, w, w_scale, w_zero_point, y_scale, y_zero_point, B
    x_dt, w_dt = _quantized_dtype(n, 0, "x"), _quantized_dtype(n, 3, "w")
    y_dt = n.dtype(7) if n.has(7) else x_dt
    out_ch = n.static_shape(3, "w")[0]
    _check_params(n, [(1, "x_scale", None), (4, "w_scale", out_ch), (6, "y_scale", None)],
                  [(2, "x_zero_point", x_dt, None), (5, "w_zero_point", w_dt, out_ch),
                   (7, "y_zero_point", y_dt, None)])
    if n.has(8) and n.dtype(8) != "int32":
        raise n.invalid(f"input 8 (B) must be int32, got {n.dtype(8)}")
    acc = integer_conv(n, 0, 2, 3, 5, 8 if n.has(8) else None)
    return requantize_ort(n, acc, multiplier(n, 1, 4, 6, 1, n.rank(0)), 7, y_dt)


@register("QLinearMatMul", since=10)
def _qlinear_matmul(n: Node):
    # inputs: a, a_scale, a_zero_point, b, b_scale, b_zero_point, y_scale, y_zero_point
    a_dt, b_dt = _quantized_dtype(n, 0, "a"), _quantized_dtype(n, 3, "b")
    y_dt = n.dtype(7)
    sb = n.shape(3)
    cols = None if sb is None else sb[-1]
    for i in (1, 4):
        if n.shape(i) and len(n.shape(i)) > 1:
            raise n.unsupported(f"input {i}: scales of rank > 1 (per-row/per-batch quantization)")
    _check_params(n, [(1, "a_scale", None), (4, "b_scale", cols), (6, "y_scale", None)],
                  [(2, "a_zero_point", a_dt, None), (5, "b_zero_point", b_dt, cols),
                   (7, "y_zero_point", y_dt, None)])
    acc = integer_matmul(n, 0, 2, 3, 5)
    rank = max(n.rank(0), n.rank(3))
    return requantize_ort(n, acc, multiplier(n, 1, 4, 6, rank - 1, rank), 7, y_dt)


@register("DynamicQuantizeLinear", since=11)
def _dynamic_quantize_linear(n: Node):
    """uint8 always: scale = (max(0, max x) - min(0, min x)) / 255 (1 for an all-zero x, as
    onnxruntime), zero point
    round_half_even(-min / scale) saturated, y = saturate(round_half_even(x / scale) + zp)."""
    if n.dtype(0) != "float32":
        raise n.unsupported(f"DynamicQuantizeLinear of {n.dtype(0)} (float32 is)")
    x = n.expr(0)
    zero = n.constant(np.float32(0))
    half = n.constant(np.float32(0.5))
    lo = n.op("minimum")(n.op("min")(x), zero)
    hi = n.op("maximum")(n.op("max")(x), zero)
    scale = n.op("divide")(n.op("subtract")(hi, lo), n.constant(np.float32(255)))
    # onnxruntime: an all-zero input (max == min == 0) gets the scale 1
    scale = n.op("where")(n.op("equal")(hi, lo), n.constant(np.float32(1)), scale)
    zp = round_half_to_even(n.op("subtract")(zero, n.op("divide")(lo, scale)), half)
    zp = n.op("clip")(zp, 0.0, 255.0)
    q = round_half_to_even(n.op("divide")(x, scale), half)
    q = n.op("clip")(n.op("add")(q, zp), 0.0, 255.0)
    return [n.op("cast")(q, "uint8"), scale, n.op("cast")(zp, "uint8")]
