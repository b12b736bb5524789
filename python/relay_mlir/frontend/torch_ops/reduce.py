"""Reductions: ``sum``/``mean``/``amax``/..., ``max.dim``, ``argmax``, ``cumsum``, ``var``/``std``."""
from __future__ import annotations

from typing import List, Optional, Tuple

from ... import op
from ._base import _Ctx, _TV, _axis, _packet, _register


def _reduce_axes(c: _Ctx, x: _TV) -> Optional[List[int]]:
    dims = c.a.get("dim")
    if dims is None or (isinstance(dims, (list, tuple)) and len(dims) == 0):
        return None
    if isinstance(dims, int):
        dims = [dims]
    return [_axis(int(d), x.ndim) for d in dims]


def _reducer(relay_fn):
    def conv(c: _Ctx) -> _TV:
        _, dtype = c.out()
        x = c.tv(c.a["self"], dtype)
        return c.result(relay_fn(x.expr, axis=_reduce_axes(c, x), keepdims=bool(c.a.get("keepdim", False))))
    return conv


_register("mean")(_reducer(op.mean))
_register("sum")(_reducer(op.sum))
_register("amax")(_reducer(op.max))
_register("amin")(_reducer(op.min))
_register("prod")(_reducer(op.prod))


@_register("any", "all")
def _any_all(c: _Ctx) -> _TV:
    packet, _ = _packet(c.node.target)
    x = c.tv(c.a["self"], "bool")
    fn = op.any if packet == "any" else op.all
    return c.result(fn(x.expr, axis=_reduce_axes(c, x), keepdims=bool(c.a.get("keepdim", False))))


@_register("max.dim", "min.dim")
def _max_dim(c: _Ctx) -> Tuple[_TV, _TV]:
    packet, _ = _packet(c.node.target)
    x = c.tv(c.a["self"])
    axis = [_axis(int(c.a["dim"]), x.ndim)]
    keep = bool(c.a.get("keepdim", False))
    vals = (op.max if packet == "max" else op.min)(x.expr, axis=axis, keepdims=keep)
    idx = (op.argmax if packet == "max" else op.argmin)(x.expr, axis=axis, keepdims=keep)
    s0, d0 = c.out(0)
    s1, _ = c.out(1)
    return (_TV(vals, s0, d0), _TV(op.cast(idx, "int64"), s1, "int64"))


@_register("max.default", "min.default")
def _max_all(c: _Ctx) -> _TV:
    packet, _ = _packet(c.node.target)
    return c.result((op.max if packet == "max" else op.min)(c.ex(c.a["self"])))


@_register("argmax", "argmin")
def _argmax(c: _Ctx) -> _TV:
    packet, _ = _packet(c.node.target)
    x = c.tv(c.a["self"])
    dim = c.a.get("dim")
    keep = bool(c.a.get("keepdim", False))
    fn = op.argmax if packet == "argmax" else op.argmin
    y = fn(x.expr, axis=None if dim is None else [_axis(int(dim), x.ndim)], keepdims=keep)
    return c.result(op.cast(y, "int64"))


@_register("cumsum")
def _cumsum(c: _Ctx) -> _TV:
    _, dtype = c.out()
    x = c.tv(c.a["self"], dtype)
    return c.result(op.cumsum(x.expr, axis=_axis(int(c.a["dim"]), x.ndim)))


@_register("var", "std")
def _var(c: _Ctx) -> _TV:
    packet, _ = _packet(c.node.target)
    x = c.tv(c.a["self"])
    corr = c.a.get("correction")
    unbiased = c.a.get("unbiased")
    if corr is None:
        corr = 1 if unbiased in (None, True) else 0
    if corr not in (0, 1):
        raise c.unsupported(f"correction={corr} is not supported")
    fn = op.variance if packet == "var" else op.std
    return c.result(fn(x.expr, axis=_reduce_axes(c, x), keepdims=bool(c.a.get("keepdim", False)),
                       unbiased=bool(corr)))
