// RUN: relay-mlir-opt %s -relay-combine-parallel-conv2d | FileCheck %s
// RUN: relay-mlir-opt %s -relay-combine-parallel-conv2d=min-num-branches=4 | FileCheck %s --check-prefix=MIN4

// Three convs of %x, each followed by an add of a per-channel bias and a
// relu: one conv of the concatenated weights, one add of the concatenated
// biases, one relu, a slice per branch. With min-num-branches=4 nothing.
// CHECK-LABEL: func.func @bias_relu(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<1x4x8x8xf32>, %[[W1:[^:]*]]: tensor<2x4x3x3xf32>, %[[W2:[^:]*]]: tensor<3x4x3x3xf32>, %[[W3:[^:]*]]: tensor<4x4x3x3xf32>, %[[B1:[^:]*]]: tensor<2x1x1xf32>, %[[B2:[^:]*]]: tensor<3x1x1xf32>, %[[B3:[^:]*]]: tensor<4x1x1xf32>
// CHECK:         %[[W:.*]] = relay.concatenate %[[W1]], %[[W2]], %[[W3]] : {{.*}} -> tensor<9x4x3x3xf32>
// CHECK-NEXT:    %[[C:.*]] = relay.nn.conv2d %[[X]], %[[W]] {channels = 9 : i64, padding = array<i64: 1, 1>} : {{.*}} -> tensor<1x9x8x8xf32>
// CHECK-NEXT:    %[[B:.*]] = relay.concatenate %[[B1]], %[[B2]], %[[B3]] : {{.*}} -> tensor<9x1x1xf32>
// CHECK-NEXT:    %[[A:.*]] = relay.add %[[C]], %[[B]]
// CHECK-NEXT:    %[[R:.*]] = relay.nn.relu %[[A]]
// CHECK-NEXT:    %[[S1:.*]] = relay.strided_slice %[[R]] {begin = array<i64: 0, 0>, end = array<i64: -1, 2>, slice_mode = "size", strides = array<i64: 1, 1>} : (tensor<1x9x8x8xf32>) -> tensor<1x2x8x8xf32>
// CHECK-NEXT:    %[[S2:.*]] = relay.strided_slice %[[R]] {begin = array<i64: 0, 2>, end = array<i64: -1, 3>, slice_mode = "size", strides = array<i64: 1, 1>} : (tensor<1x9x8x8xf32>) -> tensor<1x3x8x8xf32>
// CHECK-NEXT:    %[[S3:.*]] = relay.strided_slice %[[R]] {begin = array<i64: 0, 5>, end = array<i64: -1, 4>, slice_mode = "size", strides = array<i64: 1, 1>} : (tensor<1x9x8x8xf32>) -> tensor<1x4x8x8xf32>
// CHECK-NEXT:    return %[[S1]], %[[S2]], %[[S3]]
// MIN4-LABEL: func.func @bias_relu(
// MIN4-COUNT-3: relay.nn.conv2d
// MIN4-NOT:     relay.strided_slice
func.func @bias_relu(%x: tensor<1x4x8x8xf32>, %w1: tensor<2x4x3x3xf32>, %w2: tensor<3x4x3x3xf32>, %w3: tensor<4x4x3x3xf32>, %b1: tensor<2x1x1xf32>, %b2: tensor<3x1x1xf32>, %b3: tensor<4x1x1xf32>) -> (tensor<1x2x8x8xf32>, tensor<1x3x8x8xf32>, tensor<1x4x8x8xf32>) {
  %c1 = relay.nn.conv2d %x, %w1 {padding = array<i64: 1, 1>} : (tensor<1x4x8x8xf32>, tensor<2x4x3x3xf32>) -> tensor<1x2x8x8xf32>
  %a1 = relay.add %c1, %b1 : (tensor<1x2x8x8xf32>, tensor<2x1x1xf32>) -> tensor<1x2x8x8xf32>
  %r1 = relay.nn.relu %a1 : (tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  %c2 = relay.nn.conv2d %x, %w2 {padding = array<i64: 1, 1>} : (tensor<1x4x8x8xf32>, tensor<3x4x3x3xf32>) -> tensor<1x3x8x8xf32>
  %a2 = relay.add %c2, %b2 : (tensor<1x3x8x8xf32>, tensor<3x1x1xf32>) -> tensor<1x3x8x8xf32>
  %r2 = relay.nn.relu %a2 : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  %c3 = relay.nn.conv2d %x, %w3 {padding = array<i64: 1, 1>} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x8x8xf32>
  %a3 = relay.add %c3, %b3 : (tensor<1x4x8x8xf32>, tensor<4x1x1xf32>) -> tensor<1x4x8x8xf32>
  %r3 = relay.nn.relu %a3 : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  return %r1, %r2, %r3 : tensor<1x2x8x8xf32>, tensor<1x3x8x8xf32>, tensor<1x4x8x8xf32>
}

// A branch's result read (by a reshape) before the last conv: the reader
// moves after the slices. A conv with other strides stays apart; the three
// others combine (NHWC: weights joined on O, slices on the last axis).
// CHECK-LABEL: func.func @reader_moves(
// CHECK:         relay.nn.conv2d {{.*}} strides = array<i64: 2, 2>
// CHECK-NEXT:    relay.concatenate {{.*}} {axis = 3 : i64}
// CHECK-NEXT:    relay.nn.conv2d {{.*}} {channels = 6 : i64, data_layout = "NHWC", kernel_layout = "HWIO"}
// CHECK-NEXT:    %[[S1:.*]] = relay.strided_slice {{.*}} {begin = array<i64: 0, 0, 0, 0>, end = array<i64: -1, -1, -1, 2>
// CHECK-NEXT:    relay.strided_slice {{.*}} {begin = array<i64: 0, 0, 0, 2>, end = array<i64: -1, -1, -1, 2>
// CHECK-NEXT:    relay.strided_slice {{.*}} {begin = array<i64: 0, 0, 0, 4>, end = array<i64: -1, -1, -1, 2>
// CHECK-NEXT:    relay.reshape %[[S1]]
func.func @reader_moves(%x: tensor<1x8x8x4xf32>, %w1: tensor<3x3x4x2xf32>, %w2: tensor<3x3x4x2xf32>, %w3: tensor<3x3x4x2xf32>, %w4: tensor<3x3x4x2xf32>) -> (tensor<72xf32>, tensor<1x6x6x2xf32>, tensor<1x6x6x2xf32>, tensor<1x3x3x2xf32>) {
  %c1 = relay.nn.conv2d %x, %w1 {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x8x8x4xf32>, tensor<3x3x4x2xf32>) -> tensor<1x6x6x2xf32>
  %r = relay.reshape %c1 {newshape = array<i64: -1>} : (tensor<1x6x6x2xf32>) -> tensor<72xf32>
  %c2 = relay.nn.conv2d %x, %w2 {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x8x8x4xf32>, tensor<3x3x4x2xf32>) -> tensor<1x6x6x2xf32>
  %c4 = relay.nn.conv2d %x, %w4 {data_layout = "NHWC", kernel_layout = "HWIO", strides = array<i64: 2, 2>} : (tensor<1x8x8x4xf32>, tensor<3x3x4x2xf32>) -> tensor<1x3x3x2xf32>
  %c3 = relay.nn.conv2d %x, %w3 {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x8x8x4xf32>, tensor<3x3x4x2xf32>) -> tensor<1x6x6x2xf32>
  return %r, %c2, %c3, %c4 : tensor<72xf32>, tensor<1x6x6x2xf32>, tensor<1x6x6x2xf32>, tensor<1x3x3x2xf32>
}

// A branch's conv also read by a function call has two readers, so its
// branch ends at the conv (as TVM's children of a Call node): the convs
// combine, the relus stay apart (TVM 0.19: concatenate, conv2d, 3 slices,
// 3 relus for the same program).
// CHECK-LABEL: func.func @called(
// CHECK:         relay.nn.conv2d {{.*}} {channels = 6 : i64}
// CHECK-COUNT-3: relay.strided_slice
// CHECK-NEXT:    relay.nn.relu
// CHECK-NEXT:    call @use
// CHECK-COUNT-2: relay.nn.relu
func.func private @use(%a: tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32> {
  return %a : tensor<1x2x6x6xf32>
}
func.func @called(%x: tensor<1x4x8x8xf32>, %w1: tensor<2x4x3x3xf32>, %w2: tensor<2x4x3x3xf32>, %w3: tensor<2x4x3x3xf32>) -> (tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>) {
  %c1 = relay.nn.conv2d %x, %w1 : (tensor<1x4x8x8xf32>, tensor<2x4x3x3xf32>) -> tensor<1x2x6x6xf32>
  %r1 = relay.nn.relu %c1 : (tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %u = func.call @use(%c1) : (tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %c2 = relay.nn.conv2d %x, %w2 : (tensor<1x4x8x8xf32>, tensor<2x4x3x3xf32>) -> tensor<1x2x6x6xf32>
  %r2 = relay.nn.relu %c2 : (tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %c3 = relay.nn.conv2d %x, %w3 : (tensor<1x4x8x8xf32>, tensor<2x4x3x3xf32>) -> tensor<1x2x6x6xf32>
  %r3 = relay.nn.relu %c3 : (tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  return %r1, %u, %r2, %r3 : tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>
}
