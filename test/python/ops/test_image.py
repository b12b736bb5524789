"""Numerics of image.resize2d on llvm-cpu and in the debug interpreter against an
independent reference (resize_reference.py: one pixel at a time in Python scalars,
written from TVM 0.19's topi/image/resize.py, not from either implementation).

Output pixel -> input coordinate by `coordinate_transformation_mode` (computed in
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

from resize_reference import resize2d as resize2d_reference

R = np.random.default_rng(3)
EXACT = dict(rtol=0, atol=0)
F32 = dict(rtol=1e-5, atol=1e-5)
F16 = dict(rtol=2e-3, atol=2e-3)
f32 = np.float32

CASES: Dict[str, Tuple[List, object, List[List[np.ndarray]], Callable, dict]] = {}


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
                   lambda a: resize2d_reference(a, size, **ref_kw), tol)


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
                                 lambda a: resize2d_reference(a, (7, 6)), F32)
    y = relay.var("y", shape=(1, 2, relay.Any(), relay.Any()))
    runs = [[R.uniform(-2, 2, size=(1, 2, h, w)).astype("float32")] for h, w in ((3, 4), (7, 5))]
    CASES["dyn_nearest_spatial"] = (
        [y], relay.image.resize2d(y, (6, 6), method="nearest_neighbor",
                                  coordinate_transformation_mode="asymmetric"), runs,
        lambda a: resize2d_reference(a, (6, 6), method="nearest_neighbor", mode="asymmetric"), EXACT)


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


@pytest.mark.parametrize("name", list(CASES))
def test_resize2d_interpreter(name):
    """The debug interpreter's kernel against the same reference and tolerances."""
    params, body, runs, reference, tol = CASES[name]
    run = relay.create_executor("debug", mod=relay.IRModule.from_expr(relay.Function(params, body))).evaluate()
    for inputs in runs:
        got = np.asarray(run(*inputs))
        want = reference(*inputs)
        assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, want.shape)
        np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), **tol)
