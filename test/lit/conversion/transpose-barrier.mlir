// RUN: relay-mlir-opt %s --allow-unregistered-dialect -convert-relay-to-linalg | FileCheck %s
// Without unregistered dialects allowed (IREE's util ops are built in
// generic form) the barrier is left out and the IR is the same otherwise:
// RUN: relay-mlir-opt %s -convert-relay-to-linalg | FileCheck %s --check-prefix=NOBARRIER
// NOBARRIER-NOT: util.optimization_barrier

// A transpose whose user also reads, untransposed, a value its input is
// computed from is materialized (IREE 3.13 miscomputes `y + transpose(y)`
// with `y = x * sum(x, 1)`; random-program fuzzer, seed 3 program 160);
// one that nothing else reads that way is left to IREE's fusion.
// CHECK-LABEL: func.func @transpose_read_both_ways
// CHECK: %[[T:.*]] = linalg.transpose
// CHECK: "util.optimization_barrier"(%[[T]])
func.func @transpose_read_both_ways(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %s = relay.sum %x {axis = array<i64: 1>, keepdims = true} : (tensor<4x4xf32>) -> tensor<4x1xf32>
  %y = relay.multiply %x, %s : (tensor<4x4xf32>, tensor<4x1xf32>) -> tensor<4x4xf32>
  %t = relay.transpose %y {axes = array<i64: 1, 0>} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %r = relay.add %y, %t : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// CHECK-LABEL: func.func @transpose_read_once
// CHECK: linalg.transpose
// CHECK-NOT: util.optimization_barrier
// CHECK: return
func.func @transpose_read_once(%x: tensor<4x4xf32>, %z: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %s = relay.sum %x {axis = array<i64: 1>, keepdims = true} : (tensor<4x4xf32>) -> tensor<4x1xf32>
  %y = relay.multiply %x, %s : (tensor<4x4xf32>, tensor<4x1xf32>) -> tensor<4x4xf32>
  %t = relay.transpose %y {axes = array<i64: 1, 0>} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %r = relay.add %z, %t : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// Not for dynamic shapes: IREE cannot resolve the dims of a barrier's
// dynamically shaped result ("tensor.dim op unexpected during shape
// cleanup": the ONNX LSTM with a run-time sequence length).
// CHECK-LABEL: func.func @transpose_read_both_ways_dynamic
// CHECK: linalg.transpose
// CHECK-NOT: util.optimization_barrier
// CHECK: return
func.func @transpose_read_both_ways_dynamic(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %s = relay.sum %x {axis = array<i64: 1>, keepdims = true} : (tensor<?x?xf32>) -> tensor<?x1xf32>
  %y = relay.multiply %x, %s : (tensor<?x?xf32>, tensor<?x1xf32>) -> tensor<?x?xf32>
  %t = relay.transpose %y {axes = array<i64: 1, 0>} : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = relay.add %y, %t : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// The transpose that makes a convolution's data layout (relay-convert-layout's
// NCHW -> NHWC) is materialized: IREE 3.13 fuses it into an unpadded
// convolution's dispatch, which then reads its input through the permutation
// (40x slower on 56x56x64 3x3; a padded convolution has the tensor.pad
// between them). Its other users do not matter; a transpose of the weight
// is left to IREE (it folds into the constant).
// CHECK-LABEL: func.func @transpose_into_convolution
// CHECK: %[[T:.*]] = linalg.transpose
// CHECK: %[[B:.*]] = "util.optimization_barrier"(%[[T]])
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[B]],
// CHECK-NOT: util.optimization_barrier
// CHECK: return
func.func @transpose_into_convolution(%x: tensor<1x4x84x84xf32>, %w: tensor<32x4x8x8xf32>) -> tensor<1x20x20x32xf32> {
  %t = relay.transpose %x {axes = array<i64: 0, 2, 3, 1>} : (tensor<1x4x84x84xf32>) -> tensor<1x84x84x4xf32>
  %k = relay.transpose %w {axes = array<i64: 2, 3, 1, 0>} : (tensor<32x4x8x8xf32>) -> tensor<8x8x4x32xf32>
  %y = relay.nn.conv2d %t, %k {strides = array<i64: 4, 4>, data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x84x84x4xf32>, tensor<8x8x4x32xf32>) -> tensor<1x20x20x32xf32>
  return %y : tensor<1x20x20x32xf32>
}
