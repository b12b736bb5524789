"""CONV_2D, DEPTHWISE_CONV_2D, TRANSPOSE_CONV, FULLY_CONNECTED and BATCH_MATMUL.

Float: ``nn.conv2d`` in NHWC (the OHWI filter transposed to HWIO, a depthwise
``[1, H, W, C*M]`` filter reshaped to HWOI with ``groups = C`` — or to the grouped HWIO
``[H, W, 1, C*M]`` for a multiplier M > 1, the standard grouped form; TVM's importer writes
Relay's depthwise convention HWOI ``[H, W, C, M]``, which relay-mlir also lowers), ``nn.dense``,
``nn.batch_matmul``, then the bias and the fused activation.
Quantized (TFLite's int8 scheme): ``qnn.conv2d`` / ``qnn.dense`` — exact int32 sums of
``(x - x_zp)(w - w_zp)``, the input padded with its zero point — plus the int32
bias, then TFLite's fixed-point rescale by ``x_scale * w_scale / y_scale`` (per
output channel for per-channel weights, which TFLite's converter makes for all three
ops; TVM 0.19 rejects them for FULLY_CONNECTED; see ``_quant.requantize_accumulator``),
plus the output zero point and the activation's integer clamp.
Hybrid (dynamic-range: float32 input and output, int8 weights) FULLY_CONNECTED, CONV_2D
and DEPTHWISE_CONV_2D: TFLite's run-time quantization of the input and integer
contraction, see ``_hybrid``.
"""
from __future__ import annotations

import numpy as np

from ... import expr as _expr
from ... import op as _op
from ...qnn import op as _qnn
from . import _hybrid
from ._base import Op, register
from ._quant import (check_bias, fused_activation, multiply_by_quantized_multiplier,
                     multiply_by_quantized_multiplier_int64, requantize_accumulator, saturate,
                     window_padding)


def _is_16x8(op: Op) -> bool:
    """16x8 quantization: int16 input and output, int8 weights."""
    return op.dtype(0) == "int16" and op.out_dtype() == "int16" and op.dtype(1) == "int8"


def _check_weights(op: Op) -> None:
    """The weights have the output's type (float, int8 or uint8), or the operator is hybrid
    (float32 input and output, int8 weights: see _hybrid) or a 16x8 CONV_2D /
    FULLY_CONNECTED (int16 input and output, int8 weights); anything else is refused by
    name."""
    if op.dtype(1) == op.out_dtype() or _hybrid.is_hybrid(op):
        return
    if _is_16x8(op):
        if op.name in ("CONV_2D", "FULLY_CONNECTED"):
            return
        raise op.unsupported(f"16x8 quantization (int16 activations, int8 weights) of {op.name} is not "
                             "supported (CONV_2D and FULLY_CONNECTED only)", op.inputs[1])
    raise op.unsupported(f"{op.dtype(0)} input with {op.dtype(1)} weights and a {op.out_dtype()} "
                         "output is not supported (the weights must have the output's type; or be int8 "
                         "with float32 input and output: hybrid; or with int16 ones: 16x8)", op.inputs[1])


def _params_16x8(op: Op, channels: int, opts):
    """A 16x8 operator's bias (an int32 or int64 constant, or None), its parameters
    checked: TFLite's 16x8 kernels take zero points 0 everywhere, and read the bias as the
    options' ``quantized_bias_type`` says (int64 when it is unset)."""
    for i, what in ((0, "input 0"), (1, "weight 1")):
        if (op.qparams(i).zero_point != 0).any():
            raise op.invalid(f"16x8 quantization needs zero point 0 on {what}, got "
                             f"{int(op.qparams(i).zero_point.reshape(-1)[0])}", op.inputs[i])
    if op.out_qparams().zp != 0:
        raise op.invalid(f"16x8 quantization needs zero point 0 on the output, got {op.out_qparams().zp}")
    _weight_params(op, channels)
    if not op.has(2):
        return None
    b = op.const(2)
    declared = {2: np.int32, 4: np.int64}.get(getattr(opts, "QuantizedBiasType", lambda: 0)(), np.int64)
    if b.dtype != declared or b.size != channels:
        raise op.invalid(f"a 16x8 bias (input 2) must be an {np.dtype(declared).name} constant of {channels} "
                         f"elements (TFLite reads it as the options' quantized_bias_type says, int64 when "
                         f"unset), got {b.dtype} of shape {list(b.shape)}", op.inputs[2])
    return b.reshape(-1)


def _real_multipliers(op: Op) -> np.ndarray:
    """``double(x_scale) * double(w_scale) / double(y_scale)``, per weight channel."""
    xq, wq, yq = op.qparams(0), op.qparams(1, "weight"), op.out_qparams()
    return (np.float64(xq.scale[0]) * wq.scale.astype(np.float64)) / np.float64(yq.scale[0])


def _conv_16x8(op: Op, wc: _expr.Expr, attrs: dict, channels: int, opts) -> _expr.Expr:
    """TFLite's 16x8 CONV_2D (reference ``ConvPerChannel``): with an int64 bias, int64 sums
    of ``x * w`` plus the bias, rescaled by the int64 ``MultiplyByQuantizedMultiplier``
    (16-bit multiplier, one rounding); with an int32 bias, int32 sums and the int8 path's
    rescale; then the activation's clamp to int16."""
    bias = _params_16x8(op, channels, opts)
    act = opts.FusedActivationFunction()
    xq, wq = op.qparams(0), op.qparams(1, "weight")
    acc_dtype = "int64" if bias is None or bias.dtype == np.int64 else "int32"
    acc = _qnn.conv2d(op.expr(0), wc, _expr.const(0), _expr.const(0), xq.scale_expr(), wq.scale_expr(),
                      out_dtype=acc_dtype, **attrs)
    if bias is not None:
        acc = _op.nn.bias_add(acc, _expr.const(bias, acc_dtype), axis=3)
    if acc_dtype == "int32":
        return requantize_accumulator(op, acc, 4, 3, act)
    return saturate(op, multiply_by_quantized_multiplier_int64(op, acc, _real_multipliers(op), 4, 3), act)


def _dense_16x8(op: Op, x: _expr.Expr, w: _expr.Expr, units: int, act: int, opts) -> _expr.Expr:
    """TFLite's 16x8 FULLY_CONNECTED (reference ``FullyConnected[PerChannel]``, which the
    interpreter runs for int64 biases, and for int32 ones in its reference kernels; its
    optimized kernel rescales int32 sums in fixed point): int64 sums of ``x * w`` plus the
    bias, times ``double(x_scale) * double(w_scale) / double(y_scale)`` in float64, rounded
    half away from zero, clamped to the activation's int16 range."""
    bias = _params_16x8(op, units, opts)
    xq, wq = op.qparams(0), op.qparams(1, "weight")
    acc = _qnn.dense(x, w, _expr.const(0), _expr.const(0), xq.scale_expr(), wq.scale_expr(), units=units,
                     out_dtype="int64")
    if bias is not None:
        acc = _op.nn.bias_add(acc, _expr.const(bias.astype(np.int64), "int64"), axis=1)
    real = _real_multipliers(op)
    scaled = _op.multiply(_op.cast(acc, "float64"), _expr.const(real if real.size > 1 else real[0], "float64"))
    return saturate(op, _op.cast(_op.round(scaled), "int32"), act)


def _weight_params(op: Op, channels: int):
    """(zero point expr, scale expr) of the filter (input 1), per channel or per tensor."""
    wq = op.qparams(1, "weight")
    if wq.per_channel and wq.scale.size != channels:
        raise op.invalid(f"the filter has {wq.scale.size} per-channel scales for {channels} output "
                         "channels", op.inputs[1])
    return wq.zp_expr(), wq.scale_expr()


def _conv(op: Op, weight: np.ndarray, kernel_layout: str, groups: int, channels: int, opts,
          w_hwo: np.ndarray) -> _expr.Expr:
    """The convolution of input 0 with ``weight`` (already HWIO / HWOI), bias, activation;
    ``w_hwo`` (``[kh, kw, channels]``, each tap summed over input channels) serves the
    hybrid kernels."""
    n, h, w, _ = op.shape(0)
    kh, kw = weight.shape[0], weight.shape[1]
    strides = (opts.StrideH(), opts.StrideW())
    dil = (opts.DilationHFactor(), opts.DilationWFactor())
    pads = window_padding(op, opts.Padding(), (h, w), (kh, kw), strides, dil)
    attrs = dict(strides=strides, padding=pads, dilation=dil, groups=groups, channels=channels,
                 kernel_size=(kh, kw), data_layout="NHWC", kernel_layout=kernel_layout)
    x, wc = op.expr(0), _expr.const(weight)
    act = opts.FusedActivationFunction()
    _check_weights(op)
    if _hybrid.is_hybrid(op):
        return _hybrid.conv(op, weight, w_hwo, attrs, act, depthwise=op.name == "DEPTHWISE_CONV_2D")
    if not op.quantized:
        y = _op.nn.conv2d(x, wc, **attrs)
        if op.has(2):
            y = _op.nn.bias_add(y, op.expr(2), axis=3)
        return fused_activation(op, y, act)
    if _is_16x8(op):
        return _conv_16x8(op, wc, attrs, channels, opts)
    xq = op.qparams(0)
    wzp, wscale = _weight_params(op, channels)
    acc = _qnn.conv2d(x, wc, xq.zp_expr(), wzp, xq.scale_expr(), wscale, out_dtype="int32", **attrs)
    if op.has(2):
        acc = _op.nn.bias_add(acc, _expr.const(check_bias(op, 2, channels)), axis=3)
    return requantize_accumulator(op, acc, 4, 3, act)


@register("CONV_2D")
def conv2d(op: Op) -> _expr.Expr:
    """TFLite CONV_2D: OHWI filter; a filter with fewer input channels is a grouped convolution."""
    opts = op.options("Conv2DOptions")
    w = op.const(1)
    cin = op.shape(0)[3]
    if w.ndim != 4 or cin % w.shape[3]:
        raise op.invalid(f"filter of shape {list(w.shape)} does not fit an input of {cin} channels",
                         op.inputs[1])
    return _conv(op, np.ascontiguousarray(w.transpose(1, 2, 3, 0)), "HWIO", cin // w.shape[3],
                 w.shape[0], opts, w.astype(np.int64).sum(axis=3).transpose(1, 2, 0))


@register("DEPTHWISE_CONV_2D")
def depthwise_conv2d(op: Op) -> _expr.Expr:
    """TFLite DEPTHWISE_CONV_2D: filter ``[1, H, W, C * multiplier]``, output channel
    ``c * multiplier + m`` reads input channel ``c``."""
    opts = op.options("DepthwiseConv2DOptions")
    w = op.const(1)
    cin = op.shape(0)[3]
    if w.ndim != 4 or w.shape[0] != 1 or w.shape[3] % cin:
        raise op.invalid(f"depthwise filter of shape {list(w.shape)} does not fit an input of {cin} "
                         "channels", op.inputs[1])
    mult = w.shape[3] // cin
    if mult == 1:
        return _conv(op, np.ascontiguousarray(w.reshape(w.shape[1:])[:, :, :, None]), "HWOI", cin, cin, opts, w[0])
    # a channel multiplier: the grouped HWIO form [H, W, 1, C * M] (the llvm-cpu lowering
    # of HWOI [H, W, C, M] with M > 1 emits an invalid grouped linalg convolution)
    return _conv(op, np.ascontiguousarray(w.reshape(w.shape[1:3] + (1, w.shape[3]))), "HWIO", cin,
                 w.shape[3], opts, w[0])


def _transpose_padding(op: Op, padding: int, in_size: int, out_size: int, k: int, stride: int):
    """(before, after, output_padding) of one spatial dim: TFLite pads as the forward
    convolution from ``out_size`` to ``in_size`` would, and crops to ``out_size``."""
    before = window_padding(op, padding, (out_size, 1), (k, 1), (stride, 1))[0]
    full = (in_size - 1) * stride + k
    after = full - before - out_size
    return (before, after, 0) if after >= 0 else (before, 0, -after)


@register("TRANSPOSE_CONV")
def transpose_conv(op: Op) -> _expr.Expr:
    """TFLite TRANSPOSE_CONV: inputs (output shape, ``[O, H, W, I]`` filter, x[, bias])."""
    opts = op.options("TransposeConvOptions")
    out_shape, w = [int(v) for v in op.const(0).reshape(-1)], op.const(1)
    _, h, wd, cin = op.shape(2)
    if w.ndim != 4 or w.shape[3] != cin or len(out_shape) != 4:
        raise op.invalid(f"filter of shape {list(w.shape)} and output shape {out_shape} do not fit an input "
                         f"of {cin} channels", op.inputs[1])
    strides = (opts.StrideH(), opts.StrideW())
    (t, b, oph), (le, r, opw) = (_transpose_padding(op, opts.Padding(), n, o, k, s) for n, o, k, s in
                                 zip((h, wd), out_shape[1:3], w.shape[1:3], strides))
    attrs = dict(strides=strides, padding=(t, le, b, r), output_padding=(oph, opw), channels=w.shape[0],
                 kernel_size=tuple(w.shape[1:3]), data_layout="NHWC", kernel_layout="OHWI")
    act = opts.FusedActivationFunction() if hasattr(opts, "FusedActivationFunction") else 0
    x, wc = op.expr(2), _expr.const(w)
    if not op.quantized:
        y = _op.nn.conv2d_transpose(x, wc, **attrs)
        if op.has(3):
            y = _op.nn.bias_add(y, op.expr(3), axis=3)
        return fused_activation(op, y, act)
    xq, wq = op.qparams(2), op.qparams(1, "weight")
    if wq.per_channel and wq.scale.size != w.shape[0]:
        raise op.invalid(f"the filter has {wq.scale.size} per-channel scales for {w.shape[0]} output "
                         "channels", op.inputs[1])
    acc = _qnn.conv2d_transpose(x, wc, xq.zp_expr(), wq.zp_expr(), xq.scale_expr(), wq.scale_expr(),
                                out_dtype="int32", **attrs)
    if op.has(3):
        acc = _op.nn.bias_add(acc, _expr.const(check_bias(op, 3, w.shape[0])), axis=3)
    return requantize_accumulator(op, acc, 4, 3, act, data=2)


@register("FULLY_CONNECTED")
def fully_connected(op: Op) -> _expr.Expr:
    """TFLite FULLY_CONNECTED: ``x`` flattened to ``[-1, in]`` times the ``[units, in]``
    weights, shaped as the output tensor (``keep_num_dims`` decides it)."""
    opts = op.options("FullyConnectedOptions")
    if opts is not None and opts.WeightsFormat() != 0:
        raise op.unsupported("shuffled weights formats are not supported (DEFAULT only)")
    act = opts.FusedActivationFunction() if opts is not None else 0
    wshape = op.shape(1)
    if len(wshape) != 2:
        raise op.invalid(f"weights must be 2-D [units, in], got shape {wshape}", op.inputs[1])
    units, k = wshape
    x = _op.reshape(op.expr(0), [-1, k])
    _check_weights(op)
    if _hybrid.is_hybrid(op):
        asym = bool(opts.AsymmetricQuantizeInputs()) if opts is not None else False
        return _op.reshape(_hybrid.fully_connected(op, x, op.const(1), units, act, asym), op.out_shape())
    w = _expr.const(op.const(1)) if op.is_const(1) else op.expr(1)
    if not op.quantized:
        y = _op.nn.dense(x, w, units=units)
        if op.has(2):
            y = _op.nn.bias_add(y, op.expr(2), axis=1)
        y = fused_activation(op, y, act)
    elif _is_16x8(op):
        y = _dense_16x8(op, x, w, units, act, opts)
    else:
        xq = op.qparams(0)
        wzp, wscale = _weight_params(op, units)
        acc = _qnn.dense(x, w, xq.zp_expr(), wzp, xq.scale_expr(), wscale, units=units)
        if op.has(2):
            acc = _op.nn.bias_add(acc, _expr.const(check_bias(op, 2, units)), axis=1)
        y = requantize_accumulator(op, acc, 2, 1, act)
    return _op.reshape(y, op.out_shape())


@register("BATCH_MATMUL")
def batch_matmul(op: Op) -> _expr.Expr:
    """TFLite BATCH_MATMUL of two rank-3 tensors (``adj_x`` / ``adj_y`` transpose them).
    Quantized: ``qnn.batch_matmul`` (exact int32 sums of ``(x - x_zp)(y - y_zp)``), then
    TFLite's rescale by ``x_scale * y_scale / out_scale`` plus the output zero point."""
    opts = op.options("BatchMatMulOptions")
    adj_x, adj_y = (bool(opts.AdjX()), bool(opts.AdjY())) if opts is not None else (False, False)
    if len(op.shape(0)) != 3 or len(op.shape(1)) != 3:
        raise op.unsupported(f"BATCH_MATMUL of ranks {len(op.shape(0))} and {len(op.shape(1))} "
                             "is not supported (rank 3 only)")
    x, y = op.expr(0), op.expr(1)
    if not op.quantized:
        return _op.nn.batch_matmul(x, y, transpose_a=adj_x, transpose_b=adj_y)
    xq, yq, oq = op.qparams(0), op.qparams(1), op.out_qparams()
    if xq.per_channel or yq.per_channel:
        raise op.unsupported("per-channel quantized BATCH_MATMUL operands are not supported")
    if adj_x:
        x = _op.transpose(x, [0, 2, 1])
    if not adj_y:  # qnn.batch_matmul multiplies by the second operand transposed
        y = _op.transpose(y, [0, 2, 1])
    acc = _qnn.batch_matmul(x, y, xq.zp_expr(), yq.zp_expr(), xq.scale_expr(), yq.scale_expr())
    real = np.float64(xq.scale[0]) * np.float64(yq.scale[0]) / np.float64(oq.scale[0])
    z = multiply_by_quantized_multiplier(op, acc, real, 3)
    return saturate(op, _op.add(z, _expr.const(np.int32(oq.zp))))
