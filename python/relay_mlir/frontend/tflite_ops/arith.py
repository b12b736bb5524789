"""Float element-wise math: EXP, LOG, SQRT, RSQRT, ABS, NEG, FLOOR, SQUARE, MAXIMUM,
MINIMUM, DIV (with its fused activation), SQUARED_DIFFERENCE, POW (broadcasting as numpy).

Quantized forms: MAXIMUM / MINIMUM compare the integers (TFLite requires the inputs'
and the output's parameters to be equal, and so does this importer); the others are
refused as unsupported (TFLite computes each with its own fixed-point or table kernel).
"""
from __future__ import annotations

import numpy as np

from ... import expr as _expr
from ... import op as _op
from ._base import Op, register
from ._quant import fused_activation

_UNARY = {"EXP": _op.exp, "LOG": _op.log, "SQRT": _op.sqrt, "RSQRT": _op.rsqrt, "ABS": _op.abs,
          "NEG": _op.negative, "FLOOR": _op.floor, "SQUARE": lambda x: _op.multiply(x, x)}
_BINARY = {"MAXIMUM": _op.maximum, "MINIMUM": _op.minimum, "DIV": _op.divide, "POW": _op.power,
           "SQUARED_DIFFERENCE": lambda a, b: _op.multiply(_op.subtract(a, b), _op.subtract(a, b))}


def _float_only(op: Op) -> None:
    if op.quantized:
        raise op.unsupported(f"quantized {op.name} is not supported (float32 only)")


@register(*_UNARY)
def unary(op: Op) -> _expr.Expr:
    _float_only(op)
    return _UNARY[op.name](op.expr(0))


@register(*_BINARY)
def binary(op: Op) -> _expr.Expr:
    if op.name in ("MAXIMUM", "MINIMUM") and op.quantized:
        y = op.out_qparams()
        for i in (0, 1):
            q = op.qparams(i)
            if op.dtype(i) != op.out_dtype() or not (np.array_equal(q.scale, y.scale)
                                                     and np.array_equal(q.zero_point, y.zero_point)):
                raise op.unsupported(f"quantized {op.name} needs input {i} of the output's dtype, scale "
                                     "and zero point", op.inputs[i])
        return _BINARY[op.name](op.expr(0), op.expr(1))
    _float_only(op)
    y = _BINARY[op.name](op.expr(0), op.expr(1))
    if op.name == "DIV":
        opts = op.options("DivOptions")
        y = fused_activation(op, y, opts.FusedActivationFunction() if opts is not None else 0)
    return y
