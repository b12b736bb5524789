"""ADD, SUB, MUL, the activations (RELU, RELU6, LOGISTIC, TANH, HARD_SWISH, LEAKY_RELU,
SOFTMAX) and QUANTIZE / DEQUANTIZE.

Quantized ADD / SUB / MUL, LEAKY_RELU, QUANTIZE (integer to integer) are TFLite's
integer kernels, every rescale TFLite's fixed-point multiply (``_quant.py``): TVM's
``qnn.add`` / ``qnn.mul`` / ``qnn.leaky_relu`` round differently and land a step away
on some values. LOGISTIC and TANH are the qnn lookup-table ops (every int8 value
dequantized, the float function applied, quantized: equal to TFLite's int8 kernels
on every input tested); HARD_SWISH a table of TFLite's own kernel (hard_swish.py); RELU / RELU6 with equal input and output parameters
are integer clamps, otherwise (like SOFTMAX) dequantize -> float -> quantize.
"""
from __future__ import annotations

import numpy as np

from ... import expr as _expr
from ... import op as _op
from ...qnn import op as _qnn
from ._base import ACT_RELU, ACT_RELU6, Op, register
from .hard_swish import quantized_hard_swish
from ._quant import (RANGES, activation_range, fused_activation, multiply_by_quantized_multiplier,
                     quantized_output, saturate, via_float)

_FLOAT = {"ADD": _op.add, "SUB": _op.subtract, "MUL": _op.multiply}


@register("ADD", "SUB", "MUL")
def binary(op: Op) -> _expr.Expr:
    """Broadcasting ``lhs (+|-|*) rhs`` with the fused activation."""
    opts = op.options({"ADD": "AddOptions", "SUB": "SubOptions", "MUL": "MulOptions"}[op.name])
    act = opts.FusedActivationFunction() if opts is not None else 0
    if not op.quantized:
        return fused_activation(op, _FLOAT[op.name](op.expr(0), op.expr(1)), act)
    a, b = op.qparams(0), op.qparams(1)
    for q, i in ((a, 0), (b, 1)):
        if q.per_channel:
            raise op.unsupported(f"per-channel quantization of input {i} is not supported", op.inputs[i])
        if op.dtype(i) != op.out_dtype() or op.out_dtype() == "int16":
            raise op.unsupported(f"input {i} is {op.dtype(i)} and the output {op.out_dtype()}; "
                                 "int8 or uint8 throughout is supported", op.inputs[i])
    if op.name == "MUL":
        return _quantized_mul(op, a, b, act)
    return _quantized_add(op, a, b, act)


def _minus_zp(op: Op, i: int, zp: int) -> _expr.Expr:
    """int32 ``input_i - zp``."""
    return _op.subtract(_op.cast(op.expr(i), "int32"), _expr.const(np.int32(zp)))


def _quantized_add(op: Op, a, b, act: int) -> _expr.Expr:
    """TFLite's integer ADD / SUB (int8, uint8): each ``x - zp`` shifted left by 20 and
    rescaled by ``scale / (2 * max scale)``, added (subtracted), rescaled by
    ``2 * max scale / (2^20 * out_scale)``, plus the output zero point, clamped; every
    rescale a fixed-point multiply. (TVM's ``qnn.add`` rescales each operand straight to
    the output scale and lands a step away on ~7% of values when the scales differ.)"""
    y = op.out_qparams()
    rank = len(op.out_shape())
    twice_max = 2.0 * max(np.float64(a.scale[0]), np.float64(b.scale[0]))
    shifted = [_op.multiply(_minus_zp(op, i, q.zp), _expr.const(np.int32(1 << 20))) for i, q in ((0, a), (1, b))]
    lhs = multiply_by_quantized_multiplier(op, shifted[0], np.float64(a.scale[0]) / twice_max, rank)
    rhs = multiply_by_quantized_multiplier(op, shifted[1], np.float64(b.scale[0]) / twice_max, rank)
    total = _op.add(lhs, rhs) if op.name == "ADD" else _op.subtract(lhs, rhs)
    out = multiply_by_quantized_multiplier(op, total, twice_max / ((1 << 20) * np.float64(y.scale[0])), rank)
    return saturate(op, _op.add(out, _expr.const(np.int32(y.zp))), act)


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
           "HARD_SWISH": (None, None)}


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
    if qnn_fn is None:
        return quantized_hard_swish(op)
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
    parameters (e.g. a uint8 model input to the int8 graph) as TFLite's ``Requantize``:
    ``x - x_zp`` times the fixed-point ``x_scale / y_scale``, plus ``y_zp``, saturated."""
    y = op.out_qparams()
    if op.out_dtype() not in RANGES:
        raise op.unsupported(f"QUANTIZE to {op.out_dtype()} is not supported (int8, uint8, int16)")
    if op.dtype(0) == "float32":
        return quantized_output(op, op.expr(0))
    a = op.qparams(0)
    if a.per_channel or y.per_channel:
        raise op.unsupported("per-channel QUANTIZE of an integer tensor is not supported")
    real = np.float64(a.scale[0]) / np.float64(y.scale[0])
    z = multiply_by_quantized_multiplier(op, _minus_zp(op, 0, a.zp), real, len(op.out_shape()))
    return saturate(op, _op.add(z, _expr.const(np.int32(y.zp))))


@register("DEQUANTIZE")
def dequantize(op: Op) -> _expr.Expr:
    """integers -> float32 (``scale * (q - zp)``, per channel along the quantized
    dimension); float16 -> float32. A constant input (float16 or int8 weights of a
    float model) is converted at import, so the weights stay constants."""
    if op.dtype(0) == "float16":
        if op.is_const(0):
            return _folded(op, op.const(0).astype(np.float32))
        return _op.cast(op.expr(0), "float32")
    a = op.qparams(0)
    if op.is_const(0):
        q = op.const(0).astype(np.int32)
        shape = [-1 if d == a.axis % max(q.ndim, 1) else 1 for d in range(q.ndim)] if a.per_channel else [1]
        zp, scale = a.zero_point.reshape(shape), a.scale.reshape(shape)
        return _folded(op, ((q - zp).astype(np.float32) * scale).astype(np.float32))
    return _qnn.dequantize(op.expr(0), a.scale_expr(), a.zp_expr(), axis=a.axis)


def _folded(op: Op, value: np.ndarray) -> _expr.Expr:
    op.graph.folded[op.outputs[0]] = value
    return _expr.const(value)
