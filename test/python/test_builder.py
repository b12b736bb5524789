"""The pure-Python builder API: names, defaults and overloads mirror tvm.relay."""
from __future__ import annotations

import numpy as np
import pytest

import relay_mlir as relay


def test_var_forms():
    x = relay.var("x", shape=(1, relay.Any(), 4))
    assert x.name_hint == "x"
    assert x.type_annotation == relay.TensorType((1, relay.Any(), 4), "float32")
    assert x.type_annotation.to_mlir() == "tensor<1x?x4xf32>"
    y = relay.var("y", type_annotation=relay.TensorType((2,), "int32"))
    assert y.type_annotation.to_mlir() == "tensor<2xi32>"
    z = relay.var("z")
    assert z.type_annotation is None
    with pytest.raises(ValueError):
        relay.var("w", type_annotation=relay.TensorType((1,)), shape=(1,))


def test_const_dtypes():
    assert relay.const(1.0).data.dtype == np.float32
    assert relay.const(1).data.dtype == np.int32
    assert relay.const([1.0, 2.0], "float64").data.dtype == np.float64
    assert relay.const(np.ones((2, 2), "float16")).data.dtype == np.float16
    assert relay.const(True).data.dtype == np.bool_
    # numpy's default int64/float64 become int32/float32 without a dtype, as in TVM 0.19
    # (relay.const(np.random.rand(2, 2)) adds to a float32 tensor); other dtypes stay
    assert relay.const(np.random.rand(2, 2)).data.dtype == np.float32
    assert relay.const(np.arange(3)).data.dtype == np.int32
    assert relay.const(np.float64(0.5)).data.dtype == np.float32
    assert relay.const(np.arange(3, dtype="uint8")).data.dtype == np.uint8
    assert relay.const(np.arange(3), "int64").data.dtype == np.int64
    assert relay.Constant(np.arange(3)).data.dtype == np.int64
    x = relay.var("x", shape=(2, 2))
    ok = relay.transform.InferType()(relay.IRModule.from_expr(relay.Function([x], x + relay.const(np.ones((2, 2))))))
    assert ok["main"].body.checked_type.dtype == "float32"


def test_operator_overloads():
    a, b = relay.var("a", shape=(2,)), relay.var("b", shape=(2,))
    assert (a + b).op.name == "add"
    assert (a - b).op.name == "subtract"
    assert (a * b).op.name == "multiply"
    assert (a / b).op.name == "divide"
    assert (-a).op.name == "negative"
    with pytest.raises(TypeError, match="const"):
        a + 1.0  # noqa: B018 - Relay requires relay.const for numbers
    with pytest.raises(TypeError, match="const"):
        2 * a  # noqa: B018


def test_nn_defaults_match_relay():
    x = relay.var("x", shape=(1, 3, 8, 8))
    w = relay.var("w", shape=(4, 3, 3, 3))
    c = relay.nn.conv2d(x, w)
    assert c.attrs == {"strides": [1, 1], "padding": [0, 0], "dilation": [1, 1], "groups": 1,
                       "channels": None, "kernel_size": None, "data_layout": "NCHW",
                       "kernel_layout": "OIHW", "out_layout": "", "out_dtype": ""}
    p = relay.nn.max_pool2d(x, pool_size=2)
    assert p.attrs["pool_size"] == [2, 2] and p.attrs["ceil_mode"] is False
    a = relay.nn.avg_pool2d(x)
    assert a.attrs["count_include_pad"] is False
    assert relay.nn.softmax(x).attrs == {"axis": -1}
    assert relay.nn.bias_add(x, relay.var("b")).attrs == {"axis": 1}
    bn = relay.nn.batch_norm(x, *(relay.var(n) for n in "gbmv"))
    assert len(bn) == 3 and isinstance(bn[0], relay.TupleGetItem) and bn[0].index == 0
    assert bn.astuple().attrs == {"axis": 1, "epsilon": 1e-5, "center": True, "scale": True}
    assert relay.sum(x, axis=1).attrs["axis"] == [1]
    assert relay.mean(x).attrs["axis"] is None
    assert relay.transpose(x).attrs == {"axes": None}
    cat = relay.concatenate(relay.Tuple([x, x]), axis=1)
    assert len(cat.args) == 2 and cat.attrs == {"axis": 1}
    import relay_mlir.nn as nn_module  # `relay.nn` importable as a module, like tvm.relay.nn
    assert nn_module.relu is relay.nn.relu


def test_module_and_free_vars():
    x, y = relay.var("x", shape=(2,)), relay.var("y", shape=(2,))
    mod = relay.IRModule.from_expr(x * y + x)
    assert [p.name_hint for p in mod["main"].params] == ["x", "y"]
    gv = relay.GlobalVar("helper")
    z = relay.var("z", shape=(2,))
    mod[gv] = relay.Function([z], relay.exp(z))
    assert "helper" in mod and mod.get_global_var("helper") is gv
    assert mod[gv] is mod["helper"]
    # a closure's own parameters are not free; its captures are
    k = relay.var("k", shape=(2,))
    clo = relay.Function([z], z * k)
    assert relay.free_vars(clo) == [k]
    assert relay.free_vars(relay.Let(k, x, k + y)) == [x, y]


def test_checked_type_before_inference():
    with pytest.raises(ValueError, match="InferType"):
        relay.var("x", shape=(2,)).checked_type


def test_span_points_at_user_code():
    x = relay.var("x", shape=(2,))
    y = relay.exp(x)
    assert y.span.filename == __file__
    assert y.span.line > 0


def test_attribute_values_are_checked_in_python():
    """Wrong attribute kinds are rejected before any C++ relation sees them."""
    x = relay.var("x", shape=(2, 3))
    with pytest.raises(TypeError, match="axis"):
        relay.nn.softmax(x, axis=1.0)
    with pytest.raises(TypeError, match="strides"):
        relay.nn.conv2d(x, x, strides="ab")
    with pytest.raises(TypeError, match="units"):
        relay.nn.dense(x, x, units=(1, 2))
    with pytest.raises(TypeError, match="keepdims"):
        relay.sum(x, keepdims=3)
    with pytest.raises(TypeError, match="data_layout"):
        relay.nn.conv2d(x, x, data_layout=3)
    assert relay.nn.conv2d(x, x, strides=2).attrs["strides"] == [2, 2]


def test_compile_accepts_a_bare_function_and_rejects_other_objects():
    x = relay.var("x", shape=(3,))
    exe = relay.compile(relay.Function([x], relay.exp(x)), target="llvm-cpu")
    np.testing.assert_allclose(exe(np.array([0.0, 1.0, 2.0], "float32")), np.exp([0.0, 1.0, 2.0]), rtol=1e-6)
    with pytest.raises(TypeError, match="expected an IRModule, a relay Function"):
        relay.compile(relay.exp(x), target="llvm-cpu")
