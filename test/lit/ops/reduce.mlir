// RUN: relay-mlir-opt %s | relay-mlir-opt | FileCheck %s

// CHECK-LABEL: func.func @sum
func.func @sum(%x: tensor<2x3x4xf32>) {
  // No axis: every dim, rank-0 result.
  // CHECK: relay.sum %{{.*}} : (tensor<2x3x4xf32>) -> tensor<f32>
  %0 = relay.sum %x : (tensor<2x3x4xf32>) -> tensor<f32>
  // CHECK: relay.sum %{{.*}} {keepdims = true} : (tensor<2x3x4xf32>) -> tensor<1x1x1xf32>
  %1 = relay.sum %x {keepdims = true} : (tensor<2x3x4xf32>) -> tensor<1x1x1xf32>
  // An empty axis list also reduces every dim (Relay).
  // CHECK: relay.sum %{{.*}} {axis = array<i64>} : (tensor<2x3x4xf32>) -> tensor<f32>
  %2 = relay.sum %x {axis = array<i64>} : (tensor<2x3x4xf32>) -> tensor<f32>
  // CHECK: relay.sum %{{.*}} {axis = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
  %3 = relay.sum %x {axis = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
  // CHECK: relay.sum %{{.*}} {axis = array<i64: -1, 0>, keepdims = true} : (tensor<2x3x4xf32>) -> tensor<1x3x1xf32>
  %4 = relay.sum %x {axis = array<i64: -1, 0>, keepdims = true} : (tensor<2x3x4xf32>) -> tensor<1x3x1xf32>
  // exclude: reduce every dim but 1
  // CHECK: relay.sum %{{.*}} {axis = array<i64: 1>, exclude = true} : (tensor<2x3x4xf32>) -> tensor<3xf32>
  %5 = relay.sum %x {axis = array<i64: 1>, exclude = true} : (tensor<2x3x4xf32>) -> tensor<3xf32>
  // CHECK: relay.sum %{{.*}} {axis = array<i64: -3>, exclude = true, keepdims = true} : (tensor<2x3x4xf32>) -> tensor<2x1x1xf32>
  %6 = relay.sum %x {axis = array<i64: -3>, exclude = true, keepdims = true} : (tensor<2x3x4xf32>) -> tensor<2x1x1xf32>
  // exclude of every dim reduces nothing
  // CHECK: relay.sum {{.*}} -> tensor<2x3x4xf32>
  %7 = relay.sum %x {axis = array<i64: 0, 1, 2>, exclude = true} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return
}

// CHECK-LABEL: func.func @mean
func.func @mean(%x: tensor<?x3x?xf32>, %s: tensor<f32>) {
  // CHECK: relay.mean %{{.*}} {axis = array<i64: 1>} : (tensor<?x3x?xf32>) -> tensor<?x?xf32>
  %0 = relay.mean %x {axis = array<i64: 1>} : (tensor<?x3x?xf32>) -> tensor<?x?xf32>
  // CHECK: relay.mean %{{.*}} {axis = array<i64: 0, 2>, keepdims = true} : (tensor<?x3x?xf32>) -> tensor<1x3x1xf32>
  %1 = relay.mean %x {axis = array<i64: 0, 2>, keepdims = true} : (tensor<?x3x?xf32>) -> tensor<1x3x1xf32>
  // CHECK: relay.mean %{{.*}} : (tensor<?x3x?xf32>) -> tensor<f32>
  %2 = relay.mean %x : (tensor<?x3x?xf32>) -> tensor<f32>
  // rank-0 input
  // CHECK: relay.mean %{{.*}} : (tensor<f32>) -> tensor<f32>
  %3 = relay.mean %s : (tensor<f32>) -> tensor<f32>
  return
}

// CHECK-LABEL: func.func @reductions
func.func @reductions(%x: tensor<2x?x4xf32>, %b: tensor<2x3xi1>, %i: tensor<5xi32>) {
  // CHECK: relay.max %{{.*}} {axis = array<i64: 1>} : (tensor<2x?x4xf32>) -> tensor<2x4xf32>
  %0 = relay.max %x {axis = array<i64: 1>} : (tensor<2x?x4xf32>) -> tensor<2x4xf32>
  // CHECK: relay.min %{{.*}} {keepdims = true} : (tensor<2x?x4xf32>) -> tensor<1x1x1xf32>
  %1 = relay.min %x {keepdims = true} : (tensor<2x?x4xf32>) -> tensor<1x1x1xf32>
  // CHECK: relay.prod %{{.*}} {axis = array<i64: 0>} : (tensor<5xi32>) -> tensor<i32>
  %2 = relay.prod %i {axis = array<i64: 0>} : (tensor<5xi32>) -> tensor<i32>
  // CHECK: relay.all %{{.*}} {axis = array<i64: 0>} : (tensor<2x3xi1>) -> tensor<3xi1>
  %3 = relay.all %b {axis = array<i64: 0>} : (tensor<2x3xi1>) -> tensor<3xi1>
  // CHECK: relay.any %{{.*}} {axis = array<i64: 0>, exclude = true} : (tensor<2x3xi1>) -> tensor<2xi1>
  %4 = relay.any %b {axis = array<i64: 0>, exclude = true} : (tensor<2x3xi1>) -> tensor<2xi1>
  // argmax/argmin give int32, whatever the input dtype.
  // CHECK: relay.argmax %{{.*}} {axis = array<i64: 2>} : (tensor<2x?x4xf32>) -> tensor<2x?xi32>
  %5 = relay.argmax %x {axis = array<i64: 2>} : (tensor<2x?x4xf32>) -> tensor<2x?xi32>
  // CHECK: relay.argmin %{{.*}} {keepdims = true, select_last_index = true} : (tensor<5xi32>) -> tensor<1xi32>
  %6 = relay.argmin %i {keepdims = true, select_last_index = true} : (tensor<5xi32>) -> tensor<1xi32>
  return
}

// CHECK-LABEL: func.func @variance
func.func @variance(%x: tensor<2x?x4xf32>, %m: tensor<2x1x1xf32>) {
  // CHECK: relay.variance %{{.*}}, %{{.*}} {axis = array<i64: 1, 2>, unbiased = true} : (tensor<2x?x4xf32>, tensor<2x1x1xf32>) -> tensor<2xf32>
  %0 = relay.variance %x, %m {axis = array<i64: 1, 2>, unbiased = true} : (tensor<2x?x4xf32>, tensor<2x1x1xf32>) -> tensor<2xf32>
  // CHECK: relay.variance %{{.*}}, %{{.*}} {axis = array<i64: 0>, exclude = true, keepdims = true} : (tensor<2x?x4xf32>, tensor<2x1x1xf32>) -> tensor<2x1x1xf32>
  %1 = relay.variance %x, %m {axis = array<i64: 0>, exclude = true, keepdims = true} : (tensor<2x?x4xf32>, tensor<2x1x1xf32>) -> tensor<2x1x1xf32>
  return
}
