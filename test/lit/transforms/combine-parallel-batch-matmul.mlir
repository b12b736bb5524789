// RUN: relay-mlir-opt %s -relay-combine-parallel-batch-matmul | FileCheck %s

// Three batch_matmuls of %x: their y concatenated along axis 1, one
// batch_matmul, the relu following each combined, a slice of each branch's
// columns.
// CHECK-LABEL: func.func @three(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<2x3x4xf32>
// CHECK:         %[[Y:.*]] = relay.concatenate {{.*}} {axis = 1 : i64} : {{.*}} -> tensor<2x10x4xf32>
// CHECK-NEXT:    %[[M:.*]] = relay.nn.batch_matmul %[[X]], %[[Y]] : {{.*}} -> tensor<2x3x10xf32>
// CHECK-NEXT:    %[[R:.*]] = relay.nn.relu %[[M]]
// CHECK-NEXT:    relay.strided_slice %[[R]] {begin = array<i64: 0, 0, 0>, end = array<i64: -1, -1, 2>, slice_mode = "size", strides = array<i64: 1, 1, 1>} : (tensor<2x3x10xf32>) -> tensor<2x3x2xf32>
// CHECK-NEXT:    relay.strided_slice %[[R]] {begin = array<i64: 0, 0, 2>, end = array<i64: -1, -1, 3>, slice_mode = "size", strides = array<i64: 1, 1, 1>} : (tensor<2x3x10xf32>) -> tensor<2x3x3xf32>
// CHECK-NEXT:    relay.strided_slice %[[R]] {begin = array<i64: 0, 0, 5>, end = array<i64: -1, -1, 5>, slice_mode = "size", strides = array<i64: 1, 1, 1>} : (tensor<2x3x10xf32>) -> tensor<2x3x5xf32>
func.func @three(%x: tensor<2x3x4xf32>, %y1: tensor<2x2x4xf32>, %y2: tensor<2x3x4xf32>, %y3: tensor<2x5x4xf32>) -> (tensor<2x3x2xf32>, tensor<2x3x3xf32>, tensor<2x3x5xf32>) {
  %m1 = relay.nn.batch_matmul %x, %y1 : (tensor<2x3x4xf32>, tensor<2x2x4xf32>) -> tensor<2x3x2xf32>
  %r1 = relay.nn.relu %m1 : (tensor<2x3x2xf32>) -> tensor<2x3x2xf32>
  %m2 = relay.nn.batch_matmul %x, %y2 : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x3xf32>
  %r2 = relay.nn.relu %m2 : (tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
  %m3 = relay.nn.batch_matmul %x, %y3 : (tensor<2x3x4xf32>, tensor<2x5x4xf32>) -> tensor<2x3x5xf32>
  %r3 = relay.nn.relu %m3 : (tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  return %r1, %r2, %r3 : tensor<2x3x2xf32>, tensor<2x3x3xf32>, tensor<2x3x5xf32>
}

// Left alone (as TVM 0.19): transpose_b = false, y batches that differ.
// CHECK-LABEL: func.func @unchanged(
// CHECK-COUNT-6: relay.nn.batch_matmul
// CHECK-NOT:     relay.concatenate
func.func @unchanged(%x: tensor<2x3x4xf32>, %t: tensor<2x4x3xf32>, %y: tensor<2x3x4xf32>, %z: tensor<1x3x4xf32>) -> (tensor<2x3x3xf32>, tensor<2x3x3xf32>, tensor<2x3x3xf32>, tensor<2x3x3xf32>, tensor<2x3x3xf32>, tensor<2x3x3xf32>) {
  %a = relay.nn.batch_matmul %x, %t {transpose_b = false} : (tensor<2x3x4xf32>, tensor<2x4x3xf32>) -> tensor<2x3x3xf32>
  %b = relay.nn.batch_matmul %x, %t {transpose_b = false} : (tensor<2x3x4xf32>, tensor<2x4x3xf32>) -> tensor<2x3x3xf32>
  %c = relay.nn.batch_matmul %x, %t {transpose_b = false} : (tensor<2x3x4xf32>, tensor<2x4x3xf32>) -> tensor<2x3x3xf32>
  %d = relay.nn.batch_matmul %x, %y : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x3xf32>
  %e = relay.nn.batch_matmul %x, %y : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x3xf32>
  %f = relay.nn.batch_matmul %x, %z : (tensor<2x3x4xf32>, tensor<1x3x4xf32>) -> tensor<2x3x3xf32>
  return %a, %b, %c, %d, %e, %f : tensor<2x3x3xf32>, tensor<2x3x3xf32>, tensor<2x3x3xf32>, tensor<2x3x3xf32>, tensor<2x3x3xf32>, tensor<2x3x3xf32>
}
