"""Indexing: ``embedding``, ``index_select``, ``gather``."""
from __future__ import annotations


from ... import op
from ._base import _Ctx, _TV, _axis, _register


@_register("embedding")
def _embedding(c: _Ctx) -> _TV:
    # an index outside [0, rows) is PyTorch's IndexError: take's mode "fast" makes it a run-time
    # error (checked after the program's work), not a clamped row
    return c.result(op.take(c.ex(c.a["weight"]), c.ex(c.a["indices"]), axis=0, mode="fast"))


@_register("index_select")
def _index_select(c: _Ctx) -> _TV:
    x = c.tv(c.a["self"])
    return c.result(op.take(x.expr, c.ex(c.a["index"]), axis=_axis(int(c.a["dim"]), x.ndim),
                            mode="fast"))


@_register("gather")
def _gather(c: _Ctx) -> _TV:
    x = c.tv(c.a["self"])
    return c.result(op.gather(x.expr, _axis(int(c.a["dim"]), x.ndim), c.ex(c.a["index"])))
