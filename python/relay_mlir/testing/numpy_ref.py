"""Independent numpy reference implementations of the relay operators.

Written directly from the operators' definitions (Relay semantics), not from
the linalg lowering, and computed in float64, so compiled results can be
checked against them.

Example::

    >>> import numpy as np
    >>> from relay_mlir.testing import numpy_ref as ref
    >>> x = np.arange(16, dtype="float32").reshape(1, 1, 4, 4)
    >>> ref.max_pool2d(x, pool_size=(2, 2), strides=(2, 2))[0, 0]
    array([[ 5.,  7.],
           [13., 15.]], dtype=float32)
"""
from __future__ import annotations

import math
from typing import Dict, Sequence, Tuple

import numpy as np

__all__ = [
    "pad4", "conv2d", "max_pool2d", "avg_pool2d", "global_avg_pool2d", "batch_norm", "dense",
    "bias_add", "softmax", "relu", "sigmoid", "batch_flatten", "reshape_shape", "reduce",
    "resnet_forward",
]


def pad4(padding: Sequence[int]) -> Tuple[int, int, int, int]:
    """Relay's 1/2/4-entry padding as ``(top, left, bottom, right)``.

    >>> pad4([1]), pad4([1, 2]), pad4([1, 2, 3, 4])
    ((1, 1, 1, 1), (1, 2, 1, 2), (1, 2, 3, 4))
    """
    p = [int(v) for v in (padding if not isinstance(padding, int) else [padding])]
    if len(p) == 1:
        return p[0], p[0], p[0], p[0]
    if len(p) == 2:
        return p[0], p[1], p[0], p[1]
    if len(p) == 4:
        return p[0], p[1], p[2], p[3]
    raise ValueError(f"padding must have 1, 2 or 4 entries, got {p}")


def _out_size(n: int, k: int, s: int, d: int, before: int, after: int, ceil: bool = False) -> int:
    eff = d * (k - 1) + 1
    span = n + before + after - eff
    if ceil:
        o = -(-span // s) + 1
        # the last window must start inside the input or the leading padding
        if (o - 1) * s >= n + before:
            o -= 1
        return o
    return span // s + 1


def conv2d(x: np.ndarray, w: np.ndarray, strides=(1, 1), padding=(0, 0), dilation=(1, 1),
           groups: int = 1, data_layout: str = "NCHW", kernel_layout: str = "OIHW") -> np.ndarray:
    """2-D convolution (cross-correlation), computed in float64.

    >>> x = np.ones((1, 1, 3, 3), "float32"); w = np.ones((1, 1, 3, 3), "float32")
    >>> conv2d(x, w, padding=(1, 1))[0, 0]
    array([[4., 6., 4.],
           [6., 9., 6.],
           [4., 6., 4.]], dtype=float32)
    """
    dtype = x.dtype
    if data_layout == "NHWC":
        x = x.transpose(0, 3, 1, 2)
    if kernel_layout == "HWIO":
        w = w.transpose(3, 2, 0, 1)
    elif kernel_layout == "HWOI":
        w = w.transpose(2, 3, 0, 1)
    x = x.astype(np.float64)
    w = w.astype(np.float64)
    n, c, h, wd = x.shape
    o, cg, kh, kw = w.shape
    assert c == cg * groups, "channels / groups mismatch"
    t, l, b, r = pad4(padding)
    sh, sw = strides
    dh, dw = dilation
    oh = _out_size(h, kh, sh, dh, t, b)
    ow = _out_size(wd, kw, sw, dw, l, r)
    xp = np.pad(x, ((0, 0), (0, 0), (t, b), (l, r)))
    xg = xp.reshape(n, groups, cg, xp.shape[2], xp.shape[3])
    wg = w.reshape(groups, o // groups, cg, kh, kw)
    out = np.zeros((n, groups, o // groups, oh, ow))
    for i in range(kh):
        for j in range(kw):
            patch = xg[:, :, :, i * dh: i * dh + sh * (oh - 1) + 1: sh,
                       j * dw: j * dw + sw * (ow - 1) + 1: sw]
            out += np.einsum("ngchw,goc->ngohw", patch, wg[:, :, :, i, j])
    out = out.reshape(n, o, oh, ow)
    if data_layout == "NHWC":
        out = out.transpose(0, 2, 3, 1)
    return out.astype(dtype)


def _windows(x: np.ndarray, pool_size, strides, dilation, padding, ceil_mode, fill):
    """Yields (i, j, window-slice) over padded NCHW input; returns output dims."""
    n, c, h, w = x.shape
    kh, kw = pool_size
    sh, sw = strides
    dh, dw = dilation
    t, l, b, r = pad4(padding)
    oh = _out_size(h, kh, sh, dh, t, b, ceil_mode)
    ow = _out_size(w, kw, sw, dw, l, r, ceil_mode)
    # extra bottom/right padding so every window is in range
    eb = max(0, (oh - 1) * sh + dh * (kh - 1) + 1 - (h + t + b))
    er = max(0, (ow - 1) * sw + dw * (kw - 1) + 1 - (w + l + r))
    xp = np.pad(x, ((0, 0), (0, 0), (t, b + eb), (l, r + er)), constant_values=fill)
    return xp, oh, ow, (t, l, b, r)


def max_pool2d(x: np.ndarray, pool_size=(1, 1), strides=(1, 1), dilation=(1, 1), padding=(0, 0),
               layout: str = "NCHW", ceil_mode: bool = False) -> np.ndarray:
    """2-D max pooling; padded cells are -inf (never chosen)."""
    if layout == "NHWC":
        return max_pool2d(x.transpose(0, 3, 1, 2), pool_size, strides, dilation, padding,
                          "NCHW", ceil_mode).transpose(0, 2, 3, 1)
    xp, oh, ow, _ = _windows(x.astype(np.float64), pool_size, strides, dilation, padding, ceil_mode, -np.inf)
    kh, kw = pool_size
    sh, sw = strides
    dh, dw = dilation
    out = np.full(x.shape[:2] + (oh, ow), -np.inf)
    for i in range(kh):
        for j in range(kw):
            out = np.maximum(out, xp[:, :, i * dh: i * dh + sh * (oh - 1) + 1: sh,
                                     j * dw: j * dw + sw * (ow - 1) + 1: sw])
    return out.astype(x.dtype)


def avg_pool2d(x: np.ndarray, pool_size=(1, 1), strides=(1, 1), dilation=(1, 1), padding=(0, 0),
               layout: str = "NCHW", ceil_mode: bool = False,
               count_include_pad: bool = False) -> np.ndarray:
    """2-D average pooling; the divisor counts padded cells only if ``count_include_pad``."""
    if layout == "NHWC":
        return avg_pool2d(x.transpose(0, 3, 1, 2), pool_size, strides, dilation, padding, "NCHW",
                          ceil_mode, count_include_pad).transpose(0, 2, 3, 1)
    xp, oh, ow, (t, l, b, r) = _windows(x.astype(np.float64), pool_size, strides, dilation,
                                        padding, ceil_mode, 0.0)
    n, c, h, w = x.shape
    # 1 on real cells (and on explicit padding when counted), 0 elsewhere
    mask = np.zeros(xp.shape[2:])
    if count_include_pad:
        mask[: h + t + b, : w + l + r] = 1.0
    else:
        mask[t: t + h, l: l + w] = 1.0
    kh, kw = pool_size
    sh, sw = strides
    dh, dw = dilation
    total = np.zeros((n, c, oh, ow))
    count = np.zeros((oh, ow))
    for i in range(kh):
        for j in range(kw):
            sl = (slice(i * dh, i * dh + sh * (oh - 1) + 1, sh), slice(j * dw, j * dw + sw * (ow - 1) + 1, sw))
            total += xp[(slice(None), slice(None)) + sl]
            count += mask[sl]
    return (total / np.maximum(count, 1)).astype(x.dtype)


def global_avg_pool2d(x: np.ndarray, layout: str = "NCHW") -> np.ndarray:
    """Mean over H and W, kept as size-1 dims."""
    axes = (2, 3) if layout == "NCHW" else (1, 2)
    return x.astype(np.float64).mean(axis=axes, keepdims=True).astype(x.dtype)


def batch_norm(x, gamma, beta, mean, var, axis: int = 1, epsilon: float = 1e-5,
               center: bool = True, scale: bool = True) -> np.ndarray:
    """Inference batch norm: ``(x - mean) / sqrt(var + eps) * gamma + beta`` along ``axis``."""
    shape = [1] * x.ndim
    shape[axis] = -1
    f = lambda v: np.asarray(v, np.float64).reshape(shape)  # noqa: E731
    y = (x.astype(np.float64) - f(mean)) / np.sqrt(f(var) + epsilon)
    if scale:
        y = y * f(gamma)
    if center:
        y = y + f(beta)
    return y.astype(x.dtype)


def dense(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """``x · wᵀ``."""
    return (x.astype(np.float64) @ w.astype(np.float64).T).astype(x.dtype)


def bias_add(x: np.ndarray, b: np.ndarray, axis: int = 1) -> np.ndarray:
    """Adds a 1-D bias along ``axis``."""
    shape = [1] * x.ndim
    shape[axis] = -1
    return (x + b.reshape(shape)).astype(x.dtype)


def softmax(x: np.ndarray, axis: int = -1) -> np.ndarray:
    """Numerically stable softmax."""
    z = x.astype(np.float64)
    z = np.exp(z - z.max(axis=axis, keepdims=True))
    return (z / z.sum(axis=axis, keepdims=True)).astype(x.dtype)


def relu(x: np.ndarray) -> np.ndarray:
    """``max(x, 0)``."""
    return np.maximum(x, 0).astype(x.dtype)


def sigmoid(x: np.ndarray) -> np.ndarray:
    """``1 / (1 + e^-x)``."""
    return (1.0 / (1.0 + np.exp(-x.astype(np.float64)))).astype(x.dtype)


def batch_flatten(x: np.ndarray) -> np.ndarray:
    """``[N, ...] -> [N, prod(...)]``."""
    return x.reshape(x.shape[0], -1)


def reshape_shape(shape: Sequence[int], newshape: Sequence[int]) -> Tuple[int, ...]:
    """Applies Relay's reshape codes (0, -1, -2, -3, -4) to a static shape.

    >>> reshape_shape((2, 3, 4), (0, -1))
    (2, 12)
    >>> reshape_shape((2, 3, 4), (-3, 4))
    (6, 4)
    >>> reshape_shape((6, 4), (-4, 2, -1, 4))
    (2, 3, 4)
    >>> reshape_shape((2, 3, 4), (-2,))
    (2, 3, 4)
    """
    out, i, src, infer = [], 0, list(shape), -1
    codes = list(newshape)
    j = 0
    while j < len(codes):
        c = codes[j]
        if c == 0:
            out.append(src[i]); i += 1
        elif c == -1:
            infer = len(out); out.append(-1); i += 1
        elif c == -2:
            out.extend(src[i:]); i = len(src)
        elif c == -3:
            out.append(src[i] * src[i + 1]); i += 2
        elif c == -4:
            a, b = codes[j + 1], codes[j + 2]
            if a == -1:
                a = src[i] // b
            if b == -1:
                b = src[i] // a
            out.extend([a, b]); i += 1; j += 2
        else:
            out.append(c); i += 1
        j += 1
    if infer >= 0:
        known = math.prod(d for k, d in enumerate(out) if k != infer)
        out[infer] = math.prod(src) // known
    return tuple(int(d) for d in out)


def reduce(fn, x: np.ndarray, axis=None, keepdims: bool = False, exclude: bool = False) -> np.ndarray:
    """A Relay reduction (``np.sum``/``np.mean``) with ``axis``/``keepdims``/``exclude``."""
    if axis is None:
        axes = tuple(range(x.ndim))
    else:
        axes = tuple(a % x.ndim for a in ([axis] if isinstance(axis, int) else axis))
    if exclude:
        axes = tuple(a for a in range(x.ndim) if a not in axes)
    return np.asarray(fn(x.astype(np.float64), axis=axes, keepdims=keepdims)).astype(x.dtype)


# ---------------------------------------------------------------------------
# The network of relay_mlir.testing.resnet, written out in numpy.
# ---------------------------------------------------------------------------
def _conv_bn(p: Dict[str, np.ndarray], x, name: str, stride: int, pad: int, relu_: bool):
    y = conv2d(x, p[f"{name}_weight"], strides=(stride, stride), padding=(pad, pad))
    y = batch_norm(y, p[f"{name}_bn_gamma"], p[f"{name}_bn_beta"],
                   p[f"{name}_bn_moving_mean"], p[f"{name}_bn_moving_var"], epsilon=2e-5)
    return relu(y) if relu_ else y


def resnet_forward(params: Dict[str, np.ndarray], data: np.ndarray) -> np.ndarray:
    """Forward pass of ``resnet.get_workload()``'s network on ``data`` (NCHW)."""
    p = params
    x = _conv_bn(p, data, "stem", 1, 1, True)
    x = max_pool2d(x, (3, 3), (2, 2), padding=(1, 1))
    # stage 1: identity residual block
    y = _conv_bn(p, x, "stage1_conv1", 1, 1, True)
    y = _conv_bn(p, y, "stage1_conv2", 1, 1, False)
    x = relu(x + y)
    # stage 2: strided block, shortcut = avg_pool + 1x1 conv
    y = _conv_bn(p, x, "stage2_conv1", 2, 1, True)
    y = _conv_bn(p, y, "stage2_conv2", 1, 1, False)
    s = avg_pool2d(x, (2, 2), (2, 2))
    s = _conv_bn(p, s, "stage2_proj", 1, 0, False)
    x = relu(s + y)
    x = batch_flatten(global_avg_pool2d(x))
    x = bias_add(dense(x, p["fc_weight"]), p["fc_bias"], axis=-1)
    return softmax(x, axis=-1)
