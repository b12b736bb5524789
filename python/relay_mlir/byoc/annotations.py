"""The region annotations of BYOC: ``annotation.compiler_begin`` / ``annotation.compiler_end``.

TVM 0.19's ``relay.op.annotation.compiler_begin(data, compiler)`` marks where a value enters
a region that ``compiler`` will compile, ``compiler_end`` where it leaves one. ``AnnotateTarget``
inserts them, ``MergeCompilerRegions`` removes those inside merged regions and
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

__all__ = ["compiler_begin", "compiler_end", "is_compiler_begin", "is_compiler_end",
           "annotation_target", "DEFAULT_TARGET"]

DEFAULT_TARGET = "default"
BEGIN, END = "annotation.compiler_begin", "annotation.compiler_end"


def _annotate(name: str, data: Expr, compiler: str) -> Call:
    if not isinstance(compiler, str) or not compiler:
        raise TypeError(f"{name}: the compiler must be a non-empty string, got {compiler!r}")
    out = Call(Op.get(name), [data], {"compiler": compiler})
    out._checked_type = getattr(data, "_checked_type", None)
    return out


def compiler_begin(data: Expr, compiler: str) -> Call:
    """``data`` entering a region of ``compiler``."""
    return _annotate(BEGIN, data, compiler)


def compiler_end(data: Expr, compiler: str) -> Call:
    """``data`` leaving a region of ``compiler``."""
    return _annotate(END, data, compiler)


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
