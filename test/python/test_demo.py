"""The ResNet-style demo model: numpy reference, iree-run-module, Vulkan, CUDA/ROCm artifacts.

Tolerance: outputs are softmax probabilities; float32 vs the float64 numpy
reference must agree to atol 1e-5 / rtol 1e-4.
"""
from __future__ import annotations

import subprocess

import numpy as np
import pytest

import relay_mlir as relay
from relay_mlir.testing import numpy_ref
from relay_mlir.models import resnet

from conftest import iree_tool, vulkan_device_reason

TOL = dict(rtol=1e-4, atol=1e-5)


@pytest.fixture(scope="module")
def workload():
    mod, params = resnet.get_workload(batch_size=1, image_shape=(3, 32, 32), seed=0)
    data = np.random.default_rng(1).standard_normal((1, 3, 32, 32)).astype("float32")
    return mod, params, data


@pytest.fixture(scope="module")
def cpu_exe(workload):
    mod, params, _ = workload
    return relay.compile(mod, target="llvm-cpu", params=params)


@pytest.fixture(scope="module")
def cpu_out(cpu_exe, workload):
    return cpu_exe(workload[2])


def test_demo_inferred_type(workload):
    mod, _, _ = workload
    relay.transform.InferType()(mod)
    assert mod["main"].body.checked_type == relay.TensorType((1, 10))
    assert mod["main"].params[0].checked_type == relay.TensorType((1, 3, 32, 32))


def test_demo_matches_numpy(workload, cpu_out):
    _, params, data = workload
    want = numpy_ref.resnet_forward(params, data)
    assert cpu_out.shape == (1, 10)
    np.testing.assert_allclose(cpu_out, want, **TOL)
    assert abs(float(cpu_out.sum()) - 1.0) < 1e-5


def test_vmfb_runs_in_iree_run_module(tmp_path, workload, cpu_exe, cpu_out):
    vmfb = tmp_path / "resnet.vmfb"
    cpu_exe.save(vmfb)
    np.save(tmp_path / "data.npy", workload[2])
    out = tmp_path / "out.npy"
    r = subprocess.run([iree_tool("iree-run-module"), f"--module={vmfb}", "--device=local-task",
                        "--function=main", f"--input=@{tmp_path / 'data.npy'}", f"--output=@{out}"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    np.testing.assert_allclose(np.load(out), cpu_out, rtol=0, atol=0)


def test_vulkan_lavapipe_matches_cpu(workload, cpu_out):
    reason = vulkan_device_reason()
    if reason:
        pytest.skip(reason)
    mod, params, data = workload
    exe = relay.compile(mod, target="vulkan-spirv", params=params)
    got = exe(data)
    np.testing.assert_allclose(got, cpu_out, **TOL)


def _small_model():
    x = relay.var("x", shape=(1, 4, 8, 8))
    w = relay.const(np.random.default_rng(0).standard_normal((8, 4, 3, 3)).astype("float32"))
    y = relay.nn.relu(relay.nn.conv2d(x, w, padding=(1, 1)))
    return relay.IRModule.from_expr(relay.nn.softmax(relay.nn.batch_flatten(relay.nn.global_avg_pool2d(y))))


@pytest.mark.parametrize("target", ["cuda", "rocm"])
def test_gpu_targets_compile(tmp_path, target):
    exe = relay.compile(_small_model(), target=target)
    path = tmp_path / f"model_{target}.vmfb"
    exe.save(path)
    assert path.stat().st_size > 0 and len(exe.vmfb) > 0


def test_tuple_outputs_in_iree_run_module(tmp_path):
    """A two-output (tuple) main, saved as .vmfb and run by plain iree-run-module."""
    x = relay.var("x", shape=(2, 3))
    mod = relay.IRModule.from_expr(relay.Tuple([relay.exp(x), relay.sum(x, axis=1)]))
    exe = relay.compile(mod)
    data = np.random.default_rng(3).standard_normal((2, 3)).astype("float32")
    want = exe(data)
    assert isinstance(want, tuple) and len(want) == 2
    np.testing.assert_allclose(want[0], np.exp(data), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(want[1], data.sum(axis=1), rtol=1e-5, atol=1e-6)
    exe.save(tmp_path / "t.vmfb")
    np.save(tmp_path / "x.npy", data)
    r = subprocess.run([iree_tool("iree-run-module"), f"--module={tmp_path / 't.vmfb'}", "--device=local-task",
                        "--function=main", f"--input=@{tmp_path / 'x.npy'}",
                        f"--output=@{tmp_path / 'o0.npy'}", f"--output=@{tmp_path / 'o1.npy'}"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    np.testing.assert_array_equal(np.load(tmp_path / "o0.npy"), want[0])
    np.testing.assert_array_equal(np.load(tmp_path / "o1.npy"), want[1])


def test_iree_compile_failure_is_compile_error():
    x = relay.var("x", shape=(2,))
    with pytest.raises(relay.CompileError, match="iree-compile failed"):
        relay.compile(relay.IRModule.from_expr(relay.exp(x)), extra_args=["--iree-no-such-flag"])
