"""``from_onnx``: an ONNX model to a Relay ``IRModule``.

* graph inputs become parameters of ``main`` (``?`` for symbolic or unknown
  dims, or the shapes given in ``shapes``); initializers become constants;
* each node is converted by the converter registered for its op type and
  opset (``relay_mlir.frontend.onnx_ops``); nodes whose inputs are all known
  at import time (shape computations, constant subgraphs) are evaluated by
  ONNX's reference implementation;
* shapes known only at run time (exports with dynamic axes) stay in the
  program: ``Shape``/``Gather``/``Concat``/... on them become relay ops that
  keep the entries known at import time (``onnx_ops/_symshape.py``), and the
  ops that take a shape (Reshape, Expand, ConstantOfShape, ...) use the
  run-time value (``dyn.*`` operators, checked at run time); a model's
  declared output shapes are never trusted without a run-time check;
* several graph outputs make a tuple-valued ``main``;
* every Relay expression built for a node carries the node as its location
  (``<model>:<node name>:<node index>:1``), so type-inference and lowering
  diagnostics point at the ONNX node;
* an operator, attribute or input form that cannot be converted exactly
  raises ``UnsupportedError`` naming the op type, node name and opset.

Example::

    >>> import onnx, onnx.helper as oh
    >>> from relay_mlir.frontend import from_onnx
    >>> g = oh.make_graph([oh.make_node("Relu", ["x"], ["y"], name="r")], "g",
    ...                   [oh.make_tensor_value_info("x", onnx.TensorProto.FLOAT, ["N", 4])],
    ...                   [oh.make_tensor_value_info("y", onnx.TensorProto.FLOAT, ["N", 4])])
    >>> mod = from_onnx(oh.make_model(g, opset_imports=[oh.make_opsetid("", 17)]))
    >>> mod["main"].params[0].type_annotation
    TensorType([?, 4], float32)
"""
from __future__ import annotations

import os
import re
from typing import Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from .. import expr as E
from ..analysis import free_vars
from ..module import IRModule
from ..errors import CompileError
from .common import ImportError_, UnexpectedImportError, UnsupportedError
from .onnx_loop import convert_loop, convert_scan
from .onnx_ops import Node, lookup, registry
from .onnx_ops._symshape import SYM_CONVERTERS, Sym
from .onnx_ops.quant_qdq import fuse_qdq
from .onnx_ops._base import (_value_type, _schema_inputs, check_dtype, check_shape_size, fmt_shape, tensor_to_array,
                              to_relay_shape)

__all__ = ["from_onnx", "supported_ops", "OnnxSpan"]

MIN_OPSET = 7
_DEFAULT_DOMAINS = ("", "ai.onnx")


def supported_ops() -> Dict[str, List[int]]:
    """``op_type -> opset versions`` the importer has converters from."""
    return registry()


class OnnxSpan(E.Span):
    """The location of an ONNX node: ``<model>:<node name>`` line ``<node index + 1>``."""

    __slots__ = ("node_name", "op_type")

    def __init__(self, source: str, node_name: str, op_type: str, index: int) -> None:
        super().__init__(f"{source}:{node_name}", index + 1, 1)
        self.node_name, self.op_type = node_name, op_type


class _Importer:
    def __init__(self, model, shapes: Optional[Mapping[str, Sequence[object]]],
                 dtypes: Optional[Mapping[str, str]], source: str, fold_constants: bool) -> None:
        self.model = model
        self.graph = model.graph
        self.source = source
        self.fold = fold_constants
        self.opset = self._opset()
        self.shapes = dict(shapes or {})
        self.dtypes = dict(dtypes or {})
        self.values: Dict[str, object] = {}   # name -> Expr | np.ndarray
        self.types: Dict[str, tuple] = {}     # name -> (shape | None, dtype | None)
        self.globals: List[tuple] = []       # (GlobalVar, Function) besides main
        self.syms: Dict[str, Sym] = {}      # name -> shape value computed at run time (see _symshape)
        self.shape_memo: Dict[int, tuple] = {}  # id(expr) -> (expr, shape_of(expr))
        self.spanned: set = set()
        self.current: Optional[tuple] = None  # (index, NodeProto) being converted
        # initializer name -> Var when weights are parameters of main, not constants
        # (``import_with_params``); None: every initializer is a constant
        self.param_vars: Optional[Dict[str, E.Var]] = None

    def _opset(self) -> int:
        opset = None
        for imp in self.model.opset_import:
            if imp.domain in _DEFAULT_DOMAINS:
                opset = imp.version
        if opset is None:
            if self.model.opset_import:
                opset = max(i.version for i in self.model.opset_import)  # pragma: no cover
            else:
                opset = MIN_OPSET
        return int(opset)

    # -- types ----------------------------------------------------------------
    def _infer_shapes(self) -> None:
        import onnx
        from onnx import shape_inference
        m = self.model
        if self.shapes or self.dtypes:
            m2 = onnx.ModelProto()
            m2.CopyFrom(m)
            for vi in m2.graph.input:
                if vi.name in self.shapes:
                    shp = vi.type.tensor_type.shape
                    del shp.dim[:]
                    for d in self.shapes[vi.name]:
                        dim = shp.dim.add()
                        if d is not None and not isinstance(d, str) and int(d) >= 0:
                            dim.dim_value = int(d)
                        elif isinstance(d, str) and d != "?":
                            dim.dim_param = d
                if vi.name in self.dtypes:
                    vi.type.tensor_type.elem_type = onnx.helper.np_dtype_to_tensor_dtype(
                        np.dtype(self.dtypes[vi.name]))
            m = m2
        self.input_model = m
        self._check_before_shape_inference(m.graph)
        try:
            inferred = shape_inference.infer_shapes(m, check_type=False, strict_mode=False, data_prop=True)
        except Exception:
            inferred = m
        g = inferred.graph
        for vi in list(g.value_info) + list(g.output) + list(m.graph.input):
            t = _value_type(vi)
            if t is not None:
                self.types[vi.name] = t
        self._propagate_shapes_back(m.graph)

    def _check_before_shape_inference(self, graph) -> None:
        """Refuses what ONNX's shape inference (C++) cannot be trusted with: it loops
        forever on an Einsum equation of arbitrary bytes, and crashes (SIGSEGV) on a
        node whose required input is missing or whose ``axis``/``axes`` do not fit in 32
        bits (LayerNormalization ``axis`` = 2^31)."""
        # (shape inference segfaults on a node input defined nowhere and on a
        # negative dim: ONNX fuzz seed 20 mutants 27787, 14828)
        for vi in list(graph.input) + list(graph.output) + list(graph.value_info):
            for d in vi.type.tensor_type.shape.dim:
                if d.HasField("dim_value") and d.dim_value < 0:
                    raise self.err(f"invalid model: value '{vi.name}' has a negative dim ({d.dim_value})")
        defined = {vi.name for vi in graph.input} | {t.name for t in graph.initializer}
        for idx, node in enumerate(graph.node):
            for name in node.input:
                if name and name not in defined:
                    label = self._label(idx, node)
                    raise UnsupportedError(
                        f"ONNX {node.op_type} node '{label}' (opset {self.opset}): input '{name}' is "
                        "produced by no earlier node (graph not topologically sorted?)",
                        node.op_type, label, self.opset)
            defined.update(o for o in node.output if o)
        for idx, node in enumerate(graph.node):
            for a in node.attribute:
                if a.name in ("axis", "axes"):
                    values = [a.i] if a.type == 2 else list(a.ints)  # AttributeProto.INT
                    bad = [v for v in values if not -2 ** 31 <= v < 2 ** 31]
                    if bad:
                        label = self._label(idx, node)
                        raise ImportError_(
                            f"ONNX {node.op_type} node '{label}' (opset {self.opset}): invalid model: "
                            f"attribute '{a.name}' = {bad[0]} is out of range", node.op_type, label, self.opset)
            spec = _schema_inputs(node.op_type, self.opset) if node.domain in _DEFAULT_DOMAINS else None
            if spec is not None:  # (shape inference segfaults on EyeLike with its input emptied)
                for j, (name, required, variadic) in enumerate(spec[0]):
                    if variadic:
                        break
                    if required and (j >= len(node.input) or not node.input[j]):
                        label = self._label(idx, node)
                        raise ImportError_(
                            f"ONNX {node.op_type} node '{label}' (opset {self.opset}): invalid model: required "
                            f"input {j} ('{name}') is missing", node.op_type, label, self.opset)
            if node.op_type != "Einsum":
                continue
            for a in node.attribute:
                if a.name == "equation" and not _EINSUM_EQUATION.fullmatch(a.s):
                    raise ImportError_(
                        f"ONNX Einsum node '{self._label(idx, node)}' (opset {self.opset}): invalid model: "
                        f"attribute 'equation' {bytes(a.s[:40])!r} is not an einsum equation "
                        "(letters, ',', '...', '->' and spaces)", node.op_type, self._label(idx, node), self.opset)

    def _propagate_shapes_back(self, graph) -> None:
        """Gives the input of a shape-preserving unary node the fully known shape of its
        output when ONNX shape inference left the input's shape (partly) unknown (e.g. a
        reduction with run-time axes followed by Sqrt/Cast up to a declared graph output)."""
        for node in reversed(graph.node):
            if node.op_type not in _SAME_SHAPE_UNARY or not node.input or not node.output:
                continue
            out = self.types.get(node.output[0])
            if not out or out[0] is None or any(d is None for d in out[0]):
                continue
            t = self.types.get(node.input[0])
            if t is not None and t[0] is not None:
                if all(d is not None for d in t[0]):
                    continue
                if len(t[0]) != len(out[0]) or any(a is not None and a != b for a, b in zip(t[0], out[0])):
                    continue
            self.types[node.input[0]] = (out[0], t[1] if t else None)

    def err(self, msg: str) -> ImportError_:
        return ImportError_(f"ONNX model '{self.source}': {msg}")

    # -- graph -----------------------------------------------------------------
    def run(self) -> IRModule:
        import onnx.defs
        if self.opset < MIN_OPSET:
            raise UnsupportedError(f"ONNX model '{self.source}' uses opset {self.opset}; "
                                   f"the importer supports opsets {MIN_OPSET} and newer",
                                   None, None, self.opset)
        newest = onnx.defs.onnx_opset_version()
        if self.opset > newest:
            raise UnsupportedError(f"ONNX model '{self.source}' uses opset {self.opset}; the newest "
                                   f"opset the installed onnx (and so the importer) knows is {newest}",
                                   None, None, self.opset)
        for imp in self.model.opset_import:
            if imp.domain not in _DEFAULT_DOMAINS and any(n.domain == imp.domain for n in self.graph.node):
                pass  # reported per node
        self._infer_shapes()
        g = self.input_model.graph
        self._load_initializers(g, lambda name: self.err(f"two initializers are named '{name}'"))
        for sp in g.sparse_initializer:
            raise UnsupportedError(f"ONNX model '{self.source}': sparse initializer "
                                   f"'{sp.values.name}' is not supported")
        params: List[E.Var] = []
        if self.param_vars is not None:
            self.param_arrays = self._make_param_vars(g)
        for vi in g.input:
            if vi.name in self.values:
                if vi.name in (self.param_vars or {}):  # TVM: an initializer listed as an input stays one
                    params.append(self.param_vars[vi.name])
                continue  # an initializer listed as an input: a constant
            t = _value_type(vi)
            if t is None:
                raise UnsupportedError(f"ONNX model '{self.source}': graph input '{vi.name}' is not a "
                                       f"tensor ({vi.type.WhichOneof('value')})")
            shape, dtype = t
            if shape is None:
                raise UnsupportedError(f"ONNX model '{self.source}': graph input '{vi.name}' has no "
                                       "shape (give its shape in `shapes`)")
            if dtype is None:
                raise UnsupportedError(f"ONNX model '{self.source}': graph input '{vi.name}' has "
                                       "an unsupported element type")
            check_dtype(None, dtype)
            if vi.name in self.values:
                raise self.err(f"two graph inputs are named '{vi.name}'")
            check_shape_size(shape, dtype, f"ONNX model '{self.source}': graph input '{vi.name}'")
            v = E.var(vi.name, shape=to_relay_shape(shape), dtype=dtype)
            v.span = E.Span(f"{self.source}:{vi.name}", 0, 0)
            self.values[vi.name] = v
            self.types[vi.name] = t
            params.append(v)
        self._unify_named_dims(g, params)
        for vi in g.output:
            kind = vi.type.WhichOneof("value")
            if kind not in (None, "tensor_type"):
                raise UnsupportedError(f"ONNX model '{self.source}': graph output '{vi.name}' is not a "
                                       f"tensor ({kind})")
        for idx, node in enumerate(g.node):
            self.current = (idx, node)
            self._convert(idx, node)
        self.current = None
        outs = []
        for vi in g.output:
            if vi.name not in self.values:
                raise self.err(f"graph output '{vi.name}' is produced by no node")
            v = self.values[vi.name]
            if isinstance(v, np.ndarray):
                check_dtype(None, v.dtype.name)
                v = E.const(v, v.dtype.name)
                v.span = E.Span(f"{self.source}:{vi.name}", 0, 0)
            outs.append(v)
        if not outs:
            raise self.err("the graph has no outputs")
        body = outs[0] if len(outs) == 1 else E.Tuple(outs)
        if len(outs) > 1:
            body.span = E.Span(f"{self.source}:outputs", 0, 0)
        if self.param_vars is not None:
            params = params + self._used_param_vars(g, body, params)
        fn = E.Function(params, body)
        fn.span = E.Span(self.source, 0, 0)
        mod = IRModule.from_expr(fn)
        for gv, g in self.globals:
            mod[gv] = g
        return mod

    def _make_param_vars(self, g) -> Dict[str, np.ndarray]:
        """The main graph's floating-point initializers become Vars named after them, which
        converters see as values known at run time (TVM's freeze_params=False); integer ones
        (shapes, axes, indices) stay constants. Returns every initializer's value."""
        arrays = {}
        for init in g.initializer:
            arr = arrays[init.name] = self.values[init.name]
            if arr.dtype.kind != "f" and arr.dtype.name != "bfloat16":
                continue
            v = E.var(init.name, shape=arr.shape, dtype=arr.dtype.name)
            v.span = E.Span(f"{self.source}:{init.name}", 0, 0)
            self.param_vars[init.name] = self.values[init.name] = v
        return arrays

    def _used_param_vars(self, g, body: E.Expr, params: List[E.Var]) -> List[E.Var]:
        """The initializers' Vars ``body`` uses that are not graph inputs, in initializer order
        (TVM 0.19: graph inputs, then the used initializers in the order the graph lists them)."""
        used = set(free_vars(body))
        taken = set(params)
        return [v for v in (self.param_vars.get(i.name) for i in g.initializer) if v in used and v not in taken]

    def _load_initializers(self, g, clash) -> None:
        """The initializers of graph ``g`` as numpy values; ``clash(name)`` is the error raised
        for a name already taken."""
        for init in g.initializer:
            if init.name in self.values:
                raise clash(init.name)
            arr = tensor_to_array(init, f"ONNX model '{self.source}': initializer '{init.name}'")
            self.values[init.name] = arr
            self.types[init.name] = (tuple(arr.shape), arr.dtype.name)

    def _unify_named_dims(self, g, params: List[E.Var]) -> None:
        """Graph inputs whose unknown dims share a ``dim_param`` have equal sizes (ONNX's
        contract): each later input is reshaped, one shared dim at a time, to the size of the
        first input's dim of that name (a ``dyn.reshape`` that changes one dim checks it at
        run time: "newshape does not fit the input's element count", at the input's name).
        The program then carries one size where the export has one name, so the lowering
        proves the sizes of ops that combine the inputs equal (no run-time broadcast)."""
        from ..op.dyn import reshape, shape_of
        from ..op.index import take
        from ..op.tensor import concatenate
        first: Dict[str, Tuple[E.Var, int]] = {}
        by_name = {v.name_hint: v for v in params}
        for vi in g.input:
            v = by_name.get(vi.name)
            if v is None or self.values.get(vi.name) is not v:
                continue
            shape = self.types[vi.name][0]
            x = v
            for axis, d in enumerate(vi.type.tensor_type.shape.dim):
                name = d.dim_param if d.HasField("dim_param") else ""
                if not name or shape[axis] is not None:
                    continue
                if name not in first:
                    first[name] = (v, axis)
                    continue
                f, fa = first[name]
                if f is v:
                    continue
                sizes = [take(shape_of(f, "int64"), E.Constant(np.array([fa], np.int64)), axis=0)
                         if i == axis else
                         take(shape_of(x, "int64"), E.Constant(np.array([i], np.int64)), axis=0)
                         for i in range(len(shape))]
                x = reshape(x, concatenate(sizes, axis=0), allowzero=True)
                x.span = E.Span(f"{self.source}:{vi.name} (dim '{name}' of {f.name_hint})", 0, 0)
            if x is not v:
                self.values[vi.name] = x

    def _new_global(self, base: str) -> E.GlobalVar:
        """A fresh global function name (loops of recurrent layers are global functions)."""
        taken = {g.name_hint for g, _ in self.globals}
        k = 0
        while f"{base}{k}" in taken:
            k += 1
        return E.GlobalVar(f"{base}{k}")

    def _add_global(self, gv: E.GlobalVar, fn: E.Function) -> None:
        self.globals.append((gv, fn))

    def _label(self, idx: int, node) -> str:
        return node.name or f"{node.op_type}_{idx}"

    def _convert(self, idx: int, node) -> None:
        label = self._label(idx, node)
        if node.domain not in _DEFAULT_DOMAINS and lookup(f"{node.domain}.{node.op_type}", 1) is None:
            raise UnsupportedError(
                f"ONNX {node.op_type} node '{label}' (opset {self.opset}): operator domain "
                f"'{node.domain}' is not supported", node.op_type, label, self.opset)
        inputs, in_types, syms = [], [], []
        for name in node.input:
            syms.append(self.syms.get(name))
            if name == "":
                inputs.append(None)
                in_types.append(None)
                continue
            if name not in self.values:
                raise UnsupportedError(
                    f"ONNX {node.op_type} node '{label}' (opset {self.opset}): input '{name}' is "
                    "produced by no earlier node (graph not topologically sorted?)",
                    node.op_type, label, self.opset)
            inputs.append(self.values[name])
            in_types.append(self.types.get(name))
        out_types = [self.types.get(o) if o else None for o in node.output]
        ctx = Node(node, inputs, in_types, out_types, self.opset, label)
        ctx.syms, ctx.shape_memo = syms, self.shape_memo
        ctx.new_global, ctx.add_global, ctx.globals = self._new_global, self._add_global, self.globals
        ctx.check_arity()
        folded = self._try_fold(ctx, node)
        sym_conv = SYM_CONVERTERS.get(node.op_type) if any(s is not None for s in syms) else None
        sym_result = sym_conv(ctx) if sym_conv is not None and folded is None else None
        if folded is not None:
            results = folded
        elif sym_result is not None:
            results = sym_result
            unused = ctx.unused_attributes()
            if unused:
                raise ctx.unsupported(f"attribute{'s' if len(unused) > 1 else ''} "
                                      f"{', '.join(unused)} not supported")
        elif node.op_type == "If" and ctx.is_const(0):
            results = self._inline_if(idx, node, ctx)
        elif node.op_type == "If":
            results = self._runtime_if(idx, node, ctx)
        elif node.op_type in ("Loop", "Scan"):
            results = (convert_loop if node.op_type == "Loop" else convert_scan)(self, idx, node, ctx)
        else:
            conv = lookup(node.op_type if node.domain in _DEFAULT_DOMAINS  # com.microsoft.X: issue 33
                          else f"{node.domain}.{node.op_type}", self.opset)
            if conv is None:
                known = registry().get(node.op_type)
                why = (f"supported from opset {known[0]}" if known else "no converter for this operator")
                raise ctx.unsupported(f"operator {node.op_type} is not supported ({why})")
            results = conv(ctx)
            unused = ctx.unused_attributes()
            if unused:
                raise ctx.unsupported(f"attribute{'s' if len(unused) > 1 else ''} "
                                      f"{', '.join(unused)} not supported")
        if not isinstance(results, (list, tuple)):
            results = [results]
        span = OnnxSpan(self.source, label, node.op_type, idx)
        for j, name in enumerate(node.output):
            if name == "":
                continue
            if name in self.values:
                raise ctx.invalid(f"output '{name}' has the name of an earlier value (names must be unique)")
            if j >= len(results) or results[j] is None:
                raise ctx.unsupported(f"output {j} ('{name}') is not supported")
            r = results[j]
            if isinstance(r, E.TupleWrapper):
                r = r.astuple()
            if isinstance(r, Sym):
                if r.known():  # every entry known at import time: a constant, as before
                    r = r.array()
                else:
                    self.syms[name] = r
                    if name not in self.types or self.types[name][0] is None:
                        self.types[name] = (r.shape, r.dtype)
                    r = r.expr
            if isinstance(r, np.ndarray):
                check_shape_size(r.shape, r.dtype.name, f"output '{name}'", ctx)
                self.types[name] = (tuple(r.shape), r.dtype.name)
            elif isinstance(r, E.Expr):
                self._set_span(r, span)
                if name not in self.types and j == 0 and node.op_type in _SHAPE_PRESERVING:
                    self.types[name] = in_types[0]
            else:  # pragma: no cover - converter bug
                raise TypeError(f"converter of {node.op_type} returned {r!r}")
            self.values[name] = r

    def _if_branches(self, node, ctx: Node) -> dict:
        """An ``If`` node's ``then_branch`` and ``else_branch`` graphs (checked)."""
        attrs = {a.name: a for a in node.attribute}
        for name in ("then_branch", "else_branch"):
            if name not in attrs or not attrs[name].HasField("g"):
                raise ctx.invalid(f"attribute '{name}' (a graph) is missing")
        extra = [a for a in attrs if a not in ("then_branch", "else_branch")]
        if extra:
            raise ctx.unsupported(f"attributes {', '.join(extra)} not supported")
        branches = {name: attrs[name].g for name in ("then_branch", "else_branch")}
        for name, g in branches.items():
            if len(g.output) != len(node.output):
                raise ctx.invalid(f"the {name} has {len(g.output)} outputs, the node {len(node.output)}")
            if g.sparse_initializer:
                raise ctx.unsupported(f"sparse initializers in the {name}")
        return branches

    def _branch_results(self, idx: int, name: str, g, ctx: Node, bind=()) -> list:
        """The nodes of branch graph ``g`` converted in the enclosing scope; its outputs and
        their types. The branch's own names are dropped afterwards (the other branch may use
        them too). ``bind``: (name, value, type) of the graph's inputs (a loop body's), bound
        while it is converted (shadowing an outer name of the same)."""
        before, types_before = set(self.values), dict(self.types)
        shadowed = {k: self.values[k] for k, _, _ in bind if k in self.values}
        for k, v, t in bind:
            self.values[k] = v
            self.syms.pop(k, None)
            if t is None:
                self.types.pop(k, None)
            else:
                self.types[k] = t
        self._load_initializers(g, lambda init: ctx.invalid(
            f"initializer '{init}' of the {name} has the name of an earlier value"))
        for sub in g.node:
            self._convert(idx, sub)
        results, types = [], []
        for o in g.output:
            if o.name not in self.values:
                raise ctx.invalid(f"output '{o.name}' of the {name} is produced by no node")
            results.append(self.values[o.name])
            types.append(self.types.get(o.name) or _value_type(o))
        for k in set(self.values) - before:
            del self.values[k]
            self.syms.pop(k, None)
        self.values.update(shadowed)
        self.types.clear()
        self.types.update(types_before)
        return results, types

    def _runtime_if(self, idx: int, node, ctx: Node) -> list:
        """An ``If`` whose condition is known only at run time: Relay's ``If`` over the two
        branches, each converted in the enclosing scope (what only a branch uses is computed
        in that branch, so a branch not taken cannot fail). The branches' outputs must have
        the same type (Relay's ``If``)."""
        branches = self._if_branches(node, ctx)
        ct = ctx.in_types[0]
        if ct is not None and ct[0] is not None and int(np.prod(ct[0])) != 1:
            raise ctx.invalid(f"the condition must hold one element, got shape {list(ct[0])}")
        if ct is not None and ct[1] is not None and ct[1] != "bool":
            raise ctx.invalid(f"the condition must be a bool tensor, got {ct[1]}")
        cond = ctx.expr(0)
        if isinstance(cond, Sym):
            cond = cond.expr
        if ct is None or ct[0] is None or len(ct[0]) != 0:
            cond = ctx.op("reshape")(cond, newshape=[])
        arms = {}
        for name, g in branches.items():
            vals, types = self._branch_results(idx, name, g, ctx)
            exprs = []
            for v in vals:
                if isinstance(v, np.ndarray):
                    v = ctx.constant(v)
                elif isinstance(v, Sym):
                    v = v.expr
                exprs.append(v)
            arms[name] = (exprs, types)
        (then_vals, then_types), (else_vals, else_types) = arms["then_branch"], arms["else_branch"]
        for j, (a, b) in enumerate(zip(then_types, else_types)):
            if a is not None and b is not None and a[0] is not None and b[0] is not None \
                    and (len(a[0]) != len(b[0]) or a[1] != b[1] or any(
                        x is not None and y is not None and x != y for x, y in zip(a[0], b[0]))):
                raise ctx.unsupported(
                    f"output {j}: the branches give {b[1]}{fmt_shape(b[0])} and "
                    f"{a[1]}{fmt_shape(a[0])}; Relay's If needs one type (outputs whose shape "
                    "depends on the branch taken are not supported)")
        single = len(node.output) == 1
        res = E.If(cond, then_vals[0] if single else E.Tuple(then_vals),
                   else_vals[0] if single else E.Tuple(else_vals))
        for out, a, b in zip(node.output, then_types, else_types):
            if out:
                t = a if a is not None else b
                if t is None:
                    self.types.pop(out, None)
                else:
                    self.types[out] = t
        return [res] if single else [E.TupleGetItem(res, j) for j in range(len(node.output))]

    def _inline_if(self, idx: int, node, ctx: Node) -> list:
        """An ``If`` whose condition is known at import time (e.g. torch's export of ``squeeze``
        of a dim it cannot prove is 1, ``If(Equal(dim, 1))``, once the importer knows the dim):
        the nodes of the branch taken, converted in the enclosing scope; the If's outputs are
        the branch's (a condition known only at run time: ``_runtime_if``)."""
        cond = ctx.const(0, "cond")
        if cond.size != 1:
            raise ctx.invalid(f"the condition must hold one element, got shape {list(cond.shape)}")
        which = "then_branch" if bool(cond.reshape(())) else "else_branch"
        g = self._if_branches(node, ctx)[which]
        results, types = self._branch_results(idx, which, g, ctx)
        # the If's own inferred type merges both branches: the branch's type (or none) instead
        for t, out in zip(types, node.output):
            if out:
                if t is None:
                    self.types.pop(out, None)
                else:
                    self.types[out] = t
        return results

    def _set_span(self, root: E.Expr, span: OnnxSpan) -> None:
        stack = [root]
        while stack:
            e = stack.pop()
            if isinstance(e, E.TupleWrapper):
                e = e.astuple()
            if id(e) in self.spanned or isinstance(e, (E.Var, E.Op)):
                continue
            self.spanned.add(id(e))
            e.span = span
            if isinstance(e, E.Call):
                stack.extend(e.args)
            elif isinstance(e, E.Tuple):
                stack.extend(e.fields)
            elif isinstance(e, E.TupleGetItem):
                stack.append(e.tuple_value)

    # -- constant folding --------------------------------------------------------
    def _try_fold(self, ctx: Node, node) -> Optional[list]:
        if not self.fold or not node.input or node.op_type in _NO_FOLD:
            return None
        if not all(v is None or isinstance(v, np.ndarray) for v in ctx.inputs):
            return None
        if not any(isinstance(v, np.ndarray) for v in ctx.inputs):
            return None
        if sum(v.size for v in ctx.inputs if v is not None) > _FOLD_LIMIT:
            return None
        if not _small_outputs(node, ctx):
            return None  # folding would build a huge array: left to the converter
        try:
            return _reference_eval(node, ctx.inputs, self.model.opset_import)
        except Exception:
            return None  # let the converter handle it


_FOLD_LIMIT = 1 << 24
_EINSUM_EQUATION = re.compile(rb"[A-Za-z.,\->\s]*")


def _small_outputs(node, ctx: Node) -> bool:
    """Whether folding ``node`` makes outputs of at most ``_FOLD_LIMIT`` elements, as far as known:
    from ONNX's inferred output shapes, or for the ops that build a tensor of a given shape."""
    for t in ctx.out_types:
        if t is not None and t[0] is not None and all(d is not None for d in t[0]):
            n = 1
            for d in t[0]:
                n *= max(int(d), 0)
            if n > _FOLD_LIMIT:
                return False
    sizes = {"ConstantOfShape": 0, "Expand": 1, "Tile": 1, "Range": None}
    if node.op_type in sizes:
        try:
            if node.op_type == "ConstantOfShape":
                n = int(np.prod([max(int(d), 0) for d in ctx.inputs[0].reshape(-1)], dtype=object))
            elif node.op_type == "Expand":
                n = int(np.prod([max(int(d), 1) for d in ctx.inputs[1].reshape(-1)], dtype=object)) * \
                    max(ctx.inputs[0].size, 1)
            elif node.op_type == "Tile":
                n = int(np.prod([max(int(d), 0) for d in ctx.inputs[1].reshape(-1)], dtype=object)) * \
                    ctx.inputs[0].size
            else:
                start, limit, delta = (float(np.asarray(v).reshape(-1)[0]) for v in ctx.inputs[:3])
                n = 0 if delta == 0 else (limit - start) / delta
        except Exception:
            return False
        if not n <= _FOLD_LIMIT:  # (NaN too)
            return False
    return True
_NO_FOLD = {"If", "Loop", "Scan", "RandomNormal", "RandomUniform", "RandomNormalLike",
            "RandomUniformLike", "Multinomial", "Bernoulli", "Dropout"}
_SHAPE_PRESERVING = {"Relu", "Sigmoid", "Tanh", "Exp", "Log", "Neg", "Abs", "Sqrt", "Identity",
                     "LeakyRelu", "Elu", "Selu", "Softmax", "LogSoftmax", "Clip", "Erf",
                     "BatchNormalization", "InstanceNormalization", "LayerNormalization"}


# ops whose output has exactly the shape of input 0
_SAME_SHAPE_UNARY = _SHAPE_PRESERVING | {
    "Cast", "CastLike", "Reciprocal", "Floor", "Ceil", "Round", "Sign", "Not", "Sin", "Cos", "Tan",
    "Asin", "Acos", "Atan", "Sinh", "Cosh", "Softplus", "Softsign", "HardSigmoid", "HardSwish",
    "ThresholdedRelu", "Mish", "Gelu", "Celu", "Shrink", "IsNaN", "IsInf", "BitwiseNot",
    "LpNormalization", "Hardmax", "CumSum", "CumProd"}


def _reference_eval(node, inputs, opset_import) -> list:
    from onnx import helper
    from onnx.reference import ReferenceEvaluator
    names = [f"in{i}" if v is not None else "" for i, v in enumerate(inputs)]
    n2 = helper.make_node(node.op_type, names, [f"out{j}" if o else "" for j, o in enumerate(node.output)],
                          domain=node.domain)
    n2.attribute.extend(node.attribute)
    vis = [helper.make_tensor_value_info(n, helper.np_dtype_to_tensor_dtype(v.dtype), v.shape)
           for n, v in zip(names, inputs) if v is not None]
    outs = [helper.make_tensor_value_info(o, 0, None) for o in n2.output if o]
    g = helper.make_graph([n2], "fold", vis, outs)
    m = helper.make_model(g, opset_imports=list(opset_import))
    sess = ReferenceEvaluator(m)
    res = sess.run(None, {n: v for n, v in zip(names, inputs) if v is not None})
    out, k = [], 0
    for o in node.output:
        if o:
            out.append(np.asarray(res[k]))
            k += 1
        else:
            out.append(None)
    for r in out:
        if r is not None and r.dtype.name not in ("float16", "float32", "float64", "int8", "int16", "int32",
                                                  "int64", "uint8", "uint16", "uint32", "uint64", "bool"):
            raise TypeError("not a relay dtype")
    return out


def from_onnx(model: Union[str, "os.PathLike[str]", object],
              shapes: Optional[Mapping[str, Sequence[object]]] = None,
              dtypes: Optional[Mapping[str, str]] = None,
              fold_constants: bool = True) -> IRModule:
    """Imports an ONNX model (a path or an ``onnx.ModelProto``) as an ``IRModule``.

    Args:
      model: path to a ``.onnx`` file, or a ``ModelProto``.
      shapes: overrides graph input shapes by name (``None``/``"?"``/-1 for an
        unknown dim; a string names a symbolic dim).
      dtypes: overrides graph input element types by name.
      fold_constants: evaluate nodes whose inputs are all known at import
        time (with ONNX's reference implementation).

    Raises ``UnsupportedError`` (a ``CompileError``) naming the op type, node
    name and opset of anything that cannot be converted exactly, and
    ``OnnxImportError`` (also a ``CompileError``) for a malformed model
    (attributes of the wrong kind or out of range, initializers whose data
    does not match their dims, duplicate names, tensors too large to exist).
    Any other exception from a converter is an importer bug; it is raised
    as ``UnexpectedImportError`` (a ``CompileError`` naming the node).
    """
    return _import(model, shapes, dtypes, fold_constants, None)[0]


def import_with_params(model, shapes: Optional[Mapping[str, Sequence[object]]] = None,
                       dtypes: Optional[Mapping[str, str]] = None) -> Tuple[IRModule, Dict[str, np.ndarray]]:
    """``from_onnx`` with the weights as parameters, as TVM 0.19's ``freeze_params=False``.

    ``main`` takes the graph inputs (an initializer the graph also lists as an input
    stays in its place), then one Var per other initializer the program uses, named
    after it, in the graph's initializer order; the second result maps every
    initializer's name to its value. Integer initializers (shapes, axes, indices) stay
    constants that the importer reads (TVM makes them Vars too and reads their values).
    """
    mod, imp = _import(model, shapes, dtypes, True, {})
    return mod, imp.param_arrays


def _import(model, shapes, dtypes, fold_constants: bool, param_vars: Optional[dict]):
    """Runs the importer; ``param_vars`` ({} or None) is ``_Importer.param_vars``."""
    import onnx
    if isinstance(model, (str, os.PathLike)):
        path = os.fspath(model)
        source = os.path.basename(path)
        model = onnx.load(path)
    else:
        if not isinstance(model, onnx.ModelProto):
            raise TypeError(f"from_onnx takes a path or an onnx.ModelProto, got {type(model).__name__}")
        source = model.graph.name or "model.onnx"
    model = fuse_qdq(model) or model  # QDQ groups -> QLinear ops, as onnxruntime (issue 33)
    imp = _Importer(model, shapes, dtypes, source, fold_constants)
    imp.param_vars = param_vars
    try:
        return imp.run(), imp
    except CompileError:
        raise
    except (Exception, RecursionError) as e:  # noqa: BLE001 - last resort: see UnexpectedImportError
        if imp.current is not None:
            idx, node = imp.current
            where = f"ONNX {node.op_type} node '{imp._label(idx, node)}' (opset {imp.opset})"
            op_type, label = node.op_type, imp._label(idx, node)
        else:
            where, op_type, label = f"ONNX model '{source}'", None, None
        raise UnexpectedImportError(
            f"{where}: internal error in the importer ({type(e).__name__}: {str(e)[:200]}); the model is "
            "probably malformed, but the importer should have said how: please report it",
            e, op_type, label, imp.opset) from e
