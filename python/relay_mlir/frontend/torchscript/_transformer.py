"""Converters for PyTorch's fused inference kernels that TorchScript graphs keep.

``nn.TransformerEncoderLayer`` and ``nn.MultiheadAttention`` take a "fast path" in
eval mode when gradients are off (``torch.no_grad()``, the usual way to trace a
model for inference): the traced or scripted graph then holds one fused op instead
of the layer's ops. torch.export decomposes them, so ``frontend.torch`` has no
converter; these are written from the ops' documented semantics (batch-first inputs):

* ``aten::_native_multi_head_attention(query, key, value, embed_dim, num_head,
  qkv_weight, qkv_bias, proj_weight, proj_bias, mask, need_weights,
  average_attn_weights, mask_type) -> (out, weights)``: ``qkv_weight`` stacks the
  q, k, v projections ([3E, E]); each head attends with softmax(q kᵀ / √d) v; the
  heads are concatenated and projected; ``weights`` are the attention
  probabilities, averaged over heads if ``average_attn_weights`` (None unless
  ``need_weights``).
* ``aten::_transformer_encoder_layer_fwd(src, embed_dim, num_heads, qkv_weight,
  qkv_bias, proj_weight, proj_bias, use_gelu, norm_first, eps, norm_weight_1,
  norm_bias_1, norm_weight_2, norm_bias_2, ffn_weight_1, ffn_bias_1,
  ffn_weight_2, ffn_bias_2, mask, mask_type)``: with ``norm_first`` x + SA(LN1(x))
  then x + FF(LN2(x)); otherwise LN1(x + SA(x)) then LN2(x + FF(x)); FF is
  linear, ReLU (GELU if ``use_gelu``), linear.

Masks (``mask`` not None) are refused with an ``UnsupportedError``.
"""
from __future__ import annotations

import math
from typing import Any, Optional, Tuple

import numpy as np

from ... import expr as E
from ... import op
from ...op import nn
from ..torch import _Ctx, _TV
from ._registry import register


def _linear(x: E.Expr, w: E.Expr, b: E.Expr, units: int) -> E.Expr:
    return nn.bias_add(nn.dense(x, w, units=units), b, axis=-1)


def _heads(x: E.Expr, batch: int, length: int, heads: int, dim: int) -> E.Expr:
    """[batch*length, heads*dim] -> [batch*heads, length, dim]."""
    x = op.transpose(op.reshape(x, (batch, length, heads, dim)), (0, 2, 1, 3))
    return op.reshape(x, (batch * heads, length, dim))


def _attention(c: _Ctx, q: _TV, k: _TV, v: _TV, heads: int, qkv_w: Any, qkv_b: Any,
               proj_w: Any, proj_b: Any) -> Tuple[E.Expr, E.Expr]:
    """Multi-head self/cross attention on batch-first [B, L, E] inputs.
    Returns (output [B, L, E], probabilities [B, heads, L, S])."""
    (batch, lq, embed), ls = q.shape, k.shape[1]
    dim = embed // heads
    ws, bs = op.split(c.ex(qkv_w), 3, axis=0), op.split(c.ex(qkv_b), 3, axis=0)
    proj = [_linear(op.reshape(t.expr, (batch * n, embed)), ws[i], bs[i], embed)
            for i, (t, n) in enumerate(((q, lq), (k, ls), (v, ls)))]
    qh = _heads(proj[0], batch, lq, heads, dim)
    kh = _heads(proj[1], batch, ls, heads, dim)
    vh = _heads(proj[2], batch, ls, heads, dim)
    scale = E.Constant(np.array(1.0 / math.sqrt(dim), q.dtype))
    probs = nn.softmax(nn.batch_matmul(qh, kh, transpose_b=True) * scale, axis=-1)
    out = nn.batch_matmul(probs, vh, transpose_b=False)  # [B*H, L, D]
    out = op.reshape(op.transpose(op.reshape(out, (batch, heads, lq, dim)), (0, 2, 1, 3)), (batch * lq, embed))
    out = op.reshape(_linear(out, c.ex(proj_w), c.ex(proj_b), embed), (batch, lq, embed))
    return out, op.reshape(probs, (batch, heads, lq, ls))


def _no_mask(c: _Ctx) -> None:
    if c.a.get("mask") is not None:
        raise c.unsupported("attention masks are not supported in the fused kernel")


@register("_native_multi_head_attention")
def _mha(c: _Ctx) -> Tuple[_TV, Optional[_TV]]:
    a = c.a
    _no_mask(c)
    q, k, v = c.tv(a["query"]), c.tv(a["key"]), c.tv(a["value"])
    if q.ndim != 3:
        raise c.unsupported("only batched (3-D) inputs are supported")
    out, probs = _attention(c, q, k, v, int(a["num_head"]), a["qkv_weight"], a["qkv_bias"],
                            a["proj_weight"], a["proj_bias"])
    s0, d0 = c.out(0)
    if not a.get("need_weights"):
        return _TV(out, s0, d0), None
    if a.get("average_attn_weights"):
        probs = op.mean(probs, axis=[1])
    s1, d1 = c.out(1)
    return _TV(out, s0, d0), _TV(probs, s1, d1)


@register("_transformer_encoder_layer_fwd")
def _encoder_layer(c: _Ctx) -> _TV:
    a = c.a
    _no_mask(c)
    x = c.tv(a["src"])
    if x.ndim != 3:
        raise c.unsupported("only batched (3-D) inputs are supported")
    eps, (batch, length, embed) = float(a["eps"]), x.shape

    def norm(e: E.Expr, i: int) -> E.Expr:
        return nn.layer_norm(e, c.ex(a[f"norm_weight_{i}"]), c.ex(a[f"norm_bias_{i}"]), axis=-1, epsilon=eps)

    def self_attention(e: E.Expr) -> E.Expr:
        t = _TV(e, x.shape, x.dtype)
        return _attention(c, t, t, t, int(a["num_heads"]), a["qkv_weight"], a["qkv_bias"],
                          a["proj_weight"], a["proj_bias"])[0]

    def feed_forward(e: E.Expr) -> E.Expr:
        hidden = c.tv(a["ffn_weight_1"]).shape[0]
        h = _linear(op.reshape(e, (batch * length, embed)), c.ex(a["ffn_weight_1"]), c.ex(a["ffn_bias_1"]), hidden)
        h = nn.gelu(h) if a["use_gelu"] else nn.relu(h)
        return op.reshape(_linear(h, c.ex(a["ffn_weight_2"]), c.ex(a["ffn_bias_2"]), embed), x.shape)

    e = x.expr
    if a["norm_first"]:
        e = e + self_attention(norm(e, 1))
        e = e + feed_forward(norm(e, 2))
    else:
        e = norm(e + self_attention(e), 1)
        e = norm(e + feed_forward(e), 2)
    return c.result(e)
