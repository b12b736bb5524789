"""A BERT-style transformer encoder (Devlin et al. 2019) built with the Relay-style API.

The defaults are BERT-tiny (2 layers, hidden 128, 2 heads, FFN 512);
``vocab_size``/``max_position`` are small by default to keep the embedding
tables cheap (BERT's are 30522/512).

* embeddings: ``take`` of word, position (``arange(seq_len)``) and token-type
  tables, summed, ``layer_norm``;
* each layer: multi-head self-attention (query/key/value ``dense``, heads
  split with ``reshape``/``transpose``, ``batch_matmul`` for ``QKᵀ/√d`` and
  ``PV``, additive attention mask ``(1 - mask) * -10000``, ``softmax``),
  output ``dense`` + residual + ``layer_norm``, then the feed-forward block
  ``dense`` - ``gelu`` (erf) - ``dense`` + residual + ``layer_norm``;
* pooler: ``tanh(dense(hidden[:, 0]))``.

``main(input_ids, token_type_ids, attention_mask, weights...)`` (int64
``[batch, seq_len]`` each) returns ``(sequence_output [batch, seq_len,
hidden], pooled_output [batch, hidden])``. Dropout is the identity
(inference). Weights are named like the ``state_dict`` of
``relay_mlir.models.torch_models.Bert`` - which are also the names of the
Hugging Face ``BertModel`` weights without the ``bert.`` prefix.

Example::

    >>> from relay_mlir.models import bert
    >>> mod, params = bert.get_workload(batch_size=1, seq_len=8)
    >>> [p.name_hint for p in mod["main"].params][:3]
    ['input_ids', 'token_type_ids', 'attention_mask']
    >>> params["encoder.layer.1.intermediate.dense.weight"].shape
    (512, 128)
"""
from __future__ import annotations

from typing import Dict, Tuple

import numpy as np

from .. import expr as E
from .. import op
from ..module import IRModule
from ..op import nn
from .layers import ParamBuilder

__all__ = ["get_workload", "bert", "BERT_TINY"]

BERT_TINY = dict(num_layers=2, hidden=128, num_heads=2, intermediate=512)


def bert(batch_size: int = 1, seq_len: int = 16, vocab_size: int = 1000, max_position: int = 64,
         type_vocab_size: int = 2, num_layers: int = 2, hidden: int = 128, num_heads: int = 2,
         intermediate: int = 512, eps: float = 1e-12, dtype: str = "float32"):
    """The encoder as ``(Function, ParamBuilder)``."""
    if hidden % num_heads:
        raise ValueError(f"hidden ({hidden}) must be a multiple of num_heads ({num_heads})")
    if seq_len > max_position:
        raise ValueError(f"seq_len ({seq_len}) exceeds max_position ({max_position})")
    b, s, h, nh = batch_size, seq_len, hidden, num_heads
    d = h // nh
    pb = ParamBuilder(dtype)
    ids = E.var("input_ids", shape=(b, s), dtype="int64")
    types = E.var("token_type_ids", shape=(b, s), dtype="int64")
    mask = E.var("attention_mask", shape=(b, s), dtype="int64")

    pos = E.const(np.arange(s), "int64")
    x = pb.embedding(ids, "embeddings.word_embeddings", vocab_size, h)
    x = x + pb.embedding(pos, "embeddings.position_embeddings", max_position, h)
    x = x + pb.embedding(types, "embeddings.token_type_embeddings", type_vocab_size, h)
    x = pb.layer_norm(x, "embeddings.LayerNorm", h, eps)
    x = nn.dropout(x, rate=0.1)

    # additive mask [b, 1, 1, s]: 0 where attended, -10000 where masked
    one = E.const(1.0, dtype)
    add_mask = (one - op.cast(mask, dtype)) * E.const(-10000.0, dtype)
    add_mask = op.reshape(add_mask, (b, 1, 1, s))
    scale = E.const(1.0 / np.sqrt(d), dtype)

    def heads(t: E.Expr) -> E.Expr:  # [b, s, h] -> [b * nh, s, d]
        t = op.transpose(op.reshape(t, (b, s, nh, d)), (0, 2, 1, 3))
        return op.reshape(t, (b * nh, s, d))

    for i in range(num_layers):
        p = f"encoder.layer.{i}"
        q = heads(pb.dense(x, f"{p}.attention.self.query", h, h))
        k = heads(pb.dense(x, f"{p}.attention.self.key", h, h))
        v = heads(pb.dense(x, f"{p}.attention.self.value", h, h))
        scores = nn.batch_matmul(q, k, transpose_b=True) * scale            # [b*nh, s, s]
        scores = op.reshape(scores, (b, nh, s, s)) + add_mask
        probs = nn.dropout(nn.softmax(scores, axis=-1), rate=0.1)
        ctx = nn.batch_matmul(op.reshape(probs, (b * nh, s, s)), v, transpose_b=False)
        ctx = op.reshape(op.transpose(op.reshape(ctx, (b, nh, s, d)), (0, 2, 1, 3)), (b, s, h))
        a = nn.dropout(pb.dense(ctx, f"{p}.attention.output.dense", h, h), rate=0.1)
        x = pb.layer_norm(a + x, f"{p}.attention.output.LayerNorm", h, eps)
        f = nn.gelu(pb.dense(x, f"{p}.intermediate.dense", h, intermediate))
        f = nn.dropout(pb.dense(f, f"{p}.output.dense", intermediate, h), rate=0.1)
        x = pb.layer_norm(f + x, f"{p}.output.LayerNorm", h, eps)

    first = op.reshape(op.strided_slice(x, begin=[0, 0, 0], end=[b, 1, h]), (b, h))
    pooled = op.tanh(pb.dense(first, "pooler.dense", h, h))
    return E.Function([ids, types, mask] + pb.weights(), E.Tuple([x, pooled])), pb


def get_workload(batch_size: int = 1, seq_len: int = 16, vocab_size: int = 1000,
                 max_position: int = 64, type_vocab_size: int = 2, num_layers: int = 2,
                 hidden: int = 128, num_heads: int = 2, intermediate: int = 512,
                 eps: float = 1e-12, dtype: str = "float32",
                 seed: int = 0) -> Tuple[IRModule, Dict[str, np.ndarray]]:
    """``(mod, params)``: the encoder with seeded weights (BERT-tiny sizes by default)."""
    fn, pb = bert(batch_size, seq_len, vocab_size, max_position, type_vocab_size, num_layers,
                  hidden, num_heads, intermediate, eps, dtype)
    return IRModule.from_expr(fn), pb.init(seed)
