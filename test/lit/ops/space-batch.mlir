// RUN: relay-mlir-opt %s | relay-mlir-opt | FileCheck %s
// RUN: relay-mlir-opt %s -relay-infer-type | FileCheck %s --check-prefix=INFER
// Round trip and typing of nn.space_to_batch_nd / nn.batch_to_space_nd
// (paddings and crops flattened as (before, after) pairs).

// CHECK-LABEL: func.func @moves
func.func @moves(%x: tensor<2x5x6x3xf32>, %b: tensor<12x3x3x3xf32>, %d: tensor<?x4x?xi8>) {
  // (5 + 1) / 2 = 3, (6 + 3) / 3 = 3, batch 2 * 6
  // CHECK: relay.nn.space_to_batch_nd %{{.*}} {block_shape = array<i64: 2, 3>, pad_value = 5.000000e-01 : f64, paddings = array<i64: 1, 0, 0, 3>} : (tensor<2x5x6x3xf32>) -> tensor<12x3x3x3xf32>
  %0 = relay.nn.space_to_batch_nd %x {block_shape = array<i64: 2, 3>, paddings = array<i64: 1, 0, 0, 3>, pad_value = 0.5 : f64} : (tensor<2x5x6x3xf32>) -> tensor<12x3x3x3xf32>
  // 3 * 2 - 1 = 5, 3 * 3 - 3 = 6
  // CHECK: relay.nn.batch_to_space_nd %{{.*}} {block_shape = array<i64: 2, 3>, crops = array<i64: 1, 0, 0, 3>} : (tensor<12x3x3x3xf32>) -> tensor<2x5x6x3xf32>
  %1 = relay.nn.batch_to_space_nd %b {block_shape = array<i64: 2, 3>, crops = array<i64: 1, 0, 0, 3>} : (tensor<12x3x3x3xf32>) -> tensor<2x5x6x3xf32>
  // run-time dims stay `?`
  // CHECK: relay.nn.space_to_batch_nd {{.*}} : (tensor<?x4x?xi8>) -> tensor<?x2x?xi8>
  %2 = relay.nn.space_to_batch_nd %d {block_shape = array<i64: 2>, paddings = array<i64: 0, 0>} : (tensor<?x4x?xi8>) -> tensor<?x2x?xi8>
  // CHECK: relay.nn.batch_to_space_nd {{.*}} : (tensor<?x4x?xi8>) -> tensor<?x7x?xi8>
  %3 = relay.nn.batch_to_space_nd %d {block_shape = array<i64: 2>, crops = array<i64: 1, 0>} : (tensor<?x4x?xi8>) -> tensor<?x7x?xi8>
  return
}

// INFER-LABEL: func.func @infer
// INFER: relay.nn.space_to_batch_nd {{.*}} -> tensor<4x2x2x3xf32>
// INFER: relay.nn.batch_to_space_nd {{.*}} -> tensor<1x4x2x3xf32>
func.func @infer(%x: tensor<1x4x4x3xf32>) -> !relay.incomplete {
  %0 = relay.nn.space_to_batch_nd %x {block_shape = array<i64: 2, 2>, paddings = array<i64: 0, 0, 0, 0>} : (tensor<1x4x4x3xf32>) -> !relay.incomplete
  %1 = relay.nn.batch_to_space_nd %0 {block_shape = array<i64: 2, 2>, crops = array<i64: 0, 0, 1, 1>} : (!relay.incomplete) -> !relay.incomplete
  return %1 : !relay.incomplete
}
