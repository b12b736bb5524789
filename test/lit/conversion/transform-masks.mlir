// RUN: relay-mlir-opt %s -convert-relay-to-linalg | FileCheck %s
// Lowering of TVM 0.19's trilu, sequence_mask, reverse_sequence, meshgrid, unravel_index,
// invert_permutation, matrix_set_diag, collapse_sum_to, contrib_reverse_reshape and sliding_window
// (TransformMasks.cpp).

// CHECK-LABEL: func.func @trilu
func.func @trilu(%x: tensor<2x3x4xf32>, %k: tensor<i32>) -> tensor<2x3x4xf32> {
  // trilu: one generic choosing by j - i against k (read as an index).
  // CHECK: linalg.generic
  // CHECK-SAME: ins(%arg0, %arg1 : tensor<2x3x4xf32>, tensor<i32>)
  // CHECK:   %[[I:.+]] = linalg.index 1
  // CHECK:   %[[J:.+]] = linalg.index 2
  // CHECK:   %[[D:.+]] = arith.subi %[[J]], %[[I]]
  // CHECK:   %[[K:.+]] = arith.index_cast %{{.+}} : i32 to index
  // CHECK:   arith.cmpi sle, %[[D]], %[[K]]
  // CHECK:   arith.select
  %0 = relay.trilu %x, %k {upper = false} : (tensor<2x3x4xf32>, tensor<i32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// CHECK-LABEL: func.func @sequence_mask
func.func @sequence_mask(%x: tensor<?x2xf32>, %l: tensor<2xi64>) -> tensor<?x2xf32> {
  // CHECK: linalg.generic
  // CHECK-SAME: ins(%arg0, %arg1 : tensor<?x2xf32>, tensor<2xi64>)
  // CHECK:   %[[T:.+]] = linalg.index 0
  // CHECK:   %[[L:.+]] = arith.index_cast %{{.+}} : i64 to index
  // CHECK:   arith.cmpi slt, %[[T]], %[[L]]
  // CHECK:   arith.select %{{.+}}, %{{.+}}, %cst
  %0 = relay.sequence_mask %x, %l {mask_value = -1.0 : f64} : (tensor<?x2xf32>, tensor<2xi64>) -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}

// CHECK-LABEL: func.func @reverse_sequence
func.func @reverse_sequence(%x: tensor<3x?xf32>, %l: tensor<3xi32>) -> tensor<3x?xf32> {
  // Steps below the (clamped) length read len - 1 - s.
  // CHECK: %[[N:.+]] = tensor.dim %arg0, %c1
  // CHECK: linalg.generic
  // CHECK-SAME: ins(%arg1 : tensor<3xi32>)
  // CHECK:   arith.minsi %{{.+}}, %[[N]]
  // CHECK:   arith.cmpi slt
  // CHECK:   tensor.extract %arg0
  %0 = relay.reverse_sequence %x, %l : (tensor<3x?xf32>, tensor<3xi32>) -> tensor<3x?xf32>
  return %0 : tensor<3x?xf32>
}

// CHECK-LABEL: func.func @meshgrid
func.func @meshgrid(%a: tensor<3xf32>, %b: tensor<?xf32>) -> (tensor<?x3xf32>, tensor<?x3xf32>) {
  // CHECK: %[[A:.+]] = linalg.broadcast ins(%arg0 : tensor<3xf32>) outs(%{{.+}} : tensor<?x3xf32>) dimensions = [0]
  // CHECK: %[[B:.+]] = linalg.broadcast ins(%arg1 : tensor<?xf32>) outs(%{{.+}} : tensor<?x3xf32>) dimensions = [1]
  // CHECK: return %[[A]], %[[B]]
  %0 = relay.meshgrid %a, %b {indexing = "xy"} : (tensor<3xf32>, tensor<?xf32>) -> tuple<tensor<?x3xf32>, tensor<?x3xf32>>
  %1 = relay.tuple_get_item %0[0] : (tuple<tensor<?x3xf32>, tensor<?x3xf32>>) -> tensor<?x3xf32>
  %2 = relay.tuple_get_item %0[1] : (tuple<tensor<?x3xf32>, tensor<?x3xf32>>) -> tensor<?x3xf32>
  return %1, %2 : tensor<?x3xf32>, tensor<?x3xf32>
}

// CHECK-LABEL: func.func @unravel_index
func.func @unravel_index(%i: tensor<?xi32>, %s: tensor<2xi32>) -> tensor<2x?xi32> {
  // floordiv by the stride, floormod by the dim, both from the shape entries.
  // CHECK: linalg.generic
  // CHECK-SAME: ins(%arg0 : tensor<?xi32>) outs(%{{.+}} : tensor<2x?xi32>)
  // CHECK:   tensor.extract %arg1
  // CHECK:   tensor.extract %arg1
  // CHECK:   arith.floordivsi
  // CHECK:   arith.floordivsi
  // CHECK:   arith.subi
  %0 = relay.unravel_index %i, %s : (tensor<?xi32>, tensor<2xi32>) -> tensor<2x?xi32>
  return %0 : tensor<2x?xi32>
}

// CHECK-LABEL: func.func @invert_permutation
func.func @invert_permutation(%p: tensor<4xi64>) -> tensor<4xi64> {
  // CHECK: linalg.generic
  // CHECK-SAME: iterator_types = ["parallel", "reduction"]
  // CHECK:   arith.cmpi eq
  // CHECK:   arith.select
  // CHECK:   arith.addi
  %0 = relay.invert_permutation %p : (tensor<4xi64>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// CHECK-LABEL: func.func @matrix_set_diag
func.func @matrix_set_diag(%x: tensor<3x4xf32>, %d: tensor<3x3xf32>) -> tensor<3x4xf32> {
  // CHECK: linalg.generic
  // CHECK-SAME: ins(%arg0 : tensor<3x4xf32>)
  // CHECK:   arith.cmpi sle
  // CHECK:   arith.cmpi sge
  // CHECK:   %[[IN:.+]] = arith.andi
  // CHECK:   %[[V:.+]] = tensor.extract %arg1[%{{.+}}, %{{.+}}] : tensor<3x3xf32>
  // CHECK:   arith.select %[[IN]], %[[V]], %in
  %0 = relay.matrix_set_diag %x, %d {k1 = -1 : i64, k2 = 1 : i64} : (tensor<3x4xf32>, tensor<3x3xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// CHECK-LABEL: func.func @collapse_sum_to
func.func @collapse_sum_to(%x: tensor<2x3x4xf32>) -> tensor<3x1xf32> {
  // As collapse_sum_like of zeros of the shape.
  // CHECK: linalg.reduce ins(%arg0 : tensor<2x3x4xf32>) outs(%{{.+}} : tensor<3xf32>) dimensions = [0, 2]
  // CHECK: tensor.expand_shape %{{.+}} {{\[\[}}0, 1]] output_shape [3, 1]
  %0 = relay.collapse_sum_to %x {shape = array<i64: 3, 1>} : (tensor<2x3x4xf32>) -> tensor<3x1xf32>
  return %0 : tensor<3x1xf32>
}

// CHECK-LABEL: func.func @reverse_reshape
func.func @reverse_reshape(%x: tensor<?x5x4xf32>) -> tensor<?x4xf32> {
  // CHECK: tensor.collapse_shape %arg0 {{\[\[}}0, 1], [2]] : tensor<?x5x4xf32> into tensor<?x4xf32>
  %0 = relay.contrib_reverse_reshape %x {newshape = array<i64: -1, 0>} : (tensor<?x5x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// CHECK-LABEL: func.func @sliding_window
func.func @sliding_window(%x: tensor<2x?x7xf32>) -> tensor<2x?x6x3x2xf32> {
  // CHECK: %[[D:.+]] = tensor.dim %arg0, %c1
  // CHECK: cf.assert %{{.+}}, "relay.sliding_window: a window is larger than dim 1 of data
  // CHECK: arith.divui
  // CHECK: linalg.generic
  // CHECK-SAME: outs(%{{.+}} : tensor<2x?x6x3x2xf32>)
  // CHECK:   arith.muli
  // CHECK:   arith.addi
  // CHECK:   tensor.extract %arg0
  %0 = relay.sliding_window %x {axis = 1 : i64, window_shape = array<i64: 3, 2>, strides = array<i64: 2, 1>} : (tensor<2x?x7xf32>) -> tensor<2x?x6x3x2xf32>
  return %0 : tensor<2x?x6x3x2xf32>
}
