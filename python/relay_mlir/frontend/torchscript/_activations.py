"""Activation functions TorchScript keeps as single ATen ops (PyTorch's definitions):

* ``hardsigmoid(x) = relu6(x + 3) / 6``, ``hardswish(x) = x * hardsigmoid(x)``;
* ``elu(x, alpha, scale, input_scale) = scale * (x if x > 0 else alpha * (exp(x * input_scale) - 1))``;
* ``prelu(x, w)``: ``x if x > 0 else w * x``, ``w`` one slope or one per channel (dim 1);
* ``softplus(x, beta, threshold) = x if beta * x > threshold else log(1 + exp(beta * x)) / beta``;
* ``mish(x) = x * tanh(softplus(x))``;
* ``clamp_min(x, m) = max(x, m)``, ``clamp_max(x, m) = min(x, m)`` (a number bound).
"""
from __future__ import annotations

import numpy as np

from ... import expr as E
from ... import op
from ..torch_ops._base import _Ctx, _TV
from ._registry import register


def _k(value: float, dtype: str) -> E.Constant:
    return E.Constant(np.array(value, dtype))


def _hardsigmoid(x: E.Expr, dtype: str) -> E.Expr:
    return op.clip(x + _k(3.0, dtype), 0.0, 6.0) / _k(6.0, dtype)


@register("hardsigmoid", "hardsigmoid_")
def _hardsigmoid_op(c: _Ctx) -> _TV:
    x = c.tv(c.a["self"])
    return c.result(_hardsigmoid(x.expr, x.dtype))


@register("hardswish", "hardswish_")
def _hardswish(c: _Ctx) -> _TV:
    x = c.tv(c.a["self"])
    return c.result(x.expr * _hardsigmoid(x.expr, x.dtype))


@register("elu", "elu_")
def _elu(c: _Ctx) -> _TV:
    x = c.tv(c.a["self"])
    alpha, scale, in_scale = (float(c.a.get(k, 1.0)) for k in ("alpha", "scale", "input_scale"))
    neg = _k(alpha, x.dtype) * (op.exp(x.expr * _k(in_scale, x.dtype)) - _k(1.0, x.dtype))
    return c.result(_k(scale, x.dtype) * op.where(op.greater(x.expr, _k(0.0, x.dtype)), x.expr, neg))


@register("prelu", "_prelu_kernel")
def _prelu(c: _Ctx) -> _TV:
    x, w = c.tv(c.a["self"]), c.tv(c.a["weight"])
    size = int(np.prod(w.shape)) if w.shape else 1
    if size != 1 and (x.ndim < 2 or size != x.shape[1]):
        raise c.unsupported(f"{size} slopes for an input of shape {list(x.shape)}")
    if size == 1:
        slope = op.reshape(w.expr, ())
    else:
        slope = op.reshape(w.expr, (size,) + (1,) * (x.ndim - 2))
    return c.result(op.where(op.greater(x.expr, _k(0.0, x.dtype)), x.expr, x.expr * slope))


def _softplus(x: E.Expr, dtype: str, beta: float, threshold: float) -> E.Expr:
    bx = x * _k(beta, dtype)
    soft = op.log(op.exp(bx) + _k(1.0, dtype)) / _k(beta, dtype)
    return op.where(op.greater(bx, _k(threshold, dtype)), x, soft)


@register("softplus")
def _softplus_op(c: _Ctx) -> _TV:
    x = c.tv(c.a["self"])
    return c.result(_softplus(x.expr, x.dtype, float(c.a.get("beta", 1.0)), float(c.a.get("threshold", 20.0))))


@register("mish", "mish_")
def _mish(c: _Ctx) -> _TV:
    x = c.tv(c.a["self"])
    return c.result(x.expr * op.tanh(_softplus(x.expr, x.dtype, 1.0, 20.0)))


@register("clamp_min", "clamp_min_", "clamp_max", "clamp_max_")
def _clamp_one_side(c: _Ctx) -> _TV:
    x = c.tv(c.a["self"])
    _, dtype = c.out()
    packet = c.node.target._schema.name.split("::")[-1].rstrip("_")
    bound = c.a["min"] if packet == "clamp_min" else c.a["max"]
    if not isinstance(bound, (int, float)):
        raise c.unsupported("a tensor bound is not supported")
    fn = op.maximum if packet == "clamp_min" else op.minimum
    return c.result(fn(c.ex(x, dtype), _k(bound, dtype)))
