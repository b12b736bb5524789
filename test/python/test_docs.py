"""docs/ops.md is generated from the dialect and must be current."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_ops_reference_is_current() -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "gen_ops_doc.py"), "--check"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr + "\nrun: python scripts/gen_ops_doc.py"
