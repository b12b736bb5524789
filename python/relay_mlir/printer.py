"""Relay's text format out: ``astext`` prints modules and expressions as TVM 0.19 does.

``IRModule.astext()``/``str(mod)`` and ``Expr.astext()`` use it; the output
is ``#[version = "0.0.5"]`` text that ``relay_mlir.fromtext`` and TVM's
``tvm.relay.fromtext`` read back::

    >>> import relay_mlir as relay
    >>> x = relay.var("x", shape=(2,))
    >>> print(relay.IRModule.from_expr(relay.Function([x], relay.exp(x) + x)).astext())
    #[version = "0.0.5"]
    def @main(%x: Tensor[(2), float32]) {
      %0 = exp(%x);
      add(%0, %x)
    }
    <BLANKLINE>

Every non-atomic expression is bound once per block (``%0 = ...;``, graph
normal form), in evaluation order; ``Let``s are printed as ``let`` (one that is an operand as a
``(let ...; body)`` block, as TVM does); tensor
constants other than scalars go to the ``#[metadata]`` section as
``meta[relay.Constant][i]``. Deep programs print without recursion (only
nested blocks — function bodies, branches, clauses — nest).
"""
from __future__ import annotations

import re
from typing import Dict, List, Optional

import numpy as np

from .adt import (Constructor, Match, Pattern, PatternConstructor, PatternTuple, PatternVar,
                  PatternWildcard, TypeData)
from .expr import (Call, Constant, Expr, Function, GlobalVar, If, Let, Op, RefCreate, RefRead,
                   RefWrite, Tuple, TupleGetItem, TupleWrapper, Var)
from .expr_functor import dataflow_children
from .ty import (Any, FuncType, GlobalTypeVar, IncompleteType, RefType, TensorType, TupleType, Type,
                 TypeCall, TypeVar)
from ._tvm_ndarray import write_metadata

__all__ = ["astext", "type_text"]

# the scalar literals TVM 0.19 prints and reads back (its parser has no i8/u8/u16/u32/u64)
_SCALAR_SUFFIX = {"float32": "f", "float64": "f64", "float16": "f16", "int32": "", "int64": "i64",
                  "int16": "i16"}
# operators whose Relay operand is one tuple; relay-mlir's calls hold its fields
_TUPLE_OPERAND_OPS = {"concatenate", "stack", "einsum", "meshgrid"}
_NAME_OK = re.compile(r"[A-Za-z_][A-Za-z0-9_]*$")


def type_text(t: Optional[Type]) -> str:
    """A type in Relay syntax (``Tensor[(1, ?), float32]``, ``(A, B)``, ``fn (A) -> B``, ``List[A]``)."""
    if t is None or isinstance(t, IncompleteType):
        return "_"
    if isinstance(t, TensorType):
        dims = ", ".join("?" if isinstance(d, Any) else str(d) for d in t.shape)
        return f"Tensor[({dims}), {t.dtype}]"
    if isinstance(t, TupleType):
        inner = ", ".join(type_text(f) for f in t.fields)
        return f"({inner},)" if len(t.fields) == 1 else f"({inner})"
    if isinstance(t, FuncType):
        return "fn (" + ", ".join(type_text(a) for a in t.arg_types) + ") -> " + type_text(t.ret_type)
    if isinstance(t, TypeCall):
        if not t.args:
            return t.func.name_hint
        return t.func.name_hint + "[" + ", ".join(type_text(a) for a in t.args) + "]"
    if isinstance(t, (TypeVar, GlobalTypeVar)):
        return t.name_hint
    if isinstance(t, RefType):
        return "_"  # Relay's text format has no syntax for reference types
    return "_"


def _has_ref(t: Optional[Type]) -> bool:
    """Whether ``t`` mentions a reference type: TVM's parser reads no ``ref(T)`` (nor
    ``_`` inside a type), so such annotations are left out and inferred."""
    if isinstance(t, RefType):
        return True
    if isinstance(t, TupleType):
        return any(_has_ref(f) for f in t.fields)
    if isinstance(t, FuncType):
        return any(_has_ref(a) for a in t.arg_types) or _has_ref(t.ret_type)
    if isinstance(t, TypeCall):
        return any(_has_ref(a) for a in t.args)
    return False


def _float_text(v: float, dtype: str = "float64") -> str:
    """The shortest text that reads back as the same ``dtype`` value (``0.1f`` for a float32
    0.1, as TVM prints it, not its float64 expansion); ``ValueError`` for inf/nan."""
    s = str(np.dtype(dtype).type(v)) if dtype in ("float16", "float32") else repr(float(v))
    if "inf" in s or "nan" in s:
        raise ValueError
    if s.endswith(".0"):
        # an integral value: TVM's C++ printer writes ``1f``, ``-2f``, ``1e+06f`` (%g); the
        # same when that reads back exactly, else the digits without ".0"
        g = f"{float(v):g}"
        s = g if float(g) == float(v) else s[:-2]
    return s


def _is_atom(e: Expr) -> bool:
    """Whether ``_Printer.atom`` prints ``e`` inline (without numbering metadata yet, so
    constants are numbered in the order they are printed, as TVM does)."""
    return isinstance(e, (Var, GlobalVar, Constructor, Op, Constant)) or \
        isinstance(e, Call) and isinstance(e.op, Constructor) and not e.args


class _Block:
    def __init__(self, indent: str) -> None:
        self.lines: List[str] = []
        self.indent = indent
        self.names: Dict[Expr, str] = {}


class _Printer:
    def __init__(self, show_meta_data: bool) -> None:
        self.show_meta = show_meta_data
        self.meta: List[np.ndarray] = []
        self.meta_index: Dict[int, int] = {}
        self.made: List[Constant] = []  # constants made while printing: their ids stay unique
        self.blocks: List[_Block] = []
        self.var_names: Dict[Var, str] = {}
        self.used_names: set = set()
        self.temp = 0

    # -- names ----------------------------------------------------------------------------
    def var_name(self, v: Var) -> str:
        name = self.var_names.get(v)
        if name is None:
            base = v.name_hint if v.name_hint and _NAME_OK.match(v.name_hint) else \
                re.sub(r"[^A-Za-z0-9_]", "_", v.name_hint or "x")
            if not _NAME_OK.match(base):
                base = "v" + base
            name, k = base, 0
            while name in self.used_names:
                k += 1
                name = f"{base}_{k}"
            self.used_names.add(name)
            self.var_names[v] = name
        return "%" + name

    def lookup(self, e: Expr) -> Optional[str]:
        for b in reversed(self.blocks):
            if e in b.names:
                return b.names[e]
        return None

    # -- atoms ----------------------------------------------------------------------------
    def atom(self, e: Expr) -> Optional[str]:
        """The inline text of ``e`` if it needs no binding."""
        if isinstance(e, Var):
            return self.var_name(e)
        if isinstance(e, GlobalVar):
            return "@" + e.name_hint
        if isinstance(e, Constructor):
            return e.name_hint
        if isinstance(e, Op):
            return e.name
        if isinstance(e, Constant):
            return self.constant(e)
        if isinstance(e, Call) and isinstance(e.op, Constructor) and not e.args:
            return e.op.name_hint
        return None

    def constant(self, c: Constant) -> str:
        d = c.data
        if d.ndim == 0:
            dt = d.dtype.name
            if dt == "bool":
                return "True" if bool(d) else "False"
            if dt in _SCALAR_SUFFIX:
                try:
                    body = _float_text(d, dt) if dt.startswith("float") else str(int(d))
                    return body + _SCALAR_SUFFIX[dt]
                except ValueError:
                    pass
        key = id(c)
        if key not in self.meta_index:
            self.meta_index[key] = len(self.meta)
            self.meta.append(d)
        return f"meta[relay.Constant][{self.meta_index[key]}]"

    # -- blocks ---------------------------------------------------------------------------
    def block(self, body: Expr, indent: str) -> List[str]:
        """The lines of a block whose value is ``body`` (bindings, then the value)."""
        b = _Block(indent)
        self.blocks.append(b)
        try:
            value = self.value(body, inline=True)
            b.lines.append(indent + value)
        finally:
            self.blocks.pop()
        return b.lines

    def emit(self, line: str) -> None:
        b = self.blocks[-1]
        b.lines.append(b.indent + line)

    def value(self, e: Expr, inline: bool = False) -> str:
        """The text naming ``e``'s value in the current block, binding what it needs first
        (``inline``: a block's final value, printed in place rather than bound)."""
        if isinstance(e, TupleWrapper):
            e = e.astuple()
        named = self.lookup(e)
        if named is not None:
            return named
        # Let chains: statements of this block, in a loop
        while isinstance(e, Let):
            name = self.var_name(e.var)
            ann = f": {type_text(e.var.type_annotation)}" if e.var.type_annotation is not None and \
                not _has_ref(e.var.type_annotation) else ""
            self.blocks[-1].names[e.var] = name
            if isinstance(e.value, Function):
                # in place, after the let's name: a let-bound function may call itself
                v = self.function_text(e.value, self.blocks[-1].indent)
            elif isinstance(e.value, Let):
                v = self.nested_let(e.value)
            else:
                v = self.value(e.value)
            self.emit(f"let {name}{ann} = {v};")
            e = e.body
            if isinstance(e, TupleWrapper):
                e = e.astuple()
        a = self.atom(e)
        if a is not None:
            return a
        named = self.lookup(e)
        if named is not None:
            return named
        # post-order over the dataflow operands, with an explicit stack
        stack = [(e, False)]
        while stack:
            node, ready = stack.pop()
            if _is_atom(node) or self.lookup(node) is not None:
                continue
            if not ready:
                stack.append((node, True))
                for k in reversed(dataflow_children(node)):
                    if isinstance(k, Let) or not _is_atom(k) and self.lookup(k) is None:
                        stack.append((k, False))
                continue
            if node is e and inline and not isinstance(e, Let):
                return self.expr_text(e)
            self.bind(node)
        return self.lookup(e) or self.atom(e)

    def nested_let(self, e: Let) -> str:
        """A let that is an operand, as TVM prints it: a parenthesized block, so the
        let's scope (and the expression's structure) is kept."""
        ind = self.blocks[-1].indent
        return "(\n" + "\n".join(self.block(e, ind + "  ")) + "\n" + ind + ")"

    def bind(self, e: Expr) -> None:
        text = self.nested_let(e) if isinstance(e, Let) else self.expr_text(e)
        name = f"%{self.temp}"
        self.temp += 1
        self.emit(f"{name} = {text};")
        self.blocks[-1].names[e] = name

    def expr_text(self, e: Expr) -> str:
        if isinstance(e, Call):
            return self.call_text(e)
        if isinstance(e, Tuple):
            fields = [self.value(f) for f in e.fields]
            return f"({fields[0]},)" if len(fields) == 1 else "(" + ", ".join(fields) + ")"
        if isinstance(e, TupleGetItem):
            return f"{self.value(e.tuple_value)}.{e.index}"
        if isinstance(e, RefCreate):
            return f"ref({self.value(e.value)})"
        if isinstance(e, RefRead):
            return f"ref_read({self.value(e.ref)})"
        if isinstance(e, RefWrite):
            return f"ref_write({self.value(e.ref)}, {self.value(e.value)})"
        if isinstance(e, If):
            cond = self.value(e.cond)
            ind = self.blocks[-1].indent
            then = "\n".join(self.block(e.true_branch, ind + "  "))
            other = "\n".join(self.block(e.false_branch, ind + "  "))
            return f"if ({cond}) {{\n{then}\n{ind}}} else {{\n{other}\n{ind}}}"
        if isinstance(e, Match):
            data = self.value(e.data)
            ind = self.blocks[-1].indent
            clauses = []
            for c in e.clauses:
                pat = self.pattern_text(c.lhs)
                body = "\n".join(self.block(c.rhs, ind + "    "))
                clauses.append(f"{ind}  {pat} => {{\n{body}\n{ind}  }},")
            kw = "match" if e.complete else "match?"
            return f"{kw} ({data}) {{\n" + "\n".join(clauses) + f"\n{ind}}}"
        if isinstance(e, Function):
            return self.function_text(e, self.blocks[-1].indent)
        raise TypeError(f"cannot print {e!r}")

    def call_text(self, c: Call) -> str:
        args = [self.value(a) for a in c.args]
        if isinstance(c.op, Op):
            callee = c.op.name
            if callee in _TUPLE_OPERAND_OPS:  # one tuple operand in Relay, its fields here
                args = ["(" + ", ".join(args) + ("," if len(args) == 1 else "") + ")"]
            elif callee == "qnn.concatenate":  # three tuples in Relay (tensors, scales, zero points)
                k = (len(args) - 2) // 3
                args = ["(" + ", ".join(args[i * k:(i + 1) * k]) + ("," if k == 1 else "") + ")"
                        for i in range(3)] + args[3 * k:]
            elif callee == "collapse_sum_to":  # Relay passes the shape also as a constant
                self.made.append(Constant(np.asarray(c.attrs["shape"], dtype="int32")))
                args.append(self.constant(self.made[-1]))
            for k, v in c.attrs.items():  # None too: TVM requires e.g. units=None, axes=None
                args.append(f"{k}={self.attr_text(v)}")
        elif isinstance(c.op, (GlobalVar, Constructor)):
            callee = self.atom(c.op)
        else:
            callee = self.value(c.op)
        return f"{callee}(" + ", ".join(args) + ")"

    def attr_text(self, v: object) -> str:
        if isinstance(v, (bool, np.bool_)):
            return "True" if v else "False"
        if isinstance(v, (int, np.integer)):
            return str(int(v))
        if isinstance(v, (float, np.floating)):
            try:
                return _float_text(v) + "f"
            except ValueError:
                return '"' + str(float(v)) + '"'
        if isinstance(v, str):
            return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
        if isinstance(v, (list, tuple, np.ndarray)):
            return "[" + ", ".join(self.attr_text(x) for x in list(v)) + "]"
        if v is None:
            return "None"
        return '"' + str(v) + '"'

    def pattern_text(self, p: Pattern) -> str:
        if isinstance(p, PatternWildcard):
            return "_"
        if isinstance(p, PatternVar):
            name = self.var_name(p.var)
            self.blocks[-1].names[p.var] = name
            t = p.var.type_annotation
            return name if t is None or _has_ref(t) else f"{name}: {type_text(t)}"
        if isinstance(p, PatternConstructor):
            if not p.patterns:
                return p.constructor.name_hint
            return p.constructor.name_hint + "(" + ", ".join(self.pattern_text(q) for q in p.patterns) + ")"
        if isinstance(p, PatternTuple):
            return "(" + ", ".join(self.pattern_text(q) for q in p.patterns) + ")"
        raise TypeError(f"cannot print pattern {p!r}")

    def params_text(self, fn: Function) -> str:
        out = []
        for p in fn.params:
            name = self.var_name(p)
            t = p.type_annotation
            out.append(name if t is None or _has_ref(t) else f"{name}: {type_text(t)}")
        for k, v in fn.attrs.items():
            out.append(f"{k}={self.attr_text(v)}")
        return ", ".join(out)

    def function_text(self, fn: Function, indent: str, head: str = "fn ") -> str:
        tps = "[" + ", ".join(tp.name_hint for tp in fn.type_params) + "]" if fn.type_params else ""
        ret = f" -> {type_text(fn.ret_type)}" if fn.ret_type is not None and \
            not _has_ref(fn.ret_type) else ""
        body = "\n".join(self.block(fn.body, indent + "  "))
        return f"{head}{tps}({self.params_text(fn)}){ret} {{\n{body}\n{indent}}}"

    # -- module -----------------------------------------------------------------------------
    def type_data_text(self, data: TypeData) -> str:
        tps = "[" + ", ".join(tv.name_hint for tv in data.type_vars) + "]" if data.type_vars else ""
        lines = [f"type {data.header.name_hint}{tps} {{"]
        for c in data.constructors:
            fields = "(" + ", ".join(type_text(t) for t in c.inputs) + ")" if c.inputs else ""
            lines.append(f"  {c.name_hint}{fields},")
        lines.append("}")
        return "\n".join(lines)

    def module_text(self, mod) -> str:
        parts = ['#[version = "0.0.5"]']
        for data in mod.type_definitions.values():
            parts.append(self.type_data_text(data))
        for gv, fn in mod.functions.items():
            self.used_names = set()
            self.var_names = {}
            self.blocks = []  # self.temp goes on: TVM's parser has one %N table per module
            parts.append(self.global_text(gv, fn))
        return "\n".join(parts) + "\n" + self.metadata_text()

    def global_text(self, gv: GlobalVar, fn: Function) -> str:
        tps = "[" + ", ".join(tp.name_hint for tp in fn.type_params) + "]" if fn.type_params else ""
        ret = f" -> {type_text(fn.ret_type)}" if fn.ret_type is not None and \
            not _has_ref(fn.ret_type) else ""
        params = self.params_text(fn)
        body = "\n".join(self.block(fn.body, "  "))
        return f"def @{gv.name_hint}{tps}({params}){ret} {{\n{body}\n}}"

    def metadata_text(self) -> str:
        if not self.meta:
            return ""
        if not self.show_meta:
            return ("/* For debugging purposes the metadata section has been omitted.\n"
                    " * If you would like to see the full metadata section you can set the \n"
                    " * option to `True` when invoking `astext`. \n */\n")
        return "#[metadata]\n" + write_metadata(self.meta) + "\n"


def astext(obj, show_meta_data: bool = True) -> str:
    """Relay text of an ``IRModule``, an expression or a ``TypeData``."""
    p = _Printer(show_meta_data)
    if hasattr(obj, "functions") and hasattr(obj, "type_definitions"):
        return p.module_text(obj)
    if isinstance(obj, TypeData):
        return p.type_data_text(obj)
    if isinstance(obj, TupleWrapper):
        obj = obj.astuple()
    if isinstance(obj, Type):
        return type_text(obj)
    if isinstance(obj, Function):
        text = p.function_text(obj, "")
    else:
        p.blocks = []
        text = "\n".join(p.block(obj, ""))
    return '#[version = "0.0.5"]\n' + text + "\n" + p.metadata_text()
