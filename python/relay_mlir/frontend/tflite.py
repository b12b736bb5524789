"""The TFLite importer: ``from_tflite(model, shape_dict=None, dtype_dict=None) -> (mod, params)``.

``model`` is a ``.tflite`` file's path, its bytes, or a ``tflite.Model`` (the
flatbuffer accessors of the ``tflite`` package, what TVM 0.19's
``relay.frontend.from_tflite`` takes). The first subgraph becomes ``main``: one
parameter per subgraph input, named after its tensor, of the model's shape and
dtype (``shape_dict`` / ``dtype_dict`` override them by name), returning the
subgraph's output (a tuple for several). Weights are embedded as constants, so
``params`` is empty (TVM 0.19 returns them as ``_param_N`` parameters; binding them
gives the same program).

Float models map onto Relay's NHWC operators; int8/uint8 models (the TensorFlow
converter's post-training quantization) onto the qnn operators with TFLite's
arithmetic (see tflite_ops/). An operator without a converter, or a quantized tensor
without quantization parameters, is an error naming the operator's index, its
opcode and the tensor.

    >>> from relay_mlir.frontend.tflite import supported_ops
    >>> "CONV_2D" in supported_ops() and "DEPTHWISE_CONV_2D" in supported_ops()
    True
"""
from __future__ import annotations

import os
from typing import Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from .. import expr as _expr
from ..errors import CompileError
from ..module import IRModule
from .common import ImportError_, UnexpectedImportError, UnsupportedError
from .tflite_ops import CONVERTERS, DTYPES, Op, QParams

__all__ = ["from_tflite", "load_model", "supported_ops"]


def supported_ops() -> List[str]:
    """The TFLite builtin operators the importer converts."""
    return sorted(CONVERTERS)


def load_model(model):
    """A ``tflite.Model`` from a path, the file's bytes, or a ``tflite.Model``."""
    import tflite
    if hasattr(model, "Subgraphs") and hasattr(model, "OperatorCodes"):
        return model
    if isinstance(model, (str, os.PathLike)):
        with open(model, "rb") as f:
            model = f.read()
    if not isinstance(model, (bytes, bytearray, memoryview)):
        raise TypeError(f"from_tflite takes a .tflite path, its bytes or a tflite.Model, "
                        f"got {type(model).__name__}")
    buf = bytes(model)
    if len(buf) < 8 or buf[4:8] != b"TFL3":
        raise ImportError_("from_tflite: not a TFLite flatbuffer (expected the file identifier "
                           f"'TFL3' at bytes 4..8, got {buf[4:8]!r})")
    return tflite.Model.GetRootAs(buf, 0)


def _builtin_names() -> Dict[int, str]:
    import tflite
    return {v: k for k, v in vars(tflite.BuiltinOperator).items() if not k.startswith("_")}


class _Graph:
    """Tensors of one subgraph and the Relay values computed for them so far."""

    def __init__(self, model, shape_dict: Mapping[str, Sequence[int]], dtype_dict: Mapping[str, str]):
        self.model, self.sg = model, model.Subgraphs(0)
        self.shape_dict, self.dtype_dict = dict(shape_dict), dict(dtype_dict)
        self.values: Dict[int, _expr.Expr] = {}
        self.folded: Dict[int, np.ndarray] = {}  # outputs of operators on constants (DEQUANTIZE)

    def tensor_name(self, t: int) -> str:
        name = self.sg.Tensors(t).Name()
        return name.decode() if isinstance(name, bytes) else str(name)

    def tensor_dtype(self, t: int) -> str:
        code = self.sg.Tensors(t).Type()
        if code not in DTYPES:
            raise UnsupportedError(f"TFLite tensor '{self.tensor_name(t)}' has element type {code}, "
                                   f"which is not supported ({sorted(set(DTYPES.values()))})")
        return self.dtype_dict.get(self.tensor_name(t), DTYPES[code])

    def tensor_shape(self, t: int) -> List[int]:
        name = self.tensor_name(t)
        if name in self.shape_dict:
            return [int(d) for d in self.shape_dict[name]]
        tensor = self.sg.Tensors(t)
        return [int(d) for d in tensor.ShapeAsNumpy()] if tensor.ShapeLength() else []

    def constant(self, t: int) -> Optional[np.ndarray]:
        """The tensor's data when it is a constant (or computed from constants at import)."""
        if t in self.folded:
            return self.folded[t]
        buf = self.model.Buffers(self.sg.Tensors(t).Buffer())
        if buf is None or buf.DataLength() == 0:
            return None
        data = buf.DataAsNumpy().tobytes()
        return np.frombuffer(data, dtype=self.tensor_dtype(t)).reshape(self.tensor_shape(t))

    def qparams(self, t: int) -> Optional[QParams]:
        q = self.sg.Tensors(t).Quantization()
        if q is None or q.ScaleLength() == 0:
            return None
        scale = q.ScaleAsNumpy().astype(np.float32)
        zp = q.ZeroPointAsNumpy().astype(np.int32) if q.ZeroPointLength() else np.zeros(1, np.int32)
        return QParams(scale, zp, int(q.QuantizedDimension()))

    def value(self, t: int, op: Op) -> _expr.Expr:
        if t in self.values:
            return self.values[t]
        data = self.constant(t)
        if data is None:
            raise op.invalid(f"tensor '{self.tensor_name(t)}' is read before any operator computes it", t)
        return _expr.const(data)


_ZP_RANGES = {"int8": (-128, 127), "uint8": (0, 255), "int16": (-32768, 32767)}


def _check_qparams(graph: _Graph, t: int, where: str) -> None:
    """Scales positive and finite, zero points inside the tensor's dtype, per-channel
    parameters one per channel along the quantized dimension."""
    q = graph.qparams(t)
    if q is None:
        return
    name, dtype, shape = graph.tensor_name(t), graph.tensor_dtype(t), graph.tensor_shape(t)
    bad = ~np.isfinite(q.scale) | (q.scale <= 0)
    if bad.any():
        raise ImportError_(f"{where}: tensor '{name}' has scale {q.scale[bad][0]:g}; "
                           "scales must be positive and finite")
    lo, hi = _ZP_RANGES.get(dtype, (-(2 ** 31), 2 ** 31 - 1))
    out = (q.zero_point < lo) | (q.zero_point > hi)
    if out.any():
        raise ImportError_(f"{where}: tensor '{name}' ({dtype}) has zero point {q.zero_point[out][0]}, "
                           f"outside {dtype}'s range [{lo}, {hi}]")
    if q.zero_point.size not in (1, q.scale.size):
        raise ImportError_(f"{where}: tensor '{name}' has {q.scale.size} scales and "
                           f"{q.zero_point.size} zero points; expected as many (or one zero point)")
    if q.per_channel and (not 0 <= q.axis < len(shape) or shape[q.axis] != q.scale.size):
        raise ImportError_(f"{where}: tensor '{name}' of shape {shape} has {q.scale.size} per-channel "
                           f"scales along dimension {q.axis}; expected one per channel")


def _convert(graph: _Graph, names: Dict[int, str], outputs: Optional[Sequence[str]]) -> _expr.Expr:
    sg = graph.sg
    params = []
    for k in range(sg.InputsLength()):
        t = int(sg.Inputs(k))
        v = _expr.var(graph.tensor_name(t), shape=graph.tensor_shape(t), dtype=graph.tensor_dtype(t))
        graph.values[t] = v
        params.append(v)
    for i in range(sg.OperatorsLength()):
        raw = sg.Operators(i)
        code = graph.model.OperatorCodes(raw.OpcodeIndex())
        name = names.get(max(code.BuiltinCode(), code.DeprecatedBuiltinCode()), "CUSTOM")
        op = Op(graph, i, raw, name)
        if name not in CONVERTERS:
            custom = code.CustomCode()
            what = f"custom operator '{custom.decode()}'" if custom else f"builtin operator {name}"
            raise op.unsupported(f"{what} is not supported (supported: {', '.join(supported_ops())})")
        for t in op.inputs + op.outputs:
            if t >= 0:
                _check_qparams(graph, t, op.where(t))
        try:
            out = CONVERTERS[name](op)
        except CompileError:
            raise
        except Exception as e:  # noqa: BLE001 - last resort, located
            raise UnexpectedImportError(f"{op.where()}: internal error in the importer "
                                        f"({type(e).__name__}: {str(e)[:200]})", e, name, str(i)) from e
        outs = out if isinstance(out, (list, tuple)) else [out]
        for t, v in zip(op.outputs, outs):
            graph.values[t] = v
    by_name = {graph.tensor_name(t): t for t in graph.values}
    if outputs is None:
        chosen = [int(sg.Outputs(k)) for k in range(sg.OutputsLength())]
    else:
        missing = [n for n in outputs if n not in by_name]
        if missing:
            raise ValueError(f"from_tflite: outputs {missing} are not tensors that the model computes")
        chosen = [by_name[n] for n in outputs]
    absent = [graph.tensor_name(t) for t in chosen if t not in graph.values]
    if absent:
        raise ImportError_(f"from_tflite: output tensors {absent} are computed by no operator")
    results = [graph.values[t] for t in chosen]
    body = results[0] if len(results) == 1 else _expr.Tuple(results)
    return _expr.Function(params, body)


def from_tflite(model, shape_dict: Optional[Mapping[str, Sequence[int]]] = None,
                dtype_dict: Optional[Mapping[str, str]] = None, *,
                outputs: Optional[Sequence[str]] = None) -> Tuple[IRModule, Dict[str, np.ndarray]]:
    """Imports a TFLite model as ``(mod, params)`` (see the module docstring).

    ``outputs`` (relay-mlir's, not TVM's): names of the tensors ``main`` returns (a
    tuple) instead of the subgraph's outputs, e.g. every operator's output to compare
    them one by one with the TFLite interpreter's.
    """
    m = load_model(model)
    if m.SubgraphsLength() < 1:
        raise ImportError_("from_tflite: the model has no subgraph")
    graph = _Graph(m, shape_dict or {}, dtype_dict or {})
    inputs = {graph.tensor_name(int(graph.sg.Inputs(k))) for k in range(graph.sg.InputsLength())}
    for what, d in (("shape_dict", graph.shape_dict), ("dtype_dict", graph.dtype_dict)):
        unknown = sorted(set(d) - inputs)
        if unknown:
            raise ValueError(f"from_tflite: {what} names {unknown}, which are not model inputs "
                             f"(inputs: {sorted(inputs)})")
    mod = IRModule.from_expr(_convert(graph, _builtin_names(), outputs))
    return mod, {}
