// RUN: relay-mlir-opt %s -relay-infer-type | FileCheck %s

// Pools with blocked channels (TVM's NCHW4c, what AlterOpLayout leaves after
// a blocked conv): the sub-axis is kept, H and W pooled.
// CHECK-LABEL: func.func @blocked
func.func @blocked(%x: tensor<1x2x8x8x4xf32>) -> (!relay.incomplete, !relay.incomplete, !relay.incomplete, !relay.incomplete) {
  // CHECK: relay.nn.max_pool2d {{.*}} -> tensor<1x2x4x4x4xf32>
  %0 = relay.nn.max_pool2d %x {pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1>, layout = "NCHW4c"} : (tensor<1x2x8x8x4xf32>) -> !relay.incomplete
  // CHECK: relay.nn.global_avg_pool2d {{.*}} -> tensor<1x2x1x1x4xf32>
  %1 = relay.nn.global_avg_pool2d %x {layout = "NCHW4c"} : (tensor<1x2x8x8x4xf32>) -> !relay.incomplete
  // CHECK: relay.nn.adaptive_avg_pool2d {{.*}} -> tensor<1x2x3x2x4xf32>
  %2 = relay.nn.adaptive_avg_pool2d %x {output_size = array<i64: 3, 2>, layout = "NCHW4c"} : (tensor<1x2x8x8x4xf32>) -> !relay.incomplete
  // CHECK: relay.nn.avg_pool2d {{.*}} -> tensor<1x2x4x4x4xf32>
  %3 = relay.nn.avg_pool2d %x {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>, layout = "NCHW4c", out_layout = "NCHW4c"} : (tensor<1x2x8x8x4xf32>) -> !relay.incomplete
  return %0, %1, %2, %3 : !relay.incomplete, !relay.incomplete, !relay.incomplete, !relay.incomplete
}
