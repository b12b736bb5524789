"""Held-out TVM 0.19 scripts, changed only in their import lines, against TVM 0.19's results.

Each script below was written as a TVM user writes one (tutorial style), run unchanged in the
side venv (/work/tvmvenv: TVM 0.19.0, onnx 1.16.2, TOPHUB_LOCATION=NONE), and its results are
recorded here as data; the test runs the same text with relay_mlir.tvm's imports:

* ONNX_SCRIPT: an ONNX CNN (onnx.helper) through ``from_onnx(..., freeze_params=False)``,
  ``relay.build`` at opt level 3 without the params, so the weights are run-time inputs
  that ``graph_executor.GraphModule``'s ``set_input(**params)`` sets and ``set_input`` swaps
  without building again. (TVM gives the same output when the params are bound at build
  time: ``out`` below.)
* ERRORS_SCRIPT: bad input to a built graph and to ``load_module`` (what TVM raised is recorded
  in ``TVM_ERRORS``; relay-mlir's errors are of TVM's class or clearer, and name what was
  expected).
* AOT_SCRIPT: ``relay.build(..., executor=Executor("aot"))`` run with
  ``tvm.runtime.executor.AotModule``, exported and loaded again.

Three compiles in all (module fixtures).
"""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("onnx")

PORTED = {"import tvm\n": "import relay_mlir.tvm as tvm\n",
          "from tvm import relay\n": "from relay_mlir.tvm import relay\n",
          "from tvm.contrib import graph_executor\n": "from relay_mlir.tvm.contrib import graph_executor\n",
          "from tvm.relay.backend import Executor\n": "from relay_mlir.tvm.relay.backend import Executor\n"}


def ported(script: str) -> str:
    """``script`` with TVM's import lines replaced by relay_mlir.tvm's (and nothing else)."""
    lines = script.splitlines(keepends=True)
    return "".join(PORTED.get(line, line) for line in lines)


def run(script: str) -> dict:
    ns: dict = {"print": lambda *a, **k: None}
    exec(compile(ported(script), "<ported TVM script>", "exec"), ns)
    return ns


ONNX_SCRIPT = """import numpy as np
from onnx import helper, TensorProto, numpy_helper
import tvm
from tvm import relay
from tvm.contrib import graph_executor

rng = np.random.default_rng(0)
W1 = rng.standard_normal((8, 3, 3, 3)).astype("float32") * 0.3
B1 = rng.standard_normal((8,)).astype("float32") * 0.1
W2 = rng.standard_normal((10, 8 * 4 * 4)).astype("float32") * 0.1
B2 = rng.standard_normal((10,)).astype("float32") * 0.1
nodes = [
    helper.make_node("Conv", ["input", "conv.w", "conv.b"], ["c"], pads=[1, 1, 1, 1]),
    helper.make_node("Relu", ["c"], ["r"]),
    helper.make_node("MaxPool", ["r"], ["p"], kernel_shape=[2, 2], strides=[2, 2]),
    helper.make_node("Flatten", ["p"], ["f"], axis=1),
    helper.make_node("Gemm", ["f", "fc.w", "fc.b"], ["g"], transB=1),
    helper.make_node("Softmax", ["g"], ["output"], axis=1),
]
graph = helper.make_graph(
    nodes, "cnn",
    [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 3, 8, 8])],
    [helper.make_tensor_value_info("output", TensorProto.FLOAT, [1, 10])],
    [numpy_helper.from_array(W1, "conv.w"), numpy_helper.from_array(B1, "conv.b"),
     numpy_helper.from_array(W2, "fc.w"), numpy_helper.from_array(B2, "fc.b")])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
model.ir_version = 8

x = rng.random((1, 3, 8, 8)).astype("float32")
mod, params = relay.frontend.from_onnx(model, {"input": x.shape}, freeze_params=False)
param_names = sorted(params)
main_params = [p.name_hint for p in mod["main"].params]
with tvm.transform.PassContext(opt_level=3):
    lib = relay.build(mod, target="llvm")
dev = tvm.cpu(0)
module = graph_executor.GraphModule(lib["default"](dev))
module.set_input(**params)
module.set_input("input", tvm.nd.array(x))
module.run()
out = module.get_output(0).numpy()
counts = (module.get_num_outputs(), module.get_input_index("input"), module.get_input_index("nope"))
module.set_input("fc.b", np.zeros(10, "float32"))
module.run()
out3 = module.get_output(0).numpy()
n_unbound = module.get_num_inputs()
"""
# TVM 0.19 (side venv), ONNX_SCRIPT's values
TVM_ONNX = {
    "param_names": ["conv.b", "conv.w", "fc.b", "fc.w"],
    "main_params": ["input", "conv.w", "conv.b", "fc.w", "fc.b"],
    "counts": (1, 0, -1), "n_unbound": 5,
    "out": [0.05000662, 0.03897511, 0.06965832, 0.1108359, 0.1000389, 0.01549885, 0.2133324,
            0.04814824, 0.236546, 0.1169596],
    "out3": [0.05467247, 0.04449516, 0.06717127, 0.1030929, 0.1064984, 0.01481738, 0.2233973,
             0.04899181, 0.2353796, 0.1014836],
}


@pytest.fixture(scope="module")
def onnx_run():
    return run(ONNX_SCRIPT)


def test_scripts_differ_from_tvms_only_in_imports():
    for script in (ONNX_SCRIPT, ERRORS_SCRIPT, AOT_SCRIPT):
        a, b = script.splitlines(), ported(script).splitlines()
        changed = [x for x, y in zip(a, b) if x != y]
        assert len(a) == len(b) and changed and all(x.startswith(("import tvm", "from tvm")) for x in changed)


def test_onnx_script_gives_tvms_results(onnx_run):
    ns = onnx_run
    for key in ("param_names", "main_params", "counts", "n_unbound"):
        assert ns[key] == TVM_ONNX[key], key
    assert all(type(v).__name__ == "NDArray" for v in ns["params"].values())
    # TVM's recorded values have 7 significant digits; a softmax of a small float32 CNN
    np.testing.assert_allclose(ns["out"][0], TVM_ONNX["out"], rtol=2e-5, atol=1e-7)
    np.testing.assert_allclose(ns["out3"][0], TVM_ONNX["out3"], rtol=2e-5, atol=1e-7)  # a swapped bias


ERRORS_SCRIPT = """import os, tempfile
import numpy as np
import tvm
from tvm import relay
from tvm.contrib import graph_executor

x = relay.var("x", shape=(2, 3))
mod = tvm.IRModule.from_expr(relay.Function([x], relay.nn.relu(x)))
with tvm.transform.PassContext(opt_level=3):
    lib = relay.build(mod, target="llvm")
m = graph_executor.GraphModule(lib["default"](tvm.cpu()))
errors = {}
def attempt(what, f):
    try:
        f()
        errors[what] = None
    except Exception as e:
        errors[what] = e
attempt("unknown name", lambda: m.set_input("y", np.zeros((2, 3), "float32")))
attempt("wrong shape", lambda: m.set_input("x", np.zeros((3, 2), "float32")))
attempt("float64 numpy", lambda: m.set_input("x", np.zeros((2, 3), "float64")))
attempt("kwargs not inputs", lambda: m.set_input(**{"zz": np.zeros(1)}))
tmp = tempfile.mkdtemp()
foreign = os.path.join(tmp, "other.so")
with open(foreign, "wb") as f:
    f.write(b"\\x7fELF" + b"\\0" * 100)
attempt("load foreign", lambda: tvm.runtime.load_module(foreign))
attempt("load missing", lambda: tvm.runtime.load_module(os.path.join(tmp, "none.so")))
"""
# TVM 0.19 (side venv): the class of what ERRORS_SCRIPT caught (None: no error) and its message
TVM_ERRORS = {
    "unknown name": (RuntimeError, "Could not find 'y' in graph's inputs"),
    "wrong shape": (ValueError, "array shape do not match the shape of NDArray (3, 2) vs (2, 3)"),
    "float64 numpy": (None, ""),      # copied with a cast
    "kwargs not inputs": (None, ""),  # skipped
    "load foreign": (RuntimeError, "Failed to load dynamic shared library ... wrong ELF class"),  # InternalError
    "load missing": (ValueError, "cannot find file ..."),
}


def test_bad_input_errors_are_tvms_kind_and_name_what_was_expected():
    errors = run(ERRORS_SCRIPT)["errors"]
    assert set(errors) == set(TVM_ERRORS)
    for what in ("unknown name", "wrong shape", "load missing"):
        assert isinstance(errors[what], TVM_ERRORS[what][0]), (what, errors[what])
    assert errors["float64 numpy"] is None and errors["kwargs not inputs"] is None
    assert "Could not find 'y' in graph's inputs" in str(errors["unknown name"])
    assert "the inputs are: x" in str(errors["unknown name"])
    assert "expects shape (2, 3), got (3, 2)" in str(errors["wrong shape"])
    # TVM fails inside dlopen; here a ValueError saying what the file should have been
    assert isinstance(errors["load foreign"], ValueError)
    assert "not a library written by relay_mlir.tvm's export_library" in str(errors["load foreign"])
    assert "cannot find file" in str(errors["load missing"])
    assert isinstance(errors["load missing"], FileNotFoundError)


AOT_SCRIPT = """import os, tempfile
import numpy as np
import tvm
from tvm import relay
from tvm.contrib import graph_executor
from tvm.relay.backend import Executor

x = relay.var("x", shape=(2, 3))
y = relay.var("y", shape=(3,))
amod = tvm.IRModule.from_expr(relay.Function([x, y], relay.nn.relu(x) * y))
alib = relay.build(amod, target="llvm", executor=Executor("aot"), params={"y": np.array([1, 2, 3], "float32")})
kind = type(alib).__name__
am = tvm.runtime.executor.AotModule(alib["default"](tvm.cpu()))
am.set_input("x", np.array([[-1, 2, 3], [4, -5, 6]], "float32"))
am.run()
counts = (am.get_num_inputs(), am.get_num_outputs(), am.get_input_index("x"), am.get_input_name(0))
out = am.get_output(0).numpy().tolist()
info = am.get_input_info()
try:
    graph_executor.GraphModule(alib["default"](tvm.cpu()))
    graph_error = None
except Exception as e:
    graph_error = e
try:
    am.set_input("q", np.zeros((2, 3), "float32"))
    unknown_error = None
except Exception as e:
    unknown_error = e
path = os.path.join(tempfile.mkdtemp(), "aot.so")
alib.export_library(path)
loaded = tvm.runtime.load_module(path)
loaded_key = loaded.type_key
m = tvm.runtime.executor.AotModule(loaded["default"](tvm.cpu()))
m.run(x=np.ones((2, 3), "float32"))
loaded_out = m.get_output(0).numpy().tolist()
"""
# TVM 0.19 (side venv), AOT_SCRIPT's values; graph_error: AttributeError "Module has no function
# 'get_input_info'"; unknown_error: InternalError (a RuntimeError) "Invalid input name."
TVM_AOT = {"kind": "AOTExecutorFactoryModule", "counts": (1, 1, 0, "x"),
           "out": [[0.0, 4.0, 9.0], [4.0, 0.0, 18.0]], "info": ({"x": (2, 3)}, {"x": "float32"}),
           "loaded_key": "AotExecutorFactory", "loaded_out": [[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]}


def test_aot_executor_script_gives_tvms_results():
    ns = run(AOT_SCRIPT)
    for key, value in TVM_AOT.items():
        assert ns[key] == value, key
    assert isinstance(ns["graph_error"], AttributeError)
    assert "Module has no function 'get_input_info'" in str(ns["graph_error"])
    assert "AotModule" in str(ns["graph_error"])
    assert isinstance(ns["unknown_error"], RuntimeError) and "'q'" in str(ns["unknown_error"])
