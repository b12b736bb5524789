"""Loop fuzzer finding L1 (seed 0 program 14, --kind loops; reduced by hand): iree-compile never returns.

An outer loop whose condition is false on entry (the initial counter is the
constant -1, the condition `u == 0`) and whose body calls an inner loop (which
itself exits at once: 3 < 1 is false). relay-to-iree-input lowers it fine
(one function, no call cycle: both loops are cf loops); IREE's
OptimizeIntArithmetic folds the outer condition to `false`, which leaves the
inner loop as unreachable blocks, and the next pass, iree-flow-canonicalize
(global-opt), never returns (100% CPU; killed after 300 s). With the initial
counter 0 (so the outer loop runs) it compiles in under a second.

Run it under a timeout:  timeout 60 python fuzz/loop_findings/L1_compile_hang_dead_inner_loop.py

Fixed (a3198c4): sccp + symbol-dce run after relay-eliminate-recursion and decide the
outer branch before IREE sees it; regression test
test/python/test_loops.py::test_loop_that_cannot_run_around_an_inner_loop.
"""
import numpy as np

import relay_mlir as relay

TEXT = """#[version = "0.0.5"]
def @main(%a: Tensor[(), int32], %b: Tensor[(), int32]) {
    let %outer = fn (%u: Tensor[(), int32], %x: Tensor[(), int32]) {
      %0 = equal(%u, 0);
      if (%0) {
        let %r = (
          let %inner = fn (%i: Tensor[(), int32], %j: Tensor[(), int32]) {
            %1 = greater(1, %i);
            if (%1) {
              %2 = add(%i, 1);
              %inner(%2, %a)
            } else {
              (%a, %j)
            }
          };
          %inner(3, %b)
        );
        %3 = add(%u, 1);
        %4 = %r.1;
        %5 = add(%x, %4);
        %outer(%3, %5)
      } else {
        (%u, %x)
      }
    };
    %outer(-1, %a)
}
"""
mod = relay.fromtext(TEXT)
args = [np.array(4, "int32"), np.array(3, "int32")]
print("interpreter:", relay.create_executor("debug", mod=mod).evaluate()(*args))   # (-1, 4)
print("compiled:", relay.compile(mod, target="llvm-cpu")(*args))                   # hangs in iree-compile
