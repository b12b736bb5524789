// RUN: relay-mlir-opt %s -relay-flatten-atrous-conv | FileCheck %s

// Left alone, as no dilated conv equals the three ops: the conv pads
// itself, has strides or a dilation of its own, or is NCHW; the pad value
// is not 0; a crop exceeds its padding; the two block shapes differ or have
// one entry; no conv2d between the block moves.
// CHECK-LABEL: func.func @unchanged(
// CHECK-NEXT:    %[[S0:.*]] = relay.nn.space_to_batch_nd
// CHECK-NEXT:    %[[C0:.*]] = relay.nn.conv2d %[[S0]], {{.*}}padding = array<i64: 1, 1>}
// CHECK-NEXT:    relay.nn.batch_to_space_nd %[[C0]]
// CHECK-NEXT:    %[[S1:.*]] = relay.nn.space_to_batch_nd
// CHECK-NEXT:    %[[C1:.*]] = relay.nn.conv2d %[[S1]], {{.*}}strides = array<i64: 2, 2>}
// CHECK-NEXT:    relay.nn.batch_to_space_nd %[[C1]]
// CHECK-NEXT:    %[[S2:.*]] = relay.nn.space_to_batch_nd
// CHECK-NEXT:    %[[C2:.*]] = relay.nn.conv2d %[[S2]], {{.*}}dilation = array<i64: 2, 2>, kernel_layout = "HWIO"}
// CHECK-NEXT:    relay.nn.batch_to_space_nd %[[C2]]
// CHECK-NEXT:    %[[S3:.*]] = relay.nn.space_to_batch_nd {{.*}}pad_value = 1.0
// CHECK-NEXT:    %[[C3:.*]] = relay.nn.conv2d %[[S3]],
// CHECK-NEXT:    relay.nn.batch_to_space_nd %[[C3]]
// CHECK-NEXT:    %[[S4:.*]] = relay.nn.space_to_batch_nd
// CHECK-NEXT:    %[[C4:.*]] = relay.nn.conv2d %[[S4]],
// CHECK-NEXT:    relay.nn.batch_to_space_nd %[[C4]] {block_shape = array<i64: 2, 2>, crops = array<i64: 3, 0, 0, 0>}
// CHECK-NEXT:    %[[S5:.*]] = relay.nn.space_to_batch_nd
// CHECK-NEXT:    %[[C5:.*]] = relay.nn.conv2d %[[S5]],
// CHECK-NEXT:    relay.nn.batch_to_space_nd %[[C5]] {block_shape = array<i64: 1, 4>
// CHECK-NEXT:    %[[S6:.*]] = relay.nn.space_to_batch_nd
// CHECK-NEXT:    %[[R6:.*]] = relay.nn.relu %[[S6]]
// CHECK-NEXT:    relay.nn.batch_to_space_nd %[[R6]]
// CHECK-NEXT:    return
func.func @unchanged(%x: tensor<1x10x10x3xf32>, %w: tensor<3x3x3x4xf32>) -> (tensor<1x10x10x4xf32>, tensor<1x6x6x4xf32>, tensor<1x6x6x4xf32>, tensor<1x10x10x4xf32>, tensor<1x7x10x4xf32>, tensor<1x5x20x4xf32>, tensor<1x10x10x3xf32>) {
  %s = relay.nn.space_to_batch_nd %x {block_shape = array<i64: 2, 2>, paddings = array<i64: 2, 2, 2, 2>} : (tensor<1x10x10x3xf32>) -> tensor<4x7x7x3xf32>
  // the conv pads itself
  %c0 = relay.nn.conv2d %s, %w {data_layout = "NHWC", kernel_layout = "HWIO", padding = array<i64: 1, 1>} : (tensor<4x7x7x3xf32>, tensor<3x3x3x4xf32>) -> tensor<4x7x7x4xf32>
  %y0 = relay.nn.batch_to_space_nd %c0 {block_shape = array<i64: 2, 2>, crops = array<i64: 2, 2, 2, 2>} : (tensor<4x7x7x4xf32>) -> tensor<1x10x10x4xf32>
  // strides 2
  %s1 = relay.nn.space_to_batch_nd %x {block_shape = array<i64: 2, 2>, paddings = array<i64: 2, 2, 2, 2>} : (tensor<1x10x10x3xf32>) -> tensor<4x7x7x3xf32>
  %c1 = relay.nn.conv2d %s1, %w {data_layout = "NHWC", kernel_layout = "HWIO", strides = array<i64: 2, 2>} : (tensor<4x7x7x3xf32>, tensor<3x3x3x4xf32>) -> tensor<4x3x3x4xf32>
  %y1 = relay.nn.batch_to_space_nd %c1 {block_shape = array<i64: 2, 2>, crops = array<i64: 0, 0, 0, 0>} : (tensor<4x3x3x4xf32>) -> tensor<1x6x6x4xf32>
  // dilation 2
  %s2 = relay.nn.space_to_batch_nd %x {block_shape = array<i64: 2, 2>, paddings = array<i64: 2, 2, 2, 2>} : (tensor<1x10x10x3xf32>) -> tensor<4x7x7x3xf32>
  %c2 = relay.nn.conv2d %s2, %w {data_layout = "NHWC", kernel_layout = "HWIO", dilation = array<i64: 2, 2>} : (tensor<4x7x7x3xf32>, tensor<3x3x3x4xf32>) -> tensor<4x3x3x4xf32>
  %y2 = relay.nn.batch_to_space_nd %c2 {block_shape = array<i64: 2, 2>, crops = array<i64: 0, 0, 0, 0>} : (tensor<4x3x3x4xf32>) -> tensor<1x6x6x4xf32>
  // pad value 1
  %s3 = relay.nn.space_to_batch_nd %x {block_shape = array<i64: 2, 2>, paddings = array<i64: 2, 2, 2, 2>, pad_value = 1.0} : (tensor<1x10x10x3xf32>) -> tensor<4x7x7x3xf32>
  %c3 = relay.nn.conv2d %s3, %w {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<4x7x7x3xf32>, tensor<3x3x3x4xf32>) -> tensor<4x5x5x4xf32>
  %y3 = relay.nn.batch_to_space_nd %c3 {block_shape = array<i64: 2, 2>, crops = array<i64: 0, 0, 0, 0>} : (tensor<4x5x5x4xf32>) -> tensor<1x10x10x4xf32>
  // a crop of 3 exceeds the padding of 2 (it cuts into the data)
  %s4 = relay.nn.space_to_batch_nd %x {block_shape = array<i64: 2, 2>, paddings = array<i64: 2, 2, 2, 2>} : (tensor<1x10x10x3xf32>) -> tensor<4x7x7x3xf32>
  %c4 = relay.nn.conv2d %s4, %w {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<4x7x7x3xf32>, tensor<3x3x3x4xf32>) -> tensor<4x5x5x4xf32>
  %y4 = relay.nn.batch_to_space_nd %c4 {block_shape = array<i64: 2, 2>, crops = array<i64: 3, 0, 0, 0>} : (tensor<4x5x5x4xf32>) -> tensor<1x7x10x4xf32>
  // block shapes [2, 2] and [1, 4]
  %s5 = relay.nn.space_to_batch_nd %x {block_shape = array<i64: 2, 2>, paddings = array<i64: 2, 2, 2, 2>} : (tensor<1x10x10x3xf32>) -> tensor<4x7x7x3xf32>
  %c5 = relay.nn.conv2d %s5, %w {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<4x7x7x3xf32>, tensor<3x3x3x4xf32>) -> tensor<4x5x5x4xf32>
  %y5 = relay.nn.batch_to_space_nd %c5 {block_shape = array<i64: 1, 4>, crops = array<i64: 0, 0, 0, 0>} : (tensor<4x5x5x4xf32>) -> tensor<1x5x20x4xf32>
  // no conv2d between the block moves
  %s6 = relay.nn.space_to_batch_nd %x {block_shape = array<i64: 2, 2>, paddings = array<i64: 0, 0, 0, 0>} : (tensor<1x10x10x3xf32>) -> tensor<4x5x5x3xf32>
  %r6 = relay.nn.relu %s6 : (tensor<4x5x5x3xf32>) -> tensor<4x5x5x3xf32>
  %y6 = relay.nn.batch_to_space_nd %r6 {block_shape = array<i64: 2, 2>, crops = array<i64: 0, 0, 0, 0>} : (tensor<4x5x5x3xf32>) -> tensor<1x10x10x3xf32>
  return %y0, %y1, %y2, %y3, %y4, %y5, %y6 : tensor<1x10x10x4xf32>, tensor<1x6x6x4xf32>, tensor<1x6x6x4xf32>, tensor<1x10x10x4xf32>, tensor<1x7x10x4xf32>, tensor<1x5x20x4xf32>, tensor<1x10x10x3xf32>
}

// An NCHW conv (the blocks are C and H here); a one-entry block_shape.
// CHECK-LABEL: func.func @layouts_and_blocks(
// CHECK-NEXT:    %[[S:.*]] = relay.nn.space_to_batch_nd
// CHECK-NEXT:    %[[C:.*]] = relay.nn.conv2d %[[S]], %{{[^ ]*}} :
// CHECK-NEXT:    relay.nn.batch_to_space_nd %[[C]]
// CHECK-NEXT:    %[[S1:.*]] = relay.nn.space_to_batch_nd
// CHECK-NEXT:    %[[C1:.*]] = relay.nn.conv2d %[[S1]], %{{[^ ]*}} {data_layout = "NHWC", kernel_layout = "HWIO"}
// CHECK-NEXT:    relay.nn.batch_to_space_nd %[[C1]]
// CHECK-NEXT:    return
func.func @layouts_and_blocks(%x: tensor<1x4x4x2xf32>, %w: tensor<3x2x1x1xf32>, %xh: tensor<1x10x10x3xf32>, %wh: tensor<3x3x3x4xf32>) -> (tensor<1x6x4x2xf32>, tensor<1x6x8x4xf32>) {
  %s = relay.nn.space_to_batch_nd %x {block_shape = array<i64: 2, 2>, paddings = array<i64: 0, 0, 0, 0>} : (tensor<1x4x4x2xf32>) -> tensor<4x2x2x2xf32>
  %c = relay.nn.conv2d %s, %w : (tensor<4x2x2x2xf32>, tensor<3x2x1x1xf32>) -> tensor<4x3x2x2xf32>
  %y = relay.nn.batch_to_space_nd %c {block_shape = array<i64: 2, 2>, crops = array<i64: 0, 0, 0, 0>} : (tensor<4x3x2x2xf32>) -> tensor<1x6x4x2xf32>
  %s1 = relay.nn.space_to_batch_nd %xh {block_shape = array<i64: 2>, paddings = array<i64: 0, 0>} : (tensor<1x10x10x3xf32>) -> tensor<2x5x10x3xf32>
  %c1 = relay.nn.conv2d %s1, %wh {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<2x5x10x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x3x8x4xf32>
  %y1 = relay.nn.batch_to_space_nd %c1 {block_shape = array<i64: 2>, crops = array<i64: 0, 0>} : (tensor<2x3x8x4xf32>) -> tensor<1x6x8x4xf32>
  return %y, %y1 : tensor<1x6x4x2xf32>, tensor<1x6x8x4xf32>
}
