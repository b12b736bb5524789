"""relay.transform.SimplifyExprPostAlterOp (relay-simplify-expr-post-alter-op; docs/optimizer.md).

test_pass_simplify_expr_post_alter_op_tvm019.json holds modules TVM 0.19 printed (side venv,
scripts/tvm_simplify_expr_post_alter_op.py): each input, and its result after
``relay._transform.SimplifyExprPostAlterOp()``. Each input is read with ``relay.fromtext`` and
transformed by relay-mlir; the result has TVM's operators (``node_counts``) and computes what
the input computes (reference interpreter: integers exactly, floats to 1e-6). In four cases TVM
changes the result (its range checks compare the clip bounds with each dtype's range only, and
its IsWidenCast calls int8 -> uint8 and int32 -> float32 widening); there relay-mlir keeps the
operators, and the test shows inputs on which TVM's printed result differs from its input.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import relay_mlir as relay

from pass_checks import function_pass_counts, node_counts, outputs

HERE = Path(__file__).parent
CASES = json.loads((HERE / "test_pass_simplify_expr_post_alter_op_tvm019.json").read_text())["cases"]

# inputs on which TVM's result differs from its input (a fractional value, one beyond
# FLT_MAX, an odd integer above 2^24, a negative int8)
TVM_WRONG = {
    "tvm_wrong_clip_float_u8_f32": np.array([3.7, 0.5, 254.9, -2.0], "float32"),
    "tvm_wrong_clip_flt_max": np.array([np.inf, -np.inf, 1.0, 0.0], "float32"),
    "tvm_wrong_clip_int_f32_i32": np.array([16777217, 3, 19999999, 0], "int32"),
    "tvm_wrong_int8_uint8_int32": np.array([-1, -128, 5, 127], "int8"),
}


def _args(mod, rng):
    args = []
    for p in mod["main"].params:
        t = p.type_annotation
        shape = [int(d) for d in t.shape]
        if t.dtype.startswith(("int", "uint")):
            info = np.iinfo(t.dtype)
            args.append(rng.integers(max(info.min, -2000), min(info.max, 2000) + 1, shape).astype(t.dtype))
        else:  # fractional values in and beyond [0, 255]
            args.append((rng.standard_normal(shape) * 200 + 100).astype(t.dtype))
    return args


def _same(a, b):
    for x, y in zip(a, b):
        assert x.shape == y.shape and x.dtype == y.dtype
        if x.dtype.kind == "f":
            np.testing.assert_allclose(x, y, rtol=1e-6)
        else:
            np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize("name", sorted(n for n in CASES if n not in TVM_WRONG))
def test_as_tvm(name):
    mod = relay.fromtext(CASES[name]["input"])
    out = relay.transform.SimplifyExprPostAlterOp()(mod)
    assert node_counts(out) == node_counts(relay.fromtext(CASES[name]["output"]))
    args = _args(mod, np.random.default_rng(0))
    _same(outputs(out, args), outputs(mod, args))


@pytest.mark.parametrize("name", sorted(TVM_WRONG))
def test_kept_where_tvm_changes_the_result(name):
    mod = relay.fromtext(CASES[name]["input"])
    out = relay.transform.SimplifyExprPostAlterOp()(mod)
    assert node_counts(out) == node_counts(mod)
    args = [TVM_WRONG[name]]
    want = outputs(mod, args)
    _same(outputs(out, args), want)
    tvm = outputs(relay.fromtext(CASES[name]["output"]), args)
    assert not all(np.array_equal(a, b) for a, b in zip(tvm, want)), "TVM's result is right here"


def test_pass_info_and_opt_level():
    p = relay.transform.SimplifyExprPostAlterOp()
    # TVM 0.19: FunctionPass "SimplifyExprPostAlterOp", opt level 0, requires InferType
    mod = relay.fromtext(CASES["clip_int_u8_i32"]["input"])
    skipped, ran = function_pass_counts(p, mod, "SimplifyExprPostAlterOp", 0)
    assert skipped == {"cast": 2, "clip": 1} and ran == {"clip": 1}


def test_simplify_expr_has_the_clip_rewrites_too():
    # TVM 0.19's SimplifyExpr composes SimplifyClip and SimplifyClipAndConsecutiveCast as well
    mod = relay.fromtext(CASES["clip_float_u8_i32"]["input"])
    assert node_counts(relay.transform.SimplifyExpr()(mod)) == {"cast": 1, "clip": 1}
