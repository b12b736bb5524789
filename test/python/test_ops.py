"""Numerics of a few elementwise and reshape cases on llvm-cpu against numpy
(every op family's own cases are in test/python/ops/test_<family>.py).

Each case is compiled once (cached for the module) and compared with an
independent numpy computation (relay_mlir.testing.numpy_ref or plain numpy).
Tolerances (float32): elementwise rtol 1e-5 / atol 1e-6, transcendental
functions rtol 1e-5 / atol 1e-5, contractions rtol 1e-4 / atol 1e-5.
The elementwise, NN and Conv+Pool families also have one case with a `?` dim,
compiled once and run at two sizes.
"""
from __future__ import annotations

from typing import Callable, Dict, Tuple

import numpy as np
import pytest

import relay_mlir as relay
from relay_mlir.testing import numpy_ref as ref

EXACT = dict(rtol=1e-5, atol=1e-6)
TRANSC = dict(rtol=1e-5, atol=1e-5)
ACCUM = dict(rtol=1e-4, atol=1e-5)

R = np.random.default_rng(7)


def rand(*shape, lo=-2.0, hi=2.0, dtype="float32"):
    return R.uniform(lo, hi, size=shape).astype(dtype)


# name -> (build() -> (Function, [inputs]), reference(*inputs) -> array, tolerance)
CASES: Dict[str, Tuple[Callable, Callable, dict]] = {}


def unary_case(name, op, npf, lo=-2.0, hi=2.0, tol=EXACT):
    def build():
        x = relay.var("x", shape=(3, 5))
        return relay.Function([x], op(x)), [rand(3, 5, lo=lo, hi=hi)]
    CASES[name] = (build, npf, tol)


unary_case("negative", relay.negative, np.negative)
unary_case("exp", relay.exp, np.exp, tol=TRANSC)
unary_case("sqrt", relay.sqrt, np.sqrt, lo=0.0, hi=4.0, tol=TRANSC)
unary_case("tanh", relay.tanh, np.tanh, tol=TRANSC)
unary_case("nn.relu", relay.nn.relu, ref.relu)


def binary_case(name, op, npf, lo=-2.0, hi=2.0):
    def build():
        a, b = relay.var("a", shape=(4, 1)), relay.var("b", shape=(3,))
        return relay.Function([a, b], op(a, b)), [rand(4, 1), rand(3, lo=lo, hi=hi)]
    CASES[name] = (build, npf, EXACT)


binary_case("add", relay.add, np.add)


def case(name, tol=ACCUM):
    def deco(fn):
        CASES[name] = (fn, fn.ref, tol)
        return fn
    return deco


def with_ref(reference):
    def deco(fn):
        fn.ref = reference
        return fn
    return deco


@case("operators+-*/")
@with_ref(lambda a, b: (a + b) * a - b / (a * a + 1))
def _ops_overloads():
    a, b = relay.var("a", shape=(2, 3)), relay.var("b", shape=(2, 3))
    return relay.Function([a, b], (a + b) * a - b / (a * a + relay.const(1.0))), [rand(2, 3), rand(2, 3)]


@case("reshape(0,-1)", tol=EXACT)
@with_ref(lambda x: x.reshape(ref.reshape_shape(x.shape, (0, -1))))
def _reshape():
    x = relay.var("x", shape=(2, 3, 4))
    return relay.Function([x], relay.reshape(x, (0, -1))), [rand(2, 3, 4)]


@case("reshape(-3,-2)+reshape(-4)", tol=EXACT)
@with_ref(lambda x: x.reshape(6, 4).reshape(2, 3, 4))
def _reshape_codes():
    x = relay.var("x", shape=(2, 3, 4))
    y = relay.reshape(x, (-3, -2))
    return relay.Function([x], relay.reshape(y, (-4, 2, -1, -2))), [rand(2, 3, 4)]


_compiled: Dict[str, Tuple[relay.Executable, list]] = {}


def _get(name: str):
    if name not in _compiled:
        build, _, _ = CASES[name]
        fn, inputs = build()
        _compiled[name] = (relay.compile(relay.IRModule.from_expr(fn), target="llvm-cpu"), inputs)
    return _compiled[name]


@pytest.mark.parametrize("name", list(CASES))
def test_op_numerics(name):
    exe, inputs = _get(name)
    _, reference, tol = CASES[name]
    got = exe(*inputs)
    want = reference(*inputs)
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_allclose(got, want, **tol)


# ---------------------------------------------------------------------------
# `?` dims: one case per op family, compiled once, run at two sizes.
# ---------------------------------------------------------------------------
def _dyn_elementwise():
    x, y = relay.var("x", shape=(relay.Any(), 4)), relay.var("y", shape=(4,))
    f = relay.Function([x, y], relay.exp(x) * y + relay.nn.relu(x))
    sizes = [[rand(3, 4), rand(4)], [rand(7, 4), rand(4)]]
    return f, sizes, lambda x, y: np.exp(x) * y + np.maximum(x, 0), TRANSC


def _dyn_nn():
    x, w, b = relay.var("x", shape=(relay.Any(), 8)), relay.var("w", shape=(5, 8)), relay.var("b", shape=(5,))
    f = relay.Function([x, w, b], relay.nn.softmax(relay.nn.bias_add(relay.nn.dense(x, w), b, axis=-1)))
    w0, b0 = rand(5, 8), rand(5)
    return f, [[rand(1, 8), w0, b0], [rand(6, 8), w0, b0]], \
        lambda x, w, b: ref.softmax(ref.bias_add(ref.dense(x, w), b, axis=-1)), ACCUM


def _dyn_conv():
    x, w = relay.var("x", shape=(relay.Any(), 3, 6, 6)), relay.var("w", shape=(4, 3, 3, 3))
    y = relay.nn.max_pool2d(relay.nn.conv2d(x, w, padding=(1, 1)), pool_size=2, strides=2)
    f = relay.Function([x, w], relay.nn.batch_flatten(relay.nn.global_avg_pool2d(y)))
    w0 = rand(4, 3, 3, 3)
    return f, [[rand(1, 3, 6, 6), w0], [rand(3, 3, 6, 6), w0]], \
        lambda x, w: ref.batch_flatten(ref.global_avg_pool2d(
            ref.max_pool2d(ref.conv2d(x, w, padding=(1, 1)), (2, 2), (2, 2)))), ACCUM


DYN = {"elementwise": _dyn_elementwise, "nn": _dyn_nn, "nn.conv2d+pool": _dyn_conv}


@pytest.mark.parametrize("family", list(DYN))
def test_dynamic_dims(family):
    f, runs, reference, tol = DYN[family]()
    exe = relay.compile(relay.IRModule.from_expr(f), target="llvm-cpu")
    for inputs in runs:
        got = exe(*inputs)
        want = reference(*inputs)
        if isinstance(want, tuple):
            assert isinstance(got, tuple) and len(got) == len(want)
            for g, w in zip(got, want):
                np.testing.assert_allclose(g, w, **tol)
        else:
            assert got.shape == want.shape
            np.testing.assert_allclose(got, want, **tol)
