"""The language on the GPU target (vulkan-spirv; Mesa lavapipe here): a Prelude
List fold with a capturing closure, a closure passed to a higher-order global,
and a recursive global function. Each program is compiled for vulkan-spirv and
compared with the reference interpreter and a numpy expectation written here.
ADT values, closures (defunctionalized) and the recursion's frame stack are
host-side VM code; the tensor compute runs as SPIR-V dispatches."""
import numpy as np
import pytest

import relay_mlir as relay
from relay_mlir.prelude import Prelude

from conftest import vulkan_device_reason


@pytest.fixture(autouse=True)
def _need_vulkan():
    reason = vulkan_device_reason()
    if reason:
        pytest.skip(reason)


def _executors(mod):
    """``main`` in the reference interpreter and compiled for vulkan-spirv."""
    ref = relay.create_executor("debug", mod=mod).evaluate()
    gpu = relay.compile(mod, target="vulkan-spirv")
    assert gpu.driver == "vulkan"
    return (lambda *a: np.asarray(ref(*a))), (lambda *a: np.asarray(gpu(*a)))


def _run_both(mod, *inputs):
    ref, gpu = _executors(mod)
    return ref(*inputs), gpu(*inputs)


def _check(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def _vals(n, shape, seed):
    rng = np.random.RandomState(seed)
    return [rng.uniform(-1, 1, shape).astype("float32") for _ in range(n)]


def test_prelude_foldl_with_capturing_closure():
    # foldl(fn(acc, e) { acc * 2 - e * w }, zeros, [x0, x1, x2, x3]): the closure
    # captures w and the order of the elements matters
    mod = relay.IRModule()
    p = Prelude(mod)
    xs = [relay.var(f"x{i}", shape=(3,)) for i in range(4)]
    w = relay.var("w", shape=(3,))
    acc, e = relay.var("acc", shape=(3,)), relay.var("e", shape=(3,))
    step = relay.Function([acc, e], acc * relay.const(2.0) - e * w)
    lst = p.nil()
    for x in reversed(xs):
        lst = p.cons(x, lst)
    mod["main"] = relay.Function(xs + [w], p.foldl(step, relay.zeros_like(w), lst))
    vals = _vals(5, (3,), seed=1)
    want = np.zeros(3, "float32")
    for v in vals[:4]:
        want = want * 2 - v * vals[4]
    ref, gpu = _run_both(mod, *vals)
    _check(ref, want)
    _check(gpu, want)


def test_closure_passed_to_higher_order_global():
    # twice(f, x) = f(f(x)) called with a closure capturing k
    mod = relay.IRModule()
    t = relay.TensorType((4,))
    twice = relay.GlobalVar("twice")
    f, x = relay.var("f", relay.FuncType([t], t)), relay.var("x", t)
    mod[twice] = relay.Function([f, x], f(f(x)))
    y, k, z = relay.var("y", t), relay.var("k", shape=()), relay.var("z", t)
    mod["main"] = relay.Function([y, k], twice(relay.Function([z], relay.tanh(z * k) + z), y))
    yv, kv = _vals(1, (4,), seed=2)[0], np.array(1.75, "float32")
    once = np.tanh(yv * kv) + yv
    want = (np.tanh(once * kv) + once).astype("float32")
    ref, gpu = _run_both(mod, yv, kv)
    _check(ref, want)
    _check(gpu, want)


def test_recursive_global_function():
    # non-tail recursion on tensors: f(n, x) = x if n == 0 else x + 0.5 * tanh(f(n - 1, x))
    # (the recursive call is under an op: a frame-stack dispatcher, not a loop)
    mod = relay.IRModule()
    f = relay.GlobalVar("f")
    n, x = relay.var("n", shape=(), dtype="int32"), relay.var("x", shape=(2, 3))
    rec = f(n - relay.const(1), x)
    mod[f] = relay.Function([n, x], relay.If(relay.equal(n, relay.const(0)), x,
                                             x + relay.const(0.5) * relay.tanh(rec)))
    k, v = relay.var("k", shape=(), dtype="int32"), relay.var("v", shape=(2, 3))
    mod["main"] = relay.Function([k, v], f(k, v))
    xv = _vals(1, (2, 3), seed=3)[0]
    ref_run, gpu_run = _executors(mod)
    for depth in (0, 1, 7, 40):
        want = xv.copy()
        for _ in range(depth):
            want = (xv + np.float32(0.5) * np.tanh(want)).astype("float32")
        _check(ref_run(np.array(depth, "int32"), xv), want)
        _check(gpu_run(np.array(depth, "int32"), xv), want)
