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

// Sibling regions may reuse a name, results lists and typed argument lists
// define names (no forward reference), and a name used inside a nested region
// is visible from the enclosing one: no hazard.
// CHECK-LABEL: func.func @names
func.func @names(%a: tensor<2xf32>) -> tensor<2xf32> {
  %f1 = relay.fn : !relay.fn<(tensor<2xf32>) -> tensor<2xf32>> {
  ^bb0(%x: tensor<2xf32>):
    %s = relay.add %x, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    relay.yield %s : tensor<2xf32>
  }
  %f2 = relay.fn : !relay.fn<(tensor<2xf32>) -> tensor<2xf32>> {
  ^bb0(%x: tensor<2xf32>):
    %s = relay.negative %x : (tensor<2xf32>) -> tensor<2xf32>
    relay.yield %s : tensor<2xf32>
  }
  %t = relay.tuple %f1, %f2 : (!relay.fn<(tensor<2xf32>) -> tensor<2xf32>>, !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>) -> tuple<!relay.fn<(tensor<2xf32>) -> tensor<2xf32>>, !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>>
  %s = relay.call %f1(%a) : (!relay.fn<(tensor<2xf32>) -> tensor<2xf32>>, tensor<2xf32>) -> tensor<2xf32>
  return %s : tensor<2xf32>
}
