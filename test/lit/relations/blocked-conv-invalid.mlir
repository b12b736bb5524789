// RUN: relay-mlir-opt %s -split-input-file -verify-diagnostics
// The typing rule of the blocked convolutions nn.contrib_conv2d_NCHWc /
// nn.contrib_depthwise_conv2d_NCHWc (lib/Relations/Conv.cpp), one broken rule each.

func.func @blocked_data_layout(%x: tensor<1x2x5x5x4xf32>, %w: tensor<2x2x3x3x4x4xf32>) {
  // expected-error @+1 {{data_layout "NHWC4c" is not supported (expected NCHW<n>c with n >= 1, e.g. NCHW8c)}}
  %0 = relay.nn.contrib_conv2d_NCHWc %x, %w {data_layout = "NHWC4c", kernel_layout = "OIHW4i4o", out_layout = "NCHW4c"} : (tensor<1x2x5x5x4xf32>, tensor<2x2x3x3x4x4xf32>) -> tensor<1x2x3x3x4xf32>
  return
}

// -----

func.func @blocked_kernel_layout(%x: tensor<1x2x5x5x4xf32>, %w: tensor<2x2x3x3x4x4xf32>) {
  // expected-error @+1 {{kernel_layout "OIHW4o4i" is not supported (expected OIHW<n>i<m>o with n, m >= 1, e.g. OIHW8i8o)}}
  %0 = relay.nn.contrib_conv2d_NCHWc %x, %w {data_layout = "NCHW4c", kernel_layout = "OIHW4o4i", out_layout = "NCHW4c"} : (tensor<1x2x5x5x4xf32>, tensor<2x2x3x3x4x4xf32>) -> tensor<1x2x3x3x4xf32>
  return
}

// -----

func.func @blocked_out_layout_zero(%x: tensor<1x2x5x5x4xf32>, %w: tensor<2x2x3x3x4x4xf32>) {
  // expected-error @+1 {{out_layout "NCHW0c" is not supported (expected NCHW<n>c with n >= 1, e.g. NCHW8c)}}
  %0 = relay.nn.contrib_conv2d_NCHWc %x, %w {data_layout = "NCHW4c", kernel_layout = "OIHW4i4o", out_layout = "NCHW0c"} : (tensor<1x2x5x5x4xf32>, tensor<2x2x3x3x4x4xf32>) -> tensor<1x2x3x3x4xf32>
  return
}

// -----

func.func @blocked_data_rank(%x: tensor<1x8x5x5xf32>, %w: tensor<2x2x3x3x4x4xf32>) {
  // expected-error @+1 {{operand 'data' must have rank 5, got 'tensor<1x8x5x5xf32>'}}
  %0 = relay.nn.contrib_conv2d_NCHWc %x, %w {data_layout = "NCHW4c", kernel_layout = "OIHW4i4o", out_layout = "NCHW4c"} : (tensor<1x8x5x5xf32>, tensor<2x2x3x3x4x4xf32>) -> tensor<1x2x3x3x4xf32>
  return
}

// -----

func.func @blocked_weight_rank(%x: tensor<1x2x5x5x4xf32>, %w: tensor<8x8x3x3xf32>) {
  // expected-error @+1 {{operand 'weight' must have rank 6, got 'tensor<8x8x3x3xf32>'}}
  %0 = relay.nn.contrib_conv2d_NCHWc %x, %w {data_layout = "NCHW4c", kernel_layout = "OIHW4i4o", out_layout = "NCHW4c"} : (tensor<1x2x5x5x4xf32>, tensor<8x8x3x3xf32>) -> tensor<1x2x3x3x4xf32>
  return
}

// -----

func.func @blocked_data_block(%x: tensor<1x1x5x5x8xf32>, %w: tensor<2x2x3x3x4x4xf32>) {
  // expected-error @+1 {{data dim 4 is 8, but its layout NCHW4c says 4}}
  %0 = relay.nn.contrib_conv2d_NCHWc %x, %w {data_layout = "NCHW4c", kernel_layout = "OIHW4i4o", out_layout = "NCHW4c"} : (tensor<1x1x5x5x8xf32>, tensor<2x2x3x3x4x4xf32>) -> tensor<1x2x3x3x4xf32>
  return
}

// -----

func.func @blocked_weight_block(%x: tensor<1x2x5x5x4xf32>, %w: tensor<2x2x3x3x4x2xf32>) {
  // expected-error @+1 {{weight dim 5 is 2, but its layout OIHW4i4o says 4}}
  %0 = relay.nn.contrib_conv2d_NCHWc %x, %w {data_layout = "NCHW4c", kernel_layout = "OIHW4i4o", out_layout = "NCHW4c"} : (tensor<1x2x5x5x4xf32>, tensor<2x2x3x3x4x2xf32>) -> tensor<1x2x3x3x4xf32>
  return
}

// -----

func.func @blocked_out_blocks(%x: tensor<1x2x5x5x4xf32>, %w: tensor<2x2x3x3x4x4xf32>) {
  // expected-error @+1 {{output channels 8 do not split into blocks of 3 (out_layout NCHW3c)}}
  %0 = relay.nn.contrib_conv2d_NCHWc %x, %w {data_layout = "NCHW4c", kernel_layout = "OIHW4i4o", out_layout = "NCHW3c"} : (tensor<1x2x5x5x4xf32>, tensor<2x2x3x3x4x4xf32>) -> tensor<1x2x3x3x4xf32>
  return
}

// -----

func.func @blocked_in_channels(%x: tensor<1x2x5x5x4xf32>, %w: tensor<2x3x3x3x4x4xf32>) {
  // expected-error @+1 {{input channels 8 ≠ weight in-channels × groups (12 × 1)}}
  %0 = relay.nn.contrib_conv2d_NCHWc %x, %w {data_layout = "NCHW4c", kernel_layout = "OIHW4i4o", out_layout = "NCHW4c"} : (tensor<1x2x5x5x4xf32>, tensor<2x3x3x3x4x4xf32>) -> tensor<1x2x3x3x4xf32>
  return
}

// -----

func.func @blocked_negative_padding(%x: tensor<1x2x5x5x4xf32>, %w: tensor<2x2x3x3x4x4xf32>) {
  // expected-error @+1 {{padding entries must be >= 0, got -1}}
  %0 = relay.nn.contrib_conv2d_NCHWc %x, %w {padding = array<i64: -1, 1>, data_layout = "NCHW4c", kernel_layout = "OIHW4i4o", out_layout = "NCHW4c"} : (tensor<1x2x5x5x4xf32>, tensor<2x2x3x3x4x4xf32>) -> tensor<1x2x3x3x4xf32>
  return
}

// -----

func.func @depthwise_groups(%x: tensor<1x2x5x5x4xf32>, %w: tensor<2x1x3x3x1x4xf32>) {
  // expected-error @+1 {{input channels 8 ≠ weight in-channels × groups (1 × 4)}}
  %0 = relay.nn.contrib_depthwise_conv2d_NCHWc %x, %w {data_layout = "NCHW4c", groups = 4 : i64, kernel_layout = "OIHW1i4o", out_layout = "NCHW4c"} : (tensor<1x2x5x5x4xf32>, tensor<2x1x3x3x1x4xf32>) -> tensor<1x2x3x3x4xf32>
  return
}
