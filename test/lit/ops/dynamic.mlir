// RUN: relay-mlir-opt %s | relay-mlir-opt | FileCheck %s
// RUN: relay-mlir-opt %s -canonicalize | FileCheck %s --check-prefix=FOLD

// Shapes as values and the dyn.* operators: result dims that depend on
// values are `?`, the rank comes from the static length of the shape.
// CHECK-LABEL: func.func @dynamic
func.func @dynamic(%x: tensor<?x3xf32>, %s: tensor<2xi64>, %v: tensor<f32>) {
  // CHECK: relay.shape_of %{{.*}} : (tensor<?x3xf32>) -> tensor<2xi32>
  %0 = relay.shape_of %x : (tensor<?x3xf32>) -> tensor<2xi32>
  // CHECK: relay.shape_of %{{.*}} {dtype = i64} : (tensor<?x3xf32>) -> tensor<2xi64>
  %1 = relay.shape_of %x {dtype = i64} : (tensor<?x3xf32>) -> tensor<2xi64>
  // CHECK: relay.ndarray_size %{{.*}} : (tensor<?x3xf32>) -> tensor<i32>
  %2 = relay.ndarray_size %x : (tensor<?x3xf32>) -> tensor<i32>
  // CHECK: relay.dyn.reshape %{{.*}}, %{{.*}} : (tensor<?x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %3 = relay.dyn.reshape %x, %s : (tensor<?x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  // CHECK: relay.dyn.broadcast_to %{{.*}}, %{{.*}} : (tensor<f32>, tensor<2xi64>) -> tensor<?x?xf32>
  %4 = relay.dyn.broadcast_to %v, %s : (tensor<f32>, tensor<2xi64>) -> tensor<?x?xf32>
  // CHECK: relay.dyn.zeros %{{.*}} {dtype = i8} : (tensor<2xi64>) -> tensor<?x?xi8>
  %5 = relay.dyn.zeros %s {dtype = i8} : (tensor<2xi64>) -> tensor<?x?xi8>
  // CHECK: relay.dyn.ones %{{.*}} {dtype = f16} : (tensor<2xi64>) -> tensor<?x?xf16>
  %6 = relay.dyn.ones %s {dtype = f16} : (tensor<2xi64>) -> tensor<?x?xf16>
  // CHECK: relay.dyn.full %{{.*}}, %{{.*}} : (tensor<f32>, tensor<2xi64>) -> tensor<?x?xf32>
  %7 = relay.dyn.full %v, %s : (tensor<f32>, tensor<2xi64>) -> tensor<?x?xf32>
  // CHECK: relay.dyn.full %{{.*}}, %{{.*}} {dtype = i32} : (tensor<f32>, tensor<2xi64>) -> tensor<?x?xi32>
  %8 = relay.dyn.full %v, %s {dtype = i32} : (tensor<f32>, tensor<2xi64>) -> tensor<?x?xi32>
  return
}

// shape_of and ndarray_size of a static shape fold to constants.
// FOLD-LABEL: func.func @fold
func.func @fold(%x: tensor<2x5xf32>) -> (tensor<2xi64>, tensor<i32>) {
  // FOLD-DAG: relay.constant dense<[2, 5]> : tensor<2xi64>
  // FOLD-DAG: relay.constant dense<10> : tensor<i32>
  // FOLD-NOT: relay.shape_of
  %0 = relay.shape_of %x {dtype = i64} : (tensor<2x5xf32>) -> tensor<2xi64>
  %1 = relay.ndarray_size %x : (tensor<2x5xf32>) -> tensor<i32>
  return %0, %1 : tensor<2xi64>, tensor<i32>
}
