"""Annotate: place simulated quantizations (TVM 0.19's ``QuantizeAnnotate``, _annotate.py).

A value is tracked with its annotation kind: INPUT (about to be an int8 operand), WEIGHT
(a constant int8 operand) or ACTIVATION (an int32 accumulator). Rules:

- ``nn.conv2d``/``nn.conv1d`` (unless skipped by ``skip_conv_layers``, counted from 0 in
  visiting order) and ``nn.dense`` (unless ``skip_dense_layer``): the data becomes INPUT,
  the weight WEIGHT; the result is ACTIVATION.
- ``add``: with one annotated operand, a constant other operand is a WEIGHT, anything else
  an INPUT; two ACTIVATIONs: the right one becomes INPUT. ``multiply`` likewise (one operand
  must be unannotated). ``nn.batch_matmul``: each unannotated or ACTIVATION operand becomes
  WEIGHT if constant, else INPUT; the result is ACTIVATION. ``concatenate`` with an annotated
  input: the unannotated inputs become ACTIVATION; the result is ACTIVATION.
- ``reshape``, ``clip``, ``nn.relu``, ``strided_slice``, ``nn.avg_pool2d``,
  ``nn.batch_flatten``, ``transpose``, ``annotation.stop_fusion`` keep their operand's kind;
  ``nn.max_pool2d``/``nn.max_pool1d`` and ``annotation.cast_hint`` make it INPUT.
- ``nn.global_avg_pool2d`` ends quantization: nothing after it is annotated.
- An annotated value used more than once becomes INPUT first.

A simulated quantization of one value with one kind is made once and shared.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from ..expr import Call, Expr, Function, var
from .config import QAnnotateKind, current_qconfig
from .forward_rewrite import TempExpr, Value, forward_rewrite, realized
from .hints import is_simulated_quantize, simulated_quantize
from .partitioning import is_constant

__all__ = ["annotate"]

K = QAnnotateKind


class _Annotated(TempExpr):
    def __init__(self, expr: Expr, kind: int) -> None:
        self.expr, self.kind = expr, kind

    def realize(self) -> Expr:
        return self.expr


def _split(v: Value) -> Tuple[Expr, Optional[int]]:
    return (v.expr, v.kind) if isinstance(v, _Annotated) else (v, None)


def _forward(call: Call, args: List[Expr]) -> Call:
    return Call(call.op, args, dict(call.attrs))


class _Annotator:
    """The per-run state of TVM's ``QuantizeContext``: shared quantize nodes, the conv counter
    and the stop flag."""

    def __init__(self) -> None:
        self.nodes: Dict[Tuple[int, int], Call] = {}
        self.conv_count = 0
        self.stopped = False

    def attach(self, data: Expr, kind: int) -> Expr:
        if is_simulated_quantize(data) and data.attrs["kind"] == kind:
            return data
        key = (id(data), kind)
        if key not in self.nodes:
            self.nodes[key] = simulated_quantize(data, var("dom_scale"), var("clip_min"),
                                                 var("clip_max"), kind)
        return self.nodes[key]

    def skip(self, call: Call) -> bool:
        if self.stopped:
            return True
        skipped = current_qconfig().skip_conv_layers
        if call.op.name == "nn.conv2d" and skipped is not None:
            index = self.conv_count
            self.conv_count += 1
            return index in skipped
        return False

    def operand(self, v: Value) -> Expr:
        """An operand of an integer op: an unannotated or ACTIVATION value becomes INPUT."""
        expr, kind = _split(v)
        return self.attach(expr, K.INPUT) if kind in (None, K.ACTIVATION) else expr

    def other(self, expr: Expr) -> Expr:
        return self.attach(expr, K.WEIGHT if is_constant(expr) else K.INPUT)

    # -- rules ---------------------------------------------------------------
    def conv(self, call: Call, args: List[Value]) -> Optional[Value]:
        if self.skip(call):
            return None
        weight, kind = _split(args[1])
        if kind is not None:
            raise ValueError(f"relay.quantize: the weight of {call.op.name} must be a plain "
                             "tensor, found a quantized value")
        out = _forward(call, [self.operand(args[0]), self.attach(weight, K.WEIGHT)])
        return _Annotated(out, K.ACTIVATION)

    def dense(self, call: Call, args: List[Value]) -> Optional[Value]:
        if current_qconfig().skip_dense_layer:
            return None
        return self.conv(call, args)

    def _binary(self, call: Call, args: List[Value]):
        """The operands and their kinds, or None if the call stays float."""
        if self.skip(call):
            return None
        (lhs, lk), (rhs, rk) = _split(args[0]), _split(args[1])
        return None if lk is None and rk is None else (lhs, lk, rhs, rk)

    def add(self, call: Call, args: List[Value]) -> Optional[Value]:
        operands = self._binary(call, args)
        if operands is None:
            return None
        lhs, lk, rhs, rk = operands
        if lk is None:
            lhs = self.attach(lhs, K.INPUT)
        elif rk is None:
            rhs = self.other(rhs)
        elif lk == K.ACTIVATION and rk == K.ACTIVATION:
            rhs = self.attach(rhs, K.INPUT)
        return _Annotated(_forward(call, [lhs, rhs]), K.ACTIVATION)

    def multiply(self, call: Call, args: List[Value]) -> Optional[Value]:
        operands = self._binary(call, args)
        if operands is None:
            return None
        lhs, lk, rhs, rk = operands
        if lk is not None and rk is not None:
            raise ValueError("relay.quantize: multiply of two quantized values is not supported "
                             "(as in TVM 0.19)")
        if lk is not None:
            lhs, rhs = self.operand(args[0]), self.other(rhs)
        else:
            lhs, rhs = self.other(lhs), self.operand(args[1])
        return _Annotated(_forward(call, [lhs, rhs]), K.ACTIVATION)

    def batch_matmul(self, call: Call, args: List[Value]) -> Optional[Value]:
        if self.skip(call):
            return None
        operands = []
        for v in args:
            expr, kind = _split(v)
            operands.append(self.other(expr) if kind in (None, K.ACTIVATION) else expr)
        return _Annotated(_forward(call, operands), K.ACTIVATION)

    def concatenate(self, call: Call, args: List[Value]) -> Optional[Value]:
        fields = [_split(v) for v in args]
        if self.skip(call) or all(k is None for _, k in fields):
            return None
        exprs = [self.attach(e, K.ACTIVATION) if k is None else e for e, k in fields]
        return _Annotated(_forward(call, exprs), K.ACTIVATION)

    def identity(self, call: Call, args: List[Value]) -> Optional[Value]:
        if self.skip(call):
            return None
        expr, kind = _split(args[0])
        return None if kind is None else _Annotated(_forward(call, [expr]), kind)

    def to_input(self, call: Call, args: List[Value]) -> Optional[Value]:
        if self.skip(call):
            return None
        expr, kind = _split(args[0])
        if kind is None:
            return None
        return _Annotated(_forward(call, [self.operand(args[0])]), K.INPUT)

    def cast_hint(self, call: Call, args: List[Value]) -> Value:
        expr, kind = _split(args[0])
        if self.skip(call) or kind is None:
            return expr
        return _Annotated(_forward(call, [self.operand(args[0])]), K.INPUT)

    def global_avg_pool2d(self, call: Call, args: List[Value]) -> Optional[Value]:
        if self.skip(call) or _split(args[0])[1] is None:
            return None
        self.stopped = True
        return _forward(call, [realized(args[0])])

    def multi_ref(self, v: Value) -> Value:
        if isinstance(v, _Annotated):
            return _Annotated(self.attach(v.expr, K.INPUT), K.INPUT)
        return v

    def rules(self):
        table = {"nn.conv2d": self.conv, "nn.conv1d": self.conv, "nn.dense": self.dense,
                 "nn.batch_matmul": self.batch_matmul, "concatenate": self.concatenate,
                 "add": self.add, "multiply": self.multiply,
                 "nn.max_pool2d": self.to_input, "nn.max_pool1d": self.to_input,
                 "annotation.cast_hint": self.cast_hint,
                 "nn.global_avg_pool2d": self.global_avg_pool2d}
        for name in ("reshape", "clip", "nn.relu", "strided_slice", "nn.avg_pool2d",
                     "nn.batch_flatten", "transpose", "annotation.stop_fusion"):
            table[name] = self.identity
        cfg = current_qconfig()
        return {name: self._guarded(rule, cfg) for name, rule in table.items()}

    @staticmethod
    def _guarded(rule, cfg):
        def run(call: Call, args: List[Value]) -> Optional[Value]:
            return rule(call, args) if cfg.guard(call) else None
        return run


def annotate(fn: Function) -> Function:
    a = _Annotator()
    return forward_rewrite(fn, a.rules(), a.multi_ref)
