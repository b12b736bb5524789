"""``aten::gru.input`` (``nn.GRU``) and ``aten::rnn_tanh/rnn_relu.input`` (``nn.RNN``),
unrolled over their fixed sequence length as ``frontend.torch`` unrolls
``aten::lstm``. PyTorch's cells, per step (GRU gates r, z, n in the weights' row
order)::

    GRU:  r = σ(W_ir x + b_ir + W_hr h + b_hr)
          z = σ(W_iz x + b_iz + W_hz h + b_hz)
          n = tanh(W_in x + b_in + r ⊙ (W_hn h + b_hn))
          h' = (1 − z) ⊙ n + z ⊙ h
    RNN:  h' = tanh(W_ih x + b_ih + W_hh h + b_hh)   (relu for rnn_relu)

Layers stack; a bidirectional layer runs the second direction over the reversed
sequence and concatenates both directions' outputs per step.
"""
from __future__ import annotations

from typing import Any, List, Optional, Tuple

from ... import expr as E
from ... import op
from ...op import nn
from ..torch_ops._base import _Ctx, _TV
from ._registry import register


def _affine(x: E.Expr, w: E.Expr, b: Optional[E.Expr], units: int) -> E.Expr:
    y = nn.dense(x, w, units=units)
    return nn.bias_add(y, b, axis=-1) if b is not None else y


def _gru_cell(gi: E.Expr, gh: E.Expr, h: E.Expr) -> E.Expr:
    """One GRU step from the input and hidden projections ([batch, 3*hidden] each)."""
    i, hh = op.split(gi, 3, axis=1), op.split(gh, 3, axis=1)
    r, z = op.sigmoid(i[0] + hh[0]), op.sigmoid(i[1] + hh[1])
    n = op.tanh(i[2] + r * hh[2])
    return n + z * (h - n)  # (1 - z) n + z h


_CELLS = {  # packet -> (gates per step, cell)
    "gru": (3, _gru_cell),
    "rnn_tanh": (1, lambda gi, gh, h: op.tanh(gi + gh)),
    "rnn_relu": (1, lambda gi, gh, h: nn.relu(gi + gh)),
}


def _direction(c: _Ctx, xs: List[E.Expr], weights: List[Any], h: E.Expr, hidden: int,
               reverse: bool, gates: int, cell) -> List[E.Expr]:
    """One direction of one layer over the steps ``xs`` ([batch, in] each) from state ``h``;
    the outputs per step, in step order."""
    w_ih, w_hh = c.ex(weights[0]), c.ex(weights[1])
    b_ih = c.ex(weights[2]) if len(weights) > 2 else None
    b_hh = c.ex(weights[3]) if len(weights) > 3 else None
    outs: List[E.Expr] = [None] * len(xs)  # type: ignore[list-item]
    for t in (range(len(xs) - 1, -1, -1) if reverse else range(len(xs))):
        h = cell(_affine(xs[t], w_ih, b_ih, gates * hidden), _affine(h, w_hh, b_hh, gates * hidden), h)
        outs[t] = h
    return outs


@register("gru", "rnn_tanh", "rnn_relu")
def _recurrent(c: _Ctx) -> Tuple[_TV, _TV]:
    a = c.a
    packet = c.node.target._schema.name.split("::")[-1]
    gates, cell = _CELLS[packet]
    x, h0 = c.tv(a["input"]), c.tv(a["hx"])
    params = list(a["params"])
    layers, dirs = int(a["num_layers"]), 2 if a["bidirectional"] else 1
    per = 4 if a["has_biases"] else 2
    if a.get("train") and float(a.get("dropout") or 0.0) > 0 and layers > 1:
        raise c.unsupported("dropout in training mode; call model.eval() before importing")
    if x.ndim != 3 or len(params) != layers * dirs * per:
        raise c.unsupported("only batched (3-D) inputs and plain weights are supported")
    seq_axis = 1 if a["batch_first"] else 0
    seq, batch, hidden = x.shape[seq_axis], x.shape[1 - seq_axis], h0.shape[-1]
    steps = [op.reshape(op.strided_slice(x.expr, begin=[t], end=[t + 1], axes=[seq_axis]), (batch, x.shape[2]))
             for t in range(seq)]
    finals = []
    for layer in range(layers):
        per_dir = []
        for d in range(dirs):
            k = layer * dirs + d
            h = op.reshape(op.strided_slice(h0.expr, begin=[k], end=[k + 1], axes=[0]), (batch, hidden))
            outs = _direction(c, steps, params[k * per:(k + 1) * per], h, hidden, d == 1, gates, cell)
            per_dir.append(outs)
            finals.append(outs[0] if d == 1 else outs[-1])
        steps = [op.concatenate([o[t] for o in per_dir], axis=1) if dirs == 2 else per_dir[0][t]
                 for t in range(seq)]
    out = op.stack(steps, axis=seq_axis)
    (s0, d0), (s1, d1) = c.out(0), c.out(1)
    return _TV(out, s0, d0), _TV(op.stack(finals, axis=0), s1, d1)
