"""relay.transform.gradient of higher-order programs (docs/autodiff.md, "Closures").

Closures passed as values to recursive functions (the Prelude's map and
foldl) are specialised on; recursive local closures are lifted into module
functions; both are then differentiated by pullbacks. References: float64
central differences (rtol 1e-6); each program runs in the reference
interpreter and compiled for llvm-cpu.
"""
from __future__ import annotations

import numpy as np

import relay_mlir as relay
from conftest import gradient_runners
from relay_mlir.prelude import Prelude

F64 = relay.TensorType((3,), "float64")
X = np.array([0.5, -1.0, 1.2])
W = np.array([0.3, 0.7, -0.4])




def _check(interp, compiled, loss):
    """Both runners' value and gradients (w.r.t. x and w) against ``loss`` and its central
    differences."""
    for run in (interp, compiled):
        value, (dx, dw) = run(X, W)
        np.testing.assert_allclose(value, loss(X, W), rtol=1e-10)
        np.testing.assert_allclose(dx, _central(loss, 0), rtol=1e-6)
        np.testing.assert_allclose(dw, _central(loss, 1), rtol=1e-6)


def _central(loss, k):
    out = np.zeros(3)
    for i in range(3):
        plus, minus = [X.copy(), W.copy()], [X.copy(), W.copy()]
        plus[k][i] += 1e-6
        minus[k][i] -= 1e-6
        out[i] = (loss(*plus) - loss(*minus)) / 2e-6
    return out


def test_prelude_map_and_foldl_with_closures():
    """Closures passed as values: foldl(fn(a, h) => a + tanh(h * w), 0, map(fn(h) => h * h, [x, x*x, sin x])),
    the first closure capturing the parameter w. The recursive @map/@foldl are specialised on
    their function argument, then differentiated by pullbacks; vs float64 central differences."""
    mod = relay.IRModule()
    p = Prelude(mod)
    cons, nil = p.mod.get_type("List")[1:3]
    x, w = relay.var("x", F64), relay.var("w", F64)
    a, h = relay.var("a", F64), relay.var("h", F64)
    step = relay.Function([a, h], a + relay.tanh(h * w))
    total = p.foldl(step, relay.zeros((3,), "float64"),
                    p.map(relay.Function([h], h * h), cons(x, cons(x * x, cons(relay.sin(x), nil())))))
    g = relay.transform.gradient(relay.Function([x, w], relay.sum(total)), mod=mod)
    assert any("$spec" in gv.name_hint for gv in mod.get_global_vars())
    interp, compiled = gradient_runners(mod, g)

    def loss(xv, wv):
        return np.sum(sum(np.tanh(i * i * wv) for i in (xv, xv * xv, np.sin(xv))))

    _check(interp, compiled, loss)


def test_recursive_local_closure():
    """let loop = fn(h, n) { if n == 0 { h } else { loop(tanh(h * w + x), n - 1) } } in loop(x, 3):
    a recursive closure capturing both parameters (TVM's gradient cannot type-check a let-bound
    closure's gradient); lifted to a module function, then pullbacks."""
    i32 = relay.TensorType((), "int32")
    x, w = relay.var("x", F64), relay.var("w", F64)
    loop = relay.var("loop", relay.FuncType([F64, i32], F64))
    h, n = relay.var("h", F64), relay.var("n", i32)
    body = relay.If(relay.equal(n, relay.const(0, "int32")), h,
                    relay.Call(loop, [relay.tanh(h * w + x), n - relay.const(1, "int32")]))
    f = relay.Function([x, w], relay.sum(relay.Let(loop, relay.Function([h, n], body, F64),
                                                   relay.Call(loop, [x, relay.const(3, "int32")]))))
    mod = relay.IRModule()
    interp, compiled = gradient_runners(mod, relay.transform.gradient(f, mod=mod))

    def loss(xv, wv):
        hv = xv
        for _ in range(3):
            hv = np.tanh(hv * wv + xv)
        return hv.sum()

    _check(interp, compiled, loss)


def test_local_references():
    """let r = ref(x); r := tanh(!r * w); r := !r + x * !r; sum(!r): a reference used as a local
    mutable variable is promoted to values before the sweep (one escaping into a closure or a
    region is still a located error)."""
    x, w = relay.var("x", F64), relay.var("w", F64)
    r, u1, u2 = relay.var("r"), relay.var("u1"), relay.var("u2")
    body = relay.Let(r, relay.RefCreate(x),
                     relay.Let(u1, relay.RefWrite(r, relay.tanh(relay.RefRead(r) * w)),
                               relay.Let(u2, relay.RefWrite(r, relay.RefRead(r) + x * relay.RefRead(r)),
                                         relay.sum(relay.RefRead(r)))))
    mod = relay.IRModule()
    interp, compiled = gradient_runners(mod, relay.transform.gradient(relay.Function([x, w], body), mod=mod))

    def loss(xv, wv):
        v = np.tanh(xv * wv)
        return np.sum(v + xv * v)

    _check(interp, compiled, loss)
