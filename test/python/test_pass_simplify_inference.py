"""relay.transform.SimplifyInference (relay-simplify-inference; docs/passes.md).

Each test builds a program with the TVM-style API, applies the pass, checks which operators
are left in ``mod["main"]`` and that the reference interpreter computes the same outputs before
and after (float32, rtol 1e-5 / atol 1e-5: the expansion reorders float operations). The
operator counts marked "TVM 0.19" were measured by running TVM 0.19's SimplifyInference on the
same program (relay.analysis.post_order_visit over main, counting Op calls).
"""
from __future__ import annotations

import numpy as np
import pytest

import relay_mlir as relay
from relay_mlir.transform import PassContext, Sequential

from pass_checks import node_counts as op_counts


def run(mod, *args):
    out = relay.create_executor("debug", mod=mod).evaluate()(*args)
    return [np.asarray(o) for o in out] if isinstance(out, (list, tuple)) else [np.asarray(out)]


def assert_same_outputs(before, after, args, rtol=1e-5, atol=1e-5):
    for a, b in zip(run(before, *args), run(after, *args)):
        np.testing.assert_allclose(b, a, rtol=rtol, atol=atol)


def _all_norms():
    x = relay.var("x", shape=(2, 4, 3, 3))
    g, b, m, v = [relay.var(n, shape=(4,)) for n in "gbmv"]
    bn = relay.nn.batch_norm(x, g, b, m, v, epsilon=1e-3)
    y = bn[0] + relay.nn.dropout(x, 0.3)
    ln = relay.nn.layer_norm(x, relay.var("lg", shape=(3,)), relay.var("lb", shape=(3,)), axis=-1)
    gn = relay.nn.group_norm(x, g, b, num_groups=2)
    inn = relay.nn.instance_norm(x, g, b)
    l2 = relay.nn.l2_normalize(x, 1e-6, axis=[1])
    l2n = relay.nn.l2_normalize(x, 1e-6)
    t = relay.Tuple([y, ln, gn, inn, l2, l2n])
    return relay.IRModule.from_expr(relay.Function(relay.analysis.free_vars(t), t))


def _args(rng, mod):
    out = []
    for p in mod["main"].params:
        shape = [int(d) for d in p.type_annotation.shape]
        a = rng.standard_normal(shape).astype("float32")
        out.append(np.abs(a) + 0.1 if p.name_hint == "v" else a)   # variances are positive
    return out


def test_every_normalisation_expanded_as_tvm():
    mod = relay.transform.InferType()(_all_norms())
    assert op_counts(mod) == {"add": 1, "nn.batch_norm": 1, "nn.dropout": 1, "nn.group_norm": 1,
                              "nn.instance_norm": 1, "nn.l2_normalize": 2, "nn.layer_norm": 1}
    out = relay.transform.SimplifyInference()(mod)
    # TVM 0.19 leaves exactly these operators for this program.
    assert op_counts(out) == {"add": 10, "divide": 6, "expand_dims": 6, "maximum": 2, "mean": 3,
                              "multiply": 8, "negative": 1, "reshape": 2, "sqrt": 6, "subtract": 3,
                              "sum": 2, "variance": 3}
    assert out["main"].body.checked_type == mod["main"].body.checked_type   # typed (a function pass)
    assert_same_outputs(mod, out, _args(np.random.default_rng(0), mod))


def test_batch_norm_statistics_keep_the_batch_norm():
    # Only field 0 is rewritten: field 2 still reads the batch_norm (TVM 0.19: the same counts).
    x = relay.var("x", shape=(5, 4))
    g, b, m, v = [relay.var(n, shape=(4,)) for n in "gbmv"]
    t = relay.nn.batch_norm(x, g, b, m, v, center=False, scale=False)
    mod = relay.IRModule.from_expr(relay.Function([x, g, b, m, v], relay.Tuple([t[0], t[2]])))
    out = relay.transform.SimplifyInference()(relay.transform.InferType()(mod))
    assert op_counts(out) == {"add": 2, "divide": 1, "multiply": 2, "negative": 1, "nn.batch_norm": 1,
                              "sqrt": 1}
    assert_same_outputs(mod, out, _args(np.random.default_rng(1), mod))


def test_batch_norm_matches_the_formula():
    # (x - mean) / sqrt(var + eps) * gamma + beta, per channel of NCHW data, by numpy.
    rng = np.random.default_rng(2)
    x = relay.var("x", shape=(1, 3, 4, 4))
    stats = [rng.random(3).astype("float32") + 0.5 for _ in range(4)]
    t = relay.nn.batch_norm(x, *[relay.const(s) for s in stats], epsilon=1e-2)
    mod = relay.IRModule.from_expr(relay.Function([x], t[0]))
    out = relay.transform.SimplifyInference()(mod)
    assert "nn.batch_norm" not in op_counts(out)
    xv = rng.standard_normal((1, 3, 4, 4)).astype("float32")
    g, b, m, v = (s.reshape(3, 1, 1) for s in stats)
    np.testing.assert_allclose(run(out, xv)[0], (xv - m) / np.sqrt(v + 1e-2) * g + b, rtol=1e-5, atol=1e-5)


def test_dropout_is_the_identity():
    x = relay.var("x", shape=(2, 3))
    mod = relay.IRModule.from_expr(relay.Function([x], relay.nn.relu(relay.nn.dropout(x, 0.5))))
    out = relay.transform.SimplifyInference()(mod)
    assert op_counts(out) == {"nn.relu": 1}
    assert out["main"].body.args[0] is out["main"].params[0]


def test_layer_norm_dynamic_rows_and_float16_l2_normalize():
    # A ? dim: the expansion types with it and runs at two sizes.
    x = relay.var("x", shape=(relay.Any(), 8))
    g, b = relay.var("g", shape=(8,)), relay.var("b", shape=(8,))
    mod = relay.IRModule.from_expr(relay.Function([x, g, b], relay.nn.layer_norm(x, g, b, epsilon=1e-3)))
    out = relay.transform.SimplifyInference()(mod)
    assert op_counts(out) == {"add": 2, "divide": 1, "mean": 1, "multiply": 1, "sqrt": 1, "subtract": 1,
                              "variance": 1}
    rng = np.random.default_rng(3)
    for rows in (1, 5):
        assert_same_outputs(mod, out, [rng.standard_normal((rows, 8)).astype("float32"),
                                       rng.standard_normal(8).astype("float32"),
                                       rng.standard_normal(8).astype("float32")])
    # float16: TVM 0.19 makes l2_normalize's eps a float32 constant, so its expansion of float16
    # data does not type-check (maximum(float16, float32)); here eps has the data's dtype.
    h = relay.var("h", shape=(2, 4), dtype="float16")
    mod = relay.IRModule.from_expr(relay.Function([h], relay.nn.l2_normalize(h, 1e-4, axis=[1])))
    out = relay.transform.SimplifyInference()(mod)
    assert "nn.l2_normalize" not in op_counts(out)
    assert out["main"].body.checked_type.dtype == "float16"
    assert_same_outputs(mod, out, [rng.standard_normal((2, 4)).astype("float16")], rtol=2e-3, atol=2e-3)


def test_group_norm_with_a_dynamic_dim_stays():
    # The group reshape needs static sizes (TVM 0.19 fails an ICHECK here); the op is kept.
    x = relay.var("x", shape=(relay.Any(), 4, 3))
    g, b = relay.var("g", shape=(4,)), relay.var("b", shape=(4,))
    mod = relay.IRModule.from_expr(relay.Function([x, g, b], relay.nn.group_norm(x, g, b, num_groups=2)))
    assert op_counts(relay.transform.SimplifyInference()(mod)) == {"nn.group_norm": 1}


def test_pass_info_and_sequential():
    p = relay.transform.SimplifyInference()
    # TVM 0.19: FunctionPass "SimplifyInference", opt level 0, requires InferType.
    assert isinstance(p, relay.transform.FunctionPass)
    assert (p.info.name, p.info.opt_level, p.info.required) == ("SimplifyInference", 0, ("InferType",))
    mod = _all_norms()
    with PassContext(opt_level=0):
        out = Sequential([p])(mod)          # runs at opt level 0, InferType first
    assert "nn.batch_norm" not in op_counts(out)
    with PassContext(opt_level=3, disabled_pass=["SimplifyInference"]):
        assert "nn.batch_norm" in op_counts(Sequential([p])(mod))


@pytest.mark.parametrize("axis", [0, 1, 2])
def test_instance_and_layer_norm_axes(axis):
    x = relay.var("x", shape=(2, 3, 5))
    size = (2, 3, 5)[axis]
    g, b = relay.var("g", shape=(size,)), relay.var("b", shape=(size,))
    body = relay.Tuple([relay.nn.layer_norm(x, g, b, axis=axis), relay.nn.instance_norm(x, g, b, axis=axis)]) \
        if axis else relay.nn.layer_norm(x, g, b, axis=axis)
    mod = relay.IRModule.from_expr(relay.Function([x, g, b], body))
    out = relay.transform.SimplifyInference()(mod)
    assert not {"nn.layer_norm", "nn.instance_norm"} & set(op_counts(out))
    rng = np.random.default_rng(4 + axis)
    assert_same_outputs(mod, out, [rng.standard_normal(s).astype("float32") for s in [(2, 3, 5), (size,), (size,)]])
