"""Pictures of Relay programs: Graphviz DOT of a module's dataflow.

``IRModule.visualize()`` and ``relay-mlir graph model.relay -o model.svg`` use
it (Glow's ``dumpDAG``, TVM's ``contrib.relay_viz``). ``to_dot`` draws:

* one node per operator call (its name, key attributes, result type), per
  call of a global function (``@f``), of a constructor (``Cons``) or of a
  closure (``call``, its callee edge labelled ``fn``); ``tuple`` and ``.i``
  (``TupleGetItem``) nodes; ``ref``, ``ref_read``, ``ref_write``;
* function parameters and free variables as ellipses (parameters named in
  ``params``, bound weights, in grey), constants as notes with their shape
  (scalars with their value);
* each global function as a cluster (``def @main``) whose result has a double
  border; a closure as a cluster ending in its ``fn`` value node;
* ``if`` as a node fed by ``cond`` and by its ``then``/``else`` clusters,
  ``match`` likewise with one cluster per clause (pattern variables inside,
  fed by the matched value with dashed edges);
* ``let`` transparently: the bound value's node is labelled ``%x = ...``.

Types are the inferred ones (``checked_type``) when inference has run, else
the annotations; ``IRModule.visualize`` runs inference first.
``render`` writes ``.dot``/``.gv`` text itself and runs Graphviz's ``dot`` for
``.svg``, ``.png`` and ``.pdf``. The walk is iterative and linear: chains of
any length and deeply nested scopes draw without recursion.

Example::

    >>> import relay_mlir as relay
    >>> x = relay.var("x", shape=(2,))
    >>> dot = to_dot(relay.Function([x], relay.nn.softmax(relay.exp(x), axis=0)))
    >>> print(dot)                                     # doctest: +ELLIPSIS
    digraph relay {
    ...
      subgraph cluster_1 {
        label="fn"; ...
        n0 [label="%x\\nTensor[(2), float32]", ...];
        n1 [label="exp"];
        n2 [label="nn.softmax\\naxis=0", peripheries=2];
      }
      n0 -> n1;
      n1 -> n2;
    }
    <BLANKLINE>
"""
from __future__ import annotations

import os
import shutil
import subprocess
from typing import Dict, Iterable, List, Mapping, Optional, Sequence, Tuple as PyTuple, Union

import numpy as np

from .adt import (Constructor, Match, Pattern, PatternConstructor, PatternTuple, PatternVar,
                  PatternWildcard, pattern_vars)
from .errors import CompileError
from .expr import (Call, Constant, Expr, Function, GlobalVar, If, Let, Op, RefCreate, RefRead,
                   RefWrite, Tuple, TupleGetItem, TupleWrapper, Var)
from .ty import (Any, FuncType, GlobalTypeVar, IncompleteType, OpaqueType, RefType, TensorType,
                 TupleType, Type, TypeCall, TypeVar)

__all__ = ["to_dot", "render", "output_format", "chosen_functions", "FORMATS"]

#: file extension -> Graphviz output format (``dot``: the DOT text itself)
FORMATS = {".dot": "dot", ".gv": "dot", ".svg": "svg", ".png": "png", ".pdf": "pdf"}

_TYPE_LIMIT = 64      # characters of a type in a label
_ATTR_LINE = 40       # characters of attributes per label line
_ATTR_LINES = 3       # attribute lines per label
_LIST_ITEMS = 8       # entries of a list attribute before "…"

# attribute values that say little (the usual defaults), hidden unless all_attrs; so are
# None, "", flags that are off and dilations of 1
_QUIET = {"groups": (1,), "data_layout": ("NCHW", "NCDHW", "NCW"), "layout": ("NCHW", "NCDHW", "NCW"),
          "kernel_layout": ("OIHW", "OIDHW", "OIW"), "center": (True,), "scale": (True,)}

# node kind -> DOT attributes (operator calls: the defaults)
_OP_STYLE = 'shape=box, style="rounded,filled", fillcolor="#d6e6f5", color="#5b7fa6"'
_STYLE = {
    "op": "",
    "global": 'shape=box, style="rounded,filled,bold", fillcolor="#d9ead3", color="#5e8c4f"',
    "ctor": 'shape=box, style="rounded,filled", fillcolor="#fff2cc", color="#b59a3c"',
    "call": 'shape=box, style="rounded,filled", fillcolor="#d9d2e9", color="#7a6aa6"',
    "closure": 'shape=box, style="filled", fillcolor="#d9d2e9", color="#7a6aa6"',
    "control": 'shape=box, style="filled,bold", fillcolor="#f4cccc", color="#a65b5b"',
    "input": 'shape=ellipse, style="filled", fillcolor="#fce5cd", color="#b5803c"',
    "weight": 'shape=ellipse, style="filled", fillcolor="#eeeeee", color="#999999", fontsize=8',
    "const": 'shape=note, style="filled", fillcolor="#eeeeee", color="#999999", fontsize=8',
    "small": 'shape=box, style="rounded", color="#888888", fontsize=9',
}
# cluster kind -> DOT statements
_CLUSTER_STYLE = {
    "global": 'style="rounded"; color="#666666"; fontsize=12',
    "closure": 'style="rounded,dashed"; color="#7a6aa6"',
    "branch": 'style="dashed"; color="#a65b5b"',
}


# -- formats and rendering ------------------------------------------------------------
def output_format(path: Union[str, "os.PathLike[str]"], format: Optional[str] = None) -> str:
    """The Graphviz format for ``path`` (its extension, or ``format``): ``dot``, ``svg``, ``png``
    or ``pdf``; a ``CompileError`` for anything else, or if Graphviz is needed and missing.

    >>> output_format("model.gv"), output_format("x.png", format="dot")
    ('dot', 'dot')
    >>> output_format("model.jpeg")                    # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    relay_mlir.errors.CompileError: cannot draw 'model.jpeg': unknown extension '.jpeg' (use .svg, ...)
    """
    if format is not None:
        fmt = format.lower().lstrip(".")
        if fmt not in FORMATS.values():
            raise CompileError(f"cannot draw '{os.fspath(path)}': unknown format '{format}' "
                               "(use svg, png, pdf or dot)")
    else:
        ext = os.path.splitext(os.fspath(path))[1].lower()
        if ext not in FORMATS:
            what = f"unknown extension '{ext}'" if ext else "no extension"
            raise CompileError(f"cannot draw '{os.fspath(path)}': {what} (use .svg, .png, .pdf, .dot or .gv)")
        fmt = FORMATS[ext]
    if fmt != "dot":
        _dot_program(path)
    return fmt


def _dot_program(path) -> str:
    exe = shutil.which("dot")
    if exe is None:
        raise CompileError(f"drawing '{os.fspath(path)}' needs Graphviz's 'dot' program, which is not on "
                           "PATH: install Graphviz (apt-get install graphviz), or write a .dot file")
    return exe


def render(dot: str, path: Union[str, "os.PathLike[str]"], format: Optional[str] = None) -> None:
    """Writes DOT text ``dot`` to ``path``: as text for ``.dot``/``.gv``, else drawn by Graphviz
    (``dot -Tsvg``, ``-Tpng``, ``-Tpdf``). Failures are ``CompileError``s."""
    fmt = output_format(path, format)
    name = os.fspath(path)
    if fmt == "dot":
        try:
            with open(name, "w", encoding="utf-8") as f:
                f.write(dot)
        except OSError as e:
            raise CompileError(f"cannot write '{name}': {e.strerror}") from None
        return
    try:
        proc = subprocess.run([_dot_program(path), f"-T{fmt}", "-o", name], input=dot.encode("utf-8"),
                              capture_output=True)
    except OSError as e:
        raise CompileError(f"cannot run Graphviz's 'dot' to draw '{name}': {e.strerror}") from None
    if proc.returncode != 0:
        err = proc.stderr.decode("utf-8", "replace").strip() or f"exit status {proc.returncode}"
        raise CompileError(f"Graphviz could not draw '{name}': {err}")


# -- labels ---------------------------------------------------------------------------
def _quote(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _clip(s: str, limit: int) -> str:
    return s if len(s) <= limit else s[:limit - 1] + "…"


class _Types:
    """Type texts in Relay syntax, cut at ``_TYPE_LIMIT`` characters (iterative: nesting of any
    depth), cached per type object."""

    def __init__(self) -> None:
        self.cache: Dict[int, PyTuple[Type, str]] = {}

    def text(self, t: Optional[Type]) -> Optional[str]:
        if t is None or isinstance(t, IncompleteType):
            return None
        hit = self.cache.get(id(t))
        if hit is not None:
            return hit[1]
        parts: List[str] = []
        size = 0
        stack: List[object] = [t]
        while stack and size <= _TYPE_LIMIT:
            item = stack.pop()
            if isinstance(item, str):
                parts.append(item)
                size += len(item)
            elif isinstance(item, TensorType):
                dims = ", ".join("?" if isinstance(d, Any) else str(d) for d in item.shape)
                stack.append(f"Tensor[({dims}), {item.dtype}]")
            elif isinstance(item, TupleType):
                stack.append(",)" if len(item.fields) == 1 else ")")
                for i, f in enumerate(reversed(item.fields)):
                    stack.append(f)
                    if i < len(item.fields) - 1:
                        stack.append(", ")
                stack.append("(")
            elif isinstance(item, FuncType):
                stack.extend([item.ret_type, ") -> "])
                for i, a in enumerate(reversed(item.arg_types)):
                    stack.append(a)
                    if i < len(item.arg_types) - 1:
                        stack.append(", ")
                stack.append("fn (")
            elif isinstance(item, TypeCall):
                if item.args:
                    stack.append("]")
                    for i, a in enumerate(reversed(item.args)):
                        stack.append(a)
                        if i < len(item.args) - 1:
                            stack.append(", ")
                    stack.append("[")
                stack.append(item.func.name_hint)
            elif isinstance(item, (TypeVar, GlobalTypeVar)):
                stack.append(item.name_hint)
            elif isinstance(item, RefType):
                stack.extend([")", item.value, "ref("])
            elif isinstance(item, OpaqueType):
                stack.append(item.text)
            else:
                stack.append("_" if item is None or isinstance(item, IncompleteType) else str(item))
        text = "".join(parts)
        if stack or len(text) > _TYPE_LIMIT:
            text = text[:_TYPE_LIMIT - 1] + "…"
        self.cache[id(t)] = (t, text)
        return text


def _value_text(v: object) -> str:
    if isinstance(v, (bool, np.bool_)):
        return "True" if v else "False"
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if isinstance(v, (float, np.floating)):
        return f"{float(v):g}"
    if isinstance(v, str):
        return v
    if isinstance(v, (list, tuple, np.ndarray)):
        items = list(v)
        shown = [_value_text(x) if not isinstance(x, (list, tuple, np.ndarray)) else "[…]"
                 for x in items[:_LIST_ITEMS]]
        return "[" + ",".join(shown) + (",…" if len(items) > _LIST_ITEMS else "") + "]"
    if isinstance(v, Type):
        return _Types().text(v) or "_"
    return str(v)


def _attr_lines(attrs: Mapping[str, object], all_attrs: bool) -> List[str]:
    items = []
    for k, v in attrs.items():
        if not all_attrs:
            if v is None or (isinstance(v, str) and v == "") or (isinstance(v, (bool, np.bool_)) and not v):
                continue
            if k in _QUIET and not isinstance(v, (list, tuple, np.ndarray)) and v in _QUIET[k]:
                continue
            if k == "dilation" and isinstance(v, (list, tuple)) and all(x == 1 for x in v):
                continue
        items.append(_clip(f"{k}={_value_text(v)}", _ATTR_LINE))
    lines: List[str] = []
    for item in items:
        if lines and len(lines[-1]) + 1 + len(item) <= _ATTR_LINE:
            lines[-1] += " " + item
        elif len(lines) == _ATTR_LINES:
            lines[-1] = _clip(lines[-1], _ATTR_LINE - 2) + " …"
            break
        else:
            lines.append(item)
    return lines


def _pattern_text(p: Pattern) -> str:
    parts: List[str] = []
    stack: List[object] = [p]
    while stack and len(parts) < 64:
        item = stack.pop()
        if isinstance(item, str):
            parts.append(item)
        elif isinstance(item, PatternWildcard):
            parts.append("_")
        elif isinstance(item, PatternVar):
            parts.append("%" + item.var.name_hint)
        elif isinstance(item, (PatternConstructor, PatternTuple)):
            if isinstance(item, PatternTuple) or item.patterns:
                stack.append(")")
                for i, q in enumerate(reversed(item.patterns)):
                    stack.append(q)
                    if i < len(item.patterns) - 1:
                        stack.append(", ")
                stack.append("(")
            if isinstance(item, PatternConstructor):
                stack.append(item.constructor.name_hint)
    return _clip("".join(parts) + ("…" if stack else ""), 48)


# -- the graph ------------------------------------------------------------------------
class _Node:
    __slots__ = ("lines", "kind", "output", "let_name")

    def __init__(self, lines: List[str], kind: str) -> None:
        self.lines = lines
        self.kind = kind
        self.output = False
        self.let_name: Optional[str] = None


class _Cluster:
    __slots__ = ("label", "kind", "nodes", "children")

    def __init__(self, label: str, kind: str) -> None:
        self.label = label
        self.kind = kind
        self.nodes: List[int] = []
        self.children: List[int] = []


def _unwrap(e):
    return e.astuple() if isinstance(e, TupleWrapper) else e


class _Scope:
    """One scope body to draw: a function's (global or closure), a branch's or a clause's.
    ``binds``: the variables it binds, ``(var, node kind, node feeding it or None)``."""
    __slots__ = ("body", "cluster", "consumer", "label", "binds")

    def __init__(self, body: Expr, cluster: int, consumer: Optional[int], label: Optional[str],
                 binds: List[PyTuple[Var, str, Optional[int]]]) -> None:
        self.body, self.cluster, self.consumer, self.label, self.binds = body, cluster, consumer, label, binds


class _Drawer:
    """Builds nodes, clusters and edges. Each scope body (a function's, a branch's, a clause's)
    is walked in post-order with an explicit stack; the scopes found on the way are drawn after
    it (so a value an outer scope computes and a branch uses is drawn outside the branch),
    depth first, each with its variables bound only while it and the scopes inside it are
    drawn (lexical scoping, also for a ``Var`` object bound in several places)."""

    def __init__(self, weights: Iterable[str], all_attrs: bool) -> None:
        self.nodes: List[_Node] = []
        self.clusters: List[_Cluster] = [_Cluster("", "root")]
        self.edges: List[PyTuple[int, int, Optional[str], bool]] = []
        self.node_of: Dict[Expr, int] = {}
        self.tasks: List[object] = []      # a stack of _Scope and restore lists
        self.found: List[_Scope] = []      # the scopes found by the current walk
        self.saved: List[PyTuple[Var, Optional[int]]] = []  # bindings the current scope replaced
        self.types = _Types()
        self.weights = set(weights)
        self.all_attrs = all_attrs

    # -- building blocks ------------------------------------------------------------
    def node(self, cluster: int, lines: List[str], kind: str, e: Optional[Expr] = None) -> int:
        t = self.type_of(e) if e is not None else None
        if t is not None:
            lines.append(t)
        self.nodes.append(_Node(lines, kind))
        self.clusters[cluster].nodes.append(len(self.nodes) - 1)
        return len(self.nodes) - 1

    def cluster(self, parent: int, label: str, kind: str) -> int:
        self.clusters.append(_Cluster(label, kind))
        self.clusters[parent].children.append(len(self.clusters) - 1)
        return len(self.clusters) - 1

    def edge(self, src: int, dst: int, label: Optional[str] = None, dashed: bool = False) -> None:
        self.edges.append((src, dst, label, dashed))

    def type_of(self, e: Expr) -> Optional[str]:
        t = e._checked_type
        if t is None and isinstance(e, Var):
            t = e.type_annotation
        return self.types.text(t)

    def var_node(self, v: Var, cluster: int, kind: str = "input") -> int:
        n = self.node(cluster, ["%" + v.name_hint], kind, v)
        self.bind(v, n)
        return n

    def bind(self, v: Var, n: int) -> None:
        self.saved.append((v, self.node_of.get(v)))
        self.node_of[v] = n

    # -- functions --------------------------------------------------------------------
    def add_function(self, fn: Function, label: str) -> None:
        """A global function (or the drawn function): a cluster, its parameters, its body."""
        c = self.cluster(0, label, "global")
        binds = [(p, "weight" if p.name_hint in self.weights else "input", None) for p in fn.params]
        self.found.append(_Scope(_unwrap(fn.body), c, None, None, binds))

    def add_expr(self, e: Expr) -> None:
        self.found.append(_Scope(_unwrap(e), 0, None, None, []))

    def run(self) -> None:
        self.tasks.extend(reversed(self.found))
        self.found = []
        while self.tasks:
            task = self.tasks.pop()
            if isinstance(task, list):  # a scope and those inside it are drawn: unbind
                for v, old in reversed(task):
                    if old is None:
                        self.node_of.pop(v, None)
                    else:
                        self.node_of[v] = old
                continue
            self.saved = []
            for v, kind, src in task.binds:
                n = self.var_node(v, task.cluster, kind)
                if src is not None:
                    self.edge(src, n, dashed=True)
            n = self.walk(task.body, task.cluster)
            if task.consumer is None:
                self.nodes[n].output = True
            else:
                self.edge(n, task.consumer, task.label)
            self.tasks.append(self.saved)
            self.tasks.extend(reversed(self.found))  # the first found is drawn first
            self.found = []

    # -- one scope --------------------------------------------------------------------
    def walk(self, root: Expr, c: int) -> int:
        node_of = self.node_of
        stack: List[PyTuple[Expr, int]] = [(root, 0)]
        while stack:
            e, state = stack.pop()
            if state == 0:
                if e in node_of:
                    continue
                if isinstance(e, Let):
                    stack.append((e, 1))
                    stack.append((_unwrap(e.value), 0))
                    continue
                kids = self.operands(e)
                pending = [k for k in kids if k not in node_of]
                if pending:
                    stack.append((e, 1))
                    stack.extend((k, 0) for k in reversed(pending))
                    continue
                self.make(e, c)
            elif state == 1:
                if isinstance(e, Let):
                    self.bind_let(e, c)
                    stack.append((e, 2))
                    stack.append((_unwrap(e.body), 0))
                elif e not in node_of:
                    self.make(e, c)
            else:  # a Let whose body is drawn: the let's value is its body's
                node_of[e] = node_of[_unwrap(e.body)]
        return node_of[root]

    @staticmethod
    def operands(e: Expr) -> List[Expr]:
        """What is drawn before ``e`` in the same scope."""
        if isinstance(e, Call):
            kids = [] if isinstance(e.op, (Op, GlobalVar, Constructor)) else [_unwrap(e.op)]
            kids.extend(_unwrap(a) for a in e.args)
            return kids
        if isinstance(e, Tuple):
            return [_unwrap(f) for f in e.fields]
        if isinstance(e, TupleGetItem):
            return [_unwrap(e.tuple_value)]
        if isinstance(e, RefCreate):
            return [e.value]
        if isinstance(e, RefRead):
            return [e.ref]
        if isinstance(e, RefWrite):
            return [e.ref, e.value]
        if isinstance(e, If):
            return [_unwrap(e.cond)]
        if isinstance(e, Match):
            return [_unwrap(e.data)]
        return []

    def bind_let(self, let: Let, c: int) -> None:
        value = _unwrap(let.value)
        vn = self.node_of[value]
        name = "%" + let.var.name_hint
        if isinstance(value, (Var, GlobalVar, Constructor, Op)) or self.nodes[vn].let_name is not None:
            n = self.node(c, ["let " + name], "small", let.var)
            self.edge(vn, n)
            self.bind(let.var, n)
        else:  # the value's own node names the variable
            node = self.nodes[vn]
            node.let_name = name
            node.lines[0] = f"{name} = {node.lines[0]}"
            self.bind(let.var, vn)

    def make(self, e: Expr, c: int) -> None:
        node_of = self.node_of
        if isinstance(e, Call):
            op = e.op
            if isinstance(op, Op):
                n = self.node(c, [op.name] + _attr_lines(e.attrs, self.all_attrs), "op", e)
            elif isinstance(op, GlobalVar):
                n = self.node(c, ["@" + op.name_hint], "global", e)
            elif isinstance(op, Constructor):
                n = self.node(c, [op.name_hint], "ctor", e)
            else:
                n = self.node(c, ["call"], "call", e)
                self.edge(node_of[_unwrap(op)], n, "fn")
            for a in e.args:
                self.edge(node_of[_unwrap(a)], n)
        elif isinstance(e, Var):  # free: not bound by anything drawn
            n = self.var_node(e, c)
        elif isinstance(e, Constant):
            d = e.data
            if d.ndim == 0:
                n = self.node(c, [f"const {_value_text(d.item())}", str(d.dtype)], "const")
            else:
                dims = ", ".join(str(s) for s in d.shape)
                n = self.node(c, ["const", f"Tensor[({dims}), {d.dtype}]"], "const")
        elif isinstance(e, Tuple):
            n = self.node(c, ["tuple"], "small", e)
            for f in e.fields:
                self.edge(node_of[_unwrap(f)], n)
        elif isinstance(e, TupleGetItem):
            n = self.node(c, [f".{e.index}"], "small", e)
            self.edge(node_of[_unwrap(e.tuple_value)], n)
        elif isinstance(e, If):
            n = self.node(c, ["if"], "control", e)
            self.edge(node_of[_unwrap(e.cond)], n, "cond")
            self.found.append(_Scope(_unwrap(e.true_branch), self.cluster(c, "then", "branch"), n, "then", []))
            self.found.append(_Scope(_unwrap(e.false_branch), self.cluster(c, "else", "branch"), n, "else", []))
        elif isinstance(e, Match):
            n = self.node(c, ["match" if e.complete else "match?"], "control", e)
            data = node_of[_unwrap(e.data)]
            self.edge(data, n, "data")
            for clause in e.clauses:
                pat = _pattern_text(clause.lhs)
                cc = self.cluster(c, pat + " =>", "branch")
                binds = [(v, "small", data) for v in pattern_vars(clause.lhs)]
                self.found.append(_Scope(_unwrap(clause.rhs), cc, n, _clip(pat, 24), binds))
        elif isinstance(e, Function):
            params = ", ".join("%" + p.name_hint for p in e.params)
            fc = self.cluster(c, _clip(f"fn ({params})", 48), "closure")
            n = self.node(fc, ["fn"], "closure", e)
            self.found.append(_Scope(_unwrap(e.body), fc, n, None, [(p, "input", None) for p in e.params]))
        elif isinstance(e, GlobalVar):
            n = self.node(c, ["@" + e.name_hint], "global", e)
        elif isinstance(e, Constructor):
            n = self.node(c, [e.name_hint], "ctor", e)
        elif isinstance(e, Op):
            n = self.node(c, [e.name], "op")
        elif isinstance(e, RefCreate):
            n = self.node(c, ["ref"], "small", e)
            self.edge(node_of[e.value], n)
        elif isinstance(e, RefRead):
            n = self.node(c, ["ref_read"], "small", e)
            self.edge(node_of[e.ref], n)
        elif isinstance(e, RefWrite):
            n = self.node(c, ["ref_write"], "small", e)
            self.edge(node_of[e.ref], n, "ref")
            self.edge(node_of[e.value], n)
        else:
            raise TypeError(f"cannot draw {e!r} (not a relay expression)")
        node_of[e] = n

    # -- DOT text ---------------------------------------------------------------------
    def dot(self, note: Optional[str]) -> str:
        out = ["digraph relay {",
               '  graph [fontname="Helvetica", fontsize=10, newrank=true, nodesep=0.25, ranksep=0.3'
               + (f", labelloc=t, label={_quote(note)}" if note else "") + "];",
               f'  node [fontname="Helvetica", fontsize=10, height=0.3, margin="0.08,0.03", {_OP_STYLE}];',
               '  edge [color="#555555", arrowsize=0.6, fontname="Helvetica", fontsize=8, fontcolor="#555555"];']
        nodes = self.nodes
        stack: List[PyTuple[int, bool, int]] = [(0, False, 1)]
        while stack:  # clusters nest as scopes do: an explicit stack, not recursion
            ci, closing, depth = stack.pop()
            ind = "  " * min(depth, 16)  # (indenting deeper would make the text quadratic)
            if closing:
                out.append(ind + "}")
                continue
            cl = self.clusters[ci]
            inner = ind
            if ci != 0:
                out.append(f"{ind}subgraph cluster_{ci} {{")
                inner = "  " * min(depth + 1, 16)
                out.append(f"{inner}label={_quote(cl.label)}; {_CLUSTER_STYLE[cl.kind]};")
                stack.append((ci, True, depth))
            for ni in cl.nodes:
                node = nodes[ni]
                style = _STYLE[node.kind]
                attrs = (", " + style if style else "") + (", peripheries=2" if node.output else "")
                out.append(f"{inner}n{ni} [label={_quote(chr(10).join(node.lines))}{attrs}];")
            child_depth = depth + 1 if ci != 0 else depth
            stack.extend((k, False, child_depth) for k in reversed(cl.children))
        for src, dst, label, dashed in self.edges:
            attrs = []
            if label:
                attrs.append(f"label={_quote(label)}")
            if dashed:
                attrs.append("style=dashed")
            out.append(f"  n{src} -> n{dst}" + (f" [{', '.join(attrs)}]" if attrs else "") + ";")
        out.append("}")
        return "\n".join(out) + "\n"


def chosen_functions(mod, functions: Optional[Sequence[str]] = None) -> List[PyTuple[GlobalVar, Function]]:
    """The ``(GlobalVar, Function)`` pairs of ``mod`` named in ``functions`` (all if None), or a
    ``CompileError`` naming the missing ones."""
    chosen = list(mod.functions.items())
    if functions is None:
        return chosen
    by_name = {gv.name_hint: (gv, fn) for gv, fn in chosen}
    missing = [f for f in functions if f not in by_name]
    if missing:
        raise CompileError(f"no global function {', '.join(repr(m) for m in missing)} to draw "
                           f"(the module has {', '.join(by_name) or 'none'})")
    return [by_name[f] for f in dict.fromkeys(functions)]


def to_dot(obj, *, params: Optional[Union[Mapping[str, object], Iterable[str]]] = None,
           functions: Optional[Sequence[str]] = None, all_attrs: bool = False,
           note: Optional[str] = None) -> str:
    """Graphviz DOT text of a module's (or an expression's) dataflow.

    ``obj`` is an ``IRModule`` (each global function a cluster, in module
    order), a ``Function`` or any expression. ``params``: names (or a
    ``{name: array}`` dict, as ``get_workload`` returns) of parameters that
    are bound weights, drawn in grey; ``functions``: names of the global
    functions to draw (default: all); ``all_attrs``: show every operator
    attribute (default: the informative ones); ``note``: a title.
    Types shown are those already inferred (run ``InferType``, or use
    ``IRModule.visualize``).
    """
    d = _Drawer(params or (), all_attrs)
    if isinstance(obj, TupleWrapper):
        obj = obj.astuple()
    if hasattr(obj, "functions") and hasattr(obj, "type_definitions"):  # an IRModule
        for gv, fn in chosen_functions(obj, functions):
            tps = "[" + ", ".join(tp.name_hint for tp in fn.type_params) + "]" if fn.type_params else ""
            ft = fn._checked_type
            ret = d.types.text(ft.ret_type if isinstance(ft, FuncType) else fn.ret_type)
            label = f"def @{gv.name_hint}{tps}" + (f" -> {ret}" if ret else "")
            d.add_function(fn, label)
    elif isinstance(obj, Function):
        d.add_function(obj, "fn")
    elif isinstance(obj, Expr):
        d.add_expr(obj)
    else:
        raise TypeError(f"cannot draw {obj!r}: expected an IRModule or a relay expression")
    d.run()
    return d.dot(note)
