// RUN: relay-mlir-opt %s -convert-relay-to-linalg | FileCheck %s
// Lowering of TVM 0.19's searchsorted (IndexSort.cpp) and sparse_to_dense (Index.cpp).

// CHECK-LABEL: func.func @searchsorted
func.func @searchsorted(%s: tensor<2x5xf32>, %v: tensor<2x3xf32>) -> tensor<2x3xi64> {
  // A count of the sequence entries <= the value (right), a reduction.
  // CHECK: linalg.generic
  // CHECK-SAME: iterator_types = ["parallel", "parallel", "reduction"]
  // CHECK:   arith.cmpf ole
  // CHECK:   arith.select
  // CHECK:   arith.addi
  %0 = relay.searchsorted %s, %v {right = true, dtype = i64} : (tensor<2x5xf32>, tensor<2x3xf32>) -> tensor<2x3xi64>
  return %0 : tensor<2x3xi64>
}

// CHECK-LABEL: func.func @sparse_to_dense
func.func @sparse_to_dense(%i: tensor<?x2xi32>, %v: tensor<f32>, %d: tensor<f32>) -> tensor<3x4xf32> {
  // CHECK: linalg.broadcast ins(%arg1 : tensor<f32>)
  // CHECK: linalg.fill
  // CHECK: linalg.generic
  // CHECK-SAME: iterator_types = ["parallel", "parallel", "reduction"]
  // CHECK:   tensor.extract %arg0
  // CHECK:   arith.cmpi eq
  // CHECK:   tensor.extract %arg0
  // CHECK:   arith.cmpi eq
  // CHECK:   arith.select %{{.+}}, %in, %out
  %0 = relay.sparse_to_dense %i, %v, %d {output_shape = array<i64: 3, 4>} : (tensor<?x2xi32>, tensor<f32>, tensor<f32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}
