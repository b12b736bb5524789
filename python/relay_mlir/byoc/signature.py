"""The signature an external code generator implements: ``signature(func)``.

An external function's parameters are tensors (``PartitionGraph`` types them with the region
inputs' types) and its result a tensor or a tuple of tensors (a region with several outputs).
``Signature`` lists them with their shapes and dtypes, and spells them as MLIR types (signless
integers, as relay-mlir's lowering makes them) and as C element types.

>>> import relay_mlir as relay
>>> a, b = relay.var("a", shape=(2, 3)), relay.var("b", shape=(2, 3))
>>> f = relay.Function([a, b], a + b, relay.TensorType((2, 3))).with_attr("global_symbol", "ext_add")
>>> sig = signature(f)
>>> sig.symbol, [p.c_type for p in sig.params], sig.mlir_type
('ext_add', ['float', 'float'], '(tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>')
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional, Tuple

from ..expr import Function
from ..ty import Any, TensorType, TupleType, Type, dtype_to_mlir

__all__ = ["Signature", "TensorSpec", "signature", "C_TYPES"]

#: Relay dtype -> the C element type of route (b)'s pointers
C_TYPES = {
    "float32": "float", "float64": "double", "int8": "int8_t", "uint8": "uint8_t",
    "int16": "int16_t", "uint16": "uint16_t", "int32": "int32_t", "uint32": "uint32_t",
    "int64": "int64_t", "uint64": "uint64_t",
}


@dataclass(frozen=True)
class TensorSpec:
    """One parameter or result: ``name``, ``shape`` (ints; None for a ``?`` dim), ``dtype``."""

    name: str
    shape: Tuple[Optional[int], ...]
    dtype: str

    @property
    def static(self) -> bool:
        return all(d is not None for d in self.shape)

    @property
    def size(self) -> int:
        """The number of elements (static shapes only)."""
        n = 1
        for d in self.shape:
            n *= d
        return n

    @property
    def mlir_type(self) -> str:
        """``tensor<2x3xf32>`` (integers signless, as the lowered program has them)."""
        elt = dtype_to_mlir(self.dtype).lstrip("u")
        dims = "".join(("?" if d is None else str(d)) + "x" for d in self.shape)
        return f"tensor<{dims}{elt}>"

    @property
    def c_type(self) -> Optional[str]:
        """The C element type (None: no C type for this dtype)."""
        return C_TYPES.get(self.dtype)


@dataclass(frozen=True)
class Signature:
    """``symbol`` (the global symbol to define), ``params`` and ``results`` (``TensorSpec``s)."""

    symbol: str
    params: Tuple[TensorSpec, ...]
    results: Tuple[TensorSpec, ...]
    result_is_tuple: bool

    @property
    def mlir_type(self) -> str:
        """The MLIR function type: ``(tensor<...>, ...) -> tensor<...>`` or ``-> (..., ...)``."""
        ins = ", ".join(p.mlir_type for p in self.params)
        outs = [r.mlir_type for r in self.results]
        res = outs[0] if len(outs) == 1 else "(" + ", ".join(outs) + ")"
        return f"({ins}) -> {res}"


def _spec(name: str, t: Type, what: str) -> TensorSpec:
    if not isinstance(t, TensorType):
        raise TypeError(f"{what} has type {t}: an external function's parameters and results "
                        "must be tensors (or, for the result, a tuple of tensors)")
    return TensorSpec(name, tuple(None if isinstance(d, Any) else int(d) for d in t.shape), t.dtype)


def _result_types(func: Function) -> Tuple[List[Type], bool]:
    t = func.ret_type
    if t is None:
        t = func.body.checked_type  # typed by compile() (or InferType) before codegens run
    if isinstance(t, TupleType):
        return list(t.fields), True
    return [t], False


def signature(func: Function) -> Signature:
    """The ``Signature`` of external function ``func`` (typed: ``PartitionGraph``'s output,
    or any function after ``InferType``)."""
    if not isinstance(func, Function):
        raise TypeError(f"signature expects a relay Function, got {type(func).__name__}")
    symbol = func.attrs.get("global_symbol")
    params = []
    for i, p in enumerate(func.params):
        t = p.type_annotation if p.type_annotation is not None else p.checked_type
        params.append(_spec(p.name_hint or f"p{i}", t, f"parameter '{p.name_hint}'"))
    types, is_tuple = _result_types(func)
    results = tuple(_spec(f"out{i}", t, f"result {i}") for i, t in enumerate(types))
    return Signature(str(symbol) if symbol is not None else "", tuple(params), results, is_tuple)
