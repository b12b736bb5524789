"""Partition: mark where quantized sections end (TVM 0.19's ``QuantizePartition``).

Rules (``FQPartitionRewrite`` in TVM's _partition.py): a ``nn.conv2d`` result starts a
section; ``clip``, ``nn.relu`` and ``nn.max_pool2d`` continue it; ``add`` and ``multiply``
continue or close it (residual connections close both branches, a constant operand
continues); ``nn.global_avg_pool2d`` closes its input. A section's value that leaves it is
realized as ``stop_fusion(cast_hint(x, dtype_input))``.
"""
from __future__ import annotations

from typing import List, Optional

from ..analysis import free_vars
from ..expr import Call, Constant, Expr, Function
from .config import current_qconfig
from .forward_rewrite import TempExpr, Value, forward_rewrite
from .hints import cast_hint, stop_fusion

__all__ = ["partition", "is_constant"]


class _Section(TempExpr):
    def __init__(self, expr: Expr) -> None:
        self.expr = expr

    def realize(self) -> Expr:
        return stop_fusion(cast_hint(self.expr, current_qconfig().dtype_input))


def is_constant(e: Expr) -> bool:
    """TVM's ``analysis.check_constant``: no variable reaches ``e``."""
    return isinstance(e, Constant) or not free_vars(e)


def _forward(call: Call, args: List[Expr]) -> Call:
    return Call(call.op, args, dict(call.attrs))


def _conv2d(call: Call, args: List[Value]) -> Value:
    data = args[0].realize() if isinstance(args[0], _Section) else args[0]
    return _Section(_forward(call, [data, args[1]]))


def _identity(call: Call, args: List[Value]) -> Optional[Value]:
    if isinstance(args[0], _Section):
        return _Section(_forward(call, [args[0].expr]))
    return None


def _add(call: Call, args: List[Value]) -> Optional[Value]:
    lhs, rhs = args
    if isinstance(lhs, _Section) and isinstance(rhs, _Section):
        return _Section(_forward(call, [lhs.realize(), rhs.realize()]))
    if isinstance(rhs, _Section):
        return _forward(call, [lhs, rhs.realize()])
    if isinstance(lhs, _Section):
        if is_constant(rhs):  # a bias (batch norm's add)
            return _Section(_forward(call, [lhs.expr, rhs]))
        return _forward(call, [lhs.realize(), rhs])
    return None


def _multiply(call: Call, args: List[Value]) -> Optional[Value]:
    lhs, rhs = args
    if isinstance(lhs, _Section):
        return _Section(_forward(call, [lhs.realize(), rhs]))
    if isinstance(rhs, _Section):
        return _Section(_forward(call, [lhs, rhs.realize()]))
    return None


def _global_avg_pool2d(call: Call, args: List[Value]) -> Value:
    data = args[0] if isinstance(args[0], _Section) else _Section(args[0])
    return _forward(call, [data.realize()])


RULES = {"nn.conv2d": _conv2d, "clip": _identity, "nn.relu": _identity,
         "nn.max_pool2d": _identity, "add": _add, "multiply": _multiply,
         "nn.global_avg_pool2d": _global_avg_pool2d}


def partition(fn: Function) -> Function:
    return forward_rewrite(fn, RULES)
