"""export_library / tvm.runtime.load_module of relay_mlir.tvm: a TVM 0.19 deployment script,
changed only in its import lines, builds and exports in one fresh process and loads and runs in
another (with nothing but the exported file); its output equals TVM 0.19's (recorded: the same
script run in the side venv). The file also runs with plain iree-run-module; files that are not
such libraries, of another format version or for a target this process cannot run are clear
errors. One compile (in the build subprocess).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

import relay_mlir.tvm as tvm
from relay_mlir.tvm.runtime import package

from conftest import iree_tool, vulkan_device_reason

TVM_IMPORTS = "import tvm\nfrom tvm import relay\nfrom tvm.contrib import graph_executor\n"
PORTED_IMPORTS = ("import relay_mlir.tvm as tvm\nfrom relay_mlir.tvm import relay\n"
                  "from relay_mlir.tvm.contrib import graph_executor\n")

BUILD_SCRIPT = """import sys
import numpy as np
{imports}
data = relay.var("data", shape=(1, 3, 8, 8))
weight = relay.var("weight", shape=(4, 3, 3, 3))
bias = relay.var("bias", shape=(4,))
y = relay.nn.conv2d(data, weight, padding=(1, 1), channels=4, kernel_size=(3, 3))
y = relay.nn.relu(relay.nn.bias_add(y, bias))
y = relay.nn.batch_flatten(relay.nn.global_avg_pool2d(y))
mod = tvm.IRModule.from_expr(relay.Function([data, weight, bias], relay.nn.softmax(y * relay.const(4.0))))
params = {{"weight": tvm.nd.array(((np.arange(108).reshape(4, 3, 3, 3) % 7) - 3).astype("float32") / 10),
          "bias": np.array([0.1, -0.2, 0.3, 0.0], "float32")}}
with tvm.transform.PassContext(opt_level=3):
    lib = relay.build(mod, target="llvm", params=params)
lib.export_library(sys.argv[1])
"""
LOAD_SCRIPT = """import json, sys
import numpy as np
{imports}
lib = tvm.runtime.load_module(sys.argv[1])
dev = tvm.cpu(0)
module = graph_executor.GraphModule(lib["default"](dev))
x = (np.arange(192).reshape(1, 3, 8, 8) % 11 / 11).astype("float32")
module.set_input("data", x)
module.run()
out = module.get_output(0)
print(json.dumps([module.get_num_outputs(), list(out.shape), out.dtype, out.numpy().tolist()]))
"""
# LOAD_SCRIPT's output with TVM_IMPORTS, TVM 0.19 (side venv), after BUILD_SCRIPT with TVM_IMPORTS
TVM_OUTPUT = [1, [1, 4], "float32",
              [[0.19524545967578888, 0.14211603999137878, 0.43502098321914673, 0.2276175171136856]]]
TOL = dict(rtol=1e-5, atol=1e-6)  # float32 conv of 27 terms, softmax


def _run(script: str, arg: str, cwd: str) -> str:
    r = subprocess.run([sys.executable, "-c", script, arg], cwd=cwd, capture_output=True,
                       text=True, timeout=600, env=os.environ.copy())
    assert r.returncode == 0, r.stderr[-3000:]
    return r.stdout


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> str:
    """The library the ported build script wrote, alone in its directory."""
    d = tmp_path_factory.mktemp("deploy")
    path = str(d / "deploy_lib.so")
    _run(BUILD_SCRIPT.format(imports=PORTED_IMPORTS), path, str(d))
    assert os.listdir(d) == ["deploy_lib.so"]  # one file
    return path


def test_scripts_differ_from_tvms_only_in_imports():
    for script in (BUILD_SCRIPT, LOAD_SCRIPT):
        tvm_lines = script.format(imports=TVM_IMPORTS).splitlines()
        ported = script.format(imports=PORTED_IMPORTS).splitlines()
        changed = [(a, b) for a, b in zip(tvm_lines, ported) if a != b]
        assert len(tvm_lines) == len(ported) and len(changed) == 3
        assert all(b.startswith(("import relay_mlir.tvm", "from relay_mlir.tvm")) for _, b in changed)


def test_loaded_in_a_fresh_process_gives_tvms_output(exported, tmp_path):
    out = json.loads(_run(LOAD_SCRIPT.format(imports=PORTED_IMPORTS), exported, str(tmp_path)))
    assert out[:3] == TVM_OUTPUT[:3]
    np.testing.assert_allclose(out[3], TVM_OUTPUT[3], **TOL)


def test_loaded_library_runs_with_iree_run_module(exported, tmp_path):
    # iree-run-module loads a file named *.so as a system library: give it another name
    vmfb = tmp_path / "deploy_lib.vmfb"
    vmfb.write_bytes(open(exported, "rb").read())
    x = (np.arange(192).reshape(1, 3, 8, 8) % 11 / 11).astype("float32")
    np.save(tmp_path / "x.npy", x)
    out = tmp_path / "out.npy"
    r = subprocess.run([iree_tool("iree-run-module"), f"--module={vmfb}", "--function=main",
                        f"--input=@{tmp_path / 'x.npy'}", f"--output=@{out}"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    np.testing.assert_allclose(np.load(out), TVM_OUTPUT[3], **TOL)


def test_metadata_of_the_file(exported):
    vmfb, meta = package.read_package(exported)
    assert meta["format_version"] == package.FORMAT_VERSION == 1
    assert (meta["kind"], meta["target"], meta["driver"]) == ("graph", "llvm-cpu", "auto")
    assert meta["inputs"] == [{"name": "data", "shape": [1, 3, 8, 8], "dtype": "float32"}]
    assert meta["outputs"] == [{"name": "output0", "shape": [1, 4], "dtype": "float32"}]
    assert sorted(meta["bound_params"]) == ["bias", "weight"]
    assert vmfb[:4] == b"PK\x03\x04"  # the .vmfb (a zip-compatible IREE archive) comes first


def _rewrite(exported: str, path, **changes) -> str:
    vmfb, meta = package.read_package(exported)
    meta.update(changes)
    package.write_package(path, vmfb, meta)
    return str(path)


def test_files_of_another_kind_version_or_target_are_clear_errors(exported, tmp_path, monkeypatch):
    elf = tmp_path / "tvm_lib.so"
    elf.write_bytes(b"\x7fELF" + bytes(64))  # what TVM's export_library writes
    with pytest.raises(ValueError, match="is not a library written by relay_mlir.tvm's export_library"):
        tvm.runtime.load_module(str(elf))
    with pytest.raises(ValueError, match="cannot find file"):  # TVM 0.19's ValueError (also a FileNotFoundError)
        tvm.runtime.load_module(str(tmp_path / "missing.so"))
    data = open(exported, "rb").read()
    truncated = tmp_path / "truncated.so"
    truncated.write_bytes(data[-40:])
    with pytest.raises(ValueError, match="truncated"):
        tvm.runtime.load_module(str(truncated))
    newer = tmp_path / "v2.so"
    vmfb, meta = package.read_package(exported)
    text = json.dumps(dict(meta, format_version=2)).encode()
    newer.write_bytes(vmfb + text + len(text).to_bytes(8, "little") + package.MAGIC)
    with pytest.raises(ValueError, match="library format version 2; this relay-mlir reads version 1"):
        tvm.runtime.load_module(str(newer))
    with pytest.raises(ValueError, match="built for target 'opencl', which this relay-mlir does not know"):
        tvm.runtime.load_module(_rewrite(exported, tmp_path / "opencl.so", target="opencl"))
    with pytest.raises(ValueError, match="holds a 'tflite' module; this relay-mlir loads graph and vm"):
        tvm.runtime.load_module(_rewrite(exported, tmp_path / "tflite.so", kind="tflite"))
    with pytest.raises(ValueError, match="incomplete metadata"):  # a graph's metadata as a VM's
        tvm.runtime.load_module(_rewrite(exported, tmp_path / "vm.so", kind="vm"))
    with pytest.raises(ValueError, match="incomplete metadata"):
        tvm.runtime.load_module(_rewrite(exported, tmp_path / "noinputs.so", inputs=None))
    cuda = _rewrite(exported, tmp_path / "cuda.so", target="cuda", driver="cuda")
    import iree.runtime as rt
    monkeypatch.setattr(rt, "query_available_drivers", lambda: ["local-sync", "local-task"])
    with pytest.raises(ValueError, match="built for target cuda, whose IREE driver 'cuda' this "
                                         "process does not have \\(it has: local-sync, local-task\\)"):
        tvm.runtime.load_module(cuda)


def test_loaded_library_checks_the_device(exported):
    lib = tvm.runtime.load_module(exported)
    with pytest.raises(ValueError, match=r"built for target llvm-cpu \(a cpu device\) and cannot run on vulkan\(0\)"):
        lib["default"](tvm.vulkan(0))
    assert lib.get_params() == {}  # the constants are inside the compiled code


def test_vulkan_library_runs_on_the_vulkan_device(tmp_path):
    reason = vulkan_device_reason()
    if reason:
        pytest.skip(reason)
    from relay_mlir.tvm import relay
    from relay_mlir.tvm.contrib import graph_executor

    x = relay.var("x", shape=(2, 3))
    f = relay.Function([x], relay.nn.relu(x) * relay.const(2.0))
    relay.build(tvm.IRModule.from_expr(f), "vulkan").export_library(str(tmp_path / "vk.so"))
    lib = tvm.runtime.load_module(str(tmp_path / "vk.so"))
    with pytest.raises(ValueError, match=r"built for target vulkan-spirv \(a vulkan device\) and cannot run on cpu\(0\)"):
        lib["default"](tvm.cpu())
    m = graph_executor.GraphModule(lib["default"](tvm.vulkan(0)))
    xs = np.array([[1, -2, 3], [-4, 5, -6]], "float32")
    m.run(x=tvm.nd.array(xs, tvm.vulkan(0)))
    np.testing.assert_array_equal(m.get_output(0).numpy(), np.maximum(xs, 0) * 2)  # exact in f32
