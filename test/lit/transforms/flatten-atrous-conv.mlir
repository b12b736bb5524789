// RUN: relay-mlir-opt %s -relay-flatten-atrous-conv | FileCheck %s

// TensorFlow's SAME atrous conv of rate 2: one conv2d dilated by the block,
// padded by the paddings (no crops), as TVM 0.19 flattens it.
// CHECK-LABEL: func.func @same_rate2(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<1x10x10x3xf32>, %[[W:[^:]*]]: tensor<3x3x3x4xf32>
// CHECK-NEXT:    %[[Y:.*]] = relay.nn.conv2d %[[X]], %[[W]] {data_layout = "NHWC", dilation = array<i64: 2, 2>, kernel_layout = "HWIO", padding = array<i64: 2, 2, 2, 2>} : (tensor<1x10x10x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x10x10x4xf32>
// CHECK-NEXT:    return %[[Y]]
func.func @same_rate2(%x: tensor<1x10x10x3xf32>, %w: tensor<3x3x3x4xf32>) -> tensor<1x10x10x4xf32> {
  %s = relay.nn.space_to_batch_nd %x {block_shape = array<i64: 2, 2>, paddings = array<i64: 2, 2, 2, 2>} : (tensor<1x10x10x3xf32>) -> tensor<4x7x7x3xf32>
  %c = relay.nn.conv2d %s, %w {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<4x7x7x3xf32>, tensor<3x3x3x4xf32>) -> tensor<4x5x5x4xf32>
  %y = relay.nn.batch_to_space_nd %c {block_shape = array<i64: 2, 2>, crops = array<i64: 0, 0, 0, 0>} : (tensor<4x5x5x4xf32>) -> tensor<1x10x10x4xf32>
  return %y : tensor<1x10x10x4xf32>
}

// Rate 3 with crops: padding = paddings - crops, [top, left, bottom, right]
// (H: 3 - 0, 5 - 2; W: 3 - 1, 8 - 4).
// CHECK-LABEL: func.func @cropped_rate3(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<1x7x7x2xf32>, %[[W:[^:]*]]: tensor<3x3x2x4xf32>
// CHECK-NEXT:    %[[Y:.*]] = relay.nn.conv2d %[[X]], %[[W]] {data_layout = "NHWC", dilation = array<i64: 3, 3>, kernel_layout = "HWIO", padding = array<i64: 3, 2, 3, 4>} : (tensor<1x7x7x2xf32>, tensor<3x3x2x4xf32>) -> tensor<1x7x7x4xf32>
// CHECK-NEXT:    return %[[Y]]
func.func @cropped_rate3(%x: tensor<1x7x7x2xf32>, %w: tensor<3x3x2x4xf32>) -> tensor<1x7x7x4xf32> {
  %s = relay.nn.space_to_batch_nd %x {block_shape = array<i64: 3, 3>, paddings = array<i64: 3, 5, 3, 8>} : (tensor<1x7x7x2xf32>) -> tensor<9x5x6x2xf32>
  %c = relay.nn.conv2d %s, %w {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<9x5x6x2xf32>, tensor<3x3x2x4xf32>) -> tensor<9x3x4x4xf32>
  %y = relay.nn.batch_to_space_nd %c {block_shape = array<i64: 3, 3>, crops = array<i64: 0, 2, 1, 4>} : (tensor<9x3x4x4xf32>) -> tensor<1x7x7x4xf32>
  return %y : tensor<1x7x7x4xf32>
}

// A VALID atrous conv (no paddings, no crops): no padding (TVM 0.19 pads it
// SAME and its type checker rejects the result).
// CHECK-LABEL: func.func @valid_rate2(
// CHECK-NEXT:    %[[Y:.*]] = relay.nn.conv2d %{{[^,]*}}, %{{[^ ]*}} {data_layout = "NHWC", dilation = array<i64: 2, 2>, kernel_layout = "HWIO", padding = array<i64: 0, 0, 0, 0>} : (tensor<1x10x10x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x6x6x4xf32>
// CHECK-NEXT:    return %[[Y]]
func.func @valid_rate2(%x: tensor<1x10x10x3xf32>, %w: tensor<3x3x3x4xf32>) -> tensor<1x6x6x4xf32> {
  %s = relay.nn.space_to_batch_nd %x {block_shape = array<i64: 2, 2>, paddings = array<i64: 0, 0, 0, 0>} : (tensor<1x10x10x3xf32>) -> tensor<4x5x5x3xf32>
  %c = relay.nn.conv2d %s, %w {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<4x5x5x3xf32>, tensor<3x3x3x4xf32>) -> tensor<4x3x3x4xf32>
  %y = relay.nn.batch_to_space_nd %c {block_shape = array<i64: 2, 2>, crops = array<i64: 0, 0, 0, 0>} : (tensor<4x3x3x4xf32>) -> tensor<1x6x6x4xf32>
  return %y : tensor<1x6x6x4xf32>
}

// The conv's other attributes stay (an int8 depthwise conv with channels,
// kernel_size and out_dtype); a conv with another use stays for that use,
// the batch_to_space_nd reads the dilated conv.
// CHECK-LABEL: func.func @attributes_and_other_uses(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<1x4x4x2xi8>, %[[W:[^:]*]]: tensor<3x3x2x1xi8>
// CHECK-NEXT:    %[[S:.*]] = relay.nn.space_to_batch_nd %[[X]]
// CHECK-NEXT:    %[[C:.*]] = relay.nn.conv2d %[[S]], %[[W]] {channels = 2 : i64, data_layout = "NHWC", groups = 2 : i64, kernel_layout = "HWOI", kernel_size = array<i64: 3, 3>, out_dtype = i32}
// CHECK-NEXT:    %[[Y:.*]] = relay.nn.conv2d %[[X]], %[[W]] {channels = 2 : i64, data_layout = "NHWC", dilation = array<i64: 2, 2>, groups = 2 : i64, kernel_layout = "HWOI", kernel_size = array<i64: 3, 3>, out_dtype = i32, padding = array<i64: 2, 2, 2, 2>} : (tensor<1x4x4x2xi8>, tensor<3x3x2x1xi8>) -> tensor<1x4x4x2xi32>
// CHECK-NEXT:    return %[[C]], %[[Y]]
func.func @attributes_and_other_uses(%x: tensor<1x4x4x2xi8>, %w: tensor<3x3x2x1xi8>) -> (tensor<4x2x2x2xi32>, tensor<1x4x4x2xi32>) {
  %s = relay.nn.space_to_batch_nd %x {block_shape = array<i64: 2, 2>, paddings = array<i64: 2, 2, 2, 2>} : (tensor<1x4x4x2xi8>) -> tensor<4x4x4x2xi8>
  %c = relay.nn.conv2d %s, %w {channels = 2 : i64, data_layout = "NHWC", groups = 2 : i64, kernel_layout = "HWOI", kernel_size = array<i64: 3, 3>, out_dtype = i32} : (tensor<4x4x4x2xi8>, tensor<3x3x2x1xi8>) -> tensor<4x2x2x2xi32>
  %y = relay.nn.batch_to_space_nd %c {block_shape = array<i64: 2, 2>, crops = array<i64: 0, 0, 0, 0>} : (tensor<4x2x2x2xi32>) -> tensor<1x4x4x2xi32>
  return %c, %y : tensor<4x2x2x2xi32>, tensor<1x4x4x2xi32>
}
