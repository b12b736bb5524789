"""SLICE, SPLIT, GATHER, PACK, TILE, CAST, ARG_MAX, ARG_MIN, SUM, REDUCE_MAX, REDUCE_MIN.

Index and shape arguments must be constant tensors (as the TensorFlow converter emits
them). Data movement and max/min work on quantized integers unchanged (REDUCE_MAX /
REDUCE_MIN when the input's and output's parameters are equal, as TFLite requires);
quantized SUM is refused.
"""
from __future__ import annotations

import numpy as np

from ... import expr as _expr
from ... import op as _op
from ._base import Op, register


def _ints(op: Op, i: int) -> list:
    return [int(v) for v in op.const(i).reshape(-1)]


@register("SLICE")
def slice_(op: Op) -> _expr.Expr:
    """``x[begin : begin + size]`` per axis, ``size`` -1 meaning to the end."""
    shape, begin, size = op.shape(0), _ints(op, 1), _ints(op, 2)
    end = [dim if s < 0 else b + s for dim, b, s in zip(shape, begin, size)]
    return _op.strided_slice(op.expr(0), begin, end)


@register("SPLIT")
def split(op: Op):
    """``num_splits`` equal parts along the constant axis (input 0) of input 1."""
    opts = op.options("SplitOptions")
    axis = _ints(op, 0)[0] % len(op.shape(1))
    n = opts.NumSplits() if opts is not None else len(op.outputs)
    if n != len(op.outputs) or op.shape(1)[axis] % n:
        raise op.invalid(f"cannot split dimension {axis} of shape {op.shape(1)} into {n} equal parts "
                         f"for {len(op.outputs)} outputs")
    parts = _op.split(op.expr(1), n, axis=axis)
    return [parts[k] for k in range(n)]


@register("GATHER")
def gather(op: Op) -> _expr.Expr:
    opts = op.options("GatherOptions")
    axis = opts.Axis() if opts is not None else 0
    if opts is not None and opts.BatchDims():
        raise op.unsupported("GATHER with batch_dims is not supported")
    return _op.take(op.expr(0), op.expr(1), axis=axis % len(op.shape(0)))


@register("PACK")
def pack(op: Op) -> _expr.Expr:
    opts = op.options("PackOptions")
    axis = opts.Axis() if opts is not None else 0
    return _op.stack([op.expr(i) for i in range(len(op.inputs))], axis=axis)


@register("TILE")
def tile(op: Op) -> _expr.Expr:
    return _op.tile(op.expr(0), _ints(op, 1))


@register("CAST")
def cast(op: Op) -> _expr.Expr:
    """To the output tensor's type (float to integer truncates toward zero)."""
    return _op.cast(op.expr(0), op.out_dtype())


@register("ARG_MAX", "ARG_MIN")
def arg_extreme(op: Op) -> _expr.Expr:
    """Index of the first maximum / minimum along the constant axis (input 1)."""
    fn = _op.argmax if op.name == "ARG_MAX" else _op.argmin
    y = fn(op.expr(0), axis=[_ints(op, 1)[0] % len(op.shape(0))])
    return _op.cast(y, op.out_dtype())


@register("SUM", "REDUCE_MAX", "REDUCE_MIN")
def reduce(op: Op) -> _expr.Expr:
    opts = op.options("ReducerOptions")
    keep = bool(opts.KeepDims()) if opts is not None else False
    axes = sorted({a % len(op.shape(0)) for a in _ints(op, 1)})
    if op.quantized:
        a, y = op.qparams(0), op.out_qparams()
        if op.name == "SUM" or not (np.array_equal(a.scale, y.scale) and a.zp == y.zp):
            raise op.unsupported(f"quantized {op.name} is not supported"
                                 + ("" if op.name == "SUM" else " with different input and output parameters"))
    fn = {"SUM": _op.sum, "REDUCE_MAX": _op.max, "REDUCE_MIN": _op.min}[op.name]
    return fn(op.expr(0), axis=axes, keepdims=keep)
