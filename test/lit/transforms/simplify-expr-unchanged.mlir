// RUN: relay-mlir-opt %s -relay-simplify-expr | FileCheck %s

// Left alone (as TVM 0.19): a reshape pair with a ? result, a transpose
// that moves an axis, x + zeros when the zeros broadcast x to a larger
// shape (the add stays; the zeros become a scalar only if x has the result
// type), zeros_like of a ? shape, division by a non-sqrt.
// CHECK-LABEL: func.func @unchanged(
// CHECK-COUNT-2: relay.reshape
// CHECK:         relay.transpose
// CHECK:         relay.zeros
// CHECK-NEXT:    relay.add
// CHECK:         relay.zeros_like
// CHECK:         relay.divide
func.func @unchanged(%x: tensor<?x6xf32>, %s: tensor<3xf32>, %y: tensor<2x3xf32>) -> tuple<tensor<?x3xf32>, tensor<3x2xf32>, tensor<2x3xf32>, tensor<?x6xf32>, tensor<2x3xf32>> {
  %a = relay.reshape %x {newshape = array<i64: -1, 2, 3>} : (tensor<?x6xf32>) -> tensor<?x2x3xf32>
  %b = relay.reshape %a {newshape = array<i64: -1, 3>} : (tensor<?x2x3xf32>) -> tensor<?x3xf32>
  %t = relay.transpose %y {axes = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %z = relay.zeros {shape = array<i64: 2, 3>, dtype = f32} : () -> tensor<2x3xf32>
  %c = relay.add %s, %z : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %zl = relay.zeros_like %x : (tensor<?x6xf32>) -> tensor<?x6xf32>
  %d = relay.divide %y, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %r = relay.tuple %b, %t, %c, %zl, %d : (tensor<?x3xf32>, tensor<3x2xf32>, tensor<2x3xf32>, tensor<?x6xf32>, tensor<2x3xf32>) -> tuple<tensor<?x3xf32>, tensor<3x2xf32>, tensor<2x3xf32>, tensor<?x6xf32>, tensor<2x3xf32>>
  return %r : tuple<tensor<?x3xf32>, tensor<3x2xf32>, tensor<2x3xf32>, tensor<?x6xf32>, tensor<2x3xf32>>
}
