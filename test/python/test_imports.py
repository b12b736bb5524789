"""relay_mlir's MLIR must not clash with IREE's MLIR in one process."""
from __future__ import annotations

import subprocess
import sys

import pytest

SNIPPET = """
import numpy as np
{first}
import relay_mlir as relay
x = relay.var("x", shape=(2,))
mod = relay.transform.InferType()(relay.IRModule.from_expr(relay.exp(x)))
assert mod["main"].body.checked_type == relay.TensorType((2,))
exe = relay.compile(mod)
np.testing.assert_allclose(exe(np.zeros(2, "float32")), [1, 1], rtol=1e-6)
print("ok")
"""


@pytest.mark.parametrize("first", [
    "import iree.compiler, iree.runtime",
    # loads IREE's own in-process MLIR (a second MLIR copy in the process)
    "from iree.compiler import ir as iree_ir\nwith iree_ir.Context():\n    iree_ir.Module.parse('module {}')",
])
def test_import_after_iree(first):
    r = subprocess.run([sys.executable, "-c", SNIPPET.format(first=first)], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().endswith("ok")
