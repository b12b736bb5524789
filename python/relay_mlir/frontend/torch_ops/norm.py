"""Normalisation: ``batch_norm``, ``layer_norm``, ``group_norm``, ``softmax``/``log_softmax``."""
from __future__ import annotations

from typing import Any

import numpy as np

from ... import expr as E
from ... import op
from ...op import nn
from ._base import _Ctx, _TV, _packet, _register


def _with_statistics(c: _Ctx, y, native: bool) -> Any:
    """The op's result: ``y``; for the ``native_*`` forms the triple (y, mean, rstd), whose
    statistics are not converted (None)."""
    if not native:
        return c.result(y)
    shape, dtype = c.out(0)
    return (_TV(y, shape, dtype), None, None)


def _bn(c: _Ctx, x: Any, w: Any, b: Any, mean: Any, var: Any, eps: float) -> E.Expr:
    xt = c.tv(x)
    ch = xt.shape[1]
    one = lambda v, fill: c.ex(v) if v is not None else E.Constant(np.full((ch,), fill, xt.dtype))  # noqa: E731
    return nn.batch_norm(xt.expr, one(w, 1.0), one(b, 0.0), c.ex(mean), c.ex(var), axis=1,
                         epsilon=float(eps))[0]


@_register("batch_norm", "_native_batch_norm_legit_no_training", "_native_batch_norm_legit",
           "native_batch_norm", "_batch_norm_impl_index")
def _batch_norm(c: _Ctx) -> Any:
    packet, _ = _packet(c.node.target)
    a = c.a
    training = a.get("training", False) if packet != "_native_batch_norm_legit_no_training" else False
    if training or a.get("running_mean") is None:
        raise c.unsupported("batch norm in training mode (batch statistics); call model.eval() "
                            "before importing")
    y = _bn(c, a["input"], a.get("weight"), a.get("bias"), a["running_mean"], a["running_var"], a["eps"])
    return _with_statistics(c, y, packet != "batch_norm")


@_register("layer_norm", "native_layer_norm")
def _layer_norm(c: _Ctx) -> Any:
    packet, _ = _packet(c.node.target)
    a = c.a
    x = c.tv(a["input"])
    norm = list(a["normalized_shape"])
    eps = float(a["eps"])
    k = len(norm)
    w, b = a.get("weight"), a.get("bias")
    if k == 1:
        gamma = c.ex(w) if w is not None else E.Constant(np.ones(norm, x.dtype))
        beta = c.ex(b) if b is not None else E.Constant(np.zeros(norm, x.dtype))
        y = nn.layer_norm(x.expr, gamma, beta, axis=-1, epsilon=eps)
    else:  # normalise over the last k dims: flatten them, normalise, unflatten
        flat = int(np.prod(norm))
        xe = op.reshape(x.expr, x.shape[:-k] + (flat,))
        gamma = op.reshape(c.ex(w), (flat,)) if w is not None else E.Constant(np.ones(flat, x.dtype))
        beta = op.reshape(c.ex(b), (flat,)) if b is not None else E.Constant(np.zeros(flat, x.dtype))
        y = op.reshape(nn.layer_norm(xe, gamma, beta, axis=-1, epsilon=eps), x.shape)
    return _with_statistics(c, y, packet != "layer_norm")


@_register("group_norm", "native_group_norm")
def _group_norm(c: _Ctx) -> Any:
    packet, _ = _packet(c.node.target)
    a = c.a
    x = c.tv(a["input"])
    ch = x.shape[1]
    gamma = c.ex(a["weight"]) if a.get("weight") is not None else E.Constant(np.ones(ch, x.dtype))
    beta = c.ex(a["bias"]) if a.get("bias") is not None else E.Constant(np.zeros(ch, x.dtype))
    groups = int(a["num_groups"] if packet == "group_norm" else a["group"])
    y = nn.group_norm(x.expr, gamma, beta, num_groups=groups, axis=1, epsilon=float(a["eps"]))
    return _with_statistics(c, y, packet != "group_norm")


@_register("softmax", "_softmax", "log_softmax", "_log_softmax")
def _softmax(c: _Ctx) -> _TV:
    packet, _ = _packet(c.node.target)
    _, dtype = c.out()
    x = c.ex(c.a["self"], dtype)
    axis = int(c.a["dim"])
    return c.result((nn.log_softmax if "log" in packet else nn.softmax)(x, axis=axis))
