"""Sizes known only at run time that must agree or broadcast (relay.Any dims).

A `?` size may be 1 at run time and broadcast, as in numpy and TVM 0.19's VM: `(?,) + (?,)` at
(1,) and (4,) is (4,). Sizes the lowering cannot prove equal are combined and checked at run
time, so incompatible sizes are a RelayRuntimeError naming the op (never a wrong result or an
out-of-bounds read). Each program is compiled once (llvm-cpu) and run at several sizes; the
reference is numpy. Also: batch_matmul's `?` batches, the contraction sizes of dense and
batch_matmul, concatenate's sizes off the axis, and a pool window longer than its input.
"""
from __future__ import annotations

import numpy as np
import pytest

import relay_mlir as relay
from relay_mlir.errors import InputShapeError, RelayRuntimeError

A = relay.Any()


def _v(name, shape, dtype="float32"):
    return relay.var(name, shape=shape, dtype=dtype)


@pytest.fixture(scope="module")
def exe():
    x, y = _v("x", (A, A)), _v("y", (A,))
    p, q = _v("p", (A,)), _v("q", (A,))
    c, s, t = _v("c", (A,), "bool"), _v("s", (A,)), _v("t", (A, 1))
    a, b = _v("a", (A, 1, 2)), _v("b", (A, 2, A))
    u, w = _v("u", (A, 2)), _v("w", (A, 3))
    d, wt = _v("d", (2, A)), _v("wt", (3, 4))
    fns = {
        "mul": relay.Function([x, y], relay.multiply(x, y)),
        "add": relay.Function([p, q], relay.add(p, q)),
        "maximum2d": relay.Function([x, t], relay.maximum(x, t)),
        "where": relay.Function([c, s], relay.where(c, s, relay.const(0.0))),
        "bmm": relay.Function([a, b], relay.nn.batch_matmul(a, b, transpose_b=False)),
        "concat": relay.Function([u, w], relay.concatenate([u, w], axis=1)),
        "dense": relay.Function([d, wt], relay.nn.dense(d, wt)),
    }
    return relay.compile(relay.IRModule(fns), target="llvm-cpu")


def _run(exe, name, *args):
    return np.asarray(exe.run(name, *args))


@pytest.mark.parametrize("xs,ys", [((5, 1), (4,)), ((3, 4), (1,)), ((3, 4), (4,)), ((1, 1), (1,)),
                                   ((1, 4), (4,)), ((2, 3), (3,))])
def test_elementwise_broadcasts_run_time_ones(exe, xs, ys):
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal(xs).astype("float32"), rng.standard_normal(ys).astype("float32")
    got = _run(exe, "mul", x, y)
    assert got.shape == np.broadcast_shapes(xs, ys)
    np.testing.assert_allclose(got, x * y, rtol=1e-6)


@pytest.mark.parametrize("n,m", [(1, 4), (4, 1), (4, 4), (1, 1)])
def test_both_run_time_sizes(exe, n, m):
    p, q = np.arange(n, dtype="float32") + 10, np.arange(m, dtype="float32")
    np.testing.assert_array_equal(_run(exe, "add", p, q), p + q)


@pytest.mark.parametrize("xs,ts", [((3, 1), (1, 1)), ((1, 4), (3, 1)), ((1, 4), (1, 1)), ((2, 5), (2, 1))])
def test_two_dims_broadcast_both_ways(exe, xs, ts):
    rng = np.random.default_rng(1)
    x, t = rng.standard_normal(xs).astype("float32"), rng.standard_normal(ts).astype("float32")
    got = _run(exe, "maximum2d", x, t)
    assert got.shape == np.broadcast_shapes(xs, ts)
    np.testing.assert_array_equal(got, np.maximum(x, t))


def test_where_broadcasts_run_time_condition(exe):
    s = np.arange(4, dtype="float32") + 1
    for c in (np.array([True]), np.array([False]), np.array([True, False, True, False])):
        np.testing.assert_array_equal(_run(exe, "where", c, s), np.where(c, s, 0.0))


@pytest.mark.parametrize("name,args", [
    ("add", (np.ones(3, "float32"), np.ones(4, "float32"))),
    ("add", (np.ones(2, "float32"), np.ones(4_000_000, "float32"))),
    ("mul", (np.ones((2, 4), "float32"), np.ones(3, "float32"))),
    ("maximum2d", (np.ones((2, 4), "float32"), np.ones((3, 1), "float32"))),
])
def test_incompatible_sizes_are_run_time_errors(exe, name, args):
    with pytest.raises(RelayRuntimeError, match="do not broadcast"):
        _run(exe, name, *args)


@pytest.mark.parametrize("ba,bb", [(3, 1), (1, 3), (3, 3), (1, 1)])
def test_batch_matmul_run_time_batch_broadcast(exe, ba, bb):
    rng = np.random.default_rng(2)
    a = rng.standard_normal((ba, 1, 2)).astype("float32")
    b = rng.standard_normal((bb, 2, 5)).astype("float32")
    got = _run(exe, "bmm", a, b)
    np.testing.assert_allclose(got, np.matmul(a, b), rtol=1e-5, atol=1e-6)


def test_batch_matmul_bad_sizes(exe):
    a = np.ones((2, 1, 2), "float32")
    with pytest.raises(RelayRuntimeError, match="batch sizes do not broadcast"):
        _run(exe, "bmm", a, np.ones((3, 2, 5), "float32"))
    # (the typing rule fixed b's contraction size to a's: the signature checks it)
    with pytest.raises(InputShapeError, match="input1 shape dimension 1 mismatch; expected 2 but have 3"):
        _run(exe, "bmm", a, np.ones((2, 3, 5), "float32"))


def test_concatenate_checks_sizes_off_the_axis(exe):
    u, w = np.ones((2, 2), "float32"), np.zeros((2, 3), "float32")
    np.testing.assert_array_equal(_run(exe, "concat", u, w), np.concatenate([u, w], 1))
    with pytest.raises(RelayRuntimeError, match="sizes of axis 0 differ"):
        _run(exe, "concat", u, np.zeros((3, 3), "float32"))
    with pytest.raises(RelayRuntimeError, match="sizes of axis 0 differ"):
        _run(exe, "concat", np.ones((3_000_000, 2), "float32"), np.zeros((1, 3), "float32"))


def test_dense_checks_the_contraction_size(exe):
    d, wt = np.ones((2, 4), "float32"), np.ones((3, 4), "float32")
    np.testing.assert_array_equal(_run(exe, "dense", d, wt), d @ wt.T)
    with pytest.raises(InputShapeError, match="dense: input0 shape dimension 1 mismatch; expected 4"):
        _run(exe, "dense", np.ones((2, 5), "float32"), wt)
    with pytest.raises(InputShapeError, match="dense takes 2 inputs, 1 were given"):
        _run(exe, "dense", d)


def test_pool_window_longer_than_the_input():
    x = _v("x", (1, 1, A))
    exe = relay.compile(relay.Function([x], relay.nn.max_pool1d(x, pool_size=3)), target="llvm-cpu")
    for n in (3, 4, 9):
        a = np.arange(n, dtype="float32").reshape(1, 1, n)
        want = np.stack([a[..., i:i + 3].max(-1) for i in range(n - 2)], -1)
        np.testing.assert_array_equal(np.asarray(exe(a)), want)
    with pytest.raises(RelayRuntimeError, match="smaller than the window"):
        exe(np.ones((1, 1, 2), "float32"))


def test_broadcast_to_and_like_with_run_time_ones():
    a, b = _v("a", (A,)), _v("b", (A,))
    like = relay.compile(relay.Function([a, b], relay.broadcast_to_like(a, b)), target="llvm-cpu")
    to = relay.compile(relay.Function([a], relay.broadcast_to(a, (2, 3))), target="llvm-cpu")
    for n in (1, 3):
        x = np.arange(n, dtype="float32") + 1
        np.testing.assert_array_equal(np.asarray(like(x, np.zeros(3, "float32"))), np.broadcast_to(x, (3,)))
        np.testing.assert_array_equal(np.asarray(to(x)), np.broadcast_to(x, (2, 3)))
    with pytest.raises(RelayRuntimeError, match="neither 1 nor the target's"):
        like(np.ones(2, "float32"), np.ones(3, "float32"))
    with pytest.raises(RelayRuntimeError, match="neither 1 nor the target's"):
        to(np.ones(2, "float32"))


@pytest.mark.parametrize("shape,like_shape", [((3, 4), (1, 4)), ((3, 4), (3, 4)), ((3, 4), (4,)),
                                              ((3, 4), (3, 1)), ((1, 4), (1, 4))])
def test_collapse_sum_like_run_time_ones(shape, like_shape):
    x, y = _v("x", (A, A)), _v("y", tuple(A for _ in like_shape))
    exe = relay.compile(relay.Function([x, y], relay.collapse_sum_like(x, y)), target="llvm-cpu")
    data = np.arange(np.prod(shape), dtype="float32").reshape(shape)
    want = data.sum(axis=tuple(range(len(shape) - len(like_shape))))
    want = want.sum(axis=tuple(i for i, n in enumerate(like_shape) if n == 1), keepdims=True) \
        if 1 in like_shape else want
    got = np.asarray(exe(data, np.zeros(like_shape, "float32")))
    assert got.shape == like_shape
    np.testing.assert_array_equal(got, want.reshape(like_shape))


def test_stack_and_layer_norm_check_run_time_sizes():
    a, b = _v("a", (A,)), _v("b", (A,))
    stack = relay.compile(relay.Function([a, b], relay.stack([a, b], axis=0)), target="llvm-cpu")
    np.testing.assert_array_equal(np.asarray(stack(np.ones(2, "float32"), np.zeros(2, "float32"))),
                                  np.stack([np.ones(2), np.zeros(2)]))
    with pytest.raises(RelayRuntimeError, match="relay.stack: the inputs' sizes of axis 0 differ"):
        stack(np.ones(2, "float32"), np.ones(3, "float32"))
    x, g = _v("x", (2, A)), _v("g", (A,))
    fn = relay.Function([x, g], relay.nn.layer_norm(x, g, g))
    # layer_norm's own lowering (relay.build's SimplifyInference, which runs at every opt
    # level, would decompose it first)
    with relay.transform.PassContext(disabled_pass=["SimplifyInference"]):
        norm = relay.compile(fn, target="llvm-cpu")
    with pytest.raises(RelayRuntimeError, match="gamma or beta is not the size of the axis"):
        norm(np.ones((2, 4), "float32"), np.ones(3, "float32"))
    # decomposed by the optimizer: the multiply by gamma checks it, located at layer_norm
    norm = relay.compile(fn, target="llvm-cpu")
    with pytest.raises(RelayRuntimeError, match=r"relay.multiply: the sizes of axis 1 do not "
                       r"broadcast .*test_runtime_broadcast.py:\d+"):
        norm(np.ones((2, 4), "float32"), np.ones(3, "float32"))


def test_einsum_checks_a_labels_run_time_sizes():
    m, n = _v("m", (A, A)), _v("n", (A, A))
    exe = relay.compile(relay.Function([m, n], relay.einsum([m, n], "ij,jk->ik")), target="llvm-cpu")
    a, b = np.arange(6, dtype="float32").reshape(2, 3), np.arange(12, dtype="float32").reshape(3, 4)
    np.testing.assert_allclose(np.asarray(exe(a, b)), a @ b, rtol=1e-6)
    with pytest.raises(RelayRuntimeError, match="relay.einsum: the sizes of one subscript label differ"):
        exe(np.ones((2, 3), "float32"), np.ones((4, 2), "float32"))
