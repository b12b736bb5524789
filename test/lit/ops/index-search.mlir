// RUN: relay-mlir-opt %s | relay-mlir-opt | FileCheck %s
// Round-trip of TVM 0.19's searchsorted and sparse_to_dense (static and `?` dims).

// CHECK-LABEL: func.func @searchsorted
func.func @searchsorted(%s: tensor<2x5xf32>, %v: tensor<2x3xf32>, %s1: tensor<?xi32>, %v1: tensor<4x?xi32>) {
  // CHECK: relay.searchsorted %{{.*}}, %{{.*}} {right = true} : (tensor<2x5xf32>, tensor<2x3xf32>) -> tensor<2x3xi32>
  %0 = relay.searchsorted %s, %v {right = true} : (tensor<2x5xf32>, tensor<2x3xf32>) -> tensor<2x3xi32>
  // CHECK: relay.searchsorted %{{.*}}, %{{.*}} {dtype = i64} : (tensor<?xi32>, tensor<4x?xi32>) -> tensor<4x?xi64>
  %1 = relay.searchsorted %s1, %v1 {dtype = i64} : (tensor<?xi32>, tensor<4x?xi32>) -> tensor<4x?xi64>
  return
}

// CHECK-LABEL: func.func @sparse_to_dense
func.func @sparse_to_dense(%i: tensor<?x2xi32>, %v: tensor<?xf32>, %d: tensor<f32>, %j: tensor<i64>, %s: tensor<f32>) {
  // CHECK: relay.sparse_to_dense %{{.*}}, %{{.*}}, %{{.*}} {output_shape = array<i64: 3, 4>} : (tensor<?x2xi32>, tensor<?xf32>, tensor<f32>) -> tensor<3x4xf32>
  %0 = relay.sparse_to_dense %i, %v, %d {output_shape = array<i64: 3, 4>} : (tensor<?x2xi32>, tensor<?xf32>, tensor<f32>) -> tensor<3x4xf32>
  // CHECK: relay.sparse_to_dense %{{.*}}, %{{.*}}, %{{.*}} {output_shape = array<i64: 6>} : (tensor<i64>, tensor<f32>, tensor<f32>) -> tensor<6xf32>
  %1 = relay.sparse_to_dense %j, %s, %d {output_shape = array<i64: 6>} : (tensor<i64>, tensor<f32>, tensor<f32>) -> tensor<6xf32>
  return
}
