"""Numerics of the NN family (dialect/relay/RelayNNOps.td) on llvm-cpu
against numpy: matmul, batch_matmul, leaky_relu, prelu, gelu, dropout, pad,
mirror_pad, upsampling, upsampling3d, depth_to_space, space_to_depth, dense, bias_add, batch_flatten.
Convolutions,
pooling and normalisation are in test_conv.py, test_pool.py, test_norm.py;
the helpers the four files share are in _nn_common.py.

Every case is one ``func.func`` of ONE module compiled once (``iree-compile``
runs once for this file); ``Executable.run(name, ...)`` calls each. The
references below are independent numpy code (explicit index formulas,
float64 accumulation), not the lowering's algorithm.

Tolerances: float32 contractions and bilinear upsampling rtol 1e-4 /
atol 1e-5, gelu rtol 1e-5 / atol 2e-5, leaky_relu/prelu rtol 1e-6 / atol 0,
data movement (pad, nearest upsampling, depth/space), dropout and integers
exact, float16 rtol/atol 1e-2; dense and bias_add (checked against
relay_mlir.testing.numpy_ref, moved from test_ops.py) rtol 1e-4 / atol 1e-5,
batch_flatten rtol 1e-5 / atol 1e-6.
Cases whose name ends in ``[?]`` have a ``?`` dim and run at two sizes.
"""
from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import relay_mlir as relay
from relay_mlir.testing import numpy_ref as ref
from _nn_common import ACCUM, EXACT, F16, TRANSC, Any, Cases, check_case, compile_cases, make_case, make_rand, v

rand = make_rand(11)

CASES: Cases = {}
case = make_case(CASES)


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
        # align_corners rounds with TVM's round: halves away from zero (coordinates >= 0)
        iy = np.floor(cy.astype(np.float64) + 0.5) if align_corners else np.floor(cy + np.float32(1e-5))
        ix = np.floor(cx.astype(np.float64) + 0.5) if align_corners else np.floor(cx + np.float32(1e-5))
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
# align_corners from 3 to 5: coordinates 0, 0.5, 1, 1.5, 2 (ties round away from zero, as TVM)
x = v("x", (1, 2, 3, 3))
case("upsampling_nearest_align_ties", [x],
     relay.nn.upsampling(x, scale_h=5 / 3, scale_w=5 / 3, align_corners=True), [[rand(1, 2, 3, 3)]],
     lambda x: np_upsampling(x, 5 / 3, 5 / 3, "nearest_neighbor", True), EXACT)
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


# dense, bias_add, batch_flatten, against relay_mlir.testing.numpy_ref (moved
# from test_ops.py, with its tolerances).
x, w = v("x", (2, 8)), v("w", (5, 8))
case("nn.dense", [x, w], relay.nn.dense(x, w, units=5), [[rand(2, 8), rand(5, 8)]], ref.dense)
x, b = v("x", (1, 4, 3, 3)), v("b", (4,))
case("nn.bias_add", [x, b], relay.nn.bias_add(x, b), [[rand(1, 4, 3, 3), rand(4)]],
     lambda x, b: ref.bias_add(x, b, axis=1))
x, b = v("x", (2, 6)), v("b", (6,))
case("nn.bias_add(axis=-1)", [x, b], relay.nn.bias_add(x, b, axis=-1), [[rand(2, 6), rand(6)]],
     lambda x, b: ref.bias_add(x, b, axis=-1))
x = v("x", (2, 3, 2, 2))
case("nn.batch_flatten", [x], relay.nn.batch_flatten(x), [[rand(2, 3, 2, 2)]], ref.batch_flatten,
     dict(rtol=1e-5, atol=1e-6))

# nn.space_to_batch_nd / nn.batch_to_space_nd (issue 31): TVM's topi formula with numpy
# strided slicing (block offsets major in the batch), exact (data movement)
def np_space_to_batch(x, block, paddings, pad_value):
    p = np.pad(x, [(0, 0)] + [tuple(q) for q in paddings] + [(0, 0)] * (x.ndim - 1 - len(block)),
               constant_values=pad_value)
    return np.concatenate([p[(slice(None),) + tuple(slice(o, None, b) for o, b in zip(at, block))]
                           for at in np.ndindex(*block)])


def np_batch_to_space(x, block, crops):
    n = x.shape[0] // int(np.prod(block))
    out = np.zeros([n] + [s * b for s, b in zip(x.shape[1:], block)] + list(x.shape[1 + len(block):]),
                   x.dtype)
    for k, at in enumerate(np.ndindex(*block)):
        out[(slice(None),) + tuple(slice(o, None, b) for o, b in zip(at, block))] = x[k * n:(k + 1) * n]
    return out[(slice(None),) + tuple(slice(c0, s - c1) for (c0, c1), s in zip(crops, out.shape[1:]))]


x = v("x", (2, 5, 3, 7, 2), "int8")
case("nn.space_to_batch_nd(3-D block,int8)", [x],
     relay.nn.space_to_batch_nd(x, [3, 1, 2], [[1, 0], [0, 2], [0, 1]], pad_value=-3),
     [[rand(2, 5, 3, 7, 2, lo=-100, hi=100, dtype="int8")]],
     lambda x: np_space_to_batch(x, [3, 1, 2], [[1, 0], [0, 2], [0, 1]], -3), EXACT)
x = v("x", (12, 3, 3, 3))
case("nn.batch_to_space_nd", [x], relay.nn.batch_to_space_nd(x, [2, 3], [[1, 0], [0, 3]]),
     [[rand(12, 3, 3, 3)]], lambda x: np_batch_to_space(x, [2, 3], [[1, 0], [0, 3]]), EXACT)

# mirror_pad (numpy's reflect / symmetric) and upsampling3d (TVM 0.19's; topi's resize3d by
# its per-output-voxel formula: each output coordinate mapped to the input, nearest floor /
# round, or the 8 trilinear corners)
x = v("x", (3, 4))
case("mirror_pad_symmetric", [x], relay.nn.mirror_pad(x, ((2, 3), (4, 1))), [[rand(3, 4)]],
     lambda x: np.pad(x, ((2, 3), (4, 1)), mode="symmetric"), EXACT)
x = v("x", (Any(), 4, 5), "int32")
case("mirror_pad_reflect_i32[?]", [x], relay.nn.mirror_pad(x, ((0, 0), (3, 1), (2, 4)), mode="REFLECT"),
     [[rand(1, 4, 5, lo=-50, hi=50, dtype="int32")], [rand(3, 4, 5, lo=-50, hi=50, dtype="int32")]],
     lambda x: np.pad(x, ((0, 0), (3, 1), (2, 4)), mode="reflect"), EXACT)


def np_resize3d(x, size, method, mode):
    """x [N, C, D, H, W] -> [N, C, *size] by topi's resize3d formulas, one voxel at a time."""
    ins = x.shape[2:]

    def coord(o, n_in, n_out):
        scale = n_in / n_out
        if mode == "half_pixel":
            return (o + 0.5) * scale - 0.5
        if mode == "align_corners":
            return o * (n_in - 1) / (n_out - 1) if n_out > 1 else 0.0
        return o * scale
    out = np.zeros(x.shape[:2] + tuple(size))
    for o in itertools.product(*[range(s) for s in size]):
        c = [coord(o[i], ins[i], size[i]) for i in range(3)]
        if method == "nearest_neighbor":
            idx = [min(max(int(np.floor(ci + 1e-5) if mode != "align_corners" else np.floor(ci + 0.5)), 0),
                       ins[i] - 1) for i, ci in enumerate(c)]
            out[(slice(None), slice(None)) + o] = x[(slice(None), slice(None)) + tuple(idx)]
            continue
        acc = 0.0
        for corner in itertools.product((0, 1), repeat=3):
            wgt, idx = 1.0, []
            for i in range(3):
                f = np.floor(c[i])
                wgt *= (c[i] - f) if corner[i] else (1 - (c[i] - f))
                idx.append(min(max(int(f) + corner[i], 0), ins[i] - 1))
            acc = acc + wgt * x[(slice(None), slice(None)) + tuple(idx)].astype(np.float64)
        out[(slice(None), slice(None)) + o] = acc
    return out.astype(x.dtype)


x = v("x", (1, 2, 3, 4, 2))
case("upsampling3d_nearest", [x], relay.nn.upsampling3d(x, 2, 1.5, 2), [[rand(1, 2, 3, 4, 2)]],
     lambda x: np_resize3d(x, (6, 6, 4), "nearest_neighbor", "half_pixel"), EXACT)
x = v("x", (1, 3, 4, 2, 2))
case("upsampling3d_trilinear_ndhwc", [x],
     relay.nn.upsampling3d(x, 1.5, 2, 2.5, layout="NDHWC", method="trilinear"), [[rand(1, 3, 4, 2, 2)]],
     lambda x: np.moveaxis(np_resize3d(np.moveaxis(x, -1, 1), (4, 8, 5), "trilinear", "half_pixel"), 1, -1),
     dict(rtol=1e-4, atol=1e-5))
x = v("x", (2, 1, 2, 3, 3))
case("upsampling3d_trilinear_align_corners", [x],
     relay.nn.upsampling3d(x, 2, 2, 1, method="trilinear", coordinate_transformation_mode="align_corners"),
     [[rand(2, 1, 2, 3, 3)]], lambda x: np_resize3d(x, (4, 6, 3), "trilinear", "align_corners"),
     dict(rtol=1e-4, atol=1e-5))

x = v("x", (Any(), 3))
case("mirror_pad_symmetric_padded_dim[?]", [x], relay.nn.mirror_pad(x, ((2, 1), (1, 3))),
     [[rand(2, 3)], [rand(5, 3)]], lambda x: np.pad(x, ((2, 1), (1, 3)), mode="symmetric"), EXACT)
x = v("x", (Any(), 2, 3, 3, 4))
# 3 × 1.5 = 4.5 -> 4 and 3 × 2.5 = 7.5 -> 8: sizes round half to even, as TVM's
case("upsampling3d_nearest_asymmetric_batch[?]", [x],
     relay.nn.upsampling3d(x, 1.5, 2.5, 0.5, coordinate_transformation_mode="asymmetric"),
     [[rand(1, 2, 3, 3, 4)], [rand(2, 2, 3, 3, 4)]],
     lambda x: np_resize3d(x, (4, 8, 2), "nearest_neighbor", "asymmetric"), EXACT)

# ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def exe():
    return compile_cases(CASES)


@pytest.mark.parametrize("name", list(CASES))
def test_nn_op(exe, name):
    check_case(exe, CASES, name)


@pytest.mark.parametrize("transpose_b", [False, True])
def test_matmul_of_a_vector(transpose_b):
    """nn.matmul with a 1-d A is a matvec/vecmat (a unit M dim met an IREE 3.13 folding into a
    rank-increasing extract_slice that fails to verify), checked against numpy."""
    a = relay.var("a", shape=(3,))
    b = relay.var("b", shape=(4, 3) if transpose_b else (3, 4))
    exe = relay.compile(relay.Function([a, b], relay.nn.matmul(a, b, transpose_b=transpose_b)), target="llvm-cpu")
    av = np.arange(3, dtype="float32") - 1
    bv = np.arange(12, dtype="float32").reshape(b.type_annotation.concrete_shape)
    np.testing.assert_allclose(np.asarray(exe(av, bv)), av @ (bv.T if transpose_b else bv), rtol=1e-6)


def test_gradient_of_a_dense_of_a_vector_compiles():
    """Random-program fuzzer seed 5 program 224: the gradient of a dense of a vector, sliced,
    compiled and checked against the reference interpreter."""
    x = relay.var("x", shape=(3,))
    w = relay.const(np.array([[0.5, -1.0, 2.0]], "float32"))
    y = relay.nn.dense(x, w)
    z = relay.strided_slice(relay.concatenate([y, x, x], 0), begin=[3], end=[7], strides=[2])
    loss = relay.Function([x], relay.sum(relay.tanh(z)))
    g = relay.transform.gradient(loss)
    mod = relay.IRModule.from_expr(g)
    xv = np.array([0.1, -0.4, 0.3], "float32")
    want = relay.create_executor("debug", mod=mod).evaluate()(xv)
    got = relay.compile(mod, target="llvm-cpu")(xv)
    np.testing.assert_allclose(np.asarray(got[0]), np.asarray(want[0]), rtol=1e-5)
    for gw, ww in zip(got[1], want[1]):  # (the gradient of each parameter)
        np.testing.assert_allclose(np.asarray(gw), np.asarray(ww), rtol=1e-5, atol=1e-6)
