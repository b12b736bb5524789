"""relay.build with TVM's heterogeneous target dict (``{"cpu": "llvm", "vulkan": "vulkan"}``):
``main`` placed by its ``on_device`` annotations into one module for two IREE devices
(relay_mlir.devices), run through graph_executor.GraphModule; values checked with numpy."""
import subprocess
import sys

import numpy as np
import pytest

import relay_mlir.tvm as tvm
from relay_mlir.tvm import relay
from relay_mlir.tvm.contrib import graph_executor


def _program():
    x = relay.var("x", shape=(2, 3), dtype="float32")
    w = relay.var("w", shape=(2, 3), dtype="float32")
    on_gpu = relay.annotation.on_device(relay.nn.relu(relay.add(x, w)), tvm.vulkan())
    return tvm.IRModule.from_expr(relay.Function([x, w], relay.multiply(on_gpu, relay.const(3.0))))


@pytest.fixture(scope="module")
def lib():
    w = np.arange(6, dtype="float32").reshape(2, 3) - 2.5
    with tvm.transform.PassContext(opt_level=3):
        built = relay.build(_program(), target={"cpu": "llvm", "vulkan": "vulkan"}, params={"w": w})
    return built, w


def test_heterogeneous_build_runs_on_both_devices(lib):
    built, w = lib
    assert sorted(set(built.executable.devices.values())) == ["llvm-cpu", "vulkan-spirv"]
    assert {dev for _, dev in built.executable.stages} == {"cpu", "vulkan"}
    m = graph_executor.GraphModule(built["default"](tvm.cpu(0), tvm.vulkan(0)))
    x = np.linspace(-3, 3, 6, dtype="float32").reshape(2, 3)
    m.set_input("x", x)
    m.run()
    np.testing.assert_allclose(m.get_output(0).numpy(), np.maximum(x + w, 0) * 3, rtol=1e-6)
    assert m.get_num_inputs() == 1  # the bound param is a constant


def test_heterogeneous_build_needs_a_device_per_target(lib):
    built, _ = lib
    with pytest.raises(ValueError, match=r"none given for vulkan \(vulkan-spirv\)"):
        built["default"](tvm.cpu(0))


# a fresh process: nothing of the build is left but the file
LOAD_AND_RUN = """
import sys
import numpy as np
import relay_mlir.tvm as tvm
from relay_mlir.tvm.contrib import graph_executor
lib = tvm.runtime.load_module(sys.argv[1])
print(sorted(lib.executable.devices.items()), lib.executable.stages)
m = graph_executor.GraphModule(lib["default"](tvm.cpu(0), tvm.vulkan(0)))
m.set_input("x", np.load(sys.argv[2]))
m.run()
np.save(sys.argv[3], m.get_output(0).numpy())
"""


def test_heterogeneous_build_exports_one_file_run_in_a_fresh_process(lib, tmp_path):
    built, w = lib
    path, x_path, out_path = tmp_path / "two_devices.so", tmp_path / "x.npy", tmp_path / "out.npy"
    built.export_library(str(path))
    x = np.linspace(-3, 3, 6, dtype="float32").reshape(2, 3)
    np.save(x_path, x)
    r = subprocess.run([sys.executable, "-c", LOAD_AND_RUN, str(path), str(x_path), str(out_path)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "('cpu', 'llvm-cpu'), ('vulkan', 'vulkan-spirv')" in r.stdout
    np.testing.assert_allclose(np.load(out_path), np.maximum(x + w, 0) * 3, rtol=1e-6)


def test_heterogeneous_library_without_a_driver_is_refused(lib, tmp_path, monkeypatch):
    import iree.runtime as rt

    path = tmp_path / "two_devices.so"
    lib[0].export_library(str(path))
    monkeypatch.setattr(rt, "query_available_drivers", lambda: ["local-task"])
    with pytest.raises(ValueError, match=r"no IREE driver for vulkan \(vulkan\)"):
        tvm.runtime.load_module(str(path))
