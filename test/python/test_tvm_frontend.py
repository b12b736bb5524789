"""``relay_mlir.tvm.relay.frontend``: ``from_onnx`` and ``from_pytorch`` return ``(mod,
params)`` shaped as TVM 0.19's (main's parameter names, order, shapes and the params'
names equal TVM's, recorded in test_tvm_frontend_recorded), and the weights bound at
run time give onnxruntime's / PyTorch's numbers."""
import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
torch = pytest.importorskip("torch")
ort = pytest.importorskip("onnxruntime")
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

import relay_mlir as relay  # noqa: E402
from relay_mlir.tvm.relay.frontend import from_onnx, from_pytorch  # noqa: E402
from relay_mlir.tvm.runtime.ndarray import NDArray  # noqa: E402
from test_torchscript_models import _script  # noqa: E402
from test_tvm_frontend_recorded import ONNX, RENAMED, TORCH, TORCH_SCOPES  # noqa: E402


def small_onnx_model(inits_as_inputs=False):
    """Conv + Relu + Reshape (int64 shape initializer) + MatMul + Add, a symbolic batch dim
    and an unused initializer; optionally the float initializers are graph inputs too."""
    rng = np.random.default_rng(0)
    arrays = [(rng.standard_normal((4, 3, 3, 3)).astype("float32"), "conv.weight"),
              (rng.standard_normal((4,)).astype("float32"), "conv.bias"),
              (np.array([0, -1], "int64"), "flat_shape"),
              (rng.standard_normal((144, 5)).astype("float32"), "fc.weight"),
              (rng.standard_normal((5,)).astype("float32"), "fc.bias"),
              (rng.standard_normal((7,)).astype("float32"), "unused")]
    inits = [numpy_helper.from_array(a, n) for a, n in arrays]
    nodes = [helper.make_node("Conv", ["x", "conv.weight", "conv.bias"], ["c"], pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c"], ["r"]),
             helper.make_node("Reshape", ["r", "flat_shape"], ["f"]),
             helper.make_node("MatMul", ["f", "fc.weight"], ["m"]),
             helper.make_node("Add", ["m", "fc.bias"], ["y"])]
    inputs = [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3, 6, 6])]
    if inits_as_inputs:  # old exporters list initializers as graph inputs too (here reordered)
        inputs += [helper.make_tensor_value_info(n, TensorProto.FLOAT, a.shape)
                   for a, n in reversed(arrays) if a.dtype == np.float32]
    g = helper.make_graph(nodes, "small", inputs,
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 5])], initializer=inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)


def _signature(mod):
    return [(p.name_hint, tuple("?" if not isinstance(d, int) else d for d in p.type_annotation.shape),
             p.type_annotation.dtype) for p in mod["main"].params]


@pytest.mark.parametrize("inputs", [False, True])
@pytest.mark.parametrize("freeze", [True, False])
@pytest.mark.parametrize("shape", [False, True])
def test_from_onnx_structure_is_tvms(inputs, freeze, shape):
    model = small_onnx_model(inputs)
    mod, params = from_onnx(model, {"x": (2, 3, 6, 6)} if shape else None, freeze_params=freeze)
    want = ONNX[f"inputs={inputs} freeze={freeze} shape={shape}"]
    assert _signature(mod) == want["main"]
    assert list(params) == want["params"]
    inits = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    for name, v in params.items():
        assert isinstance(v, NDArray)
        np.testing.assert_array_equal(v.numpy(), inits[name])
    if freeze:  # the weights are in the program as constants
        assert "conv.weight" not in mod.astext()


@pytest.fixture(scope="module")
def onnx_unfrozen():
    model = small_onnx_model()
    mod, params = from_onnx(model, {"x": (2, 3, 6, 6)}, freeze_params=False)
    return model, mod, params, relay.compile(mod, target="llvm-cpu")


def _ort(model, x, replace=None):
    if replace:
        model = onnx.ModelProto.FromString(model.SerializeToString())
        for t in model.graph.initializer:
            if t.name in replace:
                t.CopyFrom(numpy_helper.from_array(replace[t.name], t.name))
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return sess.run(None, {"x": x})[0]


def test_from_onnx_params_bound_at_run_time_match_onnxruntime(onnx_unfrozen):
    """freeze_params=False: the compiled main takes the weights; with the model's params it
    gives onnxruntime's output, with other weights that of the model holding them."""
    model, mod, params, exe = onnx_unfrozen
    x = np.random.default_rng(3).standard_normal((2, 3, 6, 6)).astype("float32")
    names = [p.name_hint for p in mod["main"].params][1:]
    got = exe(x, *[params[n].numpy() for n in names])
    np.testing.assert_allclose(got, _ort(model, x), rtol=1e-4, atol=1e-4)
    new = {"conv.weight": params["conv.weight"].numpy() * -0.5, "fc.bias": np.arange(5, dtype="float32")}
    got = exe(x, *[new.get(n, params[n].numpy()) for n in names])
    np.testing.assert_allclose(got, _ort(model, x, new), rtol=1e-4, atol=1e-4)


def test_from_onnx_bad_arguments_name_what_was_expected():
    model = small_onnx_model()
    with pytest.raises(ValueError, match=r"shape given for 'y'.*inputs: \['x'\]"):
        from_onnx(model, {"y": (1, 3, 6, 6)})
    with pytest.raises(ValueError, match=r"shape\['x'\] has dim 'a'|expected ints"):
        from_onnx(model, {"x": (1, 3, 6, object())})
    with pytest.raises(TypeError, match="onnx.ModelProto"):
        from_onnx("model.onnx")
    with pytest.raises(ValueError, match=r"dtype given for \['z'\]"):
        from_onnx(model, dtype={"z": "float16"})


def test_from_onnx_any_dim_and_renamed_export(tmp_path):
    """relay.Any() in ``shape`` is a ``?`` dim; export_node_renamed_model_path writes the
    model with its nodes named <op_type>_<n> (TVM's tvm_exported_model_<time>.onnx)."""
    mod, _ = from_onnx(small_onnx_model(), {"x": (relay.Any(), 3, 6, 6)},
                       export_node_renamed_model_path=str(tmp_path))
    assert _signature(mod)[0] == ("x", ("?", 3, 6, 6), "float32")
    (saved,) = list(tmp_path.glob("tvm_exported_model_*.onnx"))
    assert [n.name for n in onnx.load(str(saved)).graph.node] == ["Conv_0", "Relu_0", "Reshape_0", "MatMul_0", "Add_0"]


@pytest.mark.parametrize("name", ["resnet", "mlp", "mobilenet"])
@pytest.mark.parametrize("friendly", [False, True])
def test_from_pytorch_structure_is_tvms(name, friendly):
    """Traced modules: main's parameters (the input, then the weights named after their
    first user, e.g. aten::_convolution_0.weight) and the params' names and order are TVM's."""
    m, x, sm = _script(name, "trace")
    mod, params = from_pytorch(sm, [("input0", tuple(x.shape))], use_parser_friendly_name=friendly)
    want = TORCH[f"{name} friendly={friendly}"]
    assert _signature(mod) == want["main"]
    assert list(params) == want["params"]
    state = {k: v.detach().numpy() for k, v in m.state_dict().items()}
    for v in params.values():
        assert isinstance(v, NDArray)
        assert any(s.shape == v.shape and np.array_equal(s, v.numpy()) for s in state.values())


@pytest.mark.parametrize("name", ["resnet", "mlp"])
@pytest.mark.parametrize("friendly", [False, True])
def test_from_pytorch_scope_names_are_tvms(name, friendly):
    """preserve_pytorch_scopes=True: weights named after their module path, as TVM names them
    (friendly: layer2_1_bn2_var, TVM's cut of 'running_var' after its last '_')."""
    m, x, sm = _script(name, "trace")
    mod, params = from_pytorch(sm, [("input0", tuple(x.shape))], use_parser_friendly_name=friendly,
                               preserve_pytorch_scopes=True)
    want = TORCH_SCOPES[f"{name} friendly={friendly} scopes=True"]
    assert _signature(mod) == want["main"]
    assert list(params) == want["params"]


@pytest.mark.parametrize("scopes", [False, True])
def test_from_pytorch_exports_the_renamed_graph_as_tvm(tmp_path, scopes):
    """export_renamed_c_graph_path: a directory holding tvm_exported_c_graph_<time>.txt, the
    graph with its values renamed as TVM renames them (aten::linear_0_0, fc1_0_0)."""
    import re
    m, x, sm = _script("mlp", "trace")
    from_pytorch(sm, [("x", tuple(x.shape))], export_renamed_c_graph_path=str(tmp_path),
                 preserve_pytorch_scopes=scopes)
    (saved,) = list(tmp_path.glob("tvm_exported_c_graph_*.txt"))
    assert re.findall(r"^\s+%(\S+) :", saved.read_text(), re.M) == RENAMED["scopes" if scopes else "default"]


def test_tvm_standin_imports():
    """The ported import line: ``from relay_mlir.tvm import relay`` -> relay.frontend.*."""
    from relay_mlir.tvm import relay as tvm_relay
    mod, params = tvm_relay.frontend.from_onnx(small_onnx_model(), {"x": (1, 3, 6, 6)})
    assert params == {} and _signature(mod) == [("x", (1, 3, 6, 6), "float32")]


def test_from_onnx_opset_override():
    """opset replaces the model's (TVM's warning when lower); the ops convert as that opset:
    Softmax over axis 1 of a 3-D input is one softmax at opset 13, softmax of the flattened
    trailing dims before (the answers differ; each is onnxruntime's for that opset)."""
    def model(opset):
        g = helper.make_graph([helper.make_node("Softmax", ["x"], ["y"], axis=1)], "sm",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 4])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3, 4])])
        return helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)], ir_version=8)
    x = np.random.default_rng(1).standard_normal((2, 3, 4)).astype("float32")
    with pytest.warns(UserWarning, match="original opset ver = 13 by lower ver = 11"):
        mod, _ = from_onnx(model(13), opset=11)
    got = relay.create_executor("debug", mod=mod).evaluate()(x)
    got = got.numpy() if hasattr(got, "numpy") else got
    np.testing.assert_allclose(got, _ort(model(11), x), rtol=1e-5, atol=1e-6)
    assert not np.allclose(got, _ort(model(13), x), atol=1e-3)


def test_from_onnx_unfrozen_operands_operators_read_at_run_time():
    """freeze_params=False: float initializers that are operands, not weights (Resize's
    scales, Clip's bounds), are parameters too, as in TVM 0.19 (main recorded: x, scales,
    lo, hi, w), and the result is onnxruntime's."""
    inits = [numpy_helper.from_array(np.array([1, 1, 2, 2], "float32"), "scales"),
             numpy_helper.from_array(np.array(-0.5, "float32"), "lo"),
             numpy_helper.from_array(np.array(0.5, "float32"), "hi"),
             numpy_helper.from_array(np.full((1, 3, 1, 1), 0.25, "float32"), "w")]
    nodes = [helper.make_node("Resize", ["x", "", "scales"], ["r"], mode="nearest"),
             helper.make_node("Clip", ["r", "lo", "hi"], ["c"]),
             helper.make_node("Mul", ["c", "w"], ["y"])]
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 2, 2])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 3, 4, 4])], inits)
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)
    mod, params = from_onnx(model, freeze_params=False)
    assert [p.name_hint for p in mod["main"].params] == ["x", "scales", "lo", "hi", "w"]
    assert list(params) == ["scales", "lo", "hi", "w"]
    x = np.random.default_rng(2).standard_normal((1, 3, 2, 2)).astype("float32")
    got = relay.create_executor("debug", mod=mod).evaluate()(x, *[params[n].numpy() for n in list(params)])
    np.testing.assert_allclose(got.numpy() if hasattr(got, "numpy") else got, _ort(model, x), rtol=1e-6)
