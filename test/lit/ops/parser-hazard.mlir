// RUN: not relay-mlir-opt %s 2>&1 | FileCheck %s
// RUN: not relay-mlir-opt %s -relay-to-iree-input 2>&1 | FileCheck %s

// MLIR's parser (LLVM 22) accepts `index` as the element type of a dense
// array and then aborts asking for its bit width; relay-mlir-opt scans the
// input first and reports it (relay/Utils/ParserHazards.h).

func.func @f(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // CHECK: parser-hazard.mlir:[[@LINE+1]]:42: error: dense arrays of 'index' are not supported (MLIR's parser would abort on them); use array<i64: ...>
  %y = relay.transpose %x {axes = array< index : 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %y : tensor<3x2xf32>
}
// CHECK-NOT: Assertion
