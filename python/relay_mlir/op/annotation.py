"""Annotation operators: ``relay_mlir.op.annotation`` (``tvm.relay.op.annotation``).

``compiler_begin(data, compiler)`` marks where a value enters a region that ``compiler`` will
compile, ``compiler_end(data, compiler)`` where it leaves one (BYOC: ``AnnotateTarget`` inserts
them, ``PartitionGraph`` turns each region into an external function; docs/byoc.md). They are
markers, not computations: emission and type inference treat each as its value. Relay's text
format prints and parses them as TVM does (``annotation.compiler_begin(%x, compiler="dnnl")``).

>>> import relay_mlir as relay
>>> b = compiler_begin(relay.var("x"), "dnnl")
>>> b.op.name, b.attrs["compiler"]
('annotation.compiler_begin', 'dnnl')
"""
from __future__ import annotations

from ..expr import Call, Expr, Op, TupleWrapper

__all__ = ["compiler_begin", "compiler_end"]


def _annotate(name: str, data: Expr, compiler: str) -> Call:
    if isinstance(data, TupleWrapper):
        data = data.astuple()
    if not isinstance(data, Expr):
        raise TypeError(f"{name}: the annotated value must be a relay expression, got {data!r}")
    if not isinstance(compiler, str) or not compiler:
        raise TypeError(f"{name}: the compiler must be a non-empty string, got {compiler!r}")
    out = Call(Op.get(name), [data], {"compiler": compiler})
    out._checked_type = getattr(data, "_checked_type", None)
    return out


def compiler_begin(data: Expr, compiler: str) -> Call:
    """``data`` entering a region of ``compiler`` (``annotation.compiler_begin``)."""
    return _annotate("annotation.compiler_begin", data, compiler)


def compiler_end(data: Expr, compiler: str) -> Call:
    """``data`` leaving a region of ``compiler`` (``annotation.compiler_end``)."""
    return _annotate("annotation.compiler_end", data, compiler)
