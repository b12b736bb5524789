"""Annotated regions: the sets of nodes between ``compiler_begin`` and ``compiler_end``.

TVM 0.19's ``AnnotatedRegionSet`` for one function, built in post order (a call's arguments
first): every ``compiler_begin`` opens a new region numbered from 0; a node joins the region
of its first argument that is in an open region (not a ``compiler_end``) and the other
arguments' open regions are merged into it (their numbers disappear); a ``compiler_end``
closes its argument's region and is one of its outputs. ``MergeCompilerRegions`` and
``PartitionGraph`` work on these regions; ids are what ``PartitionGraph`` puts in names.
"""
from __future__ import annotations

from typing import Dict, List, Optional

from ..errors import CompileError
from ..expr import Call, Expr, If, Let, RefCreate, RefRead, RefWrite, Tuple, TupleGetItem
from ..expr_functor import ExprVisitor
from .annotations import annotation_target, is_compiler_begin, is_compiler_end

__all__ = ["AnnotatedRegion", "AnnotatedRegionSet"]


class AnnotatedRegion:
    """One region: ``id``, ``target``, ``func_name``, ``nodes``, ``ins`` (its
    ``compiler_begin`` calls) and ``outs`` (its ``compiler_end`` calls), in order."""

    def __init__(self, rid: int, target: str, func_name: str) -> None:
        self.id, self.target, self.func_name = rid, target, func_name
        self.nodes: set = set()
        self.ins: List[Call] = []
        self.outs: List[Call] = []

    def __repr__(self) -> str:
        return f"AnnotatedRegion({self.id}, {self.target!r})"


class AnnotatedRegionSet:
    """The regions of one function (``create(func, func_name)``)."""

    def __init__(self) -> None:
        self.regions: List[AnnotatedRegion] = []
        self._next_id = 0
        self._of: Dict[Expr, AnnotatedRegion] = {}

    @staticmethod
    def create(expr: Expr, func_name: str = "default") -> "AnnotatedRegionSet":
        rs = AnnotatedRegionSet()
        _Creator(rs, func_name).visit(expr)
        return rs

    def __iter__(self):
        return iter(list(self.regions))

    def get_region(self, e: Expr) -> Optional[AnnotatedRegion]:
        return self._of.get(e)

    def make_region(self, target: str, func_name: str) -> AnnotatedRegion:
        r = AnnotatedRegion(self._next_id, target, func_name)
        self._next_id += 1
        self.regions.append(r)
        return r

    def add_node(self, region: AnnotatedRegion, e: Expr) -> None:
        region.nodes.add(e)
        self._of[e] = region

    def merge(self, src: AnnotatedRegion, dest: AnnotatedRegion) -> None:
        """Moves ``src`` into ``dest``; ``src``'s outputs that fed ``dest`` become inner."""
        if src is dest:
            return
        for e in src.nodes:
            self.add_node(dest, e)
        dest.ins.extend(src.ins)
        dest.outs.extend(src.outs)
        inner_ins = [b for b in dest.ins if b.args[0] in src.nodes]
        for b in inner_ins:
            if b.args[0] in dest.outs:
                dest.outs.remove(b.args[0])
            dest.ins.remove(b)
        self.regions.remove(src)

    def add_to_region(self, dest: AnnotatedRegion, e: Expr) -> None:
        src = self.get_region(e)
        if src is not None:
            self.merge(src, dest)
        else:
            self.add_node(dest, e)


def _arg_list(e: Expr) -> List[Expr]:
    if isinstance(e, Call):
        return list(e.args)
    if isinstance(e, Tuple):
        return list(e.fields)
    if isinstance(e, TupleGetItem):
        return [e.tuple_value]
    if isinstance(e, Let):
        return [e.var, e.value, e.body]
    if isinstance(e, If):
        return [e.cond, e.true_branch, e.false_branch]
    if isinstance(e, RefCreate):
        return [e.value]
    if isinstance(e, (RefRead, RefWrite)):
        return [e.ref]
    return []


class _Creator(ExprVisitor):
    iterative_scopes = True

    def __init__(self, rs: AnnotatedRegionSet, func_name: str) -> None:
        super().__init__()
        self.rs, self.func_name = rs, func_name

    def _dispatch(self, e: Expr):
        out = super()._dispatch(e)
        if is_compiler_begin(e):
            region = self.rs.make_region(annotation_target(e), self.func_name)
            self.rs.add_node(region, e)
            region.ins.append(e)
        elif is_compiler_end(e):
            region = self.rs.get_region(e.args[0])
            if region is None:
                raise CompileError(f"PartitionGraph: cannot find the region that "
                                   f"compiler_end[{annotation_target(e)}] closes: its argument "
                                   "comes from no compiler_begin")
            if region.target != annotation_target(e):
                raise CompileError(f"PartitionGraph: compiler_end[{annotation_target(e)}] closes "
                                   f"a region of '{region.target}'")
            self.rs.add_node(region, e)
            region.outs.append(e)
        elif isinstance(e, (Call, Tuple, TupleGetItem, Let, If, RefCreate, RefRead, RefWrite)):
            self._join_arg_regions(e, _arg_list(e))
        return out

    def _join_arg_regions(self, e: Expr, args: List[Expr]) -> None:
        open_args = [a for a in args if not is_compiler_end(a)]
        region = next((self.rs.get_region(a) for a in open_args
                       if self.rs.get_region(a) is not None), None)
        for a in open_args:
            r = self.rs.get_region(a)
            if (r is None) != (region is None):
                raise CompileError("PartitionGraph: the arguments of an operation come both "
                                   "from inside and from outside annotated regions; annotate "
                                   "every input with compiler_begin (AnnotateTarget does)")
            if r is not None and r is not region:
                self.rs.merge(r, region)
        if region is not None:
            self.rs.add_to_region(region, e)
