"""Turns an expression tree (``relay_mlir.expr``) into ``relay`` dialect MLIR.

* module-level functions become ``func.func`` (direct calls ``func.call``;
  a generic one, with ``type_params``, gets ``relay.type_params`` and is
  called through ``relay.global_fn`` + ``relay.call`` at an instance type),
  nested ``Function``s become ``relay.fn`` closures that capture outer SSA
  values, ``If`` becomes ``relay.if``, ``Tuple`` ``relay.tuple``, ...;
* every op is created by its builder generated from the dialect's ODS
  (``relay_mlir.dialects.relay``), all through ``_Emitter.build``;
* operators type themselves as they are built (their builders run the C++
  typing rules); a result whose operands are not known yet, and every
  unannotated parameter, is ``!relay.incomplete`` until ``relay-infer-type``
  solves the whole module;
* attributes are converted by generic rules (see ``to_attribute``);
* each op gets a ``NameLoc`` key wrapping the ``file:line:col`` of the Python
  code that built the expression, so diagnostics point at user code and
  inferred types can be read back into ``expr.checked_type``.

The emitter and the type read-back are ``ExprFunctor``s, so programs of any
depth are emitted without recursion.

Example::

    >>> import relay_mlir as relay
    >>> x = relay.var("x", shape=(2,))
    >>> mod = relay.IRModule.from_expr(relay.Function([x], relay.exp(x)))
    >>> print(relay.emit.emit_module(mod).text())  # doctest: +ELLIPSIS
    module {
      func.func @main(%arg0: tensor<2xf32>) -> !relay.incomplete {
        %0 = relay.exp %arg0 : (tensor<2xf32>) -> tensor<2xf32>
    ...
"""
from __future__ import annotations

import functools
import inspect
import sys
import typing
from typing import Any as PyAny, Dict, List, Mapping, NamedTuple, Optional, Sequence, Tuple as PyTuple

import numpy as np

from . import expr as E
from .adt import (Constructor, Match, Pattern, PatternConstructor, PatternTuple, PatternVar,
                  PatternWildcard, pattern_vars)
from .errors import CompileError, Diagnostic
from .analysis import free_vars
from .narrow_dtypes import NARROW_DTYPES, NARROW_INTS, to_storage
from .expr_functor import ExprFunctor, ExprVisitor, _unwrap
from .op.nn import PAIRED_ATTRS
from .ty import FuncType, TensorType, TupleType, Type, dtype_to_mlir, from_mlir

__all__ = ["EmittedModule", "emit_module", "to_attribute", "location_of", "mlir_diagnostics",
           "new_context", "run_passes", "parse_module"]

_KEY_PREFIX = "relay_mlir.e"
# block arguments are located by the name of the variable they bind
VAR_LOC_PREFIX = "relay_mlir.var:"


# annotation.compiler_begin/compiler_end (relay_mlir.byoc): PartitionGraph removes them
_REGION_MARKERS = ("annotation.compiler_begin", "annotation.compiler_end", "on_device", "device_copy",
                   "annotation.stop_fusion", "annotation.checkpoint")  # (relay_mlir.annotation)

# The MLIR bindings (a ~15 MB native library) are imported on first use, not
# when relay_mlir is imported: building expressions must not load them. No
# module of this package imports emit.py's importers, so this hides no cycle.
def _ir():
    from . import ir
    return ir


def new_context():
    """A Context with relay, its lowering dialects and passes registered."""
    from ._context import make_context  # loads the MLIR bindings (see _ir)
    return make_context()


# ---------------------------------------------------------------------------
# diagnostics
# ---------------------------------------------------------------------------
def location_of(loc) -> PyTuple[Optional[str], int, int]:
    """``(file, line, col)`` of an MLIR Location (unwrapping name/callsite/fused)."""
    for _ in range(64):
        if loc is None:
            break
        try:
            if loc.is_a_file():
                return loc.filename, loc.start_line, loc.start_col
            if loc.is_a_name():
                loc = loc.child_loc
                continue
            if loc.is_a_callsite():
                loc = loc.callee
                continue
            if loc.is_a_fused():
                for sub in loc.locations:
                    f = location_of(sub)
                    if f[0] is not None:
                        return f
                break
        except Exception:
            break
        break
    return None, 0, 0


def _severity(sev) -> str:
    name = getattr(sev, "name", str(sev)).lower()
    return name.split(".")[-1]


def _convert_diag(d) -> Diagnostic:
    f, line, col = location_of(d.location)
    out = Diagnostic(_severity(d.severity), str(d.message), f, line, col)
    for n in getattr(d, "notes", ()) or ():
        out.notes.append(_convert_diag(n))
    return out


def mlir_diagnostics(err: BaseException) -> List[Diagnostic]:
    """The located diagnostics carried by an ``MLIRError``."""
    return [_convert_diag(d) for d in getattr(err, "error_diagnostics", []) or []]


class DiagnosticCollector:
    """Collects every diagnostic the context emits while active."""

    def __init__(self, ctx) -> None:
        self.ctx = ctx
        self.diagnostics: List[Diagnostic] = []
        self._handler = None

    def _callback(self, d) -> bool:
        try:
            self.diagnostics.append(_convert_diag(d))
        except Exception:  # never let a Python error escape into C++
            pass
        return True

    def __enter__(self) -> "DiagnosticCollector":
        self._handler = self.ctx.attach_diagnostic_handler(self._callback)
        return self

    def __exit__(self, *exc) -> None:
        if self._handler is not None:
            self._handler.detach()
            self._handler = None


def run_passes(ctx, module_op, pipeline: str, what: str, trace_passes: bool = False) -> List[Diagnostic]:
    """Runs a textual pipeline on ``module_op``; failures raise ``CompileError``. Returns
    the diagnostics of a successful run (warnings, remarks).

    ``trace_passes`` prints ``IR Dump Before <pass>`` headers (and elided IR)
    to stderr, to name the pass that crashed a worker process.
    """
    ir = _ir()
    from .passmanager import PassManager  # the MLIR bindings, loaded on first use (see _ir)
    with ctx, DiagnosticCollector(ctx) as coll:
        try:
            pm = PassManager.parse(pipeline, context=ctx)
        except (ValueError, ir.MLIRError) as e:
            raise CompileError(f"bad pass pipeline '{pipeline}': {e}") from None
        if trace_passes:
            pm.enable_ir_printing(print_before_all=True, print_after_all=False, large_elements_limit=4)
        try:
            pm.run(module_op)
        except ir.MLIRError as e:
            diags = mlir_diagnostics(e) + [d for d in coll.diagnostics if d.severity == "error"]
            raise CompileError(f"{what} failed", _dedupe(diags)) from None
        except Exception as e:
            raise CompileError(f"{what} failed: {e}", coll.diagnostics) from None
        errors = [d for d in coll.diagnostics if d.severity == "error"]
        if errors:
            raise CompileError(f"{what} failed", errors)
        return coll.diagnostics


def _dedupe(diags: Sequence[Diagnostic]) -> List[Diagnostic]:
    seen, out = set(), []
    for d in diags:
        k = str(d)
        if k not in seen:
            seen.add(k)
            out.append(d)
    return out


_WRAP = "module {"


def _check_parser_hazards(text: str, source_name: str) -> None:
    """Raises ``CompileError`` on text MLIR's parser would abort on (killing
    this process) instead of reporting an error, e.g. ``array<index: ...>``
    (the C++ scan of relay/Utils/ParserHazards.h)."""
    _ir()  # the MLIR core library, which the relay extension links against
    from ._mlir_libs._relayTypes import find_parser_hazard
    found = find_parser_hazard(text)
    if found is None:
        return
    offset, message = found
    data = text.encode()  # offsets and MLIR's columns count UTF-8 bytes
    line = data.count(b"\n", 0, offset) + 1
    col = offset - (data.rfind(b"\n", 0, offset) + 1) + 1
    raise CompileError("could not parse MLIR", [Diagnostic("error", message, source_name, line, col)])


def parse_module(ctx, text: Optional[str], source_name: str = "<input>", path: Optional[str] = None):
    """Parses MLIR (text, or the file ``path``); returns an object whose ``.operation`` is a module.

    Keep the returned object alive while using its operation.

    Top-level ops other than a module are wrapped in one, as ``mlir-opt``
    does. Errors raise ``CompileError`` located in ``source_name``/``path``.
    """
    ir = _ir()
    with ctx, DiagnosticCollector(ctx) as coll:
        def fail(e: BaseException, shift_line1: int = 0):
            diags = _dedupe(mlir_diagnostics(e) + coll.diagnostics)
            for d in diags:
                if shift_line1 and d.line == 1 and d.file == source_name:
                    d.col = max(1, d.col - shift_line1)
            return CompileError("could not parse MLIR", diags)

        if path is not None:
            with open(path, "rb") as f:
                _check_parser_hazards(f.read().decode("utf-8", errors="replace"), path)
        else:
            _check_parser_hazards(text, source_name)
        try:
            if path is not None:
                return ir.Module.parseFile(path, context=ctx)
            holder = ir.Operation.parse(text, source_name=source_name, context=ctx)
        except ir.MLIRError as e:
            if path is None and "single top-level operation" in str(e):
                # several top-level ops: wrap them on line 1 so line numbers stay right
                coll.diagnostics.clear()
                try:
                    holder = ir.Operation.parse(_WRAP + text + "\n}", source_name=source_name,
                                                context=ctx)
                except ir.MLIRError as e2:
                    raise fail(e2, len(_WRAP)) from None
            else:
                raise fail(e) from None
        except Exception as e:
            raise CompileError(f"could not parse MLIR: {e}", coll.diagnostics) from None
        if holder.operation.name != "builtin.module":
            module = ir.Module.create(loc=ir.Location.unknown())
            module.body.append(holder.operation)
            return module
        return holder


#: ``iree.reflection`` key under which each exported function records the relay
#: dtypes of its (flattened) results: IREE's runtime returns integers signless
#: (as signed numpy arrays), so ``Executable`` reinterprets them from this.
RESULT_DTYPES_KEY = "relay_mlir.result_dtypes"


def _flat_result_dtypes(fn_type) -> Optional[List[str]]:
    """Dtypes of a function's results, tuples flattened in order; None if one is not a known tensor."""
    out: List[str] = []
    stack = list(reversed([from_mlir(t) for t in fn_type.results]))
    while stack:
        t = stack.pop()
        if isinstance(t, TupleType):
            stack.extend(reversed(t.fields))
        elif isinstance(t, TensorType):
            out.append(t.dtype)
        else:
            return None
    return out


def _funcs(ctx, module_op) -> list:
    with ctx:
        body = module_op.regions[0].blocks[0]
        return [op for op in body.operations if op.operation.name == "func.func"]


def results_incomplete(ctx, module_op) -> bool:
    """Whether a ``func.func``'s result type is still ``!relay.incomplete`` (left to inference)."""
    ir = _ir()
    with ctx:
        for f in _funcs(ctx, module_op):
            for t in ir.FunctionType(ir.TypeAttr(f.operation.attributes["function_type"]).value).results:
                if "relay.incomplete" in str(t):
                    return True
    return False


def annotate_result_dtypes(ctx, module_op) -> Dict[str, List[str]]:
    """Records each public ``func.func``'s result dtypes in its ``iree.reflection`` attribute.

    IREE keeps ``iree.reflection`` entries in the compiled module, so a saved
    ``.vmfb`` still knows that a ``tensor<4xi8>`` result is ``uint8``. Runs
    ``relay-infer-type`` first if a result type is still incomplete. Returns
    ``{function: [dtype, ...]}`` for the functions annotated.
    """
    ir = _ir()
    if results_incomplete(ctx, module_op):
        run_passes(ctx, module_op, "builtin.module(relay-infer-type)", "type inference")
    found: Dict[str, List[str]] = {}
    with ctx:
        for f in _funcs(ctx, module_op):
            attrs = f.operation.attributes
            if "sym_visibility" in attrs and ir.StringAttr(attrs["sym_visibility"]).value != "public":
                continue
            fn_type = ir.FunctionType(ir.TypeAttr(attrs["function_type"]).value)
            dtypes = _flat_result_dtypes(fn_type)
            if dtypes is None:
                continue
            name = ir.StringAttr(attrs["sym_name"]).value
            entries = {}
            if "iree.reflection" in attrs:
                old = ir.DictAttr(attrs["iree.reflection"])
                entries = {old[i].name: old[i].attr for i in range(len(old))}
            entries[RESULT_DTYPES_KEY] = ir.StringAttr.get(",".join(dtypes))
            attrs["iree.reflection"] = ir.DictAttr.get(entries)
            found[name] = dtypes
    return found


#: A public function taking more tensors than this (tuples flattened) is refused
#: before lowering: iree-compile 3.13's time grows faster than linearly with them
#: (a chain of adds over N inputs, on 2 cores: 1,000 in 2.1 s, 2,000 in 6.1 s,
#: 4,000 in 22 s; 20,000 did not finish in minutes), while lowering them is linear
#: (20,000 in 4 s).
MAX_ENTRY_TENSORS = 4096


def _tensor_leaves(t) -> int:
    """How many tensors a relay type is, tuples flattened (other types count 1)."""
    return sum(_tensor_leaves(f) for f in t.fields) if isinstance(t, TupleType) else 1


def check_entry_tensors(ctx, module_op) -> None:
    """Raises ``CompileError`` at the first public ``func.func`` taking more than
    ``MAX_ENTRY_TENSORS`` tensors."""
    ir = _ir()
    with ctx:
        for op in module_op.regions[0].blocks[0].operations:
            op = op.operation
            attrs = op.attributes
            if op.name != "func.func" or ("sym_visibility" in attrs and
                                          ir.StringAttr(attrs["sym_visibility"]).value != "public"):
                continue
            inputs = ir.FunctionType(ir.TypeAttr(attrs["function_type"]).value).inputs
            n = sum(_tensor_leaves(from_mlir(t)) for t in inputs)
            if n <= MAX_ENTRY_TENSORS:
                continue
            name = ir.StringAttr(attrs["sym_name"]).value
            f, line, col = location_of(op.location)
            msg = (f"'func.func' op @{name} takes {n} tensors: at most {MAX_ENTRY_TENSORS} are "
                   "compiled (iree-compile's time grows faster than linearly with a function's "
                   "inputs: 4,000 take 20 s, 20,000 do not finish in minutes); pass them as fewer, "
                   "larger tensors (stacked)")
            raise CompileError("too many inputs", [Diagnostic("error", msg, f, line, col)])


#: Dialects whose ops may appear unregistered in a compiled input: IREE's own,
#: which the lowering builds as generic ops (docs/design.md) and iree-compile reads.
IREE_DIALECTS = ("util", "hal", "flow", "stream", "iree_input")


def check_known_ops(ctx, module_op) -> None:
    """Raises ``CompileError`` at the first operation that is neither registered nor one of
    IREE's (``IREE_DIALECTS``): the parsing context allows unregistered ops for IREE's, and
    iree-compile crashes on others instead of reporting them."""
    found = []

    def visit(op):
        op = op.operation
        name = op.name
        if not ctx.is_registered_operation(name) and name.split(".", 1)[0] not in IREE_DIALECTS:
            found.append(op)
            return _ir().WalkResult.INTERRUPT
        return _ir().WalkResult.ADVANCE

    with ctx:
        module_op.operation.walk(visit)
    if found:
        op = found[0]
        f, line, col = location_of(op.location)
        msg = (f"unknown operation '{op.name}': not a relay, upstream MLIR or IREE op "
               "(its dialect is not registered)")
        raise CompileError("unknown operation", [Diagnostic("error", msg, f, line, col)])


#: Tensor types above these sizes are refused before lowering: no device holds
#: them, and sizes near 2^63 overflow index arithmetic in iree-compile (which
#: then crashes instead of reporting).
MAX_DIM = 1 << 40
MAX_TENSOR_BYTES = 1 << 40


def _cast_type(cls, t):
    """``cls(t)`` (e.g. ``ir.RankedTensorType``) if ``t`` is one, else None."""
    if isinstance(t, cls):
        return t
    try:
        return cls(t)
    except (ValueError, TypeError):
        return None


def check_tensor_sizes(ctx, module_op) -> None:
    """Raises ``CompileError`` at the first op (or function) with a tensor type of a dim
    above ``MAX_DIM`` or a byte size above ``MAX_TENSOR_BYTES``."""
    ir = _ir()
    verdict: Dict[object, Optional[str]] = {}

    def bad(t) -> Optional[str]:
        if t in verdict:
            return verdict[t]
        why = None
        rt = _cast_type(ir.RankedTensorType, t)
        tt = _cast_type(ir.TupleType, t) if rt is None else None
        if rt is not None:
            n = 1
            for d in rt.shape:
                if d == ir.ShapedType.get_dynamic_size():
                    continue
                if d > MAX_DIM:
                    why = f"a dim of {d}"
                    break
                n *= max(d, 0)
            if why is None:
                et = rt.element_type
                width = getattr(et, "width", None)
                nbytes = n * max(1, (width or 8) // 8)
                if nbytes > MAX_TENSOR_BYTES:
                    why = f"{nbytes} bytes"
        elif tt is not None:
            for i in range(tt.num_types):
                why = bad(tt.get_type(i))
                if why:
                    break
        verdict[t] = why
        return why

    found: List[tuple] = []

    def visit(op):
        if found:
            return ir.WalkResult.INTERRUPT
        for r in op.results:
            why = bad(r.type)
            if why:
                found.append((op, r.type, why))
                return ir.WalkResult.INTERRUPT
        for region in op.regions:
            for block in region.blocks:
                for a in block.arguments:
                    why = bad(a.type)
                    if why:
                        found.append((op, a.type, why))
                        return ir.WalkResult.INTERRUPT
        return ir.WalkResult.ADVANCE

    with ctx:
        module_op.walk(visit, ir.WalkOrder.PRE_ORDER)
        if found:
            op, t, why = found[0]
            f, line, col = location_of(op.location)
            msg = (f"'{op.name}' op has a tensor of type {t} with {why}: tensors with a dim or a size "
                   "above 2^40 (bytes) are refused (no device holds them)")
            raise CompileError("tensor too large", [Diagnostic("error", msg, f, line, col)])


# ---------------------------------------------------------------------------
# attributes
# ---------------------------------------------------------------------------
def to_attribute(name: str, value: PyAny):
    """Converts a Relay attribute value by generic rules.

    * ``bool`` -> ``BoolAttr``; ``int`` -> ``i64`` ``IntegerAttr``;
      ``float`` -> ``f64`` ``FloatAttr``; ``str`` -> ``StringAttr``;
    * a list/tuple of ints -> ``DenseI64ArrayAttr``;
    * a list/tuple of floats -> ``DenseF64ArrayAttr``;
    * names ending in ``dtype`` -> ``TypeAttr`` of the dtype's element type
      (not ``compute_dtype``, a string);
    * ``None`` and ``""`` return ``None`` (the attribute is omitted).

    Must be called with an active Context::

        >>> import relay_mlir.emit as em
        >>> with em.new_context():                      # doctest: +SKIP
        ...     str(em.to_attribute("strides", (2, 2)))
        'array<i64: 2, 2>'
    """
    ir = _ir()
    if value is None or (isinstance(value, str) and value == ""):
        return None
    if isinstance(value, ir.Attribute):
        return value
    if name.endswith("dtype") and name != "compute_dtype":  # qnn.requantize's is a string
        return ir.TypeAttr.get(ir.Type.parse(dtype_to_mlir(value)))
    if isinstance(value, (bool, np.bool_)):
        return ir.BoolAttr.get(bool(value))
    if isinstance(value, (int, np.integer)):
        return ir.IntegerAttr.get(ir.IntegerType.get_signless(64), int(value))
    if isinstance(value, (float, np.floating)):
        return ir.FloatAttr.get_f64(float(value))
    if isinstance(value, str):
        return ir.StringAttr.get(value)
    if isinstance(value, (list, tuple, np.ndarray)):
        vals = list(value)
        if all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in vals):
            return ir.DenseI64ArrayAttr.get([int(v) for v in vals])
        if vals and all(isinstance(v, (float, np.floating)) for v in vals):
            return ir.DenseF64ArrayAttr.get([float(v) for v in vals])
    raise TypeError(f"attribute '{name}': cannot convert {value!r} to an MLIR attribute")


# ---------------------------------------------------------------------------
# op builders
# ---------------------------------------------------------------------------
class _Builder(NamedTuple):
    """How to call one generated op class: which parameters are results and operands."""

    cls: type
    result: Optional[PyTuple[str, bool]]   # (parameter, variadic) naming the result types
    infers: bool                           # has the keyword ``results=None`` (type-inferring op)
    operands: List[PyTuple[str, str]]      # (parameter, "one" | "many" | "optional"), in order
    attributes: Dict[str, bool]            # attribute parameter -> required


def _kind(cls: type, param: str) -> str:
    """Classifies a builder parameter by the return annotation of the accessor generated for it."""
    ir = _ir()
    prop = cls.__dict__.get(param)
    ann = prop.fget.__annotations__.get("return") if isinstance(prop, property) else None
    optional = typing.get_origin(ann) is typing.Union
    if optional:  # Optional[X]
        ann = next((a for a in typing.get_args(ann) if a is not type(None)), None)
    ann = typing.get_origin(ann) or ann  # Value[RankedTensorType] -> Value
    if ann is ir.Value:
        return "optional" if optional else "one"
    if ann is ir.OpOperandList:
        return "many"
    if ann is ir.OpResult:
        return "result"
    if ann is None or ann is ir.OpResultList:
        # a variadic result group: its accessor is named differently
        # (func.call: parameter `result`, accessor `results_`)
        return "results"
    return "attribute"


@functools.lru_cache(maxsize=None)
def _op_classes() -> Dict[str, type]:
    # The generated classes (not func.py's hand-written FuncOp/CallOp wrappers).
    from .dialects import _func_ops_gen, relay  # the MLIR bindings, loaded on first use (see _ir)
    out = {}
    for mod in (relay, _func_ops_gen):
        for v in vars(mod).values():
            name = getattr(v, "OPERATION_NAME", None)
            if isinstance(v, type) and isinstance(name, str):
                out[name] = v
    return out


@functools.lru_cache(maxsize=None)
def _builder(name: str) -> Optional[_Builder]:
    cls = _op_classes().get(name)
    if cls is None:
        return None
    result, operands, attributes, infers = None, [], {}, False
    for p in list(inspect.signature(cls.__init__).parameters.values())[1:]:
        if p.name in ("loc", "ip"):
            continue
        if p.kind is p.KEYWORD_ONLY and p.name == "results":
            infers = True
            continue
        kind = _kind(cls, p.name)
        if kind in ("result", "results"):
            result = (p.name, kind == "results")
        elif kind == "attribute":
            attributes[p.name] = p.kind is not p.KEYWORD_ONLY
        else:
            operands.append((p.name, kind))
    return _Builder(cls, result, infers, operands, attributes)


# ---------------------------------------------------------------------------
# emission
# ---------------------------------------------------------------------------
class _Scopes:
    """``memo_map`` of the emitter: expression -> MLIR value, one dict per open region.

    A value emitted inside a region (closure body, if branch) is visible
    there and in nested regions, not after the region is closed.
    """

    def __init__(self) -> None:
        self.stack: List[Dict[E.Expr, object]] = [{}]

    def __contains__(self, e: E.Expr) -> bool:
        for scope in reversed(self.stack):
            if e in scope:
                return True
        return False

    def __getitem__(self, e: E.Expr):
        for scope in reversed(self.stack):
            if e in scope:
                return scope[e]
        raise KeyError(e)

    def __setitem__(self, e: E.Expr, value) -> None:
        self.stack[-1][e] = value


class EmittedModule:
    """An MLIR module emitted from an ``IRModule``, with the keys linking ops to expressions."""

    def __init__(self, ctx, module_op, irmod, keys: Dict[str, E.Expr], key_of: Dict[E.Expr, str],
                 block_params: Dict[E.Var, PyTuple[E.Expr, int]]) -> None:
        self.ctx = ctx
        self.operation = module_op
        self.irmod = irmod
        self.keys = keys          # NameLoc key -> expression
        self.key_of = key_of      # expression -> key of the op computing its value
        self.block_params = block_params  # parameter -> (its Function, block argument index)
        self.inferred = False

    def text(self, debug_info: bool = False) -> str:
        """The module's MLIR assembly."""
        with self.ctx:
            # before inference, func.return/func.call may not verify (incomplete vs
            # concrete types); print the custom form anyway
            return self.operation.get_asm(enable_debug_info=debug_info,
                                          assume_verified=not self.inferred)

    def infer_types(self) -> "EmittedModule":
        """Runs ``relay-infer-type`` and fills ``checked_type`` of every expression."""
        run_passes(self.ctx, self.operation, "builtin.module(relay-infer-type)", "type inference")
        self.inferred = True
        self._read_back_types()
        return self

    def _read_back_types(self) -> None:
        ir = _ir()
        ops: Dict[str, object] = {}

        def record(op):
            loc = op.location
            if loc.is_a_name():
                key = loc.name_str
                if key.startswith(_KEY_PREFIX):
                    ops[key] = op
            return ir.WalkResult.ADVANCE

        with self.ctx:
            self.operation.walk(record)  # iterative, in C++
            reader = _TypeReader(self, ops)
            for fn in self.irmod.functions.values():
                reader.visit(fn)


class _TypeReader(ExprVisitor):
    """Sets ``checked_type`` of every expression from the inferred MLIR."""

    iterative_scopes = True  # every node's type comes from its own op: order is free

    def __init__(self, em: EmittedModule, ops: Dict[str, object]) -> None:
        super().__init__()
        self.em = em
        self.ops = ops
        self.types: Dict[object, Type] = {}  # MLIR types are uniqued: convert each once

    def _type(self, mlir_type) -> Type:
        t = self.types.get(mlir_type)
        if t is None:
            t = self.types[mlir_type] = from_mlir(mlir_type)
        return t

    def _op(self, e: E.Expr):
        key = self.em.key_of.get(e)
        return self.ops.get(key) if key is not None else None

    def _from_result(self, e: E.Expr) -> None:
        op = self._op(e)
        if op is not None and len(op.results) == 1:
            e._checked_type = self._type(op.results[0].type)

    def visit_var(self, var: E.Var) -> None:
        self._from_result(var)  # a parameter bound to a constant (``params=``)

    def visit_constant(self, const: E.Constant) -> None:
        self._from_result(const)

    def visit_global_var(self, gv: E.GlobalVar) -> None:
        self._from_result(gv)

    def visit_call(self, call: E.Call) -> None:
        super().visit_call(call)
        self._from_result(call)
        if isinstance(call.op, E.Op) and call.op.name in _REGION_MARKERS:  # typed as their value
            arg = call.args[0]  # (a parameter's type is read after its function's body)
            call._checked_type = arg._checked_type or getattr(arg, "type_annotation", None)

    def visit_tuple(self, tup: E.Tuple) -> None:
        super().visit_tuple(tup)
        self._from_result(tup)

    def visit_tuple_getitem(self, t: E.TupleGetItem) -> None:
        super().visit_tuple_getitem(t)
        self._from_result(t)

    def visit_if(self, ite: E.If) -> None:
        super().visit_if(ite)
        self._from_result(ite)

    def visit_function(self, fn: E.Function) -> None:
        op = self._op(fn)
        if op is not None:
            args = op.regions[0].blocks[0].arguments
            for p in fn.params:
                where = self.em.block_params.get(p)
                if where is not None and where[0] is fn:
                    p._checked_type = self._type(args[where[1]].type)
            if op.name == "relay.fn":
                fn._checked_type = self._type(op.results[0].type)
            else:  # func.func
                fn._checked_type = self._type(_ir().TypeAttr(op.attributes["function_type"]).value)
        super().visit_function(fn)

    def visit_match(self, m: Match) -> None:
        op = self._op(m)
        if op is not None:
            for region, clause in zip(op.regions, m.clauses):
                args = region.blocks[0].arguments
                for i, v in enumerate(pattern_vars(clause.lhs)):
                    v._checked_type = self._type(args[i].type)
        super().visit_match(m)
        self._from_result(m)

    def visit_ref_create(self, r: E.RefCreate) -> None:
        super().visit_ref_create(r)
        self._from_result(r)

    def visit_ref_read(self, r: E.RefRead) -> None:
        super().visit_ref_read(r)
        self._from_result(r)

    def visit_ref_write(self, r: E.RefWrite) -> None:
        super().visit_ref_write(r)
        self._from_result(r)

    def visit_constructor(self, c: Constructor) -> None:
        self._from_result(c)

    def visit_let(self, let: E.Let) -> None:
        super().visit_let(let)
        value, body = _unwrap(let.value), _unwrap(let.body)
        if value._checked_type is not None:
            let.var._checked_type = value._checked_type
        if body._checked_type is not None:
            let._checked_type = body._checked_type


class _Emitter(ExprFunctor):
    """Emits each expression once per scope, as ``ExprFunctor`` (iterative over operands)."""

    def __init__(self, irmod, params: Optional[Mapping[str, np.ndarray]]) -> None:
        super().__init__()
        self.irmod = irmod
        self.params = dict(params or {})
        self.ir = _ir()
        self.ctx = new_context()
        self.memo_map = _Scopes()
        self.keys: Dict[str, E.Expr] = {}
        self.key_of: Dict[E.Expr, str] = {}
        self.block_params: Dict[E.Var, PyTuple[E.Expr, int]] = {}
        self.ip = None
        self.incomplete = None

    # -- helpers -----------------------------------------------------------
    def error(self, ex, msg: str) -> CompileError:
        span = getattr(ex, "span", None)
        d = Diagnostic("error", msg, span.filename if span else None,
                       span.line if span else 0, span.col if span else 0)
        return CompileError("could not build the program", [d])

    def file_loc(self, ex):
        span = getattr(ex, "span", None)
        if span is None:
            return self.ir.Location.unknown()
        return self.ir.Location.file(span.filename, span.line, span.col)

    def var_loc(self, v):
        """The location of a block argument binding ``v``: its name (read back as the
        variable's name, so passes run through MLIR keep TVM's parameter names) around its span."""
        return self.ir.Location.name(f"{VAR_LOC_PREFIX}{v.name_hint}", childLoc=self.file_loc(v))

    def loc(self, ex):
        """The location of the op computing ``ex``: a key (read back after inference) around its span."""
        key = f"{_KEY_PREFIX}{len(self.keys) + 1}"
        self.keys[key] = ex
        self.key_of[ex] = key
        return self.ir.Location.name(key, childLoc=self.file_loc(ex))

    def mlir_type(self, t: Optional[Type]):
        if t is None:
            return self.incomplete
        return self.ir.Type.parse(t.to_mlir())

    def build(self, ex, name: str, operands: Sequence = (), attrs: Optional[Dict[str, object]] = None,
              results: Optional[Sequence] = None, loc=None):
        """Creates the op ``name`` with its generated builder; the one place ops are made.

        ``results`` defaults to the types the op's builder infers (ops that
        type themselves) or one ``!relay.incomplete`` (typed later by
        relay-infer-type). Operands are matched to the builder's operand
        parameters in order (a variadic one takes the rest); attributes the
        op does not declare are added as discardable attributes.
        """
        b = _builder(name)
        if b is None:
            short = name[len("relay."):] if name.startswith("relay.") else name
            raise self.error(ex, f"unknown operator '{short}' (no op '{name}' is registered)")
        kwargs: Dict[str, object] = {}
        # Result types: ops that type themselves (InferTypeOpInterface) infer
        # them in their builder (`!relay.incomplete` while an operand is
        # unknown, filled in by relay-infer-type); the others start as
        # `!relay.incomplete`.
        if b.result is not None:
            results = [self.incomplete] if results is None else results
            kwargs[b.result[0]] = list(results) if b.result[1] else results[0]
        elif b.infers and results is not None:
            kwargs["results"] = list(results)
        ops = list(operands)
        many = [i for i, (_, kind) in enumerate(b.operands) if kind == "many"]
        fixed = len(b.operands) - len(many)
        if len(many) > 1 or len(ops) < fixed - sum(k == "optional" for _, k in b.operands) or \
                (not many and len(ops) > len(b.operands)):
            raise self.error(ex, f"'{name}' takes {len(b.operands)} operand group(s), got {len(ops)} operands")
        pos = 0
        for i, (param, kind) in enumerate(b.operands):
            if kind == "many":
                n = len(ops) - pos - (len(b.operands) - i - 1)
                kwargs[param] = ops[pos:pos + n]
                pos += n
            elif pos < len(ops):
                kwargs[param] = ops[pos]
                pos += 1
            else:
                kwargs[param] = None
        extra = {}
        for k, v in (attrs or {}).items():
            param = k if k in b.attributes else k + "_" if k + "_" in b.attributes else None
            if param is None:
                extra[k] = v
            else:
                kwargs[param] = v
        for param, required in b.attributes.items():
            if required and param not in kwargs:
                raise self.error(ex, f"'{name}' op requires attribute '{param.rstrip('_')}'")
        try:
            op = b.cls(**kwargs, loc=self.loc(ex) if loc is None else loc, ip=self.ip)
        except (TypeError, ValueError) as err:
            raise self.error(ex, f"'{name}': {err}") from None
        for k, v in extra.items():
            op.operation.attributes[k] = v
        return op.operation

    # -- module --------------------------------------------------------------
    def run(self) -> EmittedModule:
        ir = self.ir
        with self.ctx, ir.Location.unknown():
            self.incomplete = ir.Type.parse("!relay.incomplete")
            module = ir.Module.create()
            # Operands are visited iteratively; only the nesting of regions
            # (If inside If, closures inside closures) recurses, ~5 frames a level.
            old_limit = sys.getrecursionlimit()
            sys.setrecursionlimit(max(old_limit, 20000))
            try:
                with DiagnosticCollector(self.ctx) as coll:
                    for data in getattr(self.irmod, "type_definitions", {}).values():
                        self.emit_type_data(data, module.body)
                    for gv, fn in self.irmod.functions.items():
                        self.emit_global(gv, fn, module.body)
                    if [d for d in coll.diagnostics if d.severity == "error"]:
                        raise CompileError("could not build the program", coll.diagnostics)
            except self.ir.MLIRError as e:
                raise CompileError("could not build the program", mlir_diagnostics(e)) from None
            finally:
                sys.setrecursionlimit(old_limit)
            em = EmittedModule(self.ctx, module.operation, self.irmod, self.keys, self.key_of,
                               self.block_params)
            em._module = module  # keep the Module object alive
            return em

    def emit_type_data(self, data, module_body) -> None:
        """``relay.adt @T ["a", ...] { relay.constructor @C [field types] ... }``."""
        ir = self.ir
        names = [tv.name_hint for tv in data.type_vars]
        if len(set(names)) != len(names):
            raise self.error(data.constructors[0] if data.constructors else None,
                             f"type '{data.header.name_hint}' has two type parameters of one name")
        self.ip = ir.InsertionPoint(module_body)
        op = self.build(None, "relay.adt", attrs={
            "sym_name": ir.StringAttr.get(data.header.name_hint),
            "type_params": ir.ArrayAttr.get([ir.StringAttr.get(n) for n in names])},
            loc=ir.Location.unknown())
        block = op.regions[0].blocks.append()
        self.ip = ir.InsertionPoint(block)
        for c in data.constructors:
            self.build(None, "relay.constructor", attrs={
                "sym_name": ir.StringAttr.get(c.name_hint),
                "fields": ir.ArrayAttr.get([ir.TypeAttr.get(self.mlir_type(t)) for t in c.inputs])},
                loc=ir.Location.unknown())

    def _check_type_params(self, fn) -> None:
        names = [tv.name_hint for tv in fn.type_params]
        if len(set(names)) != len(names):
            raise self.error(fn, "a generic function has two type parameters of one name: "
                                 + ", ".join(names))

    def emit_global(self, gv, fn, module_body) -> None:
        ir = self.ir
        if not isinstance(fn, E.Function):
            raise self.error(fn, f"global '{gv.name_hint}' must be a Function")
        is_main = gv.name_hint == "main"
        bound = {p: self.params[p.name_hint] for p in fn.params
                 if is_main and p.name_hint in self.params}
        free_params = [p for p in fn.params if p not in bound]
        arg_types = [self.mlir_type(p.type_annotation) for p in free_params]
        ret = self.mlir_type(fn.ret_type)
        ftype = ir.FunctionType.get(arg_types, [ret])
        self.ip = ir.InsertionPoint(module_body)
        attrs = {"sym_name": ir.StringAttr.get(gv.name_hint),
                 "function_type": ir.TypeAttr.get(ftype)}
        if not is_main and fn.attrs.get("private"):  # a helper only main calls (not exported)
            attrs["sym_visibility"] = ir.StringAttr.get("private")
        tvm_attrs = {k: v for k, v in fn.attrs.items() if k != "private"
                     and isinstance(v, (int, str)) and not isinstance(v, bool)}
        if tvm_attrs:  # Function.with_attr's (Inline=1, ...): relay.attrs
            attrs["relay.attrs"] = ir.DictAttr.get({
                k: ir.StringAttr.get(v) if isinstance(v, str) else
                ir.IntegerAttr.get(ir.IntegerType.get_signless(32), v) for k, v in tvm_attrs.items()})
        if fn.type_params:  # a generic function: monomorphised before lowering
            self._check_type_params(fn)
            attrs["relay.type_params"] = ir.ArrayAttr.get(
                [ir.StringAttr.get(tp.name_hint) for tp in fn.type_params])
        op = self.build(fn, "func.func", attrs=attrs, results=[])
        block = op.regions[0].blocks.append(*arg_types, arg_locs=[self.var_loc(p) for p in free_params])
        self.ip = ir.InsertionPoint(block)
        self.memo_map.stack.append({})
        try:
            for i, (p, a) in enumerate(zip(free_params, block.arguments)):
                self.memo_map[p] = a
                self.block_params[p] = (fn, i)
            for p, arr in bound.items():
                self.memo_map[p] = self.constant(p, np.asarray(arr))
            result = self._operand(fn.body)
            self.build(fn.body, "func.return", [result], results=[], loc=self.file_loc(fn.body))
        finally:
            self.memo_map.stack.pop()

    # -- expressions ---------------------------------------------------------
    def visit_var(self, var: E.Var):
        # bound variables are in memo_map; reaching here means none binds it
        raise self.error(var, f"free variable '{var.name_hint}' is not bound by any "
                              "enclosing Function or Let")

    def constant(self, ex, arr: np.ndarray):
        ir = self.ir
        arr = np.asarray(arr, order="C")
        elt = dtype_to_mlir(arr.dtype.name)
        ttype = ir.RankedTensorType.get(list(arr.shape), ir.Type.parse(elt))
        if arr.dtype == np.bool_:  # i1: go through the text form (small in practice)
            body = np.array2string(arr, separator=", ", threshold=sys.maxsize).replace("True", "true").replace("False", "false")
            attr = ir.Attribute.parse(f"dense<{body}> : {ttype}")
        else:
            if arr.dtype.name in NARROW_DTYPES:  # int4 from its int8 storage, float8 from its bits
                arr = to_storage(arr) if arr.dtype.name in NARROW_INTS else arr.view(np.uint8)
            attr = ir.DenseElementsAttr.get(arr, signless=not elt.startswith("ui"), type=ir.Type.parse(elt),
                                            shape=list(arr.shape))
        return self.build(ex, "relay.constant", attrs={"value": attr}, results=[ttype]).result

    def visit_constant(self, ex: E.Constant):
        return self.constant(ex, ex.data)

    def visit_call(self, ex: E.Call):
        ir = self.ir
        if isinstance(ex.op, E.Op) and ex.op.name in _REGION_MARKERS and len(ex.args) == 1:
            return self._operand(ex.args[0])  # BYOC's region markers are their value (issue 34)
        if isinstance(ex.op, E.Op):
            args = [self._operand(a) for a in ex.args]
            attrs = {}
            for k, val in ex.attrs.items():
                if k in PAIRED_ATTRS:  # (before, after) pairs, flattened as the dialect has them
                    val = [v for pair in val for v in pair]
                try:
                    a = to_attribute(k, val)
                except (TypeError, ValueError) as err:
                    raise self.error(ex, f"'{ex.op.name}': {err}") from None
                if a is not None:
                    attrs[k] = a
            return self.build(ex, "relay." + ex.op.name, args, attrs).result
        if isinstance(ex.op, E.GlobalVar):
            found = self.irmod.lookup(ex.op)
            if found is None:
                raise self.error(ex, f"call of unknown global function '@{ex.op.name_hint}'")
            if found[1].type_params:
                # a generic function is used at an instance of its type, which
                # func.call (exact types) cannot express: global_fn + call
                # (relay-monomorphize turns it into a direct call)
                callee = self._operand(ex.op)
                args = [self._operand(a) for a in ex.args]
                return self.build(ex, "relay.call", [callee] + args).result
            args = [self._operand(a) for a in ex.args]
            return self.build(ex, "func.call", args, {
                "callee": ir.FlatSymbolRefAttr.get(found[0].name_hint)}).result
        if isinstance(ex.op, Constructor):
            args = [self._operand(a) for a in ex.args]
            return self.construct(ex, ex.op, args)
        callee = self._operand(ex.op)
        args = [self._operand(a) for a in ex.args]
        return self.build(ex, "relay.call", [callee] + args).result

    def visit_tuple(self, ex: E.Tuple):
        return self.build(ex, "relay.tuple", [self._operand(f) for f in ex.fields]).result

    def visit_tuple_getitem(self, ex: E.TupleGetItem):
        t = self._operand(ex.tuple_value)
        return self.build(ex, "relay.tuple_get_item", [t],
                          {"index": to_attribute("index", ex.index)}).result

    def visit_global_var(self, ex: E.GlobalVar):
        found = self.irmod.lookup(ex)
        if found is None:
            raise self.error(ex, f"unknown global function '@{ex.name_hint}'")
        if found[1].type_params:
            return _GenericUse(ex)  # a relay.global_fn per use (see _operand)
        return self._global_fn(ex, found[0])

    def _global_fn(self, ex: E.GlobalVar, gv: E.GlobalVar):
        return self.build(ex, "relay.global_fn", attrs={
            "callee": self.ir.FlatSymbolRefAttr.get(gv.name_hint)}).result

    def _operand(self, e: E.Expr):
        """``visit(e)`` as an operand: a generic global function becomes its
        own ``relay.global_fn`` at each use (each use is one instance of its
        type; sharing one value would force one instance on all)."""
        v = self.visit(e)
        if isinstance(v, _GenericUse):
            return self._global_fn(v.gv, self.irmod.lookup(v.gv)[0])
        return v

    def visit_let(self, ex: E.Let):
        # the chain in a loop, so long Let chains need no recursion
        inner, e = [], ex
        while True:
            value = _unwrap(e.value)
            if isinstance(value, E.Function) and value not in self.memo_map and \
                    e.var in free_vars(value):
                # let %f = fn (...) { ... %f(...) ... }: a self-recursive closure
                self.memo_map[value] = self.visit_function(value, self_var=e.var)
            self.memo_map[e.var] = self.visit(value)
            body = _unwrap(e.body)
            if not isinstance(body, E.Let) or body in self.memo_map:
                break
            inner.append(body)
            e = body
        v = self.visit(body)
        for e in inner:
            self.memo_map[e] = v
        return v

    def _region(self, block, body_expr) -> None:
        saved = self.ip
        self.ip = self.ir.InsertionPoint(block)
        self.memo_map.stack.append({})
        try:
            v = self._operand(body_expr)
            self.build(body_expr, "relay.yield", [v], results=[], loc=self.file_loc(body_expr))
        finally:
            self.memo_map.stack.pop()
            self.ip = saved

    def visit_if(self, ex: E.If):
        cond = self._operand(ex.cond)
        op = self.build(ex, "relay.if", [cond])
        for region, branch in zip(op.regions, (ex.true_branch, ex.false_branch)):
            self._region(region.blocks.append(), branch)
        return op.result

    def visit_function(self, ex: E.Function, self_var: Optional[E.Var] = None):
        """A closure; with ``self_var`` a recursive one (``relay.fn recursive``,
        whose first block argument is the closure itself, bound to ``self_var``)."""
        if ex.type_params:
            raise self.error(ex, "a generic Function (type_params) must be a global function "
                                 "(mod[GlobalVar(...)] = Function(..., type_params=[...]))")
        arg_types = [self.mlir_type(p.type_annotation) for p in ex.params]
        rtype = None
        if ex.ret_type is not None and all(p.type_annotation is not None for p in ex.params):
            rtype = [self.mlir_type(FuncType([p.type_annotation for p in ex.params], ex.ret_type))]
        op = self.build(ex, "relay.fn", results=rtype)
        params, locs = list(ex.params), [self.var_loc(p) for p in ex.params]
        if self_var is not None:
            op.attributes["recursive"] = self.ir.UnitAttr.get()
            arg_types.insert(0, op.results[0].type)
            params.insert(0, self_var)
            locs.insert(0, self.var_loc(self_var))
        block = op.regions[0].blocks.append(*arg_types, arg_locs=locs)
        self.memo_map.stack.append({})  # the parameters' scope, around the body's
        try:
            for i, (p, a) in enumerate(zip(params, block.arguments)):
                self.memo_map[p] = a
                if p is not self_var:
                    self.block_params[p] = (ex, i)
            self._region(block, ex.body)
        finally:
            self.memo_map.stack.pop()
        return op.result

    def visit_op(self, ex: E.Op):
        raise self.error(ex, f"operator '{ex.name}' used as a value; call it instead")

    # -- algebraic data types and references ----------------------------------
    def constructor_ref(self, ex, c: Constructor):
        data = self.irmod.type_definitions.get(c.belong_to) if hasattr(self.irmod, "type_definitions") else None
        if data is None or all(k is not c for k in data.constructors):
            raise self.error(ex, f"constructor '{c.name_hint}' of type '{c.belong_to.name_hint}' is not "
                                 "defined in this module (add its TypeData: mod[gtv] = TypeData(...))")
        return self.ir.SymbolRefAttr.get([c.belong_to.name_hint, c.name_hint])

    def construct(self, ex, c: Constructor, args):
        if len(args) != len(c.inputs):
            raise self.error(ex, f"constructor '{c.name_hint}' takes {len(c.inputs)} fields, "
                                 f"got {len(args)}")
        return self.build(ex, "relay.construct", args,
                          {"constructor": self.constructor_ref(ex, c)}).result

    def visit_constructor(self, ex: Constructor):
        # a constructor used as a function value: fn (fields...) { C(fields...) }
        op = self.build(ex, "relay.fn")
        block = op.regions[0].blocks.append(*[self.incomplete] * len(ex.inputs),
                                            arg_locs=[self.ir.Location.unknown()] * len(ex.inputs))
        saved = self.ip
        self.ip = self.ir.InsertionPoint(block)
        try:
            v = self.construct(ex, ex, list(block.arguments))
            self.build(ex, "relay.yield", [v], results=[], loc=self.file_loc(ex))
        finally:
            self.ip = saved
        return op.result

    def pattern_attr(self, ex, p: Pattern) -> str:
        """The text of a pattern attribute (``#relay.pat_ctor<@T::@C, [...]>``)."""
        if isinstance(p, PatternWildcard):
            return "#relay.pat_wildcard"
        if isinstance(p, PatternVar):
            return "#relay.pat_var"
        if isinstance(p, PatternConstructor):
            ref = self.constructor_ref(ex, p.constructor)
            subs = ", ".join(self.pattern_attr(ex, q) for q in p.patterns)
            return f"#relay.pat_ctor<{ref}, [{subs}]>"
        if isinstance(p, PatternTuple):
            return "#relay.pat_tuple<[" + ", ".join(self.pattern_attr(ex, q) for q in p.patterns) + "]>"
        raise self.error(ex, f"unknown pattern {p!r}")

    def visit_match(self, ex: Match):
        ir = self.ir
        data = self._operand(ex.data)
        if not ex.clauses:
            raise self.error(ex, "a match needs at least one clause")
        patterns = ir.ArrayAttr.get([ir.Attribute.parse(self.pattern_attr(ex, c.lhs))
                                     for c in ex.clauses])
        cls = _op_classes()["relay.match"]
        op = cls(self.incomplete, data, patterns, len(ex.clauses),
                 complete=ir.BoolAttr.get(ex.complete), loc=self.loc(ex), ip=self.ip).operation
        for region, clause in zip(op.regions, ex.clauses):
            bound = pattern_vars(clause.lhs)
            block = region.blocks.append(*[self.mlir_type(v.type_annotation) for v in bound],
                                         arg_locs=[self.var_loc(v) for v in bound])
            self.memo_map.stack.append({})
            try:
                for i, (v, a) in enumerate(zip(bound, block.arguments)):
                    self.memo_map[v] = a
                    self.block_params[v] = (ex, i)
                self._region(block, clause.rhs)
            finally:
                self.memo_map.stack.pop()
        return op.result

    def visit_ref_create(self, ex: E.RefCreate):
        return self.build(ex, "relay.ref_new", [self._operand(ex.value)]).result

    def visit_ref_read(self, ex: E.RefRead):
        return self.build(ex, "relay.ref_read", [self._operand(ex.ref)]).result

    def visit_ref_write(self, ex: E.RefWrite):
        return self.build(ex, "relay.ref_write", [self._operand(ex.ref), self._operand(ex.value)]).result


class _GenericUse:
    """What a generic global function (``type_params``) evaluates to until it
    is used: ``_Emitter._operand`` emits a ``relay.global_fn`` per use."""

    __slots__ = ("gv",)

    def __init__(self, gv: E.GlobalVar) -> None:
        self.gv = gv


def emit_module(irmod, params: Optional[Mapping[str, np.ndarray]] = None) -> EmittedModule:
    """Emits ``irmod`` (an ``IRModule``) as relay MLIR, types not yet inferred.

    ``params`` binds parameters of ``main`` by name to constants (like
    ``relay.build(..., params=...)``); bound parameters disappear from the
    signature.
    """
    return _Emitter(irmod, params).run()
