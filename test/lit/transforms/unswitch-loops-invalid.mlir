// RUN: relay-mlir-opt %s --relay-unswitch-loops -verify-diagnostics

// A constant dim index past the rank (fuzz: mlir_mutate seed 14, int 120)
// is a located error, not an assertion in the size analysis.
func.func private @state(%i: i64, %n: i64, %h: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %c2 = arith.constant 2 : index
  %c1_i64 = arith.constant 1 : i64
  %more = arith.cmpi slt, %i, %n : i64
  %r = scf.if %more -> tensor<?x4xf32> {
    // expected-error @+1 {{relay-unswitch-loops: dim index 2 is out of range for 'tensor<?x4xf32>'}}
    %rows = tensor.dim %h, %c2 : tensor<?x4xf32>
    %init = tensor.empty(%rows) : tensor<?x4xf32>
    %next = linalg.copy ins(%h : tensor<?x4xf32>) outs(%init : tensor<?x4xf32>) -> tensor<?x4xf32>
    %j = arith.addi %i, %c1_i64 : i64
    %z = func.call @state(%j, %n, %next) : (i64, i64, tensor<?x4xf32>) -> tensor<?x4xf32>
    scf.yield %z : tensor<?x4xf32>
  } else {
    scf.yield %h : tensor<?x4xf32>
  }
  return %r : tensor<?x4xf32>
}
