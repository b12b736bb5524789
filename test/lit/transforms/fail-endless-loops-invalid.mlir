// RUN: relay-mlir-opt %s -relay-fail-endless-loops -verify-diagnostics

// The run-time error is IREE's util.status.check_ok, which MLIR only makes
// with --allow-unregistered-dialect: without it, a located error (it was an
// abort; the MLIR fuzzer's mutant 14:82 of this pass's own lit test).
// expected-error @+1 {{relay-fail-endless-loops turns a loop of this function that never exits into a run-time error with IREE ops (util, hal), which needs --allow-unregistered-dialect}}
func.func private @spin(%n: i32) -> i32 {
  cf.br ^loop(%n : i32)
^loop(%i: i32):
  %c1 = arith.constant 1 : i32
  %j = arith.addi %i, %c1 : i32
  cf.br ^loop(%j : i32)
}
