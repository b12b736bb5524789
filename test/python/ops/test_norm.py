"""Numerics of the Norm family (dialect/relay/RelayNormOps.td) on llvm-cpu
against numpy: layer_norm, group_norm, instance_norm, l2_normalize, lrn,
log_softmax, softmax (static axes, an attention block, and along a run-time
axis; lowered as reductions and maps, not linalg.softmax), batch_norm. Helpers shared with test_nn.py,
test_conv.py and test_pool.py are in _nn_common.py.

Every case is one ``func.func`` of ONE module compiled once (``iree-compile``
runs once for this file); ``Executable.run(name, ...)`` calls each. The
references below are independent numpy code in float64 (explicit
mean/variance, window sums for lrn), not the lowering's algorithm.

Tolerances: float32 normalisations rtol 1e-4 / atol 1e-5, lrn, softmax and
log_softmax rtol 1e-5 / atol 2e-5 (static softmax rtol 1e-5 / atol 1e-6; the
attention block, sums of 64 and 197 products, rtol 1e-4 / atol 1e-5),
float16 rtol/atol 1e-2. batch_norm and the static softmax cases are checked
against relay_mlir.testing.numpy_ref (the references they had in
test_ops.py, whence they moved).
Cases whose name ends in ``[?]`` have a ``?`` dim and run at two sizes.
"""
from __future__ import annotations

import numpy as np
import pytest

import relay_mlir as relay
from relay_mlir.testing import numpy_ref as ref
from _nn_common import ACCUM, F16, TRANSC, Any, Cases, check_case, compile_cases, make_case, make_rand, v

rand = make_rand(11)

CASES: Cases = {}
case = make_case(CASES)


# ---------------------------------------------------------------------------
# numpy references
# ---------------------------------------------------------------------------
def np_norm(x, axes, gamma=None, beta=None, eps=1e-5, param_axis=-1):
    x64 = x.astype(np.float64)
    mean = x64.mean(axis=axes, keepdims=True)
    var = ((x64 - mean) ** 2).mean(axis=axes, keepdims=True)
    y = (x64 - mean) / np.sqrt(var + eps)
    shape = [1] * x.ndim
    shape[param_axis] = -1
    if gamma is not None:
        y = y * gamma.reshape(shape)
    if beta is not None:
        y = y + beta.reshape(shape)
    return y.astype(x.dtype)


def np_group_norm(x, gamma, beta, groups, eps=1e-5):
    n, c = x.shape[:2]
    xg = x.reshape((n, groups, -1)).astype(np.float64)
    mean = xg.mean(-1, keepdims=True)
    var = xg.var(-1, keepdims=True)
    y = ((xg - mean) / np.sqrt(var + eps)).reshape(x.shape)
    shape = (1, c) + (1,) * (x.ndim - 2)
    return (y * gamma.reshape(shape) + beta.reshape(shape)).astype(x.dtype)


def np_lrn(x, size, axis, bias, alpha, beta):
    sq = x.astype(np.float64) ** 2
    c = x.shape[axis]
    acc = np.zeros_like(sq)
    for i in range(c):
        lo, hi = max(0, i - size // 2), min(c, i - size // 2 + size)
        sl = [slice(None)] * x.ndim
        sl[axis] = slice(lo, hi)
        dst = [slice(None)] * x.ndim
        dst[axis] = i
        acc[tuple(dst)] = sq[tuple(sl)].sum(axis=axis)
    return (x / (bias + alpha / size * acc) ** beta).astype(x.dtype)


def np_softmax(x, axis=-1):
    z = x.astype(np.float64)
    e = np.exp(z - z.max(axis=axis, keepdims=True))
    return (e / e.sum(axis=axis, keepdims=True)).astype(x.dtype)


def np_log_softmax(x, axis=-1):
    x64 = x.astype(np.float64)
    m = x64.max(axis=axis, keepdims=True)
    return (x64 - m - np.log(np.exp(x64 - m).sum(axis=axis, keepdims=True))).astype(x.dtype)


# ---------------------------------------------------------------------------
# cases
# ---------------------------------------------------------------------------
# normalisation
x, g, b = v("x", (3, 10)), v("g", (10,)), v("b", (10,))
case("layer_norm", [x, g, b], relay.nn.layer_norm(x, g, b), [[rand(3, 10), rand(10), rand(10)]],
     lambda x, g, b: np_norm(x, (1,), g, b))
x, g, b = v("x", (Any(), 4, 6)), v("g", (4,)), v("b", (4,))
case("layer_norm_axis1[?]", [x, g, b], relay.nn.layer_norm(x, g, b, axis=1, epsilon=1e-3, center=False),
     [[rand(1, 4, 6), rand(4), rand(4)], [rand(3, 4, 6), rand(4), rand(4)]],
     lambda x, g, b: np_norm(x, (1,), g, None, 1e-3, param_axis=1))
x, g, b = v("x", (2, 6, 3, 3)), v("g", (6,)), v("b", (6,))
case("group_norm", [x, g, b], relay.nn.group_norm(x, g, b, num_groups=3), [[rand(2, 6, 3, 3), rand(6), rand(6)]],
     lambda x, g, b: np_group_norm(x, g, b, 3))
x, g, b = v("x", (Any(), 4, 5)), v("g", (4,)), v("b", (4,))
case("group_norm[?]", [x, g, b], relay.nn.group_norm(x, g, b, num_groups=2),
     [[rand(1, 4, 5), rand(4), rand(4)], [rand(3, 4, 5), rand(4), rand(4)]],
     lambda x, g, b: np_group_norm(x, g, b, 2))
x, g, b = v("x", (2, 3, 4, 5)), v("g", (3,)), v("b", (3,))
case("instance_norm", [x, g, b], relay.nn.instance_norm(x, g, b), [[rand(2, 3, 4, 5), rand(3), rand(3)]],
     lambda x, g, b: np_norm(x, (2, 3), g, b, param_axis=1))
x, g, b = v("x", (2, 4, 5), "float16"), v("g", (5,), "float16"), v("b", (5,), "float16")
case("layer_norm_f16", [x, g, b], relay.nn.layer_norm(x, g, b),
     [[rand(2, 4, 5, dtype="float16"), rand(5, dtype="float16"), rand(5, dtype="float16")]],
     lambda x, g, b: np_norm(x, (2,), g, b), F16)
x = v("x", (3, 6))
case("l2_normalize", [x], relay.nn.l2_normalize(x, eps=1e-10, axis=[1]), [[rand(3, 6)]],
     lambda x: (x / np.sqrt(np.maximum((x.astype(np.float64) ** 2).sum(1, keepdims=True), 1e-10))).astype(x.dtype))
x = v("x", (Any(), 2, 3))
case("l2_normalize_all[?]", [x], relay.nn.l2_normalize(x, eps=0.5),
     [[rand(1, 2, 3, lo=-0.2, hi=0.2)], [rand(4, 2, 3)]],
     lambda x: (x / np.sqrt(max((x.astype(np.float64) ** 2).sum(), 0.5))).astype(x.dtype))
x = v("x", (2, 7, 3, 2))
case("lrn", [x], relay.nn.lrn(x, size=3, alpha=0.5, beta=0.75, bias=2.0), [[rand(2, 7, 3, 2)]],
     lambda x: np_lrn(x, 3, 1, 2.0, 0.5, 0.75), TRANSC)
x = v("x", (Any(), 3, 6))
case("lrn_even_last[?]", [x], relay.nn.lrn(x, size=4, axis=-1, alpha=0.1, beta=0.5, bias=1.0),
     [[rand(1, 3, 6)], [rand(2, 3, 6)]], lambda x: np_lrn(x, 4, 2, 1.0, 0.1, 0.5), TRANSC)
x = v("x", (3, 7))
case("log_softmax", [x], relay.nn.log_softmax(x), [[rand(3, 7, lo=-5, hi=5)]], np_log_softmax, TRANSC)
x = v("x", (Any(), 4, 3))
case("log_softmax_axis1[?]", [x], relay.nn.log_softmax(x, axis=1), [[rand(1, 4, 3)], [rand(5, 4, 3)]],
     lambda x: np_log_softmax(x, 1), TRANSC)

x = v("x", (3, 7))
case("nn.softmax", [x], relay.nn.softmax(x), [[rand(3, 7, lo=-5, hi=5)]], ref.softmax,
     dict(rtol=1e-5, atol=1e-6))
x = v("x", (2, 4, 3))
case("nn.softmax(axis=1)", [x], relay.nn.softmax(x, axis=1), [[rand(2, 4, 3, lo=-5, hi=5)]],
     lambda x: ref.softmax(x, axis=1), dict(rtol=1e-5, atol=1e-6))
# static axis, inputs up to 1000 (the maximum subtracted first)
x = v("x", (4, 37))
case("nn.softmax(large)", [x], relay.nn.softmax(x), [[rand(4, 37, lo=960, hi=1000)]], ref.softmax,
     dict(rtol=1e-5, atol=1e-6))
# ViT-tiny's attention (3 heads, 197 tokens): the scale fuses into the max's
# dispatch, the division into the packing of the second batch_matmul's operand
q, k, val = v("q", (3, 197, 64)), v("k", (3, 197, 64)), v("val", (3, 197, 64))
case("attention(softmax)", [q, k, val],
     relay.nn.batch_matmul(relay.nn.softmax(relay.nn.batch_matmul(q, k) * relay.const(0.125)), val,
                           transpose_b=False),
     [[rand(3, 197, 64), rand(3, 197, 64), rand(3, 197, 64)]],
     lambda q, k, val: (np_softmax(q.astype("float64") @ k.transpose(0, 2, 1) * 0.125) @ val)
     .astype("float32"), ACCUM)
x = v("x", (2, 3, 4, 4))
g, b, m, var = (v(n, (3,)) for n in ("gamma", "beta", "mean", "var"))
case("nn.batch_norm", [x, g, b, m, var], relay.nn.batch_norm(x, g, b, m, var, epsilon=1e-3)[0],
     [[rand(2, 3, 4, 4), rand(3), rand(3), rand(3), rand(3, lo=0.5, hi=2.0)]],
     lambda x, g, b, m, v: ref.batch_norm(x, g, b, m, v, epsilon=1e-3), ACCUM)
x = v("x", (2, Any()))
# inputs up to 1000: exp overflows float32 unless the maximum is subtracted first
case("softmax_runtime_axis[?]", [x], relay.nn.softmax(x), [[rand(2, 1)], [rand(2, 70, lo=960, hi=1000)]],
     lambda x: np_softmax(x, -1), TRANSC)
x = v("x", (Any(), Any(), 3))
case("softmax_runtime_axis1[?]", [x], relay.nn.softmax(x, axis=1), [[rand(1, 5, 3)], [rand(3, 17, 3, lo=-9, hi=9)]],
     lambda x: np_softmax(x, 1), TRANSC)


# ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def exe():
    return compile_cases(CASES)


@pytest.mark.parametrize("name", list(CASES))
def test_norm_op(exe, name):
    check_case(exe, CASES, name)
