"""TFLite's arithmetic around an operator: fused activations (float clamps, or the
integer clamp of ``CalculateActivationRangeQuantized``), TFLite's fixed-point
``MultiplyByQuantizedMultiplier`` that rescales integers, and the float round trip
(dequantize -> float -> quantize) for the few quantized operators mapped that way.
"""
from __future__ import annotations

import numpy as np

from ... import expr as _expr
from ... import op as _op
from ...qnn import op as _qnn
from ...qnn.fixed_point import fixed_point
from ._base import ACT_NAMES, ACT_NONE, ACT_RELU, ACT_RELU6, ACT_RELU_N1_TO_1, ACT_TANH, Op

RANGES = {"int8": (-128, 127), "uint8": (0, 255), "int16": (-32768, 32767)}

def fused_activation(op: Op, x: _expr.Expr, act: int) -> _expr.Expr:
    """``x`` through the operator's fused activation (its output tensor's form)."""
    if act == ACT_NONE:
        return x
    if op.quantized:
        lo, hi = activation_range(op, act)
        return _op.clip(x, lo, hi)
    if act == ACT_RELU:
        return _op.nn.relu(x)
    if act == ACT_RELU6:
        return _op.clip(x, 0.0, 6.0)
    if act == ACT_RELU_N1_TO_1:
        return _op.clip(x, -1.0, 1.0)
    if act == ACT_TANH:
        return _op.tanh(x)
    raise op.unsupported(f"fused activation {ACT_NAMES.get(act, act)} is not supported")


def activation_range(op: Op, act: int):
    """TFLite's ``CalculateActivationRangeQuantized``: the activation's bounds in the
    output's integers (``zp + round(bound / scale)``, halves away from zero), within
    the dtype's range."""
    qmin, qmax = RANGES[op.out_dtype()]
    q = op.out_qparams()
    scale, zp = float(q.scale.reshape(-1)[0]), q.zp

    def quant(v: float) -> int:
        return zp + int(np.sign(v / scale) * np.floor(abs(v / scale) + 0.5))
    if act == ACT_RELU:
        return max(qmin, zp), qmax
    if act == ACT_RELU6:
        return max(qmin, zp), min(qmax, quant(6.0))
    if act == ACT_RELU_N1_TO_1:
        return max(qmin, quant(-1.0)), min(qmax, quant(1.0))
    raise op.unsupported(f"fused activation {ACT_NAMES.get(act, act)} on a quantized output is not supported")


def multiply_by_quantized_multiplier(op: Op, x: _expr.Expr, real: np.ndarray, ndim: int,
                                     axis: int = -1) -> _expr.Expr:
    """int32 ``x`` times the real multipliers ``real`` (float64; one, or one per channel
    along ``axis`` of the rank-``ndim`` ``x``) as TFLite's ``MultiplyByQuantizedMultiplier``
    (the double rounding of gemmlowp, which the TFLite interpreter's reference kernels
    use, and its optimized kernels except conv: measured on ai-edge-litert 2.3): each multiplier a Q31 mantissa ``M`` and a shift
    (``frexp``, the mantissa rounded half away from zero); ``x << max(shift, 0)`` times
    ``M``, the high half rounded (``(p + (p >= 0 ? 2^30 : 1 - 2^30)) / 2^31``, truncating),
    then divided by ``2^max(-shift, 0)`` rounding half away from zero. In int64."""
    real = np.asarray(real, np.float64).reshape(-1)
    fps = [fixed_point(float(m)) for m in real]
    if any(s < -31 or s > 30 for _, s in fps):
        raise op.unsupported(f"the rescale factor {real.max():g} is out of the range TFLite's "
                             "fixed point represents", op.outputs[0])
    left = _along([max(s, 0) for _, s in fps], ndim, axis)
    right = _along([max(-s, 0) for _, s in fps], ndim, axis)
    p = _op.multiply(_op.left_shift(_op.cast(x, "int64"), left), _along([m for m, _ in fps], ndim, axis))
    zero, one = _i64(0), _i64(1)
    nonneg = _op.greater_equal(p, zero)
    p = _op.add(p, _op.where(nonneg, _i64(1 << 30), _i64(1 - (1 << 30))))
    s31 = _i64(31)
    high = _op.where(nonneg, _op.right_shift(p, s31), _op.negative(_op.right_shift(_op.negative(p), s31)))
    quot = _op.right_shift(high, right)
    rem = _op.subtract(high, _op.left_shift(quot, right))
    mask = _op.subtract(_op.left_shift(one, right), one)
    threshold = _op.add(_op.right_shift(mask, one), _op.where(_op.less(high, zero), one, zero))
    up = _op.where(_op.greater(rem, threshold), one, zero)
    return _op.cast(_op.add(quot, up), "int32")


def multiply_by_quantized_multiplier_int64(op: Op, x: _expr.Expr, real: np.ndarray, ndim: int,
                                           axis: int = -1) -> _expr.Expr:
    """int64 ``x`` times the real multipliers ``real`` (as in
    :func:`multiply_by_quantized_multiplier`) as TFLite's int64
    ``MultiplyByQuantizedMultiplier`` (its 16x8 kernels with int64 accumulators): the Q31
    mantissa ``M`` reduced to 16 bits (``(M + 2^15) >> 16``, 0x7FFF from 0x7FFF0000 on),
    then a single rounding, ``(x * reduced + 2^(14 - shift)) >> (15 - shift)`` (an
    arithmetic shift: ties upward). Returns int32."""
    real = np.asarray(real, np.float64).reshape(-1)
    fps = [fixed_point(float(m)) for m in real]
    if any(s < -31 or s > 7 for _, s in fps):
        raise op.unsupported(f"the rescale factor {real.max():g} is out of the range TFLite's 16x8 "
                             "fixed point represents", op.outputs[0])
    reduced = [(m + (1 << 15)) >> 16 if m < 0x7FFF0000 else 0x7FFF for m, _ in fps]
    total = [15 - s for _, s in fps]
    p = _op.add(_op.multiply(x, _along(reduced, ndim, axis)), _along([1 << (t - 1) for t in total], ndim, axis))
    return _op.cast(_op.right_shift(p, _along(total, ndim, axis)), "int32")


def _i64(v: int) -> _expr.Expr:
    return _expr.const(int(v), "int64")


def saturate(op: Op, y32: _expr.Expr, act: int = ACT_NONE) -> _expr.Expr:
    """int32 ``y32`` (zero point included) clamped to the fused activation's range
    (the output dtype's without one) and cast to the output dtype."""
    lo, hi = activation_range(op, act) if act != ACT_NONE else RANGES[op.out_dtype()]
    return _op.cast(_op.clip(y32, lo, hi), op.out_dtype())


def requantize_accumulator(op: Op, acc: _expr.Expr, ndim: int, axis: int, act: int,
                           data: int = 0) -> _expr.Expr:
    """An int32 ``sum (x - x_zp)(w - w_zp) + bias`` (rank ``ndim``; input ``data`` is
    ``x``, input 1 the weight ``w``) to the output's integers, as TFLite's conv /
    depthwise conv / transpose conv / fully-connected kernels: times ``double(x_scale) * double(w_scale) /
    double(y_scale)`` (per channel along ``axis`` for a per-channel weight; see
    :func:`multiply_by_quantized_multiplier`), plus the output zero point, clamped to
    the fused activation's range. (``qnn.requantize`` takes float32 scales, so the
    product ``x_scale * w_scale`` would be rounded to float32 first.)"""
    xq, wq, yq = op.qparams(data), op.qparams(1, "weight"), op.out_qparams()
    real = (np.float64(xq.scale[0]) * wq.scale.astype(np.float64)) / np.float64(yq.scale[0])
    y = multiply_by_quantized_multiplier(op, acc, real, ndim, axis)
    return saturate(op, _op.add(y, _expr.const(np.int32(yq.zp))), act)


def _along(values, ndim: int, axis: int) -> _expr.Expr:
    """An int64 constant, one value per channel along ``axis`` of a rank-``ndim`` tensor."""
    v = np.asarray(values, np.int64)
    axis %= ndim
    if v.size == 1:
        return _expr.const(int(v.reshape(-1)[0]), "int64")
    return _expr.const(v.reshape([v.size if d == axis else 1 for d in range(ndim)]), "int64")


def check_bias(op: Op, i: int, channels: int) -> np.ndarray:
    """A quantized operator's bias: an int32 constant of ``channels`` elements."""
    b = op.const(i)
    if b.dtype != np.int32 or b.size != channels:
        raise op.invalid(f"bias (input {i}) must be an int32 constant of {channels} elements, "
                         f"got {b.dtype} of shape {list(b.shape)}", op.inputs[i])
    return b.reshape(-1)


def dequantized(op: Op, i: int) -> _expr.Expr:
    """Input ``i`` as float32 (``scale * (q - zp)``)."""
    q = op.qparams(i)
    return _qnn.dequantize(op.expr(i), q.scale_expr(), q.zp_expr(), axis=q.axis)


def quantized_output(op: Op, y: _expr.Expr) -> _expr.Expr:
    """float32 ``y`` quantized to output 0's parameters (``round(y / scale) + zp``,
    halves away from zero, saturated) — TFLite's ``AffineQuantize``."""
    q = op.out_qparams()
    return _qnn.quantize(y, q.scale_expr(), q.zp_expr(), axis=q.axis, out_dtype=op.out_dtype())


def via_float(op: Op, fn, inputs=(0,)) -> _expr.Expr:
    """A quantized operator as dequantize -> the float operator -> quantize (SOFTMAX, and
    RELU / RELU6 with differing parameters: equal to TFLite's kernels on every input
    tested, not proven bit-exact in general)."""
    if not op.quantized:
        return fn(*[op.expr(i) for i in inputs])
    return quantized_output(op, fn(*[dequantized(op, i) for i in inputs]))


def same_padding(in_size: int, kernel: int, stride: int, dilation: int):
    """TFLite's SAME padding of one spatial dim: (before, after), the odd pixel after."""
    eff = (kernel - 1) * dilation + 1
    out = (in_size + stride - 1) // stride
    total = max((out - 1) * stride + eff - in_size, 0)
    return total // 2, total - total // 2


def window_padding(op: Op, padding: int, in_hw, k_hw, strides, dilation=(1, 1)):
    """(top, left, bottom, right) of TFLite's Padding enum (SAME = 0, VALID = 1)."""
    if padding == 1:
        return (0, 0, 0, 0)
    if padding != 0:
        raise op.unsupported(f"padding type {padding} is not supported (SAME or VALID)")
    (t, b), (l, r) = (same_padding(in_hw[i], k_hw[i], strides[i], dilation[i]) for i in range(2))
    return (t, l, b, r)
