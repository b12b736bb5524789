"""``relay.loops.while_loop`` (TVM Relay's helper): a let-bound recursive closure, compiled
to a loop and run by the reference interpreter; results against numpy (float32 arithmetic in
the same order: exact)."""
from __future__ import annotations

import numpy as np
import pytest

import relay_mlir as relay


def _halving(n_iters_var=True):
    """s <- s / 2 + x while i < n; returns (i, s)."""
    i = relay.var("i", shape=(), dtype="int32")
    s = relay.var("s", shape=(2,))
    x = relay.var("x", shape=(2,))
    n = relay.var("n", shape=(), dtype="int32")
    loop = relay.loops.while_loop(
        lambda i, s: relay.less(i, n), [i, s],
        lambda i, s: [relay.add(i, relay.const(1, "int32")),
                      relay.add(relay.multiply(s, relay.const(0.5)), x)])
    return relay.Function([x, n], loop(relay.const(0, "int32"), x))


def _want(x, k):
    s = x.copy()
    for _ in range(k):
        s = s * np.float32(0.5) + x
    return s


@pytest.mark.parametrize("executor", ["compiled", "debug"])
def test_while_loop_runs_a_run_time_number_of_iterations(executor):
    mod = relay.IRModule.from_expr(_halving())
    run = (relay.compile(mod) if executor == "compiled"
           else relay.create_executor("debug", mod=mod).evaluate())
    x = np.array([1.0, -2.0], np.float32)
    for k in (0, 1, 7):
        i, s = run(x, np.array(k, np.int32))
        assert int(np.asarray(i)) == k
        np.testing.assert_array_equal(np.asarray(s), _want(x, k))


def test_while_loop_variables_typed_by_inference():
    """Loop variables that are expressions, not annotated Vars, take their types from
    inference."""
    x = relay.var("x", shape=(3,))
    loop = relay.loops.while_loop(
        lambda c, acc: relay.greater(c, relay.const(0, "int64")),
        [relay.const(0, "int64"), relay.zeros((3,), "float32")],
        lambda c, acc: [relay.subtract(c, relay.const(1, "int64")), relay.add(acc, x)])
    f = relay.Function([x], relay.TupleGetItem(loop(relay.const(4, "int64"), x), 1))
    exe = relay.compile(relay.IRModule.from_expr(f))
    xv = np.array([1.0, 2.0, 3.0], np.float32)
    np.testing.assert_array_equal(np.asarray(exe(xv)), xv * 5)


def test_while_loop_body_arity_is_checked():
    i = relay.var("i", shape=(), dtype="int32")
    with pytest.raises(ValueError, match="loop_bodies gave 2 values for 1 loop variables"):
        relay.loops.while_loop(lambda i: relay.less(i, relay.const(3, "int32")), [i],
                               lambda i: [i, i])


def test_while_loop_growing_a_tensor_from_an_empty_one():
    """A loop variable of type (?, 2) started on zeros((0, 2)) and grown by a row an
    iteration (Relay's Any takes any size: the closure keeps its `?` parameter type and the
    empty start is cast to it)."""
    i = relay.var("i", shape=(), dtype="int32")
    acc = relay.var("acc", shape=(relay.Any(), 2))
    x = relay.var("x", shape=(2,))
    n = relay.var("n", shape=(), dtype="int32")
    loop = relay.loops.while_loop(
        lambda i, acc: relay.less(i, n), [i, acc],
        lambda i, acc: [relay.add(i, relay.const(1, "int32")),
                        relay.concatenate([acc, relay.expand_dims(
                            relay.add(x, relay.cast(i, "float32")), 0)], 0)])
    f = relay.Function([x, n], relay.TupleGetItem(
        loop(relay.const(0, "int32"), relay.zeros((0, 2), "float32")), 1))
    exe = relay.compile(relay.IRModule.from_expr(f))
    xv = np.array([1.0, 2.0], np.float32)
    for k in (0, 1, 4):
        want = xv[None, :] + np.arange(k, dtype=np.float32)[:, None]
        np.testing.assert_array_equal(np.asarray(exe(xv, np.array(k, np.int32))), want)


def _rnn_loop(n, w, v, a0, b0):
    """(a, b) <- (tanh(a @ w.T + b + v), b / 2) while i < n: a loop capturing a weight, a bias
    and its run-time bound."""
    i = relay.var("i", shape=(), dtype="int32")
    a = relay.var("a", shape=(3, 4))
    b = relay.var("b", shape=(3, 4))
    loop = relay.loops.while_loop(
        lambda i, a, b: relay.less(i, n), [i, a, b],
        lambda i, a, b: [relay.add(i, relay.const(1, "int32")),
                         relay.tanh(relay.add(relay.add(relay.nn.dense(a, w), b), v)),
                         relay.multiply(b, relay.const(0.5))])
    return loop(relay.const(0, "int32"), a0, b0)


def _rnn_want(k, w, v, a, b):
    for _ in range(k):
        a, b = np.tanh(a @ w.T + b + v), b * np.float32(0.5)
    return a, b


def test_while_loops_capturing_weights_in_a_row():
    """Two loops in a row, each capturing a weight, a bias and its run-time bound, started on
    values computed on the device (reductions) and on slices of one input: the closure calls
    are direct calls (no closure boxed a step), the loop-invariant values are not carried
    (iree-compile 3.13 failed such loops at run time: "binding table slot requires a buffer
    but none was provided", "indirect buffer reference slot 0 is out of range"). Each trip
    count may be 0."""
    x = relay.var("x", shape=(2, 3, 4))
    w = relay.var("w", shape=(4, 4))
    v = relay.var("v", shape=(4,))
    n1 = relay.var("n1", shape=(), dtype="int32")
    n2 = relay.var("n2", shape=(), dtype="int32")
    r1 = _rnn_loop(n1, w, v, relay.sum(x, axis=[0]), relay.max(x, axis=[0]))
    r2 = _rnn_loop(n2, w, v, relay.take(x, relay.const(0, "int32"), axis=0),
                   relay.TupleGetItem(r1, 1))
    f = relay.Function([x, w, v, n1, n2], relay.Tuple(
        [relay.TupleGetItem(r1, 1), relay.TupleGetItem(r2, 1), relay.TupleGetItem(r2, 2)]))
    exe = relay.compile(relay.IRModule.from_expr(f))
    rng = np.random.default_rng(0)
    xv = rng.standard_normal((2, 3, 4)).astype(np.float32)
    wv = rng.standard_normal((4, 4)).astype(np.float32)
    vv = rng.standard_normal(4).astype(np.float32)
    for k1, k2 in [(0, 0), (0, 2), (3, 0), (2, 5)]:
        a1, _ = _rnn_want(k1, wv, vv, xv.sum(0), xv.max(0))
        a2, b2 = _rnn_want(k2, wv, vv, xv[0], a1)
        got = exe(xv, wv, vv, np.int32(k1), np.int32(k2))
        for g, want in zip(got, (a1, a2, b2)):
            np.testing.assert_allclose(np.asarray(g), want, rtol=1e-5, atol=1e-6)
