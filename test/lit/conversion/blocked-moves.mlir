// RUN: relay-mlir-opt %s -convert-relay-to-linalg | FileCheck %s
// The blocked convolutions and the space/batch block moves (issue 31) are
// rewritten at the relay level (BlockedConv.cpp, SpaceBatch.cpp) into
// layout_transform / nn.conv2d and nn.pad / reshape / transpose /
// strided_slice, which lower as usual: no relay op is left.

// NCHW4c data and OIHW4i4o kernel unblocked, nn.conv2d's named op, the
// result blocked by out_layout NCHW2c.
// CHECK-LABEL: func.func @blocked_conv
// CHECK: linalg.transpose ins(%{{.*}} : tensor<1x2x5x5x4xf32>) outs(%{{.*}} : tensor<1x2x4x5x5xf32>) permutation = [0, 1, 4, 2, 3]
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0], [1, 2], [3], [4]] : tensor<1x2x4x5x5xf32> into tensor<1x8x5x5xf32>
// CHECK: linalg.transpose ins(%{{.*}} : tensor<2x2x3x3x4x4xf32>) outs(%{{.*}} : tensor<2x4x2x4x3x3xf32>) permutation = [0, 5, 1, 4, 2, 3]
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2, 3], [4], [5]] : tensor<2x4x2x4x3x3xf32> into tensor<8x8x3x3xf32>
// CHECK: linalg.conv_2d_nchw_fchw
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2], [3], [4]] output_shape [1, 4, 2, 5, 5]
// CHECK: linalg.transpose {{.*}} permutation = [0, 1, 3, 4, 2]
// CHECK-NOT: relay.
func.func @blocked_conv(%x: tensor<1x2x5x5x4xf32>, %w: tensor<2x2x3x3x4x4xf32>) -> tensor<1x4x5x5x2xf32> {
  %y = relay.nn.contrib_conv2d_NCHWc %x, %w {data_layout = "NCHW4c", kernel_layout = "OIHW4i4o", out_layout = "NCHW2c", padding = array<i64: 1, 1>} : (tensor<1x2x5x5x4xf32>, tensor<2x2x3x3x4x4xf32>) -> tensor<1x4x5x5x2xf32>
  return %y : tensor<1x4x5x5x2xf32>
}

// CHECK-LABEL: func.func @blocked_depthwise
// CHECK: linalg.depthwise_conv_2d_nchw_chw {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x8x5x5xf32>, tensor<8x3x3xf32>)
// CHECK: linalg.transpose {{.*}} outs(%{{.*}} : tensor<1x2x3x3x4xf32>) permutation = [0, 1, 3, 4, 2]
// CHECK-NOT: relay.
func.func @blocked_depthwise(%x: tensor<1x2x5x5x4xf32>, %w: tensor<2x1x3x3x1x4xf32>) -> tensor<1x2x3x3x4xf32> {
  %y = relay.nn.contrib_depthwise_conv2d_NCHWc %x, %w {data_layout = "NCHW4c", groups = 8 : i64, kernel_layout = "OIHW1i4o", out_layout = "NCHW4c"} : (tensor<1x2x5x5x4xf32>, tensor<2x1x3x3x1x4xf32>) -> tensor<1x2x3x3x4xf32>
  return %y : tensor<1x2x3x3x4xf32>
}

// pad to [2, 6, 9, 3] (a fill and an insert: the pad reaches a transpose,
// PadsForIREE.h), split [2, 3, 2, 3, 3, 3] ([N, P1/b1, b1, P2/b2, b2, C]),
// the blocks first, then the batch.
// CHECK-LABEL: func.func @space_to_batch
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<2x6x9x3xf32>)
// CHECK: tensor.insert_slice %arg0 into %{{.*}}[0, 1, 0, 0] [2, 5, 6, 3] [1, 1, 1, 1]
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2], [3, 4], [5]] output_shape [2, 3, 2, 3, 3, 3]
// CHECK: linalg.transpose {{.*}} permutation = [2, 4, 0, 1, 3, 5]
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1, 2], [3], [4], [5]] : tensor<2x3x2x3x3x3xf32> into tensor<12x3x3x3xf32>
func.func @space_to_batch(%x: tensor<2x5x6x3xf32>) -> tensor<12x3x3x3xf32> {
  %y = relay.nn.space_to_batch_nd %x {block_shape = array<i64: 2, 3>, paddings = array<i64: 1, 0, 0, 3>, pad_value = 0.5 : f64} : (tensor<2x5x6x3xf32>) -> tensor<12x3x3x3xf32>
  return %y : tensor<12x3x3x3xf32>
}

// split [b1, b2, N, S1, S2, C], each Si before its bi, merged, the crops sliced.
// CHECK-LABEL: func.func @batch_to_space
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1, 2], [3], [4], [5]] output_shape [2, 3, 2, 3, 3, 3]
// CHECK: linalg.transpose {{.*}} permutation = [2, 3, 0, 4, 1, 5]
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0], [1, 2], [3, 4], [5]] : tensor<2x3x2x3x3x3xi8> into tensor<2x6x9x3xi8>
// CHECK: tensor.extract_slice %{{.*}}[0, 1, 0, 0] [2, 5, 6, 3] [1, 1, 1, 1]
func.func @batch_to_space(%x: tensor<12x3x3x3xi8>) -> tensor<2x5x6x3xi8> {
  %y = relay.nn.batch_to_space_nd %x {block_shape = array<i64: 2, 3>, crops = array<i64: 1, 0, 0, 3>} : (tensor<12x3x3x3xi8>) -> tensor<2x5x6x3xi8>
  return %y : tensor<2x5x6x3xi8>
}
