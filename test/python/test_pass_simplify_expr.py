"""relay.transform.SimplifyExpr (relay-simplify-expr; docs/passes.md).

One program per sub-rewrite, built with the TVM-style API; each test checks the operators left
in ``mod["main"]`` and that the reference interpreter gives the same outputs before and after.
``TVM`` holds the operator counts TVM 0.19's SimplifyExpr leaves for the same programs
(relay.analysis.post_order_visit over main, counting Op calls, in the side venv).
"""
from __future__ import annotations

import numpy as np
import pytest

import relay_mlir as relay
from relay_mlir.transform import PassContext, Sequential

from pass_checks import mod_of as _mod, node_counts, outputs as _outputs


def _programs():
    x = relay.var("x", shape=(2, 3))
    y = relay.var("y", shape=(2, 3))
    t = relay.var("t", shape=(2, 3, 4))
    i8 = relay.var("i8", shape=(2, 3), dtype="int8")
    return {
        "reshapes": relay.reshape(relay.reshape(x, (3, 2)), (6,)),
        "transposes_cancel": relay.transpose(relay.transpose(x, (1, 0)), (1, 0)),
        "transposes_3d": relay.transpose(relay.transpose(t, (1, 2, 0)), (0, 2, 1)),
        "noop_transpose": relay.transpose(t, (0, 1, 2)) + relay.const(1.0),
        "same_cast": relay.cast(x, "float32") + relay.cast_like(y, x),
        "widening_casts": relay.cast(relay.cast(i8, "int32"), "float32"),
        "narrowing_casts": relay.cast(relay.cast(x, "float16"), "float32"),
        "add_zeros_like": x + relay.zeros_like(x),
        "mul_ones": relay.ones((2, 3), "float32") * x,
        "add_scalar_zero": x + relay.const(0.0),
        "sub_div_identity": (x - relay.const(0.0)) / relay.const(1.0),
        "broadcast_not_identity": relay.var("s", shape=(3,)) + relay.zeros((2, 3), "float32"),
        "rsqrt": x / relay.sqrt(y),
        "add_self": x + x,
        "zeros_like": relay.Tuple([relay.zeros_like(x), relay.ones_like(y)]),
        "cast_like": relay.cast_like(x, i8),
        "mul_zeros": x * relay.zeros((2, 3), "float32"),
        "max_ones": relay.maximum(x, relay.ones((2, 3), "float32")),
    }


TVM = {
    "reshapes": {"reshape": 1},
    "transposes_cancel": {},
    "transposes_3d": {"transpose": 1},
    "noop_transpose": {"add": 1},
    "same_cast": {"add": 1},
    "widening_casts": {"cast": 1},
    "narrowing_casts": {"cast": 2},
    "add_zeros_like": {},
    "mul_ones": {},
    "add_scalar_zero": {},
    "sub_div_identity": {},
    "broadcast_not_identity": {"add": 1, "zeros": 1},
    "rsqrt": {"multiply": 1, "rsqrt": 1},
    "add_self": {"multiply": 1},
    "zeros_like": {"ones": 1, "zeros": 1},
    "cast_like": {"cast": 1},
    "mul_zeros": {"multiply": 1},
    "max_ones": {"maximum": 1},
}


@pytest.mark.parametrize("name", sorted(TVM))
def test_simplified_as_tvm(name):
    mod = _mod(_programs()[name])
    out = relay.transform.SimplifyExpr()(mod)
    assert node_counts(out) == TVM[name]
    rng = np.random.default_rng(0)
    args = []
    for p in mod["main"].params:
        t = p.type_annotation
        shape = [int(d) for d in t.shape]
        a = rng.integers(-100, 100, shape) if t.dtype == "int8" else np.abs(rng.standard_normal(shape)) + 0.1
        args.append(a.astype(t.dtype))
    for before, after in zip(_outputs(mod, args), _outputs(out, args)):
        assert after.shape == before.shape and after.dtype == before.dtype
        np.testing.assert_allclose(after, before, rtol=1e-6)


def test_composed_transpose_axes():
    # transpose(transpose(t, (1, 2, 0)), (0, 2, 1)) is transpose(t, (1, 0, 2)) (TVM 0.19: the same)
    t = relay.var("t", shape=(2, 3, 4))
    out = relay.transform.SimplifyExpr()(_mod(relay.transpose(relay.transpose(t, (1, 2, 0)), (0, 2, 1))))
    assert [int(a) for a in out["main"].body.attrs["axes"]] == [1, 0, 2]


def test_pass_info():
    p = relay.transform.SimplifyExpr()
    # TVM 0.19: FunctionPass "SimplifyExpr", opt level 0, requires InferType.
    assert isinstance(p, relay.transform.FunctionPass)
    assert (p.info.name, p.info.opt_level, p.info.required) == ("SimplifyExpr", 0, ("InferType",))
    mod = _mod(_programs()["add_self"])
    with PassContext(opt_level=0):
        assert node_counts(Sequential([p])(mod)) == {"multiply": 1}
