"""Convolutions: ``conv1d/2d/3d``, ``convolution`` and ``conv_transpose2d``."""
from __future__ import annotations

from typing import Any


from ...op import nn
from ._base import _Ctx, _TV, _register


def _conv(c: _Ctx, x: Any, w: Any, b: Any, stride, padding, dilation, groups: int,
          transposed: bool = False, output_padding=None) -> _TV:
    xt, wt = c.tv(x), c.tv(w)
    nd = xt.ndim - 2
    if isinstance(padding, str):
        if padding == "valid":
            padding = [0] * nd
        elif padding == "same":
            ks = wt.shape[2:]
            dil = list(dilation) * (nd // len(dilation)) if len(dilation) < nd else list(dilation)
            total = [d * (k - 1) for d, k in zip(dil, ks)]
            if any(t % 2 for t in total):
                raise c.unsupported("padding='same' with an even kernel is not supported")
            padding = [t // 2 for t in total]
        else:
            raise c.unsupported(f"padding='{padding}' is not supported")
    rep = lambda v: list(v) * nd if len(v) == 1 else list(v)  # noqa: E731
    stride, padding, dilation = rep(stride), rep(padding), rep(dilation)
    if transposed:
        if nd != 2:
            raise c.unsupported(f"{nd}-d transposed convolution is not supported")
        y = nn.conv2d_transpose(xt.expr, wt.expr, strides=stride, padding=padding, dilation=dilation,
                                groups=groups, channels=wt.shape[1] * groups,
                                kernel_size=wt.shape[2:], output_padding=rep(output_padding or [0]))
    elif nd == 2:
        y = nn.conv2d(xt.expr, wt.expr, strides=stride, padding=padding, dilation=dilation,
                      groups=groups, channels=wt.shape[0], kernel_size=wt.shape[2:])
    elif nd == 1:
        y = nn.conv1d(xt.expr, wt.expr, strides=stride, padding=padding, dilation=dilation,
                      groups=groups, channels=wt.shape[0], kernel_size=wt.shape[2:])
    elif nd == 3:
        y = nn.conv3d(xt.expr, wt.expr, strides=stride, padding=padding, dilation=dilation,
                      groups=groups, channels=wt.shape[0], kernel_size=wt.shape[2:])
    else:
        raise c.unsupported(f"{nd}-d convolution is not supported")
    if b is not None:
        y = nn.bias_add(y, c.ex(b), axis=1)
    return c.result(y)


@_register("conv1d", "conv2d", "conv3d")
def _convnd(c: _Ctx) -> _TV:
    a = c.a
    return _conv(c, a["input"], a["weight"], a.get("bias"), a["stride"], a["padding"], a["dilation"],
                 int(a["groups"]))


@_register("convolution", "_convolution")
def _convolution(c: _Ctx) -> _TV:
    a = c.a
    return _conv(c, a["input"], a["weight"], a.get("bias"), a["stride"], a["padding"], a["dilation"],
                 int(a["groups"]), bool(a["transposed"]), a.get("output_padding"))


@_register("conv_transpose2d")
def _conv_transpose2d(c: _Ctx) -> _TV:
    a = c.a
    return _conv(c, a["input"], a["weight"], a.get("bias"), a["stride"], a["padding"], a["dilation"],
                 int(a["groups"]), True, a.get("output_padding"))
