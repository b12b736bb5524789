"""``nn.LSTM`` (``aten.lstm``), unrolled over its fixed sequence length into
``dense``/``split``/``sigmoid``/``tanh``."""
from __future__ import annotations

from typing import Any, List, Tuple

import numpy as np

from ... import expr as E
from ... import op
from ...op import nn
from ._base import _Ctx, _TV, _const_np, _register


def _lstm_direction(c: _Ctx, xs: E.Expr, seq: int, batch: int, in_size: int, hidden: int,
                    weights: List[Any], h0: E.Expr, c0: E.Expr, reverse: bool, dtype: str):
    """One direction of one LSTM layer; ``xs`` is [seq, batch, in]. Returns ([h_t], h_n, c_n)."""
    w_ih, w_hh = weights[0], weights[1]
    b_ih = weights[2] if len(weights) > 2 else None
    b_hh = weights[3] if len(weights) > 3 else None
    proj = nn.dense(op.reshape(xs, (seq * batch, in_size)), c.ex(w_ih), units=4 * hidden)
    if b_ih is not None:
        proj = nn.bias_add(proj, c.ex(b_ih), axis=-1)
    proj = op.reshape(proj, (seq, batch, 4 * hidden))
    h, cell = h0, c0
    outs: List[E.Expr] = [None] * seq  # type: ignore[list-item]
    whh = c.ex(w_hh)
    bhh = c.ex(b_hh) if b_hh is not None else None
    steps = range(seq - 1, -1, -1) if reverse else range(seq)
    for t in steps:
        g = op.reshape(op.strided_slice(proj, begin=[t], end=[t + 1], axes=[0]), (batch, 4 * hidden))
        rec = nn.dense(h, whh, units=4 * hidden)
        if bhh is not None:
            rec = nn.bias_add(rec, bhh, axis=-1)
        i, f, gg, o = op.split(g + rec, 4, axis=1)
        cell = op.sigmoid(f) * cell + op.sigmoid(i) * op.tanh(gg)
        h = op.sigmoid(o) * op.tanh(cell)
        outs[t] = h
    return outs, h, cell


@_register("lstm.input")
def _lstm(c: _Ctx) -> Tuple[_TV, _TV, _TV]:
    a = c.a
    x = c.tv(a["input"])
    hx = list(a["hx"])
    params = list(a["params"])
    has_biases, num_layers = bool(a["has_biases"]), int(a["num_layers"])
    if a.get("train") and float(a.get("dropout") or 0.0) > 0 and num_layers > 1:
        raise c.unsupported("LSTM dropout in training mode; call model.eval() before importing")
    bidir, batch_first = bool(a["bidirectional"]), bool(a["batch_first"])
    if x.ndim != 3:
        raise c.unsupported("only batched (3-D) LSTM inputs are supported")
    dirs = 2 if bidir else 1
    per = 4 if has_biases else 2
    if len(params) != num_layers * dirs * per:
        raise c.unsupported("LSTM with projections (proj_size > 0) is not supported")
    dtype = x.dtype
    xs = op.transpose(x.expr, (1, 0, 2)) if batch_first else x.expr
    seq, batch, in_size = (x.shape[1], x.shape[0], x.shape[2]) if batch_first else x.shape
    h0, c0 = c.tv(hx[0]), c.tv(hx[1])
    hidden = h0.shape[-1]

    def state(t: _TV, i: int) -> E.Expr:
        arr = _const_np(hx[0] if t is h0 else hx[1])
        if arr is not None:
            return E.Constant(np.ascontiguousarray(arr[i]))
        return op.reshape(op.strided_slice(t.expr, begin=[i], end=[i + 1], axes=[0]), (batch, hidden))

    hn, cn = [], []
    for layer in range(num_layers):
        outs_dir = []
        for d in range(dirs):
            k = layer * dirs + d
            w = params[k * per:(k + 1) * per]
            outs, h, cell = _lstm_direction(c, xs, seq, batch, in_size, hidden, w, state(h0, k),
                                            state(c0, k), d == 1, dtype)
            outs_dir.append(outs)
            hn.append(h)
            cn.append(cell)
        steps = [op.concatenate([o[t] for o in outs_dir], axis=1) if dirs == 2 else outs_dir[0][t]
                 for t in range(seq)]
        xs = op.stack(steps, axis=0)  # [seq, batch, dirs * hidden]
        in_size = dirs * hidden
    out = op.transpose(xs, (1, 0, 2)) if batch_first else xs
    s0, _ = c.out(0)
    s1, _ = c.out(1)
    return (_TV(out, s0, dtype), _TV(op.stack(hn, axis=0), s1, dtype), _TV(op.stack(cn, axis=0), s1, dtype))
