// RUN: relay-mlir-opt %s -relay-div-to-mul | FileCheck %s

// What DivToMul leaves alone (as TVM 0.19, except that TVM rewrites a vector
// with a zero after element 0): integer and bfloat16 division, a divisor
// with a zero element, a divisor that is not a constant (FoldConstant's
// job), a constant dividend, floor_divide.
// CHECK-LABEL: func.func @unchanged(
// CHECK-COUNT-6: relay.divide
// CHECK-NOT:     relay.multiply
// CHECK:         relay.floor_divide
func.func @unchanged(%i: tensor<3xi32>, %b: tensor<3xbf16>, %x: tensor<3xf32>) -> tuple<tensor<3xi32>, tensor<3xbf16>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>> {
  %ci = relay.constant dense<2> : tensor<i32>
  %yi = relay.divide %i, %ci : (tensor<3xi32>, tensor<i32>) -> tensor<3xi32>
  %cb = relay.constant dense<2.0> : tensor<bf16>
  %yb = relay.divide %b, %cb : (tensor<3xbf16>, tensor<bf16>) -> tensor<3xbf16>
  %cz = relay.constant dense<[2.0, 0.0, 8.0]> : tensor<3xf32>
  %yz = relay.divide %x, %cz : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %two = relay.constant dense<2.0> : tensor<f32>
  %sum = relay.add %two, %two : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %yn = relay.divide %x, %sum : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  %yc = relay.divide %two, %x : (tensor<f32>, tensor<3xf32>) -> tensor<3xf32>
  %yv = relay.divide %x, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %yf = relay.floor_divide %x, %two : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  %t = relay.tuple %yi, %yb, %yz, %yn, %yc, %yv, %yf : (tensor<3xi32>, tensor<3xbf16>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tuple<tensor<3xi32>, tensor<3xbf16>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>>
  return %t : tuple<tensor<3xi32>, tensor<3xbf16>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>>
}
