"""A loop IREE's own analysis makes unreachable must not hang iree-compile (issue 29,
findings 305:38, 305:44, 319:16 and 321:25 of the loop fuzzer).

iree-compile 3.13 inlines, proves branches constant (its integer range analysis,
iree-util-optimize-int-arithmetic, and global optimization's constant folding) and
canonicalizes; MLIR's canonicalizer then replaced the dead loop's header argument by what
the back edge passes, rewrote the counter `x = x + 1` to `x + 2`, `x + 4`, ... and never
returned. relay-box-join-tensors puts the scalars a back edge passes behind optimization
barriers: every cycle crosses one, and no pattern folds through it."""
from __future__ import annotations

import os
import subprocess
import sys

import numpy as np

from relay_mlir.runtime import Executable

from conftest import cli_command

# The condition is false for every input (clip(x, -20, 20) / 6 <= 3), which IREE's
# analysis proves; iree-compile given this function as it is never returns.
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


def _guarded() -> str:
    out = subprocess.run(cli_command("relay-mlir-opt") + ["-", "--allow-unregistered-dialect",
                                                          "-relay-box-join-tensors"],
                         input=DEAD_LOOP, capture_output=True, text=True, check=True)
    return out.stdout


def test_the_back_edge_passes_the_counter_behind_a_barrier():
    asm = _guarded()
    latch = asm[asm.index("arith.addi"):]
    assert '"util.optimization_barrier"' in latch.split("cf.br")[0], asm


def test_a_loop_made_unreachable_compiles_and_runs(tmp_path):
    # In a child process: a regression would hang, and the timeout turns that into a failure.
    src, out = tmp_path / "dead_loop.mlir", tmp_path / "dead_loop.vmfb"
    src.write_text(_guarded())
    code = ("import sys; from relay_mlir import compiler; open(sys.argv[2], 'wb').write(bytes("
            "compiler._iree_compile(open(sys.argv[1]).read(), compiler.get_target('llvm-cpu'), []).vmfb))")
    try:
        subprocess.run([sys.executable, "-c", code, str(src), str(out)], check=True, timeout=600,
                       cwd=os.path.dirname(os.path.abspath(__file__)))
    except subprocess.TimeoutExpired:
        raise AssertionError("iree-compile did not return") from None
    exe = Executable(out.read_bytes(), driver="local-sync", target="llvm-cpu")
    for x in [57, -3, -100]:
        got = exe(np.array(x, np.int64), np.array(5, np.int64))
        assert int(got) == int(np.clip(x, -20, 20))
