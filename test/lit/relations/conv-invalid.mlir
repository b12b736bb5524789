// RUN: relay-mlir-opt %s -split-input-file -verify-diagnostics
// The typing rules of the convolutions (lib/Relations/Conv.cpp), one broken rule each.

//===----------------------------------------------------------------------===//
// Conv2D
//===----------------------------------------------------------------------===//

// Only Relay dtypes (checked for every operator, before its typing rule):
// an index convolution used to verify and then abort in the lowering
// (linalg's region builder has no arithmetic for index).
func.func @conv2d_index_dtype(%x: tensor<1x3x8x8xindex>, %w: tensor<4x3x3x3xindex>) {
  // expected-error @+1 {{operand #0 has element type 'index', which is not a relay dtype (bool, int8-64, uint8-64, float16, bfloat16, float32, float64)}}
  %0 = relay.nn.conv2d %x, %w : (tensor<1x3x8x8xindex>, tensor<4x3x3x3xindex>) -> tensor<1x4x6x6xindex>
  return
}

// -----

func.func @conv2d_signed_dtype(%x: tensor<1x3x8x8xsi32>, %w: tensor<4x3x3x3xsi32>) {
  // expected-error @+1 {{operand #0 has element type 'si32', which is not a relay dtype}}
  %0 = relay.nn.conv2d %x, %w : (tensor<1x3x8x8xsi32>, tensor<4x3x3x3xsi32>) -> tensor<1x4x6x6xsi32>
  return
}

// -----

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

func.func @conv1d_rank(%x: tensor<1x3x16x1xf32>, %w: tensor<8x3x3xf32>) {
  // expected-error @+1 {{operand 'data' must have rank 3}}
  %0 = relay.nn.conv1d %x, %w : (tensor<1x3x16x1xf32>, tensor<8x3x3xf32>) -> tensor<1x8x14xf32>
  return
}

// -----

func.func @conv1d_groups(%x: tensor<1x4x16xf32>, %w: tensor<8x3x3xf32>) {
  // expected-error @+1 {{input channels 4 ≠ weight in-channels × groups (3 × 1)}}
  %0 = relay.nn.conv1d %x, %w : (tensor<1x4x16xf32>, tensor<8x3x3xf32>) -> tensor<1x8x14xf32>
  return
}

// -----

func.func @conv1d_padding(%x: tensor<1x3x16xf32>, %w: tensor<8x3x3xf32>) {
  // expected-error @+1 {{padding must have 1, 1 or 2 entries, got 3}}
  %0 = relay.nn.conv1d %x, %w {padding = array<i64: 1, 1, 1>} : (tensor<1x3x16xf32>, tensor<8x3x3xf32>) -> tensor<1x8x16xf32>
  return
}

// -----

func.func @conv3d_layout(%x: tensor<1x2x4x4x4xf32>, %w: tensor<4x2x3x3x3xf32>) {
  // expected-error @+1 {{data_layout "NCHW" is not supported (expected a permutation of NCDHW)}}
  %0 = relay.nn.conv3d %x, %w {data_layout = "NCHW"} : (tensor<1x2x4x4x4xf32>, tensor<4x2x3x3x3xf32>) -> tensor<1x4x2x2x2xf32>
  return
}

// -----

func.func @conv3d_window(%x: tensor<1x2x2x4x4xf32>, %w: tensor<4x2x3x3x3xf32>) {
  // expected-error @+1 {{output size along D would be 0: input size 2 + padding 0 is smaller than the dilated kernel size 3}}
  %0 = relay.nn.conv3d %x, %w : (tensor<1x2x2x4x4xf32>, tensor<4x2x3x3x3xf32>) -> tensor<1x4x1x2x2xf32>
  return
}

// -----

func.func @conv3d_strides(%x: tensor<1x2x4x4x4xf32>, %w: tensor<4x2x3x3x3xf32>) {
  // expected-error @+1 {{strides must have 3 entries, got 2}}
  %0 = relay.nn.conv3d %x, %w {strides = array<i64: 1, 1>} : (tensor<1x2x4x4x4xf32>, tensor<4x2x3x3x3xf32>) -> tensor<1x4x2x2x2xf32>
  return
}

// -----

// weight out-channels × groups used to wrap around (a negative channel
// count: RankedTensorType's assertion in the typing rule).
func.func @conv2d_transpose_groups_overflow(%x: tensor<1x?x3x3xf32>, %w: tensor<?x2x2x2xf32>) {
  // expected-error @+1 {{weight out-channels × groups: 2 * 9223372036854775807 overflows int64}}
  %0 = relay.nn.conv2d_transpose %x, %w {groups = 9223372036854775807 : i64} : (tensor<1x?x3x3xf32>, tensor<?x2x2x2xf32>) -> tensor<1x4x4x4xf32>
  return
}

// -----

func.func @conv2d_transpose_channels(%x: tensor<1x4x5x5xf32>, %w: tensor<3x2x3x3xf32>) {
  // expected-error @+1 {{input channels 4 ≠ weight in-channels 3 (weight is [in, out / groups, KH, KW] in IOHW)}}
  %0 = relay.nn.conv2d_transpose %x, %w : (tensor<1x4x5x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x2x7x7xf32>
  return
}

// -----

func.func @conv2d_transpose_output_padding(%x: tensor<1x4x5x5xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error @+1 {{output_padding [1, 1] must be smaller than the strides or the dilation}}
  %0 = relay.nn.conv2d_transpose %x, %w {output_padding = array<i64: 1, 1>} : (tensor<1x4x5x5xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x8x8xf32>
  return
}

// -----

func.func @conv2d_transpose_result(%x: tensor<1x4x5x5xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error @+1 {{result #0 has type 'tensor<1x2x7x8xf32>' but its typing rule gives 'tensor<1x2x7x7xf32>'}}
  %0 = relay.nn.conv2d_transpose %x, %w : (tensor<1x4x5x5xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x7x8xf32>
  return
}

//===----------------------------------------------------------------------===//
// Conv1DTranspose / Conv3DTranspose (inferConvTranspose with n = 1, 3)
//===----------------------------------------------------------------------===//

// -----

func.func @conv1d_transpose_data_layout(%x: tensor<1x4x5xf32>, %w: tensor<4x2x3xf32>) {
  // expected-error @+1 {{data_layout "NCHW" is not supported (expected a permutation of NCW)}}
  %0 = relay.nn.conv1d_transpose %x, %w {data_layout = "NCHW"} : (tensor<1x4x5xf32>, tensor<4x2x3xf32>) -> tensor<1x2x7xf32>
  return
}

// -----

func.func @conv1d_transpose_kernel_layout(%x: tensor<1x4x5xf32>, %w: tensor<4x2x3xf32>) {
  // expected-error @+1 {{kernel_layout "IOHW" is not supported (expected a permutation of IOW)}}
  %0 = relay.nn.conv1d_transpose %x, %w {kernel_layout = "IOHW"} : (tensor<1x4x5xf32>, tensor<4x2x3xf32>) -> tensor<1x2x7xf32>
  return
}

// -----

func.func @conv1d_transpose_out_layout(%x: tensor<1x4x5xf32>, %w: tensor<4x2x3xf32>) {
  // expected-error @+1 {{out_layout "NC" is not supported (expected a permutation of NCW)}}
  %0 = relay.nn.conv1d_transpose %x, %w {out_layout = "NC"} : (tensor<1x4x5xf32>, tensor<4x2x3xf32>) -> tensor<1x2x7xf32>
  return
}

// -----

func.func @conv1d_transpose_data_rank(%x: tensor<1x4x5x5xf32>, %w: tensor<4x2x3xf32>) {
  // expected-error @+1 {{operand 'data' must have rank 3, got 'tensor<1x4x5x5xf32>'}}
  %0 = relay.nn.conv1d_transpose %x, %w : (tensor<1x4x5x5xf32>, tensor<4x2x3xf32>) -> tensor<1x2x7xf32>
  return
}

// -----

func.func @conv1d_transpose_weight_rank(%x: tensor<1x4x5xf32>, %w: tensor<4x2xf32>) {
  // expected-error @+1 {{operand 'weight' must have rank 3, got 'tensor<4x2xf32>'}}
  %0 = relay.nn.conv1d_transpose %x, %w : (tensor<1x4x5xf32>, tensor<4x2xf32>) -> tensor<1x2x7xf32>
  return
}

// -----

func.func @conv1d_transpose_strides(%x: tensor<1x4x5xf32>, %w: tensor<4x2x3xf32>) {
  // expected-error @+1 {{strides must have 1 entries, got 2}}
  %0 = relay.nn.conv1d_transpose %x, %w {strides = array<i64: 2, 2>} : (tensor<1x4x5xf32>, tensor<4x2x3xf32>) -> tensor<1x2x7xf32>
  return
}

// -----

func.func @conv1d_transpose_dilation(%x: tensor<1x4x5xf32>, %w: tensor<4x2x3xf32>) {
  // expected-error @+1 {{dilation entries must be >= 1, got 0}}
  %0 = relay.nn.conv1d_transpose %x, %w {dilation = array<i64: 0>} : (tensor<1x4x5xf32>, tensor<4x2x3xf32>) -> tensor<1x2x7xf32>
  return
}

// -----

func.func @conv1d_transpose_output_padding_size(%x: tensor<1x4x5xf32>, %w: tensor<4x2x3xf32>) {
  // expected-error @+1 {{output_padding must have 1 entries, got 3}}
  %0 = relay.nn.conv1d_transpose %x, %w {output_padding = array<i64: 0, 0, 0>} : (tensor<1x4x5xf32>, tensor<4x2x3xf32>) -> tensor<1x2x7xf32>
  return
}

// -----

func.func @conv1d_transpose_output_padding(%x: tensor<1x4x5xf32>, %w: tensor<4x2x3xf32>) {
  // expected-error @+1 {{output_padding [2] must be smaller than the strides or the dilation}}
  %0 = relay.nn.conv1d_transpose %x, %w {strides = array<i64: 2>, output_padding = array<i64: 2>} : (tensor<1x4x5xf32>, tensor<4x2x3xf32>) -> tensor<1x2x13xf32>
  return
}

// -----

func.func @conv1d_transpose_padding(%x: tensor<1x4x5xf32>, %w: tensor<4x2x3xf32>) {
  // expected-error @+1 {{padding must have 1, 1 or 2 entries, got 3}}
  %0 = relay.nn.conv1d_transpose %x, %w {padding = array<i64: 1, 1, 1>} : (tensor<1x4x5xf32>, tensor<4x2x3xf32>) -> tensor<1x2x7xf32>
  return
}

// -----

func.func @conv1d_transpose_groups(%x: tensor<1x4x5xf32>, %w: tensor<4x2x3xf32>) {
  // expected-error @+1 {{groups must be >= 1, got 0}}
  %0 = relay.nn.conv1d_transpose %x, %w {groups = 0 : i64} : (tensor<1x4x5xf32>, tensor<4x2x3xf32>) -> tensor<1x2x7xf32>
  return
}

// -----

func.func @conv1d_transpose_groups_divide(%x: tensor<1x4x5xf32>, %w: tensor<4x2x3xf32>) {
  // expected-error @+1 {{input channels 4 are not divisible by groups 3}}
  %0 = relay.nn.conv1d_transpose %x, %w {groups = 3 : i64} : (tensor<1x4x5xf32>, tensor<4x2x3xf32>) -> tensor<1x6x7xf32>
  return
}

// -----

func.func @conv1d_transpose_in_channels(%x: tensor<1x4x5xf32>, %w: tensor<3x2x3xf32>) {
  // expected-error @+1 {{input channels 4 ≠ weight in-channels 3 (weight is [in, out / groups, KW] in IOW)}}
  %0 = relay.nn.conv1d_transpose %x, %w : (tensor<1x4x5xf32>, tensor<3x2x3xf32>) -> tensor<1x2x7xf32>
  return
}

// -----

func.func @conv1d_transpose_channels(%x: tensor<1x4x5xf32>, %w: tensor<4x2x3xf32>) {
  // expected-error @+1 {{channels attribute 3 ≠ weight out-channels × groups (2 × 2)}}
  %0 = relay.nn.conv1d_transpose %x, %w {groups = 2 : i64, channels = 3 : i64} : (tensor<1x4x5xf32>, tensor<4x2x3xf32>) -> tensor<1x4x7xf32>
  return
}

// -----

func.func @conv1d_transpose_channels_positive(%x: tensor<1x4x5xf32>, %w: tensor<4x2x3xf32>) {
  // expected-error @+1 {{channels must be >= 1, got 0}}
  %0 = relay.nn.conv1d_transpose %x, %w {channels = 0 : i64} : (tensor<1x4x5xf32>, tensor<4x2x3xf32>) -> tensor<1x2x7xf32>
  return
}

// -----

func.func @conv1d_transpose_kernel_size(%x: tensor<1x4x5xf32>, %w: tensor<4x2x3xf32>) {
  // expected-error @+1 {{kernel_size [5] ≠ weight spatial dims [3] (layout IOW)}}
  %0 = relay.nn.conv1d_transpose %x, %w {kernel_size = array<i64: 5>} : (tensor<1x4x5xf32>, tensor<4x2x3xf32>) -> tensor<1x2x7xf32>
  return
}

// -----

func.func @conv1d_transpose_output_size(%x: tensor<1x4x2xf32>, %w: tensor<4x2x1xf32>) {
  // expected-error @+1 {{output size along W would be 0: the padding exceeds the transposed window}}
  %0 = relay.nn.conv1d_transpose %x, %w {padding = array<i64: 1, 1>} : (tensor<1x4x2xf32>, tensor<4x2x1xf32>) -> tensor<1x2x1xf32>
  return
}

// -----

func.func @conv1d_transpose_out_dtype(%x: tensor<1x4x5xf32>, %w: tensor<4x2x3xf32>) {
  // expected-error @+1 {{out_dtype must be a scalar element type, got 'tensor<f32>'}}
  %0 = relay.nn.conv1d_transpose %x, %w {out_dtype = tensor<f32>} : (tensor<1x4x5xf32>, tensor<4x2x3xf32>) -> tensor<1x2x7xf32>
  return
}

// -----

func.func @conv1d_transpose_result(%x: tensor<1x4x5xf32>, %w: tensor<4x2x3xf32>) {
  // expected-error @+1 {{result #0 has type 'tensor<1x2x8xf32>' but its typing rule gives 'tensor<1x2x7xf32>'}}
  %0 = relay.nn.conv1d_transpose %x, %w : (tensor<1x4x5xf32>, tensor<4x2x3xf32>) -> tensor<1x2x8xf32>
  return
}

// -----

func.func @conv3d_transpose_data_layout(%x: tensor<1x4x3x3x3xf32>, %w: tensor<4x2x3x3x3xf32>) {
  // expected-error @+1 {{data_layout "NCW" is not supported (expected a permutation of NCDHW)}}
  %0 = relay.nn.conv3d_transpose %x, %w {data_layout = "NCW"} : (tensor<1x4x3x3x3xf32>, tensor<4x2x3x3x3xf32>) -> tensor<1x2x5x5x5xf32>
  return
}

// -----

func.func @conv3d_transpose_kernel_layout(%x: tensor<1x4x3x3x3xf32>, %w: tensor<4x2x3x3x3xf32>) {
  // expected-error @+1 {{kernel_layout "OIDHW8o" is not supported (expected a permutation of IODHW)}}
  %0 = relay.nn.conv3d_transpose %x, %w {kernel_layout = "OIDHW8o"} : (tensor<1x4x3x3x3xf32>, tensor<4x2x3x3x3xf32>) -> tensor<1x2x5x5x5xf32>
  return
}

// -----

func.func @conv3d_transpose_weight_rank(%x: tensor<1x4x3x3x3xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error @+1 {{operand 'weight' must have rank 5, got 'tensor<4x2x3x3xf32>'}}
  %0 = relay.nn.conv3d_transpose %x, %w : (tensor<1x4x3x3x3xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x5x5x5xf32>
  return
}

// -----

func.func @conv3d_transpose_strides(%x: tensor<1x4x3x3x3xf32>, %w: tensor<4x2x3x3x3xf32>) {
  // expected-error @+1 {{strides must have 3 entries, got 2}}
  %0 = relay.nn.conv3d_transpose %x, %w {strides = array<i64: 2, 2>} : (tensor<1x4x3x3x3xf32>, tensor<4x2x3x3x3xf32>) -> tensor<1x2x5x5x5xf32>
  return
}

// -----

func.func @conv3d_transpose_padding(%x: tensor<1x4x3x3x3xf32>, %w: tensor<4x2x3x3x3xf32>) {
  // expected-error @+1 {{padding entries must be >= 0, got -1}}
  %0 = relay.nn.conv3d_transpose %x, %w {padding = array<i64: 0, -1, 0>} : (tensor<1x4x3x3x3xf32>, tensor<4x2x3x3x3xf32>) -> tensor<1x2x5x5x5xf32>
  return
}

// -----

func.func @conv3d_transpose_output_padding(%x: tensor<1x4x3x3x3xf32>, %w: tensor<4x2x3x3x3xf32>) {
  // expected-error @+1 {{output_padding [0, 0, 1] must be smaller than the strides or the dilation}}
  %0 = relay.nn.conv3d_transpose %x, %w {output_padding = array<i64: 0, 0, 1>} : (tensor<1x4x3x3x3xf32>, tensor<4x2x3x3x3xf32>) -> tensor<1x2x5x5x6xf32>
  return
}

// -----

func.func @conv3d_transpose_in_channels(%x: tensor<1x4x3x3x3xf32>, %w: tensor<2x2x3x3x3xf32>) {
  // expected-error @+1 {{input channels 4 ≠ weight in-channels 2 (weight is [in, out / groups, KD, KH, KW] in IODHW)}}
  %0 = relay.nn.conv3d_transpose %x, %w : (tensor<1x4x3x3x3xf32>, tensor<2x2x3x3x3xf32>) -> tensor<1x2x5x5x5xf32>
  return
}

// -----

func.func @conv3d_transpose_groups_overflow(%x: tensor<1x?x3x3x3xf32>, %w: tensor<?x2x2x2x2xf32>) {
  // expected-error @+1 {{weight out-channels × groups: 2 * 9223372036854775807 overflows int64}}
  %0 = relay.nn.conv3d_transpose %x, %w {groups = 9223372036854775807 : i64} : (tensor<1x?x3x3x3xf32>, tensor<?x2x2x2x2xf32>) -> tensor<1x4x4x4x4xf32>
  return
}

// -----

func.func @conv3d_transpose_output_size(%x: tensor<1x4x3x3x1xf32>, %w: tensor<4x2x1x1x1xf32>) {
  // expected-error @+1 {{output size along W would be -1: the padding exceeds the transposed window}}
  %0 = relay.nn.conv3d_transpose %x, %w {padding = array<i64: 0, 0, 1, 0, 0, 1>} : (tensor<1x4x3x3x1xf32>, tensor<4x2x1x1x1xf32>) -> tensor<1x2x3x3x1xf32>
  return
}

// -----

func.func @conv3d_transpose_result(%x: tensor<?x4x3x3x3xf32>, %w: tensor<4x2x3x3x3xf32>) {
  // expected-error @+1 {{result #0 has type 'tensor<?x2x5x5x4xf32>' but its typing rule gives 'tensor<?x2x5x5x5xf32>'}}
  %0 = relay.nn.conv3d_transpose %x, %w : (tensor<?x4x3x3x3xf32>, tensor<4x2x3x3x3xf32>) -> tensor<?x2x5x5x4xf32>
  return
}

// -----

// test_fuzz_mlir mutant 14:28: a dilation of 2^62 on `?` spatial dims made
// the lowering build a negative size; the typing rule refuses it.
func.func @conv2d_dilation_overflow(%x: tensor<?x?x?x3xf32>, %w: tensor<3x3x3x8xf32>) {
  // expected-error @+1 {{dilated kernel along H: dilation 4611686018427387904 × (3 - 1) + 1 overflows int64}}
  %0 = relay.nn.conv2d %x, %w {dilation = array<i64: 4611686018427387904, 2>, data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<?x?x?x3xf32>, tensor<3x3x3x8xf32>) -> tensor<?x?x?x8xf32>
  return
}

// -----

func.func @conv1d_transpose_dilation_overflow(%x: tensor<1x4x?xf32>, %w: tensor<4x2x5xf32>) {
  // expected-error @+1 {{dilated kernel along W: dilation 4611686018427387904 × (5 - 1) + 1 overflows int64}}
  %0 = relay.nn.conv1d_transpose %x, %w {dilation = array<i64: 4611686018427387904>} : (tensor<1x4x?xf32>, tensor<4x2x5xf32>) -> tensor<1x2x?xf32>
  return
}
