"""The Python sources pass ``ruff check`` with the rules chosen in pyproject.toml
(``[tool.ruff.lint]``: syntax errors, undefined names and ``__all__`` entries, a name
redefined before use such as a test shadowed by a second one of the same name, an unused
import), and the
public-API modules listed in ``[tool.mypy]`` type-check.

Run ``ruff check .`` or ``mypy`` at the repository root to see a failure.
"""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _tool(name: str) -> str:
    exe = Path(sys.executable).parent / name
    found = str(exe) if exe.exists() else shutil.which(name)
    assert found, f"{name} is a test dependency (pip install '.[test]')"
    return found


def _ruff() -> str:
    return _tool("ruff")


def test_python_sources_pass_ruff() -> None:
    proc = subprocess.run([_ruff(), "check", "--no-cache", "--output-format", "concise", "."],
                          cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]


def test_ruff_finds_a_shadowed_test(tmp_path: Path) -> None:
    """The rule set catches what it is there for: a test redefined (the first never runs),
    an undefined name and an unused import."""
    bad = tmp_path / "test_bad.py"
    bad.write_text("import os\n\n\ndef test_a():\n    pass\n\n\ndef test_a():\n    return undefined_name\n")
    proc = subprocess.run([_ruff(), "check", "--no-cache", "--output-format", "concise",
                           "--config", str(ROOT / "pyproject.toml"), str(bad)],
                          cwd=tmp_path, capture_output=True, text=True)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert all(code in proc.stdout for code in ("F811", "F821", "F401")), proc.stdout


def test_public_api_type_checks(tmp_path: Path) -> None:
    """mypy passes on every module [tool.mypy] lists (none dropped on the way)."""
    section = (ROOT / "pyproject.toml").read_text().split("[tool.mypy]", 1)[1].split("\n[", 1)[0]
    listed = re.findall(r'"(python/[\w/]+\.py)"', section)
    assert len(listed) >= 11, listed
    proc = subprocess.run([_tool("mypy"), "--cache-dir", str(tmp_path / "cache")], cwd=ROOT,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert f"no issues found in {len(listed)} source files" in proc.stdout, proc.stdout
