"""Run-time sizes at their limits: integer arange lengths that overflow the element type,
reshapes whose element count overflows, topk's k against a run-time axis size (references:
numpy, and Relay's documented semantics: topk with k < 1 selects the whole axis)."""
from __future__ import annotations

import numpy as np
import pytest

import relay_mlir as relay
from relay_mlir.errors import RelayRuntimeError

A = relay.Any()


def _compile(params, body):
    return relay.compile(relay.Function(params, body), target="llvm-cpu")


@pytest.mark.parametrize("dtype,cases", [
    ("int32", [(-2_000_000_000, 2_000_000_000, 1_000_000_000), (2_000_000_000, -2_000_000_000, -1_000_000_000),
               (-2**31, 2**31 - 1, 2**30), (5, 2, 1), (0, 7, 3)]),
    ("int64", [(-2**63, 2**63 - 1, 2**62), (2**63 - 1, -2**63, -2**62), (-5, 5, 2), (3, 3, 1)]),
])
def test_integer_arange_lengths_do_not_overflow(dtype, cases):
    a, b, c = (relay.var(n, shape=(), dtype=dtype) for n in "abc")
    exe = _compile([a, b, c], relay.arange(a, b, c, dtype=dtype))
    for lo, hi, st in cases:
        args = [np.array(v, dtype) for v in (lo, hi, st)]
        np.testing.assert_array_equal(np.asarray(exe(*args)), np.arange(lo, hi, st, dtype=dtype))


def test_integer_arange_past_2_40_elements_is_an_error():
    a, b, c = (relay.var(n, shape=(), dtype="int64") for n in "abc")
    exe = _compile([a, b, c], relay.arange(a, b, c, dtype="int64"))
    with pytest.raises(RelayRuntimeError, match="more than 2\\^40 elements"):
        exe(*[np.array(v, "int64") for v in (-2**62, 2**62, 1)])


def test_reshape_element_count_overflow_is_an_error():
    x, s = relay.var("x", shape=(A, A)), relay.var("s", shape=(2,), dtype="int64")
    exe = _compile([x, s], relay.reshape(x, s))
    # (a 0 entry copies the input's dim, as in Relay)
    assert np.asarray(exe(np.zeros((0, 3), "float32"), np.array([0, 7]))).shape == (0, 7)
    with pytest.raises(RelayRuntimeError, match="relay.dyn.reshape: a shape entry is negative or the shape"):
        exe(np.zeros((0, 3), "float32"), np.array([2**62, 4], "int64"))


def test_run_time_topk_k_below_one_selects_the_whole_axis():
    x, k = relay.var("x", shape=(A,)), relay.var("k", shape=(), dtype="int64")
    exe = _compile([x, k], relay.topk(x, k, ret_type="values"))
    data = np.array([3, 1, 2, 5], "float32")
    for kv, want in [(0, [5, 3, 2, 1]), (-1, [5, 3, 2, 1]), (2, [5, 3]), (4, [5, 3, 2, 1])]:
        np.testing.assert_array_equal(np.asarray(exe(data, np.array(kv, "int64"))), want)
    with pytest.raises(RelayRuntimeError, match="k is not in"):
        exe(data, np.array(5, "int64"))


def test_static_topk_k_past_a_run_time_axis_is_an_error():
    x = relay.var("x", shape=(2, A))
    exe = _compile([x], relay.topk(x, k=3, ret_type="values"))
    data = np.array([[1, 4, 2, 3], [0, 9, 8, 7]], "float32")
    np.testing.assert_array_equal(np.asarray(exe(data)), -np.sort(-data, 1)[:, :3])
    with pytest.raises(RelayRuntimeError, match="relay.topk: k is larger than the axis size"):
        exe(data[:, :2])
