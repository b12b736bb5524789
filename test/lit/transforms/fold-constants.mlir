// RUN: relay-mlir-opt %s -relay-fold-constants | FileCheck %s

// A gradient's seed: ones of a static shape broadcast and multiplied away.
// CHECK-LABEL: func.func @seed(
// CHECK-SAME:    %[[W:[^:]*]]: tensor<2x3xf32>
// CHECK-NOT:     relay.ones_like
// CHECK-NOT:     relay.multiply
// CHECK:         return %[[W]]
func.func @seed(%w: tensor<2x3xf32>, %s: tensor<f32>) -> tensor<2x3xf32> {
  %o = relay.ones_like %s : (tensor<f32>) -> tensor<f32>
  %e = relay.expand_dims %o {axis = 0 : i64, num_newaxis = 2 : i64} : (tensor<f32>) -> tensor<1x1xf32>
  %b = relay.broadcast_to_like %e, %w : (tensor<1x1xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %y = relay.multiply %b, %w : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

// x * 0 is not folded (NaN * 0 is NaN); x + 0 is; a broadcasting x + 0 is not.
// CHECK-LABEL: func.func @identities(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<3xf32>
// CHECK:         %[[Z:.*]] = relay.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK:         %[[M:.*]] = relay.multiply %[[X]], %[[Z]]
// CHECK:         %[[B:.*]] = relay.add %[[X]], %{{.*}} : (tensor<3xf32>, tensor<2x3xf32>)
// CHECK:         relay.tuple %[[M]], %[[X]], %[[B]]
func.func @identities(%x: tensor<3xf32>) -> tuple<tensor<3xf32>, tensor<3xf32>, tensor<2x3xf32>> {
  %z = relay.zeros_like %x : (tensor<3xf32>) -> tensor<3xf32>
  %m = relay.multiply %x, %z : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %a = relay.add %x, %z : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %z2 = relay.constant dense<0.0> : tensor<2x3xf32>
  %b = relay.add %x, %z2 : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %t = relay.tuple %m, %a, %b : (tensor<3xf32>, tensor<3xf32>, tensor<2x3xf32>) -> tuple<tensor<3xf32>, tensor<3xf32>, tensor<2x3xf32>>
  return %t : tuple<tensor<3xf32>, tensor<3xf32>, tensor<2x3xf32>>
}

// collapse_sum_like of a constant is computed.
// CHECK-LABEL: func.func @collapse(
// CHECK:         relay.constant dense<[5.000000e+00, 7.000000e+00, 9.000000e+00]> : tensor<3xf32>
// CHECK-NOT:     relay.collapse_sum_like
func.func @collapse(%like: tensor<3xf32>) -> tensor<3xf32> {
  %c = relay.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %r = relay.collapse_sum_like %c, %like : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// Indexing ops of a splat, and zeros/ones, are splats.
// CHECK-LABEL: func.func @take_of_splat(
// CHECK-NOT:     relay.take
// CHECK-NOT:     relay.ones
// CHECK:         relay.constant dense<1.000000e+00> : tensor<5xf32>
func.func @take_of_splat(%i: tensor<5xi32>) -> tensor<5xf32> {
  %o = relay.ones {shape = array<i64: 2>, dtype = f32} : () -> tensor<2xf32>
  %t = relay.take %o, %i {axis = 0 : i64} : (tensor<2xf32>, tensor<5xi32>) -> tensor<5xf32>
  return %t : tensor<5xf32>
}
