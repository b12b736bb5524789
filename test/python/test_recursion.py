"""Recursive relay programs compiled end to end (relay-eliminate-recursion).

iree-compile never returns on a call graph with a cycle, so every program
here only compiles because the pass removed its recursion: self tail calls
become loops, other recursion a dispatcher with a heap frame stack. Each
result is compared with a Python/numpy evaluation of the same recursion.
"""
from __future__ import annotations

import re
import resource
import time

import numpy as np
import pytest

import relay_mlir as relay
from relay_mlir.runtime import Executable

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
    start = re.search(rf"func\.func (private )?@{re.escape(name)}\(", module_text).start()
    end = module_text.find("func.func", start + 1)
    return module_text[start:end if end >= 0 else len(module_text)]


def test_tail_recursive_loop_lowers_to_a_loop():
    text = relay.compiler.lower_to_iree_input(LOOP)
    # @loop is public and called: its body is the private @loop$body
    # (relay-privatize-callees), which main calls directly
    loop = _function_text(text, "loop$body")
    assert "call @" not in loop, "the self tail call must become a branch"
    assert "cf.br ^bb1(" in loop, "the loop header is entered from the entry block"
    assert "util.list" not in text, "a tail loop needs no frame stack"
    assert "call @loop$body(" in _function_text(text, "main")


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
    # local-sync runs the same llvm-cpu module without local-task's
    # per-dispatch thread hand-off (~100 us per iteration on a loaded 2-core
    # machine vs ~7 us): the loop is the same, only the wait is shorter.
    exe = Executable(loop_exe.vmfb, driver="local-sync")
    x = np.array([1.0, 0.5, -0.25, 2.0], np.float32)
    np.testing.assert_array_equal(exe(np.array(1000, np.int32), x), 1000 * x)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB
    n = 1_000_000
    got = _run(exe, np.array(n, np.int32), x)
    grown_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    np.testing.assert_array_equal(got, (np.float64(n) * x).astype(np.float32))
    # A loop, not a recursion: no per-iteration frame (>= 16 bytes each
    # would be >= 16 MB here) and no VM stack.
    assert grown_kib < 16 * 1024, f"peak RSS grew by {grown_kib} KiB over 1e6 iterations"


# Tail calls in both branches of a nested if, with a tuple result (two
# results after lowering): still a loop.
COLLATZ = """
func.func @collatz(%n: tensor<i64>, %steps: tensor<i64>) -> tuple<tensor<i64>, tensor<i64>> {
  %one = relay.constant dense<1> : tensor<i64>
  %done = relay.equal %n, %one : (tensor<i64>, tensor<i64>) -> tensor<i1>
  %r = relay.if %done : tensor<i1> -> tuple<tensor<i64>, tensor<i64>> {
    %t = relay.tuple %n, %steps : (tensor<i64>, tensor<i64>) -> tuple<tensor<i64>, tensor<i64>>
    relay.yield %t : tuple<tensor<i64>, tensor<i64>>
  } else {
    %two = relay.constant dense<2> : tensor<i64>
    %s1 = relay.add %steps, %one : (tensor<i64>, tensor<i64>) -> tensor<i64>
    %m = relay.mod %n, %two : (tensor<i64>, tensor<i64>) -> tensor<i64>
    %zero = relay.constant dense<0> : tensor<i64>
    %even = relay.equal %m, %zero : (tensor<i64>, tensor<i64>) -> tensor<i1>
    %q = relay.if %even : tensor<i1> -> tuple<tensor<i64>, tensor<i64>> {
      %h = relay.divide %n, %two : (tensor<i64>, tensor<i64>) -> tensor<i64>
      %c = func.call @collatz(%h, %s1) : (tensor<i64>, tensor<i64>) -> tuple<tensor<i64>, tensor<i64>>
      relay.yield %c : tuple<tensor<i64>, tensor<i64>>
    } else {
      %three = relay.constant dense<3> : tensor<i64>
      %t3 = relay.multiply %n, %three : (tensor<i64>, tensor<i64>) -> tensor<i64>
      %t4 = relay.add %t3, %one : (tensor<i64>, tensor<i64>) -> tensor<i64>
      %c = func.call @collatz(%t4, %s1) : (tensor<i64>, tensor<i64>) -> tuple<tensor<i64>, tensor<i64>>
      relay.yield %c : tuple<tensor<i64>, tensor<i64>>
    }
    relay.yield %q : tuple<tensor<i64>, tensor<i64>>
  }
  return %r : tuple<tensor<i64>, tensor<i64>>
}

func.func @main(%n: tensor<i64>) -> tensor<i64> {
  %zero = relay.constant dense<0> : tensor<i64>
  %r = func.call @collatz(%n, %zero) : (tensor<i64>, tensor<i64>) -> tuple<tensor<i64>, tensor<i64>>
  %s = relay.tuple_get_item %r[1] : (tuple<tensor<i64>, tensor<i64>>) -> tensor<i64>
  return %s : tensor<i64>
}
"""


def _collatz_steps(n: int) -> int:
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


def test_tail_calls_in_nested_ifs_with_tuple_result():
    text = relay.compiler.lower_to_iree_input(COLLATZ)
    assert "call @" not in _function_text(text, "collatz$body")
    assert "util.list" not in text
    exe = _compile(COLLATZ)
    for n in (1, 6, 27, 97, 871):
        assert int(exe(np.array(n, np.int64))) == _collatz_steps(n), n


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


# Two recursive components, one calling the other from its frames.
NESTED = SUM.replace("func.func @main", "func.func @unused_main") + """
func.func @outer(%n: tensor<i64>) -> tensor<i64> {
  %zero = relay.constant dense<0> : tensor<i64>
  %stop = relay.equal %n, %zero : (tensor<i64>, tensor<i64>) -> tensor<i1>
  %r = relay.if %stop : tensor<i1> -> tensor<i64> {
    relay.yield %zero : tensor<i64>
  } else {
    %one = relay.constant dense<1> : tensor<i64>
    %m = relay.subtract %n, %one : (tensor<i64>, tensor<i64>) -> tensor<i64>
    %s = func.call @sum(%n) : (tensor<i64>) -> tensor<i64>
    %o = func.call @outer(%m) : (tensor<i64>) -> tensor<i64>
    %t = relay.add %s, %o : (tensor<i64>, tensor<i64>) -> tensor<i64>
    relay.yield %t : tensor<i64>
  }
  return %r : tensor<i64>
}

func.func @main(%n: tensor<i64>) -> tensor<i64> {
  %r = func.call @outer(%n) : (tensor<i64>) -> tensor<i64>
  return %r : tensor<i64>
}
"""


def test_recursive_function_calling_another_recursive_function():
    text = relay.compiler.lower_to_iree_input(NESTED)
    assert "func.func private @sum$body__recursion" in text
    assert "func.func private @outer$body__recursion" in text
    assert "call @sum$body(" in _function_text(text, "outer$body__recursion")
    exe = _compile(NESTED)
    for n in (0, 1, 4, 30):
        want = sum(k * (k + 1) // 2 for k in range(1, n + 1))
        assert int(exe(np.array(n, np.int64))) == want, n


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
    # Tail calls between the two functions are branches: no frames, so a
    # deep chain runs in constant space (local-sync: see the loop test).
    text = relay.compiler.lower_to_iree_input(EVEN_ODD)
    assert "util.list.set" not in _function_text(text, "is_even$body__recursion")
    sync = Executable(exe.vmfb, driver="local-sync")
    n = 200_001
    even, odd = _run(sync, np.array(n, np.int64))
    assert (bool(even), bool(odd)) == (False, True)


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


# f16 and i8 tensors saved in frames (boxed as buffer views).
NARROW = """
func.func @h(%n: tensor<i64>, %a: tensor<3xf16>, %b: tensor<2xi8>) -> tuple<tensor<3xf16>, tensor<2xi8>> {
  %zero = relay.constant dense<0> : tensor<i64>
  %stop = relay.equal %n, %zero : (tensor<i64>, tensor<i64>) -> tensor<i1>
  %r = relay.if %stop : tensor<i1> -> tuple<tensor<3xf16>, tensor<2xi8>> {
    %t = relay.tuple %a, %b : (tensor<3xf16>, tensor<2xi8>) -> tuple<tensor<3xf16>, tensor<2xi8>>
    relay.yield %t : tuple<tensor<3xf16>, tensor<2xi8>>
  } else {
    %one = relay.constant dense<1> : tensor<i64>
    %m = relay.subtract %n, %one : (tensor<i64>, tensor<i64>) -> tensor<i64>
    %rec = func.call @h(%m, %a, %b) : (tensor<i64>, tensor<3xf16>, tensor<2xi8>) -> tuple<tensor<3xf16>, tensor<2xi8>>
    %ra = relay.tuple_get_item %rec[0] : (tuple<tensor<3xf16>, tensor<2xi8>>) -> tensor<3xf16>
    %rb = relay.tuple_get_item %rec[1] : (tuple<tensor<3xf16>, tensor<2xi8>>) -> tensor<2xi8>
    %sa = relay.add %ra, %a : (tensor<3xf16>, tensor<3xf16>) -> tensor<3xf16>
    %sb = relay.subtract %rb, %b : (tensor<2xi8>, tensor<2xi8>) -> tensor<2xi8>
    %t = relay.tuple %sa, %sb : (tensor<3xf16>, tensor<2xi8>) -> tuple<tensor<3xf16>, tensor<2xi8>>
    relay.yield %t : tuple<tensor<3xf16>, tensor<2xi8>>
  }
  return %r : tuple<tensor<3xf16>, tensor<2xi8>>
}

func.func @main(%n: tensor<i64>, %a: tensor<3xf16>, %b: tensor<2xi8>) -> tuple<tensor<3xf16>, tensor<2xi8>> {
  %r = func.call @h(%n, %a, %b) : (tensor<i64>, tensor<3xf16>, tensor<2xi8>) -> tuple<tensor<3xf16>, tensor<2xi8>>
  return %r : tuple<tensor<3xf16>, tensor<2xi8>>
}
"""


def test_f16_and_i8_tensors_survive_frames():
    exe = _compile(NARROW)
    a = np.array([0.5, -1.0, 2.0], np.float16)
    b = np.array([3, -7], np.int8)
    for n in (0, 1, 5, 40):
        ra, rb = exe(np.array(n, np.int64), a, b)
        np.testing.assert_array_equal(ra, (a * np.float16(n + 1)).astype(np.float16))  # exact: small multiples
        want_b = ((1 - n) * b.astype(np.int64) + 128) % 256 - 128  # i8 wraps around
        np.testing.assert_array_equal(rb, want_b.astype(np.int8))


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
# Lowered IR as the pass sees it after convert-relay-to-linalg (relay.compile
# accepts it too): a recursive call inside an scf.for, and host values of
# several kinds (index, i1, f32, a !util.list<?>, a tensor<2xi1>) that live
# across a call and so go through a frame.
# ---------------------------------------------------------------------------
TREE = """
// A recursive call inside an scf.for: the loop's values live across it.
func.func @tree(%depth: i64, %x: tensor<2xf32>) -> tensor<2xf32> {
  %c0 = arith.constant 0 : i64
  %leaf = arith.cmpi eq, %depth, %c0 : i64
  %r = scf.if %leaf -> tensor<2xf32> {
    scf.yield %x : tensor<2xf32>
  } else {
    %c1 = arith.constant 1 : i64
    %d = arith.subi %depth, %c1 : i64
    %lb = arith.constant 0 : index
    %ub = arith.constant 3 : index
    %st = arith.constant 1 : index
    %acc = scf.for %i = %lb to %ub step %st iter_args(%a = %x) -> tensor<2xf32> {
      %sub = func.call @tree(%d, %a) : (i64, tensor<2xf32>) -> tensor<2xf32>
      %s = arith.addf %a, %sub : tensor<2xf32>
      scf.yield %s : tensor<2xf32>
    }
    scf.yield %acc : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}

func.func @main(%depth: tensor<i64>, %x: tensor<2xf32>) -> tensor<2xf32> {
  %d = tensor.extract %depth[] : tensor<i64>
  %r = func.call @tree(%d, %x) : (i64, tensor<2xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}
"""


def _tree(depth, x):
    if depth == 0:
        return x
    acc = x
    for _ in range(3):
        acc = (acc + _tree(depth - 1, acc)).astype(np.float32)
    return acc


def test_recursive_call_inside_a_loop():
    exe = _compile(TREE)
    x = np.array([1.0, -0.5], np.float32)
    for depth in range(5):
        np.testing.assert_allclose(exe(np.array(depth, np.int64), x), _tree(depth, x), rtol=1e-6)


KINDS = """
// index, i1, f32, !util.list<?> and tensor<2xi1> live across a call.
func.func @kinds(%n: index, %b: i1, %f: f32, %l: !util.list<?>, %m: tensor<2xi1>) -> index {
  %c0 = arith.constant 0 : index
  %stop = arith.cmpi eq, %n, %c0 : index
  %r = scf.if %stop -> index {
    scf.yield %n : index
  } else {
    %c1 = arith.constant 1 : index
    %k = arith.subi %n, %c1 : index
    %s = func.call @kinds(%k, %b, %f, %l, %m) : (index, i1, f32, !util.list<?>, tensor<2xi1>) -> index
    %bi32 = arith.extui %b : i1 to i32
    %bi = arith.index_cast %bi32 : i32 to index
    %fi = arith.fptosi %f : f32 to i32
    %fx = arith.index_cast %fi : i32 to index
    %sz = "util.list.size"(%l) : (!util.list<?>) -> index
    %e = tensor.extract %m[%c0] : tensor<2xi1>
    %e32 = arith.extui %e : i1 to i32
    %ex = arith.index_cast %e32 : i32 to index
    %t0 = arith.addi %s, %bi : index
    %t2 = arith.addi %t0, %fx : index
    %t3 = arith.addi %t2, %sz : index
    %t4 = arith.addi %t3, %ex : index
    %t5 = arith.addi %t4, %n : index
    scf.yield %t5 : index
  }
  return %r : index
}

func.func @main(%n: tensor<i64>, %m: tensor<2xi1>) -> tensor<i64> {
  %nn = tensor.extract %n[] : tensor<i64>
  %ni = arith.index_cast %nn : i64 to index
  %c3 = arith.constant 3 : index
  %l = "util.list.create"(%c3) : (index) -> !util.list<?>
  "util.list.resize"(%l, %c3) : (!util.list<?>, index) -> ()
  %b = arith.constant true
  %f = arith.constant 7.0 : f32
  %r = func.call @kinds(%ni, %b, %f, %l, %m) : (index, i1, f32, !util.list<?>, tensor<2xi1>) -> index
  %ri = arith.index_cast %r : index to i64
  %t = tensor.from_elements %ri : tensor<i64>
  return %t : tensor<i64>
}
"""


def test_scalar_list_and_i1_values_survive_frames():
    exe = _compile(KINDS)
    for n in (0, 1, 5, 100):
        for m0 in (True, False):
            # per level: b (1) + f (7) + list size (3) + m[0] + n
            want = sum(1 + 7 + 3 + int(m0) + k for k in range(1, n + 1))
            assert int(exe(np.array(n, np.int64), np.array([m0, not m0]))) == want, (n, m0)


# A defunctionalized closure call: `apply` switches (scf.index_switch) on
# the closure tag and calls lifted functions that call `apply` again: one
# component of three functions with different signatures, tail calls through
# the switch, and host scalars (index, i64) in frames.
APPLY = """
// A defunctionalized closure call: apply switches on the closure tag and
// calls the lifted functions, which call apply again.
func.func @apply(%tag: index, %x: i64) -> i64 {
  %r = scf.index_switch %tag -> i64
  case 0 {
    %a = func.call @lam0(%x) : (i64) -> i64
    scf.yield %a : i64
  }
  case 1 {
    %b = func.call @lam1(%x) : (i64) -> i64
    scf.yield %b : i64
  }
  default {
    scf.yield %x : i64
  }
  return %r : i64
}

func.func @lam0(%x: i64) -> i64 {
  %c0 = arith.constant 0 : i64
  %stop = arith.cmpi sle, %x, %c0 : i64
  %r = scf.if %stop -> i64 {
    scf.yield %c0 : i64
  } else {
    %c1 = arith.constant 1 : i64
    %m = arith.subi %x, %c1 : i64
    %t = arith.constant 1 : index
    %v = func.call @apply(%t, %m) : (index, i64) -> i64
    scf.yield %v : i64
  }
  return %r : i64
}

func.func @lam1(%x: i64) -> i64 {
  %c1 = arith.constant 1 : i64
  %m = arith.subi %x, %c1 : i64
  %t = arith.constant 0 : index
  %v = func.call @apply(%t, %m) : (index, i64) -> i64
  %s = arith.addi %v, %x : i64
  return %s : i64
}

func.func @main(%x: tensor<i64>) -> tensor<i64> {
  %v = tensor.extract %x[] : tensor<i64>
  %t = arith.constant 0 : index
  %r = func.call @apply(%t, %v) : (index, i64) -> i64
  %o = tensor.from_elements %r : tensor<i64>
  return %o : tensor<i64>
}
"""


def test_defunctionalized_apply_through_index_switch():
    exe = _compile(APPLY)

    def want(x):  # apply(0, x) = apply(0, x - 2) + (x - 1), iteratively
        total = 0
        while x > 0:
            total, x = total + x - 1, x - 2
        return total

    for n in (0, 1, 2, 5, 10, 1001):
        assert int(exe(np.array(n, np.int64))) == want(n), n
    n = 100_000  # 50,000 frames
    assert int(_run(exe, np.array(n, np.int64))) == want(n)


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


# ---------------------------------------------------------------------------
# Relay's Any takes any size: a static argument to a parameter with `?` dims
# (TVM's type checker accepts it; func.call needs a tensor.cast, which
# relay-infer-type inserts).
# ---------------------------------------------------------------------------
def test_static_argument_to_a_parameter_with_any_dim():
    """A loop growing a (?, 2) tensor from zeros((0, 2)): row k holds k + x."""
    mod = relay.IRModule()
    grow = relay.GlobalVar("grow")
    i = relay.var("i", shape=(), dtype="int64")
    n = relay.var("n", shape=(), dtype="int64")
    x = relay.var("x", shape=(2,))
    acc = relay.var("acc", shape=(relay.Any(), 2))
    row = relay.expand_dims(relay.add(x, relay.cast(i, "float32")), 0)
    step = grow(relay.add(i, relay.const(1, "int64")), n, x, relay.concatenate([acc, row], axis=0))
    mod[grow] = relay.Function([i, n, x, acc], relay.If(relay.less(i, n), step, acc))
    n0 = relay.var("n", shape=(), dtype="int64")
    x0 = relay.var("x", shape=(2,))
    mod["main"] = relay.Function([n0, x0], grow(relay.const(0, "int64"), n0, x0,
                                               relay.zeros((0, 2), "float32")))
    exe = relay.compile(mod)
    xv = np.array([0.5, -1.0], np.float32)
    for k in (0, 1, 5):
        got = np.asarray(exe(np.array(k, np.int64), xv))
        want = np.arange(k, dtype=np.float32)[:, None] + xv[None, :]
        np.testing.assert_array_equal(got, want.reshape(k, 2))
