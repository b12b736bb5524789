"""Relay-dialect MLIR back into expressions: ``from_mlir_text(text) -> IRModule``.

The inverse of emission (``IRModule.mlir()`` of a type-checked module: MLIR
must verify to be read), used by ``relay-mlir convert model.mlir -o
model.relay``::

    >>> import relay_mlir as relay
    >>> x = relay.var("x", shape=(2,))
    >>> mod = relay.IRModule.from_expr(relay.Function([x], relay.exp(x)))
    >>> back = from_mlir_text(relay.transform.InferType()(mod).mlir())
    >>> back["main"].body.op.name
    'exp'

Operators become ``Call(Op.get(name), args, attrs)`` with attributes read back
by the inverse of ``emit.to_attribute``; ``relay.adt`` definitions, tuples,
``if``, closures (``relay.fn``, recursive ones as a recursive ``let``),
``match``, refs and calls become the matching expressions.
"""
from __future__ import annotations

import re
from typing import Dict, List, Optional

import numpy as np

from .adt import (Clause, Constructor, Match, Pattern, PatternConstructor, PatternTuple,
                  PatternVar, PatternWildcard, TypeData)
from ._worker import isolate_default, parse_in_child
from .emit import VAR_LOC_PREFIX, location_of, new_context, parse_module
from .errors import CompileError, Diagnostic
from .expr import (Call, Constant, Expr, Function, GlobalVar, If, Let, Op, RefCreate, RefRead,
                   RefWrite, Tuple, TupleGetItem, Var)
from .module import IRModule
from .op.nn import PAIRED_ATTRS
from .ty import (FuncType, GlobalTypeVar, IncompleteType, RefType, TupleType, Type, TypeCall,
                 TypeVar, from_mlir, mlir_to_dtype)

__all__ = ["from_mlir_text"]


# Reads and writes of references keep their order: let-bound where they are.
_ORDERED = frozenset({"relay.ref_read", "relay.ref_write"})
# Language ops without effects (an unused one is dropped); relay operators are pure too.
_DROPPABLE = frozenset({"relay.constant", "relay.tuple", "relay.tuple_get_item", "relay.fn", "relay.grad",
                        "relay.global_fn", "relay.closure", "relay.construct", "relay.ref_new"})
_LANGUAGE = frozenset({"relay.if", "relay.call", "relay.match"}) | _ORDERED | _DROPPABLE


def _is_operator(name: str) -> bool:
    return name.startswith("relay.") and name not in _LANGUAGE


class _Effects:
    """Which ops may read or write a reference when evaluated: those keep their place.

    ``ref_read``/``ref_write`` do; a call does if the callee's body may (module functions,
    closures and ``relay.fn``s known at the call; a function value from a parameter, a tuple, a
    reference or a branch is assumed to); ``if`` and ``match`` do if one of their regions may.
    Operators, constants, tuples, closures (creating one) and ``ref_new`` do not. A recursive
    function is followed until it reaches itself again.
    """

    def __init__(self, module_op) -> None:
        from . import ir

        self.funcs = {}
        for op in module_op.regions[0].blocks[0].operations:
            if op.operation.name == "func.func":
                self.funcs[op.operation.attributes["sym_name"].value] = op.operation
        self.memo: Dict[object, bool] = {}
        self.active: List[object] = []   # bodies being looked at (the recursion)
        self.assumed: set = set()        # active bodies assumed without effects by a call inside
        self._ir = ir

    def op(self, op) -> bool:
        name = op.name
        if name in _ORDERED:
            return True
        if name == "func.call":
            return self.function(self._ir.FlatSymbolRefAttr(op.attributes["callee"]).value)
        if name == "relay.call":
            return self.call(op.operands[0])
        if name in ("relay.if", "relay.match"):
            return any(self.region(r) for r in op.regions)
        return False  # operators, constants, tuples, closures, ref_new, ...

    def region(self, region) -> bool:
        return any(self.op(o.operation) for block in region.blocks for o in block.operations)

    def call(self, callee) -> bool:
        ir = self._ir
        if isinstance(callee, ir.BlockArgument):
            owner = callee.owner.owner  # a recursive relay.fn's first argument is itself
            if owner.name == "relay.fn" and "recursive" in owner.attributes and callee.arg_number == 0:
                return self.body(owner.results[0], owner.regions[0])
            return True
        owner = callee.owner
        if owner.name == "relay.fn":
            return self.body(owner.results[0], owner.regions[0])
        if owner.name in ("relay.global_fn", "relay.closure"):
            return self.function(ir.FlatSymbolRefAttr(owner.attributes["callee"]).value)
        return True

    def function(self, name: str) -> bool:
        fn = self.funcs.get(name)
        if fn is None or len(fn.regions[0].blocks) == 0:
            return True
        return self.body(name, fn.regions[0])

    def body(self, key, region) -> bool:
        if key in self.memo:
            return self.memo[key]
        if key in self.active:
            self.assumed.add(key)
            return False
        self.active.append(key)
        found = self.region(region)
        self.active.pop()
        self.assumed.discard(key)
        # False is known only when no enclosing body was assumed on the way
        if found or not self.assumed:
            self.memo[key] = found
        return found


def _attr_value(name: str, a):
    from . import ir

    if isinstance(a, ir.BoolAttr):
        return bool(a.value)
    if isinstance(a, ir.IntegerAttr):
        return int(a.value)
    if isinstance(a, ir.FloatAttr):
        return float(a.value)
    if isinstance(a, ir.StringAttr):
        return a.value
    if isinstance(a, ir.DenseI64ArrayAttr) or isinstance(a, ir.DenseI32ArrayAttr):
        return [int(v) for v in a]
    if isinstance(a, ir.DenseF64ArrayAttr) or isinstance(a, ir.DenseF32ArrayAttr):
        return [float(v) for v in a]
    if isinstance(a, ir.TypeAttr):
        try:
            return mlir_to_dtype(str(a.value))  # element types name dtypes
        except ValueError:
            return from_mlir(a.value)
    if isinstance(a, ir.ArrayAttr):
        return [_attr_value(name, x) for x in a]
    if isinstance(a, ir.UnitAttr):
        return True
    raise CompileError(f"cannot convert attribute '{name}' = {a} to a Relay value")


def _bfloat16_array(text: str, shape) -> np.ndarray:
    """The values of a bf16 ``dense<...>`` attribute printed as ``text`` (decimal or hex
    elements, or one hex string of little-endian bits), as an ml_dtypes bfloat16 array."""
    import ml_dtypes  # a dependency of iree-base-runtime

    body = text[text.index("dense<") + len("dense<"):text.rindex("> :")]
    if body.startswith('"0x'):
        bits = np.frombuffer(bytes.fromhex(body[3:body.index('"', 1)]), dtype="<u2")
    else:
        tokens = re.findall(r"0x[0-9A-Fa-f]+|[-+]?(?:inf|nan|\d+(?:\.\d*)?(?:[eE][-+]?\d+)?)", body)
        bits = np.array([int(t, 16) if t.startswith("0x") else
                         np.array(float(t), "float32").astype(ml_dtypes.bfloat16).view("uint16")
                         for t in tokens], "uint16")
    arr = bits.view(ml_dtypes.bfloat16)
    return np.full(shape, arr[0]) if arr.size == 1 else arr.reshape(shape)


def _closure_captures(module_op) -> Dict[str, int]:
    """{lifted function: how many captures its ``relay.closure``s pass} (relay-lambda-lift's
    functions take the captures first, then the closure's parameters)."""
    from . import ir

    found: Dict[str, int] = {}

    def visit(op):
        if op.name == "relay.closure":
            found[ir.FlatSymbolRefAttr(op.attributes["callee"]).value] = len(op.operands)
        return ir.WalkResult.ADVANCE

    module_op.walk(visit)
    return found


class _Importer:
    def __init__(self, module_op, types_of: Optional[IRModule] = None) -> None:
        self.module_op = module_op
        self.effects = _Effects(module_op)
        self.mod = IRModule()
        self.values: Dict[object, Expr] = {}
        self.globals: Dict[str, GlobalVar] = {}
        self.types: Dict[str, GlobalTypeVar] = {}
        self.ctors: Dict[str, Constructor] = {}
        self.type_vars: Dict[str, TypeVar] = {}
        # ADTs of `types_of` keep their GlobalTypeVar and Constructor objects
        self.reused: Dict[str, TypeData] = {}
        for gtv, data in ({} if types_of is None else types_of.type_definitions).items():
            self.types[gtv.name_hint] = gtv
            self.reused[gtv.name_hint] = data
            for c in data.constructors:
                self.ctors[f"{gtv.name_hint}::{c.name_hint}"] = c

    def error(self, op, msg: str) -> CompileError:
        f, line, col = location_of(op.location)
        return CompileError("could not convert MLIR to Relay", [Diagnostic("error", msg, f, line, col)])

    # -- types ------------------------------------------------------------------------
    def ty(self, mlir_type) -> Optional[Type]:
        t = from_mlir(mlir_type)
        return None if isinstance(t, IncompleteType) else self.resolve(t)

    def resolve(self, t: Type) -> Type:
        """Shares GlobalTypeVars and TypeVars by name."""
        if isinstance(t, TypeCall):
            gtv = self.types.setdefault(t.func.name_hint, GlobalTypeVar(t.func.name_hint))
            return TypeCall(gtv, [self.resolve(a) for a in t.args])
        if isinstance(t, TypeVar):
            return self.type_vars.setdefault(t.name_hint, TypeVar(t.name_hint))
        if isinstance(t, TupleType):
            return TupleType([self.resolve(f) for f in t.fields])
        if isinstance(t, FuncType):
            return FuncType([self.resolve(a) for a in t.arg_types], self.resolve(t.ret_type))
        if isinstance(t, RefType):
            return RefType(self.resolve(t.value))
        return t

    # -- module -------------------------------------------------------------------------
    def run(self) -> IRModule:
        body = self.module_op.regions[0].blocks[0]
        for op in body.operations:
            if op.operation.name == "relay.adt":
                self.adt(op.operation)
        for op in body.operations:
            name = op.operation.name
            if name == "func.func":
                sym = op.operation.attributes["sym_name"].value
                self.globals[sym] = GlobalVar(sym)
        self.captures = _closure_captures(self.module_op)
        for op in body.operations:
            if op.operation.name == "func.func":
                self.func(op.operation)
        return self.mod

    def adt(self, op) -> None:
        from . import ir

        name = op.attributes["sym_name"].value
        if name in self.reused:
            self.mod[self.types[name]] = self.reused[name]
            return
        gtv = self.types.setdefault(name, GlobalTypeVar(name))
        self.type_vars = {}
        params = [TypeVar(ir.StringAttr(p).value) for p in op.attributes["type_params"]]
        for p in params:
            self.type_vars[p.name_hint] = p
        ctors = []
        for c in op.regions[0].blocks[0].operations:
            cname = c.operation.attributes["sym_name"].value
            fields = [self.resolve(from_mlir(ir.TypeAttr(f).value)) for f in c.operation.attributes["fields"]]
            ctor = Constructor(cname, fields, gtv)
            self.ctors[f"{name}::{cname}"] = ctor
            ctors.append(ctor)
        self.type_vars = {}
        self.mod[gtv] = TypeData(gtv, params, ctors)

    def func(self, op) -> None:
        from . import ir

        sym = op.attributes["sym_name"].value
        self.type_vars = {}
        tparams = []
        if "relay.type_params" in op.attributes:
            tparams = [self.type_vars.setdefault(ir.StringAttr(p).value, TypeVar(ir.StringAttr(p).value))
                       for p in op.attributes["relay.type_params"]]
        ftype = ir.FunctionType(ir.TypeAttr(op.attributes["function_type"]).value)
        block = op.regions[0].blocks[0]
        params = [self.param(a, i) for i, a in enumerate(block.arguments)]
        ret = self.ty(ftype.results[0]) if len(ftype.results) == 1 else None
        body = self.block(block)
        attrs = {}
        if "relay.attrs" in op.attributes:  # Function.with_attr's
            for a in ir.DictAttr(op.attributes["relay.attrs"]):
                v = a.attr
                attrs[a.name] = v.value if isinstance(v, (ir.StringAttr, ir.IntegerAttr)) else str(v)
        n = self.captures.get(sym, 0)
        if n:  # a lifted closure (relay-lambda-lift), as TVM's LambdaLift makes it
            body = Function(params[n:], body, ret)
            params, ret, attrs = params[:n], None, {**attrs, "Closure": 1}
        self.mod[self.globals[sym]] = Function(params, body, ret, tparams, attrs)

    def param(self, arg, i: int) -> Var:
        v = Var(f"p{i}" if not hasattr(arg, "get_name") else self._arg_name(arg, i), self.ty(arg.type))
        self.values[arg] = v
        return v

    @staticmethod
    def _arg_name(arg, i: int) -> str:
        loc = arg.location
        if loc.is_a_name() and loc.name_str.startswith(VAR_LOC_PREFIX):
            return loc.name_str[len(VAR_LOC_PREFIX):] or f"p{i}"
        try:
            n = arg.get_name()
            return n.lstrip("%").replace("arg", "x") or f"p{i}"
        except Exception:
            return f"p{i}"

    def block(self, block) -> Expr:
        """The value of a block: its ops in order; the terminator's operand is the value.

        Ops whose order or effect matters become ``let``s in block order, the rest graph
        nodes: ops that may read or write a reference (``_Effects``: reference reads and writes,
        calls of functions that may, ``if``/``match`` with such ops inside; ``ref_new``, so the
        reference is made once where it is made), and ops whose
        results are unused and which may have an effect (calls, ``if``, ``match``; an unused
        pure op is dropped)."""
        result: Optional[Expr] = None
        lets: List[tuple] = []
        for op in block.operations:
            op = op.operation
            name = op.name
            if name in ("func.return", "relay.yield"):
                if len(op.operands) != 1:
                    raise self.error(op, f"'{name}' must return one value")
                result = self.values[op.operands[0]]
                continue
            e = self.convert(op)
            unused = all(next(iter(r.uses), None) is None for r in op.results)
            # a reference made once, where it is made (a graph node would be one per use scope)
            ordered = name in _ORDERED or name == "relay.ref_new" and not unused \
                or (not _is_operator(name) and self.effects.op(op))
            if ordered or (unused and name not in _DROPPABLE and not _is_operator(name)):
                v = Var("_" if unused else f"v{len(lets)}", self.ty(op.results[0].type) if op.results else None)
                lets.append((v, e))
                e = v
            if len(op.results) == 1:
                self.values[op.results[0]] = e
        if result is None:
            raise self.error(block.owner, "block without a return value")
        for v, e in reversed(lets):
            result = Let(v, e, result)
        return result

    def convert(self, op) -> Expr:
        from . import ir

        name = op.name
        args = [self.values[v] for v in op.operands]
        if name == "relay.constant":
            attr = op.attributes["value"]
            arr = _dense_elements(ir.DenseElementsAttr(attr)) if not isinstance(attr, ir.DenseResourceElementsAttr) \
                else None
            if arr is None:
                raise self.error(op, "resource constants are not supported")
            dtype = from_mlir(op.results[0].type).dtype
            shape = from_mlir(op.results[0].type).concrete_shape
            if dtype == "bfloat16":   # no buffer protocol for bf16: read the printed values
                return Constant(_bfloat16_array(str(attr), shape))
            return Constant(np.asarray(arr).astype(dtype).reshape(shape))
        if name == "relay.tuple":
            return Tuple(args)
        if name == "relay.tuple_get_item":
            return TupleGetItem(args[0], int(op.attributes["index"].value))
        if name == "relay.if":
            return If(args[0], self.block(op.regions[0].blocks[0]), self.block(op.regions[1].blocks[0]))
        if name == "func.call":
            callee = ir.FlatSymbolRefAttr(op.attributes["callee"]).value
            return Call(self.globals[callee], args)
        if name == "relay.global_fn":
            return self.globals[ir.FlatSymbolRefAttr(op.attributes["callee"]).value]
        if name == "relay.call":
            return Call(args[0], args[1:])
        if name == "relay.fn":
            return self.closure(op)
        if name == "relay.closure":  # TVM's LambdaLift: @lifted(captures), or @lifted
            gv = self.globals[ir.FlatSymbolRefAttr(op.attributes["callee"]).value]
            return Call(gv, args) if args else gv
        if name == "relay.ref_new":
            return RefCreate(args[0])
        if name == "relay.ref_read":
            return RefRead(args[0])
        if name == "relay.ref_write":
            return RefWrite(args[0], args[1])
        if name == "relay.construct":
            return Call(self.ctor(op, op.attributes["constructor"]), args)
        if name == "relay.match":
            return self.match(op, args[0])
        if name.startswith("relay."):
            attrs = {}
            for key in op.attributes:
                key = getattr(key, "name", key)
                attrs[key] = _attr_value(key, op.attributes[key])
                if key in PAIRED_ATTRS:  # the dialect's flattened (before, after) pairs
                    attrs[key] = [attrs[key][i:i + 2] for i in range(0, len(attrs[key]), 2)]
            return Call(Op.get(name[len("relay."):]), args, attrs)
        raise self.error(op, f"cannot convert '{name}' to Relay")

    def ctor(self, op, ref) -> Constructor:
        text = str(ref).replace("@", "").replace('"', "")
        c = self.ctors.get(text)
        if c is None:
            raise self.error(op, f"unknown constructor {ref}")
        return c

    def closure(self, op) -> Expr:
        block = op.regions[0].blocks[0]
        recursive = "recursive" in op.attributes
        args = list(block.arguments)
        self_var = None
        if recursive:
            self_var = Var("rec", self.ty(op.results[0].type))
            self.values[args[0]] = self_var
            args = args[1:]
        params = [self.param(a, i) for i, a in enumerate(args)]
        fn = Function(params, self.block(block))
        if self_var is not None:
            return Let(self_var, fn, self_var)
        return fn

    def pattern(self, op, attr, bound: List[Var]) -> Pattern:

        text = str(attr)
        if text == "#relay.pat_wildcard":
            return PatternWildcard()
        if text == "#relay.pat_var":
            v = Var(f"v{len(bound)}")
            bound.append(v)
            return PatternVar(v)
        # #relay.pat_ctor<@T::@C, [...]> / #relay.pat_tuple<[...]>: read through the parser of the text
        inner = text[text.index("<") + 1:-1]
        if text.startswith("#relay.pat_ctor"):
            ref, _, rest = inner.partition(",")
            subs = self._split_list(rest.strip())
            c = self.ctor(op, ref.strip())
            return PatternConstructor(c, [self.pattern(op, s, bound) for s in subs])
        if text.startswith("#relay.pat_tuple"):
            return PatternTuple([self.pattern(op, s, bound) for s in self._split_list(inner.strip())])
        raise self.error(op, f"unknown pattern {text}")

    @staticmethod
    def _split_list(text: str) -> List[str]:
        """Top-level comma-separated items of ``[a, b<c, d>, ...]``."""
        assert text.startswith("[") and text.endswith("]")
        body, items, depth, cur = text[1:-1], [], 0, ""
        for ch in body:
            if ch in "<[":
                depth += 1
            elif ch in ">]":
                depth -= 1
            if ch == "," and depth == 0:
                items.append(cur.strip())
                cur = ""
            else:
                cur += ch
        if cur.strip():
            items.append(cur.strip())
        return items

    def match(self, op, data: Expr) -> Expr:
        clauses = []
        complete = bool(op.attributes["complete"].value) if "complete" in op.attributes else True
        for attr, region in zip(op.attributes["patterns"], op.regions):
            bound: List[Var] = []
            pat = self.pattern(op, attr, bound)
            block = region.blocks[0]
            for v, a in zip(bound, block.arguments):
                v.type_annotation = self.ty(a.type)
                self.values[a] = v
            clauses.append(Clause(pat, self.block(block)))
        return Match(data, clauses, complete)


def from_mlir_text(text: str, source_name: str = "<input>", trusted: bool = False,
                   types_of: Optional[IRModule] = None) -> IRModule:
    """An ``IRModule`` from relay-dialect MLIR text; errors are located ``CompileError``s.

    Text not ``trusted`` (not printed by relay-mlir itself) is parsed in the
    worker process first (``RELAY_MLIR_ISOLATE=0`` turns that off). ADTs
    that ``types_of`` defines (by name) are that module's, so the result's
    functions can join it.
    """
    if not trusted and isolate_default():
        parse_in_child(text, source_name)  # a parser abort ends the worker, not this process
    ctx = new_context()
    holder = parse_module(ctx, text, source_name)
    with ctx:
        return _Importer(holder.operation, types_of).run()


def _dense_elements(attr) -> np.ndarray:
    """The elements of a ``DenseElementsAttr``, in its shape. A splat is made from its one
    value: the bindings' buffer of an ``i1`` splat holds one byte of bits, and numpy read the
    whole shape from it, past its end (a bool ``zeros``/``zeros_like`` of more than 8
    elements folded by FoldConstant came back with random trues: pass_fuzz 32:376)."""
    if attr.is_splat:
        return np.full(tuple(attr.type.shape), attr.get_splat_value().value)
    return np.array(attr)
