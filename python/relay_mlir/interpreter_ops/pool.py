"""The debug interpreter's numpy kernels of the Pool ops (``dialect/relay/RelayPoolOps.td``)."""
from __future__ import annotations

import itertools

import numpy as np

from ..errors import RelayRuntimeError
from ._common import _arr, _f64
from ._layout import _from_cf, _pads, _SPATIAL, _to_cf
from ._registry import KERNELS
from .reduce import _amax


def _pool_nd(x: np.ndarray, kind: str, pool, strides, dil, lo, hi, ceil_mode: bool,
             include_pad: bool) -> np.ndarray:
    """Channel-first N-d pooling. A window holds the positions start + k*dil
    (start = o*stride - pad_lo); max ignores positions outside the input;
    avg divides by the in-input count, or with ``include_pad`` by the count
    inside the padded input."""
    n = x.ndim - 2
    ins = x.shape[2:]
    outs = []
    for i in range(n):
        span = dil[i] * (pool[i] - 1) + 1
        num = ins[i] + lo[i] + hi[i] - span + (strides[i] - 1 if ceil_mode else 0)
        outs.append(num // strides[i] + 1)
    out = np.zeros(x.shape[:2] + tuple(outs), np.float64 if kind == "avg" else x.dtype)
    xw = _f64(x) if kind == "avg" else x
    for idx in itertools.product(*[range(o) for o in outs]):
        sel, count = [], 1
        for i in range(n):
            start = idx[i] * strides[i] - lo[i]
            pos = [start + k * dil[i] for k in range(pool[i])]
            valid = [p for p in pos if 0 <= p < ins[i]]
            count *= len([p for p in pos if p < ins[i] + hi[i]]) if include_pad else len(valid)
            sel.append(valid)
        key = (slice(None), slice(None)) + idx
        if not all(sel):
            if kind == "max":
                raise RelayRuntimeError("max pooling window lies entirely in the padding")
            out[key] = 0
            continue
        win = xw[(slice(None), slice(None)) + np.ix_(*sel)].reshape(x.shape[:2] + (-1,))
        out[key] = win.max(-1) if kind == "max" else win.sum(-1) / max(count, 1)
    return _arr(out, x.dtype)


def _pool_kernel(n: int, kind: str, name: str):
    sp = _SPATIAL[n]

    def k(args, attrs):
        (x,) = args
        layout = attrs.get("layout") or "NC" + sp
        ol = attrs.get("out_layout") or layout
        xc = _to_cf(x, layout, "NC" + sp)
        lo, hi = _pads(attrs.get("padding"), n)
        out = _pool_nd(xc, kind, attrs.get("pool_size") or [1] * n, attrs.get("strides") or [1] * n,
                       attrs.get("dilation") or [1] * n, lo, hi, bool(attrs.get("ceil_mode", False)),
                       bool(attrs.get("count_include_pad", False)))
        return _from_cf(out, "NC" + sp, ol)
    KERNELS[name] = k


for _n in (1, 2, 3):
    _pool_kernel(_n, "max", f"nn.max_pool{_n}d")
    _pool_kernel(_n, "avg", f"nn.avg_pool{_n}d")


def _global_pool(kind: str, name: str):
    def k(args, attrs):
        (x,) = args
        layout = attrs.get("layout") or "NCHW"
        ol = attrs.get("out_layout") or layout
        xc = _to_cf(x, layout, "NCHW")
        if kind == "max":
            out = _amax(xc, axis=(2, 3), keepdims=True)
        else:
            out = _arr(_f64(xc).mean(axis=(2, 3), keepdims=True), x.dtype)
        return _from_cf(out, "NCHW", ol)
    KERNELS[name] = k


_global_pool("avg", "nn.global_avg_pool2d")
_global_pool("max", "nn.global_max_pool2d")


def _adaptive(kind: str, n: int, name: str):
    """Output cell ``i`` of a dim of input size ``s`` and output size ``m`` covers
    ``[floor(i s / m), ceil((i + 1) s / m))`` (per spatial dim; 1-3 of them)."""
    sp = "NC" + _SPATIAL[n]

    def k(args, attrs):
        (x,) = args
        layout = attrs.get("layout") or sp
        ol = attrs.get("out_layout") or layout
        xc = _to_cf(x, layout, sp)
        ins = xc.shape[2:]
        size = list(attrs.get("output_size") or [])
        if not size:
            size = list(ins)
        elif len(size) == 1:
            size = size * n
        out = np.zeros(xc.shape[:2] + tuple(size), np.float64)
        for idx in itertools.product(*[range(m) for m in size]):
            cell = tuple(slice((i * s) // m, -((-(i + 1) * s) // m)) for i, s, m in zip(idx, ins, size))
            win = _f64(xc[(slice(None), slice(None)) + cell])
            axes = tuple(range(2, 2 + n))
            out[(slice(None), slice(None)) + idx] = _amax(win, axis=axes) if kind == "max" else win.mean(axis=axes)
        return _from_cf(_arr(out, x.dtype), sp, ol)
    KERNELS[name] = k


for _n in (1, 2, 3):
    _adaptive("avg", _n, f"nn.adaptive_avg_pool{_n}d")
    _adaptive("max", _n, f"nn.adaptive_max_pool{_n}d")
