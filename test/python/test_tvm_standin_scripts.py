"""Typical TVM 0.19 scripts, changed only in their import lines, run end to end on relay_mlir.tvm:
an ONNX CNN through from_onnx + relay.build + GraphModule (against onnxruntime), a traced torch
model through from_pytorch with its params bound at build time (against torch). One compile per
script; float32 tolerances stated per test.
"""
from __future__ import annotations

import numpy as np
import pytest

# TVM users have TorchScript (torch.jit.trace), which torch 2.x marks deprecated
pytestmark = pytest.mark.filterwarnings("ignore:`torch.jit.trace")

PORTED = ("import relay_mlir.tvm as tvm\nfrom relay_mlir.tvm import relay\n"
          "from relay_mlir.tvm.contrib import graph_executor\n")

ONNX_SCRIPT = PORTED + """
import onnx
onnx_model = onnx.load(model_path)
mod, params = relay.frontend.from_onnx(onnx_model, {"input": x.shape})
with tvm.transform.PassContext(opt_level=3):
    lib = relay.build(mod, target="llvm", params=params)
dev = tvm.cpu(0)
module = graph_executor.GraphModule(lib["default"](dev))
module.set_input("input", x)
module.run()
out = module.get_output(0).numpy()
"""


def _onnx_cnn(path):
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(7)
    inits = [numpy_helper.from_array(rng.standard_normal(s).astype("float32") * 0.3, n) for n, s in
             [("conv_w", (8, 3, 3, 3)), ("conv_b", (8,)), ("fc_w", (10, 8)), ("fc_b", (10,))]]
    nodes = [helper.make_node("Conv", ["input", "conv_w", "conv_b"], ["c"], pads=[1, 1, 1, 1]),
             helper.make_node("Relu", ["c"], ["r"]),
             helper.make_node("MaxPool", ["r"], ["p"], kernel_shape=[2, 2], strides=[2, 2]),
             helper.make_node("GlobalAveragePool", ["p"], ["g"]),
             helper.make_node("Flatten", ["g"], ["f"]),
             helper.make_node("Gemm", ["f", "fc_w", "fc_b"], ["logits"], transB=1),
             helper.make_node("Softmax", ["logits"], ["output"], axis=1)]
    graph = helper.make_graph(nodes, "cnn", [helper.make_tensor_value_info("input", TensorProto.FLOAT, ["N", 3, 16, 16])],
                              [helper.make_tensor_value_info("output", TensorProto.FLOAT, ["N", 10])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    onnx.save(model, path)
    return model


def test_onnx_cnn_script_matches_onnxruntime(tmp_path):
    import onnxruntime as ort

    path = str(tmp_path / "cnn.onnx")
    model = _onnx_cnn(path)
    x = np.random.default_rng(8).standard_normal((2, 3, 16, 16)).astype("float32")
    ns = {"model_path": path, "x": x}
    exec(ONNX_SCRIPT, ns)
    ref = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"input": x})[0]
    assert ns["params"] == {}  # TVM 0.19's default freeze_params=True
    np.testing.assert_allclose(ns["out"], ref, rtol=1e-4, atol=1e-6)  # 27-term convs, softmax


TORCH_SCRIPT = PORTED + """
scripted = torch.jit.trace(model.eval(), example).eval()
mod, params = relay.frontend.from_pytorch(scripted, [("input0", tuple(example.shape))])
with tvm.transform.PassContext(opt_level=3):
    lib = relay.build(mod, target="llvm", params=params)
module = graph_executor.GraphModule(lib["default"](tvm.cpu(0)))
module.set_input("input0", tvm.nd.array(example.numpy()))
module.run()
out = module.get_output(0).numpy()
"""


def test_traced_torch_script_matches_torch():
    import torch

    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Conv2d(3, 6, 3, padding=1), torch.nn.BatchNorm2d(6),
                                torch.nn.ReLU(), torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten(),
                                torch.nn.Linear(6, 4))
    with torch.no_grad():
        model[1].running_mean.uniform_(-0.5, 0.5)
        model[1].running_var.uniform_(0.5, 1.5)
    example = torch.randn(1, 3, 12, 12)
    ns = {"torch": torch, "model": model, "example": example}
    exec(TORCH_SCRIPT, ns)
    with torch.no_grad():
        ref = model.eval()(example).numpy()
    assert ns["params"] and all(isinstance(v, ns["tvm"].nd.NDArray) for v in ns["params"].values())
    np.testing.assert_allclose(ns["out"], ref, rtol=1e-4, atol=1e-5)  # batch norm folded at O3
    assert ns["lib"].get_params().keys() == ns["params"].keys()


@pytest.mark.parametrize("script", [ONNX_SCRIPT, TORCH_SCRIPT])
def test_scripts_use_only_the_stand_in(script):
    imports = [line for line in script.splitlines() if line.startswith(("import ", "from "))]
    assert all("relay_mlir.tvm" in line or line == "import onnx" for line in imports)
