"""The debug interpreter's numpy kernels of the Conv ops (``dialect/relay/RelayConvOps.td``)."""
from __future__ import annotations

import itertools

import numpy as np

from ._common import _arr, _f64, _is_float
from ._layout import _from_cf, _pads, _SPATIAL, _to_cf
from ._registry import KERNELS


def _conv_nd(x: np.ndarray, w: np.ndarray, strides, lo, hi, dilation, groups: int) -> np.ndarray:
    """x [N, C, S...], w [O, C/groups, K...] -> float64/int64 [N, O, S'...]."""
    n = x.ndim - 2
    acc = np.float64 if (_is_float(x) or _is_float(w)) else np.int64
    xp = np.pad(x.astype(acc), [(0, 0), (0, 0)] + list(zip(lo, hi)))
    ks = w.shape[2:]
    outs = [(xp.shape[2 + i] - dilation[i] * (ks[i] - 1) - 1) // strides[i] + 1 for i in range(n)]
    o, cg = w.shape[0], w.shape[1]
    og = o // groups
    out = np.zeros((x.shape[0], o) + tuple(outs), acc)
    wa = w.astype(acc)
    for kpos in itertools.product(*[range(k) for k in ks]):
        sl = tuple(slice(kpos[i] * dilation[i], kpos[i] * dilation[i] + strides[i] * (outs[i] - 1) + 1,
                         strides[i]) for i in range(n))
        xs = xp[(slice(None), slice(None)) + sl]
        for g in range(groups):
            wk = wa[(slice(g * og, (g + 1) * og), slice(None)) + kpos]
            out[:, g * og:(g + 1) * og] += np.einsum("nc...,oc->no...", xs[:, g * cg:(g + 1) * cg], wk)
    return out


def _conv_kernel(n: int, name: str):
    sp = _SPATIAL[n]

    def k(args, attrs):
        x, w = args
        dl = attrs.get("data_layout") or "NC" + sp
        kl = attrs.get("kernel_layout") or "OI" + sp
        ol = attrs.get("out_layout") or dl
        xc = _to_cf(x, dl, "NC" + sp)
        wc = _to_cf(w, kl, "OI" + sp)
        groups = int(attrs.get("groups", 1))
        if groups > 1 and xc.shape[1] == groups and wc.shape[0] == groups and wc.shape[1] != 1:
            # a depthwise kernel with a channel multiplier M in a layout whose "O" is the
            # input channel and "I" the multiplier (TVM's HWOI [kh, kw, C, M]): output
            # channel c * M + m
            wc = wc.reshape((-1, 1) + wc.shape[2:])
        lo, hi = _pads(attrs.get("padding"), n)
        strides = attrs.get("strides") or [1] * n
        dil = attrs.get("dilation") or [1] * n
        out = _conv_nd(xc, wc, strides, lo, hi, dil, groups)
        dt = attrs.get("out_dtype") or x.dtype
        return _arr(_from_cf(out, "NC" + sp, ol), dt)
    KERNELS[name] = k


_conv_kernel(1, "nn.conv1d")
_conv_kernel(2, "nn.conv2d")
_conv_kernel(3, "nn.conv3d")


def _conv_transpose_kernel(n: int, name: str):
    """Every input position scatters its weighted kernel into the full output at
    ``position * stride + k * dilation``; the padding is then cropped away."""
    sp = _SPATIAL[n]

    def k(args, attrs):
        x, w = args
        dl = attrs.get("data_layout") or "NC" + sp
        ol = attrs.get("out_layout") or dl
        xc = _f64(_to_cf(x, dl, "NC" + sp))
        wc = _f64(_to_cf(w, attrs.get("kernel_layout") or "IO" + sp, "IO" + sp))
        s = attrs.get("strides") or [1] * n
        d = attrs.get("dilation") or [1] * n
        op = attrs.get("output_padding") or [0] * n
        groups = int(attrs.get("groups", 1))
        lo, hi = _pads(attrs.get("padding"), n)
        ins, ks = xc.shape[2:], wc.shape[2:]
        cg, og = xc.shape[1] // groups, wc.shape[1]
        full_sizes = [(ins[i] - 1) * s[i] + d[i] * (ks[i] - 1) + 1 + op[i] for i in range(n)]
        full = np.zeros((xc.shape[0], og * groups) + tuple(full_sizes))
        for kpos in itertools.product(*[range(kk) for kk in ks]):
            sl = tuple(slice(kpos[i] * d[i], kpos[i] * d[i] + s[i] * (ins[i] - 1) + 1, s[i]) for i in range(n))
            for g in range(groups):
                contrib = np.einsum("nc...,co->no...", xc[:, g * cg:(g + 1) * cg],
                                    wc[(slice(g * cg, (g + 1) * cg), slice(None)) + kpos])
                full[(slice(None), slice(g * og, (g + 1) * og)) + sl] += contrib
        out = full[(slice(None), slice(None)) + tuple(slice(lo[i], full_sizes[i] - hi[i]) for i in range(n))]
        return _arr(_from_cf(out, "NC" + sp, ol), attrs.get("out_dtype") or x.dtype)
    KERNELS[name] = k


for _n in (1, 2, 3):
    _conv_transpose_kernel(_n, f"nn.conv{_n}d_transpose")


def _block_factor(layout: str, prefix: str, suffix: str) -> int:
    return int(layout[len(prefix):-len(suffix)])


def _blocked_conv2d(args, attrs):
    """``nn.contrib_conv2d_NCHWc`` / ``nn.contrib_depthwise_conv2d_NCHWc``: the data
    ``[N, C/c, H, W, c]`` and the kernel ``[O/o, I/i, KH, KW, i, o]`` unblocked to NCHW / OIHW,
    ``nn.conv2d``'s kernel, the result blocked as ``out_layout`` (``NCHW{k}c``) says."""
    x, w = args
    out_layout = attrs.get("out_layout") or attrs["data_layout"]
    k = _block_factor(out_layout, "NCHW", "c")
    n, c1, h, wd, c = x.shape
    xc = x.transpose(0, 1, 4, 2, 3).reshape(n, c1 * c, h, wd)
    o1, i1, kh, kw, i, o = w.shape
    wc = w.transpose(0, 5, 1, 4, 2, 3).reshape(o1 * o, i1 * i, kh, kw)
    conv_attrs = {key: v for key, v in attrs.items()
                  if key not in ("data_layout", "kernel_layout", "out_layout")}
    y = KERNELS["nn.conv2d"]([xc, wc], conv_attrs)
    yn, yc, oh, ow = y.shape
    return np.ascontiguousarray(y.reshape(yn, yc // k, k, oh, ow).transpose(0, 1, 3, 4, 2))


KERNELS["nn.contrib_conv2d_NCHWc"] = KERNELS["nn.contrib_depthwise_conv2d_NCHWc"] = _blocked_conv2d
