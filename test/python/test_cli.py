"""`relay-mlir` and `relay-mlir-opt` command lines: success paths and located errors."""
from __future__ import annotations

import subprocess

import numpy as np
import pytest

from conftest import cli_command

GOOD = """func.func @main(%x: tensor<2x3xf32>, %b: tensor<3xf32>) -> !relay.incomplete {
  %0 = relay.add %x, %b : (tensor<2x3xf32>, tensor<3xf32>) -> !relay.incomplete
  %1 = relay.nn.relu %0 : (!relay.incomplete) -> !relay.incomplete
  return %1 : !relay.incomplete
}
"""
BAD_SYNTAX = """func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = relay.exp %x : (tensor<2xf32>) -> 
  return %0 : tensor<2xf32>
}
"""
SHAPE_MISMATCH = """func.func @main(%a: tensor<2x3xf32>, %b: tensor<4xf32>) -> !relay.incomplete {
  %0 = relay.add %a, %b : (tensor<2x3xf32>, tensor<4xf32>) -> !relay.incomplete
  return %0 : !relay.incomplete
}
"""
WRONG_DTYPE = """func.func @main(%a: tensor<3xf32>, %b: tensor<3xi32>) -> !relay.incomplete {
  %0 = relay.multiply %a, %b : (tensor<3xf32>, tensor<3xi32>) -> !relay.incomplete
  return %0 : !relay.incomplete
}
"""
UNKNOWN_OP = """func.func @main(%a: tensor<3xf32>) -> !relay.incomplete {
  %0 = relay.frobnicate %a : (tensor<3xf32>) -> !relay.incomplete
  return %0 : !relay.incomplete
}
"""


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=600, **kw)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("cli")
    out = {}
    for name, text in [("good", GOOD), ("bad_syntax", BAD_SYNTAX), ("shape_mismatch", SHAPE_MISMATCH),
                       ("wrong_dtype", WRONG_DTYPE), ("unknown_op", UNKNOWN_OP)]:
        p = d / f"{name}.mlir"
        p.write_text(text)
        out[name] = p
    rng = np.random.default_rng(0)
    out["x"], out["b"] = d / "x.npy", d / "b.npy"
    np.save(out["x"], rng.standard_normal((2, 3)).astype("float32"))
    np.save(out["b"], rng.standard_normal(3).astype("float32"))
    out["dir"] = d
    return out


def _expected(files):
    x, b = np.load(files["x"]), np.load(files["b"])
    return np.maximum(x + b, 0)


def test_compile_then_run_vmfb(files):
    vmfb = files["dir"] / "good.vmfb"
    r = run(cli_command("relay-mlir") + ["compile", str(files["good"]), "-o", str(vmfb), "--target", "llvm-cpu"])
    assert r.returncode == 0, r.stderr
    assert vmfb.stat().st_size > 0
    npz = files["dir"] / "out.npz"
    r = run(cli_command("relay-mlir") + ["run", str(vmfb), "--input", str(files["x"]), "--input", str(files["b"]),
                                         "--output", str(npz), "--runs", "2"])
    assert r.returncode == 0, r.stderr
    assert "shape=(2, 3)" in r.stdout and "checksum" in r.stdout and "latency" in r.stdout
    np.testing.assert_allclose(np.load(npz)["output_0"], _expected(files), rtol=1e-6)


def test_run_mlir_with_named_inputs(files):
    # names given out of order are matched to @main's arguments
    npz = files["dir"] / "named.npz"
    r = run(cli_command("relay-mlir") + ["run", str(files["good"]), "--input", f"b={files['b']}",
                                         "--input", f"x={files['x']}", "--output", str(npz), "--runs", "1"])
    assert r.returncode == 0, r.stderr
    np.testing.assert_allclose(np.load(npz)["output_0"], _expected(files), rtol=1e-6)


@pytest.mark.parametrize("name,line", [("bad_syntax", 2), ("shape_mismatch", 2), ("wrong_dtype", 2),
                                       ("unknown_op", 2)])
def test_relay_mlir_errors_are_located(files, name, line):
    path = files[name]
    r = run(cli_command("relay-mlir") + ["compile", str(path), "-o", str(files["dir"] / "x.vmfb")])
    assert r.returncode == 1
    assert f"{path}:{line}:" in r.stderr and "error:" in r.stderr
    assert "Traceback" not in r.stderr


def test_relay_mlir_missing_file(files):
    r = run(cli_command("relay-mlir") + ["run", str(files["dir"] / "nope.mlir")])
    assert r.returncode == 1 and "nope.mlir" in r.stderr and "Traceback" not in r.stderr


@pytest.mark.parametrize("name", ["bad_syntax", "shape_mismatch", "wrong_dtype", "unknown_op"])
def test_relay_mlir_opt_errors_are_located(files, name):
    path = files[name]
    r = run(cli_command("relay-mlir-opt") + ["--relay-infer-type", str(path)])
    assert r.returncode != 0
    assert f"{path}:2:" in r.stderr and "error:" in r.stderr


def test_demo_command():
    r = run(cli_command("relay-mlir") + ["demo", "--runs", "3"])
    assert r.returncode == 0, r.stdout + r.stderr
    assert "max abs error" in r.stdout and "median latency" in r.stdout and "compiled for llvm-cpu" in r.stdout


def test_demo_fails_above_tolerance(monkeypatch, capsys):
    """A result off by more than the tolerance makes `relay-mlir demo` exit 1 (no compile: a fake executable)."""
    import relay_mlir.cli as cli

    class Fake:
        target, compile_time_s, lower_time_s, iree_time_s = "llvm-cpu", 0.0, 0.0, 0.0

        def __call__(self, data):
            return np.full((data.shape[0], 10), 0.5, "float32")

        def benchmark(self, *inputs, runs=1):
            return [1e-3] * runs

    monkeypatch.setattr(cli, "compile_program", lambda *a, **k: Fake())
    assert cli.main(["demo", "--runs", "1"]) == 1
    err = capsys.readouterr().err
    assert "differs from the numpy reference" in err
