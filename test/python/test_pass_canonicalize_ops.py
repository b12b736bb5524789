"""relay.transform.CanonicalizeOps (relay-canonicalize-ops; docs/passes.md).

Programs built with the TVM-style API; each test checks the operators left in ``mod["main"]``,
the ``expand_dims`` made for the bias, and that the reference interpreter gives the same
outputs before and after. ``TVM`` holds what TVM 0.19's CanonicalizeOps leaves for the same
programs (relay.analysis.post_order_visit over main, counting Op calls; (axis, num_newaxis) of
each expand_dims), measured in the side venv.
"""
from __future__ import annotations

import numpy as np
import pytest

import relay_mlir as relay
from relay_mlir.expr import Call
from relay_mlir.expr_functor import ExprVisitor

from pass_checks import function_pass_counts, mod_of as _mod, node_counts, outputs as _outputs


def _programs():
    x4, b3 = relay.var("x", shape=(1, 3, 4, 5)), relay.var("b", shape=(3,))
    return {
        "nchw": relay.nn.bias_add(x4, b3),
        "nhwc": relay.nn.bias_add(relay.var("x", shape=(1, 4, 5, 3)), b3, axis=3),
        "neg_axis": relay.nn.bias_add(relay.var("x", shape=(1, 4, 5, 3)), b3, axis=-1),
        "neg_axis_mid": relay.nn.bias_add(x4, b3, axis=-3),
        "dense": relay.nn.bias_add(relay.var("x", shape=(2, 3)), b3),
        "axis0": relay.nn.bias_add(relay.var("x", shape=(3, 4, 5)), b3, axis=0),
        "int32": relay.nn.bias_add(relay.var("x", shape=(1, 3, 4), dtype="int32"),
                                   relay.var("b", shape=(3,), dtype="int32")),
        "rank1": relay.nn.bias_add(relay.var("x", shape=(3,)), b3, axis=0),
        "dyn_batch": relay.nn.bias_add(relay.var("x", shape=(relay.Any(), 3, 4)), b3),
        "conv_chain": relay.nn.relu(relay.nn.bias_add(relay.nn.conv2d(x4, relay.var("w", shape=(3, 3, 1, 1))), b3)),
        "const_bias": relay.nn.bias_add(x4, relay.const(np.array([1.0, 2.0, 3.0], "float32"))),
        "two": relay.nn.bias_add(relay.nn.bias_add(x4, b3), b3, axis=-3),
    }


TVM = {
    "nchw": ({"add": 1, "expand_dims": 1}, [(1, 2)]),
    "nhwc": ({"add": 1}, []),
    "neg_axis": ({"add": 1}, []),
    "neg_axis_mid": ({"add": 1, "expand_dims": 1}, [(1, 2)]),
    "dense": ({"add": 1}, []),
    "axis0": ({"add": 1, "expand_dims": 1}, [(1, 2)]),
    "int32": ({"add": 1, "expand_dims": 1}, [(1, 1)]),
    "rank1": ({"add": 1}, []),
    "dyn_batch": ({"add": 1, "expand_dims": 1}, [(1, 1)]),
    "conv_chain": ({"add": 1, "expand_dims": 1, "nn.conv2d": 1, "nn.relu": 1}, [(1, 2)]),
    "const_bias": ({"add": 1, "expand_dims": 1}, [(1, 2)]),
    "two": ({"add": 2, "expand_dims": 2}, [(1, 2), (1, 2)]),
}


class _ExpandDims(ExprVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.found = []

    def visit_call(self, call: Call) -> None:
        super().visit_call(call)
        if getattr(call.op, "name", "") == "expand_dims":
            self.found.append((int(call.attrs["axis"]), int(call.attrs.get("num_newaxis", 1))))


def _expand_dims(mod):
    v = _ExpandDims()
    v.visit(mod["main"])
    return v.found


def _args(mod, rng, batch=2):
    args = []
    for p in mod["main"].params:
        t = p.type_annotation
        shape = [batch if not isinstance(d, int) and not str(d).isdigit() else int(d) for d in t.shape]
        a = rng.integers(-100, 100, shape) if t.dtype.startswith("int") else rng.standard_normal(shape)
        args.append(a.astype(t.dtype))
    return args


@pytest.mark.parametrize("name", sorted(TVM))
def test_canonicalized_as_tvm(name):
    mod = _mod(_programs()[name])
    out = relay.transform.CanonicalizeOps()(mod)
    counts, expands = TVM[name]
    assert node_counts(out) == counts
    assert sorted(_expand_dims(out)) == sorted(expands)
    assert out["main"].body.checked_type == mod["main"].body.checked_type
    args = _args(mod, np.random.default_rng(0))
    for before, after in zip(_outputs(mod, args), _outputs(out, args)):
        assert after.shape == before.shape and after.dtype == before.dtype
        np.testing.assert_array_equal(after, before)


def test_dynamic_size_along_the_axis_stays():
    # A ? channel dim against a static bias: here the add's type would be (2, 3, 4), not the
    # bias_add's (2, ?, 4), so the bias_add stays. TVM 0.19 rewrites it (its InferType gives
    # the parameter b the type (?) and the add (2, ?, 4)).
    x, b = relay.var("x", shape=(2, relay.Any(), 4)), relay.var("b", shape=(3,))
    mod = _mod(relay.nn.bias_add(x, b))
    out = relay.transform.CanonicalizeOps()(mod)
    assert node_counts(out) == {"nn.bias_add": 1}
    args = [np.ones((2, 3, 4), "float32"), np.arange(3, dtype="float32")]
    np.testing.assert_array_equal(_outputs(out, args)[0], _outputs(mod, args)[0])


def test_pass_info_and_opt_level():
    p = relay.transform.CanonicalizeOps()
    # TVM 0.19: FunctionPass "CanonicalizeOps", opt level 3, requires InferType; a Sequential at
    # opt level 2 leaves the bias_add.
    skipped, run = function_pass_counts(p, _mod(_programs()["nchw"]), "CanonicalizeOps", 3)
    assert (skipped, run) == ({"nn.bias_add": 1}, {"add": 1, "expand_dims": 1})
