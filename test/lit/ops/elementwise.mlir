// RUN: relay-mlir-opt %s | relay-mlir-opt | FileCheck %s

// CHECK-LABEL: func.func @unary
func.func @unary(%x: tensor<2x?xf32>) {
  // CHECK: relay.negative %{{.*}} : (tensor<2x?xf32>) -> tensor<2x?xf32>
  %0 = relay.negative %x : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: relay.exp
  %1 = relay.exp %x : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: relay.log
  %2 = relay.log %x : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: relay.sqrt
  %3 = relay.sqrt %x : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: relay.tanh
  %4 = relay.tanh %x : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: relay.sigmoid
  %5 = relay.sigmoid %x : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: relay.nn.relu %{{.*}} : (tensor<2x?xf32>) -> tensor<2x?xf32>
  %6 = relay.nn.relu %x : (tensor<2x?xf32>) -> tensor<2x?xf32>
  return
}

// CHECK-LABEL: func.func @binary
func.func @binary(%a: tensor<4x1xf32>, %b: tensor<3xf32>, %s: tensor<f32>, %d: tensor<?x3xf32>, %e: tensor<?x1xf32>) {
  // CHECK: relay.add %{{.*}}, %{{.*}} : (tensor<4x1xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %0 = relay.add %a, %b : (tensor<4x1xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  // CHECK: relay.subtract %{{.*}}, %{{.*}} : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x1xf32>
  %1 = relay.subtract %a, %s : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x1xf32>
  // CHECK: relay.multiply %{{.*}}, %{{.*}} : (tensor<?x3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  %2 = relay.multiply %d, %b : (tensor<?x3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  // `?` against 1 stays `?`; `?` against 4 becomes 4.
  // CHECK: relay.divide %{{.*}}, %{{.*}} : (tensor<?x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
  %3 = relay.divide %e, %a : (tensor<?x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
  // CHECK: relay.maximum %{{.*}}, %{{.*}} : (tensor<?x1xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
  %4 = relay.maximum %e, %d : (tensor<?x1xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
  // CHECK: relay.minimum %{{.*}}, %{{.*}} : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %5 = relay.minimum %s, %s : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return
}
