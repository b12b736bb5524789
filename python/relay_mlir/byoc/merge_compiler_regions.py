"""``MergeCompilerRegions()``: neighbouring regions of one compiler become one region.

TVM 0.19's pass, on each function (not external ones): regions are built from the
annotations (``AnnotatedRegionSet``); visiting the ``compiler_end``s in post order, a
region absorbs each parent region (one feeding its ``compiler_begin``s) of the same target
unless the parent is *restricted*: a region of another target lies between them, so merging
would make a cycle (a region that both feeds and consumes the other target's region).
Restrictions pass from parents to children. Then every ``compiler_begin(compiler_end(x))``
whose two annotations are now in one region is replaced by ``x``.
"""
from __future__ import annotations

from typing import Dict, List, Set

from ..expr import Call, Expr, Function
from ..expr_functor import ExprMutator, ExprVisitor
from .annotations import annotation_target, is_compiler_begin, is_compiler_end
from .module_pass import FunctionMapPass
from .regions import AnnotatedRegion, AnnotatedRegionSet

__all__ = ["MergeCompilerRegions"]


class _RegionMerger(ExprVisitor):
    iterative_scopes = True

    def __init__(self, regions: AnnotatedRegionSet) -> None:
        super().__init__()
        self.regions = regions
        self.merged: Set[int] = set()
        self.restrictions: Dict[int, Set[int]] = {}

    def visit_call(self, call: Call) -> None:
        super().visit_call(call)
        if is_compiler_end(call):
            self.merge_parents(call)

    def parents(self, region: AnnotatedRegion) -> List[AnnotatedRegion]:
        out: List[AnnotatedRegion] = []
        for begin in region.ins:
            parent = self.regions.get_region(begin.args[0])
            if parent is not None and parent not in out:
                out.append(parent)
        return out

    def merge_parents(self, end: Call) -> None:
        region = self.regions.get_region(end)
        if region is None or region.id in self.merged:
            return
        mine = self.restrictions.setdefault(region.id, set())
        parents = self.parents(region)
        for parent in parents:
            mine |= self.restrictions.get(parent.id, set())
        for parent in parents:
            if parent.target != annotation_target(end):
                mine.add(parent.id)
                continue
            if parent.id in mine:
                continue
            self.regions.merge(parent, region)
            for r in self.regions:
                rs = self.restrictions.setdefault(r.id, set())
                if parent.id in rs:
                    rs.discard(parent.id)
                    rs.add(region.id)
        self.merged.add(region.id)


class _DropInnerAnnotations(ExprMutator):
    iterative_scopes = True

    def __init__(self, regions: AnnotatedRegionSet) -> None:
        super().__init__()
        self.regions = regions

    def visit_call(self, call: Call) -> Expr:
        post = super().visit_call(call)
        if is_compiler_begin(call) and is_compiler_end(call.args[0]):
            inside = self.regions.get_region(call)
            if inside is not None and inside is self.regions.get_region(call.args[0]):
                return post.args[0].args[0]
        return post


class MergeCompilerRegions(FunctionMapPass):
    """``relay.transform.MergeCompilerRegions()`` (PassInfo "MergeCompilerRegions", level 0)."""

    def __init__(self) -> None:
        super().__init__("MergeCompilerRegions")

    def transform(self, fn: Function, name: str) -> Function:
        regions = AnnotatedRegionSet.create(fn, name)
        _RegionMerger(regions).visit(fn)
        return _DropInnerAnnotations(regions).visit(fn)
