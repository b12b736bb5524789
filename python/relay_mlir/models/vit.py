"""A Vision Transformer (Dosovitskiy et al. 2021, "An Image is Worth 16x16 Words") built
with the Relay-style API.

The defaults are ViT-Tiny/16 at 224x224 (patch 16, width 192, 12 pre-norm
blocks of 3 heads, MLP 768, 1000 classes):

* patch embedding: ``conv2d`` with kernel = stride = patch (+ bias), flattened
  to ``[batch, patches, width]``; a learned class token is prepended and the
  learned position embedding added;
* each block: ``x + proj(attention(layer_norm(x)))`` with one ``dense`` for
  query/key/value (split on the last axis), heads split with
  ``reshape``/``transpose``, ``batch_matmul`` for ``QKᵀ/√d`` and ``PV``,
  ``softmax``; then ``x + fc2(gelu(fc1(layer_norm(x))))`` (gelu with erf);
* head: ``layer_norm`` of the class token, then ``dense`` to the classes.

``main(data [batch, 3, H, W], weights...)`` returns the logits. Weights are
named like timm's ``VisionTransformer`` (``patch_embed.proj``, ``cls_token``,
``pos_embed``, ``blocks.<i>.norm1`` / ``attn.qkv`` / ``attn.proj`` /
``norm2`` / ``mlp.fc1`` / ``mlp.fc2``, ``norm``, ``head``) and like the
``state_dict`` of ``relay_mlir.models.torch_models.ViT``.

Example::

    >>> from relay_mlir.models import vit
    >>> mod, params = vit.get_workload(image_size=32, patch=8, width=16, depth=1, heads=2,
    ...                                mlp=32, num_classes=4)
    >>> params["pos_embed"].shape
    (1, 17, 16)
"""
from __future__ import annotations

from typing import Dict, Tuple

import numpy as np

from .. import expr as E
from .. import op
from ..module import IRModule
from ..op import nn
from .layers import ParamBuilder, make_workload

__all__ = ["get_workload", "vit", "VIT_TINY"]

VIT_TINY = dict(patch=16, width=192, depth=12, heads=3, mlp=768)


def _attention(x: E.Expr, pb: ParamBuilder, name: str, b: int, n: int, width: int,
               heads: int) -> E.Expr:
    """Multi-head self-attention of ``x`` ``[b, n, width]`` (without the residual)."""
    d = width // heads
    qkv = pb.dense(x, f"{name}.qkv", width, 3 * width)

    def head_split(i: int) -> E.Expr:  # the i-th of q, k, v as [b * heads, n, d]
        t = op.strided_slice(qkv, begin=[0, 0, i * width], end=[b, n, (i + 1) * width])
        t = op.transpose(op.reshape(t, (b, n, heads, d)), (0, 2, 1, 3))
        return op.reshape(t, (b * heads, n, d))

    q, k, v = head_split(0), head_split(1), head_split(2)
    scores = nn.batch_matmul(q, k, transpose_b=True) * E.const(1.0 / np.sqrt(d), pb.dtype)
    ctx = nn.batch_matmul(nn.softmax(scores, axis=-1), v, transpose_b=False)  # [b*heads, n, d]
    ctx = op.reshape(op.transpose(op.reshape(ctx, (b, heads, n, d)), (0, 2, 1, 3)), (b, n, width))
    return pb.dense(ctx, f"{name}.proj", width, width)


def vit(batch_size: int = 1, image_size: int = 224, patch: int = 16, width: int = 192,
        depth: int = 12, heads: int = 3, mlp: int = 768, num_classes: int = 1000,
        in_channels: int = 3, eps: float = 1e-6, dtype: str = "float32"):
    """The network as ``(data Var, logits Expr, ParamBuilder)``."""
    if image_size % patch:
        raise ValueError(f"image_size ({image_size}) must be a multiple of patch ({patch})")
    if width % heads:
        raise ValueError(f"width ({width}) must be a multiple of heads ({heads})")
    b, g = batch_size, image_size // patch
    n = g * g + 1
    pb = ParamBuilder(dtype)
    data = E.var("data", shape=(b, in_channels, image_size, image_size), dtype=dtype)
    x = pb.conv2d(data, "patch_embed.proj", in_channels, width, patch, stride=patch, bias=True)
    x = op.transpose(op.reshape(x, (b, width, g * g)), (0, 2, 1))             # [b, g*g, width]
    cls = op.broadcast_to(pb.param("cls_token", (1, 1, width), "embed"), (b, 1, width))
    x = op.concatenate([cls, x], axis=1) + pb.param("pos_embed", (1, n, width), "embed")
    for i in range(depth):
        p = f"blocks.{i}"
        x = x + _attention(pb.layer_norm(x, f"{p}.norm1", width, eps), pb, f"{p}.attn", b, n,
                           width, heads)
        h = nn.gelu(pb.dense(pb.layer_norm(x, f"{p}.norm2", width, eps), f"{p}.mlp.fc1", width, mlp))
        x = x + pb.dense(h, f"{p}.mlp.fc2", mlp, width)
    x = pb.layer_norm(x, "norm", width, eps)
    first = op.reshape(op.strided_slice(x, begin=[0, 0, 0], end=[b, 1, width]), (b, width))
    return data, pb.dense(first, "head", width, num_classes), pb


def get_workload(batch_size: int = 1, image_size: int = 224, patch: int = 16, width: int = 192,
                 depth: int = 12, heads: int = 3, mlp: int = 768, num_classes: int = 1000,
                 in_channels: int = 3, eps: float = 1e-6, dtype: str = "float32",
                 seed: int = 0) -> Tuple[IRModule, Dict[str, np.ndarray]]:
    """``(mod, params)``: the network with seeded weights (ViT-Tiny/16 by default)."""
    data, logits, pb = vit(batch_size, image_size, patch, width, depth, heads, mlp, num_classes,
                           in_channels, eps, dtype)
    return make_workload([data], logits, pb, seed)
