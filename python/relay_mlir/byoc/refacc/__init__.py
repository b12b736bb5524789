"""refacc: the reference accelerator, the template a vendor copies (docs/byoc.md).

Importing it registers, for the compiler name ``"refacc"``:

- its pattern table (``patterns.py``: conv2d+bias+relu, dense, add, float32) with
  ``relay_mlir.op.contrib.register_pattern_table``;
- its code generator (``codegen.py``) with ``relay_mlir.byoc.register_codegen``: each external
  function becomes a C function calling the kernel library (``kernels.py``), built with the
  system C compiler and linked into IREE's CPU executable (route (b) of issue 34).

``partition_for_refacc(mod)`` runs the four BYOC passes, as TVM's ``partition_for_<vendor>``
functions do; ``relay_mlir.compile`` of the result runs refacc's C code for the refacc regions
and relay-mlir's code for the rest::

    import relay_mlir as relay
    from relay_mlir.byoc.refacc import partition_for_refacc
    exe = relay.compile(partition_for_refacc(mod), target="llvm-cpu")
"""
from __future__ import annotations

from ... import transform
from ...module import IRModule
from ...op.contrib import get_pattern_table, register_pattern_table
from ..codegen import register_codegen
from .codegen import refacc_codegen
from .patterns import pattern_table

__all__ = ["partition_for_refacc", "refacc_codegen", "pattern_table", "COMPILER"]

COMPILER = "refacc"

register_pattern_table(COMPILER, pattern_table)
register_codegen(COMPILER, refacc_codegen, override=True)


def partition_for_refacc(mod: IRModule) -> IRModule:
    """``mod`` with refacc's composites cut out into ``Compiler="refacc"`` functions."""
    return transform.Sequential([
        transform.MergeComposite(get_pattern_table(COMPILER)),
        transform.AnnotateTarget([COMPILER]),
        transform.MergeCompilerRegions(),
        transform.PartitionGraph(),
    ])(mod)
