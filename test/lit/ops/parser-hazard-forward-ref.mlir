// RUN: not relay-mlir-opt %s 2>&1 | FileCheck %s

// A value used before its definition inside a nested region, then a parse
// error in that region (fuzz seed 41, mutant 4858): MLIR's parser resolves
// the forward reference to the nested definition, discards the region on the
// error and aborts ("operation destroyed but still has uses"). Such a use is
// never valid, so the scan (relay/Utils/ParserHazards.h) reports it first.

func.func @curry(%a: tensor<2xf32>) -> tensor<2xf32> {
  %adder = relay.fn : !relay.fn<(tensor<2xf32>) -> !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>> {
  ^bb0(%x: tensor<2xf32>):
    // CHECK: parser-hazard-forward-ref.mlir:[[@LINE+1]]:17: error: '%s' is used before its definition (line 16), which is inside a nested region that does not enclose this use
    relay.yield %s : tensor<2xf32>
    %inner = relay.fn : !relay.fn<(tensor<2xf32>) -> tensor<2xf32>> {
    ^bb0(%y: tensor<2xf32>):
      %s = relay.add %x, %y : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    ^bb0(%z: tensor<2xf32>):
    }
  }
  return %a : tensor<2xf32>
}
// CHECK-NOT: LLVM ERROR
