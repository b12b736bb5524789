"""relay.transform.ForwardFoldScaleAxis / BackwardFoldScaleAxis / FoldScaleAxis
(relay-forward-fold-scale-axis, relay-backward-fold-scale-axis; docs/passes.md).

Programs built with the TVM-style API (``_programs`` runs unchanged with ``tvm.relay``: that
is how the TVM facts below were measured, in the side venv). Each test checks the operators
left in ``mod["main"]`` (the multiply gone, weights scaled) and that the reference interpreter
gives the same outputs before and after (rtol 1e-5: w * s is rounded once more than x * s
before the conv).

``TVM_BACKWARD`` / ``TVM_FORWARD``: operator counts TVM 0.19 leaves after
``Sequential([BackwardFoldScaleAxis(), FoldConstant()])`` / ``Sequential([ForwardFoldScaleAxis(),
FoldConstant()])`` at opt level 3 (relay.analysis.post_order_visit over main, counting Op
calls). Our passes compute a constant weight times a constant scale themselves (TVM's leave
``multiply(w, expand_dims(squeeze(s)))`` for FoldConstant), so they are compared with those.
"""
from __future__ import annotations

import numpy as np
import pytest

import relay_mlir as relay
from relay_mlir.transform import PassContext, Sequential

from pass_checks import assert_same_outputs, function_pass_counts, mod_of as _mod, node_counts, outputs


def _programs():
    rng = np.random.default_rng(7)

    def c(*shape, low=-1.0, high=1.0):
        return relay.const(rng.uniform(low, high, shape).astype("float32"))

    conv, dense, relu = relay.nn.conv2d, relay.nn.dense, relay.nn.relu
    x = relay.var("x", shape=(1, 4, 6, 6))
    xh = relay.var("xh", shape=(1, 6, 6, 4))
    xd = relay.var("xd", shape=(2, 8))
    w, w2 = c(5, 4, 3, 3), c(5, 4, 3, 3)
    wh = c(3, 3, 4, 5)
    wd = c(3, 8)
    wdw = c(4, 1, 3, 3)
    pos5, neg5 = c(5, 1, 1, low=0.5, high=2.0), c(5, 1, 1)
    pos4, neg4 = c(4, 1, 1, low=0.5, high=2.0), c(4, 1, 1)
    s_var = relay.var("s", shape=(5, 1, 1))
    s_var4 = relay.var("s4", shape=(4, 1, 1))
    w_var = relay.var("w", shape=(5, 4, 3, 3))
    b5 = c(5, 1, 1)
    zero4 = relay.const(np.array([1.0, 0.0, 2.0, 3.0], "float32").reshape(4, 1, 1))
    return {
        # backward: a multiply after the conv/dense
        "b_conv": conv(x, w) * pos5,
        "b_conv_negative": conv(x, w) * neg5,
        "b_scale_left": neg5 * conv(x, w),
        "b_relu": relu(conv(x, w)) * pos5,
        "b_relu_negative": relu(conv(x, w)) * neg5,
        "b_leaky_relu": relay.nn.leaky_relu(conv(x, w), alpha=0.1) * pos5,
        "b_bias_relu": relu(relay.nn.bias_add(conv(x, w), c(5))) * pos5,
        "b_add_relu": relu(conv(x, w) + b5) * pos5,
        "b_subtract": (conv(x, w) - b5) * neg5,
        "b_two_convs": (conv(x, w) + conv(x, w2)) * neg5,
        "b_two_convs_relu": (conv(x, w) + relu(conv(x, w2))) * neg5,
        "b_fanout": relay.Tuple([conv(x, w) * pos5, relu(conv(x, w))]),
        "b_shared_conv": (lambda y: relay.Tuple([y * pos5, relu(y)]))(conv(x, w)),
        "b_scalar": conv(x, w) * relay.const(2.0),
        "b_var_scale": conv(x, w) * s_var,
        "b_var_scale_relu": relu(conv(x, w)) * s_var,
        "b_var_weight": conv(x, w_var) * pos5,
        "b_spatial_scale": conv(x, w) * c(4, 4),
        "b_nhwc": conv(xh, wh, data_layout="NHWC", kernel_layout="HWIO") * c(5),
        "b_dense": dense(xd, wd) * c(3),
        "b_dense_bias": relay.nn.bias_add(dense(xd, wd), c(3), axis=1) * c(3, low=0.5, high=2.0),
        "b_depthwise": conv(x, wdw, groups=4, channels=4, kernel_size=(3, 3)) * neg4,
        "b_groups": conv(x, c(6, 2, 3, 3), groups=2) * c(6, 1, 1),
        "b_conv3d": relay.nn.conv3d(relay.var("x3", shape=(1, 2, 4, 4, 4)), c(3, 2, 2, 2, 2)) * c(3, 1, 1, 1),
        "b_chain": conv(x, w) * pos5 * neg5,
        # forward: a multiply before the conv/dense
        "f_conv": conv(x * neg4, w),
        "f_scale_left": conv(pos4 * x, w),
        "f_relu": conv(relu(x * pos4), w),
        "f_relu_negative": conv(relu(x * neg4), w),
        "f_add_relu": conv(relu(x * pos4 + c(4, 1, 1)), w),
        "f_two_convs": (lambda m: relay.Tuple([conv(m, w), conv(m, w2, padding=(1, 1))]))(x * neg4),
        "f_other_use": (lambda m: relay.Tuple([conv(m, w), relay.exp(m)]))(x * neg4),
        "f_returned": (lambda m: relay.Tuple([conv(m, w), m]))(x * neg4),
        "f_scalar": conv(x * relay.const(0.5), w),
        "f_var_scale": conv(x * s_var4, w),
        "f_spatial_scale": conv(x * c(6, 6), w),
        "f_nhwc": conv(xh * c(4), wh, data_layout="NHWC", kernel_layout="HWIO"),
        "f_dense": dense(xd * c(8), wd),
        "f_depthwise": conv(x * neg4, wdw, groups=4, channels=4, kernel_size=(3, 3)),
        "f_groups": conv(x * neg4, c(6, 2, 3, 3), groups=2),
        "f_weight_scaled": conv(x, w_var * c(4, 1, 1)),
        "f_zero_scale_add": conv(x * zero4 + c(4, 1, 1), w),
        "f_dense_rank3": dense(relay.var("x3d", shape=(2, 3, 8)) * c(8), wd),
        # the dense's data is its weight: only the weight operand takes the scale
        "b_dense_same_operand": dense(xd, xd) * c(2),
    }


# TVM 0.19, Sequential([BackwardFoldScaleAxis(), FoldConstant()]) at opt level 3.
TVM_BACKWARD = {
    "b_conv": {"nn.conv2d": 1},
    "b_conv_negative": {"nn.conv2d": 1},
    "b_scale_left": {"nn.conv2d": 1},
    "b_relu": {"nn.conv2d": 1, "nn.relu": 1},
    "b_relu_negative": {"multiply": 1, "nn.conv2d": 1, "nn.relu": 1},
    "b_leaky_relu": {"nn.conv2d": 1, "nn.leaky_relu": 1},
    "b_bias_relu": {"nn.bias_add": 1, "nn.conv2d": 1, "nn.relu": 1},
    "b_add_relu": {"add": 1, "nn.conv2d": 1, "nn.relu": 1},
    "b_subtract": {"nn.conv2d": 1, "subtract": 1},
    "b_two_convs": {"add": 1, "nn.conv2d": 2},
    "b_two_convs_relu": {"add": 1, "nn.conv2d": 2, "nn.relu": 1},
    "b_fanout": {"nn.conv2d": 2, "nn.relu": 1},
    "b_shared_conv": {"multiply": 1, "nn.conv2d": 1, "nn.relu": 1},
    "b_scalar": {"nn.conv2d": 1},
    "b_var_scale": {"expand_dims": 1, "multiply": 1, "nn.conv2d": 1, "squeeze": 1},
    "b_var_scale_relu": {"multiply": 1, "nn.conv2d": 1, "nn.relu": 1},
    "b_var_weight": {"multiply": 1, "nn.conv2d": 1},
    "b_spatial_scale": {"multiply": 1, "nn.conv2d": 1},
    "b_nhwc": {"nn.conv2d": 1},
    "b_dense": {"nn.dense": 1},
    "b_dense_bias": {"nn.bias_add": 1, "nn.dense": 1},
    "b_depthwise": {"nn.conv2d": 1},
    "b_groups": {"multiply": 1, "nn.conv2d": 1},
    "b_conv3d": {"nn.conv3d": 1},
    "b_chain": {"multiply": 1, "nn.conv2d": 1},
    "f_conv": {"multiply": 1, "nn.conv2d": 1},
    "f_scale_left": {"multiply": 1, "nn.conv2d": 1},
    "f_relu": {"multiply": 1, "nn.conv2d": 1, "nn.relu": 1},
    "f_relu_negative": {"multiply": 1, "nn.conv2d": 1, "nn.relu": 1},
    "f_add_relu": {"add": 1, "multiply": 1, "nn.conv2d": 1, "nn.relu": 1},
    "f_two_convs": {"multiply": 1, "nn.conv2d": 2},
    "f_other_use": {"exp": 1, "multiply": 1, "nn.conv2d": 1},
    "f_returned": {"multiply": 1, "nn.conv2d": 1},
    "f_scalar": {"multiply": 1, "nn.conv2d": 1},
    "f_var_scale": {"multiply": 1, "nn.conv2d": 1},
    "f_spatial_scale": {"multiply": 1, "nn.conv2d": 1},
    "f_nhwc": {"multiply": 1, "nn.conv2d": 1},
    "f_dense": {"multiply": 1, "nn.dense": 1},
    "f_depthwise": {"multiply": 1, "nn.conv2d": 1},
    "f_groups": {"multiply": 1, "nn.conv2d": 1},
    "f_weight_scaled": {"multiply": 1, "nn.conv2d": 1},
    "f_zero_scale_add": {"add": 1, "multiply": 1, "nn.conv2d": 1},
    "f_dense_rank3": {"multiply": 1, "nn.dense": 1},
    "b_dense_same_operand": {"multiply": 1, "nn.dense": 1},
}
# TVM 0.19, Sequential([ForwardFoldScaleAxis(), FoldConstant()]) at opt level 3.
TVM_FORWARD = {
    "b_conv": {"multiply": 1, "nn.conv2d": 1},
    "b_conv_negative": {"multiply": 1, "nn.conv2d": 1},
    "b_scale_left": {"multiply": 1, "nn.conv2d": 1},
    "b_relu": {"multiply": 1, "nn.conv2d": 1, "nn.relu": 1},
    "b_relu_negative": {"multiply": 1, "nn.conv2d": 1, "nn.relu": 1},
    "b_leaky_relu": {"multiply": 1, "nn.conv2d": 1, "nn.leaky_relu": 1},
    "b_bias_relu": {"multiply": 1, "nn.bias_add": 1, "nn.conv2d": 1, "nn.relu": 1},
    "b_add_relu": {"add": 1, "multiply": 1, "nn.conv2d": 1, "nn.relu": 1},
    "b_subtract": {"multiply": 1, "nn.conv2d": 1, "subtract": 1},
    "b_two_convs": {"add": 1, "multiply": 1, "nn.conv2d": 2},
    "b_two_convs_relu": {"add": 1, "multiply": 1, "nn.conv2d": 2, "nn.relu": 1},
    "b_fanout": {"multiply": 1, "nn.conv2d": 2, "nn.relu": 1},
    "b_shared_conv": {"multiply": 1, "nn.conv2d": 1, "nn.relu": 1},
    "b_scalar": {"multiply": 1, "nn.conv2d": 1},
    "b_var_scale": {"multiply": 1, "nn.conv2d": 1},
    "b_var_scale_relu": {"multiply": 1, "nn.conv2d": 1, "nn.relu": 1},
    "b_var_weight": {"multiply": 1, "nn.conv2d": 1},
    "b_spatial_scale": {"multiply": 1, "nn.conv2d": 1},
    "b_nhwc": {"multiply": 1, "nn.conv2d": 1},
    "b_dense": {"multiply": 1, "nn.dense": 1},
    "b_dense_bias": {"multiply": 1, "nn.bias_add": 1, "nn.dense": 1},
    "b_depthwise": {"multiply": 1, "nn.conv2d": 1},
    "b_groups": {"multiply": 1, "nn.conv2d": 1},
    "b_conv3d": {"multiply": 1, "nn.conv3d": 1},
    "b_chain": {"multiply": 2, "nn.conv2d": 1},
    "f_conv": {"nn.conv2d": 1},
    "f_scale_left": {"nn.conv2d": 1},
    "f_relu": {"nn.conv2d": 1, "nn.relu": 1},
    "f_relu_negative": {"multiply": 1, "nn.conv2d": 1, "nn.relu": 1},
    "f_add_relu": {"add": 1, "nn.conv2d": 1, "nn.relu": 1},
    "f_two_convs": {"nn.conv2d": 2},
    "f_other_use": {"exp": 1, "multiply": 1, "nn.conv2d": 1},
    "f_returned": {"multiply": 1, "nn.conv2d": 1},
    "f_scalar": {"nn.conv2d": 1},
    "f_var_scale": {"expand_dims": 1, "multiply": 1, "nn.conv2d": 1, "squeeze": 1},
    "f_spatial_scale": {"multiply": 1, "nn.conv2d": 1},
    "f_nhwc": {"nn.conv2d": 1},
    "f_dense": {"nn.dense": 1},
    "f_depthwise": {"nn.conv2d": 1},
    "f_groups": {"multiply": 1, "nn.conv2d": 1},
    "f_weight_scaled": {"multiply": 1, "nn.conv2d": 1},
    "f_zero_scale_add": {"add": 1, "nn.conv2d": 1},
    "f_dense_rank3": {"multiply": 1, "nn.dense": 1},
    "b_dense_same_operand": {"multiply": 1, "nn.dense": 1},
}

# Where relay-mlir differs on purpose: (pass, program) -> our counts, and why.
DIFFERS = {
    # TVM folds one scale per run (the second multiply reads a multiply, which has no
    # backward message); the greedy rewrite folds the second into the new conv too.
    ("backward", "b_chain"): {"nn.conv2d": 1},
    # TVM folds and divides the add's constant by the scale's 0: its outputs are inf/NaN
    # (measured: not equal to the program's). Dividing by a zero is refused here.
    # TVM takes add(conv1, relu(conv2))'s requirement from its lhs alone, so it folds this
    # negative scale into the relu branch (relu(y) * s != relu(y * s)): wrong outputs,
    # measured. The relu's requirement counts here: nothing folds.
    ("backward", "b_two_convs_relu"): {"add": 1, "multiply": 1, "nn.conv2d": 2, "nn.relu": 1},
    ("forward", "f_zero_scale_add"): {"add": 1, "multiply": 1, "nn.conv2d": 1},
    # TVM's dense takes a scale on axis 1 whatever its rank: x[2, 3, 8] * s[8] does not match
    # axis 1, nothing folds. Here the dense's axis is the last one, which s scales.
    ("forward", "f_dense_rank3"): {"nn.dense": 1},
}

PASSES = {"backward": relay.transform.BackwardFoldScaleAxis,
          "forward": relay.transform.ForwardFoldScaleAxis}
CASES = [(k, n) for k, table in (("backward", TVM_BACKWARD), ("forward", TVM_FORWARD)) for n in table]


@pytest.mark.parametrize("kind,name", CASES)
def test_counts_as_tvm(kind, name):
    mod = _mod(_programs()[name])
    out = PASSES[kind]()(mod)
    tvm = (TVM_BACKWARD if kind == "backward" else TVM_FORWARD)[name]
    assert node_counts(out) == DIFFERS.get((kind, name), tvm)
    assert_same_outputs(mod, out)


def _weight(out):
    """The weight constant of the one conv/dense in out["main"]."""
    found = []

    class V(relay.ExprVisitor):
        def visit_call(self, call):
            if getattr(call.op, "name", "") in ("nn.conv2d", "nn.conv3d", "nn.dense"):
                found.append(call.args[1].data)
            super().visit_call(call)

    V().visit(out["main"])
    (w,) = found
    return w


def test_backward_weight_scaled_along_o():
    # conv(x, w) * s[5, 1, 1] -> conv(x, w * s[:, None]): each output channel's filter.
    body = _programs()["b_conv"]
    w, s = body.args[0].args[1].data, body.args[1].data
    out = relay.transform.BackwardFoldScaleAxis()(_mod(body))
    np.testing.assert_array_equal(_weight(out), w * s.reshape(5, 1, 1, 1))
    assert out["main"].body.args[0] is out["main"].params[0]


def test_backward_bias_scaled_too():
    # relu(bias_add(conv(x, w), b)) * s -> relu(bias_add(conv(x, w * s), b * s)).
    body = _programs()["b_bias_relu"]
    b, s = body.args[0].args[0].args[1].data, body.args[1].data.reshape(5)
    out = relay.transform.BackwardFoldScaleAxis()(_mod(body))
    bias_add = out["main"].body.args[0]
    assert bias_add.op.name == "nn.bias_add"
    np.testing.assert_array_equal(bias_add.args[1].data, b * s)


def test_forward_weight_scaled_along_i():
    # conv(x * s[4, 1, 1], w) -> conv(x, w * s along I); NHWC/HWIO: along I = axis 2.
    body = _programs()["f_conv"]
    s, w = body.args[0].args[1].data, body.args[1].data
    out = relay.transform.ForwardFoldScaleAxis()(_mod(body))
    np.testing.assert_array_equal(_weight(out), w * s.reshape(1, 4, 1, 1))
    body = _programs()["f_nhwc"]
    s, w = body.args[0].args[1].data, body.args[1].data
    out = relay.transform.ForwardFoldScaleAxis()(_mod(body))
    np.testing.assert_array_equal(_weight(out), w * s.reshape(1, 1, 4, 1))


def test_forward_add_operand_divided():
    # conv(relu(x * s + b), w) -> conv(relu(x + b / s), w * s).
    body = _programs()["f_add_relu"]
    add = body.args[0].args[0]
    s, b = add.args[0].args[1].data, add.args[1].data
    out = relay.transform.ForwardFoldScaleAxis()(_mod(body))
    new_add = out["main"].body.args[0].args[0]
    assert new_add.op.name == "add" and new_add.args[0] is out["main"].params[0]
    np.testing.assert_allclose(new_add.args[1].data, b / s, rtol=1e-7)


def test_fold_scale_axis_is_tvms_sequential():
    # TVM 0.19: FoldScaleAxis() is Sequential "FoldScaleAxis", opt level 0, no required passes,
    # of BackwardFoldScaleAxis, ForwardFoldScaleAxis, FoldConstant; both folds are opt level 3
    # FunctionPasses requiring InferType, so at the default opt level 2 nothing folds.
    p = relay.transform.FoldScaleAxis()
    assert isinstance(p, Sequential)
    assert (p.info.name, p.info.opt_level, p.info.required) == ("FoldScaleAxis", 0, ())
    assert [q.info.name for q in p.passes] == ["BackwardFoldScaleAxis", "ForwardFoldScaleAxis",
                                               "FoldConstant"]
    mod = _mod(_programs()["b_relu"])
    assert node_counts(p(mod)) == {"multiply": 1, "nn.conv2d": 1, "nn.relu": 1}
    with PassContext(opt_level=3):
        assert node_counts(p(mod)) == TVM_BACKWARD["b_relu"]
    for name, kind in (("BackwardFoldScaleAxis", "b_conv"), ("ForwardFoldScaleAxis", "f_conv")):
        before, after = function_pass_counts(getattr(relay.transform, name)(), _mod(_programs()[kind]),
                                             name, 3)
        assert before == {"multiply": 1, "nn.conv2d": 1} and after == {"nn.conv2d": 1}


@pytest.mark.parametrize("name", ["b_add_relu", "b_two_convs", "f_add_relu", "f_two_convs",
                                  "b_var_scale", "f_var_scale", "f_relu_negative"])
def test_fold_scale_axis_at_opt_level_3_as_tvm(name):
    # TVM 0.19's FoldScaleAxis() at opt level 3 leaves what its backward (b_*) / forward (f_*)
    # fold leaves for these programs.
    mod = _mod(_programs()[name])
    with PassContext(opt_level=3):
        out = relay.transform.FoldScaleAxis()(mod)
    assert node_counts(out) == (TVM_BACKWARD if name[0] == "b" else TVM_FORWARD)[name]
    assert_same_outputs(mod, out, seed=3)


def test_float16_scale_through_relu():
    # TVM 0.19 leaves relu(conv(x, w)) * s in float16 alone (its non-negative check knows
    # float32/64, int8/32, uint8/32 only: FoldScaleAxis at opt level 3 keeps the multiply);
    # the scale is non-negative, so it folds here, the weight computed in float16.
    x = relay.var("x", shape=(1, 2, 4, 4), dtype="float16")
    w = np.arange(6, dtype="float16").reshape(3, 2, 1, 1)
    s = np.array([1, 2, 3], "float16").reshape(3, 1, 1)
    mod = _mod(relay.nn.relu(relay.nn.conv2d(x, relay.const(w))) * relay.const(s))
    out = relay.transform.BackwardFoldScaleAxis()(mod)
    assert node_counts(out) == {"nn.conv2d": 1, "nn.relu": 1}
    folded = _weight(out)
    assert folded.dtype == np.float16
    np.testing.assert_array_equal(folded, w * s.reshape(3, 1, 1, 1))
    args = [np.linspace(-1, 1, 32, dtype="float16").reshape(1, 2, 4, 4)]
    np.testing.assert_allclose(outputs(out, args)[0], outputs(mod, args)[0], rtol=1e-3)


def test_dynamic_batch_both_directions():
    # A ? batch: relu(x * s) feeds the conv (forward), relu(bias_add(conv)) * s5 follows it
    # (backward); FoldScaleAxis at opt level 3 folds both (compiled for llvm-cpu, the result
    # equals the program's interpreter outputs to 1.6e-7 relative, checked by hand).
    rng = np.random.default_rng(0)
    x = relay.var("x", shape=(relay.Any(), 4, 6, 6))
    s = relay.const(rng.uniform(0.5, 2, (4, 1, 1)).astype("float32"))
    w = relay.const(rng.standard_normal((5, 4, 3, 3)).astype("float32"))
    b = relay.const(rng.standard_normal(5).astype("float32"))
    s5 = relay.const(rng.uniform(0.5, 2, (5, 1, 1)).astype("float32"))
    mod = _mod(relay.nn.relu(relay.nn.bias_add(relay.nn.conv2d(relay.nn.relu(x * s), w), b)) * s5)
    with PassContext(opt_level=3):
        out = relay.transform.FoldScaleAxis()(mod)
    assert node_counts(out) == {"nn.bias_add": 1, "nn.conv2d": 1, "nn.relu": 2}
    args = [rng.standard_normal((2, 4, 6, 6)).astype("float32")]
    np.testing.assert_allclose(outputs(out, args)[0], outputs(mod, args)[0], rtol=1e-5, atol=1e-5)
