"""Bring your own codegen (BYOC): the passes that cut a module into external functions.

``MergeComposite`` → ``AnnotateTarget`` → ``MergeCompilerRegions`` → ``PartitionGraph``, with
TVM 0.19's semantics and outputs (docs/byoc.md). Operators are offered to a compiler with
``relay_mlir.op.register_op_attr(op, "target.<compiler>", fn)``, composites with a pattern
table (``relay_mlir.op.contrib.register_pattern_table``).
"""
from .annotate_target import AnnotateTarget
from .annotations import compiler_begin, compiler_end
from .merge_compiler_regions import MergeCompilerRegions
from .merge_composite import MergeComposite
from .partition_graph import PartitionGraph, external_functions
from .regions import AnnotatedRegion, AnnotatedRegionSet

__all__ = ["MergeComposite", "AnnotateTarget", "MergeCompilerRegions", "PartitionGraph",
           "compiler_begin", "compiler_end", "AnnotatedRegion", "AnnotatedRegionSet",
           "external_functions"]
