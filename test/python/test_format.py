"""The C++ sources follow LLVM style (`.clang-format`), checked with clang-format 22.

Run `clang-format -i $(git ls-files '*.cpp' '*.h')` to fix a failure.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCE_DIRS = ("dialect", "lib", "tools", "python")


def _clang_format() -> str:
    exe = Path(sys.executable).parent / "clang-format"
    found = str(exe) if exe.exists() else shutil.which("clang-format")
    assert found, "clang-format is a test dependency (pip install '.[test]')"
    return found


def test_cpp_sources_are_clang_formatted() -> None:
    files = sorted(str(p) for d in SOURCE_DIRS for ext in ("*.cpp", "*.h")
                   for p in (ROOT / d).rglob(ext))
    assert len(files) > 40, files
    proc = subprocess.run([_clang_format(), "--dry-run", "--Werror", *files],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-4000:]
