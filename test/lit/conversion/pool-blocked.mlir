// RUN: relay-mlir-opt %s -convert-relay-to-linalg | FileCheck %s
// A pool with blocked channels (NCHW4c, from AlterOpLayout) runs as the plain
// pool between the layout_transforms' lowerings: each block moved next to
// its channel group and collapsed into C, pooled in NCHW, then split again.

// CHECK-LABEL: func.func @max_pool_nchw4c
// CHECK:         linalg.transpose ins(%{{.*}} : tensor<1x2x8x8x4xf32>) {{.*}} permutation = [0, 1, 4, 2, 3]
// CHECK:         tensor.collapse_shape {{.*}} tensor<1x2x4x8x8xf32> into tensor<1x8x8x8xf32>
// CHECK:         linalg.pooling_nchw_max {{.*}} outs(%{{.*}} : tensor<1x8x4x4xf32>)
// CHECK:         tensor.expand_shape {{.*}} tensor<1x8x4x4xf32> into tensor<1x2x4x4x4xf32>
// CHECK:         linalg.transpose {{.*}} permutation = [0, 1, 3, 4, 2]
// CHECK-NOT:     relay.
func.func @max_pool_nchw4c(%x: tensor<1x2x8x8x4xf32>) -> tensor<1x2x4x4x4xf32> {
  %y = relay.nn.max_pool2d %x {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>, layout = "NCHW4c"} : (tensor<1x2x8x8x4xf32>) -> tensor<1x2x4x4x4xf32>
  return %y : tensor<1x2x4x4x4xf32>
}

// CHECK-LABEL: func.func @global_avg_pool_nchw8c
// CHECK:         linalg.reduce
// CHECK:         linalg.transpose ins(%{{.*}} : tensor<1x1x8x1x1xf32>) {{.*}} permutation = [0, 1, 3, 4, 2]
// CHECK-NOT:     relay.
func.func @global_avg_pool_nchw8c(%x: tensor<1x1x3x3x8xf32>) -> tensor<1x1x1x1x8xf32> {
  %y = relay.nn.global_avg_pool2d %x {layout = "NCHW8c"} : (tensor<1x1x3x3x8xf32>) -> tensor<1x1x1x1x8xf32>
  return %y : tensor<1x1x1x1x8xf32>
}
