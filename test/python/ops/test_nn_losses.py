"""Numerics of TVM 0.19's nn.dilate, nn.cross_entropy, nn.cross_entropy_with_logits and
nn.nll_loss on llvm-cpu.

One module compiled once (the _nn_common harness); references from _tvm019_refs.py (explicit
loops, float64 sums), ``*_tvm019`` cases against outputs recorded from TVM 0.19 (its VM on
llvm). Tolerances: dilate exact; losses (float32 sums and logs) rtol 1e-5 / atol 1e-6.
Cases whose name ends in ``[?]`` have a ``?`` dim and run at two sizes.
"""
from __future__ import annotations

import numpy as np
import pytest

import relay_mlir as relay
import _tvm019_refs as ref
from _nn_common import EXACT, Any, Cases, check_case, compile_cases, make_case, make_rand, v

rand = make_rand(272)
LOSS = dict(rtol=1e-5, atol=1e-6)

CASES: Cases = {}
case = make_case(CASES)


def K(a, dtype):
    return relay.const(np.array(a, dtype=dtype))


# -- nn.dilate --------------------------------------------------------------------------------------
x = v("x", (2, 3, 4))
case("dilate", [x], relay.nn.dilate(x, (1, 2, 3), 0.5), [[rand(2, 3, 4)]], lambda x: ref.dilate(x, (1, 2, 3), 0.5), EXACT)
x = v("x", (Any(), 3), "int32")
case("dilate_int[?]", [x], relay.nn.dilate(x, (3, 2), 7), [[rand(2, 3, lo=-9, hi=9, dtype="int32")],
                                                            [rand(1, 3, lo=-9, hi=9, dtype="int32")]],
     lambda x: ref.dilate(x, (3, 2), 7), EXACT)
x = v("x", (2, 2))
case("dilate_tvm019", [x], relay.nn.dilate(x, (2, 3), 0.5), [[np.array([[1, 2], [3, 4]], "float32")]],
     lambda x: np.array([[1, .5, .5, 2], [.5, .5, .5, .5], [3, .5, .5, 4]], "float32"), EXACT)

# -- cross entropies ----------------------------------------------------------------------------------
p, t = v("p", (4, 3)), v("t", (4, 3))
case("cross_entropy", [p, t], relay.nn.cross_entropy(p, t), [[rand(4, 3, lo=0.1, hi=1.0), rand(4, 3, lo=0, hi=1)]],
     ref.cross_entropy, LOSS)
p, t = v("p", (Any(), 5)), v("t", (Any(), 5))
case("cross_entropy_with_logits[?]", [p, t], relay.nn.cross_entropy_with_logits(p, t),
     [[rand(3, 5), rand(3, 5)], [rand(1, 5), rand(1, 5)]], ref.cross_entropy_with_logits, LOSS)
p, t = v("p", (2, 3)), v("t", (2, 3))
_p = np.array([[0.2, 0.5, 0.3], [0.1, 0.1, 0.8]], "float32")
_t = np.array([[0, 1, 0], [0, 0, 1]], "float32")
case("cross_entropy_tvm019", [p, t], relay.Tuple([relay.nn.cross_entropy(p, t), relay.nn.cross_entropy_with_logits(p, t)]),
     [[_p, _t]], lambda p, t: (np.array(0.4581453502178192, "float32"), np.array(-0.6499999761581421, "float32")), LOSS)

# -- nll_loss -------------------------------------------------------------------------------------------
pr, tg, w = v("pr", (2, 4, 3, 2)), v("tg", (2, 3, 2), "int64"), v("w", (4,))
_tg = rand(2, 3, 2, lo=0, hi=3, dtype="int64")
for red in ("mean", "sum", "none"):
    case(f"nll_loss_4d_{red}", [pr, tg, w], relay.nn.nll_loss(pr, tg, w, red, ignore_index=1),
         [[rand(2, 4, 3, 2), _tg, rand(4, lo=0.1, hi=2.0)]], lambda pr, tg, w, r=red: ref.nll_loss(pr, tg, w, r, 1), LOSS)
pr, tg, w = v("pr", (Any(), 5)), v("tg", (Any(),), "int32"), v("w", (5,))
case("nll_loss_2d_mean[?]", [pr, tg, w], relay.nn.nll_loss(pr, tg, w),
     [[rand(3, 5), np.array([4, 0, 2], "int32"), rand(5, lo=0.1, hi=2.0)],
      [rand(1, 5), np.array([3], "int32"), rand(5, lo=0.1, hi=2.0)]], ref.nll_loss, LOSS)
pr = v("pr", (3, 3))
_lp = np.log(np.array([[0.2, 0.5, 0.3], [0.1, 0.1, 0.8], [0.6, 0.3, 0.1]], "float32"))
case("nll_loss_tvm019", [pr], relay.Tuple([relay.nn.nll_loss(pr, K([1, 2, 0], "int32"), K([1.0, 2.0, 0.5], "float32"),
                                                              red, 0) for red in ("mean", "sum", "none")]),
     [[_lp]], lambda pr: (np.array(0.5991464853286743, "float32"), np.array(1.497866153717041, "float32"),
                          np.array([1.3862943649291992, 0.1115717664361, 0.0], "float32")), LOSS)


@pytest.fixture(scope="module")
def compiled():
    return compile_cases(CASES)


@pytest.mark.parametrize("name", list(CASES))
def test_nn_losses(compiled, name):
    check_case(compiled, CASES, name)


@pytest.mark.parametrize("op", [relay.nn.cross_entropy, relay.nn.cross_entropy_with_logits])
def test_cross_entropy_gradient_matches_tvm_rule(op):
    """TVM 0.19 registers gradients for the cross entropies: dx = -g y / x / batch (logits:
    -g y / batch), dy = -g log(x) / batch (logits: -g x / batch); checked on a `?` batch."""
    p, t = relay.var("p", shape=(Any(), 3)), relay.var("t", shape=(Any(), 3))
    mod = relay.IRModule.from_expr(relay.transform.gradient(relay.Function([p, t], op(p, t))))
    pv, tv = rand(4, 3, lo=0.2, hi=1.0), rand(4, 3, lo=0, hi=1)
    _, (dp, dt) = relay.create_executor("debug", mod=mod).evaluate()(pv, tv)
    logits = op is relay.nn.cross_entropy_with_logits
    np.testing.assert_allclose(np.asarray(dp), -tv / 4 if logits else -tv / pv / 4, rtol=1e-5)
    np.testing.assert_allclose(np.asarray(dt), -pv / 4 if logits else -np.log(pv) / 4, rtol=1e-5)
