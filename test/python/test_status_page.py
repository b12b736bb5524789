"""docs/status.md is generated from the repository (scripts/gen_status.py) and must be current.

Also checks the generator's detection where the code has an authoritative
answer: the gradient rules read from lib/Gradient's source are the rules
``relay-mlir-opt --list-gradient-rules`` reports, and every ODS op has a
row. Fast: no compilation (llvm-tblgen reads the ODS files, as for
docs/ops.md).
"""
from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "gen_status.py"


def _gen():
    spec = importlib.util.spec_from_file_location("gen_status", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # (dataclasses look their module up)
    spec.loader.exec_module(mod)
    return mod


def test_status_page_is_current() -> None:
    proc = subprocess.run([sys.executable, str(SCRIPT), "--check"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr + "\nrun: python scripts/gen_status.py"


def test_every_op_has_a_row() -> None:
    text = (ROOT / "docs" / "status.md").read_text()
    rows = set(re.findall(r"^\| `(relay\.[\w.]+)` \|", text, re.M))
    ops_md = (ROOT / "docs" / "ops.md").read_text()
    listed = set(re.findall(r"^\| `(relay\.[\w.]+)` \|", ops_md, re.M))
    assert rows == listed


def _opt() -> str:
    bin_dir = os.environ.get("RELAY_MLIR_BIN_DIR")
    if bin_dir:
        return str(Path(bin_dir) / "relay-mlir-opt")
    from relay_mlir._tools import tool_path
    return str(tool_path("relay-mlir-opt"))


def test_gradient_rules_read_from_source_match_the_table() -> None:
    try:
        out = subprocess.run([_opt(), "--list-gradient-rules"], check=True, capture_output=True,
                             text=True).stdout.split()
    except (OSError, subprocess.CalledProcessError, FileNotFoundError) as e:
        pytest.skip(f"relay-mlir-opt not available: {e}")
    assert sorted(_gen().gradient_table()) == sorted(out)
