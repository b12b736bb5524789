"""ONNX Attention (opset 23+), composed from matmuls, softmax and additive masks
following the ONNX reference semantics (scale split over Q and K, softcap before
the mask, fully masked rows give zeros)."""
from __future__ import annotations

import numpy as np

from ._base import Node, fmt_shape, register
from .elementwise import _float_only, _onnx_dtype
from .nn import _batched_matmul


def _static(n: Node, i: int, what: str):
    s = n.shape(i)
    if s is None or any(d is None for d in s):
        raise n.unsupported(f"{what} needs a static shape, got {fmt_shape(s)}")
    return [int(d) for d in s]


def _check_attributes(n: Node, dt: str) -> None:
    """The optional inputs and attributes this converter supports (else a clear error)."""
    if n.has(6):
        raise n.unsupported("nonpad_kv_seqlen is not supported")
    for a in ("left_window_size", "right_window_size"):
        if int(n.attr(a, -1)) != -1:
            raise n.unsupported(f"{a} is not supported")
    sp = n.attr("softmax_precision", None)
    if sp is not None:
        if _onnx_dtype(n, sp) != dt:
            raise n.unsupported("softmax_precision different from the input type")


def _split_heads(n: Node, q, k, v, qs, ks, vs):
    """3-D Q/K/V [B, S, heads * D] as 4-D [B, heads, S, D] (q_num_heads, kv_num_heads)."""
    qh_attr, kvh_attr = n.attr("q_num_heads", None), n.attr("kv_num_heads", None)
    if qh_attr is None or kvh_attr is None:
        raise n.unsupported("3-D inputs need q_num_heads and kv_num_heads")
    qh, kvh = int(qh_attr), int(kvh_attr)
    for name, h, shp in (("q_num_heads", qh, qs), ("kv_num_heads", kvh, ks), ("kv_num_heads", kvh, vs)):
        if h <= 0 or shp[2] % h:
            raise n.invalid(f"attribute '{name}'={h} does not divide the hidden size {shp[2]}")

    def heads(x, s, h):
        x = n.op("reshape")(x, [s[0], s[1], h, s[2] // h])
        return n.op("transpose")(x, [0, 2, 1, 3]), [s[0], h, s[1], s[2] // h]
    q, qs = heads(q, qs, qh)
    k, ks = heads(k, ks, kvh)
    v, vs = heads(v, vs, kvh)
    return q, k, v, qs, ks, vs


def _append_past(n: Node, k, v, ks, vs):
    """K and V with past_key/past_value (inputs 4, 5) prepended; returns (k, v, ks, vs, past)."""
    if not (n.has(4) or n.has(5)):
        return k, v, ks, vs, 0
    if not (n.has(4) and n.has(5)):
        raise n.unsupported("past_key and past_value must be given together")
    past = _static(n, 4, "past_key")[2]
    k = n.op("concatenate")([n.expr(4), k], axis=2)
    v = n.op("concatenate")([n.expr(5), v], axis=2)
    return k, v, [ks[0], ks[1], ks[2] + past, ks[3]], [vs[0], vs[1], vs[2] + past, vs[3]], past


def _additive_bias(n: Node, dt: str, Sq: int, Skv: int, past: int, causal: bool):
    """(bias expression or None, its numpy value when known at import time or None), [.., Sq, Skv]:
    attn_mask (a bool mask as 0/-inf) plus the causal mask."""
    bias = None
    const_bias = None
    if n.has(3):
        ms = _static(n, 3, "attn_mask")
        if ms[-1] != Skv:
            raise n.unsupported("attn_mask shorter than the key sequence (padding) is not supported")
        mdt = n.dtype(3)
        if n.is_const(3):
            m = n.const(3)
            const_bias = np.where(m, 0, -np.inf).astype(dt) if mdt == "bool" else m.astype(dt)
        elif mdt == "bool":
            bias = n.op("where")(n.expr(3), n.scalar(0.0), n.scalar(-np.inf))
        else:
            bias = n.expr(3)
    if causal:
        i = np.arange(Sq).reshape(Sq, 1)
        j = np.arange(Skv).reshape(1, Skv)
        cmask = np.where(j <= i + past, 0, -np.inf).astype(dt)
        if bias is not None:
            bias = n.op("add")(bias, n.constant(cmask))
        else:
            const_bias = cmask if const_bias is None else const_bias + cmask
    if const_bias is not None and bias is None:
        bias = n.constant(const_bias)
    return bias, const_bias


def _repeat_kv(n: Node, k, v, ks, vs, qh: int, kvh: int):
    """Grouped-query attention: each kv head repeated qh / kvh times."""
    if qh == kvh:
        return k, v, ks, vs
    if kvh <= 0 or qh % kvh:
        raise n.unsupported(f"{qh} query heads are not a multiple of {kvh} kv heads")
    r = qh // kvh
    return (n.op("repeat")(k, r, 1), n.op("repeat")(v, r, 1), [ks[0], qh, ks[2], ks[3]],
            [vs[0], qh, vs[2], vs[3]])


def _zero_dead_rows(n: Node, p, bias, const_bias, qk_shape, Sq: int, Skv: int):
    """Rows whose bias is all -inf attend to nothing: their softmax ``p`` becomes zeros."""
    runtime_mask = n.has(3) and not n.is_const(3)
    if bias is not None and not runtime_mask:
        full = np.broadcast_to(const_bias, tuple(qk_shape[:-2]) + (Sq, Skv))
        if full.size == 0:
            raise n.unsupported("attention with an empty query or key/value sequence")
        dead = np.isneginf(full.max(axis=-1, keepdims=True))
        if dead.any():
            p = n.op("where")(n.constant(dead), n.scalar(0.0), p)
    elif bias is not None:
        mx = n.op("max")(bias, axis=[-1], keepdims=True)
        dead = n.op("equal")(mx, n.scalar(-np.inf))
        p = n.op("where")(dead, n.scalar(0.0), p)
    return p


@register("Attention", since=23)
def _attention(n: Node):
    _float_only(n)
    dt = n.dtype(0)
    if dt in ("float16", "bfloat16"):
        # the fp16 matmuls and softmax round differently from the reference (1 ulp > rtol)
        raise n.unsupported(f"{dt} attention is not supported (float32 and float64 are)")
    qs, ks, vs = _static(n, 0, "Q"), _static(n, 1, "K"), _static(n, 2, "V")
    if not len(qs) == len(ks) == len(vs) or len(qs) not in (3, 4):
        raise n.invalid(f"Q, K and V must all be 3-D or all 4-D, got ranks {len(qs)}, {len(ks)}, {len(vs)}")
    _check_attributes(n, dt)
    mode = int(n.attr("qk_matmul_output_mode", 0))
    softcap = float(n.attr("softcap", 0.0))
    causal = bool(n.attr("is_causal", 0))
    q, k, v = n.expr(0), n.expr(1), n.expr(2)
    three_d = len(qs) == 3
    if three_d:
        q, k, v, qs, ks, vs = _split_heads(n, q, k, v, qs, ks, vs)
    B, qh, Sq, D = qs
    kvh = ks[1]
    scale = n.attr("scale", None)
    scale = 1.0 / np.sqrt(D) if scale is None else float(scale)
    s = n.scalar(np.sqrt(scale).astype(dt) if dt != "bfloat16" else float(np.sqrt(scale)))
    k, v, ks, vs, past = _append_past(n, k, v, ks, vs)
    present_k, present_v = k, v
    Skv = ks[2]
    bias, const_bias = _additive_bias(n, dt, Sq, Skv, past, causal)
    k, v, ks, vs = _repeat_kv(n, k, v, ks, vs, qh, kvh)
    kt = n.op("transpose")(n.op("multiply")(k, s), [0, 1, 3, 2])
    qk, qk_shape = _batched_matmul(n, n.op("multiply")(q, s), kt, [B, qh, Sq, D], [ks[0], ks[1], ks[3], ks[2]])
    if softcap > 0:
        c = n.scalar(softcap)
        qk = n.op("multiply")(n.op("tanh")(n.op("divide")(qk, c)), c)
    qk_out = qk
    with_bias = n.op("add")(qk, bias) if bias is not None else qk
    if mode == 2:
        qk_out = with_bias
    p = _zero_dead_rows(n, n.op("nn.softmax")(with_bias, axis=-1), bias, const_bias, qk_shape, Sq, Skv)
    if mode == 3:
        qk_out = p
    elif mode not in (0, 1, 2):
        raise n.unsupported(f"qk_matmul_output_mode={mode}")
    y, _ = _batched_matmul(n, p, v, [B, qh, Sq, Skv], vs)
    if three_d:
        y = n.op("transpose")(y, [0, 2, 1, 3])
        y = n.op("reshape")(y, [B, Sq, qh * vs[3]])
    return [y, present_k, present_v, qk_out]
