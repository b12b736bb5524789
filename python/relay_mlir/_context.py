"""Contexts with the relay dialect loaded.

Every ``relay_mlir.ir.Context`` already has the relay dialect, the dialects
it lowers to and every relay pass registered (see python/SiteInitialize.cpp);
``make_context`` exists so callers need not know that.

Example::

    from relay_mlir._context import make_context
    with make_context():
        ...
"""
from __future__ import annotations

from . import ir


def make_context() -> ir.Context:
    """Returns a new Context with relay and its lowering dialects loaded.

    It allows unregistered dialects: the lowering emits IREE's util/hal ops
    (ADT and reference values, relay-eliminate-recursion's frame stacks),
    which this MLIR build does not contain, in generic form.
    """
    ctx = ir.Context()
    ctx.allow_unregistered_dialects = True
    return ctx
