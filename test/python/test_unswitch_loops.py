"""relay-unswitch-loops end to end: a loop's branches on its argument sizes decided once.

The few-row dense branches three ways on its run-time row count (1, at most 8, more); in a
loop body for any weight (outside loops only from 2^15 weight elements). In a
loop that is a host branch per step; the pass versions the loop function per outcome and
decides before the loop. These programs run each version (row counts 1, 5, 12) and, when the
row count changes from step to step, the guarded way back to the unversioned loop; results
are compared with numpy.
"""
from __future__ import annotations

import re

import numpy as np
import pytest

import relay_mlir as relay

# rows constant: h <- tanh(h . W^T) n times
STEADY = """
func.func private @loop(%i: tensor<i32>, %n: tensor<i32>, %h: tensor<?x{n}xf32>, %w: tensor<{n}x{n}xf32>) -> tensor<?x{n}xf32> {
  %go = relay.less %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %r = relay.if %go : tensor<i1> -> tensor<?x{n}xf32> {
    %one = relay.constant dense<1> : tensor<i32>
    %i2 = relay.add %i, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %d = relay.nn.dense %h, %w {units = {n} : i64} : (tensor<?x{n}xf32>, tensor<{n}x{n}xf32>) -> tensor<?x{n}xf32>
    %t = relay.tanh %d : (tensor<?x{n}xf32>) -> tensor<?x{n}xf32>
    %rec = func.call @loop(%i2, %n, %t, %w) : (tensor<i32>, tensor<i32>, tensor<?x{n}xf32>, tensor<{n}x{n}xf32>) -> tensor<?x{n}xf32>
    relay.yield %rec : tensor<?x{n}xf32>
  } else {
    relay.yield %h : tensor<?x{n}xf32>
  }
  return %r : tensor<?x{n}xf32>
}

func.func @main(%n: tensor<i32>, %h: tensor<?x{n}xf32>, %w: tensor<{n}x{n}xf32>) -> tensor<?x{n}xf32> {
  %zero = relay.constant dense<0> : tensor<i32>
  %r = func.call @loop(%zero, %n, %h, %w) : (tensor<i32>, tensor<i32>, tensor<?x{n}xf32>, tensor<{n}x{n}xf32>) -> tensor<?x{n}xf32>
  return %r : tensor<?x{n}xf32>
}
"""

# rows grow by one a step: h <- concat(h, first row of tanh(h . W^T))
GROWING = """
func.func private @loop(%i: tensor<i32>, %n: tensor<i32>, %h: tensor<?x256xf32>, %w: tensor<256x256xf32>) -> tensor<?x256xf32> {
  %go = relay.less %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %r = relay.if %go : tensor<i1> -> tensor<?x256xf32> {
    %one = relay.constant dense<1> : tensor<i32>
    %i2 = relay.add %i, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %d = relay.nn.dense %h, %w {units = 256 : i64} : (tensor<?x256xf32>, tensor<256x256xf32>) -> tensor<?x256xf32>
    %t = relay.tanh %d : (tensor<?x256xf32>) -> tensor<?x256xf32>
    %first = relay.constant dense<[0]> : tensor<1xi32>
    %row = relay.take %t, %first {axis = 0 : i64} : (tensor<?x256xf32>, tensor<1xi32>) -> tensor<1x256xf32>
    %h2 = relay.concatenate %h, %row {axis = 0 : i64} : (tensor<?x256xf32>, tensor<1x256xf32>) -> tensor<?x256xf32>
    %rec = func.call @loop(%i2, %n, %h2, %w) : (tensor<i32>, tensor<i32>, tensor<?x256xf32>, tensor<256x256xf32>) -> tensor<?x256xf32>
    relay.yield %rec : tensor<?x256xf32>
  } else {
    relay.yield %h : tensor<?x256xf32>
  }
  return %r : tensor<?x256xf32>
}

func.func @main(%n: tensor<i32>, %h: tensor<?x256xf32>, %w: tensor<256x256xf32>) -> tensor<?x256xf32> {
  %zero = relay.constant dense<0> : tensor<i32>
  %r = func.call @loop(%zero, %n, %h, %w) : (tensor<i32>, tensor<i32>, tensor<?x256xf32>, tensor<256x256xf32>) -> tensor<?x256xf32>
  return %r : tensor<?x256xf32>
}
"""


@pytest.fixture(scope="module")
def weights():
    return (np.random.default_rng(0).standard_normal((256, 256)) * 0.06).astype("float32")


def _versions(exe):
    return sorted(set(re.findall(r"@loop__(v\d+|any)\b", exe.iree_input)))


@pytest.mark.parametrize("n", [16, 256])
def test_steady_rows_one_version_per_outcome(n):
    """A small weight (16x16) takes the few-row path too: in a loop, its branch is not paid
    per step."""
    weights = (np.random.default_rng(0).standard_normal((n, n)) / np.sqrt(n)).astype("float32")
    exe = relay.compile(STEADY.replace("{n}", str(n)))
    # 1 row, <= 8 rows, more; no guard (the next h provably has the rows of this one)
    assert _versions(exe) == ["v1", "v2", "v3"]
    rng = np.random.default_rng(1)
    for rows in (1, 5, 12):
        h = rng.standard_normal((rows, n)).astype("float32")
        want = h
        for _ in range(7):
            want = np.tanh(want @ weights.T)
        got = exe(np.array(7, "int32"), h, weights)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_growing_rows_leave_the_version(weights):
    exe = relay.compile(GROWING)
    assert _versions(exe) == ["any", "v1", "v2", "v3"]   # guarded: rows change
    rng = np.random.default_rng(2)
    for rows, steps in ((1, 12), (6, 5), (9, 3), (1, 0)):
        h = rng.standard_normal((rows, 256)).astype("float32")
        want = h
        for _ in range(steps):
            want = np.concatenate([want, np.tanh(want @ weights.T)[:1]], 0)
        got = exe(np.array(steps, "int32"), h, weights)
        assert got.shape == (rows + steps, 256)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
