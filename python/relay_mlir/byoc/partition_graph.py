"""``PartitionGraph(mod_name="default", bind_constants=True)``: each region becomes an
external function.

TVM 0.19's pass. After flattening tuples that leave a region and dropping ``"default"``
annotations, the regions of each function (``AnnotatedRegionSet``: ids in post order) are
lifted out, in post order at each region's first ``compiler_end``, as global functions
``tvmgen_<mod_name>_<compiler>_<function>_<id>`` with exactly the attributes ``Compiler``,
``global_symbol`` (its own name), ``Primitive=1`` and ``Inline=1``. Their parameters are
``<compiler>_<id>_i<k>`` (k: the input's position among the region's ``compiler_begin``s);
constant inputs are bound inside. A region with several outputs returns a tuple that the
caller reads with ``TupleGetItem``. Every function with a ``Compiler`` attribute is renamed
with the ``tvmgen_<mod_name>_`` prefix, calls included.

The external functions are what a codegen registered for their ``Compiler`` name gets; with
none registered, ``relay_mlir.compile`` lowers them like any other function, so a partitioned
module always runs.
"""
from __future__ import annotations

import re
from typing import Dict, List, Optional, Tuple as PyTuple

from ..errors import CompileError
from ..expr import Call, Constant, Expr, Function, GlobalVar, Tuple, TupleGetItem, Var
from ..expr_functor import ExprMutator
from ..module import IRModule
from ..pass_infra import ModulePass, PassContext, PassInfo, _shallow_copy
from .annotations import (DEFAULT_TARGET, annotation_target, compiler_end, is_compiler_begin,
                          is_compiler_end)
from .module_pass import type_if_possible, with_body, with_return_types
from .regions import AnnotatedRegion, AnnotatedRegionSet

__all__ = ["PartitionGraph", "mangled_name", "external_functions"]


def mangled_name(mod_name: str, name: str) -> str:
    """TVM's ``get_name_mangled``: ``tvmgen_<mod_name>_<name>``, non-identifier characters
    replaced by ``_``."""
    return re.sub(r"[^0-9A-Za-z_]", "_", f"tvmgen_{mod_name}_{name}" if mod_name else f"tvmgen_{name}")


class _Rewrite(ExprMutator):
    """Post-order rewrite of annotation calls by ``fn(pre, post)``."""

    iterative_scopes = True

    def __init__(self, fn) -> None:
        super().__init__()
        self.fn = fn

    def visit_call(self, call: Call) -> Expr:
        return self.fn(call, super().visit_call(call))


def _flatten_tuple_outputs(pre: Call, post: Expr) -> Expr:
    if is_compiler_end(pre) and isinstance(post.args[0], Tuple):
        t = annotation_target(pre)
        return Tuple([compiler_end(f, t) for f in post.args[0].fields])
    return post


def _drop_default(pre: Call, post: Expr) -> Expr:
    if annotation_target(pre) == DEFAULT_TARGET:
        return post.args[0]
    return post


def _strip_all(pre: Call, post: Expr) -> Expr:
    return post.args[0] if annotation_target(pre) is not None else post


def _input_types(mod: IRModule) -> Dict[Expr, object]:
    """The type of each annotation's value, by typing the module without annotations (empty
    if it does not type-check: the external functions' parameters stay untyped)."""
    stripped = _shallow_copy(mod)
    rewriters = {}
    for gv, fn in mod.functions.items():
        rw = rewriters[gv] = _Rewrite(_strip_all)
        stripped.functions[gv] = rw.visit(fn)
    try:
        stripped.to_mlir(infer=True)
    except (CompileError, ValueError, TypeError):
        return {}
    types = {}
    for rw in rewriters.values():
        for old, new in rw.memo_map.items():
            t = getattr(new, "_checked_type", None)
            if t is not None and annotation_target(old) is not None:
                types[old] = t
    return types


class _RegionFunction:
    def __init__(self) -> None:
        self.args: List[PyTuple[Var, Expr]] = []
        self.inputs: Dict[Expr, Var] = {}
        self.outputs: Dict[Expr, Expr] = {}
        self.call: Optional[Call] = None


def _is_constant(e: Expr) -> bool:
    return isinstance(e, Constant) or (isinstance(e, Tuple) and all(isinstance(f, Constant) for f in e.fields))


class _Partitioner(ExprMutator):
    iterative_scopes = True

    def __init__(self, mod: IRModule, regions: AnnotatedRegionSet, types: Dict[Expr, object],
                 bind_constants: bool) -> None:
        super().__init__()
        self.mod, self.regions, self.types, self.bind = mod, regions, types, bind_constants
        self.meta: Dict[AnnotatedRegion, _RegionFunction] = {}

    def region(self, call: Call) -> AnnotatedRegion:
        r = self.regions.get_region(call)
        if r is None:
            raise CompileError(f"PartitionGraph: {call.op.name}[{annotation_target(call)}] is in "
                               "no region")
        return r

    def visit_call(self, call: Call) -> Expr:
        post = super().visit_call(call)
        if is_compiler_begin(call):
            return self.region_input(call, post)
        if is_compiler_end(call):
            region = self.region(call)
            meta = self.meta.setdefault(region, _RegionFunction())
            if meta.call is None:
                self.create_function(region, meta, call)
            return meta.outputs[call.args[0]]
        return post

    def region_input(self, call: Call, post: Call) -> Var:
        parent = call.args[0]
        while is_compiler_begin(parent) or is_compiler_end(parent):
            parent = parent.args[0]
        region = self.region(call)
        meta = self.meta.setdefault(region, _RegionFunction())
        if parent in meta.inputs:
            return meta.inputs[parent]
        index = next(i for i, b in enumerate(region.ins) if b is call)
        var = Var(f"{region.target}_{region.id}_i{index}", self.types.get(call))
        meta.args.append((var, post.args[0]))
        meta.inputs[parent] = var
        return var

    def create_function(self, region: AnnotatedRegion, meta: _RegionFunction, end: Call) -> None:
        fields, index = [], {}
        for out in region.outs:
            node = out.args[0]
            if node not in index:
                fields.append(self.visit(node))
                index[node] = len(index)
        params, actuals, bound = [], [], {}
        for var, value in meta.args:
            if self.bind and _is_constant(value):
                bound[var] = value
            else:
                params.append(var)
                actuals.append(value)
        body = fields[0] if len(fields) == 1 else Tuple(fields)
        if bound:
            body = _Bind(bound).visit(body)
        name = f"{region.target}_{region.func_name}_{region.id}"
        if self.mod.lookup(name) is not None:
            raise CompileError(f"PartitionGraph: global function {name} already exists")
        gv = GlobalVar(name)
        self.mod.functions[gv] = Function(params, body, attrs={
            "global_symbol": name, "Primitive": 1, "Compiler": region.target, "Inline": 1})
        meta.call = Call(gv, actuals)
        for node, i in index.items():
            meta.outputs[node] = meta.call if len(index) == 1 else TupleGetItem(meta.call, i)


class _Bind(ExprMutator):
    def __init__(self, values: Dict[Var, Expr]) -> None:
        super().__init__()
        self.memo_map.update(values)


class _Rename(ExprMutator):
    iterative_scopes = True

    def __init__(self, names: Dict[str, GlobalVar]) -> None:
        super().__init__()
        self.names = names

    def visit_global_var(self, gv: GlobalVar) -> Expr:
        return self.names.get(gv.name_hint, gv)


def _mangle(mod: IRModule, mod_name: str) -> IRModule:
    names = {gv.name_hint: GlobalVar(mangled_name(mod_name, gv.name_hint))
             for gv, fn in mod.functions.items() if fn.attrs.get("Compiler") is not None}
    out = _shallow_copy(mod)
    out.functions = {}
    for gv, fn in mod.functions.items():
        new = with_body(fn, _Rename(names).visit(fn.body))
        if gv.name_hint in names:
            attrs = dict(fn.attrs, global_symbol=names[gv.name_hint].name_hint)
            new = Function(new.params, new.body, new.ret_type, new.type_params, attrs)
            gv = names[gv.name_hint]
        out.functions[gv] = new
    return out


class PartitionGraph(ModulePass):
    """``relay.transform.PartitionGraph(mod_name="default", bind_constants=True)`` (PassInfo
    "PartitionGraph", level 0). The result is typed when the input module type-checks."""

    def __init__(self, mod_name: str = "default", bind_constants: bool = True) -> None:
        if not isinstance(mod_name, str):
            raise TypeError(f"PartitionGraph: mod_name must be a string, got {mod_name!r}")
        self._info = PassInfo(0, "PartitionGraph")
        self.mod_name, self.bind_constants = mod_name, bool(bind_constants)

    def _apply(self, mod: IRModule, ctx: PassContext) -> IRModule:
        out = _shallow_copy(mod)
        for gv, fn in list(out.functions.items()):
            fn = with_body(fn, _Rewrite(_flatten_tuple_outputs).visit(fn.body))
            out.functions[gv] = with_body(fn, _Rewrite(_drop_default).visit(fn.body))
        types = _input_types(out)
        for gv, fn in list(out.functions.items()):
            if not isinstance(fn, Function):
                continue
            regions = AnnotatedRegionSet.create(fn, gv.name_hint)
            body = _Partitioner(out, regions, types, self.bind_constants).visit(fn.body)
            out.functions[gv] = with_body(fn, body)
        out = _mangle(out, self.mod_name)
        if type_if_possible(out) is None:
            with_return_types(out)  # TVM's PartitionGraph ends typed: every ret_type is set
        return out


def external_functions(mod: IRModule) -> List[PyTuple[GlobalVar, Function]]:
    """The module's external functions (those with a ``Compiler`` attribute), in module order:
    what a code generator registered for that compiler name is to receive (the hook of the
    codegen part of issue 34; until then relay-mlir lowers them itself)."""
    if not isinstance(mod, IRModule):
        raise TypeError(f"external_functions expects an IRModule, got {mod!r}")
    return [(gv, fn) for gv, fn in mod.functions.items()
            if isinstance(fn, Function) and fn.attrs.get("Compiler") is not None]
