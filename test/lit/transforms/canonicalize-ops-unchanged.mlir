// RUN: relay-mlir-opt %s -relay-canonicalize-ops | FileCheck %s

// Left alone: a bias_add whose sizes along the axis are a ? and a static
// size (the add would refine the ? or turn a static size into ?), and the
// operators TVM 0.19's CanonicalizeOps does not rewrite (nn.dense, add).
// CHECK-LABEL: func.func @unchanged(
// CHECK-COUNT-2: relay.nn.bias_add
// CHECK-NOT:     relay.expand_dims
// CHECK:         relay.nn.dense
func.func @unchanged(%x: tensor<2x?x4xf32>, %b: tensor<3xf32>, %y: tensor<2x1x4xf32>, %bq: tensor<?xf32>, %d: tensor<2x3xf32>, %w: tensor<5x3xf32>) -> (tensor<2x?x4xf32>, tensor<2x1x4xf32>, tensor<2x5xf32>) {
  %a = relay.nn.bias_add %x, %b {axis = 1 : i64} : (tensor<2x?x4xf32>, tensor<3xf32>) -> tensor<2x?x4xf32>
  %c = relay.nn.bias_add %y, %bq {axis = 1 : i64} : (tensor<2x1x4xf32>, tensor<?xf32>) -> tensor<2x1x4xf32>
  %e = relay.nn.dense %d, %w : (tensor<2x3xf32>, tensor<5x3xf32>) -> tensor<2x5xf32>
  return %a, %c, %e : tensor<2x?x4xf32>, tensor<2x1x4xf32>, tensor<2x5xf32>
}
