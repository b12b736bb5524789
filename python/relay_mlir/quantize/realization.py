"""Realize: turn the calibrated simulated graph into integer arithmetic (TVM 0.19's
``QuantizeRealize``, src/relay/quantize/realize.cc).

A realized value is an integer tensor with a float32 scale (``value = data * dom_scale``).
- A simulated quantization of a float value: ``cast?(clip(round(x * (1/scale))))`` kept in
  float32 until an integer op casts it. Of an integer value: the same scale only clips;
  a power-of-two ratio is ``right_shift`` (after adding half when ``round_for_shift``) or
  ``left_shift``; any other ratio is ``cast`` int64 + ``fixed_point_multiply`` (the operator
  for UPWARD rounding, its integer arithmetic for TONEAREST, as TVM), clip, cast back.
- ``nn.conv2d``/``nn.conv1d``/``nn.dense``: operands cast to ``dtype_input``/``dtype_weight``
  (int8), ``out_dtype=dtype_activation`` (int32); scale = product of the operands' scales;
  ``nn.batch_matmul`` likewise (each operand cast only if its dtype differs).
- ``multiply``: both operands in int32, scales multiply. ``add``/``concatenate``: operands
  brought to the smaller scale (shift left, integer multiply or fixed-point multiply), in
  int32 for add; a float32 operand of ``add`` gets a ``stop_fusion``.
- ``clip``: bounds divided by the scale. ``nn.relu``, ``reshape``, ``strided_slice``,
  ``transpose``, ``nn.batch_flatten``, ``stop_fusion``: unchanged integers. ``nn.max_pool*``:
  in ``dtype_input``; ``nn.avg_pool2d``/``nn.global_avg_pool2d``: in ``dtype_activation``.
  ``annotation.cast_hint``: a cast.
- Anything else takes float32 operands: ``cast(data, float32) * dom_scale``.
"""
from __future__ import annotations

import math
from typing import List, Optional

import numpy as np

from ..expr import Call, Expr, Function, const
from ..op import tensor
from .config import QAnnotateKind, current_qconfig
from ..qnn.fixed_point import fixed_point
from .fixed_point_multiply import fixed_point_multiply
from .forward_rewrite import TempExpr, Value, forward_rewrite, scalar_of
from .hints import SIMULATED_QUANTIZE, is_simulated_quantize, stop_fusion

__all__ = ["realize"]

f32 = np.float32


class _Int(TempExpr):
    """An integer tensor ``data`` of ``dtype`` standing for ``data * dom_scale``."""

    def __init__(self, data: Expr, dom_scale: np.float32, dtype: str) -> None:
        self.data, self.dom_scale, self.dtype = data, f32(dom_scale), dtype

    def realize(self) -> Expr:
        return tensor.cast(self.data, "float32") * const(self.dom_scale)


def _forward(call: Call, args: List[Expr], **attrs: object) -> Call:
    return Call(call.op, args, {**call.attrs, **attrs})


def _cast_to(v: _Int, dtype: str) -> Expr:
    return v.data if v.dtype == dtype else tensor.cast(v.data, dtype)


def _is_int_log2(x: float) -> bool:
    return float(int(x)) == x


def _mul_and_div(data: Expr, s1: np.float32, s2: np.float32, dtype: str) -> Expr:
    """``data * s1 / s2`` for ``s1 >= s2``, by a shift where possible (TVM's MulAndDiv)."""
    if s1 == s2:
        return data
    factor = f32(s1 / s2)
    log = f32(math.log2(factor))
    if _is_int_log2(log):
        return tensor.left_shift(data, const(int(log), dtype))
    if _is_int_log2(factor):
        return data * const(int(factor), dtype)
    return tensor.cast(_fixed_point(data, dtype, factor), dtype)


def _fixed_point(data: Expr, dtype: str, factor: np.float32) -> Expr:
    """``data * factor`` in fixed point: TVM's ``fixed_point_multiply`` operator for UPWARD
    rounding (as TVM's realize emits it), its integer arithmetic for TONEAREST (TVM spells
    that out too)."""
    rounding = current_qconfig().rounding
    if rounding == "UPWARD":
        mantissa, shift = fixed_point(float(factor))
        return tensor.fixed_point_multiply(data, mantissa, shift)
    return fixed_point_multiply(data, dtype, float(factor), rounding)


def _requantize(n: _Int, scale: np.float32, lo: float, hi: float) -> _Int:
    """An integer value brought to ``scale`` and clipped (TVM's QuantizeRealize on ints)."""
    cfg = current_qconfig()
    if n.dom_scale == scale:
        return _Int(tensor.clip(n.data, lo, hi), scale, n.dtype)
    shift = f32(math.log2(f32(scale / n.dom_scale)))
    act = cfg.dtype_activation
    if _is_int_log2(shift):
        data = n.data
        if shift > 0:
            if cfg.round_for_shift:
                data = data + const(int(2.0 ** (shift - 1)), act)
            data = tensor.right_shift(data, const(int(shift), act))
        else:
            data = tensor.left_shift(data, const(int(-shift), act))
        return _Int(tensor.clip(data, lo, hi), scale, n.dtype)
    wide = _fixed_point(tensor.cast(n.data, "int64"), "int64", f32(n.dom_scale / scale))
    return _Int(tensor.cast(tensor.clip(wide, lo, hi), n.dtype), scale, n.dtype)


def _simulated_quantize(call: Call, args: List[Value]) -> Value:
    scale = f32(scalar_of(args[1], "dom_scale"))
    lo, hi = float(scalar_of(args[2], "clip_min")), float(scalar_of(args[3], "clip_max"))
    if isinstance(args[0], _Int):
        return _requantize(args[0], scale, lo, hi)
    scaled = args[0] * const(f32(1 / scale))
    return _Int(tensor.clip(tensor.round(scaled), lo, hi), scale, "float32")


def _both_int(call: Call, args: List[Value]) -> Optional[List[_Int]]:
    """The operands if all are realized integers, else None: the call then takes float
    operands (TVM 0.19 aborts on a mix, which ``debug_enabled_ops`` can produce)."""
    return args if all(isinstance(a, _Int) for a in args) else None  # type: ignore[return-value]


def _contraction(call: Call, args: List[Value]) -> Optional[Value]:
    both = _both_int(call, args)
    if both is None:
        return None
    cfg = current_qconfig()
    lhs, rhs = both
    out = _forward(call, [_cast_to(lhs, cfg.dtype_input), _cast_to(rhs, cfg.dtype_weight)],
                   out_dtype=cfg.dtype_activation)
    return _Int(out, f32(lhs.dom_scale * rhs.dom_scale), cfg.dtype_activation)


def _multiply(call: Call, args: List[Value]) -> Optional[Value]:
    both = _both_int(call, args)
    if both is None:
        return None
    act = current_qconfig().dtype_activation
    lhs, rhs = both
    out = _forward(call, [_cast_to(lhs, act), _cast_to(rhs, act)])
    return _Int(out, f32(lhs.dom_scale * rhs.dom_scale), act)


def _unify(ref_args: List[Expr], args: List[_Int], dtype: Optional[str]):
    """Operands in one dtype at the smallest scale (TVM's UnifyDTypeScale)."""
    cfg = current_qconfig()
    if dtype is None:
        dtype = cfg.dtype_input if len(args) == 2 and args[1].dtype == cfg.dtype_input \
            else cfg.dtype_activation
    out = []
    for ref, a in zip(ref_args, args):
        data = a.data
        if a.dtype != dtype:
            data = tensor.cast(data, dtype)
        elif is_simulated_quantize(ref) and ref.attrs["kind"] == QAnnotateKind.INPUT:
            data = tensor.cast(stop_fusion(tensor.cast(data, cfg.dtype_input)), dtype)
        out.append(data)
    if len(args) == 2:
        scale = min(args[0].dom_scale, args[1].dom_scale)
    else:
        scale = f32(cfg.global_scale / 2.0 ** (cfg.nbit_activation - 1))
    return [_mul_and_div(d, a.dom_scale, scale, dtype) for d, a in zip(out, args)], scale, dtype


def _add(call: Call, args: List[Value]) -> Optional[Value]:
    both = _both_int(call, args)
    if both is None:
        return None
    data, scale, dtype = _unify(call.args, both, current_qconfig().dtype_activation)
    data = [stop_fusion(d) if a.dtype == "float32" else d for d, a in zip(data, both)]
    return _Int(_forward(call, data), scale, dtype)


def _concatenate(call: Call, args: List[Value]) -> Optional[Value]:
    fields = _both_int(call, args)
    if fields is None:
        return None
    data, scale, dtype = _unify(call.args, fields, None)
    return _Int(_forward(call, data), scale, dtype)


def _clip(call: Call, args: List[Value]) -> Optional[Value]:
    n = args[0]
    if not isinstance(n, _Int):
        return None
    s = float(n.dom_scale)
    out = _forward(call, [n.data], a_min=call.attrs["a_min"] / s, a_max=call.attrs["a_max"] / s)
    return _Int(out, n.dom_scale, n.dtype)


def _unary(dtype_field: Optional[str]):
    def rule(call: Call, args: List[Value]) -> Optional[Value]:
        n = args[0]
        if not isinstance(n, _Int):
            return None
        if dtype_field is None:
            return _Int(_forward(call, [n.data]), n.dom_scale, n.dtype)
        dtype = getattr(current_qconfig(), dtype_field)
        return _Int(_forward(call, [_cast_to(n, dtype)]), n.dom_scale, dtype)
    return rule


def _cast_hint(call: Call, args: List[Value]) -> Optional[Value]:
    n = args[0]
    if not isinstance(n, _Int):
        return None
    dtype = call.attrs["dtype"]
    return _Int(tensor.cast(n.data, dtype), n.dom_scale, dtype)


def _rules():
    table = {SIMULATED_QUANTIZE: _simulated_quantize, "nn.conv2d": _contraction,
             "nn.conv1d": _contraction, "nn.dense": _contraction, "nn.batch_matmul": _contraction,
             "multiply": _multiply,
             "add": _add, "concatenate": _concatenate, "clip": _clip,
             "annotation.cast_hint": _cast_hint}
    for name in ("nn.relu", "reshape", "strided_slice", "transpose", "nn.batch_flatten",
                 "annotation.stop_fusion"):
        table[name] = _unary(None)
    for name in ("nn.max_pool2d", "nn.max_pool1d"):
        table[name] = _unary("dtype_input")
    for name in ("nn.avg_pool2d", "nn.global_avg_pool2d"):
        table[name] = _unary("dtype_activation")
    return table


def realize(fn: Function) -> Function:
    return forward_rewrite(fn, _rules())
