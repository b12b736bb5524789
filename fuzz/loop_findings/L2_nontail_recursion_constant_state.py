"""Loop fuzzer finding L2 (seed 0 program 0, --kind loops; reduced by fuzz/reduce_loops.py + hand).

A non-tail recursion over two float32 tensors, started on constants, whose
recursive call's result is let-bound and unused:

    let %rec = fn (%i: int32, %t: (2,) f32, %u: (2,) f32) -> (2,) f32 {
      if (%i <= 0) { %t } else { let %r = %rec(1, %u, %u); %u }
    };
    %rec(%n, C, C)

Interpreter: C (n = -3: no recursion). Compiled (llvm-cpu, default pipeline):
the module's initializer fails at run time, "indirect buffer reference slot 0
is out range of the declared binding capacity of the command buffer 0"
(bytecode module.__init), issue 29's message. Passing C as program inputs
instead of constants, or dropping the unused recursive call, passes.

Fixed (a3198c4): the recursion dispatcher's join blocks box their tensors like loop
headers; regression test test/python/test_loops.py::test_non_tail_recursion_over_two_tensors.
"""
import numpy as np

import relay_mlir as relay

C = np.array([-1.27, -1.47], "float32")
n = relay.var("n", shape=(), dtype="int32")
i = relay.var("i", shape=(), dtype="int32")
t = relay.var("t", shape=(2,))
u = relay.var("u", shape=(2,))
rec = relay.var("rec")
r = relay.var("r")
body = relay.If(relay.less_equal(i, relay.const(0)), t,
                relay.Let(r, relay.Call(rec, [relay.const(1), u, u]), u))
fn = relay.Function([i, t, u], body, ret_type=relay.TensorType([2], "float32"))
main = relay.Function([n], relay.Let(rec, fn, relay.Call(rec, [n, relay.const(C), relay.const(C)])))
mod = relay.IRModule.from_expr(main)
print(mod.astext())
x = np.array(-3, "int32")
want = relay.create_executor("debug", mod=mod).evaluate()(x)
print("interpreter:", want)
got = relay.compile(mod, target="llvm-cpu")(x)     # IndexError: ... slot 0 is out range ...
print("compiled:", got)
np.testing.assert_array_equal(got, want)
