"""relay_mlir.testing's API beyond the workloads' structure (test_relay_testing_tvm.py):
initializers (TVM 0.19's rules), create_workload, layers, solving untyped weights, the
helpers (run_opt_pass, run_infer_type, check_grad, count_ops, rand), bad input, doctests.
"""
from __future__ import annotations

import doctest
import importlib

import numpy as np
import pytest

import relay_mlir as relay
from relay_mlir import testing
from relay_mlir.errors import CompileError
from relay_mlir.testing import init, layers

MODULES = ["", ".checks", ".dcgan", ".densenet", ".dqn", ".inception_v3", ".init", ".layers", ".lstm", ".mlp",
           ".mobilenet", ".resnet", ".squeezenet", ".synthetic", ".vgg"]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    result = doctest.testmod(importlib.import_module("relay_mlir.testing" + name))
    assert result.failed == 0 and result.attempted > 0


# -- initializers -------------------------------------------------------------------------
@pytest.mark.parametrize("factor_type,fan", [("avg", (6 * 25 + 4 * 25) / 2), ("in", 6 * 25), ("out", 4 * 25)])
def test_xavier_bound_and_spread(factor_type, fan):
    """uniform(-s, s), s = sqrt(3 / fan): every value inside, std s/sqrt(3) within 3%."""
    w = np.zeros((4, 6, 5, 5), "float64")
    big = np.zeros((400, 6, 5, 5), "float64")
    np.random.seed(1)
    init.Xavier(factor_type=factor_type)("conv_weight", w)
    bound = np.sqrt(3 / fan)
    assert np.abs(w).max() <= bound and np.abs(w).max() > 0.8 * bound
    big_fan = {"avg": (6 * 25 + 400 * 25) / 2, "in": 6 * 25, "out": 400 * 25}[factor_type]
    init.Xavier(factor_type=factor_type)("conv_weight", big)
    np.testing.assert_allclose(big.std(), np.sqrt(3 / big_fan) / np.sqrt(3), rtol=0.03)


def test_xavier_depthwise_fan_is_the_kernel_size():
    w = np.zeros((32, 1, 3, 3), "float32")
    np.random.seed(0)
    init.Xavier()("block_depthwise_weight", w)
    assert np.abs(w).max() <= np.sqrt(3 / 9) and np.abs(w).max() > np.sqrt(3 / 9) * 0.9


def test_initializer_suffix_rules_and_constant():
    arrs = {n: np.full((3, 2), 7.0, "float32") for n in ("a_bias", "a_gamma", "a_beta", "a_moving_mean",
                                                          "a_moving_var", "a_weight")}
    for name, arr in arrs.items():
        init.Constant()(name, arr)
    assert [float(arrs[n][0, 0]) for n in ("a_bias", "a_gamma", "a_beta", "a_moving_mean", "a_moving_var")] \
        == [0.0, 1.0, 0.0, 0.0, 1.0]
    np.testing.assert_allclose(arrs["a_weight"], np.full((3, 2), 1 / 6), rtol=1e-6)


def test_initializer_errors_name_what_was_expected():
    with pytest.raises(ValueError, match="conv_w.*must end in 'weight'"):
        init.Xavier()("conv_w", np.zeros((2, 2)))
    with pytest.raises(ValueError, match="vector fc_weight"):
        init.Xavier()("fc_weight", np.zeros(4))
    with pytest.raises(ValueError, match="factor_type must be"):
        init.Xavier(factor_type="mean")
    with pytest.raises(ValueError, match="rnd_type must be 'uniform'"):
        init.Xavier(rnd_type="gaussian")


def test_create_workload_seed_and_initializer():
    def net():
        x = relay.var("data", shape=(2, 5))
        return relay.Function(relay.analysis.free_vars(y := layers.dense_add_bias(x, units=3, name="fc")), y)
    _, a = testing.create_workload(net())
    _, b = testing.create_workload(net(), seed=0)
    _, c = testing.create_workload(net(), seed=1)
    _, d = testing.create_workload(net(), initializer=init.Constant())
    assert list(a) == ["fc_weight", "fc_bias"] and a["fc_weight"].shape == (3, 5)
    np.testing.assert_array_equal(a["fc_weight"].numpy(), b["fc_weight"].numpy())
    assert not np.array_equal(a["fc_weight"].numpy(), c["fc_weight"].numpy())
    np.testing.assert_array_equal(d["fc_weight"].numpy(), np.full((3, 5), 1 / 15, "float32"))
    with pytest.raises(TypeError, match="expects a relay Function"):
        testing.create_workload(relay.var("x", shape=(2,)))


# -- layers and solving untyped weights ---------------------------------------------------
def test_layers_need_a_name():
    x = relay.var("data", shape=(1, 3, 8, 8))
    with pytest.raises(TypeError, match="layers.conv2d needs name="):
        layers.conv2d(x, channels=4, kernel_size=(3, 3))
    with pytest.raises(ValueError, match="NCHW or NHWC"):
        layers.conv_kernel_layout("NCDHW")


def _inferred_param_types(fn):
    """The parameter types InferType solves (TVM's relations type untyped weights)."""
    return [p.checked_type for p in relay.transform.InferType()(relay.IRModule.from_expr(fn))["main"].params]


@pytest.mark.parametrize("layout,kernel_layout,shape,want", [
    ("NCHW", "OIHW", (1, 3, 9, 9), [8, 3, 3, 5]),
    ("NHWC", "HWIO", (1, 9, 9, 3), [3, 5, 3, 8]),
])
def test_solved_conv_weight_follows_kernel_layout(layout, kernel_layout, shape, want):
    x = relay.var("data", shape=shape, dtype="float16")
    y = layers.conv2d(x, channels=8, kernel_size=(3, 5), data_layout=layout, kernel_layout=kernel_layout, name="c")
    fn = relay.Function(relay.analysis.free_vars(y), y)
    assert _inferred_param_types(fn)[1] == relay.TensorType(want, "float16")


def test_solved_conv3d_and_conv2d_transpose_weights():
    """conv3d: OIDHW = (channels, C, kd, kh, kw) as TVM's Conv3DRel; conv2d_transpose (IOHW
    default): (C, channels, kh, kw) (also checked against TVM through dcgan)."""
    x = relay.var("data", shape=(1, 3, 4, 9, 9))
    y = layers.conv3d(x, channels=8, kernel_size=(1, 3, 5), name="c3")
    fn = relay.Function(relay.analysis.free_vars(y), y)
    assert _inferred_param_types(fn)[1] == relay.TensorType([8, 3, 1, 3, 5], "float32")
    x = relay.var("data", shape=(1, 6, 5, 5))
    y = layers.conv2d_transpose(x, channels=2, kernel_size=(3, 3), name="t")
    fn = relay.Function(relay.analysis.free_vars(y), y)
    assert _inferred_param_types(fn)[1] == relay.TensorType([6, 2, 3, 3], "float32")


def test_unsolvable_weights_are_named():
    x = relay.var("data", shape=(1, 4))
    w = relay.var("scale")
    with pytest.raises(CompileError, match="cannot infer the type of argument #1 of @main"):
        _inferred_param_types(relay.Function([x, w], relay.add(x, w)))
    unused = relay.var("unused")
    with pytest.raises(CompileError, match="cannot infer the type of argument #1 of @main"):
        _inferred_param_types(relay.Function([x, unused], relay.exp(x)))
    img = relay.var("data", shape=(1, 4, 8, 8))
    grouped = relay.nn.conv2d(img, relay.var("g_weight"), channels=4, kernel_size=(3, 3), groups=2)
    with pytest.raises(CompileError, match="weight shape must be specified when groups is greater than 1"):
        _inferred_param_types(relay.Function(relay.analysis.free_vars(grouped), grouped))


@pytest.mark.parametrize("module,kwargs,match", [
    ("resnet", {"num_layers": 19}, "num_layers 19"),
    ("resnet", {"num_layers": 19, "image_shape": (3, 28, 28)}, "num_layers 19"),
    ("vgg", {"batch_size": 1, "num_layers": 12}, "Choices are 11,13,16,19"),
    ("squeezenet", {"version": "2.0"}, "1.0 or 1.1 expected"),
    ("densenet", {"densenet_size": 100}, "must be one of"),
    ("dcgan", {"batch_size": 1, "oshape": (3, 32, 32)}, "Only support 64x64 image"),
    ("dcgan", {"batch_size": 1, "layout": "NCDHW"}, "Invalid layout: NCDHW"),
])
def test_bad_workload_arguments(module, kwargs, match):
    with pytest.raises(ValueError, match=match):
        getattr(testing, module).get_workload(**kwargs)


def test_mobilenet_bad_layout():
    with pytest.raises(ValueError, match="Invalid layout: NCDHW"):
        testing.mobilenet.separable_conv_block(relay.var("data", shape=(1, 3, 8, 8)), "b", 3, 4, layout="NCDHW")


# -- helpers ------------------------------------------------------------------------------
def test_run_opt_pass_and_infer_type():
    x = relay.var("data", shape=(1, 3, 4, 4))
    conv = testing.run_infer_type(layers.conv2d(x, channels=5, kernel_size=(3, 3), name="c"))
    assert conv.checked_type == relay.TensorType([1, 5, 2, 2], "float32")  # its weight solved as TVM does
    with pytest.raises(CompileError, match="cannot infer the type of argument"):
        testing.run_infer_type(relay.add(x, relay.var("s")))  # no rule: InferType's own error
    y = layers.batch_norm_infer(x, name="bn")
    fn = relay.Function(relay.analysis.free_vars(y), y)
    typed = testing.run_infer_type(fn)
    assert isinstance(typed, relay.Function)
    assert typed.body.checked_type == relay.TensorType([1, 3, 4, 4], "float32")
    body = testing.run_opt_pass(fn.body, relay.transform.SimplifyInference())
    assert "nn.batch_norm" not in testing.count_ops(body) and testing.count_ops(fn)["nn.batch_norm"] == 1
    with pytest.raises(TypeError, match="expects a pass"):
        testing.run_opt_pass(fn, "SimplifyInference")


def test_check_grad_passes_and_fails():
    x = relay.var("x", shape=(2, 3), dtype="float64")
    w = relay.var("w", shape=(2, 3), dtype="float64")
    testing.check_grad(relay.Function([x, w], relay.sum(relay.exp(x) * w)))
    # floor's gradient is 0 but finite differences across a step are not: check_grad must fail
    v = relay.var("v", shape=(1,), dtype="float64")
    with pytest.raises(AssertionError):
        testing.check_grad(relay.Function([v], relay.floor(v)), inputs=[np.array([1.0])], eps=1e-3)


def test_rand_is_an_ndarray():
    a = testing.rand("float16", 2, 3)
    assert a.shape == (2, 3) and a.dtype == "float16" and 0 <= a.numpy().min() and a.numpy().max() < 1


def test_tvm_members_not_provided_say_so():
    with pytest.raises(AttributeError, match="relay.testing.resnet_3d .* is not part of relay-mlir: .*global_avg_pool3d"):
        testing.resnet_3d  # noqa: B018
    with pytest.raises(AttributeError, match="has no attribute 'no_such_thing'"):
        testing.no_such_thing  # noqa: B018
    assert testing.gradient is relay.transform.gradient
