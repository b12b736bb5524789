"""One TFLite operator as the converters see it: its tensors, constant data,
quantization parameters, options table, and located errors.

A converter is ``fn(op: Op) -> Expr`` (or a list, one per output) registered
under the TFLite builtin's name (``CONV_2D``) with :func:`register`.
Quantized tensors are carried as their storage integers (int8/uint8/int16/int32);
``Op.qparams(i)`` gives their (scale, zero point, axis).
"""
from __future__ import annotations

from typing import Callable, Dict, List, NamedTuple, Optional

import numpy as np

from ... import expr as _expr
from ..common import ImportError_, UnsupportedError

CONVERTERS: Dict[str, Callable] = {}

# TFLite's TensorType enum (schema.fbs) -> numpy/Relay dtype.
DTYPES = {0: "float32", 1: "float16", 2: "int32", 3: "uint8", 4: "int64", 6: "bool", 7: "int16",
          9: "int8", 10: "float64", 12: "uint64", 15: "uint32", 16: "uint16"}
# ActivationFunctionType enum.
ACT_NONE, ACT_RELU, ACT_RELU_N1_TO_1, ACT_RELU6, ACT_TANH = 0, 1, 2, 3, 4
ACT_NAMES = {0: "NONE", 1: "RELU", 2: "RELU_N1_TO_1", 3: "RELU6", 4: "TANH", 5: "SIGN_BIT"}


def register(*names: str):
    """Registers a converter under TFLite builtin operator names (each name once)."""
    def deco(fn):
        taken = sorted(set(names) & set(CONVERTERS))
        if taken:
            raise ValueError(f"TFLite operators {taken} already have a converter")
        CONVERTERS.update(dict.fromkeys(names, fn))
        return fn
    return deco


class QParams(NamedTuple):
    """A tensor's affine quantization: ``real = scale * (q - zero_point)``."""
    scale: np.ndarray        # float32, 1 element or one per channel along ``axis``
    zero_point: np.ndarray   # int32, same length as ``scale`` (or 1)
    axis: int

    @property
    def per_channel(self) -> bool:
        return self.scale.size > 1

    def scale_expr(self) -> _expr.Expr:
        return _expr.const(self.scale if self.per_channel else self.scale.reshape(()))

    def zp_expr(self) -> _expr.Expr:
        zp = self.zero_point.reshape(-1)
        return _expr.const(zp if zp.size > 1 and (zp != zp[0]).any() else zp[0])

    @property
    def zp(self) -> int:
        """The zero point of a per-tensor quantization."""
        return int(self.zero_point.reshape(-1)[0])


class Op:
    """The operator at ``index`` of the subgraph being imported (see tflite.py's ``_Graph``)."""

    def __init__(self, graph, index: int, op, name: str) -> None:
        self.graph, self.index, self.raw, self.name = graph, index, op, name
        self.inputs: List[int] = [int(t) for t in op.InputsAsNumpy()] if op.InputsLength() else []
        self.outputs: List[int] = [int(t) for t in op.OutputsAsNumpy()] if op.OutputsLength() else []

    # -- errors ------------------------------------------------------------------------------
    def where(self, tensor: Optional[int] = None) -> str:
        t = self.outputs[0] if tensor is None and self.outputs else tensor
        tname = f", tensor '{self.graph.tensor_name(t)}'" if t is not None and t >= 0 else ""
        return f"TFLite operator #{self.index} ({self.name}{tname})"

    def unsupported(self, msg: str, tensor: Optional[int] = None) -> UnsupportedError:
        return UnsupportedError(f"{self.where(tensor)}: {msg}", self.name, str(self.index))

    def invalid(self, msg: str, tensor: Optional[int] = None) -> ImportError_:
        return ImportError_(f"{self.where(tensor)}: {msg}", self.name, str(self.index))

    # -- tensors -----------------------------------------------------------------------------
    def has(self, i: int) -> bool:
        return i < len(self.inputs) and self.inputs[i] >= 0

    def expr(self, i: int) -> _expr.Expr:
        if not self.has(i):
            raise self.invalid(f"input {i} is missing")
        return self.graph.value(self.inputs[i], self)

    def is_const(self, i: int) -> bool:
        return self.has(i) and self.graph.constant(self.inputs[i]) is not None

    def const(self, i: int) -> np.ndarray:
        data = self.graph.constant(self.inputs[i]) if self.has(i) else None
        if data is None:
            raise self.unsupported(f"input {i} must be a constant tensor", self.inputs[i] if self.has(i) else None)
        return data

    def dtype(self, i: int) -> str:
        return self.graph.tensor_dtype(self.inputs[i])

    def shape(self, i: int) -> List[int]:
        return self.graph.tensor_shape(self.inputs[i])

    def out_dtype(self, k: int = 0) -> str:
        return self.graph.tensor_dtype(self.outputs[k])

    def out_shape(self, k: int = 0) -> List[int]:
        return self.graph.tensor_shape(self.outputs[k])

    @property
    def quantized(self) -> bool:
        """True when the first output is an int8/uint8/int16 tensor: TFLite's quantized form
        of an arithmetic operator, which needs quantization parameters (their absence is
        an error naming the tensor, never integer arithmetic on the raw values)."""
        if self.out_dtype() not in ("int8", "uint8", "int16"):
            return False
        self.out_qparams()
        return True

    def qparams(self, i: int, what: str = "input") -> QParams:
        return self._qparams(self.inputs[i], f"{what} {i}")

    def out_qparams(self, k: int = 0) -> QParams:
        return self._qparams(self.outputs[k], f"output {k}")

    def _qparams(self, t: int, what: str) -> QParams:
        q = self.graph.qparams(t)
        if q is None:
            raise self.invalid(f"{what} (tensor '{self.graph.tensor_name(t)}', "
                               f"{self.graph.tensor_dtype(t)}) has no quantization parameters; a quantized "
                               f"{self.name} needs a scale and zero point on every quantized tensor", t)
        return q

    # -- options -----------------------------------------------------------------------------
    def options(self, cls_name: str):
        """The builtin options table as the ``tflite`` package's ``cls_name`` class (None if absent)."""
        import tflite
        table = self.raw.BuiltinOptions()
        if table is None:
            return None
        opts = getattr(tflite, cls_name)()
        opts.Init(table.Bytes, table.Pos)
        return opts
