"""Converters for PyTorch's fused inference kernels that TorchScript graphs keep.

``nn.TransformerEncoderLayer`` and ``nn.MultiheadAttention`` take a "fast path" in
eval mode when gradients are off (``torch.no_grad()``, the usual way to trace a
model for inference): the traced or scripted graph then holds one fused op instead
of the layer's ops. torch.export decomposes them, so ``frontend.torch`` has no
converter; these are written from the ops' documented semantics (batch-first inputs):

* ``aten::_native_multi_head_attention(query, key, value, embed_dim, num_head,
  qkv_weight, qkv_bias, proj_weight, proj_bias, mask, need_weights,
  average_attn_weights, mask_type) -> (out, weights)``: ``qkv_weight`` stacks the
  q, k, v projections ([3E, E]); each head attends with softmax(q kᵀ / √d + mask) v; the
  heads are concatenated and projected; ``weights`` are the attention
  probabilities, averaged over heads if ``average_attn_weights`` (None unless
  ``need_weights``).
* ``aten::_transformer_encoder_layer_fwd(src, embed_dim, num_heads, qkv_weight,
  qkv_bias, proj_weight, proj_bias, use_gelu, norm_first, eps, norm_weight_1,
  norm_bias_1, norm_weight_2, norm_bias_2, ffn_weight_1, ffn_bias_1,
  ffn_weight_2, ffn_bias_2, mask, mask_type)``: with ``norm_first`` x + SA(LN1(x))
  then x + FF(LN2(x)); otherwise LN1(x + SA(x)) then LN2(x + FF(x)); FF is
  linear, ReLU (GELU if ``use_gelu``), linear.

``mask`` (with ``mask_type``, see ``_masked``): True/-inf entries are left out of the
softmax; a row with every key left out is NaN, as in PyTorch.
"""
from __future__ import annotations

import math
from typing import Any, Optional, Tuple

import numpy as np

from ... import expr as E
from ... import op
from ...op import nn
from ..torch_ops._base import _Ctx, _TV
from ._registry import register


def _linear(x: E.Expr, w: E.Expr, b: E.Expr, units: int) -> E.Expr:
    return nn.bias_add(nn.dense(x, w, units=units), b, axis=-1)


def _heads(x: E.Expr, batch: int, length: int, heads: int, dim: int) -> E.Expr:
    """[batch*length, heads*dim] -> [batch*heads, length, dim]."""
    x = op.transpose(op.reshape(x, (batch, length, heads, dim)), (0, 2, 1, 3))
    return op.reshape(x, (batch * heads, length, dim))


def _masked(c: _Ctx, scores: E.Expr, mask: Optional[_TV], mask_type: Optional[int],
            dims: Tuple[int, int, int, int]) -> E.Expr:
    """``scores`` [B, H, L, S] with ``mask`` applied: True (bool) is -inf, a float mask is
    added. Its layout by ``mask_type`` (MultiheadAttention.merge_masks): 0 an attn_mask
    [L, S], 1 a key_padding_mask [B, S], 2 merged [B, H, L, S]; without a type, by rank."""
    if mask is None:
        return scores
    batch, heads, lq, ls = dims
    if mask_type == 1 or (mask_type is None and mask.shape == (batch, ls) and mask.shape != (lq, ls)):
        m = op.reshape(mask.expr, (batch, 1, 1, ls))
    elif mask.ndim == 3:
        m = op.reshape(mask.expr, (mask.shape[0], 1, lq, ls))
    elif mask.ndim in (2, 4):
        m = mask.expr
    else:
        raise c.unsupported(f"an attention mask of shape {list(mask.shape)}")
    if mask.dtype == "bool":
        return op.where(m, E.Constant(np.array(-np.inf, "float32")), scores)
    return scores + m


def _attention(c: _Ctx, q: _TV, k: _TV, v: _TV, heads: int, w: Tuple[Any, Any, Any, Any],
               mask: Optional[_TV] = None, mask_type: Optional[int] = None) -> Tuple[E.Expr, E.Expr]:
    """Multi-head self/cross attention on batch-first [B, L, E] inputs; ``w`` the qkv weight
    and bias and the output projection's weight and bias.
    Returns (output [B, L, E], probabilities [B, heads, L, S])."""
    qkv_w, qkv_b, proj_w, proj_b = w
    (batch, lq, embed), ls = q.shape, k.shape[1]
    dim = embed // heads
    ws, bs = op.split(c.ex(qkv_w), 3, axis=0), op.split(c.ex(qkv_b), 3, axis=0)
    proj = [_linear(op.reshape(t.expr, (batch * n, embed)), ws[i], bs[i], embed)
            for i, (t, n) in enumerate(((q, lq), (k, ls), (v, ls)))]
    qh = _heads(proj[0], batch, lq, heads, dim)
    kh = _heads(proj[1], batch, ls, heads, dim)
    vh = _heads(proj[2], batch, ls, heads, dim)
    scale = E.Constant(np.array(1.0 / math.sqrt(dim), q.dtype))
    scores = op.reshape(nn.batch_matmul(qh, kh, transpose_b=True) * scale, (batch, heads, lq, ls))
    scores = _masked(c, scores, mask, mask_type, (batch, heads, lq, ls))
    probs = op.reshape(nn.softmax(scores, axis=-1), (batch * heads, lq, ls))
    out = nn.batch_matmul(probs, vh, transpose_b=False)  # [B*H, L, D]
    out = op.reshape(op.transpose(op.reshape(out, (batch, heads, lq, dim)), (0, 2, 1, 3)), (batch * lq, embed))
    out = op.reshape(_linear(out, c.ex(proj_w), c.ex(proj_b), embed), (batch, lq, embed))
    return out, op.reshape(probs, (batch, heads, lq, ls))


def _mask(c: _Ctx) -> Tuple[Optional[_TV], Optional[int]]:
    m, t = c.a.get("mask"), c.a.get("mask_type")
    return (None if m is None else c.tv(m)), (None if t is None else int(t))


def _weights(a) -> Tuple[Any, Any, Any, Any]:
    return a["qkv_weight"], a["qkv_bias"], a["proj_weight"], a["proj_bias"]


@register("_native_multi_head_attention")
def _mha(c: _Ctx) -> Tuple[_TV, Optional[_TV]]:
    a = c.a
    q, k, v = c.tv(a["query"]), c.tv(a["key"]), c.tv(a["value"])
    if q.ndim != 3:
        raise c.unsupported("only batched (3-D) inputs are supported")
    out, probs = _attention(c, q, k, v, int(a["num_head"]), _weights(a), *_mask(c))
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
    x = c.tv(a["src"])
    if x.ndim != 3:
        raise c.unsupported("only batched (3-D) inputs are supported")
    eps, (batch, length, embed) = float(a["eps"]), x.shape

    def norm(e: E.Expr, i: int) -> E.Expr:
        return nn.layer_norm(e, c.ex(a[f"norm_weight_{i}"]), c.ex(a[f"norm_bias_{i}"]), axis=-1, epsilon=eps)

    def self_attention(e: E.Expr) -> E.Expr:
        t = _TV(e, x.shape, x.dtype)
        return _attention(c, t, t, t, int(a["num_heads"]), _weights(a), *_mask(c))[0]

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
