"""onnxruntime's quantized ``com.microsoft`` operators, as ``quantize_static`` (QOperator)
emits them: QLinearAdd, QLinearMul, QLinearSigmoid, QLinearLeakyRelu, QLinearConcat,
QLinearAveragePool, QLinearGlobalAveragePool, QGemm.

QGemm is an exact int32 contraction (plus its int32 bias) rescaled as QLinearMatMul;
the elementwise ops and pools follow onnxruntime's float formulas: the inputs
dequantized (``float32(q - zp) * scale``), the operation in float32, the result
quantized (``x / scale`` rounded half to even, plus the zero point, saturated).
QLinearAdd uses the scale ratios ``a_scale / c_scale`` and ``b_scale / c_scale``
and QLinearMul the product ``a_scale * b_scale / c_scale`` as onnxruntime's MLAS.
"""
from __future__ import annotations

from typing import Optional

import numpy as np

from ..common import ROUNDING_MAGIC, round_half_to_even, round_half_to_even_clipped
from . import nn as _nn
from ._base import Node, register
from .quant_linear import (_RANGES, _check_params, _param_f32, _quantized_dtype, _round_half_even_finite,
                           _sub_node, integer_matmul, requantize_ort)


def _ms(op_type: str):
    return register(f"com.microsoft.{op_type}", since=1)


def _f32(n: Node, i: int):
    v = _param_f32(n, i)
    return n.constant(v.reshape(())) if isinstance(v, np.ndarray) else n.op("reshape")(v, [])


def _zp_f32(n: Node, i: Optional[int]):
    if i is None or not n.has(i):
        return n.constant(np.float32(0))
    if n.is_const(i):
        return n.constant(n.const(i).astype(np.float32).reshape(()))
    return n.op("reshape")(n.op("cast")(n.expr(i), "float32"), [])


def _centered(n: Node, i: int, zp: Optional[int]):
    """float32(q - zp) of input ``i``."""
    return n.op("subtract")(n.op("cast")(n.expr(i), "float32"), _zp_f32(n, zp))


def dequantized(n: Node, i: int, scale: int, zp: Optional[int]):
    return n.op("multiply")(_centered(n, i, zp), _f32(n, scale))


def quantized(n: Node, f, scale: int, zp: Optional[int], dtype: str, zero_point_first: bool = False):
    """onnxruntime's QuantizeLinear: round_half_even(f / scale) + zp, saturated.
    ``zero_point_first``: its QLinearAveragePool's ``nearbyint(f / scale + zp)`` in float32, the
    zero point added before the rounding (a value within float rounding below a tie can round up
    once the zero point is added)."""
    r = n.op("divide")(f, _f32(n, scale))
    if zero_point_first:
        r = n.op("add")(r, _zp_f32(n, zp))
    r = round_half_to_even_clipped(r, n.constant(np.float32(ROUNDING_MAGIC)))  # 8-bit: within +-2^22
    if not zero_point_first:
        r = n.op("add")(r, _zp_f32(n, zp))
    lo, hi = _RANGES[dtype]
    return n.op("cast")(n.op("clip")(r, float(lo), float(hi)), dtype)


def _finite_multipliers(n: Node, *ratios) -> bool:
    """Whether every ``(numerators, denominator)`` scale ratio is constant and, times the
    largest 8-bit magnitude product (255 * 255), finite in float32."""
    if not all(n.is_const(i) for num, den in ratios for i in (*num, den)):
        return False
    with np.errstate(over="ignore"):
        return all(np.isfinite(np.prod([_param_f32(n, i)[0] for i in num], dtype=np.float32)
                               / _param_f32(n, den)[0] * np.float32(65025)) for num, den in ratios)


def _rounded(n: Node, f, zp: Optional[int], dtype: str, finite: bool = False):
    """``f`` rounded half to even plus the zero point, saturated; ``finite``: ``f`` is known to
    be finite (the layout-friendly rounding of quant_linear)."""
    half = n.constant(np.float32(0.5))
    r = _round_half_even_finite(n, f) if finite else round_half_to_even(f, half)
    lo, hi = _RANGES[dtype]
    return n.op("cast")(n.op("clip")(n.op("add")(r, _zp_f32(n, zp)), float(lo), float(hi)), dtype)


def _unary_checks(n: Node) -> str:
    dt = _quantized_dtype(n, 0, "X")
    _check_params(n, [(1, "X_scale", None), (3, "Y_scale", None)],
                  [(2, "X_zero_point", dt, None), (4, "Y_zero_point", dt, None)])
    return dt


@_ms("QLinearAdd")
def _qlinear_add(n: Node):
    dt = _quantized_dtype(n, 0, "A")
    _check_params(n, [(1, "A_scale", None), (4, "B_scale", None), (6, "C_scale", None)],
                  [(2, "A_zero_point", dt, None), (5, "B_zero_point", dt, None), (7, "C_zero_point", dt, None)])
    ratio_a = n.op("divide")(_f32(n, 1), _f32(n, 6))
    ratio_b = n.op("divide")(_f32(n, 4), _f32(n, 6))
    f = n.op("add")(n.op("multiply")(_centered(n, 0, 2), ratio_a),
                    n.op("multiply")(_centered(n, 3, 5), ratio_b))
    return _rounded(n, f, 7, dt, _finite_multipliers(n, ((1,), 6), ((4,), 6)))


@_ms("QLinearMul")
def _qlinear_mul(n: Node):
    dt = _quantized_dtype(n, 0, "A")
    _check_params(n, [(1, "A_scale", None), (4, "B_scale", None), (6, "C_scale", None)],
                  [(2, "A_zero_point", dt, None), (5, "B_zero_point", dt, None), (7, "C_zero_point", dt, None)])
    m = n.op("divide")(n.op("multiply")(_f32(n, 1), _f32(n, 4)), _f32(n, 6))
    f = n.op("multiply")(n.op("multiply")(_centered(n, 0, 2), _centered(n, 3, 5)), m)
    return _rounded(n, f, 7, dt, _finite_multipliers(n, ((1, 4), 6)))


@_ms("QLinearSigmoid")
def _qlinear_sigmoid(n: Node):
    dt = _unary_checks(n)
    return quantized(n, n.op("sigmoid")(dequantized(n, 0, 1, 2)), 3, 4, dt)


@_ms("QLinearLeakyRelu")
def _qlinear_leaky_relu(n: Node):
    dt = _unary_checks(n)
    alpha = float(n.attr("alpha", 0.01))
    x = dequantized(n, 0, 1, 2)
    return quantized(n, n.op("nn.leaky_relu")(x, alpha=alpha), 3, 4, dt)


@_ms("QLinearGlobalAveragePool")
def _qlinear_global_average_pool(n: Node):
    dt = _unary_checks(n)
    rank = n.rank(0)
    axes = list(range(1, rank - 1)) if int(n.attr("channels_last", 0)) else list(range(2, rank))
    mean = n.op("mean")(dequantized(n, 0, 1, 2), axis=axes, keepdims=True)
    return quantized(n, mean, 3, 4, dt)


@_ms("QLinearAveragePool")
def _qlinear_average_pool(n: Node):
    dt = _unary_checks(n)
    if int(n.attr("channels_last", 0)):
        raise n.unsupported("channels_last=1")
    sub = _sub_node(n, [dequantized(n, 0, 1, 2)], [(n.shape(0), "float32")])
    # onnxruntime's QLinearAveragePool divides ceil mode's last windows by the whole window
    # with count_include_pad=1 (its float AveragePool leaves the part past the padding out)
    return quantized(n, _nn._pool(sub, "avg", ceil_counts_window=True), 3, 4, dt, zero_point_first=True)


@_ms("QLinearConcat")
def _qlinear_concat(n: Node):
    """Inputs: Y_scale, Y_zero_point, then (X, X_scale, X_zero_point) per tensor; a tensor
    whose constant parameters equal the output's is taken as is, the others requantized
    through float (onnxruntime's lookup table of dequantize-quantize)."""
    if len(n.inputs) < 5 or (len(n.inputs) - 2) % 3:
        raise n.invalid(f"takes Y_scale, Y_zero_point and (X, X_scale, X_zero_point) triples, "
                        f"got {len(n.inputs)} inputs")
    dt = _quantized_dtype(n, 2, "X")
    scales = [(0, "Y_scale", None)] + [(i + 1, f"input {i + 1} scale", None) for i in range(2, len(n.inputs), 3)]
    zps = [(1, "Y_zero_point", dt, None)] + [(i + 2, f"input {i + 2} zero point", dt, None)
                                             for i in range(2, len(n.inputs), 3)]
    _check_params(n, scales, zps)
    fields = []
    for i in range(2, len(n.inputs), 3):
        same = all(n.is_const(a) and n.is_const(b) and np.array_equal(n.const(a), n.const(b))
                   for a, b in ((i + 1, 0), (i + 2, 1)))
        fields.append(n.expr(i) if same else quantized(n, dequantized(n, i, i + 1, i + 2), 0, 1, dt))
    axis = n.axis("axis", n.rank(2))
    return n.op("concatenate")(fields, axis=axis)


@_ms("QGemm")
def _qgemm(n: Node):
    """A, a_scale, a_zp, B, b_scale, b_zp, C (int32), y_scale, y_zp; alpha, transA, transB.
    Without y_scale the result is float32: float32(acc) * alpha * a_scale * b_scale."""
    a_dt, b_dt = _quantized_dtype(n, 0, "A"), _quantized_dtype(n, 3, "B")
    ta, tb = int(n.attr("transA", 0)), int(n.attr("transB", 0))
    alpha = float(n.attr("alpha", 1.0))
    sb = n.static_shape(3, "B") if n.is_const(3) else n.shape(3)
    cols = None if sb is None else (sb[0] if tb else sb[1])
    y_dt = n.dtype(8) if n.has(8) else a_dt
    _check_params(n, [(1, "a_scale", None), (4, "b_scale", cols)] + ([(7, "y_scale", None)] if n.has(7) else []),
                  [(2, "a_zero_point", a_dt, None), (5, "b_zero_point", b_dt, cols)]
                  + ([(8, "y_zero_point", y_dt, None)] if n.has(8) else []))
    m = _sub_node(n, list(n.inputs), list(n.in_types))
    for i, t in ((0, ta), (3, tb)):
        if t:
            m.inputs[i] = (np.ascontiguousarray(n.const(i).T) if n.is_const(i)
                           else n.op("transpose")(n.expr(i), [1, 0]))
            shape = n.shape(i)
            m.in_types[i] = (None if shape is None else tuple(reversed(shape)), n.dtype(i))
    acc = integer_matmul(m, 0, 2, 3, 5)
    if n.has(6):
        acc = n.op("add")(acc, n.op("cast")(n.expr(6), "int32"))
    bs = _param_f32(n, 4)
    scale_b = n.constant(bs.reshape(-1)[0] if bs.size == 1 else bs.reshape(1, -1)) \
        if isinstance(bs, np.ndarray) else bs
    ab = n.op("multiply")(n.op("multiply")(_f32(n, 1), scale_b), n.constant(np.float32(alpha)))
    if not n.has(7):
        return n.op("multiply")(n.op("cast")(acc, "float32"), ab)
    return requantize_ort(n, acc, n.op("divide")(ab, _f32(n, 7)), 8, y_dt)


@_ms("QLinearSoftmax")
def _qlinear_softmax(n: Node):
    """softmax of the dequantized input along ``axis`` in float32, quantized (onnxruntime
    builds it from a table of exponentials: up to 1 step apart)."""
    dt = _unary_checks(n)
    axis = n.axis("axis", n.rank(0), -1)
    if int(n.attr("opset", 13)) < 13 and axis != n.rank(0) - 1:  # Softmax-1..11: coerced to 2-D
        raise n.unsupported("opset < 13 with an axis other than the last")
    return quantized(n, n.op("nn.softmax")(dequantized(n, 0, 1, 2), axis=axis), 3, 4, dt)
