"""ADD, SUB, MUL, the activations (RELU, RELU6, LOGISTIC, TANH, HARD_SWISH, LEAKY_RELU,
SOFTMAX) and QUANTIZE / DEQUANTIZE.

Quantized ADD / SUB / MUL are ``qnn.add`` / ``qnn.subtract`` / ``qnn.mul`` (integer
rescaling of each operand; TFLite's kernels rescale with their own fixed-point
multipliers, so the two can differ by one step at a rounding tie). LOGISTIC, TANH
and HARD_SWISH are the qnn lookup-table ops (every int8 value dequantized, the float
function applied, quantized: TFLite's int8 LUT kernels are built the same way);
LEAKY_RELU is ``qnn.leaky_relu``; RELU/RELU6 with equal input and output parameters
are integer clamps; SOFTMAX goes through float.
"""
from __future__ import annotations

import numpy as np

from ... import expr as _expr
from ... import op as _op
from ...qnn import op as _qnn
from ._base import ACT_RELU, ACT_RELU6, Op, register
from ._quant import (RANGES, activation_range, fused_activation, multiply_by_quantized_multiplier,
                     quantized_output, saturate, via_float)

_BINARY = {"ADD": (_op.add, _qnn.add, "AddOptions"),
           "SUB": (_op.subtract, _qnn.subtract, "SubOptions"),
           "MUL": (_op.multiply, None, "MulOptions")}


@register("ADD", "SUB", "MUL")
def binary(op: Op) -> _expr.Expr:
    """Broadcasting ``lhs (+|-|*) rhs`` with the fused activation."""
    float_fn, qnn_fn, opts_name = _BINARY[op.name]
    opts = op.options(opts_name)
    act = opts.FusedActivationFunction() if opts is not None else 0
    if not op.quantized:
        return fused_activation(op, float_fn(op.expr(0), op.expr(1)), act)
    a, b, y = op.qparams(0), op.qparams(1), op.out_qparams()
    for q, i in ((a, 0), (b, 1)):
        if q.per_channel:
            raise op.unsupported(f"per-channel quantization of input {i} is not supported", op.inputs[i])
        if op.dtype(i) != op.out_dtype():
            raise op.unsupported(f"input {i} is {op.dtype(i)} and the output {op.out_dtype()}; "
                                 "mixed dtypes are not supported", op.inputs[i])
    if qnn_fn is None:
        return _quantized_mul(op, a, b, act)
    z = qnn_fn(op.expr(0), op.expr(1), a.scale_expr(), a.zp_expr(), b.scale_expr(), b.zp_expr(),
               y.scale_expr(), y.zp_expr())
    return fused_activation(op, z, act)


def _minus_zp(op: Op, i: int, zp: int) -> _expr.Expr:
    """int32 ``input_i - zp``."""
    return _op.subtract(_op.cast(op.expr(i), "int32"), _expr.const(np.int32(zp)))


def _quantized_mul(op: Op, a, b, act: int) -> _expr.Expr:
    """TFLite's integer MUL: ``(x - x_zp)(y - y_zp)`` in int32 times
    ``double(x_scale) * double(y_scale) / double(out_scale)`` in fixed point, plus the
    output zero point, clamped (``qnn.mul`` multiplies the scales in float32 first and
    can land one step away)."""
    prod = _op.multiply(_minus_zp(op, 0, a.zp), _minus_zp(op, 1, b.zp))
    y = op.out_qparams()
    real = np.float64(a.scale[0]) * np.float64(b.scale[0]) / np.float64(y.scale[0])
    z = multiply_by_quantized_multiplier(op, prod, real, len(op.out_shape()))
    return saturate(op, _op.add(z, _expr.const(np.int32(y.zp))), act)


def _same_params(op: Op) -> bool:
    a, y = op.qparams(0), op.out_qparams()
    return (op.dtype(0) == op.out_dtype() and np.array_equal(a.scale, y.scale)
            and np.array_equal(a.zero_point, y.zero_point))


@register("RELU", "RELU6")
def relu(op: Op) -> _expr.Expr:
    """max(x, 0) / clip(x, 0, 6); quantized with the output's parameters an integer clamp."""
    act = ACT_RELU if op.name == "RELU" else ACT_RELU6
    if op.quantized and _same_params(op):
        lo, hi = activation_range(op, act)
        return _op.clip(op.expr(0), lo, hi)
    return via_float(op, lambda x: fused_activation_float(x, act))


def fused_activation_float(x: _expr.Expr, act: int) -> _expr.Expr:
    return _op.nn.relu(x) if act == ACT_RELU else _op.clip(x, 0.0, 6.0)


_LOOKUP = {"LOGISTIC": (_op.sigmoid, _qnn.sigmoid), "TANH": (_op.tanh, _qnn.tanh),
           "HARD_SWISH": (None, _qnn.hardswish)}


def _hard_swish(x: _expr.Expr) -> _expr.Expr:
    """``x * relu6(x + 3) / 6`` (TFLite HARD_SWISH)."""
    three, six = _expr.const(np.float32(3.0)), _expr.const(np.float32(6.0))
    return _op.divide(_op.multiply(x, _op.clip(_op.add(x, three), 0.0, 6.0)), six)


@register("LOGISTIC", "TANH", "HARD_SWISH")
def lookup(op: Op) -> _expr.Expr:
    """Element-wise functions TFLite tabulates for int8/uint8."""
    float_fn, qnn_fn = _LOOKUP[op.name]
    if not op.quantized:
        return (float_fn or _hard_swish)(op.expr(0))
    if op.out_dtype() not in ("int8", "uint8"):
        raise op.unsupported(f"{op.out_dtype()} {op.name} is not supported (int8, uint8)")
    a, y = op.qparams(0), op.out_qparams()
    return qnn_fn(op.expr(0), a.scale_expr(), a.zp_expr(), y.scale_expr(), y.zp_expr())


@register("LEAKY_RELU")
def leaky_relu(op: Op) -> _expr.Expr:
    """x if x >= 0 else alpha * x; quantized as TFLite: ``x - x_zp`` times the fixed-point
    multiplier ``x_scale / y_scale`` or ``alpha * x_scale / y_scale`` by its sign, plus the
    output zero point (TVM's ``qnn.leaky_relu`` rounds differently: ~10% of values one
    step away)."""
    opts = op.options("LeakyReluOptions")
    alpha = float(np.float32(opts.Alpha())) if opts is not None else 0.2
    if not op.quantized:
        return _op.nn.leaky_relu(op.expr(0), alpha)
    a, y = op.qparams(0), op.out_qparams()
    x = _minus_zp(op, 0, a.zp)
    rank, ratio = len(op.out_shape()), np.float64(a.scale[0]) / np.float64(y.scale[0])
    pos = multiply_by_quantized_multiplier(op, x, ratio, rank)
    neg = multiply_by_quantized_multiplier(op, x, np.float64(np.float32(alpha)) * ratio, rank)
    z = _op.where(_op.greater_equal(x, _expr.const(np.int32(0))), pos, neg)
    return saturate(op, _op.add(z, _expr.const(np.int32(y.zp))))


@register("SOFTMAX")
def softmax(op: Op) -> _expr.Expr:
    """softmax(beta * x) over the last axis."""
    opts = op.options("SoftmaxOptions")
    beta = float(opts.Beta()) if opts is not None else 1.0

    def fn(x):
        if beta != 1.0:
            x = _op.multiply(x, _expr.const(np.float32(beta)))
        return _op.nn.softmax(x, axis=-1)
    return via_float(op, fn)


@register("QUANTIZE")
def quantize(op: Op) -> _expr.Expr:
    """float -> integers (``round(x / scale) + zp``), or integers -> integers of other
    parameters (``qnn.requantize``, e.g. a uint8 model input to the int8 graph)."""
    y = op.out_qparams()
    if op.out_dtype() not in RANGES:
        raise op.unsupported(f"QUANTIZE to {op.out_dtype()} is not supported (int8, uint8, int16)")
    if op.dtype(0) == "float32":
        return quantized_output(op, op.expr(0))
    a = op.qparams(0)
    return _qnn.requantize(op.expr(0), a.scale_expr(), a.zp_expr(), y.scale_expr(), y.zp_expr(),
                           axis=a.axis, rounding="TONEAREST", out_dtype=op.out_dtype())


@register("DEQUANTIZE")
def dequantize(op: Op) -> _expr.Expr:
    """integers -> float32 (``scale * (q - zp)``); float16 constants -> float32."""
    if op.dtype(0) == "float16":
        return _op.cast(op.expr(0), "float32")
    a = op.qparams(0)
    return _qnn.dequantize(op.expr(0), a.scale_expr(), a.zp_expr(), axis=a.axis)
