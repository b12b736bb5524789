"""Reduction-like operators over a size-0 axis (issue 29).

iree-compile 3.13 dies of SIGFPE on dispatches over an empty iteration space
(a dense with no input features, a reduction of an empty axis), and an
integer mean of nothing divided by zero at run time (SIGFPE in the caller).
Every such operator is decided by numpy's answer: contractions over nothing
are zeros, sum/prod their identities, mean/variance/std NaN, logsumexp -inf,
normalizations/scans/sorts of an empty tensor empty tensors. Where numpy has
no answer: max/min of nothing is -inf/+inf (the identity the compiled
reduction starts from, as TVM 0.19's lowest/highest float), an integer mean
of nothing is 0 (its sum; no NaN in integers), and argmax/argmin of an
empty axis are an error (numpy: "attempt to get argmax of an empty
sequence"): a located type error for a static 0, a run-time error for a
`?` dim that is 0.

All float cases are one compiled program (one compile), compared with numpy
and with the reference interpreter: exact (zeros, identities, NaN where
numpy gives NaN) and shapes exact.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import relay_mlir as relay

NAN = np.nan


def _z(*shape):
    return lambda *_: np.zeros(shape)


def _full(value, *shape):
    return lambda *_: np.full(shape, value)


# name, input shapes (float32), relay builder, numpy reference
CASES = [
    ("dense_k0", [(4, 0), (5, 0)], lambda x, w: relay.nn.dense(x, w), lambda x, w: x @ w.T),
    ("dense_n0", [(4, 3), (0, 3)], lambda x, w: relay.nn.dense(x, w), lambda x, w: x @ w.T),
    ("matmul_k0", [(4, 0), (0, 5)], lambda x, w: relay.nn.matmul(x, w), lambda x, w: x @ w),
    ("batch_matmul_k0", [(2, 4, 0), (2, 5, 0)], lambda x, w: relay.nn.batch_matmul(x, w),
     lambda x, w: x @ w.transpose(0, 2, 1)),
    ("einsum_k0", [(3, 0), (0, 4)], lambda x, y: relay.einsum([x, y], "ij,jk->ik"),
     lambda x, y: np.einsum("ij,jk->ik", x, y)),
    ("conv1d_c0", [(1, 0, 5), (3, 0, 3)], lambda x, w: relay.nn.conv1d(x, w), _z(1, 3, 3)),
    ("conv2d_c0", [(1, 0, 5, 5), (3, 0, 3, 3)],
     lambda x, w: relay.nn.conv2d(x, w, padding=(1, 1)), _z(1, 3, 5, 5)),
    ("conv2d_nhwc_c0", [(1, 5, 5, 0), (3, 3, 0, 3)],
     lambda x, w: relay.nn.conv2d(x, w, data_layout="NHWC", kernel_layout="HWIO"), _z(1, 3, 3, 3)),
    ("conv3d_c0", [(1, 0, 3, 3, 3), (2, 0, 1, 1, 1)], lambda x, w: relay.nn.conv3d(x, w),
     _z(1, 2, 3, 3, 3)),
    ("conv2d_transpose_c0", [(1, 0, 5, 5), (0, 3, 3, 3)],
     lambda x, w: relay.nn.conv2d_transpose(x, w), _z(1, 3, 7, 7)),
    ("sum", [(2, 0)], lambda x: relay.sum(x, axis=1), lambda x: x.sum(axis=1)),
    ("sum_all", [(0, 3)], lambda x: relay.sum(x), lambda x: x.sum()),
    ("prod", [(0, 3)], lambda x: relay.prod(x, axis=0), lambda x: x.prod(axis=0)),
    ("mean", [(2, 0)], lambda x: relay.mean(x, axis=1), lambda x: x.mean(axis=1)),
    ("variance", [(2, 0)], lambda x: relay.variance(x, axis=1), lambda x: x.var(axis=1)),
    ("std", [(2, 0)], lambda x: relay.std(x, axis=1), lambda x: x.std(axis=1)),
    ("max", [(2, 0)], lambda x: relay.max(x, axis=1), _full(-np.inf, 2)),
    ("min", [(2, 0)], lambda x: relay.min(x, axis=1), _full(np.inf, 2)),
    ("logsumexp", [(2, 0)], lambda x: relay.logsumexp(x, axis=1),
     lambda x: np.logaddexp.reduce(x, axis=1)),
    ("softmax", [(2, 0)], lambda x: relay.nn.softmax(x, axis=1), _z(2, 0)),
    ("log_softmax", [(2, 0)], lambda x: relay.nn.log_softmax(x, axis=1), _z(2, 0)),
    ("cumsum", [(2, 0)], lambda x: relay.cumsum(x, axis=1), lambda x: np.cumsum(x, axis=1)),
    ("cumprod", [(2, 0)], lambda x: relay.cumprod(x, axis=1), lambda x: np.cumprod(x, axis=1)),
    ("sort", [(2, 0)], lambda x: relay.sort(x, axis=1), _z(2, 0)),
    ("topk_k0", [(2, 0)], lambda x: relay.topk(x, k=0, axis=1, ret_type="values"), _z(2, 0)),
    ("layer_norm", [(2, 0), (0,), (0,)], lambda x, g, b: relay.nn.layer_norm(x, g, b), _z(2, 0)),
    ("l2_normalize", [(2, 0)], lambda x: relay.nn.l2_normalize(x, 1e-5, axis=[1]), _z(2, 0)),
    ("instance_norm", [(1, 2, 0), (2,), (2,)], lambda x, g, b: relay.nn.instance_norm(x, g, b),
     _z(1, 2, 0)),
    ("batch_norm_c0", [(1, 0, 3, 3)] + [(0,)] * 4,
     lambda x, g, b, m, v: relay.nn.batch_norm(x, g, b, m, v)[0], _z(1, 0, 3, 3)),
    ("global_avg_pool", [(1, 2, 0, 0)], lambda x: relay.nn.global_avg_pool2d(x),
     _full(NAN, 1, 2, 1, 1)),
    ("global_max_pool", [(1, 2, 0, 0)], lambda x: relay.nn.global_max_pool2d(x),
     _full(-np.inf, 1, 2, 1, 1)),
    ("adaptive_avg_pool", [(1, 2, 0, 0)], lambda x: relay.nn.adaptive_avg_pool2d(x, (1, 1)),
     _full(NAN, 1, 2, 1, 1)),
]


@pytest.fixture(scope="module")
def empty_program():
    params, outs, inputs, wants = [], [], [], []
    rng = np.random.default_rng(0)
    for name, shapes, build, ref in CASES:
        xs = [relay.var(f"{name}_{i}", shape=s) for i, s in enumerate(shapes)]
        args = [rng.standard_normal(s).astype("float32") for s in shapes]
        params += xs
        inputs += args
        outs.append(build(*xs))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # numpy's mean of nothing
            wants.append(np.asarray(ref(*[a.astype("float64") for a in args])).astype("float32"))
    mod = relay.IRModule.from_expr(relay.Function(params, relay.Tuple(outs)))
    return mod, inputs, wants


def _check(got, wants, how):
    assert len(got) == len(wants)
    for (name, *_), g, w in zip(CASES, got, wants):
        g = np.asarray(g)
        assert g.dtype == np.float32, (how, name, g.dtype)
        np.testing.assert_array_equal(g, w, err_msg=f"{how}: {name}")


def test_empty_axes_compiled_match_numpy(empty_program):
    mod, inputs, wants = empty_program
    _check(relay.compile(mod).run("main", *inputs), wants, "compiled")


def test_empty_axes_interpreted_match_numpy(empty_program):
    mod, inputs, wants = empty_program
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        got = relay.create_executor("debug", mod=mod).evaluate()(*inputs)
    _check(got, wants, "interpreted")


def test_integer_mean_of_nothing_is_zero():
    """An integer mean of an empty axis is 0 (the sum; no NaN in integers), at a
    static 0 and at a ``?`` dim that is 0 at run time (it divided by zero: SIGFPE)."""
    x = relay.var("x", shape=(2, 0), dtype="int32")
    y = relay.var("y", shape=(2, relay.Any()), dtype="int32")
    mod = relay.IRModule.from_expr(relay.Function([x, y], relay.Tuple(
        [relay.mean(x, axis=1), relay.mean(y, axis=1)])))
    exe = relay.compile(mod)
    for n in (0, 3):
        yv = np.arange(2 * n, dtype="int32").reshape(2, n)
        want = [np.zeros(2, "int32"), yv.sum(axis=1) // max(n, 1)]
        for got in (exe.run("main", np.zeros((2, 0), "int32"), yv),
                    relay.create_executor("debug", mod=mod).evaluate()(np.zeros((2, 0), "int32"), yv)):
            for g, w in zip(got, want):
                np.testing.assert_array_equal(np.asarray(g), w)


@pytest.mark.parametrize("op", ["argmax", "argmin"])
def test_index_of_an_extreme_of_nothing_is_a_type_error(op):
    x = relay.var("x", shape=(3, 0))
    mod = relay.IRModule.from_expr(relay.Function([x], getattr(relay, op)(x, axis=1)))
    with pytest.raises(relay.CompileError) as ei:
        relay.compile(mod)
    msg = str(ei.value)
    assert f"'relay.{op}' op cannot take the index of an extreme over an empty axis" in msg, msg
    assert "dim 1 of 'tensor<3x0xf32>' has size 0" in msg and "test_empty_axes.py:" in msg, msg
    # only the reduced axis must be non-empty: no rows to reduce is an empty result
    y = relay.var("y", shape=(0, 3))
    ok = relay.IRModule.from_expr(relay.Function([y], getattr(relay, op)(y, axis=1)))
    assert relay.compile(ok)(np.zeros((0, 3), "float32")).shape == (0,)


def test_index_of_an_extreme_of_a_run_time_empty_axis_is_a_run_time_error():
    x = relay.var("x", shape=(3, relay.Any()))
    mod = relay.IRModule.from_expr(relay.Function([x], relay.Tuple(
        [relay.argmax(x, axis=1), relay.argmin(x, axis=1)])))
    exe = relay.compile(mod)
    xv = np.array([[1, 5, 2], [7, 0, 7], [3, 3, 3]], "float32")
    got = exe.run("main", xv)
    np.testing.assert_array_equal(got[0], np.argmax(xv, axis=1))
    np.testing.assert_array_equal(got[1], np.argmin(xv, axis=1))
    for run in (lambda v: exe.run("main", v), relay.create_executor("debug", mod=mod).evaluate()):
        with pytest.raises(relay.RelayRuntimeError, match=r"relay.argmax: an empty axis has no "
                                                          r"index of an extreme \(dim 1 is 0\)"):
            run(np.zeros((3, 0), "float32"))
