"""Relay types in Python: ``TensorType``, ``TupleType``, ``FuncType``, ``Any``.

These mirror ``tvm.relay.TensorType`` and friends. They are only *descriptions*
used for annotations and for reporting inferred types (``expr.checked_type``);
type inference itself is done by the C++ relations (``relay-infer-type``).

Example::

    >>> from relay_mlir import TensorType, Any
    >>> TensorType((1, Any(), 4), "float32")
    TensorType([1, ?, 4], float32)
    >>> TensorType((2, 3), "float32").to_mlir()
    'tensor<2x3xf32>'
"""
from __future__ import annotations

from typing import Iterable, List, Sequence, Union

__all__ = [
    "Type", "Any", "TensorType", "TupleType", "FuncType", "IncompleteType",
    "RefType", "OpaqueType", "dtype_to_mlir", "mlir_to_dtype", "parse_mlir_type",
]

# Relay dtype name <-> MLIR element type.
_DTYPES = {
    "float16": "f16", "bfloat16": "bf16", "float32": "f32", "float64": "f64",
    "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64",
    "uint8": "ui8", "uint16": "ui16", "uint32": "ui32", "uint64": "ui64",
    "bool": "i1",
}
_MLIR_TO_DTYPE = {v: k for k, v in _DTYPES.items()}


def dtype_to_mlir(dtype: str) -> str:
    """The MLIR element type for a Relay dtype name.

    >>> dtype_to_mlir("float32")
    'f32'
    """
    import numpy as np

    if not isinstance(dtype, str):
        dtype = np.dtype(dtype).name
    try:
        return _DTYPES[dtype]
    except KeyError:
        raise ValueError(f"unsupported dtype '{dtype}' (known: {', '.join(_DTYPES)})") from None


def mlir_to_dtype(elt: str) -> str:
    """The Relay dtype name for an MLIR element type.

    >>> mlir_to_dtype("i1")
    'bool'
    """
    try:
        return _MLIR_TO_DTYPE[elt]
    except KeyError:
        raise ValueError(f"unsupported MLIR element type '{elt}'") from None


class Type:
    """Base class of Relay types."""

    def to_mlir(self) -> str:  # pragma: no cover - overridden
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Type) and self.to_mlir() == other.to_mlir()

    def __hash__(self) -> int:
        return hash(self.to_mlir())

    def __str__(self) -> str:
        return self.to_mlir()


class Any:
    """An unknown dimension (``?``), Relay's ``relay.Any()``.

    >>> str(Any())
    '?'
    """

    def __repr__(self) -> str:
        return "?"

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Any)

    def __hash__(self) -> int:
        return hash("?")


Dim = Union[int, Any]


def _dim(d: object) -> Dim:
    if isinstance(d, Any) or d is None:
        return Any()
    if isinstance(d, str) and d == "?":
        return Any()
    try:
        v = int(d)  # numpy ints
    except (TypeError, ValueError):
        raise TypeError(f"a shape dimension must be an int or relay_mlir.Any(), got {d!r}") from None
    if v < 0:
        return Any()
    return v


class TensorType(Type):
    """A tensor type, ``relay.TensorType(shape, dtype="float32")``.

    >>> TensorType([2, 3]).shape
    (2, 3)
    """

    def __init__(self, shape: Iterable[object] = (), dtype: str = "float32") -> None:
        self.shape = tuple(_dim(d) for d in shape)
        self.dtype = dtype
        dtype_to_mlir(dtype)  # validate early

    @property
    def concrete_shape(self) -> tuple:
        """The shape as ints; raises if any dim is ``?``."""
        if any(isinstance(d, Any) for d in self.shape):
            raise ValueError(f"{self} has unknown dims")
        return tuple(int(d) for d in self.shape)

    def to_mlir(self) -> str:
        dims = "".join(("?" if isinstance(d, Any) else str(d)) + "x" for d in self.shape)
        return f"tensor<{dims}{dtype_to_mlir(self.dtype)}>"

    def __repr__(self) -> str:
        return f"TensorType({list(self.shape)}, {self.dtype})"


class TupleType(Type):
    """A tuple type, ``relay.TupleType(fields)``.

    >>> TupleType([TensorType([2]), TensorType([])]).to_mlir()
    'tuple<tensor<2xf32>, tensor<f32>>'
    """

    def __init__(self, fields: Sequence[Type]) -> None:
        self.fields = list(fields)

    def to_mlir(self) -> str:
        return "tuple<" + ", ".join(f.to_mlir() for f in self.fields) + ">"

    def __repr__(self) -> str:
        return f"TupleType({self.fields!r})"


class FuncType(Type):
    """A function type, ``relay.FuncType(arg_types, ret_type)``.

    >>> FuncType([TensorType([2])], TensorType([2])).to_mlir()
    '!relay.fn<(tensor<2xf32>) -> tensor<2xf32>>'
    """

    def __init__(self, arg_types: Sequence[Type], ret_type: Type) -> None:
        self.arg_types = list(arg_types)
        self.ret_type = ret_type

    def to_mlir(self) -> str:
        args = ", ".join(a.to_mlir() for a in self.arg_types)
        return f"!relay.fn<({args}) -> {self.ret_type.to_mlir()}>"

    def __repr__(self) -> str:
        return f"FuncType({self.arg_types!r}, {self.ret_type!r})"


class RefType(Type):
    """A reference cell type (``!relay.ref<T>``)."""

    def __init__(self, value: Type) -> None:
        self.value = value

    def to_mlir(self) -> str:
        return f"!relay.ref<{self.value.to_mlir()}>"

    def __repr__(self) -> str:
        return f"RefType({self.value!r})"


class IncompleteType(Type):
    """A type to be inferred (``!relay.incomplete``), ``relay.IncompleteType()``."""

    def to_mlir(self) -> str:
        return "!relay.incomplete"

    def __repr__(self) -> str:
        return "IncompleteType()"


class OpaqueType(Type):
    """Any other MLIR type, kept as its text."""

    def __init__(self, text: str) -> None:
        self.text = text

    def to_mlir(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"OpaqueType({self.text!r})"


def _split_top(s: str, sep: str = ",") -> List[str]:
    """Splits ``s`` at top-level ``sep`` (outside <>, (), [])."""
    parts, depth, cur, i = [], 0, [], 0
    while i < len(s):
        c = s[i]
        if c == "-" and s[i:i + 2] == "->":  # not a closing bracket
            cur.append("->")
            i += 2
            continue
        if c in "<([":
            depth += 1
        elif c in ">)]":
            depth -= 1
        if c == sep and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(c)
        i += 1
    tail = "".join(cur).strip()
    if tail or parts:
        parts.append(tail)
    return [p for p in parts if p != ""]


def parse_mlir_type(text: str) -> Type:
    """Turns the text of an MLIR type into a Python ``Type``.

    >>> parse_mlir_type("tensor<1x?xf32>")
    TensorType([1, ?], float32)
    >>> parse_mlir_type("tuple<tensor<2xi1>, tensor<f32>>").fields[0].dtype
    'bool'
    """
    t = text.strip()
    if t.startswith("tensor<") and t.endswith(">"):
        body = t[len("tensor<"):-1]
        if "," in body:  # encoding attribute: keep opaque
            return OpaqueType(t)
        parts = body.split("x")
        elt = parts[-1]
        dims = [Any() if p == "?" else int(p) for p in parts[:-1]]
        try:
            return TensorType(dims, mlir_to_dtype(elt))
        except ValueError:
            return OpaqueType(t)
    if t.startswith("tuple<") and t.endswith(">"):
        return TupleType([parse_mlir_type(p) for p in _split_top(t[len("tuple<"):-1])])
    if t.startswith("!relay.fn<") and t.endswith(">"):
        inner = t[len("!relay.fn<"):-1].strip()
        # "(args) -> ret"
        depth = 0
        for i, c in enumerate(inner):
            if c in "<([":
                depth += 1
            elif c in ">)]" and not (c == ">" and inner[i - 1] == "-"):
                depth -= 1
                if depth == 0 and c == ")":
                    args = _split_top(inner[1:i])
                    rest = inner[i + 1:].strip()
                    assert rest.startswith("->")
                    return FuncType([parse_mlir_type(a) for a in args],
                                    parse_mlir_type(rest[2:]))
        return OpaqueType(t)
    if t.startswith("!relay.ref<") and t.endswith(">"):
        return RefType(parse_mlir_type(t[len("!relay.ref<"):-1]))
    if t.startswith("!relay.incomplete"):
        return IncompleteType()
    return OpaqueType(t)
