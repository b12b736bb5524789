"""`relay-mlir compile|run model.onnx`: ONNX models through the command line, and the progress display."""
from __future__ import annotations

import io
import os
import subprocess
import time

import numpy as np
import pytest

from conftest import cli_command

onnx = pytest.importorskip("onnx")
from onnx import TensorProto, helper as oh, numpy_helper as nh  # noqa: E402


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=600, **kw)


def _model(nodes, inputs, outputs, inits=(), name="tiny"):
    g = oh.make_graph(nodes, name, inputs, outputs, list(inits))
    m = oh.make_model(g, opset_imports=[oh.make_opsetid("", 17)])
    m.ir_version = 10
    onnx.checker.check_model(m)
    return m


W = np.random.default_rng(0).standard_normal((4, 3)).astype("float32")
B = np.arange(4, dtype="float32")


def reference(x):
    h = x @ W.T + B
    return np.maximum(h, 0), 1 / (1 + np.exp(-h))


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """tiny.onnx: x[N,3] -> Gemm(W, B) -> (Relu -> y, Sigmoid -> z); N symbolic."""
    d = tmp_path_factory.mktemp("cli_onnx")
    m = _model([oh.make_node("Gemm", ["x", "w", "b"], ["h"], transB=1, name="fc"),
                oh.make_node("Relu", ["h"], ["y"], name="relu"),
                oh.make_node("Sigmoid", ["h"], ["z"], name="sig")],
               [oh.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3])],
               [oh.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 4]),
                oh.make_tensor_value_info("z", TensorProto.FLOAT, ["N", 4])],
               [nh.from_array(W, "w"), nh.from_array(B, "b")])
    out = {"dir": d, "tiny": d / "tiny.onnx", "x": d / "x.npy"}
    onnx.save(m, out["tiny"])
    np.save(out["x"], np.random.default_rng(1).standard_normal((2, 3)).astype("float32"))
    # an op type no converter knows (built without the checker, which would reject it)
    g = oh.make_graph([oh.make_node("Relu", ["x"], ["h"], name="ok"),
                       oh.make_node("NotAnOnnxOp", ["h"], ["y"], name="mystery")], "bad",
                      [oh.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
                      [oh.make_tensor_value_info("y", TensorProto.FLOAT, [2])])
    bad = oh.make_model(g, opset_imports=[oh.make_opsetid("", 17)])
    bad.ir_version = 10
    out["bad"] = d / "bad.onnx"
    onnx.save(bad, out["bad"])
    return out


def test_compile_onnx_then_run_vmfb(files):
    vmfb = files["dir"] / "tiny.vmfb"
    r = run(cli_command("relay-mlir") + ["compile", str(files["tiny"]), "-o", str(vmfb), "--target", "llvm-cpu",
                                         "--shape", "x=2,3"])
    assert r.returncode == 0, r.stderr
    assert vmfb.stat().st_size > 0
    # every stage is reported with its time
    for stage in ("import", "infer", "lower", "iree-compile"):
        assert stage in r.stdout
    npz = files["dir"] / "from_vmfb.npz"
    r = run(cli_command("relay-mlir") + ["run", str(vmfb), "--input", str(files["x"]), "--output", str(npz),
                                         "--runs", "2"])
    assert r.returncode == 0, r.stderr
    y, z = reference(np.load(files["x"]))
    out = np.load(npz)
    np.testing.assert_allclose(out["output_0"], y, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(out["output_1"], z, rtol=1e-5, atol=1e-6)


def test_run_onnx_named_outputs(files):
    """`run model.onnx`: symbolic N taken from the array; outputs saved under their ONNX names."""
    npz = files["dir"] / "out.npz"
    r = run(cli_command("relay-mlir") + ["run", str(files["tiny"]), "--input", f"x={files['x']}",
                                         "--output", str(npz), "--runs", "3"])
    assert r.returncode == 0, r.stderr
    y, z = reference(np.load(files["x"]))
    assert "output 0 (y): shape=(2, 4)" in r.stdout and "output 1 (z): shape=(2, 4)" in r.stdout
    assert f"checksum(sum)={float(y.astype(np.float64).sum()):.3e}"[:-4] in r.stdout
    assert "latency: median" in r.stdout and "over 3 run(s)" in r.stdout
    out = np.load(npz)
    assert sorted(out.files) == ["y", "z"]
    np.testing.assert_allclose(out["y"], y, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(out["z"], z, rtol=1e-5, atol=1e-6)
    # stderr is not a terminal: no progress display
    assert r.stderr == ""


def test_run_onnx_other_batch(files):
    x5 = files["dir"] / "x5.npy"
    np.save(x5, np.ones((5, 3), "float32"))
    npz = files["dir"] / "out5.npz"
    r = run(cli_command("relay-mlir") + ["run", str(files["tiny"]), "--input", str(x5), "--output", str(npz),
                                         "--runs", "1", "--quiet"])
    assert r.returncode == 0, r.stderr
    np.testing.assert_allclose(np.load(npz)["y"], reference(np.ones((5, 3), "float32"))[0], rtol=1e-5)


def test_run_onnx_unknown_input_name(files):
    r = run(cli_command("relay-mlir") + ["run", str(files["tiny"]), "--input", f"nope={files['x']}"])
    assert r.returncode == 1
    assert "unknown input name(s) nope" in r.stderr and "x" in r.stderr and "Traceback" not in r.stderr


def test_unsupported_onnx_op_is_reported(files):
    r = run(cli_command("relay-mlir") + ["compile", str(files["bad"]), "-o", str(files["dir"] / "bad.vmfb")])
    assert r.returncode == 1
    assert "NotAnOnnxOp" in r.stderr and "error" in r.stderr and "Traceback" not in r.stderr


def test_bad_shape_option(files):
    r = run(cli_command("relay-mlir") + ["compile", str(files["tiny"]), "--shape", "x=2,three"])
    assert r.returncode == 1 and "--shape" in r.stderr and "Traceback" not in r.stderr


def test_missing_onnx_file(files):
    r = run(cli_command("relay-mlir") + ["run", str(files["dir"] / "nope.onnx")])
    assert r.returncode == 1 and "nope.onnx" in r.stderr and "Traceback" not in r.stderr


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal (POSIX)")
@pytest.mark.parametrize("quiet", [False, True])
def test_progress_on_a_terminal(files, quiet):
    """With stderr on a terminal the stages and elapsed times are drawn on stderr; --quiet turns it off."""
    master, slave = os.openpty()
    try:
        cmd = cli_command("relay-mlir") + ["compile", str(files["tiny"]), "--shape", "x=2,3",
                                           "-o", str(files["dir"] / f"tty{quiet}.vmfb")] + (["--quiet"] if quiet else [])
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=slave, timeout=600)
        os.close(slave)
        slave = -1
        chunks = []
        while True:
            try:
                data = os.read(master, 4096)
            except OSError:  # EIO once the child side is closed
                break
            if not data:
                break
            chunks.append(data)
    finally:
        if slave >= 0:
            os.close(slave)
        os.close(master)
    err = b"".join(chunks).decode(errors="replace")
    assert p.returncode == 0, err
    if quiet:
        assert err == ""
    else:
        for stage in ("import", "infer", "lower", "iree-compile", "total"):
            assert stage in err, err
        assert "\r" in err  # redrawn in place


def test_progress_object_records_stages():
    from relay_mlir.cli import Progress

    buf = io.StringIO()
    p = Progress(enabled=True, stream=buf, interval=0.01)
    with p:
        with p.stage("import"):
            pass
        with p.stage("lower"):
            time.sleep(0.05)
    assert [n for n, _ in p.times] == ["import", "lower"]
    last = buf.getvalue().rstrip("\n").split("\r")[-1]
    assert "import" in last and "lower" in last and "total" in last
    assert buf.getvalue().endswith("\n")
