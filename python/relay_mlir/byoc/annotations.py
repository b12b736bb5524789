"""The region annotations of BYOC: ``annotation.compiler_begin`` / ``annotation.compiler_end``.

The builders are ``relay_mlir.op.annotation``'s (TVM 0.19's
``relay.op.annotation.compiler_begin(data, compiler)``), re-exported here with the tests the
passes use. ``compiler_begin`` marks where a value enters a region that ``compiler`` will
compile, ``compiler_end`` where it leaves one. ``AnnotateTarget`` inserts them, ``MergeCompilerRegions`` removes those inside merged regions and
``PartitionGraph`` turns each region into an external function; they never reach code
generation. The target ``"default"`` means relay-mlir's own lowering.

>>> import relay_mlir as relay
>>> b = compiler_begin(relay.var("x"), "dnnl")
>>> b.op.name, b.attrs["compiler"], is_compiler_end(compiler_end(b, "dnnl"))
('annotation.compiler_begin', 'dnnl', True)
"""
from __future__ import annotations

from typing import Optional

from ..expr import Call, Expr, Op
from ..op.annotation import compiler_begin, compiler_end

__all__ = ["compiler_begin", "compiler_end", "is_compiler_begin", "is_compiler_end",
           "annotation_target", "DEFAULT_TARGET"]

DEFAULT_TARGET = "default"
BEGIN, END = "annotation.compiler_begin", "annotation.compiler_end"


def _is(e: object, name: str) -> bool:
    return isinstance(e, Call) and isinstance(e.op, Op) and e.op.name == name


def is_compiler_begin(e: object) -> bool:
    return _is(e, BEGIN)


def is_compiler_end(e: object) -> bool:
    return _is(e, END)


def annotation_target(e: Expr) -> Optional[str]:
    """The compiler of a begin/end annotation, None for any other expression."""
    if is_compiler_begin(e) or is_compiler_end(e):
        return e.attrs["compiler"]
    return None
