"""The debug interpreter's numpy kernels of the Image ops (``dialect/relay/RelayImageOps.td``)."""
from __future__ import annotations

import numpy as np

from ..errors import RelayRuntimeError
from ._common import _arr
from ._layout import _from_cf, _to_cf
from ._registry import _reg
from .elementwise import _round_half_away


def _in_coord(o, in_size, out_size, mode, roi=None):
    f32 = np.float32
    x = o.astype(f32)
    scale = f32(in_size) / f32(out_size)
    if mode == "half_pixel":
        return (x + f32(0.5)) * scale - f32(0.5)
    if mode == "align_corners":
        return (f32(in_size - 1) / f32(out_size - 1)) * x if out_size > 1 else np.zeros_like(x)
    if mode == "asymmetric":
        return scale * x
    if mode == "pytorch_half_pixel":
        return (x + f32(0.5)) * scale - f32(0.5) if out_size > 1 else np.zeros_like(x)
    if mode == "tf_half_pixel_for_nn":
        return (x + f32(0.5)) * scale
    raise RelayRuntimeError(f"the debug interpreter has no kernel for 'image.resize2d' with "
                            f"coordinate_transformation_mode '{mode}'")


def _nearest(c, rounding, mode):
    f32 = np.float32
    if rounding == "":
        rounding = "round" if mode == "align_corners" else "floor"
    if rounding == "round":
        r = _round_half_away(c)
    elif rounding == "floor":
        r = np.floor(c + f32(1e-5))
    elif rounding == "ceil":
        r = np.ceil(c - f32(1e-5))
    elif rounding == "round_prefer_floor":
        r = np.ceil(c - f32(0.5))
    else:
        r = np.floor(c + f32(0.5))
    return r.astype(np.int64)


@_reg("image.resize2d")
def _resize2d(args, attrs):
    (x,) = args
    f32 = np.float32
    layout = attrs.get("layout", "NCHW")
    method = attrs.get("method", "linear")
    mode = attrs.get("coordinate_transformation_mode", "half_pixel")
    # coordinates and weights in float32 as the compiled kernel; pixels in
    # float32, or float64 for float64 data (which must not lose precision)
    img = _to_cf(x, layout, "NCHW").astype(np.float64 if x.dtype == np.float64 else f32)
    H, W = img.shape[2:]
    oh, ow = attrs["size"]
    cy, cx = _in_coord(np.arange(oh), H, oh, mode), _in_coord(np.arange(ow), W, ow, mode)

    def px(iy, ix):
        return img[:, :, np.clip(iy, 0, H - 1)[:, None], np.clip(ix, 0, W - 1)[None, :]]
    if method == "nearest_neighbor":
        rnd = attrs.get("rounding_method", "")
        out = px(_nearest(cy, rnd, mode), _nearest(cx, rnd, mode))
    elif method == "linear":
        y0, x0 = np.floor(cy).astype(np.int64), np.floor(cx).astype(np.int64)
        ly, lx = (cy - np.floor(cy))[:, None], (cx - np.floor(cx))[None, :]
        top = px(y0, x0) * (1 - lx) + px(y0, x0 + 1) * lx
        bottom = px(y0 + 1, x0) * (1 - lx) + px(y0 + 1, x0 + 1) * lx
        out = top * (1 - ly) + bottom * ly
    elif method == "cubic":
        a = f32(attrs.get("cubic_alpha", -0.5))
        y0, x0 = np.floor(cy).astype(np.int64), np.floor(cx).astype(np.int64)

        def weights(t):
            t2, t3 = t * t, t * t * t
            return [a * (t3 - 2 * t2 + t), (a + 2) * t3 - (3 + a) * t2 + 1,
                    -(a + 2) * t3 + (3 + 2 * a) * t2 - a * t, -a * t3 + a * t2]
        wy = weights((cy - np.floor(cy)).astype(f32))
        wx = weights((cx - np.floor(cx)).astype(f32))
        if attrs.get("cubic_exclude", 0):
            wy = [np.where((y0 - 1 + k < 0) | (y0 + k > H), 0, w) for k, w in enumerate(wy)]
            wx = [np.where((x0 - 1 + k < 0) | (x0 + k > W), 0, w) for k, w in enumerate(wx)]
            sy, sx = sum(wy), sum(wx)
            wy, wx = [w / sy for w in wy], [w / sx for w in wx]
        out = 0
        for j in range(4):
            for i in range(4):
                out = out + px(y0 + j - 1, x0 + i - 1) * wy[j][:, None] * wx[i][None, :]
    else:
        raise RelayRuntimeError(f"image.resize2d: unknown method '{method}'")
    out = _from_cf(np.asarray(out), "NCHW", layout)
    return _arr(out, attrs.get("out_dtype") or x.dtype)
