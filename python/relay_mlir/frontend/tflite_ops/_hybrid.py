"""TFLite's hybrid (dynamic-range) kernels: float32 activations, int8 weights.

What ``converter.optimizations = [tf.lite.Optimize.DEFAULT]`` without a representative
dataset makes: FULLY_CONNECTED, CONV_2D and DEPTHWISE_CONV_2D keep float32 inputs and
outputs and take int8 weights (symmetric, zero point 0, per output channel unless
``_experimental_disable_per_channel``; weights of fewer than 1024 elements stay float).
TFLite quantizes the float input at run time, contracts in integers and rescales in
float; each kernel its own way (tflite/kernels/fully_connected.cc, conv.cc,
depthwise_conv.cc), mirrored here with relay ops:

- FULLY_CONNECTED (``EvalHybridDense``): each row of the ``[-1, in]`` input quantized on
  its own, symmetrically (:func:`symmetric_quantize`) or, when the options say
  ``asymmetric_quantize_inputs`` (what the converter writes), asymmetrically
  (:func:`asymmetric_quantize`); ``acc = nn.dense(q, w)`` in int32 minus
  ``row_sum(w) * zero_point``; ``bias + float(acc) * (row_scale * w_scale)``, the product
  of the two scales in float32 (per output channel for per-channel weights); then the
  fused activation on floats.
- CONV_2D with per-tensor weights (or per-channel scales that are all equal;
  ``EvalHybrid``): each image quantized symmetrically; ``float(acc) * (image_scale *
  w_scale) + bias``, clamped by the fused activation.
- CONV_2D with differing per-channel scales, or grouped (``EvalHybridPerChannel``), and
  every hybrid DEPTHWISE_CONV_2D: each image quantized asymmetrically, whatever the
  options say; ``acc`` sums ``w * (q - zero_point)`` over the window's pixels inside the
  image (``nn.conv2d`` of ``q`` minus ``zero_point`` times the constant window sums of
  ``w``); ``float(acc) * w_scale[c] * image_scale + bias`` (conv, TFLite's reference
  kernel multiplies left to right) or ``float(acc) * (w_scale[c] * image_scale) + bias``
  (depthwise), clamped.

The integer contractions are ``nn.dense`` / ``nn.conv2d`` of the int8 operands with
``out_dtype="int32"``, as the full-integer path lowers ``qnn.dense`` / ``qnn.conv2d``.
The run-time quantizers are those of TFLite's x86 builds (ai-edge-litert: the NEON
kernels through NEON_2_SSE, see :func:`_round`), and every float32 operation rounds as
TFLite's do, so the hybrid operators are bit-exact with TFLite's reference kernels,
interpreted and compiled (test_tflite.py). Refused, with located errors: uint8 weights,
weights with a zero point, a per-tensor hybrid DEPTHWISE_CONV_2D (TFLite's kernel reads
one scale per channel past the single one), activations other than clamps on hybrid
convolutions (TFLite's kernels ignore TANH there).
"""
from __future__ import annotations

from typing import Sequence, Tuple

import numpy as np

from ... import expr as _expr
from ... import op as _op
from ._base import ACT_NAMES, ACT_NONE, ACT_RELU, ACT_RELU6, ACT_RELU_N1_TO_1, Op
from ._quant import fused_activation


def is_hybrid(op: Op) -> bool:
    """A float32 input and output with integer weights (input 1)."""
    return op.dtype(0) == "float32" and op.out_dtype() == "float32" and op.dtype(1) != "float32"


def _f32(v: float) -> _expr.Expr:
    return _expr.const(float(v), "float32")


def _f64(v: float) -> _expr.Expr:
    return _expr.const(float(v), "float64")


def _unfused(p: _expr.Expr) -> _expr.Expr:
    """The float32 product ``p`` rounded before the addition that consumes it, as TFLite's
    kernels compute: IREE's llvm-cpu code contracts a multiply and an add into one FMA
    (one rounding; measured), but not through this select, which is ``p`` itself (a NaN
    stays a NaN)."""
    return _op.where(_op.not_equal(p, p), _op.negative(p), p)


def _rows(x: _expr.Expr, shape: Sequence[int]) -> Tuple[_expr.Expr, _expr.Expr]:
    """(min, max) of each batch row of ``x`` (every axis but the first), kept as
    ``[B, 1, ...]`` to broadcast against ``x`` and the operator's output."""
    axes = list(range(1, len(shape)))
    return _op.min(x, axis=axes, keepdims=True), _op.max(x, axis=axes, keepdims=True)


def _round(v: _expr.Expr, shape: Sequence[int]) -> _expr.Expr:
    """float32 ``v`` rounded half away from zero as TFLite's x86 builds do: their input
    quantizers are the NEON ones through NEON_2_SSE (``neon_check.h`` defines USE_NEON
    under SSE4.1), which round eight values at a time as ``trunc(v + (v < 0 ? -0.5 :
    0.5))`` in float32 (one more rounding: ``0.49999997`` becomes 1), and the row's last
    ``size % 8`` values with ``std::round``."""
    vec = _op.trunc(_op.add(_unfused(v), _op.where(_op.less(v, _f32(0.0)), _f32(-0.5), _f32(0.5))))
    size = int(np.prod(shape[1:]))
    if size % 8 == 0:
        return vec
    in_vectors = (np.arange(size) < size - size % 8).reshape([1] + list(shape[1:]))
    return _op.where(_expr.const(in_vectors), vec, _op.round(v))


def symmetric_quantize(x: _expr.Expr, shape: Sequence[int]) -> Tuple[_expr.Expr, _expr.Expr]:
    """TFLite's ``SymmetricQuantizeFloats`` of each batch row of the float32 ``x`` (of
    ``shape``): ``range = max(|min|, |max|)``, ``scale = range / 127`` and
    ``q = clamp(round(x * (127 / range)), -127, 127)`` in float32 (see :func:`_round`);
    a row of zeros has scale 1. Returns (int8 ``q``, float32 scales ``[B, 1, ...]``)."""
    lo, hi = _rows(x, shape)
    rng = _op.maximum(_op.abs(lo), _op.abs(hi))
    zero = _op.equal(rng, _f32(0.0))
    safe = _op.where(zero, _f32(1.0), rng)
    scale = _op.where(zero, _f32(1.0), _op.divide(safe, _f32(127.0)))
    q = _round(_op.multiply(x, _op.divide(_f32(127.0), safe)), shape)
    return _op.cast(_op.clip(q, -127.0, 127.0), "int8"), scale


def asymmetric_quantize(x: _expr.Expr, shape: Sequence[int]) -> Tuple[_expr.Expr, _expr.Expr, _expr.Expr]:
    """TFLite's ``AsymmetricQuantizeFloats`` of each batch row of the float32 ``x`` (of
    ``shape``), as its x86 builds compute it (the NEON kernel, see :func:`_round`):
    ``rmin = min(0, min)``, ``rmax = max(0, max)``; ``scale = double(rmax - rmin) / 255``
    (the difference in float32); in float64 the zero point from whichever end has the
    smaller error (``-128 - rmin / scale`` or ``127 - rmax / scale``), nudged into
    [-128, 127] and rounded half away from zero; ``inv = float(1.0 / double(float(scale)))``
    and ``q = clamp(round(x * inv) + zp, -128, 127)``. A row of zeros has scale 1 and zero
    point 0. Returns (int8 ``q``, float32 scales, int32 zero points), both ``[B, 1, ...]``."""
    lo, hi = _rows(x, shape)
    lo, hi = _op.minimum(lo, _f32(0.0)), _op.maximum(hi, _f32(0.0))
    same = _op.equal(lo, hi)
    width = _op.cast(_op.subtract(hi, lo), "float64")
    scale = _op.where(same, _f64(1.0), _op.divide(width, _f64(255.0)))
    lo_q, hi_q = _op.divide(_op.cast(lo, "float64"), scale), _op.divide(_op.cast(hi, "float64"), scale)
    from_min, from_max = _op.subtract(_f64(-128.0), lo_q), _op.subtract(_f64(127.0), hi_q)
    err_min = _op.add(_f64(128.0), _op.abs(lo_q))
    err_max = _op.add(_f64(127.0), _op.abs(hi_q))
    zpd = _op.where(_op.less(err_min, err_max), from_min, from_max)
    zp = _op.where(_op.less_equal(zpd, _f64(-128.0)), _f64(-128.0),
                   _op.where(_op.greater_equal(zpd, _f64(127.0)), _f64(127.0), _op.round(zpd)))
    zp = _op.cast(_op.where(same, _f64(0.0), zp), "int32")
    scale32 = _op.cast(scale, "float32")
    scale64 = _op.cast(scale32, "float64")
    nonzero = _op.greater(scale32, _f32(0.0))  # an underflowed scale: TFLite's inverse is 0
    inv = _op.cast(_op.divide(_f64(1.0), _op.where(nonzero, scale64, _f64(1.0))), "float32")
    inv = _op.where(nonzero, inv, _f32(0.0))
    q = _op.add(_round(_op.multiply(x, inv), shape), _op.cast(zp, "float32"))
    return _op.cast(_op.clip(q, -128.0, 127.0), "int8"), scale32, zp


def weight_scales(op: Op, channels: int) -> np.ndarray:
    """The int8 weights' float32 scales (one, or one per output channel), checked: TFLite's
    hybrid kernels read int8 weights with zero point 0 (they ignore any other)."""
    if op.dtype(1) != "int8":
        raise op.unsupported(f"float32 input with {op.dtype(1)} weights is not supported (hybrid "
                             "kernels with int8 weights only)", op.inputs[1])
    wq = op.qparams(1, "weight")
    if (wq.zero_point != 0).any():
        raise op.unsupported(f"hybrid weights with zero point {int(wq.zero_point[wq.zero_point != 0][0])} are "
                             "not supported (TFLite's hybrid kernels take symmetric int8 weights, zero point 0)",
                             op.inputs[1])
    if wq.per_channel and wq.scale.size != channels:
        raise op.invalid(f"the weights have {wq.scale.size} per-channel scales for {channels} output "
                         "channels", op.inputs[1])
    return wq.scale.astype(np.float32)


def _float_bias(op: Op, y: _expr.Expr, i: int, axis: int) -> _expr.Expr:
    if not op.has(i):
        return y
    if op.dtype(i) != "float32":
        raise op.invalid(f"a hybrid {op.name} needs a float32 bias (input {i}), got {op.dtype(i)}", op.inputs[i])
    return _op.nn.bias_add(y, op.expr(i), axis=axis)


def fully_connected(op: Op, x: _expr.Expr, w: np.ndarray, units: int, act: int, asymmetric: bool) -> _expr.Expr:
    """Hybrid FULLY_CONNECTED of the ``[-1, in]`` float32 ``x`` and the int8 ``[units, in]``
    constant ``w`` (see the module docstring)."""
    wscale = weight_scales(op, units)
    k = w.shape[1]
    if asymmetric:
        q, scale, zp = asymmetric_quantize(x, [-1, k])
    else:
        (q, scale), zp = symmetric_quantize(x, [-1, k]), None
    acc = _op.nn.dense(q, _expr.const(w), units=units, out_dtype="int32")
    if zp is not None:
        row_sums = w.astype(np.int64).sum(axis=1).astype(np.int32)
        acc = _op.subtract(acc, _op.multiply(zp, _expr.const(row_sums)))
    s = _op.multiply(scale, _expr.const(wscale if wscale.size > 1 else wscale[0]))
    y = _float_bias(op, _unfused(_op.multiply(_op.cast(acc, "float32"), s)), 2, 1)
    return fused_activation(op, y, act)


def _window_sums(w_hwo: np.ndarray, in_hw: Sequence[int], out_hw: Sequence[int], pads, strides,
                 dilation) -> np.ndarray:
    """``S[oy, ox, c]``: the sum of the ``[kh, kw, c]`` window sums ``w_hwo`` (each filter
    tap summed over its input channels) over the taps that fall inside the image, as
    int32 ``[1, OH, OW, C]`` (what an input of ones convolves to with zero padding)."""
    kh, kw, c = w_hwo.shape
    s = np.zeros((out_hw[0], out_hw[1], c), np.int64)
    oy, ox = np.arange(out_hw[0]), np.arange(out_hw[1])
    for ky in range(kh):
        iy = oy * strides[0] - pads[0] + ky * dilation[0]
        for kx in range(kw):
            ix = ox * strides[1] - pads[1] + kx * dilation[1]
            inside = ((iy >= 0) & (iy < in_hw[0]))[:, None] & ((ix >= 0) & (ix < in_hw[1]))[None, :]
            s += inside[:, :, None] * w_hwo[ky, kx].astype(np.int64)
    return s.astype(np.int32)[None]


_CLAMPS = (ACT_NONE, ACT_RELU, ACT_RELU6, ACT_RELU_N1_TO_1)


def conv(op: Op, weight: np.ndarray, w_hwo: np.ndarray, attrs: dict, act: int, depthwise: bool) -> _expr.Expr:
    """Hybrid CONV_2D / DEPTHWISE_CONV_2D of float32 input 0 with the int8 ``weight``
    (already HWIO / HWOI, as ``attrs`` say); ``w_hwo`` is ``[kh, kw, out channels]``, each
    tap of each output channel's filter summed over its input channels."""
    channels = attrs["channels"]
    if act not in _CLAMPS:
        raise op.unsupported(f"fused activation {ACT_NAMES.get(act, act)} on a hybrid {op.name} is not "
                             "supported (TFLite's hybrid kernels clamp: NONE, RELU, RELU6, RELU_N1_TO_1)")
    wscale = weight_scales(op, channels)
    per_channel = depthwise or attrs["groups"] != 1 or (wscale != wscale[0]).any()
    if per_channel and wscale.size != channels:
        raise op.unsupported(f"a hybrid {op.name} with one weight scale for {channels} output channels is not "
                             "supported (TFLite's per-channel hybrid kernel reads one scale per channel)",
                             op.inputs[1])
    x, wc = op.expr(0), _expr.const(weight)
    if not per_channel:
        q, scale = symmetric_quantize(x, op.shape(0))
        acc = _op.cast(_op.nn.conv2d(q, wc, out_dtype="int32", **attrs), "float32")
        y = _op.multiply(acc, _op.multiply(scale, _f32(wscale[0])))
    else:
        q, scale, zp = asymmetric_quantize(x, op.shape(0))
        _, h, w, _ = op.shape(0)
        out_hw = op.out_shape()[1:3]
        top, left, _, _ = attrs["padding"]
        sums = _window_sums(w_hwo, (h, w), out_hw, (top, left), attrs["strides"], attrs["dilation"])
        acc = _op.subtract(_op.nn.conv2d(q, wc, out_dtype="int32", **attrs), _op.multiply(zp, _expr.const(sums)))
        acc, wsc = _op.cast(acc, "float32"), _expr.const(wscale)
        if depthwise:
            y = _op.multiply(acc, _op.multiply(wsc, scale))
        else:
            y = _op.multiply(_op.multiply(acc, wsc), scale)
    return fused_activation(op, _float_bias(op, _unfused(y), 2, 3), act)
