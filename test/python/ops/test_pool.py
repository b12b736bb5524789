"""Numerics of the Pool family (dialect/relay/RelayPoolOps.td) on llvm-cpu
against numpy: max/avg pooling in 1-3 d, global max/avg pooling, adaptive
max/avg pooling. Helpers shared with test_nn.py, test_conv.py and
test_norm.py are in _nn_common.py.

Every case is one ``func.func`` of ONE module compiled once (``iree-compile``
runs once for this file); ``Executable.run(name, ...)`` calls each. The
references below are independent numpy code (loops over windows with
topi's padding counts, explicit adaptive cell bounds), not the lowering's
algorithm.

Tolerances: max pooling and integers exact, average pooling rtol 1e-4 /
atol 1e-5; the cases checked against relay_mlir.testing.numpy_ref (moved
from test_ops.py) keep its rtol 1e-5 / atol 1e-6 (global average: 1e-4 / 1e-5).
Cases whose name ends in ``[?]`` have a ``?`` dim and run at two sizes.
"""
from __future__ import annotations

import itertools

import numpy as np
import pytest

import relay_mlir as relay
from relay_mlir.testing import numpy_ref as ref
from _nn_common import EXACT, Any, Cases, check_case, compile_cases, make_case, make_rand, v

rand = make_rand(11)

CASES: Cases = {}
case = make_case(CASES)


# ---------------------------------------------------------------------------
# numpy references
# ---------------------------------------------------------------------------
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


# ---------------------------------------------------------------------------
# cases
# ---------------------------------------------------------------------------
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


# 2-d max/avg and global average pooling, against relay_mlir.testing.numpy_ref
# (moved from test_ops.py, with its tolerances: rtol 1e-5 / atol 1e-6, and
# rtol 1e-4 / atol 1e-5 for the global average).
NUMPY_REF_TOL = dict(rtol=1e-5, atol=1e-6)
x = v("x", (1, 2, 7, 7))
case("nn.max_pool2d", [x], relay.nn.max_pool2d(x, pool_size=(3, 3), strides=(2, 2), padding=(1, 1)),
     [[rand(1, 2, 7, 7, lo=-5, hi=-1)]],  # all negative: a padded 0 must never win
     lambda x: ref.max_pool2d(x, (3, 3), (2, 2), padding=(1, 1)), NUMPY_REF_TOL)
x = v("x", (1, 2, 5, 5))
case("nn.max_pool2d(ceil_mode)", [x], relay.nn.max_pool2d(x, pool_size=2, strides=2, ceil_mode=True),
     [[rand(1, 2, 5, 5)]], lambda x: ref.max_pool2d(x, (2, 2), (2, 2), ceil_mode=True), NUMPY_REF_TOL)
x = v("x", (1, 2, 5, 5))
case("nn.avg_pool2d", [x], relay.nn.avg_pool2d(x, pool_size=(3, 3), padding=(1, 1)), [[rand(1, 2, 5, 5)]],
     lambda x: ref.avg_pool2d(x, (3, 3), (1, 1), padding=(1, 1)), NUMPY_REF_TOL)
x = v("x", (1, 2, 6, 6))
case("nn.avg_pool2d(count_include_pad)", [x],
     relay.nn.avg_pool2d(x, pool_size=(3, 3), strides=(2, 2), padding=(1, 1), count_include_pad=True),
     [[rand(1, 2, 6, 6)]],
     lambda x: ref.avg_pool2d(x, (3, 3), (2, 2), padding=(1, 1), count_include_pad=True), NUMPY_REF_TOL)
x = v("x", (2, 3, 5, 4))
case("nn.global_avg_pool2d", [x], relay.nn.global_avg_pool2d(x), [[rand(2, 3, 5, 4)]],
     ref.global_avg_pool2d)


# adaptive pooling in 1-d and 3-d (TVM 0.19's adaptive_*_pool{1,3}d; its global_*_pool{1,3}d
# are these with output_size 1), channels first and last, against loops over the cells
def np_adaptive_nd(x, out_size, kind, cf=True):
    if not cf:
        x = np.moveaxis(x, -1, 1)
    ins = x.shape[2:]
    out = np.zeros(x.shape[:2] + tuple(out_size), dtype=np.float64)
    for idx in itertools.product(*[range(m) for m in out_size]):
        cell = tuple(slice((i * n) // m, -((-(i + 1) * n) // m)) for i, n, m in zip(idx, ins, out_size))
        win = x[(slice(None), slice(None)) + cell].astype(np.float64).reshape(x.shape[:2] + (-1,))
        out[(slice(None), slice(None)) + idx] = win.max(-1) if kind == "max" else win.mean(-1)
    out = out.astype(x.dtype)
    return out if cf else np.moveaxis(out, 1, -1)


AVG_TOL = dict(rtol=1e-5, atol=1e-6)
x = v("x", (2, 3, 7))
case("adaptive_avg_pool1d", [x], relay.nn.adaptive_avg_pool1d(x, output_size=3), [[rand(2, 3, 7)]],
     lambda x: np_adaptive_nd(x, (3,), "avg"), AVG_TOL)
x = v("x", (2, 7, 3))
case("adaptive_max_pool1d_nwc", [x], relay.nn.adaptive_max_pool1d(x, output_size=(4,), layout="NWC"),
     [[rand(2, 7, 3)]], lambda x: np_adaptive_nd(x, (4,), "max", cf=False), EXACT)
x = v("x", (Any(), 3, 9))
case("global_avg_pool1d[?]", [x], relay.nn.global_avg_pool1d(x), [[rand(1, 3, 9)], [rand(4, 3, 9)]],
     lambda x: x.mean(axis=2, keepdims=True), AVG_TOL)
x = v("x", (2, 9, 3), "int8")
case("global_max_pool1d_nwc_i8", [x], relay.nn.global_max_pool1d(x, layout="NWC"),
     [[rand(2, 9, 3, lo=-100, hi=100, dtype="int8")]], lambda x: x.max(axis=1, keepdims=True), EXACT)
x = v("x", (1, 3, 6))
case("adaptive_max_pool1d_keep", [x], relay.nn.adaptive_max_pool1d(x), [[rand(1, 3, 6)]], lambda x: x, EXACT)
x = v("x", (2, 3, 5, 6, 7))
case("adaptive_avg_pool3d", [x], relay.nn.adaptive_avg_pool3d(x, output_size=(2, 4, 3)),
     [[rand(2, 3, 5, 6, 7)]], lambda x: np_adaptive_nd(x, (2, 4, 3), "avg"), AVG_TOL)
x = v("x", (1, 5, 4, 7, 2))
case("adaptive_max_pool3d_ndhwc", [x], relay.nn.adaptive_max_pool3d(x, output_size=3, layout="NDHWC"),
     [[rand(1, 5, 4, 7, 2)]], lambda x: np_adaptive_nd(x, (3, 3, 3), "max", cf=False), EXACT)
x = v("x", (Any(), 2, 3, 4, 5))
case("global_avg_pool3d[?]", [x], relay.nn.global_avg_pool3d(x), [[rand(1, 2, 3, 4, 5)], [rand(3, 2, 3, 4, 5)]],
     lambda x: x.mean(axis=(2, 3, 4), keepdims=True), AVG_TOL)
x = v("x", (1, 3, 4, 5, 2), "int32")
case("global_max_pool3d_ndhwc_i32", [x], relay.nn.global_max_pool3d(x, layout="NDHWC"),
     [[rand(1, 3, 4, 5, 2, lo=-1000, hi=1000, dtype="int32")]], lambda x: x.max(axis=(1, 2, 3), keepdims=True),
     EXACT)


def test_global_pools_1d_3d_are_tvms_adaptive_pools():
    """TVM 0.19 builds global_*_pool{1,3}d as adaptive_*_pool{1,3}d with output_size all ones."""
    x1, x3 = relay.var("x", shape=(1, 2, 5)), relay.var("x", shape=(1, 2, 5, 3, 3))
    g1, g3 = relay.nn.global_avg_pool1d(x1), relay.nn.global_max_pool3d(x3, layout="NDHWC")
    assert (g1.op.name, g1.attrs["output_size"]) == ("nn.adaptive_avg_pool1d", [1])
    assert (g3.op.name, g3.attrs["output_size"], g3.attrs["layout"]) == ("nn.adaptive_max_pool3d", [1, 1, 1], "NDHWC")


def test_adaptive_avg_pool3d_integer_refused():
    x = relay.var("x", shape=(1, 2, 4, 4, 4), dtype="int32")
    mod = relay.IRModule.from_expr(relay.Function([x], relay.nn.adaptive_avg_pool3d(x, 2)))
    with pytest.raises(relay.CompileError, match="adaptive_avg_pool3d on integer tensors"):
        relay.compile(mod, target="llvm-cpu")

# ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def exe():
    return compile_cases(CASES)


@pytest.mark.parametrize("name", list(CASES))
def test_pool_op(exe, name):
    check_case(exe, CASES, name)
