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

from typing import Iterable, Sequence, SupportsInt, Union, cast

import numpy as np

__all__ = [
    "Type", "Any", "TensorType", "scalar_type", "TupleType", "FuncType", "IncompleteType",
    "RefType", "OpaqueType", "TypeVar", "TypeKind", "GlobalTypeVar", "TypeCall", "dtype_to_mlir", "mlir_to_dtype",
    "from_mlir", "parse_mlir_type", "canonical_dtype", "TVM_DTYPE_ALIASES",
]

# Relay dtype name <-> MLIR element type.
_DTYPES = {
    "float16": "f16", "bfloat16": "bf16", "float32": "f32", "float64": "f64",
    "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64",
    "uint8": "ui8", "uint16": "ui16", "uint32": "ui32", "uint64": "ui64",
    "bool": "i1",
    # narrow types beyond TVM 0.19 (ONNX INT4/UINT4/INT2/UINT2 and the float8 family; numpy
    # arrays of them are ml_dtypes'): see docs/quantization.md "Narrow element types"
    "int4": "i4", "uint4": "ui4", "int2": "i2", "uint2": "ui2",
    "float8_e4m3fn": "f8E4M3FN", "float8_e4m3fnuz": "f8E4M3FNUZ", "float8_e5m2": "f8E5M2",
    "float8_e5m2fnuz": "f8E5M2FNUZ", "float8_e8m0fnu": "f8E8M0FNU",
}
_MLIR_TO_DTYPE = {v: k for k, v in _DTYPES.items()}
#: TVM 0.19's spellings of the float8 types (``tvm.DataType("e4m3_float8")``), accepted as input
TVM_DTYPE_ALIASES = {"e4m3_float8": "float8_e4m3fn", "e5m2_float8": "float8_e5m2"}


def canonical_dtype(dtype: str) -> str:
    """``dtype`` with TVM's float8 spellings replaced by ml_dtypes' (``"e4m3_float8"`` ->
    ``"float8_e4m3fn"``, ``"e5m2_float8"`` -> ``"float8_e5m2"``); other names unchanged."""
    return TVM_DTYPE_ALIASES.get(dtype, dtype)


def dtype_to_mlir(dtype: str) -> str:
    """The MLIR element type for a Relay dtype name.

    >>> dtype_to_mlir("float32")
    'f32'
    """
    if not isinstance(dtype, str):
        dtype = np.dtype(dtype).name
    try:
        return _DTYPES[canonical_dtype(dtype)]
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
        v = int(cast(SupportsInt, d))  # numpy ints
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
        self.dtype = canonical_dtype(dtype) if isinstance(dtype, str) else dtype
        dtype_to_mlir(dtype)  # validate early

    @property
    def concrete_shape(self) -> tuple:
        """The shape as ints; raises if any dim is ``?``."""
        if any(isinstance(d, Any) for d in self.shape):
            raise ValueError(f"{self} has unknown dims")
        return tuple(int(cast(int, d)) for d in self.shape)

    def to_mlir(self) -> str:
        dims = "".join(("?" if isinstance(d, Any) else str(d)) + "x" for d in self.shape)
        return f"tensor<{dims}{dtype_to_mlir(self.dtype)}>"

    def __repr__(self) -> str:
        return f"TensorType({list(self.shape)}, {self.dtype})"


def scalar_type(dtype: str) -> TensorType:
    """A rank-0 tensor type, ``relay.scalar_type(dtype)``.

    >>> scalar_type("int32")
    TensorType([], int32)
    """
    return TensorType((), dtype)


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


class TypeKind:
    """Kinds of type variables, as ``tvm.relay.TypeKind``."""

    Type = 0
    ShapeVar = 1
    Constraint = 4
    AdtHandle = 5
    TypeData = 6


class TypeVar(Type):
    """A type parameter, ``relay.TypeVar(name_hint, kind=TypeKind.Type)`` (``!relay.tvar<"a">``).

    Type parameters of generic functions (``Function(..., type_params=[a])``)
    and of algebraic data types. Two TypeVars are the same parameter only if
    they are the same object (as in Relay); the MLIR spelling uses the name.

    >>> TypeVar("a").to_mlir()
    '!relay.tvar<"a">'
    """

    def __init__(self, name_hint: str, kind: int = TypeKind.Type) -> None:
        self.name_hint = name_hint
        self.kind = kind

    def to_mlir(self) -> str:
        return f'!relay.tvar<"{self.name_hint}">'

    __hash__ = object.__hash__

    def __eq__(self, other: object) -> bool:
        return self is other

    def __repr__(self) -> str:
        return f"TypeVar({self.name_hint!r})"


class GlobalTypeVar(Type):
    """Names an algebraic data type in a module, ``relay.GlobalTypeVar(name_hint)``.

    Calling it applies the type to arguments: ``List(a)`` is ``TypeCall(List, [a])``.

    >>> List = GlobalTypeVar("List")
    >>> List(TensorType([2])).to_mlir()
    '!relay.adt<@List, tensor<2xf32>>'
    """

    def __init__(self, name_hint: str, kind: int = TypeKind.AdtHandle) -> None:
        self.name_hint = name_hint
        self.kind = kind

    def __call__(self, *args: Type) -> "TypeCall":
        return TypeCall(self, list(args))

    def to_mlir(self) -> str:
        return f"!relay.adt<@{self.name_hint}>"

    __hash__ = object.__hash__

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, GlobalTypeVar) and other.name_hint == self.name_hint)

    def __repr__(self) -> str:
        return f"GlobalTypeVar({self.name_hint!r})"


class TypeCall(Type):
    """An algebraic data type applied to type arguments, ``relay.TypeCall(func, args)``.

    ``func`` is the ADT's ``GlobalTypeVar`` (a name is accepted too).

    >>> TypeCall(GlobalTypeVar("List"), [TensorType([2])]).to_mlir()
    '!relay.adt<@List, tensor<2xf32>>'
    """

    def __init__(self, func: Union["GlobalTypeVar", str], args: Sequence[Type] = ()) -> None:
        self.func = func if isinstance(func, GlobalTypeVar) else GlobalTypeVar(str(func))
        self.args = list(args)

    def to_mlir(self) -> str:
        return "!relay.adt<@" + ", ".join([self.func.name_hint] + [a.to_mlir() for a in self.args]) + ">"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, TypeCall) and self.func == other.func
                and len(self.args) == len(other.args)
                and all(a == b for a, b in zip(self.args, other.args)))

    def __hash__(self) -> int:
        return hash(self.to_mlir())

    def __repr__(self) -> str:
        return f"TypeCall({self.func.name_hint!r}, {self.args!r})"


def _dtype_of(elt) -> str:
    """The Relay dtype of an MLIR element type object; raises ValueError."""
    from . import ir  # the MLIR bindings are only loaded once a program is emitted

    if isinstance(elt, ir.IntegerType):
        if elt.width == 1:
            return "bool"
        return ("uint" if elt.is_unsigned else "int") + str(elt.width)
    for cls, name in ((ir.F32Type, "float32"), (ir.F16Type, "float16"), (ir.BF16Type, "bfloat16"),
                      (ir.F64Type, "float64")):
        if isinstance(elt, cls):
            return name
    if str(elt) in _MLIR_TO_DTYPE:  # the float8 types (no dedicated Python classes needed)
        return _MLIR_TO_DTYPE[str(elt)]
    raise ValueError(f"unsupported MLIR element type '{elt}'")


def from_mlir(t) -> Type:
    """Converts an MLIR type object (``relay_mlir.ir.Type``) to a Relay ``Type``, structurally.

    Ranked tensors become ``TensorType`` (dynamic dims ``Any``), ``tuple<>``
    ``TupleType``, ``!relay.fn``/builtin function types ``FuncType``,
    ``!relay.ref`` ``RefType``, ``!relay.incomplete`` ``IncompleteType``,
    ``!relay.tvar`` ``TypeVar`` and ``!relay.adt`` ``TypeCall``; anything else
    is an ``OpaqueType`` holding its text. Iterative, so deeply nested types
    are fine.

    >>> from relay_mlir import ir
    >>> with ir.Context():
    ...     from_mlir(ir.Type.parse("tuple<tensor<1x?xf32>, !relay.fn<(tensor<i1>) -> tensor<i1>>>"))
    TupleType([TensorType([1, ?], float32), FuncType([TensorType([], bool)], TensorType([], bool))])
    """
    # the MLIR bindings (and the relay types' classes) are only loaded once a
    # program is emitted; ty.py stays at the bottom of the import graph
    from . import ir
    from .dialects import relay as rd

    # Post-order with an explicit stack: a node's parts are converted first.
    out: dict = {}
    stack = [(t, False)]
    while stack:
        cur, ready = stack.pop()
        key = cur  # MLIR types are uniqued: equal types hash and compare equal
        if key in out:
            continue
        if isinstance(cur, ir.TupleType):
            parts = [cur.get_type(i) for i in range(cur.num_types)]
        elif isinstance(cur, ir.FunctionType):
            parts = list(cur.inputs) + list(cur.results)
        elif isinstance(cur, rd.FuncType):
            parts = list(cur.inputs) + [cur.result]
        elif isinstance(cur, rd.RefType):
            parts = [cur.element_type]
        elif isinstance(cur, rd.ADTType):
            parts = list(cur.args)
        else:
            parts = []
        if not ready and any(p not in out for p in parts):
            stack.append((cur, True))
            stack.extend((p, False) for p in reversed(parts))
            continue
        conv = [out[p] for p in parts]
        if isinstance(cur, ir.RankedTensorType):
            if cur.encoding is not None:
                res: Type = OpaqueType(str(cur))
            else:
                try:
                    res = TensorType([Any() if cur.is_dynamic_dim(i) else d
                                      for i, d in enumerate(cur.shape)], _dtype_of(cur.element_type))
                except ValueError:
                    res = OpaqueType(str(cur))
        elif isinstance(cur, ir.TupleType):
            res = TupleType(conv)
        elif isinstance(cur, ir.FunctionType):
            n = len(cur.inputs)
            rets = conv[n:]
            res = FuncType(conv[:n], rets[0] if len(rets) == 1 else TupleType(rets))
        elif isinstance(cur, rd.FuncType):
            res = FuncType(conv[:-1], conv[-1])
        elif isinstance(cur, rd.RefType):
            res = RefType(conv[0])
        elif isinstance(cur, rd.IncompleteType):
            res = IncompleteType()
        elif isinstance(cur, rd.TypeVarType):
            res = TypeVar(cur.name)
        elif isinstance(cur, rd.ADTType):
            res = TypeCall(cur.name, conv)
        else:
            res = OpaqueType(str(cur))
        out[key] = res
    return out[t]


def parse_mlir_type(text: str) -> Type:
    """Turns the text of an MLIR type into a Python ``Type`` (parsed by MLIR, see ``from_mlir``).

    >>> parse_mlir_type("tensor<1x?xf32>")
    TensorType([1, ?], float32)
    >>> parse_mlir_type("tuple<tensor<2xi1>, tensor<f32>>").fields[0].dtype
    'bool'
    """
    from . import ir  # the MLIR bindings are only loaded once a program is emitted

    with ir.Context():
        return from_mlir(ir.Type.parse(text))
