"""The debug interpreter's numpy kernels of the NN ops (``dialect/relay/RelayNNOps.td``)."""
from __future__ import annotations

import math
from typing import Optional

import numpy as np

from ..errors import RelayRuntimeError
from ._common import _arr, _axis, _f64, _is_float
from ._layout import _from_cf, _to_cf
from ._registry import _reg
from .elementwise import _erf, _round_half_away


@_reg("nn.gelu")
def _gelu(args, attrs):
    """TVM's exact gelu, ``x/2 * (1 + erf(x / sqrt(2)))``; float inputs in float64, rounded
    once to the input dtype (as the wide elementwise unary kernels)."""
    (x,) = args
    xw = _f64(x) if _is_float(x) else x
    return _arr(0.5 * xw * (1.0 + _erf(xw / math.sqrt(2.0))), x.dtype)


@_reg("nn.leaky_relu")
def _leaky_relu(args, attrs):
    (x,) = args
    a = float(attrs.get("alpha", 0.01))
    return _arr(np.where(x > 0, _f64(x), _f64(x) * a), x.dtype)


@_reg("nn.prelu")
def _prelu(args, attrs):
    x, alpha = args
    ax = _axis(attrs.get("axis", 1), x.ndim)
    shape = [1] * x.ndim
    shape[ax] = -1
    return _arr(np.where(x > 0, _f64(x), _f64(x) * _f64(alpha).reshape(shape)), x.dtype)


# -- nn: dense / matmul ------------------------------------------------------------------
def _acc_matmul(a: np.ndarray, b: np.ndarray, out_dtype: Optional[str]) -> np.ndarray:
    dt = np.dtype(out_dtype) if out_dtype else a.dtype
    if _is_float(a) or _is_float(b):
        return _arr(np.matmul(_f64(a), _f64(b)), dt)
    return _arr(np.matmul(a.astype(np.int64), b.astype(np.int64)), dt)


@_reg("nn.dense")
def _dense(args, attrs):
    x, w = args
    return _acc_matmul(x, w.T, attrs.get("out_dtype") or None)


@_reg("nn.matmul")
def _matmul(args, attrs):
    a, b = args
    if attrs.get("transpose_a"):
        a = np.swapaxes(a, -1, -2)
    if attrs.get("transpose_b"):
        b = b.T
    return _acc_matmul(a, b, attrs.get("out_dtype") or None)


@_reg("nn.batch_matmul")
def _batch_matmul(args, attrs):
    x, y = args
    if attrs.get("transpose_a", False):
        x = np.swapaxes(x, 1, 2)
    if attrs.get("transpose_b", True):
        y = np.swapaxes(y, 1, 2)
    return _acc_matmul(x, y, attrs.get("out_dtype") or None)


@_reg("nn.bias_add")
def _bias_add(args, attrs):
    x, b = args
    ax = _axis(attrs.get("axis", 1), x.ndim)
    shape = [1] * x.ndim
    shape[ax] = -1
    return _arr(x + b.reshape(shape), x.dtype)


@_reg("nn.batch_flatten")
def _batch_flatten(args, attrs):
    (x,) = args
    return x.reshape(x.shape[0], -1)


@_reg("nn.dropout")
def _dropout(args, attrs):
    (x,) = args  # inference: the identity, and a mask of ones
    return (x.copy(), np.ones_like(x))


# -- nn: pad, upsampling, depth/space ---------------------------------------------------------
@_reg("nn.pad")
def _pad(args, attrs):
    x, value = args
    flat = list(attrs["pad_width"])
    width = [(flat[2 * i], flat[2 * i + 1]) for i in range(len(flat) // 2)]
    mode = attrs.get("pad_mode", "constant")
    if mode == "constant":
        return np.pad(x, width, mode="constant", constant_values=value.astype(x.dtype))
    if mode in ("edge", "reflect"):
        return np.pad(x, width, mode=mode)
    raise RelayRuntimeError(f"nn.pad: unknown pad_mode '{mode}'")


@_reg("nn.mirror_pad")
def _mirror_pad(args, attrs):
    (x,) = args
    flat = list(attrs["pad_width"])
    width = [(flat[2 * i], flat[2 * i + 1]) for i in range(len(flat) // 2)]
    return np.pad(x, width, mode=attrs.get("mode", "SYMMETRIC").lower())


def _resample_axis(x: np.ndarray, axis: int, n_out: int, linear: bool, mode: str) -> np.ndarray:
    """``x`` resized along ``axis`` to ``n_out`` by topi's resize coordinate ``mode``: the
    nearest sample (round for align_corners, else floor(c + 1e-5)) or the two-tap linear mix;
    coordinates and weights in float32, indices clamped to the axis."""
    f32 = np.float32
    n_in = x.shape[axis]
    o = np.arange(n_out, dtype=f32)
    if mode == "align_corners":
        c = o * f32((n_in - 1) / (n_out - 1)) if n_out > 1 else np.zeros_like(o)
    elif mode == "half_pixel":
        c = (o + f32(0.5)) * (f32(n_in) / f32(n_out)) - f32(0.5)
    else:
        c = o * (f32(n_in) / f32(n_out))

    def at(i):
        return np.take(x, np.clip(i, 0, n_in - 1), axis=axis)
    if not linear:
        return at((_round_half_away(c) if mode == "align_corners" else np.floor(c + f32(1e-5))).astype(int))
    lo = np.floor(c)
    shape = [1] * x.ndim
    shape[axis] = n_out
    frac = (c - lo).reshape(shape)
    lo = lo.astype(int)
    return at(lo) * (1 - frac) + at(lo + 1) * frac


@_reg("nn.upsampling3d")
def _upsampling3d(args, attrs):
    """topi's resize3d: nearest and trilinear both factor into one resample per spatial dim."""
    (x,) = args
    layout = attrs.get("layout", "NCDHW")
    linear = attrs.get("method", "nearest_neighbor") == "trilinear"
    mode = attrs.get("coordinate_transformation_mode", "half_pixel")
    y = _to_cf(x, layout, "NCDHW")
    y = y.astype(np.float64 if x.dtype == np.float64 else np.float32) if linear else y
    for axis, a in zip((2, 3, 4), "dhw"):
        # round() is half to even, as TVM sizes the output
        y = _resample_axis(y, axis, int(round(y.shape[axis] * attrs.get(f"scale_{a}", 1.0))), linear, mode)
    return _arr(_from_cf(y, "NCDHW", layout), x.dtype)


@_reg("nn.upsampling")
def _upsampling(args, attrs):
    (x,) = args
    layout = attrs.get("layout", "NCHW")
    xc = _to_cf(x, layout, "NCHW")
    h, w = xc.shape[2:]
    oh, ow = int(round(h * attrs.get("scale_h", 1.0))), int(round(w * attrs.get("scale_w", 1.0)))
    align = bool(attrs.get("align_corners", False))

    def coords(n_in, n_out):
        o = np.arange(n_out, dtype=np.float32)
        if align:
            return o * np.float32((n_in - 1) / max(n_out - 1, 1))
        return o * np.float32(n_in / n_out)
    cy, cx = coords(h, oh), coords(w, ow)
    if attrs.get("method", "nearest_neighbor") == "nearest_neighbor":
        iy = _round_half_away(cy) if align else np.floor(cy + np.float32(1e-5))
        ix = _round_half_away(cx) if align else np.floor(cx + np.float32(1e-5))
        iy, ix = np.clip(iy.astype(int), 0, h - 1), np.clip(ix.astype(int), 0, w - 1)
        out = xc[:, :, iy][:, :, :, ix]
    else:
        y0, x0 = np.floor(cy).astype(int), np.floor(cx).astype(int)
        fy, fx = (cy - y0)[:, None].astype(np.float64), (cx - x0)[None, :].astype(np.float64)
        y1, x1 = np.clip(y0 + 1, 0, h - 1), np.clip(x0 + 1, 0, w - 1)
        y0, x0 = np.clip(y0, 0, h - 1), np.clip(x0, 0, w - 1)

        def g(a, b):
            return _f64(xc[:, :, a][:, :, :, b])
        top = g(y0, x0) * (1 - fx) + g(y0, x1) * fx
        bot = g(y1, x0) * (1 - fx) + g(y1, x1) * fx
        out = _arr(top * (1 - fy) + bot * fy, x.dtype)
    return _from_cf(out, "NCHW", layout)


@_reg("nn.depth_to_space")
def _depth_to_space(args, attrs):
    (x,) = args
    layout = attrs.get("layout", "NCHW")
    b = int(attrs["block_size"])
    xc = _to_cf(x, layout, "NCHW")
    n, c, h, w = xc.shape
    oc = c // (b * b)
    if attrs.get("mode", "DCR") == "DCR":
        y = xc.reshape(n, b, b, oc, h, w).transpose(0, 3, 4, 1, 5, 2)
    else:
        y = xc.reshape(n, oc, b, b, h, w).transpose(0, 1, 4, 2, 5, 3)
    return _from_cf(y.reshape(n, oc, h * b, w * b), "NCHW", layout)


@_reg("nn.space_to_depth")
def _space_to_depth(args, attrs):
    (x,) = args
    layout = attrs.get("layout", "NCHW")
    b = int(attrs["block_size"])
    xc = _to_cf(x, layout, "NCHW")
    n, c, h, w = xc.shape
    y = xc.reshape(n, c, h // b, b, w // b, b).transpose(0, 3, 5, 1, 2, 4)
    return _from_cf(y.reshape(n, c * b * b, h // b, w // b), "NCHW", layout)


# -- nn.space_to_batch_nd / nn.batch_to_space_nd (TVM 0.19's topi semantics) ------------------
# data [N, S1..SM, rest...], block_shape [b1..bM]; paddings / crops as (before, after) pairs

def _space_to_batch_shapes(op: str, shape, block, paddings):
    """(the split shape [N, P1/b1, b1, .., rest], the permutation putting the blocks first,
    the result shape)."""
    m = len(block)
    if len(shape) < m + 1:
        raise ValueError(f"{op}: data of rank {len(shape)} has no {m} spatial dims after the batch")
    padded = [shape[0]] + [s + p[0] + p[1] for s, p in zip(shape[1:m + 1], paddings)] + \
        list(shape[m + 1:])
    for i, b in enumerate(block):
        if padded[1 + i] % b:
            raise ValueError(f"{op}: padded spatial dim {i} ({padded[1 + i]}) is not a multiple "
                             f"of block_shape[{i}] = {b}")
    split = [padded[0]]
    for i, b in enumerate(block):
        split += [padded[1 + i] // b, b]
    split += padded[m + 1:]
    perm = [2 + 2 * i for i in range(m)] + [0] + [1 + 2 * i for i in range(m)] + \
        list(range(2 * m + 1, len(split)))
    result = [int(np.prod(block)) * padded[0]] + [padded[1 + i] // b for i, b in enumerate(block)] \
        + padded[m + 1:]
    return split, perm, result


def _batch_to_space_shapes(op: str, shape, block):
    """(the split shape [b1..bM, N, S1..SM, rest], the permutation interleaving each Si with
    its bi, the uncropped result shape)."""
    m, nb = len(block), int(np.prod(block))
    if len(shape) < m + 1:
        raise ValueError(f"{op}: data of rank {len(shape)} has no {m} spatial dims after the batch")
    if shape[0] % nb:
        raise ValueError(f"{op}: batch {shape[0]} is not a multiple of the block size {nb}")
    split = list(block) + [shape[0] // nb] + list(shape[1:])
    perm = [m]
    for i in range(m):
        perm += [m + 1 + i, i]
    perm += list(range(2 * m + 1, len(split)))
    result = [shape[0] // nb] + [s * b for s, b in zip(shape[1:m + 1], block)] + list(shape[m + 1:])
    return split, perm, result


@_reg("nn.space_to_batch_nd")
def _space_to_batch_nd(args, attrs):
    (x,) = args
    block, pads = list(attrs["block_shape"]), [list(p) for p in attrs["paddings"]]
    split, perm, result = _space_to_batch_shapes("nn.space_to_batch_nd", x.shape, block, pads)
    width = [(0, 0)] + [tuple(p) for p in pads] + [(0, 0)] * (x.ndim - len(block) - 1)
    padded = np.pad(x, width, constant_values=np.asarray(attrs["pad_value"]).astype(x.dtype))
    return np.ascontiguousarray(padded.reshape(split).transpose(perm)).reshape(result)


@_reg("nn.batch_to_space_nd")
def _batch_to_space_nd(args, attrs):
    (x,) = args
    block, crops = list(attrs["block_shape"]), [list(c) for c in attrs["crops"]]
    split, perm, full = _batch_to_space_shapes("nn.batch_to_space_nd", x.shape, block)
    y = np.ascontiguousarray(x.reshape(split).transpose(perm)).reshape(full)
    index = (slice(None),) + tuple(slice(c[0], s - c[1]) for s, c in zip(full[1:], crops))
    return np.ascontiguousarray(y[index])


# --- TVM 0.19's nn.dilate and losses --------------------------------------------------------------

@_reg("nn.dilate")
def _dilate(args, attrs):
    (x,) = args
    strides = [int(s) for s in attrs["strides"]]
    shape = [(d - 1) * s + 1 if d else 0 for d, s in zip(x.shape, strides)]
    out = np.full(shape, attrs.get("dilation_value", 0.0)).astype(x.dtype)
    out[tuple(slice(None, None, s) for s in strides)] = x
    return out


@_reg("nn.cross_entropy")
def _cross_entropy(args, attrs):
    x, y = args
    return np.asarray(-np.sum(np.log(x) * y) / x.shape[0], dtype=x.dtype)


@_reg("nn.cross_entropy_with_logits")
def _cross_entropy_with_logits(args, attrs):
    x, y = args
    return np.asarray(-np.sum(x * y) / x.shape[0], dtype=x.dtype)


@_reg("nn.nll_loss")
def _nll_loss(args, attrs):
    pred, target, weights = args
    t = target.astype(np.int64)
    counted = t != int(attrs.get("ignore_index", -100))
    tc = np.clip(t, 0, pred.shape[1] - 1)
    picked = np.take_along_axis(pred, np.expand_dims(tc, 1), axis=1).squeeze(1)
    w = np.where(counted, weights[tc], 0).astype(pred.dtype)
    loss = np.where(counted, -picked * weights[tc], 0).astype(pred.dtype)
    reduction = attrs.get("reduction", "mean")
    if reduction == "none":
        return loss
    if reduction == "sum":
        return np.asarray(loss.sum(), dtype=pred.dtype)
    return np.asarray(loss.sum() / w.sum(), dtype=pred.dtype)
