// RUN: relay-mlir-opt %s | FileCheck %s

// The scan for parser hazards (parser-hazard.mlir) follows MLIR's lexer:
// `array<index` in a comment, a string, a name or a nested attribute of
// another element type is no hazard.

// CHECK-LABEL: func.func @array_index
// CHECK-SAME: attributes {note = "array<index: 1>", perm = array<i64: 1, 0>}
func.func @array_index(%x: tensor<2x3xf32>) -> tensor<3x2xf32> attributes {note = "array<index: 1>", perm = array<i64: 1, 0>} {
  // CHECK: relay.transpose %{{.*}} {axes = array<i64: 1, 0>}
  %y = relay.transpose %x {axes = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %y : tensor<3x2xf32>
}
