"""TVM 0.19's qnn Legalize (``relay.qnn.transform.Legalize()``) on its x86 (``llvm``) targets.

What TVM does (python/tvm/relay/qnn/op/legalizations.py, measured in the side venv) to
``qnn.conv2d`` and ``qnn.dense`` under a CPU ``tvm.target.Target``:

- without fast int8 (``llvm``, ``-mcpu=x86-64``/``core2``: no sse4.2; relay_mlir.x86_target):
  the operator becomes ``nn.conv2d`` / ``nn.dense`` (its attributes, ``out_dtype`` int32) of
  ``cast(data, int16) - cast(input_zero_point, int16)`` and ``cast(kernel, int16) -
  cast(kernel_zero_point, int16)`` (a per-channel kernel zero point: ``nn.bias_add`` of its
  negation on the kernel's ``O`` axis); the scales are dropped (the int32 result does not
  depend on them);
- with fast int8 (sse4.2: ``-mcpu=nehalem`` and later, ``skylake-avx512``, ...): uint8 data
  with an int8 kernel stay; int8 data becomes uint8 (``cast(cast(data, int32) + 128, uint8)``,
  the input zero point + 128: a new constant when it is one), a uint8 kernel int8 (- 128).

With no target, or a target that is not a CPU, nothing changes (TVM's CUDA/Vulkan/ARM
rewrites are not done). The other qnn operators are left alone (TVM 0.19 legalizes
``qnn.conv2d_transpose`` the same way on every target; relay-mlir's lowering computes it
exactly already).

Why a Python pass: the rewrite asks the current Target, as AlterOpLayout does.
"""
from __future__ import annotations

from typing import Optional

import numpy as np

from .expr import Call, Constant, Expr, Op, const
from .expr_functor import ExprMutator
from .op import nn
from .op.tensor import add, cast, negative, subtract

__all__ = ["legalize_qnn"]

_OPS = ("qnn.conv2d", "qnn.dense")


def _dtype(e: Expr) -> str:
    return str(e.checked_type.dtype)


def _int16_minus(x: Expr, zero_point: Expr, kernel_axis: Optional[int]) -> Expr:
    """``cast(x, int16) - cast(zero_point, int16)``; a per-channel kernel zero point is
    broadcast on ``kernel_axis`` by ``nn.bias_add`` (TVM's form)."""
    wide = cast(x, "int16")
    if kernel_axis is None or not zero_point.checked_type.shape:
        return subtract(wide, cast(zero_point, "int16"))
    return nn.bias_add(wide, negative(cast(zero_point, "int16")), kernel_axis)


def _shift(x: Expr, zero_point: Expr, to: str):
    """TVM's ``_shift``: ``x`` moved by 128 into ``to`` and its zero point with it."""
    by = 128 if to == "uint8" else -128
    moved = cast(add(cast(x, "int32"), const(np.int32(by))), to)
    if isinstance(zero_point, Constant) and zero_point.data.ndim == 0:
        return moved, const(np.int32(int(zero_point.data) + by))
    return moved, add(zero_point, const(np.int32(by)))


class _Legalizer(ExprMutator):
    def __init__(self, fast_int8: bool) -> None:
        super().__init__()
        self.fast_int8 = fast_int8

    def visit_call(self, call: Call) -> Expr:
        new = super().visit_call(call)
        if not (isinstance(call.op, Op) and call.op.name in _OPS):
            return new
        args = list(new.args)
        if self.fast_int8:
            return self._to_uint8_int8(call, args) or new
        attrs = dict(call.attrs)
        if call.op.name == "qnn.dense":
            return nn.dense(_int16_minus(args[0], args[2], None),
                            _int16_minus(args[1], args[3], 0), units=attrs.get("units"),
                            out_dtype=attrs.get("out_dtype") or "int32")
        axis = str(attrs.get("kernel_layout", "OIHW")).index("O")
        return nn.conv2d(_int16_minus(args[0], args[2], None),
                         _int16_minus(args[1], args[3], axis), **attrs)

    @staticmethod
    def _to_uint8_int8(call: Call, args) -> Optional[Expr]:
        data_dtype, kernel_dtype = _dtype(call.args[0]), _dtype(call.args[1])
        if (data_dtype, kernel_dtype) == ("uint8", "int8"):
            return None
        if data_dtype == "int8":
            args[0], args[2] = _shift(args[0], args[2], "uint8")
        if kernel_dtype == "uint8":
            args[1], args[3] = _shift(args[1], args[3], "int8")
        return Call(call.op, args, dict(call.attrs))


def legalize_qnn(fn, fast_int8: bool):
    """``fn`` (typed) with its qnn.conv2d / qnn.dense legalized as TVM does for an x86 target
    with (``fast_int8``) or without sse4.2."""
    return _Legalizer(fast_int8).visit(fn)
