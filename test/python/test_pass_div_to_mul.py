"""relay.transform.DivToMul (relay-div-to-mul; docs/passes.md).

Programs built with the TVM-style API; each test checks the operators left in ``mod["main"]``,
the reciprocal constant, and the reference interpreter's outputs before and after (x * (1/c)
may differ from x / c in the last bit: rtol 1e-6 in float32). Facts marked "TVM 0.19" were
observed by running TVM 0.19's DivToMul on the same programs in the side venv.
"""
from __future__ import annotations

import numpy as np
import pytest

import relay_mlir as relay
from relay_mlir.expr import Constant
from relay_mlir.transform import PassContext, Sequential

from pass_checks import mod_of as _mod, node_counts

x = relay.var("x", shape=(2, 3))
XS = np.arange(6, dtype="float32").reshape(2, 3) + 1


def run(mod, *args):
    return np.asarray(relay.create_executor("debug", mod=mod).evaluate()(*args))


def test_scalar_divisor():
    # TVM 0.19: multiply(%x, 0.25f), outputs [[0.25, 0.5, 0.75], [1, 1.25, 1.5]].
    mod = _mod(x / relay.const(4.0))
    out = relay.transform.DivToMul()(mod)
    assert node_counts(out) == {"multiply": 1}
    body = out["main"].body
    assert body.args[0] is out["main"].params[0] and float(body.args[1].data) == 0.25
    np.testing.assert_array_equal(run(out, XS), [[0.25, 0.5, 0.75], [1.0, 1.25, 1.5]])
    np.testing.assert_array_equal(run(out, XS), run(mod, XS))


def test_vector_divisor_every_element_inverted():
    # TVM 0.19 is wrong here: its reciprocal is [0.5, 0, 0] (only element 0 is computed; the
    # others are whatever the new buffer held), so x / [2, 4, 8] gives [[0.5, 0, 0], [2, 0, 0]].
    # relay-mlir inverts every element: the result equals the division.
    tvm_wrong = [[0.5, 0.0, 0.0], [2.0, 0.0, 0.0]]
    mod = _mod(x / relay.const(np.array([2.0, 4.0, 8.0], "float32")))
    out = relay.transform.DivToMul()(mod)
    assert node_counts(out) == {"multiply": 1}
    np.testing.assert_array_equal(out["main"].body.args[1].data, [0.5, 0.25, 0.125])
    np.testing.assert_array_equal(run(out, XS), XS / np.array([2, 4, 8], "float32"))
    np.testing.assert_array_equal(run(out, XS), run(mod, XS))
    assert not np.array_equal(run(out, XS), tvm_wrong)


@pytest.mark.parametrize("dtype,recip,rtol", [("float16", 0.333251953125, 1e-3), ("float64", 1 / 3, 1e-15)])
def test_other_float_widths(dtype, recip, rtol):
    # TVM 0.19: float16 3 -> 0.333251953125 (float16), float64 3 -> 0.3333333333333333.
    v = relay.var("v", shape=(2, 3), dtype=dtype)
    mod = _mod(v / relay.const(3.0, dtype))
    out = relay.transform.DivToMul()(mod)
    assert node_counts(out) == {"multiply": 1}
    c = out["main"].body.args[1].data
    assert c.dtype == dtype and float(c) == recip
    a = XS.astype(dtype)
    np.testing.assert_allclose(run(out, a), run(mod, a), rtol=rtol)


def test_random_divisors_match_division():
    rng = np.random.default_rng(0)
    c = (rng.random((2, 3)) + 0.1).astype("float32") * rng.choice([-1, 1], (2, 3)).astype("float32")
    mod = _mod(x / relay.const(c))
    out = relay.transform.DivToMul()(mod)
    assert node_counts(out) == {"multiply": 1}
    a = rng.standard_normal((2, 3)).astype("float32")
    np.testing.assert_allclose(run(out, a), run(mod, a), rtol=1e-6)


def test_left_alone():
    # TVM 0.19 leaves each of these a divide (a zero scalar, an integer divisor, a constant
    # dividend, a variable divisor, an unfolded constant expression); floor_divide is not divide.
    # TVM rewrites [2, 0, 8] (it looks at element 0 only) into garbage; relay-mlir keeps it.
    xi = relay.var("xi", shape=(2, 3), dtype="int32")
    cases = {
        "zero": x / relay.const(0.0),
        "zero_inside": x / relay.const(np.array([2.0, 0.0, 8.0], "float32")),
        "int": xi / relay.const(2, "int32"),
        "const_dividend": relay.const(2.0) / x,
        "variable": x / x,
        "not_folded": x / (relay.const(2.0) + relay.const(2.0)),
        "floor_divide": relay.floor_divide(x, relay.const(2.0)),
    }
    for name, body in cases.items():
        mod = _mod(body)
        out = relay.transform.DivToMul()(mod)
        assert node_counts(out) == node_counts(relay.transform.InferType()(mod)), name


def test_sequential_runs_fold_constant_first():
    # PassInfo as TVM 0.19: FunctionPass "DivToMul", opt level 0, requires InferType and
    # FoldConstant. In a Sequential TVM 0.19 crashes (it calls FoldConstant's registration without
    # its argument); here FoldConstant runs (4 * 1 -> 4: relay-mlir's FoldConstant folds
    # identities and fills, not yet 2 + 2) and the constant divisor is then inverted.
    p = relay.transform.DivToMul()
    assert isinstance(p, relay.transform.FunctionPass)
    assert (p.info.name, p.info.opt_level, p.info.required) == ("DivToMul", 0, ("InferType", "FoldConstant"))
    mod = _mod(x / (relay.const(4.0) * relay.const(1.0)))
    assert node_counts(p(mod)) == {"divide": 1, "multiply": 1}       # called directly: no FoldConstant
    with PassContext(opt_level=0):
        out = Sequential([p])(mod)
    assert node_counts(out) == {"multiply": 1}
    assert isinstance(out["main"].body.args[1], Constant) and float(out["main"].body.args[1].data) == 0.25
    np.testing.assert_array_equal(run(out, XS), run(mod, XS))
    with PassContext(opt_level=3, disabled_pass=["DivToMul"]):
        assert "divide" in node_counts(Sequential([p])(mod))
