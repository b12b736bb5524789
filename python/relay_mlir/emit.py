"""Turns an expression tree (``relay_mlir.expr``) into ``relay`` dialect MLIR.

* module-level functions become ``func.func`` (direct calls ``func.call``),
  nested ``Function``s become ``relay.fn`` closures that capture outer SSA
  values, ``If`` becomes ``relay.if``, ``Tuple`` ``relay.tuple``, ...;
* every operator result (and unannotated parameter) is ``!relay.incomplete``
  and ``relay-infer-type`` (the C++ relations) computes the types;
* attributes are converted by generic rules (see ``to_attribute``);
* each op gets a ``NameLoc`` key wrapping the ``file:line:col`` of the Python
  code that built the expression, so diagnostics point at user code and
  inferred types can be read back into ``expr.checked_type``.

Example::

    >>> import relay_mlir as relay
    >>> x = relay.var("x", shape=(2,))
    >>> mod = relay.IRModule.from_expr(relay.Function([x], relay.exp(x)))
    >>> print(relay.emit.emit_module(mod).text())  # doctest: +ELLIPSIS
    module {
      func.func @main(%arg0: tensor<2xf32>) -> !relay.incomplete {
        %0 = relay.exp %arg0 : (tensor<2xf32>) -> !relay.incomplete
    ...
"""
from __future__ import annotations

import sys
from typing import Any as PyAny, Callable, Dict, List, Mapping, Optional, Sequence, Tuple as PyTuple

import numpy as np

from . import expr as E
from .errors import CompileError, Diagnostic
from .ty import FuncType, IncompleteType, Type, dtype_to_mlir, parse_mlir_type

__all__ = ["EmittedModule", "emit_module", "to_attribute", "location_of", "mlir_diagnostics",
           "new_context", "run_passes", "parse_module"]

_KEY_PREFIX = "relay_mlir.e"


def _ir():
    from . import ir  # the lead's relocated MLIR bindings; imported lazily
    return ir


def new_context():
    """A Context with relay, its lowering dialects and passes registered."""
    from ._context import make_context
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


def run_passes(ctx, module_op, pipeline: str, what: str, trace_passes: bool = False) -> None:
    """Runs a textual pipeline on ``module_op``; failures raise ``CompileError``.

    ``trace_passes`` prints ``IR Dump Before <pass>`` headers (and elided IR)
    to stderr, to name the pass that crashed a worker process.
    """
    ir = _ir()
    from .passmanager import PassManager
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


def _dedupe(diags: Sequence[Diagnostic]) -> List[Diagnostic]:
    seen, out = set(), []
    for d in diags:
        k = str(d)
        if k not in seen:
            seen.add(k)
            out.append(d)
    return out


_WRAP = "module {"


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


# ---------------------------------------------------------------------------
# attributes
# ---------------------------------------------------------------------------
def to_attribute(name: str, value: PyAny):
    """Converts a Relay attribute value by generic rules.

    * ``bool`` -> ``BoolAttr``; ``int`` -> ``i64`` ``IntegerAttr``;
      ``float`` -> ``f64`` ``FloatAttr``; ``str`` -> ``StringAttr``;
    * a list/tuple of ints -> ``DenseI64ArrayAttr``;
    * a list/tuple of floats -> ``DenseF64ArrayAttr``;
    * names ending in ``dtype`` -> ``TypeAttr`` of the dtype's element type;
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
    if name.endswith("dtype"):
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
# emission
# ---------------------------------------------------------------------------
class EmittedModule:
    """An MLIR module emitted from an ``IRModule``, with the keys linking ops to expressions."""

    def __init__(self, ctx, module_op, keys: Dict[str, object]) -> None:
        self.ctx = ctx
        self.operation = module_op
        self.keys = keys  # NameLoc key -> expression
        self.inferred = False
        self._block_params: set = set()
        self._let_aliases: list = []  # Let expressions
        self._ir = _ir()

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
        def visit_op(op) -> None:
            loc = op.location
            try:
                key = loc.name_str if loc.is_a_name() else None
            except Exception:
                key = None
            ex = self.keys.get(key) if key else None
            if ex is not None:
                self._assign(ex, op)
            for region in op.regions:
                for block in region.blocks:
                    for inner in block.operations:
                        visit_op(inner.operation)

        with self.ctx:
            visit_op(self.operation)
        def resolved(e):
            while isinstance(e, E.Let):
                e = e.body
            return e.astuple() if isinstance(e, E.TupleWrapper) else e

        for let in self._let_aliases:
            value, body = resolved(let.value), resolved(let.body)
            if value._checked_type is not None:
                let.var._checked_type = value._checked_type
            if body._checked_type is not None:
                let._checked_type = body._checked_type

    def _assign(self, ex, op) -> None:
        name = op.name
        if isinstance(ex, E.Function) and name in ("func.func", "relay.fn"):
            block = op.regions[0].blocks[0]
            args = [parse_mlir_type(str(a.type)) for a in block.arguments]
            # bound parameters (constants) are not block arguments
            params = [p for p in ex.params if id(p) in self._block_params]
            for p, t in zip(params, args):
                p._checked_type = t
            if name == "relay.fn":
                ex._checked_type = parse_mlir_type(str(op.results[0].type))
            else:
                ftype = self._ir.TypeAttr(op.attributes["function_type"]).value
                ft = parse_mlir_type("!relay.fn<" + str(ftype) + ">")
                ex._checked_type = ft
        elif len(op.results) == 1:
            ex._checked_type = parse_mlir_type(str(op.results[0].type))


class _Emitter:
    def __init__(self, irmod, params: Optional[Mapping[str, np.ndarray]]) -> None:
        self.irmod = irmod
        self.params = dict(params or {})
        self.ir = _ir()
        self.ctx = new_context()
        self.keys: Dict[str, object] = {}
        self.block_params: set = set()
        self.let_aliases: list = []
        self.scopes: List[Dict[int, PyTuple[object, object]]] = []
        self.ip = None
        self.incomplete = None
        self.counter = 0

    # -- helpers -----------------------------------------------------------
    def error(self, ex, msg: str) -> CompileError:
        span = getattr(ex, "span", None)
        d = Diagnostic("error", msg, span.filename if span else None,
                       span.line if span else 0, span.col if span else 0)
        return CompileError("could not build the program", [d])

    def loc(self, ex):
        ir = self.ir
        span = getattr(ex, "span", None)
        child = ir.Location.file(span.filename, span.line, span.col) if span else ir.Location.unknown()
        self.counter += 1
        key = f"{_KEY_PREFIX}{self.counter}"
        self.keys[key] = ex
        return ir.Location.name(key, childLoc=child)

    def mlir_type(self, t: Optional[Type]):
        if t is None:
            return self.incomplete
        return self.ir.Type.parse(t.to_mlir())

    def create(self, ex, name: str, operands=(), attrs=None, results=None, regions: int = 0):
        if not self.ctx.is_registered_operation(name):
            raise self.error(ex, f"unknown operator '{name[len('relay.'):] if name.startswith('relay.') else name}'"
                             f" (no op '{name}' is registered)")
        return self.ir.Operation.create(
            name, results=[self.incomplete] if results is None else results,
            operands=list(operands), attributes=attrs or {}, regions=regions,
            loc=self.loc(ex), ip=self.ip)

    def lookup(self, ex):
        k = id(ex)
        for scope in reversed(self.scopes):
            hit = scope.get(k)
            if hit is not None:
                return hit[1]
        return None

    def bind(self, ex, value) -> None:
        self.scopes[-1][id(ex)] = (ex, value)

    # -- module --------------------------------------------------------------
    def run(self) -> EmittedModule:
        ir = self.ir
        with self.ctx, ir.Location.unknown():
            self.incomplete = ir.Type.parse("!relay.incomplete")
            module = ir.Module.create()
            self.module = module
            old_limit = sys.getrecursionlimit()
            sys.setrecursionlimit(max(old_limit, 20000))
            try:
                with DiagnosticCollector(self.ctx) as coll:
                    for gv, fn in self.irmod.functions.items():
                        self.emit_global(gv, fn, module.body)
                    if [d for d in coll.diagnostics if d.severity == "error"]:
                        raise CompileError("could not build the program", coll.diagnostics)
            except self.ir.MLIRError as e:
                raise CompileError("could not build the program", mlir_diagnostics(e)) from None
            finally:
                sys.setrecursionlimit(old_limit)
            em = EmittedModule(self.ctx, module.operation, self.keys)
            em._block_params = self.block_params
            em._let_aliases = self.let_aliases
            em._module = module  # keep the Module object alive
            return em

    def emit_global(self, gv, fn, module_body) -> None:
        ir = self.ir
        if not isinstance(fn, E.Function):
            raise self.error(fn, f"global '{gv.name_hint}' must be a Function")
        is_main = gv.name_hint == "main"
        bound = {id(p): self.params[p.name_hint] for p in fn.params
                 if is_main and p.name_hint in self.params}
        free_params = [p for p in fn.params if id(p) not in bound]
        arg_types = [self.mlir_type(p.type_annotation) for p in free_params]
        ret = self.mlir_type(fn.ret_type)
        ftype = ir.FunctionType.get(arg_types, [ret])
        self.ip = ir.InsertionPoint(module_body)
        op = self.create(fn, "func.func", results=[], attrs={
            "sym_name": ir.StringAttr.get(gv.name_hint),
            "function_type": ir.TypeAttr.get(ftype)}, regions=1)
        block = op.regions[0].blocks.append(*arg_types, arg_locs=[self.arg_loc(p) for p in free_params])
        self.ip = ir.InsertionPoint(block)
        self.scopes.append({})
        try:
            for p, a in zip(free_params, block.arguments):
                self.bind(p, a)
                self.block_params.add(id(p))
            for p in fn.params:
                if id(p) in bound:
                    arr = np.asarray(bound[id(p)])
                    self.bind(p, self.constant(p, arr))
            result = self.visit(fn.body)
            self.ir.Operation.create("func.return", results=[], operands=[result],
                                     loc=self.loc(fn.body), ip=self.ip)
        finally:
            self.scopes.pop()

    def arg_loc(self, p):
        span = p.span
        if span is None:
            return self.ir.Location.unknown()
        return self.ir.Location.file(span.filename, span.line, span.col)

    # -- expressions ---------------------------------------------------------
    def visit(self, ex):
        if isinstance(ex, E.TupleWrapper):
            ex = ex.astuple()
        v = self.lookup(ex)
        if v is not None:
            return v
        if isinstance(ex, E.Var):
            raise self.error(ex, f"free variable '{ex.name_hint}' is not bound by any "
                                 "enclosing Function or Let")
        method = getattr(self, "visit_" + type(ex).__name__, None)
        if method is None:
            raise self.error(ex, f"cannot emit a {type(ex).__name__}")
        v = method(ex)
        if not isinstance(ex, E.Let):
            self.bind(ex, v)
        return v

    def constant(self, ex, arr: np.ndarray):
        ir = self.ir
        arr = np.asarray(arr, order="C")
        dtype = arr.dtype.name
        elt = dtype_to_mlir(dtype)
        ttype = ir.RankedTensorType.get(list(arr.shape), ir.Type.parse(elt))
        if arr.dtype == np.bool_:  # i1: go through the text form (small in practice)
            body = np.array2string(arr, separator=", ", threshold=sys.maxsize).replace("True", "true").replace("False", "false")
            attr = ir.Attribute.parse(f"dense<{body}> : {ttype}")
        else:
            attr = ir.DenseElementsAttr.get(arr, signless=not elt.startswith("ui"), type=ir.Type.parse(elt),
                                            shape=list(arr.shape))
        return self.create(ex, "relay.constant", results=[ttype], attrs={"value": attr}).result

    def visit_Constant(self, ex: E.Constant):
        return self.constant(ex, ex.data)

    def visit_Call(self, ex: E.Call):
        ir = self.ir
        if isinstance(ex.op, E.Op):
            args = [self.visit(a) for a in ex.args]
            attrs = {}
            for k, val in ex.attrs.items():
                try:
                    a = to_attribute(k, val)
                except (TypeError, ValueError) as err:
                    raise self.error(ex, f"'{ex.op.name}': {err}") from None
                if a is not None:
                    attrs[k] = a
            return self.create(ex, "relay." + ex.op.name, args, attrs).result
        if isinstance(ex.op, E.GlobalVar):
            if self.irmod.lookup(ex.op) is None:
                raise self.error(ex, f"call of unknown global function '@{ex.op.name_hint}'")
            args = [self.visit(a) for a in ex.args]
            return self.create(ex, "func.call", args, {
                "callee": ir.FlatSymbolRefAttr.get(self.irmod.lookup(ex.op)[0].name_hint)}).result
        callee = self.visit(ex.op)
        args = [self.visit(a) for a in ex.args]
        return self.create(ex, "relay.call", [callee] + args).result

    def visit_Tuple(self, ex: E.Tuple):
        fields = [self.visit(f) for f in ex.fields]
        return self.create(ex, "relay.tuple", fields).result

    def visit_TupleGetItem(self, ex: E.TupleGetItem):
        t = self.visit(ex.tuple_value)
        return self.create(ex, "relay.tuple_get_item", [t],
                           {"index": to_attribute("index", ex.index)}).result

    def visit_GlobalVar(self, ex: E.GlobalVar):
        found = self.irmod.lookup(ex)
        if found is None:
            raise self.error(ex, f"unknown global function '@{ex.name_hint}'")
        return self.create(ex, "relay.global_fn", [], {
            "callee": self.ir.FlatSymbolRefAttr.get(found[0].name_hint)}).result

    def visit_Let(self, ex: E.Let):
        v = self.visit(ex.value)
        self.bind(ex.var, v)
        self.let_aliases.append(ex)
        return self.visit(ex.body)

    def _region_body(self, block, body_expr, yield_ex) -> None:
        saved = self.ip
        self.ip = self.ir.InsertionPoint(block)
        self.scopes.append({})
        try:
            v = self.visit(body_expr)
            self.create(yield_ex, "relay.yield", [v], results=[])
        finally:
            self.scopes.pop()
            self.ip = saved

    def visit_If(self, ex: E.If):
        cond = self.visit(ex.cond)
        op = self.create(ex, "relay.if", [cond], regions=2)
        for region, branch in zip(op.regions, (ex.true_branch, ex.false_branch)):
            block = region.blocks.append()
            self._region_body(block, branch, branch)
        return op.result

    def visit_Function(self, ex: E.Function):
        arg_types = [self.mlir_type(p.type_annotation) for p in ex.params]
        rtype = None
        if ex.ret_type is not None and all(p.type_annotation is not None for p in ex.params):
            rtype = [self.mlir_type(FuncType([p.type_annotation for p in ex.params], ex.ret_type))]
        op = self.create(ex, "relay.fn", [], results=rtype, regions=1)
        block = op.regions[0].blocks.append(*arg_types, arg_locs=[self.arg_loc(p) for p in ex.params])
        saved = self.ip
        self.ip = self.ir.InsertionPoint(block)
        self.scopes.append({})
        try:
            for p, a in zip(ex.params, block.arguments):
                self.bind(p, a)
                self.block_params.add(id(p))
            v = self.visit(ex.body)
            self.create(ex.body, "relay.yield", [v], results=[])
        finally:
            self.scopes.pop()
            self.ip = saved
        return op.result

    def visit_Op(self, ex: E.Op):
        raise self.error(ex, f"operator '{ex.name}' used as a value; call it instead")


def emit_module(irmod, params: Optional[Mapping[str, np.ndarray]] = None) -> EmittedModule:
    """Emits ``irmod`` (an ``IRModule``) as relay MLIR, types not yet inferred.

    ``params`` binds parameters of ``main`` by name to constants (like
    ``relay.build(..., params=...)``); bound parameters disappear from the
    signature.
    """
    return _Emitter(irmod, params).run()
