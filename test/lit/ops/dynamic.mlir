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

// The dyn forms of slicing, tiling, padding and index operators: the dims a
// run-time operand decides are `?`.
// CHECK-LABEL: func.func @dyn_index_ops
func.func @dyn_index_ops(%x: tensor<4x5xf32>, %b: tensor<1xi64>, %s: tensor<1xi32>, %r: tensor<3xi64>, %w: tensor<2x2xi64>, %v: tensor<f32>, %i: tensor<3xi32>, %d: tensor<i32>, %ax: tensor<1xi64>, %k: tensor<1xi64>) {
  // CHECK: relay.dyn.strided_slice %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4x5xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi32>) -> tensor<?x5xf32>
  %0 = relay.dyn.strided_slice %x, %b, %b, %s : (tensor<4x5xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi32>) -> tensor<?x5xf32>
  // CHECK: relay.dyn.strided_slice {{.*}} {slice_mode = "size"}
  %1 = relay.dyn.strided_slice %x, %b, %b, %s {slice_mode = "size"} : (tensor<4x5xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi32>) -> tensor<?x5xf32>
  // CHECK: relay.strided_set %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4x5xf32>, tensor<?x5xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi32>) -> tensor<4x5xf32>
  %set = relay.strided_set %x, %0, %b, %b, %s : (tensor<4x5xf32>, tensor<?x5xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi32>) -> tensor<4x5xf32>
  // CHECK: relay.dyn.tile %{{.*}}, %{{.*}} : (tensor<4x5xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
  %2 = relay.dyn.tile %x, %r : (tensor<4x5xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
  // CHECK: relay.dyn.nn.pad %{{.*}}, %{{.*}}, %{{.*}} {pad_mode = "reflect"} : (tensor<4x5xf32>, tensor<2x2xi64>, tensor<f32>) -> tensor<?x?xf32>
  %3 = relay.dyn.nn.pad %x, %w, %v {pad_mode = "reflect"} : (tensor<4x5xf32>, tensor<2x2xi64>, tensor<f32>) -> tensor<?x?xf32>
  // CHECK: relay.dyn.one_hot {{.*}} {axis = 0 : i64, dtype = f32} : (tensor<3xi32>, tensor<f32>, tensor<f32>, tensor<i32>) -> tensor<?x3xf32>
  %4 = relay.dyn.one_hot %i, %v, %v, %d {axis = 0 : i64, dtype = f32} : (tensor<3xi32>, tensor<f32>, tensor<f32>, tensor<i32>) -> tensor<?x3xf32>
  // CHECK: relay.dyn.squeeze %{{.*}}, %{{.*}} : (tensor<4x5xf32>, tensor<1xi64>) -> tensor<?xf32>
  %5 = relay.dyn.squeeze %x, %ax : (tensor<4x5xf32>, tensor<1xi64>) -> tensor<?xf32>
  // CHECK: relay.dyn.expand_dims %{{.*}}, %{{.*}} {num_newaxis = 2 : i64} : (tensor<4x5xf32>, tensor<i32>) -> tensor<?x?x?x?xf32>
  %6 = relay.dyn.expand_dims %x, %d {num_newaxis = 2 : i64} : (tensor<4x5xf32>, tensor<i32>) -> tensor<?x?x?x?xf32>
  // CHECK: relay.dyn.topk %{{.*}}, %{{.*}} {axis = 0 : i64} : (tensor<4x5xf32>, tensor<1xi64>) -> tuple<tensor<?x5xf32>, tensor<?x5xi32>>
  %7 = relay.dyn.topk %x, %k {axis = 0 : i64} : (tensor<4x5xf32>, tensor<1xi64>) -> tuple<tensor<?x5xf32>, tensor<?x5xi32>>
  // CHECK: relay.dyn.topk {{.*}} -> tensor<4x?xf32>
  %8 = relay.dyn.topk %x, %k {ret_type = "values", is_ascend = true} : (tensor<4x5xf32>, tensor<1xi64>) -> tensor<4x?xf32>
  return
}

// A known repeat or depth keeps its dim static.
// CHECK-LABEL: func.func @dyn_known_entries
func.func @dyn_known_entries(%x: tensor<4x5xf32>, %i: tensor<3xi32>, %v: tensor<f32>) {
  %r = relay.constant dense<[2, 3]> : tensor<2xi64>
  // CHECK: relay.dyn.tile {{.*}} -> tensor<8x15xf32>
  %0 = relay.dyn.tile %x, %r : (tensor<4x5xf32>, tensor<2xi64>) -> tensor<8x15xf32>
  %d = relay.constant dense<6> : tensor<i64>
  // CHECK: relay.dyn.one_hot {{.*}} -> tensor<3x6xf32>
  %1 = relay.dyn.one_hot %i, %v, %v, %d {dtype = f32} : (tensor<3xi32>, tensor<f32>, tensor<f32>, tensor<i64>) -> tensor<3x6xf32>
  return
}
