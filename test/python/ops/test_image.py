"""Numerics of image.resize2d on llvm-cpu against a numpy reference.

The reference follows Relay's definition (topi/image/resize.py): output
pixel -> input coordinate by `coordinate_transformation_mode` (computed in
float32 like Relay), nearest with `rounding_method` (Relay's default: round
for align_corners, else floor), linear/cubic interpolation of clamped
neighbours. One module compiled once; the `?` case runs at two sizes.
Tolerances: nearest exact; linear/cubic float32 rtol 1e-5 / atol 1e-5,
float16 2e-3.
"""
from __future__ import annotations

from typing import Callable, Dict, List, Tuple

import numpy as np
import pytest

import relay_mlir as relay

R = np.random.default_rng(3)
EXACT = dict(rtol=0, atol=0)
F32 = dict(rtol=1e-5, atol=1e-5)
F16 = dict(rtol=2e-3, atol=2e-3)
f32 = np.float32

CASES: Dict[str, Tuple[List, object, List[List[np.ndarray]], Callable, dict]] = {}


def in_coord(o, in_size, out_size, mode):
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
    raise ValueError(mode)


def nearest_index(c, rounding, mode):
    if rounding == "":
        rounding = "round" if mode == "align_corners" else "floor"
    if rounding == "round":
        # TVM's round: halves away from zero (computed in float64, exact)
        c64 = c.astype(np.float64)
        r = np.copysign(np.floor(np.abs(c64) + 0.5), c64)
    elif rounding == "floor":
        r = np.floor(c + f32(1e-5))
    elif rounding == "ceil":
        r = np.ceil(c - f32(1e-5))
    elif rounding == "round_prefer_floor":
        r = np.ceil(c - f32(0.5))
    else:
        r = np.floor(c + f32(0.5))
    return r.astype(np.int64)


def cubic_weights(t, a):
    t2, t3 = t * t, t * t * t
    return [a * (t3 - 2 * t2 + t), (a + 2) * t3 - (3 + a) * t2 + 1,
            -(a + 2) * t3 + (3 + 2 * a) * t2 - a * t, -a * t3 + a * t2]


def np_resize(x, size, layout="NCHW", method="linear", mode="half_pixel", rounding="",
              cubic_alpha=-0.5, cubic_exclude=0, out_dtype=None):
    img = x if layout == "NCHW" else x.transpose(0, 3, 1, 2)
    img = img.astype(f32)
    H, W = img.shape[2:]
    oh, ow = size
    cy = in_coord(np.arange(oh), H, oh, mode)
    cx = in_coord(np.arange(ow), W, ow, mode)

    def px(iy, ix):
        iy = np.clip(iy, 0, H - 1)
        ix = np.clip(ix, 0, W - 1)
        return img[:, :, iy[:, None], ix[None, :]]

    if method == "nearest_neighbor":
        out = px(nearest_index(cy, rounding, mode), nearest_index(cx, rounding, mode))
    elif method == "linear":
        y0, x0 = np.floor(cy).astype(np.int64), np.floor(cx).astype(np.int64)
        ly, lx = (cy - np.floor(cy))[:, None], (cx - np.floor(cx))[None, :]
        top = px(y0, x0) * (1 - lx) + px(y0, x0 + 1) * lx
        bottom = px(y0 + 1, x0) * (1 - lx) + px(y0 + 1, x0 + 1) * lx
        out = top * (1 - ly) + bottom * ly
    else:
        y0, x0 = np.floor(cy).astype(np.int64), np.floor(cx).astype(np.int64)
        wy = cubic_weights((cy - np.floor(cy)).astype(f32), f32(cubic_alpha))
        wx = cubic_weights((cx - np.floor(cx)).astype(f32), f32(cubic_alpha))
        if cubic_exclude:
            wy = [np.where((y0 - 1 + k < 0) | (y0 + k > H), 0, w) for k, w in enumerate(wy)]
            wx = [np.where((x0 - 1 + k < 0) | (x0 + k > W), 0, w) for k, w in enumerate(wx)]
            sy, sx = sum(wy), sum(wx)
            wy, wx = [w / sy for w in wy], [w / sx for w in wx]
        out = 0
        for j in range(4):
            for i in range(4):
                out = out + px(y0 + j - 1, x0 + i - 1) * wy[j][:, None] * wx[i][None, :]
    out = out if layout == "NCHW" else out.transpose(0, 2, 3, 1)
    return out.astype(out_dtype or x.dtype)


def add(name, shape, size, tol, dtype="float32", runs=None, **attrs):
    x = relay.var("x", shape=shape, dtype=dtype)
    if runs is None:
        runs = [[R.uniform(-2, 2, size=shape).astype(dtype)]]
    kw = dict(attrs)
    ref_kw = dict(layout=kw.get("layout", "NCHW"), method=kw.get("method", "linear"),
                  mode=kw.get("coordinate_transformation_mode", "half_pixel"),
                  rounding=kw.get("rounding_method", ""), cubic_alpha=kw.get("cubic_alpha", -0.5),
                  cubic_exclude=kw.get("cubic_exclude", 0), out_dtype=kw.get("out_dtype"))
    CASES[name] = ([x], relay.image.resize2d(x, size, **attrs), runs,
                   lambda a: np_resize(a, size, **ref_kw), tol)


MODES = ("half_pixel", "align_corners", "asymmetric")
for mode in MODES:
    add(f"nearest_up_{mode}", (1, 2, 4, 5), (8, 7), EXACT, method="nearest_neighbor",
        coordinate_transformation_mode=mode)
    add(f"nearest_down_{mode}", (2, 3, 9, 8), (4, 3), EXACT, method="nearest_neighbor",
        coordinate_transformation_mode=mode)
    add(f"linear_up_{mode}", (1, 2, 4, 5), (7, 9), F32, coordinate_transformation_mode=mode)
    add(f"linear_down_nhwc_{mode}", (1, 9, 7, 3), (4, 5), F32, layout="NHWC",
        coordinate_transformation_mode=mode)
for rounding in ("round", "ceil", "round_prefer_floor", "round_prefer_ceil"):
    add(f"nearest_{rounding}", (1, 1, 5, 6), (8, 4), EXACT, method="nearest_neighbor",
        rounding_method=rounding)
# align_corners from 3 to 5: coordinates 0, 0.5, 1, 1.5, 2 (ties round away from zero, as TVM)
add("nearest_align_corners_ties", (1, 1, 3, 3), (5, 5), EXACT, method="nearest_neighbor",
    coordinate_transformation_mode="align_corners")
add("nearest_pytorch_half_pixel", (1, 2, 3, 4), (6, 1), EXACT, method="nearest_neighbor",
    coordinate_transformation_mode="pytorch_half_pixel")
add("nearest_tf_half_pixel_for_nn", (1, 2, 3, 4), (7, 5), EXACT, method="nearest_neighbor",
    coordinate_transformation_mode="tf_half_pixel_for_nn")
add("linear_f16", (1, 2, 5, 5), (8, 3), F16, dtype="float16")
add("nearest_i8", (1, 1, 4, 4), (8, 8), EXACT, dtype="int8", method="nearest_neighbor",
    runs=[[R.integers(-100, 100, size=(1, 1, 4, 4)).astype("int8")]])
add("cubic_half_pixel", (1, 2, 5, 6), (9, 4), F32, method="cubic")
add("cubic_align_corners_exclude", (1, 1, 6, 5), (4, 8), F32, method="cubic",
    coordinate_transformation_mode="align_corners", cubic_alpha=-0.75, cubic_exclude=1)


def _dyn():
    x = relay.var("x", shape=(relay.Any(), 3, 5, 4))
    runs = [[R.uniform(-2, 2, size=(n, 3, 5, 4)).astype("float32")] for n in (1, 3)]
    CASES["dyn_linear_batch"] = ([x], relay.image.resize2d(x, (7, 6)), runs,
                                 lambda a: np_resize(a, (7, 6)), F32)
    y = relay.var("y", shape=(1, 2, relay.Any(), relay.Any()))
    runs = [[R.uniform(-2, 2, size=(1, 2, h, w)).astype("float32")] for h, w in ((3, 4), (7, 5))]
    CASES["dyn_nearest_spatial"] = (
        [y], relay.image.resize2d(y, (6, 6), method="nearest_neighbor",
                                  coordinate_transformation_mode="asymmetric"), runs,
        lambda a: np_resize(a, (6, 6), method="nearest_neighbor", mode="asymmetric"), EXACT)


_dyn()


@pytest.fixture(scope="module")
def exe():
    mod = relay.IRModule({name: relay.Function(params, body)
                          for name, (params, body, _, _, _) in CASES.items()})
    return relay.compile(mod, target="llvm-cpu")


@pytest.mark.parametrize("name", list(CASES))
def test_resize2d_numerics(exe, name):
    _, _, runs, reference, tol = CASES[name]
    for inputs in runs:
        got = exe.run(name, *inputs)
        want = reference(*inputs)
        assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, want.shape)
        np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), **tol)
