"""The KL-divergence threshold search of TVM 0.19's ``kl_divergence`` calibration.

TVM (``_find_scale_by_kl`` + ``MinimizeKL`` in src/relay/quantize/calibrate.cc, after
MXNet/TensorRT's entropy calibration): histogram ``|x|``'s symmetric range into 8001 bins;
for each candidate window of ``2i + 1`` central bins (i = 127 .. 4000) fold the outer
counts into the window's two end bins (p), merge the window's inner counts into 255
quantized bins and spread each back evenly over the nonzero bins it covers (q), smooth
both (zeros get 1e-4, the rest give it back), and keep the window edge whose
``KL(p || q)`` is smallest. The result is that threshold (not yet divided into a scale).
"""
from __future__ import annotations

import numpy as np

__all__ = ["find_threshold_by_kl"]


F32 = np.float32


def _sum(x: np.ndarray) -> np.float32:
    """A float32 sum accumulated left to right (TVM's ``std::accumulate`` on floats)."""
    return np.cumsum(x, dtype=F32)[-1]


def _smooth(p: np.ndarray, eps: np.float32 = F32(1e-4)):
    zeros = p == 0
    n_zeros = int(zeros.sum())
    n_nonzeros = p.size - n_zeros
    if n_nonzeros == 0:
        return None
    eps1 = F32(eps * F32(n_zeros)) / F32(n_nonzeros)
    if eps1 >= 1.0:
        return None
    return np.where(zeros, p + eps, p - eps1).astype(F32)


def _kl(p: np.ndarray, q: np.ndarray) -> np.float32:
    p, q = p / _sum(p), q / _sum(q)
    return _sum(p * np.log(p / q))


def _divergence(hist: np.ndarray, zero: int, i: int, n_quantized: int, group_of) -> np.float32:
    start, stop = zero - i, zero + i + 1
    length = stop - start
    inner = hist[start:stop].copy()
    inner[0] = 0  # the window's first bin is counted with the outliers below it
    p = inner.astype(F32)
    p[0] = hist[:start + 1].sum()
    p[-1] += hist[stop:].sum()
    group = group_of(length)
    totals = np.bincount(group, weights=inner, minlength=n_quantized).astype(F32)
    nonzero = np.bincount(group, weights=inner != 0, minlength=n_quantized).astype(F32)
    spread = np.divide(totals, nonzero, out=np.zeros(n_quantized, F32), where=nonzero > 0)[group]
    q = np.where(p != 0, spread, F32(0))
    p, q = _smooth(p), _smooth(q)
    if p is None or q is None:
        return F32(np.inf)
    return _kl(p, q)


def find_threshold_by_kl(values: np.ndarray, num_bins: int = 8001,
                         num_quantized_bins: int = 255) -> float:
    """The clipping threshold minimising the KL divergence (TVM's 8001 / 255 bins): an edge
    of the histogram of ``values`` over ±max|values|."""
    values = np.asarray(values, dtype="float32").reshape(-1)
    if values.size == 0:
        raise ValueError("relay.quantize: kl_divergence calibration got an empty tensor")
    thres = max(abs(values.min()), abs(values.max()))
    # The edges TVM 0.19's numpy (1.26) makes for a float32 range: computed in float64,
    # rounded to float32 (numpy 2's float32 linspace differs in the last bit); an all-zero
    # tensor gets numpy's range for an empty one, ±0.5.
    t = np.float64(thres) if thres > 0 else 0.5
    edges = (-t + np.arange(num_bins + 1) * (2 * t / num_bins)).astype(F32)
    hist, _ = np.histogram(values, bins=edges)
    zero, half = num_bins // 2, num_quantized_bins // 2
    candidates = range(half, zero + 1)
    hist = hist.astype(np.int64)

    def group_of(length: int) -> np.ndarray:  # which quantized bin each window bin merges into
        return np.minimum(np.arange(length) // (length // num_quantized_bins),
                          num_quantized_bins - 1)

    divergence = [_divergence(hist, zero, i, num_quantized_bins, group_of) for i in candidates]
    best = int(np.argmin(divergence))
    return float(edges[zero + candidates[best] + 1])
