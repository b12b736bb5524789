// RUN: relay-mlir-opt %s | relay-mlir-opt | FileCheck %s
// RUN: relay-mlir-opt %s -relay-infer-type | FileCheck %s --check-prefix=INFER
// Round trip and typing of TVM's blocked convolutions (AlterOpLayout on x86):
// nn.conv2d of the unblocked operands, the result blocked by out_layout.

// CHECK-LABEL: func.func @blocked
func.func @blocked(%x: tensor<1x2x5x5x4xf32>, %w: tensor<2x2x3x3x4x4xf32>,
                   %w8: tensor<1x2x3x3x4x8xf32>, %xd: tensor<?x2x5x5x4xf32>) {
  // CHECK: relay.nn.contrib_conv2d_NCHWc %{{.*}}, %{{.*}} {data_layout = "NCHW4c", kernel_layout = "OIHW4i4o", out_layout = "NCHW4c", padding = array<i64: 1, 1>} : (tensor<1x2x5x5x4xf32>, tensor<2x2x3x3x4x4xf32>) -> tensor<1x2x5x5x4xf32>
  %0 = relay.nn.contrib_conv2d_NCHWc %x, %w {data_layout = "NCHW4c", kernel_layout = "OIHW4i4o", out_layout = "NCHW4c", padding = array<i64: 1, 1>} : (tensor<1x2x5x5x4xf32>, tensor<2x2x3x3x4x4xf32>) -> tensor<1x2x5x5x4xf32>
  // 8 output channels re-blocked by 2 (out_layout), strides 2: (5 - 3) / 2 + 1 = 2
  // CHECK: relay.nn.contrib_conv2d_NCHWc {{.*}} -> tensor<1x4x2x2x2xf32>
  %1 = relay.nn.contrib_conv2d_NCHWc %x, %w8 {data_layout = "NCHW4c", kernel_layout = "OIHW4i8o", out_layout = "NCHW2c", strides = array<i64: 2, 2>} : (tensor<1x2x5x5x4xf32>, tensor<1x2x3x3x4x8xf32>) -> tensor<1x4x2x2x2xf32>
  // a run-time batch stays `?`
  // CHECK: relay.nn.contrib_conv2d_NCHWc {{.*}} -> tensor<?x2x3x3x4xf32>
  %2 = relay.nn.contrib_conv2d_NCHWc %xd, %w {data_layout = "NCHW4c", kernel_layout = "OIHW4i4o"} : (tensor<?x2x5x5x4xf32>, tensor<2x2x3x3x4x4xf32>) -> tensor<?x2x3x3x4xf32>
  return
}

// CHECK-LABEL: func.func @depthwise
func.func @depthwise(%x: tensor<1x2x5x5x4xf32>, %w: tensor<2x1x3x3x1x4xf32>) {
  // CHECK: relay.nn.contrib_depthwise_conv2d_NCHWc %{{.*}}, %{{.*}} {data_layout = "NCHW4c", groups = 8 : i64, kernel_layout = "OIHW1i4o", out_layout = "NCHW4c"} : (tensor<1x2x5x5x4xf32>, tensor<2x1x3x3x1x4xf32>) -> tensor<1x2x3x3x4xf32>
  %0 = relay.nn.contrib_depthwise_conv2d_NCHWc %x, %w {data_layout = "NCHW4c", groups = 8 : i64, kernel_layout = "OIHW1i4o", out_layout = "NCHW4c"} : (tensor<1x2x5x5x4xf32>, tensor<2x1x3x3x1x4xf32>) -> tensor<1x2x3x3x4xf32>
  return
}

// INFER-LABEL: func.func @infer
// INFER: relay.nn.contrib_conv2d_NCHWc {{.*}} -> tensor<1x8x5x5x1xf32>
// INFER: relay.nn.contrib_depthwise_conv2d_NCHWc {{.*}} -> tensor<1x1x5x5x8xf32>
func.func @infer(%x: tensor<1x2x5x5x4xf32>, %w: tensor<2x2x3x3x4x4xf32>, %wd: tensor<2x1x3x3x1x4xf32>) -> (!relay.incomplete, !relay.incomplete) {
  %0 = relay.nn.contrib_conv2d_NCHWc %x, %w {data_layout = "NCHW4c", kernel_layout = "OIHW4i4o", out_layout = "NCHW1c", padding = array<i64: 1, 1>} : (tensor<1x2x5x5x4xf32>, tensor<2x2x3x3x4x4xf32>) -> !relay.incomplete
  %1 = relay.nn.contrib_depthwise_conv2d_NCHWc %x, %wd {data_layout = "NCHW4c", groups = 8 : i64, kernel_layout = "OIHW1i4o", out_layout = "NCHW8c", padding = array<i64: 1, 1>} : (tensor<1x2x5x5x4xf32>, tensor<2x1x3x3x1x4xf32>) -> !relay.incomplete
  return %0, %1 : !relay.incomplete, !relay.incomplete
}
