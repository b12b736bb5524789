"""Shared fixtures for the relay_mlir Python tests.

Tolerances are stated per test; compiled programs are cached per test
module (CI has 2 cores, so every model is compiled once).
"""
from __future__ import annotations

import functools
import os
import shutil
import sys
from pathlib import Path
from typing import List

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]


def cli_command(name: str) -> List[str]:
    """The command line that runs console script ``name`` (installed or from the package)."""
    beside = Path(sys.executable).parent / name  # the venv's console script, even if not on PATH
    if beside.exists():
        return [str(beside)]
    exe = shutil.which(name)
    if exe:
        return [exe]
    if name == "relay-mlir":
        return [sys.executable, "-m", "relay_mlir.cli"]
    if name == "relay-mlir-opt":
        bin_dir = os.environ.get("RELAY_MLIR_BIN_DIR")
        if bin_dir and os.path.exists(os.path.join(bin_dir, name)):
            return [os.path.join(bin_dir, name)]
        from relay_mlir._tools import tool_path
        p = tool_path("relay-mlir-opt")
        if p.exists():
            return [str(p)]
        for cand in sorted(ROOT.glob("build/*/bin/relay-mlir-opt")):
            return [str(cand)]
    pytest.fail(f"{name} is not installed: the package install is broken")


def iree_tool(name: str) -> str:
    exe = shutil.which(name) or str(Path(sys.executable).parent / name)
    if not os.path.exists(exe):
        pytest.fail(f"{name} not found: iree-base-compiler/runtime are dependencies of relay-mlir")
    return exe


@functools.lru_cache(maxsize=None)
def vulkan_device_reason() -> str:
    """'' if IREE sees a Vulkan device, else why not."""
    try:
        import iree.runtime as rt
        if "vulkan" not in rt.query_available_drivers():
            return "IREE runtime has no vulkan driver"
        drv = rt.get_driver("vulkan")
        if not drv.query_available_devices():
            return "no Vulkan device present"
        return ""
    except Exception as e:  # driver creation fails without a loader/ICD
        return f"no Vulkan device present ({str(e).splitlines()[0] if str(e) else type(e).__name__})"


@pytest.fixture(scope="session")
def rng() -> np.random.Generator:
    return np.random.default_rng(1234)


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "slow: runs for minutes (still part of CI); deselect with -m 'not slow' locally")


def gradient_runners(mod, g):
    """The gradient function ``g`` (with ``mod``'s functions and types) in the reference
    interpreter and compiled for llvm-cpu: two callables of the same arguments."""
    import relay_mlir as relay
    full = relay.IRModule()
    full.update(mod)
    full["main"] = g
    interp = relay.create_executor("debug", mod=full).evaluate()
    exe = relay.compile(full, target="llvm-cpu")
    return interp, lambda *a: exe.run("main", *a)


# MLIR text whose parse aborts the process (a block redefined in a region that a forward
# reference reaches; the pre-parse scan does not look at sibling regions): the tests of crash
# isolation feed it to the worker (test_robustness, test_data_path).
PARSER_ABORTING_MLIR = """\
func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  %f1 = relay.fn : !relay.fn<(tensor<2xf32>) -> tensor<2xf32>> {
  ^bb0(%x: tensor<2xf32>):
    relay.yield %s : tensor<2xf32>
  }
  %f2 = relay.fn : !relay.fn<(tensor<2xf32>) -> tensor<2xf32>> {
  ^bb0(%y: tensor<2xf32>):
    %s = relay.add %y, %y : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  ^bb0(%z: tensor<2xf32>):
    relay.yield %s : tensor<2xf32>
  }
  return %a : tensor<2xf32>
}
"""
