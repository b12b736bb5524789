// RUN: relay-mlir-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// Dense
//===----------------------------------------------------------------------===//

func.func @dense_weight_rank(%x: tensor<1x64xf32>, %w: tensor<64xf32>) {
  // expected-error @+1 {{operand 'weight' must have rank 2, got 'tensor<64xf32>'}}
  %0 = relay.nn.dense %x, %w : (tensor<1x64xf32>, tensor<64xf32>) -> tensor<1x10xf32>
  return
}

// -----

func.func @dense_data_rank(%x: tensor<f32>, %w: tensor<10x64xf32>) {
  // expected-error @+1 {{operand 'data' must have rank >= 1, got 'tensor<f32>'}}
  %0 = relay.nn.dense %x, %w : (tensor<f32>, tensor<10x64xf32>) -> tensor<10xf32>
  return
}

// -----

func.func @dense_k(%x: tensor<1x64xf32>, %w: tensor<10x32xf32>) {
  // expected-error @+1 {{data reduction dim (last) 64 ≠ weight dim 1 32 (weight must be [units, k])}}
  %0 = relay.nn.dense %x, %w : (tensor<1x64xf32>, tensor<10x32xf32>) -> tensor<1x10xf32>
  return
}

// -----

func.func @dense_units(%x: tensor<1x64xf32>, %w: tensor<10x64xf32>) {
  // expected-error @+1 {{units attribute 12 ≠ weight dim 0 10}}
  %0 = relay.nn.dense %x, %w {units = 12 : i64} : (tensor<1x64xf32>, tensor<10x64xf32>) -> tensor<1x12xf32>
  return
}

// -----

func.func @dense_units_positive(%x: tensor<1x64xf32>, %w: tensor<10x64xf32>) {
  // expected-error @+1 {{units must be >= 1, got 0}}
  %0 = relay.nn.dense %x, %w {units = 0 : i64} : (tensor<1x64xf32>, tensor<10x64xf32>) -> tensor<1x10xf32>
  return
}

// -----

func.func @dense_out_dtype(%x: tensor<1x64xf32>, %w: tensor<10x64xf32>) {
  // expected-error @+1 {{out_dtype must be a scalar element type, got 'tensor<f32>'}}
  %0 = relay.nn.dense %x, %w {out_dtype = tensor<f32>} : (tensor<1x64xf32>, tensor<10x64xf32>) -> tensor<1x10xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// BiasAdd
//===----------------------------------------------------------------------===//

func.func @bias_add_rank(%x: tensor<1x8xf32>, %b: tensor<1x8xf32>) {
  // expected-error @+1 {{operand 'bias' must have rank 1, got 'tensor<1x8xf32>'}}
  %0 = relay.nn.bias_add %x, %b : (tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<1x8xf32>
  return
}

// -----

func.func @bias_add_axis(%x: tensor<1x8xf32>, %b: tensor<8xf32>) {
  // expected-error @+1 {{axis -3 is out of range for rank 2}}
  %0 = relay.nn.bias_add %x, %b {axis = -3 : i64} : (tensor<1x8xf32>, tensor<8xf32>) -> tensor<1x8xf32>
  return
}

// -----

func.func @bias_add_size(%x: tensor<1x8x4x4xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{bias size 4 ≠ data dim 1 (axis) 8}}
  %0 = relay.nn.bias_add %x, %b : (tensor<1x8x4x4xf32>, tensor<4xf32>) -> tensor<1x8x4x4xf32>
  return
}

// -----

func.func @bias_add_dtype(%x: tensor<1x8xf32>, %b: tensor<8xf16>) {
  // expected-error @+1 {{bias dtype 'f16' ≠ data dtype 'f32'}}
  %0 = relay.nn.bias_add %x, %b : (tensor<1x8xf32>, tensor<8xf16>) -> tensor<1x8xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Conv2D
//===----------------------------------------------------------------------===//

func.func @conv2d_data_layout(%x: tensor<1x3x32x32xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error @+1 {{data_layout "NCHW8c" is not supported (expected a permutation of NCHW)}}
  %0 = relay.nn.conv2d %x, %w {data_layout = "NCHW8c"} : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x30x30xf32>
  return
}

// -----

func.func @conv2d_kernel_layout(%x: tensor<1x3x32x32xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error @+1 {{kernel_layout "NCHW" is not supported (expected a permutation of OIHW)}}
  %0 = relay.nn.conv2d %x, %w {kernel_layout = "NCHW"} : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x30x30xf32>
  return
}

// -----

func.func @conv2d_out_layout(%x: tensor<1x3x32x32xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error @+1 {{out_layout "NHW" is not supported (expected a permutation of NCHW)}}
  %0 = relay.nn.conv2d %x, %w {out_layout = "NHW"} : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x30x30xf32>
  return
}

// -----

func.func @conv2d_data_rank(%x: tensor<3x32x32xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error @+1 {{operand 'data' must have rank 4, got 'tensor<3x32x32xf32>'}}
  %0 = relay.nn.conv2d %x, %w : (tensor<3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<8x30x30xf32>
  return
}

// -----

func.func @conv2d_weight_rank(%x: tensor<1x3x32x32xf32>, %w: tensor<8x3x3xf32>) {
  // expected-error @+1 {{operand 'weight' must have rank 4, got 'tensor<8x3x3xf32>'}}
  %0 = relay.nn.conv2d %x, %w : (tensor<1x3x32x32xf32>, tensor<8x3x3xf32>) -> tensor<1x8x30x30xf32>
  return
}

// -----

func.func @conv2d_strides_size(%x: tensor<1x3x32x32xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error @+1 {{strides must have 2 entries, got 1}}
  %0 = relay.nn.conv2d %x, %w {strides = array<i64: 2>} : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x15x15xf32>
  return
}

// -----

func.func @conv2d_strides_value(%x: tensor<1x3x32x32xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error @+1 {{strides entries must be >= 1, got 0}}
  %0 = relay.nn.conv2d %x, %w {strides = array<i64: 0, 1>} : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x30x30xf32>
  return
}

// -----

func.func @conv2d_dilation_size(%x: tensor<1x3x32x32xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error @+1 {{dilation must have 2 entries, got 3}}
  %0 = relay.nn.conv2d %x, %w {dilation = array<i64: 1, 1, 1>} : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x30x30xf32>
  return
}

// -----

func.func @conv2d_padding_size(%x: tensor<1x3x32x32xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error @+1 {{padding must have 1, 2 or 4 entries, got 3}}
  %0 = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1, 1>} : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x32x32xf32>
  return
}

// -----

func.func @conv2d_padding_negative(%x: tensor<1x3x32x32xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error @+1 {{padding entries must be >= 0, got -1}}
  %0 = relay.nn.conv2d %x, %w {padding = array<i64: -1, 0>} : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x28x30xf32>
  return
}

// -----

func.func @conv2d_groups(%x: tensor<1x3x32x32xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error @+1 {{groups must be >= 1, got 0}}
  %0 = relay.nn.conv2d %x, %w {groups = 0 : i64} : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x30x30xf32>
  return
}

// -----

func.func @conv2d_channels_positive(%x: tensor<1x3x32x32xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error @+1 {{channels must be >= 1, got -8}}
  %0 = relay.nn.conv2d %x, %w {channels = -8 : i64} : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x30x30xf32>
  return
}

// -----

func.func @conv2d_kernel_size_entries(%x: tensor<1x3x32x32xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error @+1 {{kernel_size must have 2 entries, got 1}}
  %0 = relay.nn.conv2d %x, %w {kernel_size = array<i64: 3>} : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x30x30xf32>
  return
}

// -----

func.func @conv2d_in_channels(%x: tensor<1x3x32x32xf32>, %w: tensor<8x4x3x3xf32>) {
  // expected-error @+1 {{input channels 3 ≠ weight in-channels × groups (4 × 1)}}
  %0 = relay.nn.conv2d %x, %w : (tensor<1x3x32x32xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x30x30xf32>
  return
}

// -----

func.func @conv2d_in_channels_groups(%x: tensor<1x8x32x32xf32>, %w: tensor<8x4x3x3xf32>) {
  // expected-error @+1 {{input channels 8 ≠ weight in-channels × groups (4 × 4)}}
  %0 = relay.nn.conv2d %x, %w {groups = 4 : i64} : (tensor<1x8x32x32xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x30x30xf32>
  return
}

// -----

func.func @conv2d_in_channels_divisible(%x: tensor<1x6x32x32xf32>, %w: tensor<8x2x3x3xf32>) {
  // expected-error @+1 {{input channels 6 are not divisible by groups 4}}
  %0 = relay.nn.conv2d %x, %w {groups = 4 : i64} : (tensor<1x6x32x32xf32>, tensor<8x2x3x3xf32>) -> tensor<1x8x30x30xf32>
  return
}

// -----

func.func @conv2d_out_channels_divisible(%x: tensor<1x8x32x32xf32>, %w: tensor<6x2x3x3xf32>) {
  // expected-error @+1 {{weight out-channels 6 are not divisible by groups 4}}
  %0 = relay.nn.conv2d %x, %w {groups = 4 : i64} : (tensor<1x8x32x32xf32>, tensor<6x2x3x3xf32>) -> tensor<1x6x30x30xf32>
  return
}

// -----

func.func @conv2d_channels(%x: tensor<1x3x32x32xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error @+1 {{channels attribute 16 ≠ weight out-channels 8}}
  %0 = relay.nn.conv2d %x, %w {channels = 16 : i64} : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<1x16x30x30xf32>
  return
}

// -----

func.func @conv2d_kernel_size(%x: tensor<1x3x32x32xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error @+1 {{kernel_size [5, 5] ≠ weight spatial dims [3, 3] (layout OIHW)}}
  %0 = relay.nn.conv2d %x, %w {kernel_size = array<i64: 5, 5>} : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x28x28xf32>
  return
}

// -----

func.func @conv2d_depthwise_multiple(%x: tensor<1x8x16x16xf32>, %w: tensor<8x1x3x3xf32>) {
  // expected-error @+1 {{channels 12 must be a multiple of the input channels 8 for a depthwise convolution (groups = 8)}}
  %0 = relay.nn.conv2d %x, %w {groups = 8 : i64, channels = 12 : i64, kernel_size = array<i64: 3, 3>} : (tensor<1x8x16x16xf32>, tensor<8x1x3x3xf32>) -> tensor<1x12x14x14xf32>
  return
}

// -----

func.func @conv2d_depthwise_multiplier(%x: tensor<1x8x16x16xf32>, %w: tensor<8x1x3x3xf32>) {
  // expected-error @+1 {{weight in-channels 1 ≠ channels / input channels (16 / 8) for a depthwise convolution}}
  %0 = relay.nn.conv2d %x, %w {groups = 8 : i64, channels = 16 : i64, kernel_size = array<i64: 3, 3>} : (tensor<1x8x16x16xf32>, tensor<8x1x3x3xf32>) -> tensor<1x16x14x14xf32>
  return
}

// -----

func.func @conv2d_output_height(%x: tensor<1x3x2x32xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error @+1 {{output height would be 0: input height 2 + padding 0 is smaller than the dilated kernel height 3}}
  %0 = relay.nn.conv2d %x, %w : (tensor<1x3x2x32xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x0x30xf32>
  return
}

// -----

func.func @conv2d_output_width(%x: tensor<1x3x32x4xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error @+1 {{output width would be 0: input width 4 + padding 0 is smaller than the dilated kernel width 5}}
  %0 = relay.nn.conv2d %x, %w {dilation = array<i64: 1, 2>, strides = array<i64: 1, 2>} : (tensor<1x3x32x4xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x30x1xf32>
  return
}

// -----

func.func @conv2d_out_dtype(%x: tensor<1x3x32x32xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error @+1 {{out_dtype must be a scalar element type, got 'tensor<f32>'}}
  %0 = relay.nn.conv2d %x, %w {out_dtype = tensor<f32>} : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x30x30xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Pool2D, GlobalPool2D
//===----------------------------------------------------------------------===//

func.func @pool_layout(%x: tensor<1x8x32x32xf32>) {
  // expected-error @+1 {{layout "NCW" is not supported (expected a permutation of NCHW)}}
  %0 = relay.nn.max_pool2d %x {layout = "NCW"} : (tensor<1x8x32x32xf32>) -> tensor<1x8x32x32xf32>
  return
}

// -----

func.func @pool_out_layout(%x: tensor<1x8x32x32xf32>) {
  // expected-error @+1 {{out_layout "NHWC" must be empty or equal to layout "NCHW"}}
  %0 = relay.nn.avg_pool2d %x {out_layout = "NHWC"} : (tensor<1x8x32x32xf32>) -> tensor<1x8x32x32xf32>
  return
}

// -----

func.func @pool_rank(%x: tensor<8x32x32xf32>) {
  // expected-error @+1 {{operand 'data' must have rank 4, got 'tensor<8x32x32xf32>'}}
  %0 = relay.nn.max_pool2d %x : (tensor<8x32x32xf32>) -> tensor<8x32x32xf32>
  return
}

// -----

func.func @pool_size_entries(%x: tensor<1x8x32x32xf32>) {
  // expected-error @+1 {{pool_size must have 2 entries, got 1}}
  %0 = relay.nn.max_pool2d %x {pool_size = array<i64: 2>} : (tensor<1x8x32x32xf32>) -> tensor<1x8x31x31xf32>
  return
}

// -----

func.func @pool_size_value(%x: tensor<1x8x32x32xf32>) {
  // expected-error @+1 {{pool_size entries must be >= 1, got 0}}
  %0 = relay.nn.max_pool2d %x {pool_size = array<i64: 0, 2>} : (tensor<1x8x32x32xf32>) -> tensor<1x8x32x31xf32>
  return
}

// -----

func.func @pool_strides(%x: tensor<1x8x32x32xf32>) {
  // expected-error @+1 {{strides entries must be >= 1, got -2}}
  %0 = relay.nn.avg_pool2d %x {strides = array<i64: -2, 2>} : (tensor<1x8x32x32xf32>) -> tensor<1x8x16x16xf32>
  return
}

// -----

func.func @pool_dilation(%x: tensor<1x8x32x32xf32>) {
  // expected-error @+1 {{dilation must have 2 entries, got 0}}
  %0 = relay.nn.max_pool2d %x {dilation = array<i64>} : (tensor<1x8x32x32xf32>) -> tensor<1x8x32x32xf32>
  return
}

// -----

func.func @pool_padding(%x: tensor<1x8x32x32xf32>) {
  // expected-error @+1 {{padding must have 1, 2 or 4 entries, got 0}}
  %0 = relay.nn.max_pool2d %x {padding = array<i64>} : (tensor<1x8x32x32xf32>) -> tensor<1x8x32x32xf32>
  return
}

// -----

func.func @pool_output_height(%x: tensor<1x8x2x32xf32>) {
  // expected-error @+1 {{output height would be 0: input height 2 + padding 0 is smaller than the dilated pool height 3}}
  %0 = relay.nn.max_pool2d %x {pool_size = array<i64: 3, 3>} : (tensor<1x8x2x32xf32>) -> tensor<1x8x0x30xf32>
  return
}

// -----

func.func @pool_output_width(%x: tensor<1x8x32x3xf32>) {
  // expected-error @+1 {{output width would be -1: input width 3 + padding 0 is smaller than the dilated pool width 5}}
  %0 = relay.nn.max_pool2d %x {pool_size = array<i64: 3, 3>, dilation = array<i64: 1, 2>} : (tensor<1x8x32x3xf32>) -> tensor<1x8x30x0xf32>
  return
}

// -----

func.func @global_pool_layout(%x: tensor<1x8x7x7xf32>) {
  // expected-error @+1 {{layout "NCHH" is not supported (expected a permutation of NCHW)}}
  %0 = relay.nn.global_avg_pool2d %x {layout = "NCHH"} : (tensor<1x8x7x7xf32>) -> tensor<1x8x1x1xf32>
  return
}

// -----

func.func @global_pool_out_layout(%x: tensor<1x8x7x7xf32>) {
  // expected-error @+1 {{out_layout "NHWC" must be empty or equal to layout "NCHW"}}
  %0 = relay.nn.global_avg_pool2d %x {out_layout = "NHWC"} : (tensor<1x8x7x7xf32>) -> tensor<1x8x1x1xf32>
  return
}

// -----

func.func @global_pool_rank(%x: tensor<1x8x7x7x1xf32>) {
  // expected-error @+1 {{operand 'data' must have rank 4, got 'tensor<1x8x7x7x1xf32>'}}
  %0 = relay.nn.global_avg_pool2d %x : (tensor<1x8x7x7x1xf32>) -> tensor<1x8x1x1x1xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// BatchFlatten
//===----------------------------------------------------------------------===//

func.func @batch_flatten_rank(%x: tensor<f32>) {
  // expected-error @+1 {{operand 'data' must have rank >= 1, got 'tensor<f32>'}}
  %0 = relay.nn.batch_flatten %x : (tensor<f32>) -> tensor<1x1xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// BatchNorm
//===----------------------------------------------------------------------===//

func.func @batch_norm_axis(%x: tensor<1x8x4x4xf32>, %p: tensor<4xf32>) {
  // expected-error @+1 {{axis -2 is out of range for rank 4 (expected -1 <= axis < 4)}}
  %0 = relay.nn.batch_norm %x, %p, %p, %p, %p {axis = -2 : i64} : (tensor<1x8x4x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<1x8x4x4xf32>, tensor<4xf32>, tensor<4xf32>>
  return
}

// -----

func.func @batch_norm_param_rank(%x: tensor<1x8x4x4xf32>, %p: tensor<8xf32>, %q: tensor<8x1xf32>) {
  // expected-error @+1 {{operand 'beta' must have rank 1, got 'tensor<8x1xf32>'}}
  %0 = relay.nn.batch_norm %x, %p, %q, %p, %p : (tensor<1x8x4x4xf32>, tensor<8xf32>, tensor<8x1xf32>, tensor<8xf32>, tensor<8xf32>) -> tuple<tensor<1x8x4x4xf32>, tensor<8xf32>, tensor<8xf32>>
  return
}

// -----

func.func @batch_norm_param_size(%x: tensor<1x8x4x4xf32>, %p: tensor<8xf32>, %q: tensor<4xf32>) {
  // expected-error @+1 {{operand 'moving_var' size 4 ≠ data dim 1 (axis) 8}}
  %0 = relay.nn.batch_norm %x, %p, %p, %p, %q : (tensor<1x8x4x4xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<4xf32>) -> tuple<tensor<1x8x4x4xf32>, tensor<8xf32>, tensor<8xf32>>
  return
}

// -----

func.func @batch_norm_param_dtype(%x: tensor<1x8x4x4xf32>, %p: tensor<8xf32>, %q: tensor<8xf16>) {
  // expected-error @+1 {{operand 'gamma' dtype 'f16' ≠ data dtype 'f32'}}
  %0 = relay.nn.batch_norm %x, %q, %p, %p, %p : (tensor<1x8x4x4xf32>, tensor<8xf16>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tuple<tensor<1x8x4x4xf32>, tensor<8xf32>, tensor<8xf32>>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Softmax (AxisIdentity)
//===----------------------------------------------------------------------===//

func.func @softmax_axis(%x: tensor<2x10xf32>) {
  // expected-error @+1 {{axis 2 is out of range for rank 2}}
  %0 = relay.nn.softmax %x {axis = 2 : i64} : (tensor<2x10xf32>) -> tensor<2x10xf32>
  return
}
