"""Recursive relay programs compiled end to end (relay-eliminate-recursion).

iree-compile never returns on a call graph with a cycle, so every program
here only compiles because the pass removed its recursion: self tail calls
become loops, other recursion a dispatcher with a heap frame stack. Each
result is compared with a Python/numpy evaluation of the same recursion.
"""
from __future__ import annotations

import time

import numpy as np
import pytest

import relay_mlir as relay

from conftest import vulkan_device_reason


def _compile(text: str, target: str = "llvm-cpu"):
    start = time.perf_counter()
    exe = relay.compile(text, target=target)
    print(f"compile {time.perf_counter() - start:.2f}s", end="; ")
    return exe


def _run(exe, *args):
    start = time.perf_counter()
    out = exe(*args)
    print(f"run {time.perf_counter() - start:.3f}s")
    return out


# ---------------------------------------------------------------------------
# Self tail recursion: Relay's while loop. 1,000,000 iterations must run in
# constant stack and heap (a loop, no frames).
# ---------------------------------------------------------------------------
LOOP = """
func.func @loop(%i: tensor<i32>, %n: tensor<i32>, %acc: tensor<4xf32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %go = relay.less %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %r = relay.if %go : tensor<i1> -> tensor<4xf32> {
    %one = relay.constant dense<1> : tensor<i32>
    %i2 = relay.add %i, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %acc2 = relay.add %acc, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %rec = func.call @loop(%i2, %n, %acc2, %x) : (tensor<i32>, tensor<i32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    relay.yield %rec : tensor<4xf32>
  } else {
    relay.yield %acc : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

func.func @main(%n: tensor<i32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %zero = relay.constant dense<0> : tensor<i32>
  %acc = relay.constant dense<0.0> : tensor<4xf32>
  %r = func.call @loop(%zero, %n, %acc, %x) : (tensor<i32>, tensor<i32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
"""


def _loop_reference(n: int, x: np.ndarray) -> np.ndarray:
    acc = np.zeros(4, np.float32)
    for _ in range(n):
        acc = acc + x
    return acc


def _function_text(module_text: str, name: str) -> str:
    start = module_text.index(f"func.func @{name}(")
    end = module_text.find("func.func", start + 1)
    return module_text[start:end if end >= 0 else len(module_text)]


def test_tail_recursive_loop_lowers_to_a_loop():
    text = relay.compiler.lower_to_iree_input(LOOP)
    loop = _function_text(text, "loop")
    assert "call @" not in loop, "the self tail call must become a branch"
    assert "cf.br ^bb1(" in loop, "the loop header is entered from the entry block"
    assert "util.list" not in text, "a tail loop needs no frame stack"
    assert text.count("call @loop(") == 1  # main's call


@pytest.fixture(scope="module")
def loop_exe():
    return _compile(LOOP)


def test_tail_recursive_loop_small(loop_exe):
    x = np.array([1.0, 0.5, -0.25, 2.0], np.float32)
    for n in (0, 1, 7):
        got = loop_exe(np.array(n, np.int32), x)
        np.testing.assert_array_equal(got, _loop_reference(n, x))


def test_tail_recursive_loop_million_iterations(loop_exe):
    # Powers of two: every partial sum is exact in f32, so the expectation
    # n * x is exact too (checked against the loop for small n above).
    x = np.array([1.0, 0.5, -0.25, 2.0], np.float32)
    n = 1_000_000
    got = _run(loop_exe, np.array(n, np.int32), x)
    np.testing.assert_array_equal(got, (np.float64(n) * x).astype(np.float32))


# ---------------------------------------------------------------------------
# Non-tail self recursion on tensor<i64> scalars.
# ---------------------------------------------------------------------------
FACT_FIB = """
func.func @fact(%n: tensor<i64>) -> tensor<i64> {
  %zero = relay.constant dense<0> : tensor<i64>
  %stop = relay.equal %n, %zero : (tensor<i64>, tensor<i64>) -> tensor<i1>
  %r = relay.if %stop : tensor<i1> -> tensor<i64> {
    %one = relay.constant dense<1> : tensor<i64>
    relay.yield %one : tensor<i64>
  } else {
    %one = relay.constant dense<1> : tensor<i64>
    %m = relay.subtract %n, %one : (tensor<i64>, tensor<i64>) -> tensor<i64>
    %f = func.call @fact(%m) : (tensor<i64>) -> tensor<i64>
    %p = relay.multiply %n, %f : (tensor<i64>, tensor<i64>) -> tensor<i64>
    relay.yield %p : tensor<i64>
  }
  return %r : tensor<i64>
}

func.func @fib(%n: tensor<i64>) -> tensor<i64> {
  %two = relay.constant dense<2> : tensor<i64>
  %small = relay.less %n, %two : (tensor<i64>, tensor<i64>) -> tensor<i1>
  %r = relay.if %small : tensor<i1> -> tensor<i64> {
    relay.yield %n : tensor<i64>
  } else {
    %one = relay.constant dense<1> : tensor<i64>
    %n1 = relay.subtract %n, %one : (tensor<i64>, tensor<i64>) -> tensor<i64>
    %n2 = relay.subtract %n, %two : (tensor<i64>, tensor<i64>) -> tensor<i64>
    %a = func.call @fib(%n1) : (tensor<i64>) -> tensor<i64>
    %b = func.call @fib(%n2) : (tensor<i64>) -> tensor<i64>
    %s = relay.add %a, %b : (tensor<i64>, tensor<i64>) -> tensor<i64>
    relay.yield %s : tensor<i64>
  }
  return %r : tensor<i64>
}

func.func @main(%n: tensor<i64>, %m: tensor<i64>) -> (tensor<i64>, tensor<i64>) {
  %f = func.call @fact(%n) : (tensor<i64>) -> tensor<i64>
  %g = func.call @fib(%m) : (tensor<i64>) -> tensor<i64>
  return %f, %g : tensor<i64>, tensor<i64>
}
"""


def _fib(n: int) -> int:
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


def test_factorial_and_fibonacci():
    exe = _compile(FACT_FIB)
    for n, m in ((0, 0), (1, 1), (5, 2), (20, 10)):
        fact, fib = exe(np.array(n, np.int64), np.array(m, np.int64))
        assert int(fact) == __import__("math").factorial(n), n
        assert int(fib) == _fib(m), m
    fact, fib = _run(exe, np.array(15, np.int64), np.array(20, np.int64))  # fib: 21891 calls
    assert (int(fact), int(fib)) == (1307674368000, 6765)


# ---------------------------------------------------------------------------
# Depth 100,000: frames live on the heap, not the VM stack.
# ---------------------------------------------------------------------------
SUM = """
func.func @sum(%n: tensor<i64>) -> tensor<i64> {
  %zero = relay.constant dense<0> : tensor<i64>
  %stop = relay.equal %n, %zero : (tensor<i64>, tensor<i64>) -> tensor<i1>
  %r = relay.if %stop : tensor<i1> -> tensor<i64> {
    relay.yield %zero : tensor<i64>
  } else {
    %one = relay.constant dense<1> : tensor<i64>
    %m = relay.subtract %n, %one : (tensor<i64>, tensor<i64>) -> tensor<i64>
    %s = func.call @sum(%m) : (tensor<i64>) -> tensor<i64>
    %t = relay.add %n, %s : (tensor<i64>, tensor<i64>) -> tensor<i64>
    relay.yield %t : tensor<i64>
  }
  return %r : tensor<i64>
}

func.func @main(%n: tensor<i64>) -> tensor<i64> {
  %r = func.call @sum(%n) : (tensor<i64>) -> tensor<i64>
  return %r : tensor<i64>
}
"""


def test_non_tail_recursion_depth_100000():
    exe = _compile(SUM)
    assert int(exe(np.array(3, np.int64))) == 6
    n = 100_000
    assert int(_run(exe, np.array(n, np.int64))) == n * (n + 1) // 2


# ---------------------------------------------------------------------------
# Mutual recursion.
# ---------------------------------------------------------------------------
EVEN_ODD = """
func.func @is_even(%n: tensor<i64>) -> tensor<i1> {
  %zero = relay.constant dense<0> : tensor<i64>
  %stop = relay.equal %n, %zero : (tensor<i64>, tensor<i64>) -> tensor<i1>
  %r = relay.if %stop : tensor<i1> -> tensor<i1> {
    %t = relay.constant dense<true> : tensor<i1>
    relay.yield %t : tensor<i1>
  } else {
    %one = relay.constant dense<1> : tensor<i64>
    %m = relay.subtract %n, %one : (tensor<i64>, tensor<i64>) -> tensor<i64>
    %o = func.call @is_odd(%m) : (tensor<i64>) -> tensor<i1>
    relay.yield %o : tensor<i1>
  }
  return %r : tensor<i1>
}

func.func @is_odd(%n: tensor<i64>) -> tensor<i1> {
  %zero = relay.constant dense<0> : tensor<i64>
  %stop = relay.equal %n, %zero : (tensor<i64>, tensor<i64>) -> tensor<i1>
  %r = relay.if %stop : tensor<i1> -> tensor<i1> {
    %f = relay.constant dense<false> : tensor<i1>
    relay.yield %f : tensor<i1>
  } else {
    %one = relay.constant dense<1> : tensor<i64>
    %m = relay.subtract %n, %one : (tensor<i64>, tensor<i64>) -> tensor<i64>
    %e = func.call @is_even(%m) : (tensor<i64>) -> tensor<i1>
    relay.yield %e : tensor<i1>
  }
  return %r : tensor<i1>
}

func.func @main(%n: tensor<i64>) -> (tensor<i1>, tensor<i1>) {
  %e = func.call @is_even(%n) : (tensor<i64>) -> tensor<i1>
  %o = func.call @is_odd(%n) : (tensor<i64>) -> tensor<i1>
  return %e, %o : tensor<i1>, tensor<i1>
}
"""


def test_mutual_recursion_even_odd():
    exe = _compile(EVEN_ODD)
    for n in (0, 1, 2, 7, 10, 1001):
        even, odd = exe(np.array(n, np.int64))
        assert (bool(even), bool(odd)) == (n % 2 == 0, n % 2 == 1), n


# Mutual non-tail recursion between functions of different signatures: the
# dispatcher has two argument and two result slot groups, and a tensor<4xi1>
# lives across calls.
MIXED = """
func.func @f(%n: tensor<i64>, %mask: tensor<4xi1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %zero = relay.constant dense<0> : tensor<i64>
  %stop = relay.equal %n, %zero : (tensor<i64>, tensor<i64>) -> tensor<i1>
  %r = relay.if %stop : tensor<i1> -> tensor<4xf32> {
    relay.yield %x : tensor<4xf32>
  } else {
    %one = relay.constant dense<1> : tensor<i64>
    %m = relay.subtract %n, %one : (tensor<i64>, tensor<i64>) -> tensor<i64>
    %g = func.call @g(%m, %x) : (tensor<i64>, tensor<4xf32>) -> tensor<f32>
    %y = relay.add %x, %g : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    %z = relay.where %mask, %y, %x : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    relay.yield %z : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

func.func @g(%n: tensor<i64>, %x: tensor<4xf32>) -> tensor<f32> {
  %zero = relay.constant dense<0> : tensor<i64>
  %stop = relay.equal %n, %zero : (tensor<i64>, tensor<i64>) -> tensor<i1>
  %r = relay.if %stop : tensor<i1> -> tensor<f32> {
    %s = relay.sum %x : (tensor<4xf32>) -> tensor<f32>
    relay.yield %s : tensor<f32>
  } else {
    %one = relay.constant dense<1> : tensor<i64>
    %m = relay.subtract %n, %one : (tensor<i64>, tensor<i64>) -> tensor<i64>
    %half = relay.constant dense<0.5> : tensor<4xf32>
    %x2 = relay.multiply %x, %half : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %mask = relay.constant dense<[true, false, true, true]> : tensor<4xi1>
    %y = func.call @f(%m, %mask, %x2) : (tensor<i64>, tensor<4xi1>, tensor<4xf32>) -> tensor<4xf32>
    %s = relay.sum %y : (tensor<4xf32>) -> tensor<f32>
    %t = relay.add %s, %s : (tensor<f32>, tensor<f32>) -> tensor<f32>
    relay.yield %t : tensor<f32>
  }
  return %r : tensor<f32>
}

func.func @main(%n: tensor<i64>, %mask: tensor<4xi1>, %x: tensor<4xf32>) -> (tensor<4xf32>, tensor<f32>) {
  %a = func.call @f(%n, %mask, %x) : (tensor<i64>, tensor<4xi1>, tensor<4xf32>) -> tensor<4xf32>
  %b = func.call @g(%n, %x) : (tensor<i64>, tensor<4xf32>) -> tensor<f32>
  return %a, %b : tensor<4xf32>, tensor<f32>
}
"""


def _f(n, mask, x):
    if n == 0:
        return x
    y = x + _g(n - 1, x)
    return np.where(mask, y, x).astype(np.float32)


def _g(n, x):
    if n == 0:
        return np.float32(x.sum(dtype=np.float32))
    y = _f(n - 1, np.array([True, False, True, True]), (x * np.float32(0.5)).astype(np.float32))
    s = np.float32(y.sum(dtype=np.float32))
    return np.float32(s + s)


def test_mutual_non_tail_recursion_mixed_signatures():
    exe = _compile(MIXED)
    x = np.array([1.0, -2.0, 0.5, 4.0], np.float32)
    mask = np.array([True, True, False, True])
    for n in (0, 1, 2, 5, 9):
        a, b = exe(np.array(n, np.int64), mask, x)
        np.testing.assert_allclose(a, _f(n, mask, x), rtol=1e-6)
        np.testing.assert_allclose(b, _g(n, x), rtol=1e-6)


# ---------------------------------------------------------------------------
# A `?` dim tensor kept across a non-tail recursive call.
# ---------------------------------------------------------------------------
DYNAMIC = """
func.func @grow(%n: tensor<i64>, %x: tensor<?xf32>) -> tensor<?xf32> {
  %zero = relay.constant dense<0> : tensor<i64>
  %stop = relay.equal %n, %zero : (tensor<i64>, tensor<i64>) -> tensor<i1>
  %r = relay.if %stop : tensor<i1> -> tensor<?xf32> {
    relay.yield %x : tensor<?xf32>
  } else {
    %one = relay.constant dense<1> : tensor<i64>
    %m = relay.subtract %n, %one : (tensor<i64>, tensor<i64>) -> tensor<i64>
    %two = relay.constant dense<2.0> : tensor<f32>
    %x2 = relay.multiply %x, %two : (tensor<?xf32>, tensor<f32>) -> tensor<?xf32>
    %y = func.call @grow(%m, %x2) : (tensor<i64>, tensor<?xf32>) -> tensor<?xf32>
    %c = relay.concatenate %x, %y {axis = 0 : i64} : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    relay.yield %c : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}

func.func @main(%n: tensor<i64>, %x: tensor<?xf32>) -> tensor<?xf32> {
  %r = func.call @grow(%n, %x) : (tensor<i64>, tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
"""


def _grow(n, x):
    if n == 0:
        return x
    return np.concatenate([x, _grow(n - 1, (x * 2).astype(np.float32))])


def test_recursion_with_dynamic_dim_tensor():
    exe = _compile(DYNAMIC)
    for n, size in ((0, 3), (1, 2), (4, 3), (6, 1)):
        x = np.arange(1, size + 1, dtype=np.float32)
        np.testing.assert_array_equal(exe(np.array(n, np.int64), x), _grow(n, x))


# ---------------------------------------------------------------------------
# vulkan-spirv (lavapipe): the dispatcher runs on a GPU target too.
# ---------------------------------------------------------------------------
SUM_I32 = SUM.replace("i64", "i32")


def test_non_tail_recursion_on_vulkan():
    reason = vulkan_device_reason()
    if reason:
        pytest.skip(reason)
    exe = _compile(SUM_I32, target="vulkan-spirv")
    for n in (0, 1, 100, 1000):
        assert int(exe(np.array(n, np.int32))) == n * (n + 1) // 2
    loop = _compile(LOOP, target="vulkan-spirv")
    x = np.array([1.0, 0.5, -0.25, 2.0], np.float32)
    np.testing.assert_array_equal(loop(np.array(1000, np.int32), x), 1000 * x)
