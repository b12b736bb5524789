// RUN: relay-mlir-opt %s | relay-mlir-opt | FileCheck %s
// Round-trip of the normalisations and softmax (static and `?` dims).

// CHECK-LABEL: func.func @batch_norm
func.func @batch_norm(%x: tensor<1x8x4x4xf32>, %p: tensor<8xf32>, %xh: tensor<1x4x4x8xf32>, %xd: tensor<?x?x4x4xf32>) {
  // CHECK: relay.nn.batch_norm %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<1x8x4x4xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tuple<tensor<1x8x4x4xf32>, tensor<8xf32>, tensor<8xf32>>
  %0 = relay.nn.batch_norm %x, %p, %p, %p, %p : (tensor<1x8x4x4xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tuple<tensor<1x8x4x4xf32>, tensor<8xf32>, tensor<8xf32>>
  // CHECK: relay.nn.batch_norm {{.*}} {axis = -1 : i64, center = false, epsilon = 1.000000e-03 : f64, scale = false}
  %1 = relay.nn.batch_norm %xh, %p, %p, %p, %p {axis = -1 : i64, epsilon = 1.0e-3 : f64, center = false, scale = false} : (tensor<1x4x4x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tuple<tensor<1x4x4x8xf32>, tensor<8xf32>, tensor<8xf32>>
  // CHECK: relay.nn.batch_norm {{.*}} -> tuple<tensor<?x?x4x4xf32>, tensor<8xf32>, tensor<8xf32>>
  %2 = relay.nn.batch_norm %xd, %p, %p, %p, %p : (tensor<?x?x4x4xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tuple<tensor<?x?x4x4xf32>, tensor<8xf32>, tensor<8xf32>>
  return
}

// CHECK-LABEL: func.func @softmax
func.func @softmax(%x: tensor<2x10xf32>, %xd: tensor<?x?xf32>) {
  // CHECK: relay.nn.softmax %{{.*}} : (tensor<2x10xf32>) -> tensor<2x10xf32>
  %0 = relay.nn.softmax %x : (tensor<2x10xf32>) -> tensor<2x10xf32>
  // CHECK: relay.nn.softmax %{{.*}} {axis = 0 : i64} : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %1 = relay.nn.softmax %xd {axis = 0 : i64} : (tensor<?x?xf32>) -> tensor<?x?xf32>
  return
}

// CHECK-LABEL: func.func @norms
func.func @norms(%x: tensor<2x4x3x3xf32>, %g: tensor<4xf32>, %b: tensor<4xf32>,
                 %l: tensor<?x8xf32>, %lg: tensor<8xf32>) {
  // CHECK: relay.nn.layer_norm %{{.*}}, %{{.*}}, %{{.*}} : (tensor<?x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
  %0 = relay.nn.layer_norm %l, %lg, %lg : (tensor<?x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
  // CHECK: relay.nn.group_norm %{{.*}}, %{{.*}}, %{{.*}} {epsilon = 1.000000e-03 : f64, num_groups = 2 : i64} : (tensor<2x4x3x3xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4x3x3xf32>
  %1 = relay.nn.group_norm %x, %g, %b {num_groups = 2 : i64, epsilon = 1.0e-3 : f64} : (tensor<2x4x3x3xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4x3x3xf32>
  // CHECK: relay.nn.instance_norm %{{.*}}, %{{.*}}, %{{.*}} {center = false} : (tensor<2x4x3x3xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4x3x3xf32>
  %2 = relay.nn.instance_norm %x, %g, %b {center = false} : (tensor<2x4x3x3xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4x3x3xf32>
  // CHECK: relay.nn.l2_normalize %{{.*}} {axis = array<i64: 1>, eps = 1.000000e-10 : f64} : (tensor<?x8xf32>) -> tensor<?x8xf32>
  %3 = relay.nn.l2_normalize %l {eps = 1.0e-10 : f64, axis = array<i64: 1>} : (tensor<?x8xf32>) -> tensor<?x8xf32>
  // CHECK: relay.nn.lrn %{{.*}} {size = 3 : i64} : (tensor<2x4x3x3xf32>) -> tensor<2x4x3x3xf32>
  %4 = relay.nn.lrn %x {size = 3 : i64} : (tensor<2x4x3x3xf32>) -> tensor<2x4x3x3xf32>
  // CHECK: relay.nn.log_softmax %{{.*}} : (tensor<?x8xf32>) -> tensor<?x8xf32>
  %5 = relay.nn.log_softmax %l : (tensor<?x8xf32>) -> tensor<?x8xf32>
  return
}
