"""relay.transform.CanonicalizeCast (relay-canonicalize-cast; docs/passes.md).

Programs built with the TVM-style API; each test checks the operators left in ``mod["main"]``
and that the reference interpreter gives the same outputs before and after (exact: the copies
compute the same values). The counts in ``TVM`` were measured by running TVM 0.19's
CanonicalizeCast on the same programs (relay.analysis.post_order_visit over main, counting Op
calls).
"""
from __future__ import annotations

import numpy as np
import pytest

import relay_mlir as relay

from pass_checks import function_pass_counts, mod_of as _mod, node_counts, outputs as _outputs

x = relay.var("x", shape=(2, 3), dtype="int8")
y = relay.var("y", shape=(2, 3))
xf = relay.var("xf", shape=(2, 3))
xh = relay.var("xh", shape=(2, 3), dtype="float16")
w = relay.var("w", shape=(4, 3))
b = relay.var("b", shape=(), dtype="bool")
p = relay.var("p", shape=(2, 3))


def _programs():
    c = relay.cast(x, "float32")
    n = relay.cast(xf, "float16")
    s = relay.cast(xf, "int32")
    h = relay.cast(xh, "float32")
    return {
        "three_elemwise": relay.Tuple([c + y, c * y, relay.exp(c)]),
        "one_elemwise": relay.Tuple([c + y]),
        "add_self": c + c,
        "reshape_and_two": relay.Tuple([relay.reshape(c, (3, 2)), c + y, c - y]),
        "reshapes_only": relay.Tuple([relay.reshape(c, (3, 2)), relay.reshape(c, (6,))]),
        "returned_and_two": relay.Tuple([c, c + y, c - y]),
        "narrowing": relay.Tuple([relay.cast(n, "float32"), n + relay.const(1.0, "float16"),
                                  n * relay.const(2.0, "float16")]),
        "same_width": relay.Tuple([s + relay.const(1), s * relay.const(2)]),
        "cast_of_cast": relay.Tuple([relay.cast(h, "float64"), relay.cast(h, "int64")]),
        "dense_and_two": relay.Tuple([relay.nn.dense(c, w), c + y, c + y]),
        "clip_relu_where": relay.Tuple([relay.clip(c, 0, 1), relay.nn.relu(c),
                                        relay.where(relay.const(True), c, y)]),
        "branches": relay.If(b, c + y, c * y),
        "closure": relay.Tuple([relay.Call(relay.Function([p], c + p), [y]), c * y]),
    }


TVM = {
    "three_elemwise": {"add": 1, "cast": 3, "exp": 1, "multiply": 1},
    "one_elemwise": {"add": 1, "cast": 1},
    "add_self": {"add": 1, "cast": 2},
    "reshape_and_two": {"add": 1, "cast": 2, "reshape": 1, "subtract": 1},
    "reshapes_only": {"cast": 1, "reshape": 2},
    "returned_and_two": {"add": 1, "cast": 2, "subtract": 1},
    "narrowing": {"add": 1, "cast": 2, "multiply": 1},
    "same_width": {"add": 1, "cast": 1, "multiply": 1},
    "cast_of_cast": {"cast": 4},
    "dense_and_two": {"add": 2, "cast": 2, "nn.dense": 1},
    "clip_relu_where": {"cast": 3, "clip": 1, "nn.relu": 1, "where": 1},
    "branches": {"add": 1, "cast": 2, "multiply": 1},
    "closure": {"add": 1, "cast": 2, "multiply": 1},
}


def _args(mod, rng):
    out = []
    for param in mod["main"].params:
        t = param.type_annotation
        shape = [int(d) for d in t.shape]
        if t.dtype == "bool":
            out.append(np.array(True))
        elif t.dtype == "int8":
            out.append(rng.integers(-100, 100, shape).astype("int8"))
        else:
            out.append((rng.standard_normal(shape) * 3).astype(t.dtype))
    return out


@pytest.mark.parametrize("name", sorted(TVM))
def test_casts_as_tvm(name):
    mod = _mod(_programs()[name])
    out = relay.transform.CanonicalizeCast()(mod)
    assert node_counts(out) == TVM[name]
    args = _args(mod, np.random.default_rng(0))
    for flag in [True, False]:
        args = [np.array(flag) if a.dtype == bool else a for a in args]
        for before, after in zip(_outputs(mod, args), _outputs(out, args)):
            np.testing.assert_array_equal(after, before)


def test_first_consumer_keeps_the_shared_cast():
    # TVM 0.19: dense and the first add read one cast, the second add its own copy.
    c = relay.cast(x, "float32")
    out = relay.transform.CanonicalizeCast()(_mod(relay.Tuple([relay.nn.dense(c, w), c + y, c * y])))
    dense, add, mul = out["main"].body.fields
    assert dense.args[0] is add.args[0]
    assert mul.args[0] is not add.args[0] and mul.args[0].op.name == "cast"
    assert mul.args[0].args[0] is add.args[0].args[0]


def test_pass_info_and_opt_level():
    p_ = relay.transform.CanonicalizeCast()
    # TVM 0.19: FunctionPass "CanonicalizeCast", opt level 3, requires InferType.
    skipped, run = function_pass_counts(p_, _mod(_programs()["three_elemwise"]), "CanonicalizeCast", 3)
    assert (skipped["cast"], run["cast"]) == (1, 3)
