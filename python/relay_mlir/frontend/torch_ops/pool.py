"""Pooling: max, average and adaptive pools."""
from __future__ import annotations

from typing import Any


from ...op import nn
from ._base import _Ctx, _TV, _packet, _register


def _pool_args(c: _Ctx, nd: int):
    a = c.a
    rep = lambda v: [int(i) for i in v] * nd if len(v) == 1 else [int(i) for i in v]  # noqa: E731
    k = rep(a["kernel_size"])
    s = rep(a["stride"]) if a.get("stride") else k
    p = rep(a["padding"])
    return k, s, p


@_register("max_pool2d", "max_pool2d_with_indices", "max_pool1d", "max_pool3d",
           "max_pool1d_with_indices", "max_pool3d_with_indices")
def _max_pool(c: _Ctx) -> Any:
    packet, _ = _packet(c.node.target)
    x = c.tv(c.a["self"])
    nd = x.ndim - 2
    k, s, p = _pool_args(c, nd)
    d = c.a.get("dilation") or [1]
    d = [int(i) for i in d] * nd if len(d) == 1 else [int(i) for i in d]
    fn = {1: nn.max_pool1d, 2: nn.max_pool2d, 3: nn.max_pool3d}[nd]
    y = fn(x.expr, pool_size=k, strides=s, dilation=d, padding=p, ceil_mode=bool(c.a["ceil_mode"]))
    if packet.endswith("with_indices"):
        shape, dtype = c.out(0)
        return (_TV(y, shape, dtype), None)
    return c.result(y)


@_register("avg_pool2d", "avg_pool1d", "avg_pool3d")
def _avg_pool(c: _Ctx) -> _TV:
    x = c.tv(c.a["self"])
    nd = x.ndim - 2
    if c.a.get("divisor_override") is not None:
        raise c.unsupported("divisor_override is not supported")
    k, s, p = _pool_args(c, nd)
    fn = {1: nn.avg_pool1d, 2: nn.avg_pool2d, 3: nn.avg_pool3d}[nd]
    return c.result(fn(x.expr, pool_size=k, strides=s, padding=p, ceil_mode=bool(c.a["ceil_mode"]),
                       count_include_pad=bool(c.a["count_include_pad"])))


@_register("adaptive_avg_pool2d", "_adaptive_avg_pool2d", "adaptive_max_pool2d")
def _adaptive_pool(c: _Ctx) -> Any:
    packet, _ = _packet(c.node.target)
    x = c.tv(c.a["self"])
    if x.ndim != 4:
        raise c.unsupported("only 4-D (NCHW) inputs are supported")
    size = [int(v) for v in c.a["output_size"]]
    if packet == "adaptive_max_pool2d":
        y = nn.adaptive_max_pool2d(x.expr, output_size=size)
        shape, dtype = c.out(0)
        return (_TV(y, shape, dtype), None)
    if size == [1, 1]:
        return c.result(nn.global_avg_pool2d(x.expr))
    return c.result(nn.adaptive_avg_pool2d(x.expr, output_size=size))
