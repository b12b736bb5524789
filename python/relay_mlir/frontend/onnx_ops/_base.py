"""The converter registry and ``Node``, the view of one ONNX node a converter gets."""
from __future__ import annotations

import functools
from typing import Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from ... import expr as E
from ...ty import Any
from ...narrow_dtypes import NARROW_DTYPES
from ..common import ImportError_, UnsupportedError

__all__ = ["register", "lookup", "registry", "Node", "have_op", "tensor_to_array",
           "check_shape_size"]

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
        self.syms: List[object] = [None] * len(self.inputs)  # _symshape.Sym per input (or None)
        self.globals: List[tuple] = []  # (GlobalVar, Function) the importer made so far
        self.shape_memo: dict = {}

    # -- errors --------------------------------------------------------------
    def unsupported(self, what: str) -> UnsupportedError:
        return UnsupportedError(
            f"ONNX {self.op_type} node '{self.name}' (opset {self.opset}): {what}",
            self.op_type, self.name, self.opset)

    def invalid(self, what: str) -> ImportError_:
        """A malformed node (bad attribute, inconsistent input): a clean ``CompileError``."""
        return ImportError_(
            f"ONNX {self.op_type} node '{self.name}' (opset {self.opset}): invalid model: {what}",
            self.op_type, self.name, self.opset)

    # -- attributes ----------------------------------------------------------
    _REQ = object()

    def has_attr(self, name: str) -> bool:
        return name in self._attrs

    def attr(self, name: str, default: object = _REQ) -> object:
        """Attribute ``name`` as a Python value (tensors as numpy arrays).

        The attribute's kind must be the one the operator's ONNX schema
        declares (an ``axis`` given as a float or a string is refused, as is
        a proto whose ``type`` field disagrees with the value it holds);
        strings must be UTF-8; tensors must hold as many elements as their
        dims say (``tensor_to_array``).
        """
        self._used.add(name)
        a = self._attrs.get(name)
        if a is None:
            if default is Node._REQ:
                raise self.unsupported(f"required attribute '{name}' is missing")
            return default
        if a.ref_attr_name:
            raise self.unsupported(f"attribute '{name}' refers to a function attribute")
        from onnx import AttributeProto
        kinds = AttributeProto.AttributeType
        want = _schema_attr_type(self.op_type, self.opset, name)
        if want is not None and a.type != want:
            raise self.invalid(f"attribute '{name}' is {_kind_name(a.type)}, the operator's schema "
                               f"says {_kind_name(want)}")
        if not _holds_kind(a):
            raise self.invalid(f"attribute '{name}' says it is {_kind_name(a.type)} but holds "
                               "another kind of value")
        if a.type == AttributeProto.TENSOR:
            return tensor_to_array(a.t, f"attribute '{name}'", self)
        if a.type == AttributeProto.STRING:
            return self._utf8(name, a.s)
        if a.type == AttributeProto.STRINGS:
            return [self._utf8(name, v) for v in a.strings]
        if a.type == AttributeProto.INTS:
            return list(a.ints)
        if a.type == AttributeProto.FLOATS:
            return list(a.floats)
        if a.type == AttributeProto.INT:
            return int(a.i)
        if a.type == AttributeProto.FLOAT:
            return float(a.f)
        raise self.unsupported(f"attribute '{name}' of kind {kinds.Name(a.type) if a.type in kinds.values() else a.type}")

    def _utf8(self, name: str, b: bytes) -> str:
        try:
            return b.decode("utf-8")
        except UnicodeDecodeError:
            raise self.invalid(f"attribute '{name}' is not a UTF-8 string ({bytes(b[:16])!r})") from None

    def axis(self, name: str, rank: int, default: object = _REQ) -> int:
        """Integer attribute ``name`` as an axis of a rank-``rank`` tensor, normalized to ``[0, rank)``.

        ONNX allows ``[-rank, rank - 1]``; anything else is refused (not wrapped).
        """
        v = self.attr(name, default)
        if not isinstance(v, int):
            raise self.invalid(f"attribute '{name}' must be an integer, got {v!r}")
        return self.check_axis(v, rank, f"attribute '{name}'")

    def check_axis(self, v: int, rank: int, what: str) -> int:
        """Axis ``v`` of a rank-``rank`` tensor normalized to ``[0, rank)``; out of range is an error."""
        v = int(v)
        if not -rank <= v < rank:
            raise self.invalid(f"{what}: axis {v} is out of range for a rank-{rank} tensor "
                               f"(allowed {-rank}..{rank - 1})" if rank else
                               f"{what}: axis {v} given for a rank-0 tensor (it has no axes)")
        return v + rank if v < 0 else v

    def check_axes(self, vs, rank: int, what: str, unique: bool = True) -> List[int]:
        """Axes normalized to ``[0, rank)``; out of range (or repeated, with ``unique``) is an error."""
        out = [self.check_axis(v, rank, what) for v in vs]
        if unique and len(set(out)) != len(out):
            raise self.invalid(f"{what}: repeated axis in {list(int(v) for v in vs)}")
        return out

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
    def check_arity(self) -> None:
        """The inputs the operator's ONNX schema requires are all given, and no more than it takes."""
        spec = _schema_inputs(self.op_type, self.opset)
        if spec is None:
            return
        formals, max_in, allowed = spec
        given = len(self.inputs)
        if given > max_in:
            raise self.invalid(f"{given} inputs given, the operator takes at most {max_in}")
        for j, (name, required, variadic) in enumerate(formals):
            if variadic:
                if required and not any(v is not None for v in self.inputs[j:]):
                    raise self.invalid(f"input {j} ('{name}', variadic) needs at least one value")
                break
            if required and (j >= given or self.inputs[j] is None):
                raise self.invalid(f"required input {j} ('{name}') is missing")
        # element types: those the schema's type constraints allow (when known without inference)
        for j in range(given):
            k = min(j, len(formals) - 1)
            ok = allowed[k] if k >= 0 else None
            if ok is None or self.inputs[j] is None:
                continue
            v = self.inputs[j]
            t = self.in_types[j] if j < len(self.in_types) else None
            dt = v.dtype.name if isinstance(v, np.ndarray) else (t[1] if t else None)
            onnx_name = _ONNX_TYPE_NAMES.get(dt)
            if onnx_name is not None and onnx_name not in ok:
                raise self.invalid(f"input {j} ('{formals[k][0]}') has element type {dt}, the operator's "
                                   f"schema allows {', '.join(sorted(ok))}")

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

    def const_scalar(self, i: int, what: str = "") -> np.ndarray:
        """Constant input ``i`` that must hold exactly one element, as a 0-d array."""
        v = self.const(i, what)
        if v.size != 1:
            raise self.invalid(f"input {i}{' (' + what + ')' if what else ''} must be a scalar "
                               f"(one element), got shape {list(v.shape)}")
        return v.reshape(())

    def const_ints(self, i: int, what: str = "") -> List[int]:
        """Constant 1-D integer input ``i`` as a list of ints."""
        v = self.const(i, what)
        if v.ndim != 1 or v.dtype.kind not in "iu":
            raise self.invalid(f"input {i}{' (' + what + ')' if what else ''} must be a 1-D integer tensor, "
                               f"got {v.dtype.name} of shape {list(v.shape)}")
        return [int(x) for x in v]

    def check_materialize(self, shape, dtype, what: str) -> None:
        """Refuses to build an array above ``MAX_IMPORT_CONSTANT_BYTES`` at import time."""
        check_shape_size(shape, np.dtype(dtype).name, what, self)
        count = 1
        for d in shape:
            count *= max(int(d), 0)
        if count * np.dtype(dtype).itemsize > MAX_IMPORT_CONSTANT_BYTES:
            raise self.unsupported(f"{what} would be a constant of shape {list(shape)} "
                                   f"({count * np.dtype(dtype).itemsize} bytes) built at import time; "
                                   f"the importer builds constants of at most {MAX_IMPORT_CONSTANT_BYTES} bytes")

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
            # (the global functions it may call: loops the importer built)
            rt = relay_type(self.inputs[i], getattr(self, "globals", None))
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

        Never the source of a result's shape: a run-time shape input is used
        as a value (``_symshape``) or checked at run time. Only used to narrow
        the candidates of run-time reduction axes, which are then checked.
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


@functools.lru_cache(maxsize=None)
def _schema_attr_type(op_type: str, opset: int, name: str) -> Optional[int]:
    """The ``AttributeProto`` type the ONNX schema of ``op_type`` at ``opset`` declares for ``name``."""
    try:
        from onnx import defs
        a = defs.get_schema(op_type, opset, "").attributes.get(name)
    except Exception:  # no schema (unknown op, too old an opset): the converter decides
        return None
    return int(a.type) if a is not None else None


@functools.lru_cache(maxsize=None)
def _schema_inputs(op_type: str, opset: int):
    """``([(name, required, variadic)], max inputs)`` of the ONNX schema of ``op_type`` at ``opset``."""
    try:
        from onnx import defs
        sch = defs.get_schema(op_type, opset, "")
    except Exception:
        return None
    opt = defs.OpSchema.FormalParameterOption
    formals = [(f.name, f.option != opt.Optional, f.option == opt.Variadic) for f in sch.inputs]
    allowed = _allowed_types(sch)
    # element types are checked leniently: a type a later version of the operator
    # allows (bool ReduceMax from opset 20) is accepted at older opsets too
    try:
        newest = defs.get_schema(op_type, defs.onnx_opset_version(), "")
        later = _allowed_types(newest) if len(newest.inputs) == len(sch.inputs) else None
    except Exception:
        later = None
    if later is not None:
        allowed = [None if a is None or b is None else a | b for a, b in zip(allowed, later)]
    return formals, sch.max_input, allowed


def _allowed_types(sch) -> List[Optional[set]]:
    """Per formal input of an ONNX schema: the tensor element types allowed (None: not checked)."""
    constraints = {c.type_param_str: {t[len("tensor("):-1] for t in c.allowed_type_strs
                                      if t.startswith("tensor(")} for c in sch.type_constraints}
    allowed: List[Optional[set]] = []
    for f in sch.inputs:
        ts = f.type_str
        if ts in constraints:
            allowed.append(constraints[ts] or None)
        elif ts.startswith("tensor("):
            allowed.append({ts[len("tensor("):-1]})
        else:
            allowed.append(None)  # sequences, optionals, ...: not checked here
    return allowed


#: numpy/relay dtype name -> ONNX type-constraint name
_ONNX_TYPE_NAMES = {"float32": "float", "float64": "double", "float16": "float16", "bfloat16": "bfloat16",
                    "int8": "int8", "int16": "int16", "int32": "int32", "int64": "int64", "uint8": "uint8",
                    "uint16": "uint16", "uint32": "uint32", "uint64": "uint64", "bool": "bool",
                    "int4": "int4", "uint4": "uint4", "int2": "int2", "uint2": "uint2",
                    "float8_e4m3fn": "float8e4m3fn", "float8_e4m3fnuz": "float8e4m3fnuz",
                    "float8_e5m2": "float8e5m2", "float8_e5m2fnuz": "float8e5m2fnuz",
                    "float8_e8m0fnu": "float8e8m0"}


def _kind_name(t: int) -> str:
    from onnx import AttributeProto
    kinds = AttributeProto.AttributeType
    return kinds.Name(t) if t in kinds.values() else f"an unknown kind ({t})"


def _holds_kind(a) -> bool:
    """Whether an AttributeProto holds a value of the kind its ``type`` field names."""
    from onnx import AttributeProto as AP
    t = a.type
    singles = {AP.FLOAT: "f", AP.INT: "i", AP.STRING: "s", AP.TENSOR: "t", AP.GRAPH: "g",
               AP.SPARSE_TENSOR: "sparse_tensor", AP.TYPE_PROTO: "tp"}
    lists = {AP.FLOATS: "floats", AP.INTS: "ints", AP.STRINGS: "strings", AP.TENSORS: "tensors",
             AP.GRAPHS: "graphs", AP.SPARSE_TENSORS: "sparse_tensors", AP.TYPE_PROTOS: "type_protos"}
    if t in singles:
        f = singles[t]
        if f in ("t", "g", "sparse_tensor", "tp") and not a.HasField(f):
            return False
        # a scalar's default (0, 0.0, b"") is indistinguishable from unset; a value in another field is not
        others = [v for k, v in singles.items() if k != t and v not in ("t", "g", "sparse_tensor", "tp")]
        return not any(getattr(a, o) for o in others) and not any(len(getattr(a, v)) for v in lists.values())
    if t in lists:
        return not any(len(getattr(a, v)) for k, v in lists.items() if k != t) and not any(
            a.HasField(f) for f in ("t", "g", "sparse_tensor", "tp"))
    return False


#: Tensors (and tensor types) with more bytes than this are refused: no
#: device holds them, and sizes near 2^63 overflow the compiler's index math.
MAX_TENSOR_BYTES = 1 << 40
MAX_DIM = 1 << 40
#: Arrays the importer itself computes (ConstantOfShape, Range, ...) are kept below this.
MAX_IMPORT_CONSTANT_BYTES = 1 << 31


def check_shape_size(shape, dtype: Optional[str], what: str, node: Optional["Node"] = None) -> None:
    """Refuses a static shape with a dim or a byte size above ``MAX_DIM``/``MAX_TENSOR_BYTES``."""
    n = 1
    for d in shape:
        if d is None:
            continue
        d = int(d)
        if d > MAX_DIM:
            msg = (f"{what} has a dim of {d} (the importer refuses dims above 2^40: no tensor that "
                   "large can exist)")
            raise node.invalid(msg) if node is not None else ImportError_(msg)
        if d > 0:
            n *= d
    try:
        item = np.dtype(dtype).itemsize if dtype and dtype != "bfloat16" else 2 if dtype else 1
    except TypeError:
        item = 1
    if n * item > MAX_TENSOR_BYTES:
        msg = (f"{what} of shape {fmt_shape(shape)} would take {n * item} bytes (the importer refuses "
               "tensors above 2^40 bytes)")
        raise node.invalid(msg) if node is not None else ImportError_(msg)


def tensor_to_array(t, what: str, node: Optional["Node"] = None) -> np.ndarray:
    """A ``TensorProto`` (initializer, Constant value, tensor attribute) as a numpy array.

    Checks first what ``numpy_helper.to_array`` assumes: non-negative dims of
    a sane size, a known element type, data held inline (not external), and
    as many stored elements as the dims say.
    """
    from onnx import TensorProto as TP, helper, numpy_helper

    def bad(msg: str):
        return node.invalid(f"{what}: {msg}") if node is not None else ImportError_(f"{what}: {msg}")

    dims = [int(d) for d in t.dims]
    if any(d < 0 for d in dims):
        raise bad(f"negative dim in {dims}")
    check_shape_size(dims, None, what, node)
    if t.data_location == TP.EXTERNAL:
        raise bad("external data is not supported (load the model with its external data)")
    if t.data_type == TP.UNDEFINED or t.data_type not in TP.DataType.values():
        raise bad(f"unknown element type {t.data_type}")
    try:
        np_dtype = np.dtype(helper.tensor_dtype_to_np_dtype(t.data_type))
    except Exception:
        raise bad(f"element type {TP.DataType.Name(t.data_type)} has no numpy equivalent") from None
    check_shape_size(dims, np_dtype.name if np_dtype.kind != "V" else None, what, node)
    count = 1
    for d in dims:
        count *= d
    per = _PACKED.get(t.data_type, 1)  # elements per stored byte / int32_data entry
    if t.HasField("raw_data"):
        if t.data_type == TP.STRING:
            raise bad("a string tensor cannot have raw data")
        nbytes = -(-count // per) if per > 1 else count * np_dtype.itemsize
        if len(t.raw_data) != nbytes:
            raise bad(f"raw data has {len(t.raw_data)} bytes, its dims {dims} and element type "
                      f"{TP.DataType.Name(t.data_type)} need {nbytes}")
    else:
        field = _DATA_FIELD.get(t.data_type)
        if field is None:
            raise bad(f"element type {TP.DataType.Name(t.data_type)} is not supported")
        have = len(getattr(t, field))
        stored = -(-count // per) if per > 1 else count * (2 if t.data_type in (TP.COMPLEX64, TP.COMPLEX128) else 1)
        if have != stored:
            raise bad(f"holds {have} values in {field}, its dims {dims} need {stored}")
        for other in set(_DATA_FIELD.values()) - {field}:
            if len(getattr(t, other)):
                raise bad(f"element type {TP.DataType.Name(t.data_type)} but data in {other}")
    try:
        return numpy_helper.to_array(t)
    except (ValueError, TypeError, OverflowError) as e:  # anything the checks above did not foresee
        raise bad(f"cannot be read: {e}") from None


def _data_fields():
    from onnx import TensorProto as TP
    fields = {TP.FLOAT: "float_data", TP.COMPLEX64: "float_data", TP.DOUBLE: "double_data",
              TP.COMPLEX128: "double_data", TP.INT64: "int64_data", TP.STRING: "string_data",
              TP.UINT32: "uint64_data", TP.UINT64: "uint64_data"}
    for name in ("INT32", "INT16", "INT8", "UINT16", "UINT8", "BOOL", "FLOAT16", "BFLOAT16",
                 "FLOAT8E4M3FN", "FLOAT8E4M3FNUZ", "FLOAT8E5M2", "FLOAT8E5M2FNUZ", "UINT4", "INT4",
                 "FLOAT4E2M1", "FLOAT8E8M0", "UINT2", "INT2"):
        if hasattr(TP, name):
            fields[getattr(TP, name)] = "int32_data"
    return fields


def _packed():
    from onnx import TensorProto as TP
    per = {"UINT4": 2, "INT4": 2, "FLOAT4E2M1": 2, "UINT2": 4, "INT2": 4}
    return {getattr(TP, n): k for n, k in per.items() if hasattr(TP, n)}


_DATA_FIELD = _data_fields()
_PACKED = _packed()


def relay_type(e: E.Expr, functions=None) -> Optional[Tuple[Tuple[Optional[int], ...], str]]:
    """(shape with None for unknown dims, dtype) of ``e`` by Relay type inference, or None;
    ``functions``: the global functions ``e`` may call (GlobalVar -> Function)."""
    if isinstance(e, E.TupleWrapper):
        return None
    t = getattr(e, "_checked_type", None)
    if t is None:
        from ...errors import CompileError
        from ...module import IRModule
        from ...transform import InferType
        try:
            InferType()(IRModule.from_expr(e, functions=dict(functions or {})))
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
                 "uint8", "uint16", "uint32", "uint64", "bool", *NARROW_DTYPES}


def check_dtype(node: Optional[Node], dtype: str) -> str:
    if dtype not in _RELAY_DTYPES:
        msg = f"element type {dtype} is not supported by relay-mlir"
        if node is not None:
            raise node.unsupported(msg)
        raise UnsupportedError(msg)
    return dtype


def to_relay_shape(shape) -> list:
    return [Any() if d is None else int(d) for d in shape]


def _np_dtype(elem_type: int) -> Optional[str]:
    from onnx import helper
    try:
        return np.dtype(helper.tensor_dtype_to_np_dtype(elem_type)).name
    except Exception:
        return None


def _value_type(vi) -> Optional[Tuple[Optional[Tuple[Optional[int], ...]], Optional[str]]]:
    """(shape with None for unknown dims | None, dtype | None) of a ValueInfoProto; None if not a tensor."""
    t = vi.type
    if t.WhichOneof("value") != "tensor_type":
        return None
    tt = t.tensor_type
    dtype = _np_dtype(tt.elem_type) if tt.elem_type else None
    if not tt.HasField("shape"):
        return (None, dtype)
    dims = []
    for d in tt.shape.dim:
        dims.append(d.dim_value if d.HasField("dim_value") and d.dim_value >= 0 else None)
    return (tuple(dims), dtype)
