// RUN: relay-mlir-opt %s | relay-mlir-opt | FileCheck %s
// Round-trip of TVM 0.19's trilu, sequence_mask, reverse_sequence, meshgrid,
// unravel_index, invert_permutation, matrix_set_diag, collapse_sum_to,
// contrib_reverse_reshape and sliding_window (static and `?` dims).

// CHECK-LABEL: func.func @trilu
func.func @trilu(%x: tensor<2x3x4xf32>, %y: tensor<?x4xi8>, %k: tensor<i32>, %k64: tensor<i64>) {
  // CHECK: relay.trilu %{{.*}}, %{{.*}} : (tensor<2x3x4xf32>, tensor<i32>) -> tensor<2x3x4xf32>
  %0 = relay.trilu %x, %k : (tensor<2x3x4xf32>, tensor<i32>) -> tensor<2x3x4xf32>
  // CHECK: relay.trilu %{{.*}}, %{{.*}} {upper = false} : (tensor<?x4xi8>, tensor<i64>) -> tensor<?x4xi8>
  %1 = relay.trilu %y, %k64 {upper = false} : (tensor<?x4xi8>, tensor<i64>) -> tensor<?x4xi8>
  return
}

// CHECK-LABEL: func.func @sequences
func.func @sequences(%x: tensor<5x2x3xf32>, %l: tensor<2xi32>, %d: tensor<?x5xf32>, %m: tensor<?xi64>) {
  // CHECK: relay.sequence_mask %{{.*}}, %{{.*}} {mask_value = -1.000000e+00 : f64} : (tensor<5x2x3xf32>, tensor<2xi32>) -> tensor<5x2x3xf32>
  %0 = relay.sequence_mask %x, %l {mask_value = -1.0 : f64} : (tensor<5x2x3xf32>, tensor<2xi32>) -> tensor<5x2x3xf32>
  // CHECK: relay.sequence_mask %{{.*}}, %{{.*}} {axis = 1 : i64} : (tensor<?x5xf32>, tensor<?xi64>) -> tensor<?x5xf32>
  %1 = relay.sequence_mask %d, %m {axis = 1 : i64} : (tensor<?x5xf32>, tensor<?xi64>) -> tensor<?x5xf32>
  // CHECK: relay.reverse_sequence %{{.*}}, %{{.*}} : (tensor<?x5xf32>, tensor<?xi64>) -> tensor<?x5xf32>
  %2 = relay.reverse_sequence %d, %m : (tensor<?x5xf32>, tensor<?xi64>) -> tensor<?x5xf32>
  // CHECK: relay.reverse_sequence %{{.*}}, %{{.*}} {batch_axis = 1 : i64, seq_axis = -3 : i64} : (tensor<5x2x3xf32>, tensor<2xi32>) -> tensor<5x2x3xf32>
  %3 = relay.reverse_sequence %x, %l {seq_axis = -3 : i64, batch_axis = 1 : i64} : (tensor<5x2x3xf32>, tensor<2xi32>) -> tensor<5x2x3xf32>
  return
}

// CHECK-LABEL: func.func @meshgrid
func.func @meshgrid(%a: tensor<3xf32>, %b: tensor<?xf32>, %s: tensor<f32>) {
  // CHECK: relay.meshgrid %{{.*}}, %{{.*}}, %{{.*}} : (tensor<3xf32>, tensor<?xf32>, tensor<f32>) -> tuple<tensor<3x?x1xf32>, tensor<3x?x1xf32>, tensor<3x?x1xf32>>
  %0 = relay.meshgrid %a, %b, %s : (tensor<3xf32>, tensor<?xf32>, tensor<f32>) -> tuple<tensor<3x?x1xf32>, tensor<3x?x1xf32>, tensor<3x?x1xf32>>
  // CHECK: relay.meshgrid %{{.*}}, %{{.*}} {indexing = "xy"} : (tensor<3xf32>, tensor<?xf32>) -> tuple<tensor<?x3xf32>, tensor<?x3xf32>>
  %1 = relay.meshgrid %a, %b {indexing = "xy"} : (tensor<3xf32>, tensor<?xf32>) -> tuple<tensor<?x3xf32>, tensor<?x3xf32>>
  return
}

// CHECK-LABEL: func.func @index_maps
func.func @index_maps(%i: tensor<5xi32>, %s: tensor<3xi32>, %j: tensor<i64>, %t: tensor<?xi64>, %p: tensor<?xi32>) {
  // CHECK: relay.unravel_index %{{.*}}, %{{.*}} : (tensor<5xi32>, tensor<3xi32>) -> tensor<3x5xi32>
  %0 = relay.unravel_index %i, %s : (tensor<5xi32>, tensor<3xi32>) -> tensor<3x5xi32>
  // CHECK: relay.unravel_index %{{.*}}, %{{.*}} : (tensor<i64>, tensor<?xi64>) -> tensor<?xi64>
  %1 = relay.unravel_index %j, %t : (tensor<i64>, tensor<?xi64>) -> tensor<?xi64>
  // CHECK: relay.invert_permutation %{{.*}} : (tensor<?xi32>) -> tensor<?xi32>
  %2 = relay.invert_permutation %p : (tensor<?xi32>) -> tensor<?xi32>
  return
}

// CHECK-LABEL: func.func @matrix_set_diag
func.func @matrix_set_diag(%x: tensor<2x3x4xf32>, %d: tensor<2x3xf32>, %band: tensor<2x3x3xf32>, %y: tensor<?x3x4xf32>, %e: tensor<?x2xf32>) {
  // CHECK: relay.matrix_set_diag %{{.*}}, %{{.*}} : (tensor<2x3x4xf32>, tensor<2x3xf32>) -> tensor<2x3x4xf32>
  %0 = relay.matrix_set_diag %x, %d : (tensor<2x3x4xf32>, tensor<2x3xf32>) -> tensor<2x3x4xf32>
  // CHECK: relay.matrix_set_diag %{{.*}}, %{{.*}} {k1 = -1 : i64, k2 = 1 : i64, sub_diag_right_align = true, super_diag_right_align = false} : (tensor<2x3x4xf32>, tensor<2x3x3xf32>) -> tensor<2x3x4xf32>
  %1 = relay.matrix_set_diag %x, %band {k1 = -1 : i64, k2 = 1 : i64, super_diag_right_align = false, sub_diag_right_align = true} : (tensor<2x3x4xf32>, tensor<2x3x3xf32>) -> tensor<2x3x4xf32>
  // CHECK: relay.matrix_set_diag %{{.*}}, %{{.*}} {k1 = -1 : i64, k2 = -1 : i64} : (tensor<?x3x4xf32>, tensor<?x2xf32>) -> tensor<?x3x4xf32>
  %2 = relay.matrix_set_diag %y, %e {k1 = -1 : i64, k2 = -1 : i64} : (tensor<?x3x4xf32>, tensor<?x2xf32>) -> tensor<?x3x4xf32>
  return
}

// CHECK-LABEL: func.func @shapes
func.func @shapes(%x: tensor<2x3x4xf32>, %y: tensor<?x5x4xf32>, %w: tensor<2x6x7xf32>, %v: tensor<2x?x7xf32>) {
  // CHECK: relay.collapse_sum_to %{{.*}} {shape = array<i64: 3, 1>} : (tensor<2x3x4xf32>) -> tensor<3x1xf32>
  %0 = relay.collapse_sum_to %x {shape = array<i64: 3, 1>} : (tensor<2x3x4xf32>) -> tensor<3x1xf32>
  // CHECK: relay.collapse_sum_to %{{.*}} {shape = array<i64: 5, 4>} : (tensor<?x5x4xf32>) -> tensor<5x4xf32>
  %1 = relay.collapse_sum_to %y {shape = array<i64: 5, 4>} : (tensor<?x5x4xf32>) -> tensor<5x4xf32>
  // CHECK: relay.contrib_reverse_reshape %{{.*}} {newshape = array<i64: -1, 0>} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  %2 = relay.contrib_reverse_reshape %x {newshape = array<i64: -1, 0>} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  // CHECK: relay.contrib_reverse_reshape %{{.*}} {newshape = array<i64: -1, 0>} : (tensor<?x5x4xf32>) -> tensor<?x4xf32>
  %3 = relay.contrib_reverse_reshape %y {newshape = array<i64: -1, 0>} : (tensor<?x5x4xf32>) -> tensor<?x4xf32>
  // CHECK: relay.sliding_window %{{.*}} {axis = 1 : i64, strides = array<i64: 2, 1>, window_shape = array<i64: 3, 2>} : (tensor<2x6x7xf32>) -> tensor<2x2x6x3x2xf32>
  %4 = relay.sliding_window %w {axis = 1 : i64, window_shape = array<i64: 3, 2>, strides = array<i64: 2, 1>} : (tensor<2x6x7xf32>) -> tensor<2x2x6x3x2xf32>
  // CHECK: relay.sliding_window %{{.*}} {axis = 1 : i64, strides = array<i64: 2, 3>, window_shape = array<i64: 3, 2>} : (tensor<2x?x7xf32>) -> tensor<2x?x2x3x2xf32>
  %5 = relay.sliding_window %v {axis = 1 : i64, window_shape = array<i64: 3, 2>, strides = array<i64: 2, 3>} : (tensor<2x?x7xf32>) -> tensor<2x?x2x3x2xf32>
  return
}
