"""Linear algebra (``linear``, ``addmm``, ``mm``, ``bmm``, ``baddbmm``, ``matmul``) as
``nn.dense``/``nn.batch_matmul``, and ``constant_pad_nd``/``pad`` as ``nn.pad``."""
from __future__ import annotations

from typing import Any

import numpy as np

from ... import expr as E
from ... import op
from ...op import nn
from ._base import _Ctx, _TV, _const_np, _register


def _dense(c: _Ctx, x: _TV, w_t: Any, bias: Any = None) -> E.Expr:
    """``x @ w_t (+ bias)`` with ``w_t`` [k, n]; a constant is transposed in numpy for ``nn.dense``."""
    w_np = _const_np(w_t)
    if w_np is not None:
        y = nn.dense(x.expr, E.Constant(np.ascontiguousarray(w_np.T)), units=int(w_np.shape[1]))
    else:
        w = c.tv(w_t)
        y = nn.matmul(x.expr, w.expr, units=int(w.shape[1]))
    if bias is not None:
        b = c.tv(bias)
        y = nn.bias_add(y, b.expr, axis=-1) if b.ndim == 1 else y + b.expr
    return y


@_register("linear")
def _linear(c: _Ctx) -> _TV:
    x, w = c.tv(c.a["input"]), c.a["weight"]
    w_np = _const_np(w)
    if w_np is not None:
        y = nn.dense(x.expr, E.Constant(np.ascontiguousarray(w_np)), units=int(w_np.shape[0]))
    else:
        wt = c.tv(w)
        y = nn.dense(x.expr, wt.expr, units=int(wt.shape[0]))
    b = c.a.get("bias")
    if b is not None:
        y = nn.bias_add(y, c.ex(b), axis=-1)
    return c.result(y)


@_register("addmm")
def _addmm(c: _Ctx) -> _TV:
    beta, alpha = c.a.get("beta", 1), c.a.get("alpha", 1)
    if beta != 1 or alpha != 1:
        raise c.unsupported("beta/alpha other than 1 are not supported")
    return c.result(_dense(c, c.tv(c.a["mat1"]), c.a["mat2"], c.a["self"]))


@_register("mm")
def _mm(c: _Ctx) -> _TV:
    return c.result(_dense(c, c.tv(c.a["self"]), c.a["mat2"]))


@_register("bmm")
def _bmm(c: _Ctx) -> _TV:
    return c.result(nn.batch_matmul(c.ex(c.a["self"]), c.ex(c.a["mat2"]), transpose_b=False))


@_register("baddbmm")
def _baddbmm(c: _Ctx) -> _TV:
    beta, alpha = c.a.get("beta", 1), c.a.get("alpha", 1)
    _, dtype = c.out()
    y = nn.batch_matmul(c.ex(c.a["batch1"]), c.ex(c.a["batch2"]), transpose_b=False)
    if alpha != 1:
        y = y * E.Constant(np.array(alpha, dtype))
    s = c.ex(c.a["self"], dtype)
    if beta != 1:
        s = s * E.Constant(np.array(beta, dtype))
    return c.result(y + s)


@_register("matmul")
def _matmul(c: _Ctx) -> _TV:
    a, b = c.tv(c.a["self"]), c.tv(c.a["other"])
    shape, _ = c.out()
    if a.ndim == 1 or b.ndim == 1:
        raise c.unsupported("matmul with a 1-D operand is not supported")
    if b.ndim == 2:
        return c.result(_dense(c, a, c.a["other"]))
    # batched: broadcast batch dims, fold them into one, batch_matmul
    batch = shape[:-2]
    nb = int(np.prod(batch)) if batch else 1
    m, k, n = a.shape[-2], a.shape[-1], b.shape[-1]
    ae = op.broadcast_to(a.expr, batch + (m, k)) if a.shape[:-2] != batch else a.expr
    be = op.broadcast_to(b.expr, batch + (k, n)) if b.shape[:-2] != batch else b.expr
    y = nn.batch_matmul(op.reshape(ae, (nb, m, k)), op.reshape(be, (nb, k, n)), transpose_b=False)
    return c.result(op.reshape(y, shape))


@_register("constant_pad_nd", "pad")
def _pad(c: _Ctx) -> _TV:
    x = c.tv(c.a["self"] if "self" in c.a else c.a["input"])
    mode = c.a.get("mode", "constant")
    if mode not in ("constant", "reflect", "replicate"):
        raise c.unsupported(f"pad mode '{mode}' is not supported")
    pad = [int(v) for v in c.a["pad"]]
    widths = [[0, 0] for _ in range(x.ndim)]
    for i in range(len(pad) // 2):  # pairs from the last dim backwards
        widths[x.ndim - 1 - i] = [pad[2 * i], pad[2 * i + 1]]
    if any(v < 0 for w in widths for v in w):
        raise c.unsupported("negative padding is not supported")
    value = c.a.get("value") or 0.0
    return c.result(nn.pad(x.expr, widths, E.Constant(np.array(value, x.dtype)),
                           pad_mode={"replicate": "edge"}.get(mode, mode)))
