"""RESHAPE, SQUEEZE, TRANSPOSE, PAD, CONCATENATION and STRIDED_SLICE.

They move integers unchanged, so quantized tensors pass through as their storage
dtype (PAD fills with the zero point); CONCATENATION of quantized inputs is
``qnn.concatenate`` (an input whose parameters differ from the output's is
requantized).
"""
from __future__ import annotations

from typing import List

import numpy as np

from ... import expr as _expr
from ... import op as _op
from ...qnn import op as _qnn
from ._base import Op, register
from ._quant import fused_activation


@register("RESHAPE", "SQUEEZE", "EXPAND_DIMS")
def reshape(op: Op) -> _expr.Expr:
    """To the output tensor's (static) shape."""
    return _op.reshape(op.expr(0), op.out_shape())


@register("TRANSPOSE")
def transpose(op: Op) -> _expr.Expr:
    return _op.transpose(op.expr(0), [int(a) for a in op.const(1).reshape(-1)])


@register("PAD", "PADV2")
def pad(op: Op) -> _expr.Expr:
    """Constant padding ``[[before, after], ...]`` (input 1): 0, PADV2's input 2, or the
    zero point of a quantized tensor."""
    widths = op.const(1).reshape(-1, 2).tolist()
    if op.has(2):
        value = op.const(2).reshape(-1)[0].item()
    elif op.graph.qparams(op.inputs[0]) is not None:
        value = op.qparams(0).zp
    else:
        value = 0.0
    return _op.nn.pad(op.expr(0), widths, pad_value=_expr.const(np.array(value, op.dtype(0))))


@register("CONCATENATION")
def concatenation(op: Op) -> _expr.Expr:
    opts = op.options("ConcatenationOptions")
    axis = opts.Axis() if opts is not None else 0
    act = opts.FusedActivationFunction() if opts is not None else 0
    n = len(op.inputs)
    xs = [op.expr(i) for i in range(n)]
    if not op.quantized:
        return fused_activation(op, _op.concatenate(xs, axis), act)
    qs = [op.qparams(i) for i in range(n)]
    y = op.out_qparams()
    z = _qnn.concatenate(xs, [q.scale_expr() for q in qs], [q.zp_expr() for q in qs],
                         y.scale_expr(), y.zp_expr(), axis=axis % len(op.out_shape()))
    return fused_activation(op, z, act)


def _slice_bounds(op: Op, shape: List[int], opts):
    begin, end, strides = (list(op.const(i).reshape(-1)) for i in (1, 2, 3))
    bmask, emask = opts.BeginMask(), opts.EndMask()
    out_b, out_e = [], []
    for d, size in enumerate(shape):
        if d >= len(begin):
            out_b.append(0), out_e.append(size)
            continue
        s = int(strides[d])
        b, e = int(begin[d]), int(end[d])
        if bmask >> d & 1:
            b = 0 if s > 0 else size - 1
        if emask >> d & 1:
            e = size if s > 0 else -size - 1
        out_b.append(b), out_e.append(e)
    return out_b, out_e, [int(s) for s in strides] + [1] * (len(shape) - len(strides))


@register("STRIDED_SLICE")
def strided_slice(op: Op) -> _expr.Expr:
    """begin/end/strides constants with begin/end masks; shrink_axis_mask drops axes (the
    output tensor's shape). Ellipsis and new-axis masks are refused."""
    opts = op.options("StridedSliceOptions")
    if opts.EllipsisMask() or opts.NewAxisMask() or opts.Offset():
        raise op.unsupported("ellipsis_mask, new_axis_mask and offset are not supported")
    shape = op.shape(0)
    begin, end, strides = _slice_bounds(op, shape, opts)
    for d in range(len(shape)):
        if opts.ShrinkAxisMask() >> d & 1:
            b = begin[d] + shape[d] if begin[d] < 0 else begin[d]
            begin[d], end[d], strides[d] = b, b + 1, 1
    y = _op.strided_slice(op.expr(0), begin, end, strides)
    return _op.reshape(y, op.out_shape())
