"""Loop fuzzer finding L3 (seed 305 program 39, --kind loops; open, session 18).

Two let-bound loops in a row: the first (%x1) runs over int64 %u, float %x, bool %b, an
int32 tensor %t and int32 %i; the second (%x2) reads %x1's results. main returns
(%x2.0, max(%in1, int64(clip(%x1.4)))). Interpreter: (6, 12); compiled (llvm-cpu): (6, 16).
What is known: returning %x1 alone, or %x1.4 itself, is right; deleting the second loop
(even though the output does not use it) makes it right; widening every host integer to
i64 (not only mixed blocks) does not fix it. Suspect: IREE 3.13 after inlining both loops
into main (29:117, which spins in the VM only when its loops are inlined together, looks
related).

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
print("compiled:   ", relay.compile(mod)(*args))                                 # (6, 16)
