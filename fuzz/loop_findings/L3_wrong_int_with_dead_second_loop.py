"""Loop fuzzer finding L3 (seed 305 program 39, --kind loops; fixed in session 19).

Two let-bound loops in a row: the first (%x1) runs over int64 %u, float %x, bool %b, an
int32 tensor %t and int32 %i; the second (%x2) reads %x1's results. main returns
(%x2.0, max(%in1, int64(clip(%x1.4)))). Interpreter: (6, 12); compiled (llvm-cpu): (6, 16).
Root cause: IREE 3.13's VM. After inlining, IREE merged the tails of the first loop's
two branches into one block taking (ref, ref, i32, i64); the bytecode emitter ordered
that branch's register moves "i50+51->i54+55, i54->i50", overwriting the i32 in i54
(the counter %i) with the low word of %u before moving it. The second loop only changed
the register allocation. Fix: relay_mlir.vm_branch_widths (every VM block mixing 32- and
64-bit arguments takes the 32-bit ones as i64); test_vm_branch_widths.py runs this file.

Run:  python fuzz/loop_findings/L3_wrong_int_with_dead_second_loop.py
"""
import os

import numpy as np

import relay_mlir as relay

HERE = os.path.dirname(os.path.abspath(__file__))
text = open(os.path.join(HERE, "L3_wrong_int_with_dead_second_loop.relay")).read()
mod = relay.fromtext(text[text.index("#[version"):])
inputs = np.load(os.path.join(HERE, "L3_wrong_int_with_dead_second_loop_inputs.npz"))
args = [inputs[f"arr_{i}"] for i in range(len(inputs.files))]
print("interpreter:", relay.create_executor("debug", mod=mod).evaluate()(*args))   # (6, 12)
print("compiled:   ", relay.compile(mod)(*args))                                 # (6, 12)
