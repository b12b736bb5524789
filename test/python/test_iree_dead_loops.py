"""A loop IREE's own analysis makes unreachable must not hang iree-compile (issue 29,
findings 305:38 and 305:44 of the loop fuzzer).

iree-compile 3.13 inlines, proves branches constant with its integer range analysis
(iree-util-optimize-int-arithmetic) and canonicalizes; MLIR's canonicalizer then rewrote
the dead loop's counter `x + 1` (its block argument replaced by itself) to `x + 2`, `x + 4`,
... forever. compiler._decide_constant_branches runs the same analysis first and erases what
it makes unreachable."""
from __future__ import annotations

import os
import subprocess
import sys

import numpy as np

from relay_mlir import compiler
from relay_mlir.runtime import Executable

# The condition is false for every input (clip(x, -20, 20) / 6 <= 3), which IREE's
# analysis proves and upstream MLIR's int-range-optimizations does not.
DEAD_LOOP = """
func.func @main(%x: tensor<i64>, %n: tensor<i64>) -> tensor<i64> {
  %v = tensor.extract %x[] : tensor<i64>
  %limit = tensor.extract %n[] : tensor<i64>
  %c20 = arith.constant 20 : i64
  %cm20 = arith.constant -20 : i64
  %lo = arith.maxsi %v, %cm20 : i64
  %m = arith.minsi %lo, %c20 : i64
  %c6 = arith.constant 6 : i64
  %d = arith.divsi %m, %c6 : i64
  %c23 = arith.constant 23 : i64
  %never = arith.cmpi sgt, %d, %c23 : i64
  %c1 = arith.constant 1 : i64
  cf.cond_br %never, ^head(%c1 : i64), ^done(%m : i64)
^head(%i: i64):
  %stop = arith.cmpi sge, %i, %limit : i64
  cf.cond_br %stop, ^done(%i : i64), ^latch
^latch:
  %next = arith.addi %i, %c1 : i64
  cf.br ^head(%next : i64)
^done(%r: i64):
  %t = tensor.from_elements %r : tensor<i64>
  return %t : tensor<i64>
}
"""


def test_branches_iree_proves_constant_are_decided_first():
    from iree.compiler import ir

    with ir.Context() as ctx:
        module = ir.Module.parse(compiler._decide_constant_branches(DEAD_LOOP), ctx)
        asm = str(module)
    assert "cf.cond_br" not in asm and "arith.addi" not in asm  # the dead loop is gone


def test_a_loop_made_unreachable_compiles_and_runs(tmp_path):
    # In a child process: a regression would hang, and the guard turns that into a failure.
    out = tmp_path / "dead_loop.vmfb"
    code = ("import sys; from relay_mlir import compiler; from test_iree_dead_loops import "
            "DEAD_LOOP; open(sys.argv[1], 'wb').write(bytes(compiler._iree_compile("
            "DEAD_LOOP, compiler.get_target('llvm-cpu'), [])))")
    try:
        subprocess.run([sys.executable, "-c", code, str(out)], check=True, timeout=600,
                       cwd=os.path.dirname(os.path.abspath(__file__)))
    except subprocess.TimeoutExpired:
        raise AssertionError("iree-compile did not return") from None
    exe = Executable(out.read_bytes(), driver="local-sync", target="llvm-cpu")
    for x in [57, -3, -100]:
        got = exe(np.array(x, np.int64), np.array(5, np.int64))
        assert int(got) == int(np.clip(x, -20, 20))
