"""The debug interpreter's numpy kernels of the Norm ops (``dialect/relay/RelayNormOps.td``)."""
from __future__ import annotations

import numpy as np

from ._common import _arr, _axis, _f64
from ._registry import _reg
from .reduce import _amax


@_reg("nn.softmax")
def _softmax(args, attrs):
    (x,) = args
    ax = attrs.get("axis", -1)
    y = _f64(x)
    e = np.exp(y - _amax(y, axis=ax, keepdims=True))
    return _arr(e / e.sum(axis=ax, keepdims=True), x.dtype)


@_reg("nn.log_softmax")
def _log_softmax(args, attrs):
    (x,) = args
    ax = attrs.get("axis", -1)
    y = _f64(x)
    m = _amax(y, axis=ax, keepdims=True)
    return _arr(y - m - np.log(np.exp(y - m).sum(axis=ax, keepdims=True)), x.dtype)


# -- normalisations ------------------------------------------------------------------------
def _param_shape(ndim: int, axis: int) -> list:
    shape = [1] * ndim
    shape[axis] = -1
    return shape


def _affine(y, x, gamma, beta, axis, attrs):
    shape = _param_shape(x.ndim, axis)
    if attrs.get("scale", True):
        y = y * _f64(gamma).reshape(shape)
    if attrs.get("center", True):
        y = y + _f64(beta).reshape(shape)
    return _arr(y, x.dtype)


@_reg("nn.batch_norm")
def _batch_norm(args, attrs):
    x, gamma, beta, mean, var = args
    ax = _axis(attrs.get("axis", 1), x.ndim)
    shape = _param_shape(x.ndim, ax)
    y = (_f64(x) - _f64(mean).reshape(shape)) / np.sqrt(_f64(var).reshape(shape) + attrs.get("epsilon", 1e-5))
    return (_affine(y, x, gamma, beta, ax, attrs), mean, var)


def _normalize(x64: np.ndarray, axes, eps: float) -> np.ndarray:
    m = x64.mean(axis=axes, keepdims=True)
    v = ((x64 - m) ** 2).mean(axis=axes, keepdims=True)
    return (x64 - m) / np.sqrt(v + eps)


@_reg("nn.layer_norm")
def _layer_norm(args, attrs):
    x, gamma, beta = args
    ax = _axis(attrs.get("axis", -1), x.ndim)
    return _affine(_normalize(_f64(x), (ax,), attrs.get("epsilon", 1e-5)), x, gamma, beta, ax, attrs)


@_reg("nn.instance_norm")
def _instance_norm(args, attrs):
    x, gamma, beta = args
    ax = _axis(attrs.get("axis", 1), x.ndim)
    axes = tuple(i for i in range(1, x.ndim) if i != ax)
    return _affine(_normalize(_f64(x), axes, attrs.get("epsilon", 1e-5)), x, gamma, beta, ax, attrs)


@_reg("nn.group_norm")
def _group_norm(args, attrs):
    x, gamma, beta = args
    ax = _axis(attrs.get("axis", 1), x.ndim)
    g = int(attrs["num_groups"])
    c = x.shape[ax]
    shape = list(x.shape[:ax]) + [g, c // g] + list(x.shape[ax + 1:])
    xg = _f64(x).reshape(shape)
    axes = tuple(range(ax + 1, len(shape)))
    y = _normalize(xg, axes, attrs.get("epsilon", 1e-5)).reshape(x.shape)
    return _affine(y, x, gamma, beta, ax, attrs)


@_reg("nn.l2_normalize")
def _l2_normalize(args, attrs):
    (x,) = args
    axis = attrs.get("axis") or list(range(x.ndim))
    axes = tuple(_axis(a, x.ndim) for a in axis)
    y = _f64(x)
    s = np.sum(y * y, axis=axes, keepdims=True)
    return _arr(y / np.sqrt(np.maximum(s, attrs["eps"])), x.dtype)


@_reg("nn.lrn")
def _lrn(args, attrs):
    (x,) = args
    size, ax = int(attrs.get("size", 5)), _axis(attrs.get("axis", 1), x.ndim)
    bias, alpha, beta = attrs.get("bias", 2.0), attrs.get("alpha", 1e-5), attrs.get("beta", 0.75)
    sq = np.moveaxis(_f64(x) ** 2, ax, 0)
    c = sq.shape[0]
    acc = np.zeros_like(sq)
    for i in range(c):
        lo, hi = max(0, i - size // 2), min(c, i - size // 2 + size)
        acc[i] = sq[lo:hi].sum(axis=0)
    acc = np.moveaxis(acc, 0, ax)
    return _arr(_f64(x) / (bias + alpha / size * acc) ** beta, x.dtype)
