"""An LSTM language model, relay-mlir's own (TVM's unrolled cell is ``relay_mlir.testing.lstm``).

``input_ids [batch, seq_len]`` (int64) -> embedding (``take``) ->
``num_layers`` stacked LSTMs unrolled over the fixed ``seq_len`` -> decoder
``dense`` -> logits ``[batch, seq_len, vocab_size]``.

Each LSTM layer projects all time steps at once
(``dense(x, W_ih) + b_ih``), then per step computes
``gates = x_t + dense(h, W_hh) + b_hh``, ``split`` into input, forget, cell
and output gates (PyTorch's order), and
``c = σ(f)·c + σ(i)·tanh(g)``, ``h = σ(o)·tanh(c)``, from zero states.

Weights are named like the ``state_dict`` of
``relay_mlir.models.torch_models.LSTMLanguageModel`` (an ``nn.LSTM`` called
``rnn``: ``rnn.weight_ih_l0``, ...).

Example::

    >>> from relay_mlir.models import lstm
    >>> mod, params = lstm.get_workload(vocab_size=50, embed=16, hidden=32, seq_len=4)
    >>> params["rnn.weight_hh_l0"].shape, params["decoder.weight"].shape
    ((128, 32), (50, 32))
"""
from __future__ import annotations

from typing import Dict, Tuple

import numpy as np

from .. import expr as E
from .. import op
from ..module import IRModule
from ..op import nn
from .layers import ParamBuilder

__all__ = ["get_workload", "lstm_lm", "lstm_layer"]


def lstm_layer(pb: ParamBuilder, x: E.Expr, name: str, layer: int, batch: int, seq_len: int,
               in_size: int, hidden: int) -> E.Expr:
    """One unrolled LSTM layer over ``x [batch, seq_len, in_size]``; returns ``[batch, seq_len, hidden]``."""
    kind = f"lstm:{hidden}"
    w_ih = pb.param(f"{name}.weight_ih_l{layer}", (4 * hidden, in_size), kind)
    w_hh = pb.param(f"{name}.weight_hh_l{layer}", (4 * hidden, hidden), kind)
    b_ih = pb.param(f"{name}.bias_ih_l{layer}", (4 * hidden,), kind)
    b_hh = pb.param(f"{name}.bias_hh_l{layer}", (4 * hidden,), kind)
    xs = nn.bias_add(nn.dense(op.reshape(x, (batch * seq_len, in_size)), w_ih), b_ih, axis=-1)
    xs = op.reshape(xs, (batch, seq_len, 4 * hidden))
    h = op.zeros((batch, hidden), pb.dtype)
    c = op.zeros((batch, hidden), pb.dtype)
    outs = []
    for t in range(seq_len):
        x_t = op.reshape(op.strided_slice(xs, begin=[t], end=[t + 1], axes=[1]), (batch, 4 * hidden))
        gates = x_t + nn.bias_add(nn.dense(h, w_hh), b_hh, axis=-1)
        i, f, g, o = op.split(gates, 4, axis=1)
        c = op.sigmoid(f) * c + op.sigmoid(i) * op.tanh(g)
        h = op.sigmoid(o) * op.tanh(c)
        outs.append(h)
    return op.stack(outs, axis=1)


def lstm_lm(batch_size: int = 1, seq_len: int = 8, vocab_size: int = 1000, embed: int = 64,
            hidden: int = 128, num_layers: int = 1, dtype: str = "float32"):
    """The model as ``(Function, ParamBuilder)``; ``main(input_ids, weights...)``."""
    pb = ParamBuilder(dtype)
    ids = E.var("input_ids", shape=(batch_size, seq_len), dtype="int64")
    x = pb.embedding(ids, "encoder", vocab_size, embed)
    size = embed
    for layer in range(num_layers):
        x = lstm_layer(pb, x, "rnn", layer, batch_size, seq_len, size, hidden)
        size = hidden
    logits = pb.dense(x, "decoder", hidden, vocab_size)
    return E.Function([ids] + pb.weights(), logits), pb


def get_workload(batch_size: int = 1, seq_len: int = 8, vocab_size: int = 1000, embed: int = 64,
                 hidden: int = 128, num_layers: int = 1, dtype: str = "float32",
                 seed: int = 0) -> Tuple[IRModule, Dict[str, np.ndarray]]:
    """``(mod, params)``: next-token logits of ``input_ids`` with seeded weights."""
    fn, pb = lstm_lm(batch_size, seq_len, vocab_size, embed, hidden, num_layers, dtype)
    return IRModule.from_expr(fn), pb.init(seed)
