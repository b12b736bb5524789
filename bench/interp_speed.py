#!/usr/bin/env python3
"""Speed of the debug interpreter (``relay_mlir.interpreter``) on deep programs.

CPU seconds (``time.process_time``; the machine is shared, so wall time
varies with load) for:

* a tail-recursive loop of 10^6 iterations (a local ``let``-bound fn);
* a non-tail recursion of depth 10^5 (``down(k) = k + down(k - 1)``);
* building a 10^5-element List, then Prelude ``map`` and ``foldl`` over it;
* a small tensor program (conv2d + relu + dense on 1x8x32x32), where numpy
  kernels dominate.

    PYTHONPATH=build/dev-py/python_packages python bench/interp_speed.py
"""
from __future__ import annotations

import time

import numpy as np

import relay_mlir as relay
from relay_mlir.interpreter import Interpreter
from relay_mlir.prelude import Prelude


def i32(v):
    return relay.const(v, "int32")


def iv(name):
    return relay.var(name, shape=(), dtype="int32")


def timed(name, interp, fn, units):
    s0 = interp.steps
    t0 = time.process_time()
    w0 = time.perf_counter()
    out = fn()
    cpu = time.process_time() - t0
    wall = time.perf_counter() - w0
    steps = interp.steps - s0
    print(f"{name:40s} {cpu:7.2f} s CPU ({wall:6.2f} s wall)  {units[0] / cpu:12,.0f} {units[1]}/s  "
          f"{steps / cpu:12,.0f} machine steps/s")
    return out


def main() -> None:
    n = 1_000_000
    i, acc, loop = iv("i"), iv("acc"), relay.var("loop")
    prog = relay.Let(loop, relay.Function([i, acc], relay.If(relay.equal(i, i32(n)), acc,
                                                             loop(i + i32(1), acc + i32(3)))),
                     loop(i32(0), i32(0)))
    it = Interpreter(relay.IRModule())
    assert int(timed("tail loop, 1e6 iterations", it, lambda: it.evaluate(prog), (n, "iterations"))) == 3 * n

    d = 100_000
    mod = relay.IRModule()
    down, k = relay.GlobalVar("down"), iv("k")
    mod[down] = relay.Function([k], relay.If(relay.equal(k, i32(0)), i32(0), k + down(k - i32(1))))
    it = Interpreter(mod)
    timed("non-tail recursion, depth 1e5", it, lambda: it.evaluate(down(i32(d))), (d, "calls"))

    mod = relay.IRModule()
    p = Prelude(mod)
    j, lst, loop2 = iv("j"), relay.var("lst"), relay.var("loop")
    build = relay.Let(loop2, relay.Function([j, lst], relay.If(relay.equal(j, i32(0)), lst,
                                                                 loop2(j - i32(1), p.cons(j, lst)))),
                      loop2(i32(d), p.nil()))
    x, a, b, xs = iv("x"), iv("a"), iv("b"), relay.var("xs")
    prog = relay.Let(xs, build, p.foldl(relay.Function([a, b], a + b), i32(0),
                                        p.map(relay.Function([x], x * i32(2)), xs)))
    it = Interpreter(mod)
    got = timed("List of 1e5: build, map, foldl", it, lambda: it.evaluate(prog), (3 * d, "list steps"))
    assert int(got) == (d * (d + 1) + 2**31) % 2**32 - 2**31  # int32 wraps

    data = relay.var("data", shape=(1, 8, 32, 32))
    w = relay.const(np.random.default_rng(0).uniform(-1, 1, (16, 8, 3, 3)).astype("float32"))
    dw = relay.const(np.random.default_rng(1).uniform(-1, 1, (10, 16 * 32 * 32)).astype("float32"))
    net = relay.nn.dense(relay.nn.batch_flatten(relay.nn.relu(relay.nn.conv2d(data, w, padding=(1, 1)))), dw)
    it = Interpreter(relay.IRModule())
    f = it.evaluate(relay.Function([data], net))
    x0 = np.random.default_rng(2).uniform(-1, 1, (1, 8, 32, 32)).astype("float32")
    timed("conv2d+relu+dense 1x8x32x32 (x10)", it, lambda: [it.apply(f, [x0]) for _ in range(10)], (10, "runs"))


if __name__ == "__main__":
    main()
