"""The converter registry and ``Node``, the view of one ONNX node a converter gets."""
from __future__ import annotations

import functools
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ... import expr as E
from ...ty import Any
from ..common import UnsupportedError

__all__ = ["register", "lookup", "registry", "Node", "relay_op", "have_op"]

Converter = Callable[["Node"], object]
_REGISTRY: Dict[str, List[Tuple[int, Converter]]] = {}


def register(op_type: str, since: int = 1):
    """Registers a converter for ``op_type`` from opset ``since`` on."""
    def deco(fn: Converter) -> Converter:
        entries = _REGISTRY.setdefault(op_type, [])
        entries.append((since, fn))
        entries.sort(key=lambda e: e[0])
        return fn
    return deco


def lookup(op_type: str, opset: int) -> Optional[Converter]:
    """The converter for ``op_type`` at ``opset`` (None if there is none)."""
    best = None
    for since, fn in _REGISTRY.get(op_type, ()):
        if since <= opset:
            best = fn
    return best


def registry() -> Dict[str, List[int]]:
    """``op_type -> [since versions]`` of every registered converter."""
    return {k: [s for s, _ in v] for k, v in sorted(_REGISTRY.items())}


# ---------------------------------------------------------------------------
# relay operators: found by their Relay name among the builder functions
# ---------------------------------------------------------------------------
@functools.lru_cache(maxsize=None)
def _registered(mlir_name: str) -> bool:
    from ..._context import make_context
    return make_context().is_registered_operation(mlir_name)


def _builder(name: str) -> Optional[Callable]:
    from ... import op as relay_op_pkg
    parts = name.split(".")
    obj: object = relay_op_pkg
    for p in parts:
        nxt = getattr(obj, p, None)
        if nxt is None and obj is relay_op_pkg:
            import importlib
            try:  # e.g. relay_mlir.op.image
                nxt = importlib.import_module(f"{relay_op_pkg.__name__}.{p}")
            except ImportError:
                nxt = None
        if nxt is None:
            return None
        obj = nxt
    return obj if callable(obj) else None


def have_op(name: str) -> bool:
    """Whether Relay op ``name`` has a builder function and is in the dialect."""
    return _builder(name) is not None and _registered("relay." + name)


# ---------------------------------------------------------------------------
class Node:
    """One ONNX node as a converter sees it.

    ``inputs`` holds a Relay expression, a numpy array (known at import time)
    or None (an omitted optional input) per ONNX input.
    """

    def __init__(self, proto, inputs: Sequence[object], in_types: Sequence[object],
                 out_types: Sequence[object], opset: int, label: str) -> None:
        from onnx import helper
        self.proto = proto
        self.op_type = proto.op_type
        self.name = label
        self.inputs = list(inputs)
        self.in_types = list(in_types)     # (shape tuple with None dims | None, dtype | None)
        self.out_types = list(out_types)
        self.opset = opset
        self.outputs = list(proto.output)
        self._attrs = {a.name: a for a in proto.attribute}
        self._used: set = set()
        self._helper = helper

    # -- errors --------------------------------------------------------------
    def unsupported(self, what: str) -> UnsupportedError:
        return UnsupportedError(
            f"ONNX {self.op_type} node '{self.name}' (opset {self.opset}): {what}",
            self.op_type, self.name, self.opset)

    # -- attributes ----------------------------------------------------------
    _REQ = object()

    def has_attr(self, name: str) -> bool:
        return name in self._attrs

    def attr(self, name: str, default: object = _REQ) -> object:
        """Attribute ``name`` as a Python value (tensors as numpy arrays)."""
        self._used.add(name)
        a = self._attrs.get(name)
        if a is None:
            if default is Node._REQ:
                raise self.unsupported(f"required attribute '{name}' is missing")
            return default
        if a.ref_attr_name:
            raise self.unsupported(f"attribute '{name}' refers to a function attribute")
        v = self._helper.get_attribute_value(a)
        from onnx import numpy_helper, AttributeProto
        if a.type == AttributeProto.TENSOR:
            return numpy_helper.to_array(v)
        if a.type == AttributeProto.STRING:
            return v.decode("utf-8")
        if a.type == AttributeProto.STRINGS:
            return [s.decode("utf-8") for s in v]
        if a.type in (AttributeProto.INTS, AttributeProto.FLOATS):
            return list(v)
        if a.type in (AttributeProto.GRAPH, AttributeProto.GRAPHS, AttributeProto.SPARSE_TENSOR,
                      AttributeProto.TENSORS, AttributeProto.SPARSE_TENSORS, AttributeProto.TYPE_PROTO,
                      AttributeProto.TYPE_PROTOS):
            raise self.unsupported(f"attribute '{name}' of kind {AttributeProto.AttributeType.Name(a.type)}")
        return v

    def ignore(self, *names: str) -> None:
        """Marks attributes as consumed (they do not change the result)."""
        self._used.update(names)

    def expect(self, name: str, *allowed: object, default: object = None) -> object:
        """Attribute ``name``; anything outside ``allowed`` is unsupported."""
        v = self.attr(name, default)
        if v not in allowed:
            raise self.unsupported(f"attribute {name}={v!r} is not supported "
                                   f"(supported: {', '.join(repr(a) for a in allowed)})")
        return v

    def unused_attributes(self) -> List[str]:
        return [n for n in self._attrs if n not in self._used]

    # -- inputs --------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.inputs)

    def has(self, i: int) -> bool:
        return i < len(self.inputs) and self.inputs[i] is not None

    def is_const(self, i: int) -> bool:
        return self.has(i) and isinstance(self.inputs[i], np.ndarray)

    def const(self, i: int, what: str = "") -> np.ndarray:
        """Input ``i`` as a numpy array; unsupported if only known at run time."""
        if not self.has(i):
            raise self.unsupported(f"input {i} is required")
        v = self.inputs[i]
        if not isinstance(v, np.ndarray):
            raise self.unsupported(f"input {i}{' (' + what + ')' if what else ''} must be a constant "
                                   "(an initializer or computable at import time); it is only known at run time")
        return v

    def opt_const(self, i: int, what: str = "") -> Optional[np.ndarray]:
        return self.const(i, what) if self.has(i) else None

    def expr(self, i: int) -> E.Expr:
        """Input ``i`` as a Relay expression (constants become ``relay.const``)."""
        if not self.has(i):
            raise self.unsupported(f"input {i} is required")
        v = self.inputs[i]
        if isinstance(v, np.ndarray):
            return self.constant(v)
        return v

    def constant(self, arr: np.ndarray) -> E.Constant:
        arr = np.asarray(arr)
        check_dtype(self, arr.dtype.name)
        return E.const(arr, arr.dtype.name)

    def scalar(self, value: object, like: int = 0, dtype: Optional[str] = None) -> E.Constant:
        """A 0-d constant with the dtype of input ``like`` (or ``dtype``)."""
        dt = dtype or self.dtype(like)
        return self.constant(np.array(value, dtype=dt))

    def _type(self, i: int):
        """(shape, dtype) of input ``i``: ONNX's inferred type, else Relay's type inference
        of the expression built so far (when ONNX shape inference could not type it)."""
        t = self.in_types[i] if i < len(self.in_types) else None
        if (t is None or t[0] is None or t[1] is None) and isinstance(self.inputs[i], E.Expr):
            rt = relay_type(self.inputs[i])
            if rt is not None:
                t = (t[0] if t and t[0] is not None else rt[0], t[1] if t and t[1] else rt[1])
                self.in_types[i] = t
        return t

    def shape(self, i: int) -> Optional[Tuple[Optional[int], ...]]:
        """Static shape of input ``i`` (None dims are unknown; None if the rank is unknown)."""
        if not self.has(i):
            return None
        v = self.inputs[i]
        if isinstance(v, np.ndarray):
            return tuple(v.shape)
        t = self._type(i)
        return t[0] if t else None

    def rank(self, i: int) -> int:
        s = self.shape(i)
        if s is None:
            raise self.unsupported(f"the rank of input {i} is unknown (run ONNX shape inference "
                                   "or give input shapes)")
        return len(s)

    def static_shape(self, i: int, what: str = "") -> Tuple[int, ...]:
        s = self.shape(i)
        if s is None or any(d is None for d in s):
            raise self.unsupported(f"input {i}{' (' + what + ')' if what else ''} needs a static shape, "
                                   f"got {fmt_shape(s)}")
        return tuple(int(d) for d in s)

    def dtype(self, i: int) -> str:
        v = self.inputs[i] if i < len(self.inputs) else None
        if isinstance(v, np.ndarray):
            return v.dtype.name
        t = self._type(i) if v is not None else None
        if not t or t[1] is None:
            raise self.unsupported(f"the element type of input {i} is unknown")
        return t[1]

    def out_shape(self, j: int = 0) -> Optional[Tuple[Optional[int], ...]]:
        t = self.out_types[j] if j < len(self.out_types) else None
        return t[0] if t else None

    def out_dtype(self, j: int = 0) -> Optional[str]:
        t = self.out_types[j] if j < len(self.out_types) else None
        return t[1] if t else None

    def static_out_shape(self, j: int = 0) -> Optional[Tuple[int, ...]]:
        """The output's shape when the model declares (or ONNX infers) it fully, else None.

        Used when an input that only shapes the result (Reshape's ``shape``,
        Unsqueeze's ``axes``, ...) is a run-time value: the model's declared
        output type fixes the result, as a model's type annotations are part
        of its contract.
        """
        s = self.out_shape(j)
        if s is None or any(d is None for d in s):
            return None
        return tuple(int(d) for d in s)

    def wants_output(self, j: int) -> bool:
        return j < len(self.outputs) and self.outputs[j] != ""

    # -- relay ops ---------------------------------------------------------
    def op(self, name: str) -> Callable:
        """The builder function of Relay op ``name``; unsupported if the dialect lacks it."""
        fn = _builder(name)
        if fn is None or not _registered("relay." + name):
            raise self.unsupported(f"needs Relay operator '{name}', which relay-mlir does not have yet")
        return fn


def relay_type(e: E.Expr) -> Optional[Tuple[Tuple[Optional[int], ...], str]]:
    """(shape with None for unknown dims, dtype) of ``e`` by Relay type inference, or None."""
    if isinstance(e, E.TupleWrapper):
        return None
    t = getattr(e, "_checked_type", None)
    if t is None:
        from ...errors import CompileError
        from ...module import IRModule
        from ...transform import InferType
        try:
            InferType()(IRModule.from_expr(e))
        except (CompileError, ValueError, TypeError):
            return None
        t = getattr(e, "_checked_type", None)
    from ...ty import TensorType
    if not isinstance(t, TensorType):
        return None
    return (tuple(d if isinstance(d, int) else None for d in t.shape), t.dtype)


def fmt_shape(s) -> str:
    if s is None:
        return "unknown rank"
    return "[" + ", ".join("?" if d is None else str(d) for d in s) + "]"


_RELAY_DTYPES = {"float16", "bfloat16", "float32", "float64", "int8", "int16", "int32", "int64",
                 "uint8", "uint16", "uint32", "uint64", "bool"}


def check_dtype(node: Optional[Node], dtype: str) -> str:
    if dtype not in _RELAY_DTYPES:
        msg = f"element type {dtype} is not supported by relay-mlir"
        if node is not None:
            raise node.unsupported(msg)
        raise UnsupportedError(msg)
    return dtype


def to_relay_shape(shape) -> list:
    return [Any() if d is None else int(d) for d in shape]
