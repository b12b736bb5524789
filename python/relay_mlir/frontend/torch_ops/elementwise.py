"""Elementwise ATen ops: activations, arithmetic, comparisons, casts, identities."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from ... import expr as E
from ... import op
from ...op import nn
from ..common import round_half_to_even
from ._base import _Ctx, _TV, _const_np, _dtype_name, _has_tv, _packet, _register


def _unary(relay_fn):
    def conv(c: _Ctx) -> _TV:
        _, dtype = c.out()
        return c.result(relay_fn(c.ex(c.a["self"], dtype)))
    return conv


for _name, _fn in {
    "relu": nn.relu, "sigmoid": op.sigmoid, "tanh": op.tanh, "exp": op.exp, "log": op.log,
    "sqrt": op.sqrt, "rsqrt": op.rsqrt, "neg": op.negative, "abs": op.abs, "erf": op.erf,
    "sin": op.sin, "cos": op.cos, "floor": op.floor, "ceil": op.ceil,
    "trunc": op.trunc, "sign": op.sign, "log2": op.log2, "log10": op.log10,
}.items():
    _register(_name)(_unary(_fn))


@_register("round.default")
def _round(c: _Ctx) -> _TV:
    # torch.round rounds halves to even; relay.round (TVM's) away from zero
    _, dtype = c.out()
    x = c.ex(c.a["self"], dtype)
    if not dtype.startswith(("float", "bfloat")):
        return c.result(x)
    return c.result(round_half_to_even(x, E.Constant(np.array(0.5, dtype=dtype))))


@_register("relu_", "relu6", "hardtanh", "hardtanh_", "clamp", "clip")
def _clamp(c: _Ctx) -> _TV:
    packet, _ = _packet(c.node.target)
    x = c.a["self"]
    if packet in ("relu_",):
        return c.result(nn.relu(c.ex(x)))
    if packet == "relu6":
        lo, hi = 0.0, 6.0
    elif packet.startswith("hardtanh"):
        lo, hi = c.a["min_val"], c.a["max_val"]
    else:
        lo, hi = c.a.get("min"), c.a.get("max")
        if _has_tv([lo, hi]) or _const_np(lo) is not None or _const_np(hi) is not None:
            raise c.unsupported("tensor bounds are not supported")
    shape, dtype = c.out()
    info = np.finfo(dtype) if dtype.startswith("float") else np.iinfo(dtype)
    lo = float(info.min) if lo is None else float(lo)
    hi = float(info.max) if hi is None else float(hi)
    return c.result(op.clip(c.ex(x, dtype), lo, hi))


@_register("gelu")
def _gelu(c: _Ctx) -> _TV:
    x = c.tv(c.a["self"])
    approx = c.a.get("approximate", "none")
    if approx == "none":
        return c.result(nn.gelu(x.expr))
    if approx == "tanh":  # 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
        k = lambda v: E.Constant(np.array(v, x.dtype))  # noqa: E731
        inner = k(math.sqrt(2.0 / math.pi)) * (x.expr + k(0.044715) * x.expr * x.expr * x.expr)
        return c.result(k(0.5) * x.expr * (k(1.0) + op.tanh(inner)))
    raise c.unsupported(f"approximate='{approx}' is not supported")


@_register("silu")
def _silu(c: _Ctx) -> _TV:
    x = c.ex(c.a["self"])
    return c.result(x * op.sigmoid(x))


@_register("leaky_relu")
def _leaky_relu(c: _Ctx) -> _TV:
    return c.result(nn.leaky_relu(c.ex(c.a["self"]), alpha=float(c.a["negative_slope"])))


def _binary(relay_fn, compare: bool = False):
    def conv(c: _Ctx) -> _TV:
        x, y = c.a["self"], c.a["other"]
        if compare:
            dt = _common_dtype(c, x, y)
            return c.result(relay_fn(c.ex(x, dt), c.ex(y, dt)))
        _, dtype = c.out()
        lhs, rhs = c.ex(x, dtype), c.ex(y, dtype)
        alpha = c.a.get("alpha", 1)
        if alpha not in (None, 1):
            rhs = rhs * E.Constant(np.array(alpha, dtype))
        return c.result(relay_fn(lhs, rhs))
    return conv


def _common_dtype(c: _Ctx, x: Any, y: Any) -> str:
    import torch
    dts = []
    for v in (x, y):
        if isinstance(v, _TV):
            dts.append(getattr(torch, v.dtype))
        elif isinstance(v, torch.Tensor):
            dts.append(v.dtype)
    if not dts:
        return "float32"
    if len(dts) == 2:
        return _dtype_name(torch.promote_types(*dts))
    other = y if isinstance(x, (_TV, torch.Tensor)) else x
    if isinstance(other, float) and not dts[0].is_floating_point:
        return "float32"
    return _dtype_name(dts[0])


for _name, _fn in {"add": op.add, "sub": op.subtract, "mul": op.multiply, "maximum": op.maximum,
                   "minimum": op.minimum, "remainder": op.floor_mod,
                   "fmod": op.mod}.items():
    _register(_name, _name + "_")(_binary(_fn))
_register("max.other")(_binary(op.maximum))
_register("min.other")(_binary(op.minimum))
for _name, _fn in {"eq": op.equal, "ne": op.not_equal, "lt": op.less, "le": op.less_equal,
                   "gt": op.greater, "ge": op.greater_equal}.items():
    _register(_name)(_binary(_fn, compare=True))
_register("logical_and")(_binary(op.logical_and, compare=True))
_register("logical_or")(_binary(op.logical_or, compare=True))
_register("logical_not")(_unary(op.logical_not))


@_register("rsub")
def _rsub(c: _Ctx) -> _TV:
    _, dtype = c.out()
    alpha = c.a.get("alpha", 1)
    x = c.ex(c.a["self"], dtype)
    if alpha not in (None, 1):
        x = x * E.Constant(np.array(alpha, dtype))
    return c.result(op.subtract(c.ex(c.a["other"], dtype), x))


@_register("pow")
def _pow(c: _Ctx) -> _TV:
    _, dtype = c.out()
    if not dtype.startswith("float"):
        raise c.unsupported("integer pow is not supported")
    return c.result(op.power(c.ex(c.a["self"], dtype), c.ex(c.a["exponent"], dtype)))


@_register("log1p")
def _log1p(c: _Ctx) -> _TV:
    _, dtype = c.out()
    return c.result(op.log(c.ex(c.a["self"], dtype) + E.Constant(np.array(1, dtype))))


@_register("expm1")
def _expm1(c: _Ctx) -> _TV:
    _, dtype = c.out()
    return c.result(op.exp(c.ex(c.a["self"], dtype)) - E.Constant(np.array(1, dtype)))


@_register("div", "div_")
def _div(c: _Ctx) -> _TV:
    _, dtype = c.out()
    mode = c.a.get("rounding_mode")
    if mode is None:
        return c.result(op.divide(c.ex(c.a["self"], dtype), c.ex(c.a["other"], dtype)))
    x, y = c.tv(c.a["self"]), c.tv(c.a["other"])
    if mode == "floor":
        if dtype.startswith("float"):
            return c.result(op.floor(op.divide(c.ex(x, dtype), c.ex(y, dtype))))
        return c.result(op.floor_divide(c.ex(x, dtype), c.ex(y, dtype)))
    if mode == "trunc":
        if dtype.startswith("float"):
            return c.result(op.trunc(op.divide(c.ex(x, dtype), c.ex(y, dtype))))
        return c.result(op.divide(c.ex(x, dtype), c.ex(y, dtype)))
    raise c.unsupported(f"rounding_mode='{mode}' is not supported")


@_register("full_like", "zeros_like", "ones_like")
def _full_like(c: _Ctx) -> _TV:
    packet, _ = _packet(c.node.target)
    shape, dtype = c.out()
    value = {"zeros_like": 0, "ones_like": 1}.get(packet, c.a.get("fill_value"))
    if _has_tv([value]) or _const_np(value) is not None:
        raise c.unsupported("a tensor fill value is not supported")
    return c.result(E.Constant(np.full(shape, value, dtype)))


@_register("reciprocal")
def _reciprocal(c: _Ctx) -> _TV:
    _, dtype = c.out()
    return c.result(op.divide(E.Constant(np.array(1, dtype)), c.ex(c.a["self"], dtype)))


@_register("square")
def _square(c: _Ctx) -> _TV:
    x = c.ex(c.a["self"])
    return c.result(x * x)


@_register("where")
def _where(c: _Ctx) -> _TV:
    if "condition" not in c.a or c.a.get("self") is None:
        raise c.unsupported("only where(condition, self, other) is supported")
    _, dtype = c.out()
    return c.result(op.where(c.ex(c.a["condition"], "bool"), c.ex(c.a["self"], dtype),
                             c.ex(c.a["other"], dtype)))


@_register("masked_fill")
def _masked_fill(c: _Ctx) -> _TV:
    _, dtype = c.out()
    return c.result(op.where(c.ex(c.a["mask"], "bool"), c.ex(c.a["value"], dtype), c.ex(c.a["self"], dtype)))


@_register("_to_copy", "to", "type_as")
def _to(c: _Ctx) -> _TV:
    _, dtype = c.out()
    x = c.tv(c.a["self"])
    return c.result(x.expr if x.dtype == dtype else op.cast(x.expr, dtype))


@_register("clone", "contiguous", "alias", "detach", "lift_fresh_copy", "dropout", "feature_dropout",
           "alpha_dropout", "_assert_tensor_metadata")
def _identity(c: _Ctx) -> Any:
    packet, _ = _packet(c.node.target)
    if packet == "_assert_tensor_metadata":
        return None
    if packet in ("dropout", "feature_dropout", "alpha_dropout") and c.a.get("train"):
        raise c.unsupported("dropout in training mode; call model.eval() before importing")
    return c.tv(c.a.get("self", c.a.get("input")))


@_register("native_dropout")
def _native_dropout(c: _Ctx) -> Any:
    if c.a.get("train"):
        raise c.unsupported("dropout in training mode; call model.eval() before importing")
    x = c.tv(c.a["input"])
    return (x, None)
