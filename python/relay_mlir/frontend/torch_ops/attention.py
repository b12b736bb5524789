"""``scaled_dot_product_attention`` as ``batch_matmul``/``softmax``."""
from __future__ import annotations

import math

import numpy as np

from ... import expr as E
from ... import op
from ...op import nn
from ._base import _Ctx, _TV, _register


@_register("scaled_dot_product_attention")
def _sdpa(c: _Ctx) -> _TV:
    a = c.a
    q, k, v = c.tv(a["query"]), c.tv(a["key"]), c.tv(a["value"])
    if a.get("dropout_p"):
        raise c.unsupported("dropout_p > 0 is not supported")
    if a.get("enable_gqa"):
        raise c.unsupported("enable_gqa is not supported")
    shape, dtype = c.out()
    batch, (lq, d), lk = q.shape[:-2], q.shape[-2:], k.shape[-2]
    nb = int(np.prod(batch)) if batch else 1
    scale = a.get("scale")
    scale = 1.0 / math.sqrt(d) if scale is None else float(scale)
    qe = op.reshape(q.expr, (nb, lq, d))
    ke = op.reshape(k.expr, (nb, lk, d))
    ve = op.reshape(v.expr, (nb, lk, v.shape[-1]))
    s = nn.batch_matmul(qe, ke, transpose_b=True) * E.Constant(np.array(scale, dtype))
    s = op.reshape(s, batch + (lq, lk))
    if a.get("is_causal"):
        mask = np.triu(np.full((lq, lk), -np.inf, dtype), 1)
        s = s + E.Constant(mask)
    m = a.get("attn_mask")
    if m is not None:
        mt = c.tv(m)
        if mt.dtype == "bool":
            neg = E.Constant(np.array(-np.inf, dtype))
            s = op.where(mt.expr, s, neg)
        else:
            s = s + mt.expr
    p = op.reshape(nn.softmax(s, axis=-1), (nb, lq, lk))
    return c.result(op.reshape(nn.batch_matmul(p, ve, transpose_b=False), shape))
