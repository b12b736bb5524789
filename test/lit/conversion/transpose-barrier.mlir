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
