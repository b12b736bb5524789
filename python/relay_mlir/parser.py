"""Relay's text format in: ``fromtext`` / ``parse`` read what TVM 0.19 prints.

Covers the printer's whole language (``#[version = "0.0.5"]``)::

    >>> import relay_mlir as relay
    >>> mod = relay.fromtext('''
    ... #[version = "0.0.5"]
    ... def @main(%x: Tensor[(2, 3), float32]) -> Tensor[(2, 3), float32] {
    ...   %0 = nn.relu(%x) /* ty=Tensor[(2, 3), float32] */;
    ...   add(%0, 1f)
    ... }
    ... ''')
    >>> mod["main"].body.op.name
    'add'

Definitions (``def @f[A](...) -> T { ... }``), ADTs (``type List[A] { Cons(A,
List[A]), Nil }``), graph bindings (``%0 = ...;``), ``let``, ``fn``, ``if``,
``match``/``match?`` with constructor, tuple, variable and wildcard patterns,
tuples and projections (``%t.0``), refs (``ref(e)``, ``ref_read(r)``,
``ref_write(r, v)``, ``r^``, ``(r := v)``), infix ``+ - * / == != < > <= >=``,
operator calls with attributes, scalar literals (``1f``, ``3i64``,
``-1.5f64``, ``True``), types (``Tensor[(1, ?), float32]``, scalar dtypes,
tuple types, ``fn (A) -> B``, ADT applications, ``ref(T)``), ``/* ... */``
and ``//`` comments, ``free_var`` and the ``#[metadata]`` section
(``meta[relay.Constant][i]``).

Operators are built with the builder API (``relay_mlir.op``), so a parsed
program is exactly what the same Python code would build. Errors are
``CompileError``s located at ``line:col`` of the text with a caret.
"""
from __future__ import annotations

import inspect
import re
from typing import Callable, Dict, List, NamedTuple, Optional, Tuple as PyTuple

import numpy as np

from . import op as _op
from .qnn import op as _qnn_op
from .adt import (Clause, Constructor, Match, Pattern, PatternConstructor, PatternTuple,
                  PatternVar, PatternWildcard, TypeData)
from .errors import CompileError, Diagnostic
from .narrow_dtypes import NARROW_DTYPES
from .expr import (Call, Constant, Expr, Function, GlobalVar, If, Let, Op, RefCreate, RefRead, Span,
                   RefWrite, Tuple, TupleGetItem, TupleWrapper, Var)
from .module import IRModule
from .text_forms import TEXT_FORMS, TUPLE_OPERAND_OPS
from .ty import (Any, FuncType, GlobalTypeVar, IncompleteType, RefType, TensorType, TupleType, Type,
                 TypeCall, TypeVar, TVM_DTYPE_ALIASES, dtype_to_mlir)
from ._tvm_ndarray import AttrsFields, parse_metadata

__all__ = ["fromtext", "parse", "parse_expr"]


class _Tok(NamedTuple):
    kind: str   # num, str, local, global, ident, punct, eof
    text: str
    line: int
    col: int


_TOKEN_RE = re.compile(r"""
    (?P<ws>[ \t\r\n]+)
  | (?P<comment>//[^\n]*|/\*)
  | (?P<meta_section>\#\[metadata\])
  | (?P<attr_open>\#\[)
  | (?P<str>"(?:[^"\\]|\\.)*")
  | (?P<num>-?(?:\d+\.\d*(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+|\d+|inf|nan)(?:f16|f32|f64|i8|i16|i32|i64|u8|u16|u32|u64|f|i|u|b)?(?![A-Za-z0-9_]))
  | (?P<local>%[A-Za-z_][A-Za-z0-9_]*|%\d+)
  | (?P<global>@[A-Za-z_][A-Za-z0-9_.]*)
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<punct>:=|=>|->|==|!=|<=|>=|[()\[\]{},;:=.^?<>+\-*/_])
""", re.VERBOSE)

_SUFFIX_DTYPES = {"f": "float32", "f16": "float16", "f32": "float32", "f64": "float64",
                  "i": "int32", "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
                  "u": "uint32", "u8": "uint8", "u16": "uint16", "u32": "uint32", "u64": "uint64",
                  "b": "bool"}
_DTYPE_NAMES = {"float16", "float32", "float64", "bfloat16", "int8", "int16", "int32", "int64",
                "uint8", "uint16", "uint32", "uint64", "bool", *NARROW_DTYPES, *TVM_DTYPE_ALIASES}
# infix operators: (precedence, relay op)
_BINARY = {"*": (4, "multiply"), "/": (4, "divide"), "+": (3, "add"), "-": (3, "subtract"),
           "<": (2, "less"), ">": (2, "greater"), "<=": (2, "less_equal"), ">=": (2, "greater_equal"),
           "==": (1, "equal"), "!=": (1, "not_equal")}
_KEYWORDS = {"fn", "let", "if", "else", "match", "def", "type", "ref", "free_var", "meta", "extern",
             "True", "False", "None"}


class _ParseError(Exception):
    def __init__(self, msg: str, line: int, col: int) -> None:
        super().__init__(msg)
        self.msg, self.line, self.col = msg, line, col


def _tokenize(text: str) -> PyTuple[List[_Tok], Optional[str]]:
    """Tokens of ``text`` and the metadata section's text (after ``#[metadata]``), if any."""
    toks: List[_Tok] = []
    pos, line, line_start = 0, 1, 0
    n = len(text)
    while pos < n:
        m = _TOKEN_RE.match(text, pos)
        col = pos - line_start + 1
        if m is None:
            raise _ParseError(f"unexpected character {text[pos]!r}", line, col)
        kind = m.lastgroup
        s = m.group()
        if kind == "comment" and s == "/*":
            depth, j = 1, pos + 2
            while depth and j < n:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            if depth:
                raise _ParseError("unterminated /* comment", line, col)
            s = text[pos:j]
        elif kind == "meta_section":
            return toks + [_Tok("eof", "", line, col)], text[m.end():]
        if kind not in ("ws", "comment"):
            toks.append(_Tok(kind, s, line, col))
        nl = s.count("\n")
        if nl:
            line += nl
            line_start = pos + s.rindex("\n") + 1
        pos += len(s)
    toks.append(_Tok("eof", "", line, pos - line_start + 1))
    return toks, None


class _Scope:
    """Local names (``%x``) -> expressions, one frame per block."""

    def __init__(self) -> None:
        self.frames: List[Dict[str, Expr]] = [{}]

    def push(self) -> None:
        self.frames.append({})

    def pop(self) -> None:
        self.frames.pop()

    def bind(self, name: str, e: Expr) -> None:
        self.frames[-1][name] = e

    def lookup(self, name: str) -> Optional[Expr]:
        for f in reversed(self.frames):
            if name in f:
                return f[name]
        return None


class _Parser:
    def __init__(self, text: str, source: str) -> None:
        self.text = text
        self.source = source
        self.toks, meta_text = _tokenize(text)
        self.i = 0
        self.meta: Dict[str, List[object]] = {}
        self.meta_text = meta_text
        self.mod = IRModule()
        self.globals: Dict[str, GlobalVar] = {}
        self.types: Dict[str, GlobalTypeVar] = {}
        self.ctors: Dict[str, Constructor] = {}
        self.type_params: List[Dict[str, TypeVar]] = []
        self.scope = _Scope()
        self.free_vars: List[Var] = []
        self.let_values: Dict[int, Expr] = {}   # id(let-bound variable) -> its value

    # -- token helpers --------------------------------------------------------------
    @property
    def tok(self) -> _Tok:
        return self.toks[self.i]

    def peek(self, k: int = 1) -> _Tok:
        return self.toks[min(self.i + k, len(self.toks) - 1)]

    def fail(self, msg: str, tok: Optional[_Tok] = None) -> _ParseError:
        t = tok or self.tok
        return _ParseError(msg, t.line, t.col)

    def at(self, text: str, kind: Optional[str] = None) -> bool:
        t = self.tok
        return t.text == text and (kind is None or t.kind == kind) and t.kind not in ("str",)

    def accept(self, text: str) -> bool:
        if self.at(text) and self.tok.kind in ("punct", "ident"):
            self.i += 1
            return True
        return False

    def expect(self, text: str, what: Optional[str] = None) -> _Tok:
        if not (self.at(text) and self.tok.kind in ("punct", "ident")):
            found = self.tok.text or "end of input"
            raise self.fail(f"expected '{text}'{' ' + what if what else ''}, found '{found}'")
        t = self.tok
        self.i += 1
        return t

    def next(self) -> _Tok:
        t = self.tok
        self.i += 1
        return t

    # -- module -----------------------------------------------------------------------
    def load_metadata(self) -> None:
        if self.meta_text is None:
            return
        try:
            self.meta = parse_metadata(self.meta_text)
        except ValueError as e:
            line = self.text[:len(self.text) - len(self.meta_text)].count("\n") + 1
            raise _ParseError(f"bad #[metadata] section: {e}", line, 1) from None

    def header(self) -> None:
        if self.at("#[", None) and self.tok.kind == "attr_open":
            self.next()
            self.expect("version")
            self.expect("=")
            v = self.next()
            if v.kind != "str":
                raise self.fail("expected a version string", v)
            if v.text.strip('"') not in ("0.0.5", "0.0.4", "0.0.3"):
                raise self.fail(f"unsupported Relay text version {v.text}", v)
            self.expect("]")

    def declare(self) -> None:
        """Pre-scans top-level ``def``/``type`` names so definitions may refer to later ones."""
        depth = 0
        for k, t in enumerate(self.toks):
            if (t.kind == "punct" and t.text in "({[") or t.kind == "attr_open":
                depth += 1
            elif t.kind == "punct" and t.text in ")}]":
                depth -= 1
            elif depth == 0 and t.kind == "ident" and t.text == "def":
                g = self.toks[k + 1]
                if g.kind == "global":
                    self.globals.setdefault(g.text[1:], GlobalVar(g.text[1:]))
            elif depth == 0 and t.kind == "ident" and t.text == "type":
                g = self.toks[k + 1]
                if g.kind == "ident":
                    self.types.setdefault(g.text, GlobalTypeVar(g.text))

    def module(self) -> IRModule:
        self.load_metadata()
        self.header()
        self.declare()
        self.type_defs_first()
        while self.tok.kind != "eof":
            if self.at("def"):
                self.definition()
            elif self.at("type"):
                self.skip_type_def()
            elif self.at("extern"):
                raise self.fail("extern type definitions are not supported")
            else:
                raise self.fail(f"expected 'def' or 'type' at top level, found '{self.tok.text}'")
        return self.mod

    def type_defs_first(self) -> None:
        """Parses every ``type`` definition before the functions (constructors are global names)."""
        start = self.i
        depth = 0
        k = self.i
        while self.toks[k].kind != "eof":
            t = self.toks[k]
            if (t.kind == "punct" and t.text in "({[") or t.kind == "attr_open":
                depth += 1
            elif t.kind == "punct" and t.text in ")}]":
                depth -= 1
            elif depth == 0 and t.kind == "ident" and t.text == "type":
                self.i = k
                self.type_def()
                k = self.i
                continue
            k += 1
        self.i = start

    def skip_type_def(self) -> None:
        self.next()
        self.next()
        depth = 0
        while self.tok.kind != "eof":
            t = self.next()
            if t.text in ("[", "{", "("):
                depth += 1
            elif t.text in ("]", "}", ")"):
                depth -= 1
                if depth == 0 and t.text == "}":
                    return
            elif depth == 0 and (self.at("def") or self.at("type")):
                return

    def type_def(self) -> None:
        self.expect("type")
        name_tok = self.next()
        if name_tok.kind != "ident":
            raise self.fail("expected the type's name", name_tok)
        gtv = self.types.setdefault(name_tok.text, GlobalTypeVar(name_tok.text))
        params = self.type_param_list()
        self.type_params.append({p.name_hint: p for p in params})
        ctors: List[Constructor] = []
        try:
            if self.accept("{"):
                while not self.at("}"):
                    c = self.next()
                    if c.kind != "ident":
                        raise self.fail("expected a constructor name", c)
                    fields: List[Type] = []
                    if self.accept("("):
                        if not self.at(")"):
                            fields.append(self.type())
                            while self.accept(","):
                                fields.append(self.type())
                        self.expect(")")
                    if c.text in self.ctors:
                        raise self.fail(f"constructor '{c.text}' is defined twice", c)
                    ctor = Constructor(c.text, fields, gtv)
                    self.ctors[c.text] = ctor
                    ctors.append(ctor)
                    if not self.accept(","):
                        break
                self.expect("}")
        finally:
            self.type_params.pop()
        self.mod[gtv] = TypeData(gtv, params, ctors)

    def type_param_list(self) -> List[TypeVar]:
        params: List[TypeVar] = []
        if self.accept("["):
            while not self.at("]"):
                t = self.next()
                if t.kind != "ident":
                    raise self.fail("expected a type parameter name", t)
                params.append(TypeVar(t.text))
                if not self.accept(","):
                    break
            self.expect("]")
        return params

    def definition(self) -> None:
        self.expect("def")
        g = self.next()
        if g.kind != "global":
            raise self.fail("expected a global name (@name)", g)
        name = g.text[1:]
        if name in self.mod:
            raise self.fail(f"function '@{name}' is defined twice", g)
        tparams = self.type_param_list()
        self.type_params.append({p.name_hint: p for p in tparams})
        try:
            fn = self.function_rest(tparams, g)
        finally:
            self.type_params.pop()
        self.mod[self.globals[name]] = fn

    def function_rest(self, tparams: List[TypeVar], start: _Tok) -> Function:
        """``(params) -> ret { body }`` of a ``def`` or ``fn``."""
        self.expect("(", "to open the parameter list")
        params: List[Var] = []
        attrs: Dict[str, object] = {}
        while not self.at(")"):
            n = self.attr_key_length()
            if n:
                key = "".join(self.next().text for _ in range(n))   # Primitive, relay.reshape_only
                self.next()
                attrs[key] = self.attr_value()
            else:
                p = self.next()
                if p.kind != "local":
                    raise self.fail("expected a parameter (%name)", p)
                ann = self.type() if self.accept(":") else None
                params.append(self.located(Var(p.text[1:], ann), p))
            if not self.accept(","):
                break
        self.expect(")")
        ret = self.type() if self.accept("->") else None
        self.expect("{", "to open the function body")
        self.scope.push()
        try:
            for p in params:
                self.scope.bind(p.name_hint, p)
            body = self.seq()
        finally:
            self.scope.pop()
        self.expect("}")
        fn = Function(params, body, ret, tparams, attrs)
        fn.span = None
        return fn

    def attr_key_length(self) -> int:
        """Tokens in the function attribute name at the cursor if ``=`` follows it (a name, or
        a dotted one as FuseOps' ``relay.reshape_only=1``), else 0."""
        k = 0
        while self.peek(k).kind == "ident":
            if self.peek(k + 1).text == "=":
                return k + 1
            if self.peek(k + 1).text != "." or self.peek(k + 1).kind != "punct":
                return 0
            k += 2
        return 0

    # -- types ------------------------------------------------------------------------
    def lookup_type_param(self, name: str) -> Optional[TypeVar]:
        for frame in reversed(self.type_params):
            if name in frame:
                return frame[name]
        return None

    def type(self) -> Type:
        t = self.tok
        if self.accept("("):
            fields: List[Type] = []
            while not self.at(")"):
                fields.append(self.type())
                if not self.accept(","):
                    break
            self.expect(")")
            return TupleType(fields)  # as TVM: parentheses always make a tuple type
        if self.accept("fn"):
            tparams = self.type_param_list()
            if tparams:
                raise self.fail("generic function types are not supported", t)
            self.expect("(")
            args: List[Type] = []
            while not self.at(")"):
                args.append(self.type())
                if not self.accept(","):
                    break
            self.expect(")")
            self.expect("->")
            return FuncType(args, self.type())
        if self.accept("ref"):
            self.expect("(")
            inner = self.type()
            self.expect(")")
            return RefType(inner)
        if self.accept("?") or self.accept("_"):
            return IncompleteType()
        if t.kind != "ident":
            raise self.fail(f"expected a type, found '{t.text or 'end of input'}'")
        self.next()
        if t.text == "Tensor":
            self.expect("[")
            self.expect("(")
            dims: List[object] = []
            while not self.at(")"):
                if self.accept("?"):
                    dims.append(Any())
                else:
                    d = self.next()
                    if d.kind != "num":
                        raise self.fail("expected a dimension (an integer or ?)", d)
                    dims.append(self.int_literal(d))
                if not self.accept(","):
                    break
            self.expect(")")
            self.expect(",")
            dt = self.next()
            if dt.text not in _DTYPE_NAMES:
                raise self.fail(f"unknown dtype '{dt.text}'", dt)
            self.expect("]")
            return self.tensor_type(dims, dt)
        if t.text == "Ref":
            self.expect("[")
            inner = self.type()
            self.expect("]")
            return RefType(inner)
        if t.text in _DTYPE_NAMES:
            return self.tensor_type([], t)
        tv = self.lookup_type_param(t.text)
        if tv is not None:
            return tv
        gtv = self.types.get(t.text)
        if gtv is None:
            raise self.fail(f"unknown type '{t.text}'", t)
        args = []
        if self.accept("["):
            while not self.at("]"):
                args.append(self.type())
                if not self.accept(","):
                    break
            self.expect("]")
        return TypeCall(gtv, args)

    def tensor_type(self, dims, dt: _Tok) -> TensorType:
        try:
            dtype_to_mlir(dt.text)
        except ValueError:
            raise self.fail(f"dtype '{dt.text}' is not supported", dt) from None
        for d in dims:
            if not isinstance(d, Any) and d < 0:
                raise self.fail(f"negative dimension {d}", dt)
        return TensorType(dims, dt.text)

    def int_literal(self, t: _Tok) -> int:
        m = re.fullmatch(r"(-?\d+)(i8|i16|i32|i64|u8|u16|u32|u64|i|u)?", t.text)
        if m is None:
            raise self.fail(f"expected an integer, found '{t.text}'", t)
        return int(m.group(1))

    # -- expressions --------------------------------------------------------------------
    def seq(self) -> Expr:
        """Bindings (``%x = e;``, ``let %x = e;``) then the block's value."""
        self.scope.push()
        lets: List[PyTuple[Var, Expr]] = []
        try:
            while True:
                if self.at("let"):
                    self.next()
                    v = self.next()
                    if v.kind != "local":
                        raise self.fail("expected a variable (%name) after 'let'", v)
                    ann = self.type() if self.accept(":") else None
                    self.expect("=")
                    var = Var(v.text[1:], ann)
                    # a let-bound fn may refer to itself (recursion)
                    self.scope.bind(var.name_hint, var)
                    value = self.expr()
                    self.expect(";", "after a let binding")
                    lets.append((var, value))
                    self.let_values[id(var)] = value
                    continue
                if self.tok.kind == "local" and self.peek().text == "=" and self.peek().kind == "punct":
                    name = self.next().text[1:]
                    self.next()
                    value = self.expr()
                    self.expect(";", "after a binding")
                    self.scope.bind(name, value)
                    continue
                if self.at("free_var"):
                    self.next()
                    v = self.next()
                    if v.kind != "local":
                        raise self.fail("expected a variable after 'free_var'", v)
                    ann = self.type() if self.accept(":") else None
                    var = Var(v.text[1:], ann)
                    self.free_vars.append(var)
                    self.scope.frames[0][var.name_hint] = var
                    self.accept(";")
                    continue
                break
            body = self.expr()
        finally:
            self.scope.pop()
        for var, value in reversed(lets):
            body = Let(var, value, body)
        return body

    def expr(self, min_prec: int = 0) -> Expr:
        lhs = self.postfix()
        while self.tok.kind == "punct" and self.tok.text in _BINARY:
            prec, name = _BINARY[self.tok.text]
            if prec < min_prec:
                break
            self.next()
            rhs = self.expr(prec + 1)
            lhs = Call(Op.get(name), [lhs, rhs])
        return lhs

    def postfix(self) -> Expr:
        e = self.primary()
        while True:
            if self.at(".") and self.tok.kind == "punct" and self.peek().kind == "num":
                self.next()
                idx = self.next()
                e = TupleGetItem(e, self.int_literal(idx))
            elif self.at("(") and self.tok.kind == "punct":
                args, attrs = self.call_args()
                if attrs:
                    raise self.fail("only operators take attributes")
                e = Call(e, args)
            elif self.at("^") and self.tok.kind == "punct":
                self.next()
                e = RefRead(e)
            else:
                return e

    def call_args(self) -> PyTuple[List[Expr], Dict[str, object]]:
        self.expect("(")
        args: List[Expr] = []
        attrs: Dict[str, object] = {}
        while not self.at(")"):
            if self.tok.kind == "ident" and self.peek().text == "=" and self.peek().kind == "punct":
                key = self.next().text
                self.next()
                attrs[key] = self.attr_value()
            else:
                if attrs:
                    raise self.fail("positional argument after attributes")
                if self.at_meta_attrs():  # meta[relay.attrs.X][i]: the call's attributes
                    t, kind, item = self.meta_entry()
                    if not isinstance(item, AttrsFields):
                        raise self.fail(f"meta[{kind}] is not an attributes object", t)
                    names = _META_ATTR_NAMES.get(kind, {})
                    attrs.update({names.get(k, k): v for k, v in item.items()})
                    if not self.at(")"):
                        raise self.fail(f"meta[{kind}] must be the last argument")
                else:
                    args.append(self.expr())
            if not self.accept(","):
                break
        self.expect(")")
        return args, attrs

    def attr_value(self) -> object:
        t = self.tok
        if self.accept("["):
            vals = []
            while not self.at("]"):
                vals.append(self.attr_value())
                if not self.accept(","):
                    break
            self.expect("]")
            return vals
        if self.accept("("):  # tuples print like lists in some attrs
            vals = []
            while not self.at(")"):
                vals.append(self.attr_value())
                if not self.accept(","):
                    break
            self.expect(")")
            return vals
        if t.kind == "ident" and t.text == "meta":
            return self.meta_attr()
        self.next()
        if t.kind == "str":
            return bytes(t.text[1:-1], "utf-8").decode("unicode_escape")
        if t.kind == "num":
            value, dtype = self.number(t)
            return value
        if t.kind == "ident":
            if t.text == "None":
                return None
            if t.text in ("True", "False"):
                return t.text == "True"
            if t.text in _DTYPE_NAMES:
                return t.text
        raise self.fail(f"expected an attribute value, found '{t.text}'", t)

    def number(self, t: _Tok) -> PyTuple[object, str]:
        m = re.fullmatch(r"(-?(?:\d+\.\d*(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+|\d+|inf|nan))"
                         r"(f16|f32|f64|i8|i16|i32|i64|u8|u16|u32|u64|f|i|u|b)?", t.text)
        if m is None:
            raise self.fail(f"bad number '{t.text}'", t)
        body, suffix = m.group(1), m.group(2)
        is_float = any(c in body for c in ".eEn") and not body.lstrip("-").isdigit()
        if suffix:
            dtype = _SUFFIX_DTYPES[suffix]
        else:
            dtype = "float32" if is_float else "int32"
        if dtype.startswith("float"):
            return float(body), dtype
        if dtype == "bool":
            return bool(int(body)), dtype
        if is_float:
            raise self.fail(f"'{t.text}': an integer literal cannot have a fraction", t)
        return int(body), dtype

    def scalar(self, t: _Tok) -> Constant:
        value, dtype = self.number(t)
        try:
            arr = np.array(value, dtype=dtype)
            if not dtype.startswith("float") and dtype != "bool" and int(arr) != value:
                raise OverflowError
        except (OverflowError, ValueError):
            raise self.fail(f"literal {t.text} does not fit in {dtype}", t) from None
        return Constant(arr)

    def primary(self) -> Expr:
        t = self.tok
        if t.kind == "num":
            self.next()
            return self.scalar(t)
        if t.kind == "local":
            self.next()
            e = self.scope.lookup(t.text[1:])
            if e is None:
                raise self.fail(f"unbound variable '{t.text}'", t)
            return e
        if t.kind == "global":
            self.next()
            gv = self.globals.get(t.text[1:])
            if gv is None:
                raise self.fail(f"unknown global '{t.text}'", t)
            return gv
        if t.kind == "punct" and t.text == "(":
            return self.paren()
        if t.kind == "punct" and t.text == "{":
            self.next()
            e = self.seq()
            self.expect("}")
            return e
        if t.kind == "punct" and t.text == "-":
            self.next()
            return Call(Op.get("negative"), [self.postfix()])
        if t.kind != "ident":
            raise self.fail(f"expected an expression, found '{t.text or 'end of input'}'")
        word = t.text
        if word in ("True", "False"):
            self.next()
            return Constant(np.array(word == "True"))
        if word == "fn":
            self.next()
            tparams = self.type_param_list()
            if tparams:
                self.type_params.append({p.name_hint: p for p in tparams})
            try:
                fn = self.function_rest(tparams, t)
            finally:
                if tparams:
                    self.type_params.pop()
            return fn
        if word == "if":
            self.next()
            self.expect("(")
            cond = self.expr()
            self.expect(")")
            self.expect("{")
            then = self.seq()
            self.expect("}")
            self.expect("else")
            if self.at("if"):
                other = self.primary()
            else:
                self.expect("{")
                other = self.seq()
                self.expect("}")
            return If(cond, then, other)
        if word == "match":
            return self.match()
        if word == "let":
            return self.seq()
        if word == "ref" and self.peek().text == "(":
            self.next()
            self.expect("(")
            v = self.expr()
            self.expect(")")
            return RefCreate(v)
        if word in ("ref_read", "ref_write") and self.peek().text == "(":
            self.next()
            args, attrs = self.call_args()
            if word == "ref_read" and len(args) == 1 and not attrs:
                return RefRead(args[0])
            if word == "ref_write" and len(args) == 2 and not attrs:
                return RefWrite(args[0], args[1])
            raise self.fail(f"{word} takes {1 if word == 'ref_read' else 2} argument(s)", t)
        if word == "meta":
            return self.meta_ref()
        if word in self.ctors:
            self.next()
            ctor = self.ctors[word]
            if self.at("(") and self.tok.kind == "punct":
                args, attrs = self.call_args()
                if attrs:
                    raise self.fail("constructors take no attributes", t)
                if len(args) != len(ctor.inputs):
                    raise self.fail(f"constructor '{word}' takes {len(ctor.inputs)} fields, "
                                    f"got {len(args)}", t)
                return Call(ctor, args)
            if not ctor.inputs:
                return Call(ctor, [])  # a nullary constructor is its value
            return ctor
        return self.operator_call()

    def paren(self) -> Expr:
        start = self.expect("(")
        items: List[Expr] = []
        trailing = False
        while not self.at(")"):
            items.append(self.expr())
            trailing = False
            if self.at(":=") and len(items) == 1:
                self.next()
                value = self.expr()
                self.expect(")")
                return RefWrite(items[0], value)
            if not self.accept(","):
                break
            trailing = True
        self.expect(")")
        if len(items) == 1 and not trailing:
            return items[0]
        tup = Tuple(items)
        return tup

    def at_meta_attrs(self) -> bool:
        """At ``meta[relay.attrs....]``: an operator's attributes TVM printed to the metadata
        section (they can only be a call's last argument)."""
        return (self.tok.kind == "ident" and self.tok.text == "meta" and self.peek().text == "["
                and self.peek(2).text == "relay" and self.peek(4).text == "attrs")

    def meta_ref(self) -> Expr:
        t, kind, item = self.meta_entry()
        if not isinstance(item, np.ndarray):
            raise self.fail(f"meta[{kind}] entries are not tensors", t)
        return Constant(item)

    def meta_attr(self) -> object:
        """An attribute value from the metadata section: TVM prints boxed integers
        there, e.g. ``split(%x, indices_or_sections=meta[runtime.BoxInt][0])``."""
        t, kind, item = self.meta_entry()
        conv = {"runtime.BoxInt": int, "runtime.BoxFloat": float,
                "runtime.BoxBool": lambda s: s.strip().lower() in ("1", "true")}.get(kind)
        if kind.startswith("relay.") and not kind.startswith("relay.attrs."):
            # TVM 0.19 prints arange's operands again as attributes
            # (start=meta[relay.Var][0], stop=meta[relay.Call][0], ...); the operands count
            return _EXPR_ATTR
        if conv is None or not isinstance(item, dict) or "repr_str" not in item:
            raise self.fail(f"meta[{kind}] is not supported as an attribute value", t)
        try:
            return conv(item["repr_str"])
        except ValueError:
            raise self.fail(f"meta[{kind}] holds {item['repr_str']!r}", t) from None

    def meta_entry(self) -> PyTuple[_Tok, str, object]:
        t = self.expect("meta")
        self.expect("[")
        parts = [self.next().text]
        while self.accept("."):
            parts.append(self.next().text)
        kind = ".".join(parts)
        self.expect("]")
        self.expect("[")
        idx_tok = self.next()
        if idx_tok.kind != "num":
            raise self.fail("expected an index", idx_tok)
        self.expect("]")
        idx = self.int_literal(idx_tok)
        items = self.meta.get(kind)
        if items is None:
            raise self.fail(f"meta[{kind}] refers to a metadata section that has no '{kind}' "
                            "(was the text printed with show_meta_data=False?)", t)
        if not 0 <= idx < len(items):
            raise self.fail(f"meta[{kind}][{idx}] is out of range ({len(items)} entries)", t)
        return t, kind, items[idx]

    def match(self) -> Expr:
        t = self.expect("match")
        complete = not self.accept("?")
        data = self.postfix()
        self.expect("{")
        clauses: List[Clause] = []
        while not self.at("}"):
            self.scope.push()
            try:
                pat = self.pattern()
                self.expect("=>")
                if self.at("{"):
                    self.next()
                    rhs = self.seq()
                    self.expect("}")
                else:
                    rhs = self.expr()
            finally:
                self.scope.pop()
            clauses.append(Clause(pat, rhs))
            if not self.accept(","):
                break
        self.expect("}")
        if not clauses:
            raise self.fail("a match needs at least one clause", t)
        return Match(data, clauses, complete)

    def pattern(self) -> Pattern:
        t = self.tok
        if self.accept("_"):
            return PatternWildcard()
        if t.kind == "local":
            self.next()
            ann = self.type() if self.accept(":") else None
            v = Var(t.text[1:], ann)
            self.scope.bind(v.name_hint, v)
            return PatternVar(v)
        if self.accept("("):
            pats = []
            while not self.at(")"):
                pats.append(self.pattern())
                if not self.accept(","):
                    break
            self.expect(")")
            return PatternTuple(pats)
        if t.kind == "ident" and t.text in self.ctors:
            self.next()
            ctor = self.ctors[t.text]
            subs: List[Pattern] = []
            if self.accept("("):
                while not self.at(")"):
                    subs.append(self.pattern())
                    if not self.accept(","):
                        break
                self.expect(")")
            if len(subs) != len(ctor.inputs):
                raise self.fail(f"pattern for '{t.text}' has {len(subs)} sub-patterns, the "
                                f"constructor has {len(ctor.inputs)} fields", t)
            return PatternConstructor(ctor, subs)
        raise self.fail(f"expected a pattern, found '{t.text or 'end of input'}'")

    def operator_call(self) -> Expr:
        t = self.next()
        parts = [t.text]
        while self.at(".") and self.tok.kind == "punct" and self.peek().kind == "ident":
            self.next()
            parts.append(self.next().text)
        name = ".".join(parts)
        if not (self.at("(") and self.tok.kind == "punct"):
            if name in self.types or self.lookup_type_param(name):
                raise self.fail(f"type '{name}' used as an expression", t)
            raise self.fail(f"unknown name '{name}' (not an operator call, constructor or variable)", t)
        args, attrs = self.call_args()
        exprs = [k for k, v in attrs.items() if v is _EXPR_ATTR]
        if exprs:
            if name != "arange":
                raise self.fail(f"'{name}': attribute(s) {', '.join(exprs)} refer to expressions "
                                "in the metadata section, which only arange's are", t)
            attrs = {k: v for k, v in attrs.items() if v is not _EXPR_ATTR}
        builder = TEXT_FORMS.get(name) or _op_builder(name)
        if builder is None:
            raise self.fail(f"unknown operator '{name}'", t)
        if name in TUPLE_OPERAND_OPS and args and not isinstance(args[0], Tuple):
            args = [self.tuple_fields(args[0], name, t)] + args[1:]
        if name.startswith("dyn."):
            attrs = _drop_static_leftovers(builder, len(args), attrs)
        try:
            out = builder(*args, **attrs)
        except (TypeError, ValueError) as e:
            raise self.fail(f"'{name}': {e}", t) from None
        if isinstance(out, TupleWrapper):
            out = out.astuple()
        return out if any(out is a for a in args) else self.located(out, t)

    def located(self, e: Expr, t: _Tok) -> Expr:
        """``e`` with its span at token ``t`` of this text (errors then point into the file)."""
        e.span = Span(self.source, t.line, t.col)
        return e

    def tuple_fields(self, e: Expr, op_name: str, t: _Tok) -> List[Expr]:
        """The fields of the tuple value ``e`` that an operator taking a tuple reads (TVM
        prints ``concatenate(%x_0)`` for a let-bound tuple ``%x_0`` after ToANormalForm):
        ``TupleGetItem``s of ``e``, as many as its annotated tuple type or let-bound tuple
        value has fields."""
        n = self.tuple_arity(e)
        if n is None:
            raise self.fail(f"'{op_name}' takes a tuple: its operand is neither a tuple nor a "
                            "variable of a tuple type or bound to a tuple", t)
        return [TupleGetItem(e, i) for i in range(n)]

    def tuple_arity(self, e: Expr) -> Optional[int]:
        """Fields of ``e``: a tuple, or a variable annotated with a tuple type or let-bound
        to one (through other let-bound variables); None if not known."""
        seen = set()
        while isinstance(e, Var) and id(e) not in seen:
            seen.add(id(e))
            if isinstance(e.type_annotation, TupleType):
                return len(e.type_annotation.fields)
            e = self.let_values.get(id(e))
        if isinstance(e, Tuple):
            return len(e.fields)
        return None


_EXPR_ATTR = object()  # an attribute value that is an expression of the metadata section
# attrs fields whose builder argument has another name (relay.unique(data, is_sorted, ...))
_META_ATTR_NAMES = {"relay.attrs.UniqueAttrs": {"sorted": "is_sorted"}}


def _drop_static_leftovers(builder: Callable[..., object], n_args: int, attrs: dict) -> dict:
    """TVM prints a dyn operator with a placeholder for the static attribute its operand
    replaces (``dyn.reshape(%x, %s, newshape=[])``, ``dyn.topk(%x, %k, k=None)``,
    ``dyn.one_hot(..., %d, depth=0)``, ``dyn.strided_slice(..., axes=None)``): drop those
    attributes, the operand is given (and a None the builder has no parameter for)."""
    try:
        params = list(inspect.signature(builder).parameters)
    except (TypeError, ValueError):
        return attrs
    positional = params[:n_args]
    return {k: v for k, v in attrs.items() if k not in positional and (v is not None or k in params)}


def _op_builder(name: str) -> Optional[Callable[..., object]]:
    """The builder-API function of the operator ``name`` (``nn.conv2d`` -> ``op.nn.conv2d``)."""
    *path, leaf = name.split(".")
    ns = _op
    if path[:1] == ["qnn"]:  # qnn.conv2d -> relay.qnn.op.conv2d
        ns, path = _qnn_op, path[1:]
    for p in path:
        ns = getattr(ns, p, None)
        if ns is None:
            return None
    fn = getattr(ns, leaf + "_raw", None) or getattr(ns, leaf, None)
    if not callable(fn) or isinstance(fn, type):
        return None
    return fn


def _error(text: str, source: str, e: _ParseError) -> CompileError:
    lines = text.splitlines()
    src_line = lines[e.line - 1] if 0 < e.line <= len(lines) else ""
    caret = src_line + "\n" + " " * max(0, e.col - 1) + "^"
    d = Diagnostic("error", f"{e.msg}\n{caret}", source, e.line, e.col)
    return CompileError("could not parse Relay text", [d])


def fromtext(text: str, source_name: str = "from_string") -> IRModule:
    """Parses Relay text (a module, or a single expression) into an ``IRModule``, as ``tvm.relay.fromtext``.

    An expression becomes ``main`` (wrapped in a Function of its ``free_var``s).
    """
    mod, e, free = _parse(text, source_name)
    if e is None:
        return mod
    if isinstance(e, Function) and not free:
        mod["main"] = e
    else:
        mod["main"] = Function(free, e) if free else e
    return mod


def _parse(text: str, source_name: str):
    """(module, expression or None, free_vars) of Relay text: a module, or definitions and an expression."""
    if not isinstance(text, str):
        raise TypeError(f"fromtext expects a str, got {type(text).__name__}")
    try:
        p = _Parser(text, source_name)
        k = p.i
        # skip the version header to see what follows
        toks = p.toks
        j = k
        if toks[j].kind == "attr_open":
            while toks[j].text != "]" and toks[j].kind != "eof":
                j += 1
            j += 1
        if toks[j].kind == "eof" or toks[j].text in ("def", "type", "extern"):
            return p.module(), None, []
        p.load_metadata()
        p.header()
        p.declare()
        p.type_defs_first()
        e = p.seq()
        if p.tok.kind != "eof":
            raise p.fail(f"unexpected '{p.tok.text}' after the expression")
    except _ParseError as err:
        raise _error(text, source_name, err) from None
    except RecursionError:
        raise CompileError("could not parse Relay text: nesting too deep") from None
    return p.mod, e, p.free_vars


def parse(text: str, source_name: str = "from_string") -> IRModule:
    """Same as ``fromtext`` (TVM's ``tvm.relay.parse``)."""
    return fromtext(text, source_name)


def parse_expr(text: str, source_name: str = "from_string") -> Expr:
    """Parses one Relay expression (TVM's ``tvm.relay.parse_expr``); ``free_var``s stay free."""
    mod, e, _ = _parse(text, source_name)
    if e is None:
        raise CompileError("could not parse Relay text: expected an expression, found definitions")
    return e

