"""relay.transform.FastMath (relay-fast-math; docs/passes.md).

Checks the operators a user sees in ``mod["main"]`` after the pass (as TVM 0.19's FastMath
rewrites the same program, recorded below), that the interpreter's outputs do not change,
and the error of the fast operators compiled for llvm-cpu against float64 numpy over a wide
range, next to TVM 0.19's own fast operators measured in the side venv (recorded as data:
the test does not need TVM).
"""
from __future__ import annotations

import numpy as np
import pytest

import relay_mlir as relay

from pass_checks import function_pass_counts, mod_of, node_counts, outputs

x = relay.var("x", shape=(2, 3))
c = relay.var("c", shape=(), dtype="bool")


def _program():
    a = relay.var("a", shape=(2, 3))
    f = relay.Function([a], relay.erf(a))
    return mod_of(relay.Tuple([relay.nn.softmax(relay.exp(x)), relay.If(c, relay.tanh(x), relay.sigmoid(x)),
                               f(x), relay.log(x)]))


# TVM 0.19's FastMath on _program (side venv): fast_exp, fast_tanh in the if branch, fast_erf in
# the closure, nn.fast_softmax; sigmoid and log stay.
TVM_COUNTS = {"fast_erf": 1, "fast_exp": 1, "fast_tanh": 1, "log": 1, "nn.fast_softmax": 1, "sigmoid": 1}


def test_rewrites_as_tvm_except_softmax():
    mod = _program()
    before, after = function_pass_counts(relay.transform.FastMath(), mod, "FastMath", 4)
    assert before == {"erf": 1, "exp": 1, "log": 1, "nn.softmax": 1, "sigmoid": 1, "tanh": 1}
    # relay-mlir has no nn.fast_softmax operator: softmax stays (the one difference from TVM).
    expected = dict(TVM_COUNTS)
    del expected["nn.fast_softmax"]
    expected["nn.softmax"] = 1
    assert after == expected
    out = relay.transform.FastMath()(mod)
    assert node_counts(out) == expected
    assert str(out["main"].body.checked_type) == str(mod["main"].body.checked_type)


def test_interpreter_outputs_unchanged():
    mod = _program()
    out = relay.transform.FastMath()(mod)
    rng = np.random.default_rng(0)
    xs = rng.standard_normal((2, 3)).astype("float32")
    for flag in (True, False):
        for a, b in zip(outputs(mod, [xs, np.array(flag)]), outputs(out, [xs, np.array(flag)])):
            np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("dtype", ["float16", "float64"])
def test_other_float_types(dtype):
    v = relay.var("v", shape=(4,), dtype=dtype)
    mod = mod_of(relay.erf(relay.tanh(relay.exp(v))))
    out = relay.transform.FastMath()(mod)
    assert node_counts(out) == {"fast_erf": 1, "fast_exp": 1, "fast_tanh": 1}
    t = out["main"].body.checked_type
    assert (t.dtype, [int(d) for d in t.shape]) == (dtype, [4])


# Errors of the fast operators against float64 numpy (scipy's erf) on 200001 evenly spaced
# float32 points: exp on [-100, 100], tanh on [-20, 20], erf on [-10, 10]. "rel" is the largest
# |out - ref| / |ref| where ref is a normal float32 number (1.2e-38 .. 3.4e38).
#   relay-mlir llvm-cpu (measured here): exp 2.84e-7, tanh 2.57e-7, erf 2.38e-7; exp is 0 below
#     ln(1.18e-38) = -87.34 (subnormals flush) and inf only where float32 overflows (88.72).
#   TVM 0.19 llvm (side venv): fast_exp 4.07e-6 on (-87, 88), 0 from -87.683 down, inf from
#     88.376 up (exp is still finite up to 88.72); fast_tanh 3.13e-7 (|err| <= 3.13e-7);
#     fast_erf 4.19e-7 (|err| <= 4.19e-7).
TVM_REL = {"exp": 4.07e-6, "tanh": 3.13e-7, "erf": 4.19e-7}
BOUND_REL = {"exp": 4e-7, "tanh": 4e-7, "erf": 4e-7}
RANGES = {"exp": 100.0, "tanh": 20.0, "erf": 10.0}


def test_compiled_error_bounds_llvm_cpu():
    from scipy.special import erf as ref_erf

    refs = {"exp": np.exp, "tanh": np.tanh, "erf": ref_erf}
    names = list(RANGES)
    vs = [relay.var(n, shape=(200001,)) for n in names]
    mod = relay.transform.FastMath()(mod_of(relay.Tuple([getattr(relay, n)(v) for n, v in zip(names, vs)])))
    assert node_counts(mod) == {"fast_erf": 1, "fast_exp": 1, "fast_tanh": 1}
    xs = [np.linspace(-RANGES[n], RANGES[n], 200001, dtype="float32") for n in names]
    outs = relay.compile(mod, target="llvm-cpu")(*xs)
    for n, a, o in zip(names, xs, outs):
        o = np.asarray(o)
        ref = refs[n](a.astype("float64"))
        normal = (np.abs(ref) >= np.finfo("float32").tiny) & (np.abs(ref) <= np.finfo("float32").max)
        rel = np.abs(o[normal] - ref[normal]) / np.abs(ref[normal])
        assert rel.max() <= BOUND_REL[n] <= TVM_REL[n] * 1.3, (n, rel.max())
        assert np.all(np.isfinite(o) == (np.abs(ref) <= np.finfo("float32").max)), n
    e = np.asarray(outs[0])
    assert np.all(e[xs[0] < -87.4] == 0) and np.all(e[xs[0] > 88.8] == np.inf)
    assert np.all(np.isfinite(e[(xs[0] > 88.38) & (xs[0] < 88.72)]))   # TVM's fast_exp: inf there
