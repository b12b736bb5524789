"""An independent reference for image.resize2d: one output pixel at a time, in plain
Python scalars, written from TVM 0.19's definition (topi/image/resize.py: ``get_inx``,
``get_closest_index``, ``_resize_2d``, ``get_2d_pixel``) rather than from the
interpreter's vectorised kernel or from test_image.py's numpy reference.

* input coordinate of output index ``o`` (float32 arithmetic, as TVM's ``"float"``):
  half_pixel ``(o + 0.5) * in/out - 0.5``; align_corners ``(in - 1) / (out - 1) * o``;
  asymmetric ``in/out * o``; pytorch_half_pixel as half_pixel, 0 when ``out == 1``;
  tf_half_pixel_for_nn ``(o + 0.5) * in/out``;
* nearest: rounding ``""`` is ``round`` for align_corners, else ``floor``; ``floor`` and
  ``ceil`` move the coordinate by 1e-5 first; ``round`` ties go away from zero;
* every pixel read clamps its indices to the image;
* linear: ``lerp(lerp(p00, p01, fx), lerp(p10, p11, fx), fy)``;
* cubic: Keys' spline weights of the fraction with ``alpha``; with ``exclude_outside``
  a tap ``i`` (0..3) of floor index ``f`` gets weight 0 when ``f - 1 + i < 0`` or
  ``f + i > size`` (TVM's bound), and the weights are renormalised.
"""
from __future__ import annotations

import math
from typing import List, Sequence

import numpy as np

F32 = np.float32


def source_coordinate(o: int, in_size: int, out_size: int, mode: str) -> float:
    x, n_in, n_out = F32(o), F32(in_size), F32(out_size)
    half = F32(0.5)
    if mode == "half_pixel":
        return float((x + half) * (n_in / n_out) - half)
    if mode == "align_corners":
        return float(F32(in_size - 1) / F32(out_size - 1) * x) if out_size > 1 else 0.0
    if mode == "asymmetric":
        return float((n_in / n_out) * x)
    if mode == "pytorch_half_pixel":
        return float((x + half) * (n_in / n_out) - half) if out_size > 1 else 0.0
    if mode == "tf_half_pixel_for_nn":
        return float((x + half) * (n_in / n_out))
    raise ValueError(f"coordinate_transformation_mode {mode!r}")


def nearest(c: float, rounding: str, mode: str) -> int:
    if rounding == "":
        rounding = "round" if mode == "align_corners" else "floor"
    c32 = F32(c)
    if rounding == "round":
        return int(math.copysign(math.floor(abs(c) + 0.5), c))
    if rounding == "floor":
        return math.floor(F32(c32 + F32(1e-5)))
    if rounding == "ceil":
        return math.ceil(F32(c32 - F32(1e-5)))
    if rounding == "round_prefer_floor":
        return math.ceil(F32(c32 - F32(0.5)))
    if rounding == "round_prefer_ceil":
        return math.floor(F32(c32 + F32(0.5)))
    raise ValueError(f"rounding_method {rounding!r}")


def keys_weights(t: float, alpha: float) -> List[float]:
    t, a = F32(t), F32(alpha)
    return [float(w) for w in (a * (t ** 3 - 2 * t ** 2 + t),
                               (a + 2) * t ** 3 - (3 + a) * t ** 2 + 1,
                               -(a + 2) * t ** 3 + (3 + 2 * a) * t ** 2 - a * t,
                               -a * t ** 3 + a * t ** 2)]


def _taps(c: float, size: int, alpha: float, exclude: bool):
    """(clamped indices, weights) of the four cubic taps around coordinate ``c``."""
    f = math.floor(c)
    w = keys_weights(float(F32(c) - F32(f)), alpha)
    if exclude:
        w = [0.0 if (f - 1 + i < 0 or f + i > size) else w[i] for i in range(4)]
        total = sum(w)
        w = [v / total for v in w]
    return [min(max(f - 1 + i, 0), size - 1) for i in range(4)], w


def _pixel(img: np.ndarray, y: int, x: int) -> float:
    h, w = img.shape
    return float(img[min(max(y, 0), h - 1), min(max(x, 0), w - 1)])


def _one(img: np.ndarray, cy: float, cx: float, method: str, rounding: str, mode: str,
         alpha: float, exclude: bool) -> float:
    h, w = img.shape
    if method == "nearest_neighbor":
        return _pixel(img, nearest(cy, rounding, mode), nearest(cx, rounding, mode))
    if method == "linear":
        y0, x0 = math.floor(cy), math.floor(cx)
        fy, fx = float(F32(cy) - F32(y0)), float(F32(cx) - F32(x0))
        top = _pixel(img, y0, x0) * (1 - fx) + _pixel(img, y0, x0 + 1) * fx
        bottom = _pixel(img, y0 + 1, x0) * (1 - fx) + _pixel(img, y0 + 1, x0 + 1) * fx
        return top * (1 - fy) + bottom * fy
    if method == "cubic":
        ys, wy = _taps(cy, h, alpha, exclude)
        xs, wx = _taps(cx, w, alpha, exclude)
        return sum(wy[j] * sum(wx[i] * float(img[ys[j], xs[i]]) for i in range(4)) for j in range(4))
    raise ValueError(f"method {method!r}")


def resize2d(x: np.ndarray, size: Sequence[int], layout: str = "NCHW", method: str = "linear",
             mode: str = "half_pixel", rounding: str = "", cubic_alpha: float = -0.5,
             cubic_exclude: int = 0, out_dtype=None) -> np.ndarray:
    """image.resize2d of a 4-D NCHW or NHWC array ``x`` to ``size`` (oh, ow)."""
    nchw = x if layout == "NCHW" else x.transpose(0, 3, 1, 2)
    n, c, h, w = nchw.shape
    oh, ow = size
    cys = [source_coordinate(o, h, oh, mode) for o in range(oh)]
    cxs = [source_coordinate(o, w, ow, mode) for o in range(ow)]
    out = np.empty((n, c, oh, ow), np.float64)
    for b in range(n):
        for ch in range(c):
            img = nchw[b, ch]
            for oy in range(oh):
                for ox in range(ow):
                    out[b, ch, oy, ox] = _one(img, cys[oy], cxs[ox], method, rounding, mode,
                                              cubic_alpha, bool(cubic_exclude))
    out = out if layout == "NCHW" else out.transpose(0, 2, 3, 1)
    dtype = np.dtype(out_dtype or x.dtype)
    return out.astype(dtype) if dtype.kind == "f" else np.rint(out).astype(dtype)
