// RUN: not relay-mlir-opt %s 2>&1 | FileCheck %s
// RUN: not relay-mlir-opt < %s 2>&1 | FileCheck %s --check-prefix=STDIN

// MLIR 22's parser aborts on this text (a forward reference resolved in a
// *sibling* region, then a parse error: "operation destroyed but still has
// uses"), which relay/Utils/ParserHazards.h does not scan for. The driver
// runs the work in a child process, so the abort is a located error and
// exit status 1, not a dead driver (docs/fuzzing.md, finding 12). When the
// upstream parser diagnoses it, this test fails and the crash lines go.

// CHECK: error: redefinition of block '^bb0'
// CHECK: {{.*}}driver-crash-report.mlir:1:1: error: relay-mlir-opt crashed (signal 6, {{.*}}) while compiling this input
// STDIN: <stdin>:1:1: error: relay-mlir-opt crashed (signal 6
func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  %f1 = relay.fn : !relay.fn<(tensor<2xf32>) -> tensor<2xf32>> {
  ^bb0(%x: tensor<2xf32>):
    relay.yield %s : tensor<2xf32>
  }
  %f2 = relay.fn : !relay.fn<(tensor<2xf32>) -> tensor<2xf32>> {
  ^bb0(%y: tensor<2xf32>):
    %s = relay.add %y, %y : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  ^bb0(%z: tensor<2xf32>):
    relay.yield %s : tensor<2xf32>
  }
  return %a : tensor<2xf32>
}
