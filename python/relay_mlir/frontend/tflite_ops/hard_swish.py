"""Quantized HARD_SWISH as TFLite computes it: its int16 fixed-point kernel
(``reference_ops::HardSwish``: the input on a 2^7-finer scale, a "relu-ish" factor in
[0, 1] from ``x / 3``, their doubling high product, shifted to the output scale),
evaluated here in numpy for each of the 256 int8/uint8 inputs, and the operator a
lookup in that table. The exact float function rounded once (``qnn.hardswish``) is a
step away on ~2% of the inputs.
"""
from __future__ import annotations

import numpy as np

from ... import expr as _expr
from ... import op as _op
from ...qnn.fixed_point import fixed_point
from ._base import Op
from ._quant import RANGES

_I16_MIN, _I16_MAX = -32768, 32767


def _sat16(v: np.ndarray) -> np.ndarray:
    return np.clip(v, _I16_MIN, _I16_MAX)


def _int16_multiplier(real: float):
    """TFLite's Q31 multiplier of ``real`` rounded to Q15 (``DownScaleInt32ToInt16Multiplier``)."""
    q31, shift = fixed_point(real)
    q15 = _I16_MAX if q31 >= 2 ** 31 - 1 - (1 << 15) else (q31 + (1 << 15)) >> 16
    return q15, shift


def _rounding_doubling_high_mul(a: np.ndarray, b: int) -> np.ndarray:
    """gemmlowp's int16 ``SaturatingRoundingDoublingHighMul`` (truncating division)."""
    ab = a.astype(np.int64) * b
    nudged = ab + np.where(ab >= 0, 1 << 14, 1 - (1 << 14))
    out = np.sign(nudged) * (np.abs(nudged) >> 15)
    return np.where((a == _I16_MIN) & (b == _I16_MIN), _I16_MAX, out)


def _divide_by_pot(x: np.ndarray, exponent: int) -> np.ndarray:
    """gemmlowp's ``RoundingDivideByPOT``: ``x / 2^exponent``, halves away from zero."""
    mask = (1 << exponent) - 1
    threshold = (mask >> 1) + (x < 0)
    return (x >> exponent) + ((x & mask) > threshold)


def hard_swish_table(in_scale: float, in_zp: int, out_scale: float, out_zp: int, dtype: str) -> np.ndarray:
    """TFLite's quantized hard swish of every value of ``dtype`` (int8 or uint8), in order."""
    lo, hi = RANGES[dtype]
    x = np.arange(lo, hi + 1, dtype=np.int64) - in_zp
    hires_scale = np.float32(1.0 / 128.0) * np.float32(in_scale)
    out_mult, out_exp = _int16_multiplier(float(np.float32(hires_scale / np.float32(out_scale))))
    relu_mult, relu_exp = _int16_multiplier(float(np.float32(hires_scale / np.float32(3.0 / 32768.0))))
    hires = _sat16(x * (1 << 7))
    preshift = _rounding_doubling_high_mul(hires, out_mult)
    reluish = hires
    if relu_exp > 0:
        reluish = _sat16(reluish << (relu_exp - 1))
    reluish = _rounding_doubling_high_mul(reluish, relu_mult)
    if relu_exp > 0:
        reluish = _sat16(reluish << 1)
    if relu_exp < 0:
        reluish = _divide_by_pot(reluish, -relu_exp)
    reluish = (reluish + (1 << 15)) >> 1
    product = reluish * preshift
    pre_out = np.sign(product) * (np.abs(product) >> 15)
    out = _divide_by_pot(pre_out, -out_exp) + out_zp
    return np.clip(out, lo, hi).astype(dtype)


def quantized_hard_swish(op: Op) -> _expr.Expr:
    """Input 0 looked up in :func:`hard_swish_table` of the operator's parameters."""
    a, y = op.qparams(0), op.out_qparams()
    dtype = op.out_dtype()
    if op.dtype(0) != dtype or dtype not in ("int8", "uint8"):
        raise op.unsupported(f"HARD_SWISH from {op.dtype(0)} to {dtype} is not supported (int8 or uint8)")
    table = hard_swish_table(float(a.scale[0]), a.zp, float(y.scale[0]), y.zp, dtype)
    index = _op.subtract(_op.cast(op.expr(0), "int32"), _expr.const(np.int32(RANGES[dtype][0])))
    return _op.take(_expr.const(table), index, axis=0)
