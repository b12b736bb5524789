"""Bring your own codegen (BYOC): the passes that cut a module into external functions.

``MergeComposite`` → ``AnnotateTarget`` → ``MergeCompilerRegions`` → ``PartitionGraph``, with
TVM 0.19's semantics and outputs (docs/byoc.md). Operators are offered to a compiler with
``relay_mlir.op.register_op_attr(op, "target.<compiler>", fn)``, composites with a pattern
table (``relay_mlir.op.contrib.register_pattern_table``). At compile time each external
function goes to the code generator registered for its ``Compiler`` (``register_codegen``),
which returns MLIR, a C kernel or an IREE device for it (``codegen``); ``refacc`` is the
reference accelerator that shows how.
"""
from .annotate_target import AnnotateTarget
from .annotations import compiler_begin, compiler_end
from .codegen import (MLIR, CSource, Device, ObjectFile, get_codegen, register_codegen,
                      registered_codegens, unregister_codegen)
from .merge_compiler_regions import MergeCompilerRegions
from .merge_composite import MergeComposite
from .partition_graph import PartitionGraph, external_functions
from .regions import AnnotatedRegion, AnnotatedRegionSet
from .signature import Signature, TensorSpec, signature

__all__ = ["MergeComposite", "AnnotateTarget", "MergeCompilerRegions", "PartitionGraph",
           "compiler_begin", "compiler_end", "AnnotatedRegion", "AnnotatedRegionSet",
           "external_functions", "register_codegen", "get_codegen", "unregister_codegen",
           "registered_codegens", "MLIR", "CSource", "ObjectFile", "Device", "signature", "Signature",
           "TensorSpec"]
