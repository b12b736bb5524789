"""Numerics of the operator-library nn.* ops on llvm-cpu against numpy.

Every case is one ``func.func`` of ONE module compiled once (``iree-compile``
runs once for this file); ``Executable.run(name, ...)`` calls each. The
references below are independent numpy code (loops over windows, explicit
index formulas), not the lowering's algorithm.

Tolerances: float32 contractions/normalisations rtol 1e-4 / atol 1e-5,
transcendental rtol 1e-5 / atol 1e-5 (gelu/log_softmax: 1e-5 / 2e-5),
data movement and integers exact, float16 rtol/atol 1e-2.
Cases whose name ends in ``[?]`` have a ``?`` dim and run at two sizes.
"""
from __future__ import annotations

import itertools
import math
from typing import Callable, Dict, List, Tuple

import numpy as np
import pytest

import relay_mlir as relay

ACCUM = dict(rtol=1e-4, atol=1e-5)
TRANSC = dict(rtol=1e-5, atol=2e-5)
EXACT = dict(rtol=0, atol=0)
F16 = dict(rtol=1e-2, atol=1e-2)

R = np.random.default_rng(11)
Any = relay.Any


def rand(*shape, lo=-2.0, hi=2.0, dtype="float32"):
    if np.dtype(dtype).kind in "iu":
        return R.integers(int(lo), int(hi) + 1, size=shape).astype(dtype)
    return R.uniform(lo, hi, size=shape).astype(dtype)


# name -> (Function, [input lists, one per run], reference, tolerance)
CASES: Dict[str, Tuple[relay.Function, List[list], Callable, dict]] = {}


def case(name, params, body, runs, reference, tol=ACCUM):
    CASES[name] = (relay.Function(params, body), runs, reference, tol)


def v(name, shape, dtype="float32"):
    return relay.var(name, shape=shape, dtype=dtype)


# ---------------------------------------------------------------------------
# numpy references
# ---------------------------------------------------------------------------
def np_matmul(a, b, ta=False, tb=False, dtype=None):
    a = np.swapaxes(a, -1, -2) if ta else a
    b = b.T if tb else b
    acc = np.int64 if a.dtype.kind in "iu" else np.float64
    return np.matmul(a.astype(acc), b.astype(acc)).astype(dtype or a.dtype)


def np_batch_matmul(x, y, ta=False, tb=True):
    x = np.swapaxes(x, 1, 2) if ta else x
    y = np.swapaxes(y, 1, 2) if tb else y
    return np.matmul(x.astype(np.float64), y.astype(np.float64)).astype(x.dtype)


def np_conv(x, w, strides, pad_lo, pad_hi, dilation, groups=1):
    """Channel-first N-d convolution: x [N, C, S...], w [O, C/g, K...]."""
    n = x.ndim - 2
    xp = np.pad(x.astype(np.float64), [(0, 0), (0, 0)] + list(zip(pad_lo, pad_hi)))
    ks = w.shape[2:]
    outs = [(xp.shape[2 + i] - dilation[i] * (ks[i] - 1) - 1) // strides[i] + 1 for i in range(n)]
    o, cg = w.shape[0], w.shape[1]
    og = o // groups
    out = np.zeros((x.shape[0], o) + tuple(outs))
    for k in itertools.product(*[range(kk) for kk in ks]):
        sl = tuple(slice(k[i] * dilation[i], k[i] * dilation[i] + strides[i] * (outs[i] - 1) + 1, strides[i])
                   for i in range(n))
        xs = xp[(slice(None), slice(None)) + sl]
        for g in range(groups):
            wk = w[(slice(g * og, (g + 1) * og), slice(None)) + k].astype(np.float64)
            out[:, g * og:(g + 1) * og] += np.einsum("nc...,oc->no...", xs[:, g * cg:(g + 1) * cg], wk)
    return out.astype(x.dtype)


def np_conv2d_transpose(x, w, strides, pad, dilation, output_padding):
    """x [N, C, H, W], w [C, O, KH, KW] (IOHW); scatter each input pixel."""
    n, c, h, wd = x.shape
    o, kh, kw = w.shape[1:]
    full_h = (h - 1) * strides[0] + dilation[0] * (kh - 1) + 1 + output_padding[0]
    full_w = (wd - 1) * strides[1] + dilation[1] * (kw - 1) + 1 + output_padding[1]
    full = np.zeros((n, o, full_h, full_w))
    for i in range(kh):
        for j in range(kw):
            contrib = np.einsum("nchw,co->nohw", x.astype(np.float64), w[:, :, i, j].astype(np.float64))
            full[:, :, i * dilation[0]: i * dilation[0] + (h - 1) * strides[0] + 1: strides[0],
                 j * dilation[1]: j * dilation[1] + (wd - 1) * strides[1] + 1: strides[1]] += contrib
    t, l, b, r = pad
    return full[:, :, t:full_h - b, l:full_w - r].astype(x.dtype)


def np_conv2d_transpose_loops(x, w, strides, pad, dilation, output_padding, groups=1):
    """Grouped transposed conv by explicit loops: x [N, C, H, W], w [C, F/G, KH, KW]
    (IOHW); input channel c of group c // (C/G) adds x * w into output channel
    g * F/G + f at (h * s + i * d, w * s + j * d), then `pad` is cropped."""
    n, c, h, wd = x.shape
    fg, kh, kw = w.shape[1:]
    cg = c // groups
    oh = (h - 1) * strides[0] + dilation[0] * (kh - 1) + 1 + output_padding[0]
    ow = (wd - 1) * strides[1] + dilation[1] * (kw - 1) + 1 + output_padding[1]
    full = np.zeros((n, groups * fg, oh, ow))
    for ci in range(c):
        g = ci // cg
        for f in range(fg):
            for i in range(kh):
                for j in range(kw):
                    for y in range(h):
                        for z in range(wd):
                            full[:, g * fg + f, y * strides[0] + i * dilation[0],
                                 z * strides[1] + j * dilation[1]] += \
                                x[:, ci, y, z].astype(np.float64) * float(w[ci, f, i, j])
    t, l, b, r = pad
    return full[:, :, t:oh - b, l:ow - r].astype(x.dtype)


def np_pool(x, kind, pool, strides, pad_lo, pad_hi, dilation=None, ceil_mode=False,
            count_include_pad=False, layout_cf=True):
    """Channel-first (or channel-last) N-d max/avg pooling with topi's counts."""
    if not layout_cf:
        x = np.moveaxis(x, -1, 1)
    n = x.ndim - 2
    dilation = dilation or [1] * n
    ins = x.shape[2:]
    span = [dilation[i] * (pool[i] - 1) + 1 for i in range(n)]
    outs = []
    for i in range(n):
        num = ins[i] + pad_lo[i] + pad_hi[i] - span[i] + (strides[i] - 1 if ceil_mode else 0)
        outs.append(num // strides[i] + 1)
    out = np.zeros(x.shape[:2] + tuple(outs), dtype=np.float64)
    for idx in itertools.product(*[range(o) for o in outs]):
        vals = None
        count = 1
        sl = []
        for i in range(n):
            start = idx[i] * strides[i] - pad_lo[i]
            positions = [start + k * dilation[i] for k in range(pool[i])]
            valid = [p for p in positions if 0 <= p < ins[i]]
            if count_include_pad:
                count *= len([p for p in positions if p < ins[i] + pad_hi[i]])
            else:
                count *= len(valid)
            sl.append(valid)
        window = x[(slice(None), slice(None)) + np.ix_(*sl)] if all(sl) else None
        key = (slice(None), slice(None)) + idx
        if kind == "max":
            out[key] = window.reshape(x.shape[:2] + (-1,)).max(-1)
        else:
            s = window.reshape(x.shape[:2] + (-1,)).astype(np.float64).sum(-1) if window is not None else 0
            out[key] = s / max(count, 1)
    out = out.astype(x.dtype)
    return out if layout_cf else np.moveaxis(out, 1, -1)


def np_adaptive(x, out_size, kind, nchw=True):
    if not nchw:
        x = np.moveaxis(x, -1, 1)
    h, w = x.shape[2:]
    oh, ow = out_size
    out = np.zeros(x.shape[:2] + (oh, ow), dtype=x.dtype)
    for i in range(oh):
        h0, h1 = (i * h) // oh, -((-(i + 1) * h) // oh)
        for j in range(ow):
            w0, w1 = (j * w) // ow, -((-(j + 1) * w) // ow)
            win = x[:, :, h0:h1, w0:w1].astype(np.float64)
            out[:, :, i, j] = win.max(axis=(2, 3)) if kind == "max" else win.mean(axis=(2, 3))
    return out if nchw else np.moveaxis(out, 1, -1)


def np_norm(x, axes, gamma=None, beta=None, eps=1e-5, param_axis=-1):
    x64 = x.astype(np.float64)
    mean = x64.mean(axis=axes, keepdims=True)
    var = ((x64 - mean) ** 2).mean(axis=axes, keepdims=True)
    y = (x64 - mean) / np.sqrt(var + eps)
    shape = [1] * x.ndim
    shape[param_axis] = -1
    if gamma is not None:
        y = y * gamma.reshape(shape)
    if beta is not None:
        y = y + beta.reshape(shape)
    return y.astype(x.dtype)


def np_group_norm(x, gamma, beta, groups, eps=1e-5):
    n, c = x.shape[:2]
    xg = x.reshape((n, groups, -1)).astype(np.float64)
    mean = xg.mean(-1, keepdims=True)
    var = xg.var(-1, keepdims=True)
    y = ((xg - mean) / np.sqrt(var + eps)).reshape(x.shape)
    shape = (1, c) + (1,) * (x.ndim - 2)
    return (y * gamma.reshape(shape) + beta.reshape(shape)).astype(x.dtype)


def np_lrn(x, size, axis, bias, alpha, beta):
    sq = x.astype(np.float64) ** 2
    c = x.shape[axis]
    acc = np.zeros_like(sq)
    for i in range(c):
        lo, hi = max(0, i - size // 2), min(c, i - size // 2 + size)
        sl = [slice(None)] * x.ndim
        sl[axis] = slice(lo, hi)
        dst = [slice(None)] * x.ndim
        dst[axis] = i
        acc[tuple(dst)] = sq[tuple(sl)].sum(axis=axis)
    return (x / (bias + alpha / size * acc) ** beta).astype(x.dtype)


def np_log_softmax(x, axis=-1):
    x64 = x.astype(np.float64)
    m = x64.max(axis=axis, keepdims=True)
    return (x64 - m - np.log(np.exp(x64 - m).sum(axis=axis, keepdims=True))).astype(x.dtype)


def np_gelu(x):
    erf = np.vectorize(math.erf)
    return (0.5 * x.astype(np.float64) * (1 + erf(x.astype(np.float64) / math.sqrt(2)))).astype(x.dtype)


def np_pad(x, width, value=0, mode="constant"):
    if mode == "constant":
        return np.pad(x, width, mode="constant", constant_values=value)
    return np.pad(x, width, mode=mode)  # numpy's "reflect" excludes the edge, as Relay


def np_upsampling(x, sh, sw, method, align_corners, nchw=True):
    if not nchw:
        x = np.moveaxis(x, -1, 1)
    h, w = x.shape[2:]
    oh, ow = int(round(h * sh)), int(round(w * sw))

    def coords(n_in, n_out):
        o = np.arange(n_out, dtype=np.float32)
        if align_corners:
            return o * np.float32((n_in - 1) / max(n_out - 1, 1))
        return o * np.float32(n_in / n_out)
    cy, cx = coords(h, oh), coords(w, ow)
    if method == "nearest_neighbor":
        iy = np.round(cy) if align_corners else np.floor(cy + np.float32(1e-5))
        ix = np.round(cx) if align_corners else np.floor(cx + np.float32(1e-5))
        iy = np.clip(iy.astype(int), 0, h - 1)
        ix = np.clip(ix.astype(int), 0, w - 1)
        out = x[:, :, iy][:, :, :, ix]
    else:
        y0 = np.floor(cy).astype(int)
        x0 = np.floor(cx).astype(int)
        fy = (cy - y0)[:, None]
        fx = (cx - x0)[None, :]
        y1, x1 = np.clip(y0 + 1, 0, h - 1), np.clip(x0 + 1, 0, w - 1)
        y0, x0 = np.clip(y0, 0, h - 1), np.clip(x0, 0, w - 1)
        g = lambda a, b: x[:, :, a][:, :, :, b].astype(np.float64)  # noqa: E731
        top = g(y0, x0) * (1 - fx) + g(y0, x1) * fx
        bot = g(y1, x0) * (1 - fx) + g(y1, x1) * fx
        out = (top * (1 - fy) + bot * fy).astype(x.dtype)
    return out if nchw else np.moveaxis(out, 1, -1)


def np_depth_to_space(x, b, mode="DCR", nchw=True):
    """out[n, c, y, x] = in[n, channel(c, y % b, x % b), y // b, x // b]."""
    if not nchw:
        x = np.moveaxis(x, -1, 1)
    n, c, h, w = x.shape
    oc = c // (b * b)
    out = np.zeros((n, oc, h * b, w * b), dtype=x.dtype)
    for ci in range(oc):
        for by in range(b):
            for bx in range(b):
                src = (by * b + bx) * oc + ci if mode == "DCR" else ci * b * b + by * b + bx
                out[:, ci, by::b, bx::b] = x[:, src]
    return out if nchw else np.moveaxis(out, 1, -1)


def np_space_to_depth(x, b, nchw=True):
    if not nchw:
        x = np.moveaxis(x, -1, 1)
    n, c, h, w = x.shape
    out = np.zeros((n, c * b * b, h // b, w // b), dtype=x.dtype)
    for ci in range(c):
        for by in range(b):
            for bx in range(b):
                out[:, (by * b + bx) * c + ci] = x[:, ci, by::b, bx::b]
    return out if nchw else np.moveaxis(out, 1, -1)


# ---------------------------------------------------------------------------
# cases
# ---------------------------------------------------------------------------
# matmul / batch_matmul
a, b = v("a", (3, 8)), v("b", (8, 5))
case("matmul", [a, b], relay.nn.matmul(a, b), [[rand(3, 8), rand(8, 5)]], np_matmul)
a, b = v("a", (3, 8)), v("b", (5, 8))
case("matmul_tb", [a, b], relay.nn.matmul(a, b, transpose_b=True), [[rand(3, 8), rand(5, 8)]],
     lambda a, b: np_matmul(a, b, tb=True))
a, b = v("a", (8, 3)), v("b", (5, 8))
case("matmul_ta_tb", [a, b], relay.nn.matmul(a, b, transpose_a=True, transpose_b=True),
     [[rand(8, 3), rand(5, 8)]], lambda a, b: np_matmul(a, b, ta=True, tb=True))
a, b = v("a", (2, 3, 8, 4)), v("b", (8, 5))
case("matmul_ta_rank4", [a, b], relay.nn.matmul(a, b, transpose_a=True), [[rand(2, 3, 8, 4), rand(8, 5)]],
     lambda a, b: np_matmul(a, b, ta=True))
a, b = v("a", (4, 6), "int32"), v("b", (6, 3), "int32")
case("matmul_i32", [a, b], relay.nn.matmul(a, b), [[rand(4, 6, lo=-50, hi=50, dtype="int32"),
                                                     rand(6, 3, lo=-50, hi=50, dtype="int32")]], np_matmul, EXACT)
a, b = v("a", (4, 6), "int8"), v("b", (6, 3), "int8")
case("matmul_i8_i32", [a, b], relay.nn.matmul(a, b, out_dtype="int32"),
     [[rand(4, 6, lo=-100, hi=100, dtype="int8"), rand(6, 3, lo=-100, hi=100, dtype="int8")]],
     lambda a, b: np_matmul(a, b, dtype=np.int32), EXACT)
a, b = v("a", (Any(), 8)), v("b", (8, 5))
case("matmul[?]", [a, b], relay.nn.matmul(a, b), [[rand(1, 8), rand(8, 5)], [rand(6, 8), rand(8, 5)]], np_matmul)

x, y = v("x", (2, 3, 4)), v("y", (2, 5, 4))
case("batch_matmul", [x, y], relay.nn.batch_matmul(x, y), [[rand(2, 3, 4), rand(2, 5, 4)]], np_batch_matmul)
x, y = v("x", (2, 4, 3)), v("y", (1, 4, 5))
case("batch_matmul_ta_bcast", [x, y], relay.nn.batch_matmul(x, y, transpose_a=True, transpose_b=False),
     [[rand(2, 4, 3), rand(1, 4, 5)]], lambda x, y: np_batch_matmul(x, y, ta=True, tb=False))
x, y = v("x", (2, 3, 4), "float16"), v("y", (2, 5, 4), "float16")
case("batch_matmul_f16", [x, y], relay.nn.batch_matmul(x, y),
     [[rand(2, 3, 4, dtype="float16"), rand(2, 5, 4, dtype="float16")]], np_batch_matmul, F16)
x, y = v("x", (Any(), 3, 4)), v("y", (Any(), 5, 4))
case("batch_matmul[?]", [x, y], relay.nn.batch_matmul(x, y),
     [[rand(1, 3, 4), rand(1, 5, 4)], [rand(4, 3, 4), rand(4, 5, 4)]], np_batch_matmul)

# conv1d / conv3d
x, w = v("x", (2, 3, 11)), v("w", (4, 3, 3))
case("conv1d", [x, w], relay.nn.conv1d(x, w, strides=2, padding=(1, 2), dilation=2),
     [[rand(2, 3, 11), rand(4, 3, 3)]], lambda x, w: np_conv(x, w, [2], [1], [2], [2]))
x, w = v("x", (2, 11, 3)), v("w", (3, 3, 4))
case("conv1d_nwc", [x, w], relay.nn.conv1d(x, w, padding=1, data_layout="NWC", kernel_layout="WIO"),
     [[rand(2, 11, 3), rand(3, 3, 4)]],
     lambda x, w: np.moveaxis(np_conv(np.moveaxis(x, -1, 1), np.transpose(w, (2, 1, 0)), [1], [1], [1], [1]), 1, -1))
x, w = v("x", (1, 4, 9)), v("w", (6, 2, 3))
case("conv1d_groups", [x, w], relay.nn.conv1d(x, w, groups=2, padding=1),
     [[rand(1, 4, 9), rand(6, 2, 3)]], lambda x, w: np_conv(x, w, [1], [1], [1], [1], groups=2))
x, w = v("x", (1, 4, 9)), v("w", (4, 1, 3))
case("conv1d_depthwise", [x, w], relay.nn.conv1d(x, w, groups=4),
     [[rand(1, 4, 9), rand(4, 1, 3)]], lambda x, w: np_conv(x, w, [1], [0], [0], [1], groups=4))
x, w = v("x", (Any(), 3, Any())), v("w", (4, 3, 3))
case("conv1d[?]", [x, w], relay.nn.conv1d(x, w, padding=1),
     [[rand(1, 3, 7), rand(4, 3, 3)], [rand(3, 3, 12), rand(4, 3, 3)]],
     lambda x, w: np_conv(x, w, [1], [1], [1], [1]))
x, w = v("x", (1, 2, 5, 6, 6)), v("w", (3, 2, 3, 3, 2))
case("conv3d", [x, w], relay.nn.conv3d(x, w, strides=(1, 2, 2), padding=(1, 1, 0)),
     [[rand(1, 2, 5, 6, 6), rand(3, 2, 3, 3, 2)]],
     lambda x, w: np_conv(x, w, [1, 2, 2], [1, 1, 0], [1, 1, 0], [1, 1, 1]))
x, w = v("x", (1, 4, 5, 5, 2)), v("w", (2, 2, 2, 2, 3))
case("conv3d_ndhwc", [x, w], relay.nn.conv3d(x, w, dilation=(1, 2, 2), data_layout="NDHWC", kernel_layout="DHWIO"),
     [[rand(1, 4, 5, 5, 2), rand(2, 2, 2, 2, 3)]],
     lambda x, w: np.moveaxis(np_conv(np.moveaxis(x, -1, 1), np.transpose(w, (4, 3, 0, 1, 2)),
                                      [1, 1, 1], [0] * 3, [0] * 3, [1, 2, 2]), 1, -1))
x, w = v("x", (1, 4, 3, 4, 4)), v("w", (2, 2, 2, 2, 2))
case("conv3d_groups", [x, w], relay.nn.conv3d(x, w, groups=2),
     [[rand(1, 4, 3, 4, 4), rand(2, 2, 2, 2, 2)]],
     lambda x, w: np_conv(x, w, [1] * 3, [0] * 3, [0] * 3, [1] * 3, groups=2))
x, w = v("x", (Any(), 2, 3, 4, 4)), v("w", (3, 2, 2, 2, 2))
case("conv3d[?]", [x, w], relay.nn.conv3d(x, w, padding=1),
     [[rand(1, 2, 3, 4, 4), rand(3, 2, 2, 2, 2)], [rand(2, 2, 3, 4, 4), rand(3, 2, 2, 2, 2)]],
     lambda x, w: np_conv(x, w, [1] * 3, [1] * 3, [1] * 3, [1] * 3))

# conv2d_transpose
x, w = v("x", (1, 3, 4, 5)), v("w", (3, 2, 3, 3))
case("conv2d_transpose", [x, w], relay.nn.conv2d_transpose(x, w, strides=2, padding=(1, 1), output_padding=(1, 1)),
     [[rand(1, 3, 4, 5), rand(3, 2, 3, 3)]],
     lambda x, w: np_conv2d_transpose(x, w, (2, 2), (1, 1, 1, 1), (1, 1), (1, 1)))
x, w = v("x", (2, 2, 4, 4)), v("w", (2, 3, 2, 3))
case("conv2d_transpose_dil_pad4", [x, w],
     relay.nn.conv2d_transpose(x, w, strides=(1, 2), padding=(0, 2, 1, 0), dilation=(2, 1)),
     [[rand(2, 2, 4, 4), rand(2, 3, 2, 3)]],
     lambda x, w: np_conv2d_transpose(x, w, (1, 2), (0, 2, 1, 0), (2, 1), (0, 0)))
# groups > 1 and other layouts (references take NCHW/IOHW: the lambdas transpose)
x, w = v("x", (1, 4, 3, 3)), v("w", (4, 3, 3, 3))
case("conv2d_transpose_groups2", [x, w],
     relay.nn.conv2d_transpose(x, w, strides=2, padding=(1, 1), output_padding=(1, 0), groups=2),
     [[rand(1, 4, 3, 3), rand(4, 3, 3, 3)]],
     lambda x, w: np_conv2d_transpose_loops(x, w, (2, 2), (1, 1, 1, 1), (1, 1), (1, 0), groups=2))
x, w = v("x", (1, 4, 5, 3)), v("w", (3, 2, 2, 3))
case("conv2d_transpose_nhwc_hwoi", [x, w],
     relay.nn.conv2d_transpose(x, w, strides=(2, 1), padding=(1, 0, 0, 1), dilation=(1, 2),
                               output_padding=(1, 1), data_layout="NHWC", kernel_layout="HWOI"),
     [[rand(1, 4, 5, 3), rand(3, 2, 2, 3)]],
     lambda x, w: np_conv2d_transpose_loops(x.transpose(0, 3, 1, 2), w.transpose(3, 2, 0, 1), (2, 1),
                                            (1, 0, 0, 1), (1, 2), (1, 1)).transpose(0, 2, 3, 1))
x, w = v("x", (Any(), 3, 4, 6)), v("w", (2, 3, 2, 6))
case("conv2d_transpose_nhwc_hwoi_groups3[?]", [x, w],
     relay.nn.conv2d_transpose(x, w, strides=(1, 2), dilation=(2, 1), output_padding=(1, 1), groups=3,
                               padding=(1, 1), data_layout="NHWC", kernel_layout="HWOI"),
     [[rand(1, 3, 4, 6), rand(2, 3, 2, 6)], [rand(2, 3, 4, 6), rand(2, 3, 2, 6)]],
     lambda x, w: np_conv2d_transpose_loops(x.transpose(0, 3, 1, 2), w.transpose(3, 2, 0, 1), (1, 2),
                                            (1, 1, 1, 1), (2, 1), (1, 1), groups=3).transpose(0, 2, 3, 1))
x, w = v("x", (2, 2, 3, 4)), v("w", (3, 2, 2, 2))
case("conv2d_transpose_oihw_out_nhwc", [x, w],
     relay.nn.conv2d_transpose(x, w, strides=2, kernel_layout="OIHW", out_layout="NHWC"),
     [[rand(2, 2, 3, 4), rand(3, 2, 2, 2)]],
     lambda x, w: np_conv2d_transpose_loops(x, w.transpose(1, 0, 2, 3), (2, 2), (0, 0, 0, 0), (1, 1),
                                            (0, 0)).transpose(0, 2, 3, 1))
x, w = v("x", (Any(), 2, 3, 3)), v("w", (2, 2, 3, 3))
case("conv2d_transpose[?]", [x, w], relay.nn.conv2d_transpose(x, w, strides=2),
     [[rand(1, 2, 3, 3), rand(2, 2, 3, 3)], [rand(3, 2, 3, 3), rand(2, 2, 3, 3)]],
     lambda x, w: np_conv2d_transpose(x, w, (2, 2), (0, 0, 0, 0), (1, 1), (0, 0)))

# pooling
x = v("x", (1, 3, 10))
case("max_pool1d", [x], relay.nn.max_pool1d(x, pool_size=3, strides=2, padding=1),
     [[rand(1, 3, 10, lo=-5, hi=-1)]], lambda x: np_pool(x, "max", [3], [2], [1], [1]), EXACT)
x = v("x", (1, 3, 10))
case("avg_pool1d_ceil", [x], relay.nn.avg_pool1d(x, pool_size=3, strides=2, padding=1, ceil_mode=True),
     [[rand(1, 3, 10)]], lambda x: np_pool(x, "avg", [3], [2], [1], [1], ceil_mode=True))
x = v("x", (1, 10, 3))
case("avg_pool1d_nwc_incl", [x], relay.nn.avg_pool1d(x, pool_size=4, strides=3, padding=(2, 1), layout="NWC",
                                                      count_include_pad=True, ceil_mode=True),
     [[rand(1, 10, 3)]], lambda x: np_pool(x, "avg", [4], [3], [2], [1], ceil_mode=True, count_include_pad=True,
                                            layout_cf=False))
x = v("x", (1, 2, 6, 6))
case("avg_pool2d_ceil_incl", [x], relay.nn.avg_pool2d(x, pool_size=3, strides=2, padding=1, ceil_mode=True,
                                                      count_include_pad=True),
     [[rand(1, 2, 6, 6)]], lambda x: np_pool(x, "avg", [3, 3], [2, 2], [1, 1], [1, 1], ceil_mode=True,
                                             count_include_pad=True))
# (unsigned NCHW max has no named linalg op: the generic fallback, which must
# compare unsigned; widened to int32 as results of unsigned dtypes come back
# signed)
x = v("x", (1, 2, 6, 6), "uint8")
case("max_pool2d_u8_nchw", [x],
     relay.cast(relay.nn.max_pool2d(x, pool_size=2, strides=2, padding=1), "int32"),
     [[rand(1, 2, 6, 6, lo=0, hi=250, dtype="uint8")]],
     lambda x: np_pool(x, "max", [2, 2], [2, 2], [1, 1], [1, 1]).astype("int32"), EXACT)
x = v("x", (1, 3, 10), "int8")
case("max_pool1d_i8", [x], relay.nn.max_pool1d(x, pool_size=2, strides=2, dilation=2),
     [[rand(1, 3, 10, lo=-100, hi=100, dtype="int8")]], lambda x: np_pool(x, "max", [2], [2], [0], [0], [2]), EXACT)
x = v("x", (Any(), 2, Any()))
case("avg_pool1d[?]", [x], relay.nn.avg_pool1d(x, pool_size=3, padding=1),
     [[rand(1, 2, 5)], [rand(2, 2, 9)]], lambda x: np_pool(x, "avg", [3], [1], [1], [1]))
x = v("x", (1, 2, 5, 6, 7))
case("max_pool3d", [x], relay.nn.max_pool3d(x, pool_size=(2, 3, 3), strides=(1, 2, 2), padding=(0, 1, 1)),
     [[rand(1, 2, 5, 6, 7, lo=-5, hi=-1)]],
     lambda x: np_pool(x, "max", [2, 3, 3], [1, 2, 2], [0, 1, 1], [0, 1, 1]), EXACT)
x = v("x", (1, 5, 6, 7, 2))
case("max_pool3d_ndhwc", [x], relay.nn.max_pool3d(x, pool_size=2, strides=2, layout="NDHWC", ceil_mode=True),
     [[rand(1, 5, 6, 7, 2)]],
     lambda x: np_pool(x, "max", [2] * 3, [2] * 3, [0] * 3, [0] * 3, ceil_mode=True, layout_cf=False), EXACT)
x = v("x", (1, 2, 4, 5, 5))
case("avg_pool3d", [x], relay.nn.avg_pool3d(x, pool_size=3, strides=2, padding=1),
     [[rand(1, 2, 4, 5, 5)]], lambda x: np_pool(x, "avg", [3] * 3, [2] * 3, [1] * 3, [1] * 3))
x = v("x", (1, 4, 5, 5, 2))
case("avg_pool3d_ndhwc_incl", [x], relay.nn.avg_pool3d(x, pool_size=2, padding=1, layout="NDHWC",
                                                        count_include_pad=True),
     [[rand(1, 4, 5, 5, 2)]],
     lambda x: np_pool(x, "avg", [2] * 3, [1] * 3, [1] * 3, [1] * 3, count_include_pad=True, layout_cf=False))
x = v("x", (Any(), 2, 4, 4, 4))
case("max_pool3d[?]", [x], relay.nn.max_pool3d(x, pool_size=2, strides=2),
     [[rand(1, 2, 4, 4, 4)], [rand(3, 2, 4, 4, 4)]],
     lambda x: np_pool(x, "max", [2] * 3, [2] * 3, [0] * 3, [0] * 3), EXACT)

x = v("x", (2, 3, 5, 4))
case("global_max_pool2d", [x], relay.nn.global_max_pool2d(x), [[rand(2, 3, 5, 4)]],
     lambda x: x.max(axis=(2, 3), keepdims=True), EXACT)
x = v("x", (Any(), 5, 4, 3))
case("global_max_pool2d_nhwc[?]", [x], relay.nn.global_max_pool2d(x, layout="NHWC"),
     [[rand(1, 5, 4, 3)], [rand(3, 5, 4, 3)]], lambda x: x.max(axis=(1, 2), keepdims=True), EXACT)

x = v("x", (2, 3, 7, 8))
case("adaptive_avg_pool2d", [x], relay.nn.adaptive_avg_pool2d(x, output_size=(3, 5)), [[rand(2, 3, 7, 8)]],
     lambda x: np_adaptive(x, (3, 5), "avg"))
x = v("x", (1, 6, 7, 2))
case("adaptive_max_pool2d_nhwc", [x], relay.nn.adaptive_max_pool2d(x, output_size=3, layout="NHWC"),
     [[rand(1, 6, 7, 2)]], lambda x: np_adaptive(x, (3, 3), "max", nchw=False), EXACT)
x = v("x", (Any(), 3, 6, 6))
case("adaptive_avg_pool2d[?]", [x], relay.nn.adaptive_avg_pool2d(x, output_size=(1, 1)),
     [[rand(1, 3, 6, 6)], [rand(4, 3, 6, 6)]], lambda x: np_adaptive(x, (1, 1), "avg"))
x = v("x", (1, 3, 2, 2))  # VGG's head: the last 2x2 map to 1x1
case("adaptive_avg_pool2d_2x2_1x1", [x], relay.nn.adaptive_avg_pool2d(x, output_size=1),
     [[rand(1, 3, 2, 2)]], lambda x: np_adaptive(x, (1, 1), "avg"))
case("adaptive_max_pool2d_2x2_1x1", [x], relay.nn.adaptive_max_pool2d(x, output_size=1),
     [[rand(1, 3, 2, 2)]], lambda x: np_adaptive(x, (1, 1), "max"), EXACT)
x = v("x", (2, 2, 5, 7))  # neither extent divisible: overlapping cells
case("adaptive_avg_pool2d_5x7_3x2", [x], relay.nn.adaptive_avg_pool2d(x, output_size=(3, 2)),
     [[rand(2, 2, 5, 7)]], lambda x: np_adaptive(x, (3, 2), "avg"))
case("adaptive_max_pool2d_5x7_3x2", [x], relay.nn.adaptive_max_pool2d(x, output_size=(3, 2)),
     [[rand(2, 2, 5, 7)]], lambda x: np_adaptive(x, (3, 2), "max"), EXACT)
x = v("x", (Any(), 5, 7, 2))
case("adaptive_max_pool2d_nhwc_5x7_3x2[?]", [x], relay.nn.adaptive_max_pool2d(x, output_size=(3, 2), layout="NHWC"),
     [[rand(1, 5, 7, 2)], [rand(3, 5, 7, 2)]], lambda x: np_adaptive(x, (3, 2), "max", nchw=False), EXACT)
x = v("x", (Any(), 2, 2, 2))
case("adaptive_avg_pool2d_2x2_1x1[?]", [x], relay.nn.adaptive_avg_pool2d(x, output_size=(1, 1)),
     [[rand(1, 2, 2, 2)], [rand(3, 2, 2, 2)]], lambda x: np_adaptive(x, (1, 1), "avg"))

# normalisation
x, g, b = v("x", (3, 10)), v("g", (10,)), v("b", (10,))
case("layer_norm", [x, g, b], relay.nn.layer_norm(x, g, b), [[rand(3, 10), rand(10), rand(10)]],
     lambda x, g, b: np_norm(x, (1,), g, b))
x, g, b = v("x", (Any(), 4, 6)), v("g", (4,)), v("b", (4,))
case("layer_norm_axis1[?]", [x, g, b], relay.nn.layer_norm(x, g, b, axis=1, epsilon=1e-3, center=False),
     [[rand(1, 4, 6), rand(4), rand(4)], [rand(3, 4, 6), rand(4), rand(4)]],
     lambda x, g, b: np_norm(x, (1,), g, None, 1e-3, param_axis=1))
x, g, b = v("x", (2, 6, 3, 3)), v("g", (6,)), v("b", (6,))
case("group_norm", [x, g, b], relay.nn.group_norm(x, g, b, num_groups=3), [[rand(2, 6, 3, 3), rand(6), rand(6)]],
     lambda x, g, b: np_group_norm(x, g, b, 3))
x, g, b = v("x", (Any(), 4, 5)), v("g", (4,)), v("b", (4,))
case("group_norm[?]", [x, g, b], relay.nn.group_norm(x, g, b, num_groups=2),
     [[rand(1, 4, 5), rand(4), rand(4)], [rand(3, 4, 5), rand(4), rand(4)]],
     lambda x, g, b: np_group_norm(x, g, b, 2))
x, g, b = v("x", (2, 3, 4, 5)), v("g", (3,)), v("b", (3,))
case("instance_norm", [x, g, b], relay.nn.instance_norm(x, g, b), [[rand(2, 3, 4, 5), rand(3), rand(3)]],
     lambda x, g, b: np_norm(x, (2, 3), g, b, param_axis=1))
x, g, b = v("x", (2, 4, 5), "float16"), v("g", (5,), "float16"), v("b", (5,), "float16")
case("layer_norm_f16", [x, g, b], relay.nn.layer_norm(x, g, b),
     [[rand(2, 4, 5, dtype="float16"), rand(5, dtype="float16"), rand(5, dtype="float16")]],
     lambda x, g, b: np_norm(x, (2,), g, b), F16)
x = v("x", (3, 6))
case("l2_normalize", [x], relay.nn.l2_normalize(x, eps=1e-10, axis=[1]), [[rand(3, 6)]],
     lambda x: (x / np.sqrt(np.maximum((x.astype(np.float64) ** 2).sum(1, keepdims=True), 1e-10))).astype(x.dtype))
x = v("x", (Any(), 2, 3))
case("l2_normalize_all[?]", [x], relay.nn.l2_normalize(x, eps=0.5),
     [[rand(1, 2, 3, lo=-0.2, hi=0.2)], [rand(4, 2, 3)]],
     lambda x: (x / np.sqrt(max((x.astype(np.float64) ** 2).sum(), 0.5))).astype(x.dtype))
x = v("x", (2, 7, 3, 2))
case("lrn", [x], relay.nn.lrn(x, size=3, alpha=0.5, beta=0.75, bias=2.0), [[rand(2, 7, 3, 2)]],
     lambda x: np_lrn(x, 3, 1, 2.0, 0.5, 0.75), TRANSC)
x = v("x", (Any(), 3, 6))
case("lrn_even_last[?]", [x], relay.nn.lrn(x, size=4, axis=-1, alpha=0.1, beta=0.5, bias=1.0),
     [[rand(1, 3, 6)], [rand(2, 3, 6)]], lambda x: np_lrn(x, 4, 2, 1.0, 0.1, 0.5), TRANSC)
x = v("x", (3, 7))
case("log_softmax", [x], relay.nn.log_softmax(x), [[rand(3, 7, lo=-5, hi=5)]], np_log_softmax, TRANSC)
x = v("x", (Any(), 4, 3))
case("log_softmax_axis1[?]", [x], relay.nn.log_softmax(x, axis=1), [[rand(1, 4, 3)], [rand(5, 4, 3)]],
     lambda x: np_log_softmax(x, 1), TRANSC)

# activations, dropout
x = v("x", (3, 5))
case("leaky_relu", [x], relay.nn.leaky_relu(x, alpha=0.2), [[rand(3, 5)]],
     lambda x: np.where(x > 0, x, x * np.float32(0.2)), dict(rtol=1e-6, atol=0))
x, al = v("x", (Any(), 3, 2)), v("alpha", (3,))
case("prelu[?]", [x, al], relay.nn.prelu(x, al), [[rand(1, 3, 2), rand(3)], [rand(4, 3, 2), rand(3)]],
     lambda x, a: np.where(x > 0, x, x * a.reshape(1, 3, 1)), dict(rtol=1e-6, atol=0))
x, al = v("x", (2, 4)), v("alpha", (4,))
case("prelu_last", [x, al], relay.nn.prelu(x, al, axis=-1), [[rand(2, 4), rand(4)]],
     lambda x, a: np.where(x > 0, x, x * a), dict(rtol=1e-6, atol=0))
x = v("x", (Any(), 6))
case("gelu[?]", [x], relay.nn.gelu(x), [[rand(2, 6, lo=-4, hi=4)], [rand(5, 6, lo=-4, hi=4)]], np_gelu, TRANSC)
x = v("x", (2, 6), "float16")
case("gelu_f16", [x], relay.nn.gelu(x), [[rand(2, 6, lo=-3, hi=3, dtype="float16")]], np_gelu, F16)
x = v("x", (Any(), 5))
case("dropout[?]", [x], relay.nn.relu(relay.nn.dropout(x, rate=0.3)), [[rand(2, 5)], [rand(4, 5)]],
     lambda x: np.maximum(x, 0), EXACT)
x = v("x", (2, 5))
d = relay.nn.dropout_raw(x)
case("dropout_mask", [x], d[1], [[rand(2, 5)]], lambda x: np.ones_like(x), EXACT)

# pad
x = v("x", (2, 3))
case("pad_constant", [x], relay.nn.pad(x, ((1, 0), (2, 1)), pad_value=1.5), [[rand(2, 3)]],
     lambda x: np_pad(x, ((1, 0), (2, 1)), 1.5), EXACT)
x, pv = v("x", (Any(), 3)), v("pv", ())
case("pad_value_expr[?]", [x, pv], relay.nn.pad(x, ((0, 1), (1, 1)), pad_value=pv),
     [[rand(1, 3), np.array(-7.0, "float32")], [rand(4, 3), np.array(3.0, "float32")]],
     lambda x, p: np_pad(x, ((0, 1), (1, 1)), p), EXACT)
x = v("x", (3, 4), "int32")
case("pad_edge_i32", [x], relay.nn.pad(x, ((2, 1), (0, 3)), pad_mode="edge"),
     [[rand(3, 4, lo=-9, hi=9, dtype="int32")]], lambda x: np_pad(x, ((2, 1), (0, 3)), mode="edge"), EXACT)
x = v("x", (Any(), 4))
case("pad_reflect[?]", [x], relay.nn.pad(x, ((1, 1), (3, 2)), pad_mode="reflect"),
     [[rand(2, 4)], [rand(5, 4)]], lambda x: np_pad(x, ((1, 1), (3, 2)), mode="reflect"), EXACT)

# upsampling
x = v("x", (1, 2, 3, 4))
case("upsampling_nearest", [x], relay.nn.upsampling(x, scale_h=2, scale_w=1.5), [[rand(1, 2, 3, 4)]],
     lambda x: np_upsampling(x, 2, 1.5, "nearest_neighbor", False), EXACT)
x = v("x", (1, 2, 3, 4))
case("upsampling_bilinear", [x], relay.nn.upsampling(x, scale_h=2, scale_w=2, method="bilinear"),
     [[rand(1, 2, 3, 4)]], lambda x: np_upsampling(x, 2, 2, "bilinear", False), ACCUM)
x = v("x", (1, 3, 4, 2))
case("upsampling_bilinear_align_nhwc", [x],
     relay.nn.upsampling(x, scale_h=2, scale_w=3, layout="NHWC", method="bilinear", align_corners=True),
     [[rand(1, 3, 4, 2)]], lambda x: np_upsampling(x, 2, 3, "bilinear", True, nchw=False), ACCUM)
x = v("x", (Any(), 2, 2, 3))
case("upsampling_nearest[?]", [x], relay.nn.upsampling(x, scale_h=3, scale_w=2),
     [[rand(1, 2, 2, 3)], [rand(2, 2, 2, 3)]], lambda x: np_upsampling(x, 3, 2, "nearest_neighbor", False), EXACT)

# depth_to_space / space_to_depth
x = v("x", (2, 8, 2, 3))
case("depth_to_space_dcr", [x], relay.nn.depth_to_space(x, 2), [[rand(2, 8, 2, 3)]],
     lambda x: np_depth_to_space(x, 2), EXACT)
x = v("x", (1, 18, 2, 2), "int8")
case("depth_to_space_crd_i8", [x], relay.nn.depth_to_space(x, 3, mode="CRD"),
     [[rand(1, 18, 2, 2, lo=-100, hi=100, dtype="int8")]], lambda x: np_depth_to_space(x, 3, "CRD"), EXACT)
x = v("x", (Any(), 2, 3, 8))
case("depth_to_space_nhwc_crd[?]", [x], relay.nn.depth_to_space(x, 2, layout="NHWC", mode="CRD"),
     [[rand(1, 2, 3, 8)], [rand(2, 2, 3, 8)]], lambda x: np_depth_to_space(x, 2, "CRD", nchw=False), EXACT)
x = v("x", (2, 3, 4, 6))
case("space_to_depth", [x], relay.nn.space_to_depth(x, 2), [[rand(2, 3, 4, 6)]],
     lambda x: np_space_to_depth(x, 2), EXACT)
x = v("x", (Any(), 4, 6, 2))
case("space_to_depth_nhwc[?]", [x], relay.nn.space_to_depth(x, 2, layout="NHWC"),
     [[rand(1, 4, 6, 2)], [rand(3, 4, 6, 2)]], lambda x: np_space_to_depth(x, 2, nchw=False), EXACT)


# ---------------------------------------------------------------------------
def _fn_name(name: str) -> str:
    return "t_" + "".join(c if c.isalnum() else "_" for c in name)


@pytest.fixture(scope="module")
def exe():
    mod = relay.IRModule({_fn_name(n): f for n, (f, _, _, _) in CASES.items()})
    return relay.compile(mod, target="llvm-cpu")


@pytest.mark.parametrize("name", list(CASES))
def test_nn_op(exe, name):
    _, runs, reference, tol = CASES[name]
    assert len(runs) == (2 if name.endswith("[?]") else 1)
    for inputs in runs:
        got = exe.run(_fn_name(name), *inputs)
        want = reference(*inputs)
        assert got.shape == want.shape, (got.shape, want.shape)
        assert got.dtype == want.dtype, (got.dtype, want.dtype)
        np.testing.assert_allclose(got, want, **tol)
