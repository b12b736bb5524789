"""Reductions and index-producing ONNX ops: Reduce*, ArgMax/ArgMin, TopK, CumSum."""
from __future__ import annotations

from typing import List, Optional

import numpy as np

from ._base import Node, register
from .elementwise import _float_only


def _axes(n: Node, input_since: int) -> Optional[List[int]]:
    """The reduction axes (None = all); None-or-noop handled by the caller."""
    if n.opset >= input_since:
        if n.has(1) and not n.is_const(1):
            return _axes_from_types(n)
        if n.has(1):
            return [int(a) for a in n.const(1, "axes").reshape(-1)]
        return None
    axes = n.attr("axes", None)
    return None if axes is None else [int(a) for a in axes]


def _axes_from_types(n: Node) -> List[int]:
    """Run-time axes recovered from the declared input and output shapes, when unambiguous."""
    import itertools
    xs, out = n.shape(0), n.static_out_shape()
    if xs is None or out is None or any(d is None for d in xs):
        raise n.unsupported("input 1 (axes) is only known at run time and the declared shapes "
                            "do not determine it")
    keep = bool(n.attr("keepdims", 1))
    r = len(xs)
    found = []
    if keep:
        if len(out) == r:
            cands = [tuple(i for i in range(r) if out[i] == 1 and xs[i] != 1)]
            if any(xs[i] == 1 for i in range(r)):
                cands = []  # reducing a size-1 dim or not cannot be told apart
            found = cands
    else:
        k = r - len(out)
        for axes in itertools.combinations(range(r), k):
            if [xs[i] for i in range(r) if i not in axes] == list(out):
                found.append(axes)
    if len(found) != 1 or not found[0]:
        raise n.unsupported("input 1 (axes) is only known at run time and the declared shapes "
                            "do not determine it uniquely")
    return list(found[0])


def _reduce(relay_name: str, input_since: int = 18, pre=None, post=None, float_only: bool = False):
    def conv(n: Node):
        if float_only:
            _float_only(n)
        keep = bool(n.attr("keepdims", 1))
        noop = bool(n.attr("noop_with_empty_axes", 0)) if n.opset >= input_since else False
        axes = _axes(n, input_since)
        if axes is not None and len(axes) == 0:
            axes = None
        x = n.expr(0)
        if axes is None and noop:
            return x if pre is None else pre(n, x)
        r = n.rank(0)
        if axes is not None:
            axes = sorted({a % r for a in axes})
        if pre is not None:
            x = pre(n, x)
        y = n.op(relay_name)(x, axis=axes, keepdims=keep)
        return y if post is None else post(n, y)
    return conv


def _square(n, x):
    return n.op("multiply")(x, x)


def _abs(n, x):
    return n.op("abs")(x)


def _sqrt(n, y):
    return n.op("sqrt")(y)


def _log(n, y):
    return n.op("log")(y)


register("ReduceSum", since=1)(_reduce("sum", 13))
register("ReduceMean", since=1)(_reduce("mean", 18))
register("ReduceMax", since=1)(_reduce("max", 18))
register("ReduceMin", since=1)(_reduce("min", 18))
register("ReduceProd", since=1)(_reduce("prod", 18))
register("ReduceSumSquare", since=1)(_reduce("sum", 18, pre=_square))
register("ReduceL1", since=1)(_reduce("sum", 18, pre=_abs))
register("ReduceL2", since=1)(_reduce("sum", 18, pre=_square, post=_sqrt, float_only=True))
register("ReduceLogSum", since=1)(_reduce("sum", 18, post=_log, float_only=True))


@register("ReduceLogSumExp", since=1)
def _reduce_log_sum_exp(n: Node):
    _float_only(n)
    keep = bool(n.attr("keepdims", 1))
    noop = bool(n.attr("noop_with_empty_axes", 0)) if n.opset >= 18 else False
    axes = _axes(n, 18)
    if axes is not None and len(axes) == 0:
        axes = None
    x = n.expr(0)
    if axes is None and noop:
        return n.op("log")(n.op("exp")(x))
    r = n.rank(0)
    axes = sorted({a % r for a in axes}) if axes is not None else list(range(r))
    m = n.op("max")(x, axis=axes, keepdims=True)
    s = n.op("sum")(n.op("exp")(n.op("subtract")(x, m)), axis=axes, keepdims=True)
    y = n.op("add")(n.op("log")(s), m)
    if not keep:
        y = n.op("squeeze")(y, axes)
    return y


def _arg(relay_name: str):
    def conv(n: Node):
        r = n.rank(0)
        axis = int(n.attr("axis", 0)) % r
        keep = bool(n.attr("keepdims", 1))
        last = bool(n.attr("select_last_index", 0))
        kw = {"select_last_index": True} if last else {}
        y = n.op(relay_name)(n.expr(0), axis=[axis], keepdims=keep, **kw)
        return n.op("cast")(y, "int64")
    return conv


register("ArgMax", since=1)(_arg("argmax"))
register("ArgMin", since=1)(_arg("argmin"))


@register("TopK", since=10)
def _topk(n: Node):
    r = n.rank(0)
    axis = int(n.attr("axis", -1)) % r
    if not n.is_const(1) and n.static_out_shape() is not None:
        k = n.static_out_shape()[axis]
    else:
        k = int(n.const(1, "k").reshape(()))
    largest = bool(n.attr("largest", 1))
    n.expect("sorted", 1, default=1)
    out = n.op("topk")(n.expr(0), k=k, axis=axis, ret_type="both", is_ascend=not largest, dtype="int64")
    return [out[0], out[1]]


@register("CumSum", since=11)
def _cumsum(n: Node):
    axis = int(n.const(1, "axis").reshape(()))
    exclusive = bool(n.attr("exclusive", 0))
    reverse = bool(n.attr("reverse", 0))
    x = n.expr(0)
    r = n.rank(0)
    axis %= r
    if reverse:
        x = n.op("reverse")(x, axis)
    y = n.op("cumsum")(x, axis=axis, exclusive=exclusive)
    if reverse:
        y = n.op("reverse")(y, axis)
    return y


@register("CumProd", since=26)
def _cumprod(n: Node):
    axis = int(n.const(1, "axis").reshape(()))
    exclusive = bool(n.attr("exclusive", 0))
    reverse = bool(n.attr("reverse", 0))
    x = n.expr(0)
    axis %= n.rank(0)
    if reverse:
        x = n.op("reverse")(x, axis)
    y = n.op("cumprod")(x, axis=axis, exclusive=exclusive)
    if reverse:
        y = n.op("reverse")(y, axis)
    return y


@register("Hardmax", since=13)
def _hardmax(n: Node):
    xs = n.shape(0)
    if xs is None:
        raise n.unsupported("the input rank is unknown")
    axis = int(n.attr("axis", -1)) % len(xs)
    if xs[axis] is None:
        raise n.unsupported("hardmax over an unknown dim")
    idx = n.op("argmax")(n.expr(0), axis=[axis], keepdims=False)
    dt = n.dtype(0)
    return n.op("one_hot")(idx, n.scalar(1, dtype=dt), n.scalar(0, dtype=dt), int(xs[axis]), axis, dt)
