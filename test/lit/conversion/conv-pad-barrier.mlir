// RUN: relay-mlir-opt %s --allow-unregistered-dialect -convert-relay-to-linalg | FileCheck %s
// Without unregistered dialects allowed (IREE's util ops are built in
// generic form) the barrier is left out:
// RUN: relay-mlir-opt %s -convert-relay-to-linalg | FileCheck %s --check-prefix=NOBARRIER
// NOBARRIER-NOT: util.optimization_barrier

// relay-mlir's llvm-cpu flags let IREE fuse a tensor.pad into the window op
// that reads it (depthwise convolutions gain); the padded input of a direct
// float convolution stays a tensor of its own behind a barrier (IREE 3.13's
// conv_2d_nhwc_hwcf is slower with the pad fused into it).

// CHECK-LABEL: func.func @direct_nhwc_padded
// CHECK: %[[P:.+]] = tensor.pad
// CHECK: %[[B:.+]] = "util.optimization_barrier"(%[[P]]) : (tensor<1x34x34x8xf32>) -> tensor<1x34x34x8xf32>
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[B]], %{{.+}} : tensor<1x34x34x8xf32>, tensor<3x3x8x16xf32>)
func.func @direct_nhwc_padded(%x: tensor<1x32x32x8xf32>, %w: tensor<3x3x8x16xf32>) -> tensor<1x32x32x16xf32> {
  %y = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>, data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x32x32x8xf32>, tensor<3x3x8x16xf32>) -> tensor<1x32x32x16xf32>
  return %y : tensor<1x32x32x16xf32>
}

// Padding no window reads is left out (stride 2: high 0); the pad goes
// behind the barrier.
// CHECK-LABEL: func.func @direct_nchw_padded_stride2
// CHECK: %[[P:.+]] = tensor.pad %{{.+}} low[0, 0, 1, 1] high[0, 0, 0, 0]
// CHECK: %[[B:.+]] = "util.optimization_barrier"(%[[P]]) : (tensor<1x3x65x65xf32>)
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%[[B]], %{{.+}} :
func.func @direct_nchw_padded_stride2(%x: tensor<1x3x64x64xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<1x8x32x32xf32> {
  %y = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x3x64x64xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x32x32xf32>
  return %y : tensor<1x8x32x32xf32>
}

// Input rows no window reads (stride 4) are cropped after the pad: the crop
// goes behind the barrier.
// CHECK-LABEL: func.func @direct_nchw_padded_cropped
// CHECK: %[[P:.+]] = tensor.pad %{{.+}} low[0, 0, 1, 1] high[0, 0, 0, 0]
// CHECK: %[[C:.+]] = tensor.extract_slice %[[P]]
// CHECK: %[[B:.+]] = "util.optimization_barrier"(%[[C]]) : (tensor<1x3x67x67xf32>)
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%[[B]], %{{.+}} :
func.func @direct_nchw_padded_cropped(%x: tensor<1x3x67x67xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<1x8x17x17xf32> {
  %y = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>, strides = array<i64: 4, 4>} : (tensor<1x3x67x67xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x17x17xf32>
  return %y : tensor<1x8x17x17xf32>
}

// No padding: nothing to keep apart.
// CHECK-LABEL: func.func @direct_unpadded
// CHECK-NOT: util.optimization_barrier
// CHECK: linalg.conv_2d_nhwc_hwcf
func.func @direct_unpadded(%x: tensor<1x32x32x8xf32>, %w: tensor<3x3x8x16xf32>) -> tensor<1x30x30x16xf32> {
  %y = relay.nn.conv2d %x, %w {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x32x32x8xf32>, tensor<3x3x8x16xf32>) -> tensor<1x30x30x16xf32>
  return %y : tensor<1x30x30x16xf32>
}

// Depthwise convolutions take the fused padding: no barrier.
// CHECK-LABEL: func.func @depthwise_padded
// CHECK: %[[P:.+]] = tensor.pad
// CHECK-NOT: util.optimization_barrier
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc {{.*}} ins(%[[P]],
func.func @depthwise_padded(%x: tensor<1x32x32x8xf32>, %w: tensor<3x3x8x1xf32>) -> tensor<1x32x32x8xf32> {
  %y = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>, groups = 8 : i64, data_layout = "NHWC", kernel_layout = "HWOI"} : (tensor<1x32x32x8xf32>, tensor<3x3x8x1xf32>) -> tensor<1x32x32x8xf32>
  return %y : tensor<1x32x32x8xf32>
}

// Not for run-time sizes (IREE cannot resolve the dims of a barrier's
// dynamically shaped result).
// CHECK-LABEL: func.func @direct_dynamic_batch
// CHECK-NOT: util.optimization_barrier
// CHECK: return
func.func @direct_dynamic_batch(%x: tensor<?x4x32x32xf32>, %w: tensor<8x4x3x3xf32>) -> tensor<?x8x32x32xf32> {
  %y = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>} : (tensor<?x4x32x32xf32>, tensor<8x4x3x3xf32>) -> tensor<?x8x32x32xf32>
  return %y : tensor<?x8x32x32xf32>
}

// A padded 1x1 window (any dtype, any strategy): IREE 3.13 shifts the result
// of a pad fused into it by the low padding, so the pad goes behind a barrier.
// CHECK-LABEL: func.func @one_by_one_integer_depthwise_padded
// CHECK: %[[P:.+]] = tensor.pad %{{.+}} low[0, 0, 1, 0] high[0, 0, 1, 0]
// CHECK: %[[B:.+]] = "util.optimization_barrier"(%[[P]]) : (tensor<1x2x5x2xi32>)
// CHECK: linalg.depthwise_conv_2d_nchw_chw {{.*}} ins(%[[B]], %{{.+}} :
func.func @one_by_one_integer_depthwise_padded(%x: tensor<1x2x3x2xi32>, %w: tensor<2x1x1x1xi32>) -> tensor<1x2x5x2xi32> {
  %y = relay.nn.conv2d %x, %w {padding = array<i64: 1, 0>, groups = 2 : i64} : (tensor<1x2x3x2xi32>, tensor<2x1x1x1xi32>) -> tensor<1x2x5x2xi32>
  return %y : tensor<1x2x5x2xi32>
}

// A pool padded along W only (ceil_mode's overhang): IREE 3.13 hangs on the
// pad fused into it, so it goes behind a barrier; padded along both spatial
// dims it stays fused.
// CHECK-LABEL: func.func @max_pool_ceil_padded_along_w_only
// CHECK: %[[P:.+]] = tensor.pad %{{.+}} low[0, 0, 0, 0] high[0, 0, 0, 1]
// CHECK: %[[B:.+]] = "util.optimization_barrier"(%[[P]]) : (tensor<2x2x7x9xf32>)
// CHECK: linalg.pooling_nchw_max {{.*}} ins(%[[B]], %{{.+}} :
func.func @max_pool_ceil_padded_along_w_only(%x: tensor<2x2x7x8xf32>) -> tensor<2x2x3x4xf32> {
  %y = relay.nn.max_pool2d %x {pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, ceil_mode = true} : (tensor<2x2x7x8xf32>) -> tensor<2x2x3x4xf32>
  return %y : tensor<2x2x3x4xf32>
}

// CHECK-LABEL: func.func @max_pool_padded_along_both
// CHECK: %[[P:.+]] = tensor.pad
// CHECK-NOT: util.optimization_barrier
// CHECK: linalg.pooling_nchw_max {{.*}} ins(%[[P]], %{{.+}} :
func.func @max_pool_padded_along_both(%x: tensor<1x2x8x8xf32>) -> tensor<1x2x4x4xf32> {
  %y = relay.nn.max_pool2d %x {pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1>} : (tensor<1x2x8x8xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}
