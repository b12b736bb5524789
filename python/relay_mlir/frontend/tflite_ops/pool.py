"""AVERAGE_POOL_2D, MAX_POOL_2D and MEAN (NHWC).

TFLite averages quantized windows over the valid (unpadded) pixels only and rounds
the mean of the raw integers half away from zero (``(sum ± count/2) / count``); TVM
0.19's importer averages in int32, truncating. Here the integer sum is
averaged in float32 (exact for these magnitudes) and rounded half away from zero.
"""
from __future__ import annotations

import numpy as np

from ... import expr as _expr
from ... import op as _op
from ._base import Op, register
from ._quant import fused_activation, multiply_by_quantized_multiplier, saturate, window_padding


def _window(op: Op):
    opts = op.options("Pool2DOptions")
    _, h, w, _ = op.shape(0)
    k = (opts.FilterHeight(), opts.FilterWidth())
    s = (opts.StrideH(), opts.StrideW())
    return dict(pool_size=k, strides=s, padding=window_padding(op, opts.Padding(), (h, w), k, s),
                layout="NHWC"), opts.FusedActivationFunction()


@register("AVERAGE_POOL_2D")
def avg_pool2d(op: Op) -> _expr.Expr:
    attrs, act = _window(op)
    if not op.quantized:
        return fused_activation(op, _op.nn.avg_pool2d(op.expr(0), count_include_pad=False, **attrs), act)
    a, y = op.qparams(0), op.out_qparams()
    if a.scale.tolist() != y.scale.tolist() or a.zp != y.zp:
        raise op.unsupported("quantized AVERAGE_POOL_2D with different input and output parameters "
                             "is not supported (TFLite requires them equal)")
    mean = _op.nn.avg_pool2d(_op.cast(op.expr(0), "float32"), count_include_pad=False, **attrs)
    return fused_activation(op, _op.cast(_op.round(mean), op.out_dtype()), act)


@register("MAX_POOL_2D")
def max_pool2d(op: Op) -> _expr.Expr:
    attrs, act = _window(op)
    return fused_activation(op, _op.nn.max_pool2d(op.expr(0), **attrs), act)


@register("MEAN")
def mean(op: Op) -> _expr.Expr:
    """Mean over the constant axes (input 1). Quantized as TFLite's integer mean: the
    int32 sum of ``x - x_zp`` times the fixed-point multiplier ``x_scale / y_scale / n``
    (``n`` values per mean), plus the output zero point, saturated (bit-exact with the
    interpreter's kernels; a float mean rounded once is up to a step away)."""
    opts = op.options("ReducerOptions")
    keep = bool(opts.KeepDims()) if opts is not None else False
    shape = op.shape(0)
    axes = sorted({int(a) % len(shape) for a in op.const(1).reshape(-1)})
    if not op.quantized:
        return _op.mean(op.expr(0), axis=axes, keepdims=keep)
    a, y = op.qparams(0), op.out_qparams()
    count = int(np.prod([shape[d] for d in axes]))
    diff = _op.subtract(_op.cast(op.expr(0), "int32"), _expr.const(np.int32(a.zp)))
    total = _op.sum(diff, axis=axes, keepdims=keep)
    real = np.float64(a.scale[0]) / np.float64(y.scale[0]) / count
    z = multiply_by_quantized_multiplier(op, total, real, len(op.out_shape()))
    return saturate(op, _op.add(z, _expr.const(np.int32(y.zp))))
