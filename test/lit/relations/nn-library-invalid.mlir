// RUN: relay-mlir-opt %s -split-input-file -verify-diagnostics
// The rules of the operator-library nn.* relations, one broken rule each.

func.func @matmul_k(%a: tensor<2x8xf32>, %b: tensor<5x8xf32>) {
  // expected-error @+1 {{tensor_a reduction dim (last) 8 ≠ tensor_b dim 0 5 (tensor_b must be [k, units])}}
  %0 = relay.nn.matmul %a, %b : (tensor<2x8xf32>, tensor<5x8xf32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @matmul_transpose_a_rank(%a: tensor<8xf32>, %b: tensor<8x5xf32>) {
  // expected-error @+1 {{operand 'tensor_a' must have rank >= 2, got 'tensor<8xf32>'}}
  %0 = relay.nn.matmul %a, %b {transpose_a = true} : (tensor<8xf32>, tensor<8x5xf32>) -> tensor<5xf32>
  return
}

// -----

func.func @batch_matmul_batch(%x: tensor<2x3x4xf32>, %y: tensor<3x5x4xf32>) {
  // expected-error @+1 {{batch dims 2 (x) and 3 (y) differ and neither is 1}}
  %0 = relay.nn.batch_matmul %x, %y : (tensor<2x3x4xf32>, tensor<3x5x4xf32>) -> tensor<2x3x5xf32>
  return
}

// -----

func.func @batch_matmul_k(%x: tensor<2x3x4xf32>, %y: tensor<2x4x5xf32>) {
  // expected-error @+1 {{reduction dims differ: x dim 2 4 ≠ y dim 2 5 (x is [b, m, k], y is [b, n, k])}}
  %0 = relay.nn.batch_matmul %x, %y : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x4xf32>
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
  // expected-error @+1 {{result #0 has type 'tensor<1x2x7x8xf32>' but its type relation Conv2DTranspose gives 'tensor<1x2x7x7xf32>'}}
  %0 = relay.nn.conv2d_transpose %x, %w : (tensor<1x4x5x5xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x7x8xf32>
  return
}

// -----

func.func @pool1d_pool_size(%x: tensor<1x2x9xf32>) {
  // expected-error @+1 {{pool_size must have 1 entries, got 2}}
  %0 = relay.nn.max_pool1d %x {pool_size = array<i64: 2, 2>} : (tensor<1x2x9xf32>) -> tensor<1x2x8xf32>
  return
}

// -----

func.func @pool3d_window(%x: tensor<1x2x2x5x5xf32>) {
  // expected-error @+1 {{output size along D would be 0: input size 2 + padding 0 is smaller than the dilated pool size 3}}
  %0 = relay.nn.avg_pool3d %x {pool_size = array<i64: 3, 3, 3>} : (tensor<1x2x2x5x5xf32>) -> tensor<1x2x1x3x3xf32>
  return
}

// -----

func.func @pool3d_out_layout(%x: tensor<1x2x5x5x5xf32>) {
  // expected-error @+1 {{out_layout "NCDHW" must be empty or equal to layout "NDHWC"}}
  %0 = relay.nn.max_pool3d %x {layout = "NDHWC", out_layout = "NCDHW"} : (tensor<1x2x5x5x5xf32>) -> tensor<1x2x5x5x5xf32>
  return
}

// -----

func.func @global_max_pool_rank(%x: tensor<1x2x5xf32>) {
  // expected-error @+1 {{operand 'data' must have rank 4}}
  %0 = relay.nn.global_max_pool2d %x : (tensor<1x2x5xf32>) -> tensor<1x2x1xf32>
  return
}

// -----

func.func @adaptive_output_size(%x: tensor<1x2x5x5xf32>) {
  // expected-error @+1 {{output_size must have 0, 1 or 2 entries, got 3}}
  %0 = relay.nn.adaptive_avg_pool2d %x {output_size = array<i64: 1, 2, 3>} : (tensor<1x2x5x5xf32>) -> tensor<1x2x1x2xf32>
  return
}

// -----

func.func @adaptive_output_size_value(%x: tensor<1x2x5x5xf32>) {
  // expected-error @+1 {{output_size entries must be >= 1, got 0}}
  %0 = relay.nn.adaptive_max_pool2d %x {output_size = array<i64: 0>} : (tensor<1x2x5x5xf32>) -> tensor<1x2x0x0xf32>
  return
}

// -----

func.func @layer_norm_gamma(%x: tensor<2x8xf32>, %g: tensor<4xf32>, %b: tensor<8xf32>) {
  // expected-error @+1 {{operand 'gamma' size 4 ≠ data dim 1 (axis) 8}}
  %0 = relay.nn.layer_norm %x, %g, %b : (tensor<2x8xf32>, tensor<4xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @group_norm_groups(%x: tensor<2x6x3xf32>, %g: tensor<6xf32>) {
  // expected-error @+1 {{channels 6 (data dim 1) are not divisible by num_groups 4}}
  %0 = relay.nn.group_norm %x, %g, %g {num_groups = 4 : i64} : (tensor<2x6x3xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<2x6x3xf32>
  return
}

// -----

func.func @instance_norm_int(%x: tensor<2x6x3xi32>, %g: tensor<6xi32>) {
  // expected-error @+1 {{operand 'data' must have a float dtype, got 'i32'}}
  %0 = relay.nn.instance_norm %x, %g, %g : (tensor<2x6x3xi32>, tensor<6xi32>, tensor<6xi32>) -> tensor<2x6x3xi32>
  return
}

// -----

func.func @instance_norm_beta_dtype(%x: tensor<2x6x3xf32>, %g: tensor<6xf32>, %b: tensor<6xf16>) {
  // expected-error @+1 {{operand 'beta' dtype 'f16' ≠ data dtype 'f32'}}
  %0 = relay.nn.instance_norm %x, %g, %b : (tensor<2x6x3xf32>, tensor<6xf32>, tensor<6xf16>) -> tensor<2x6x3xf32>
  return
}

// -----

func.func @l2_normalize_axis(%x: tensor<2x8xf32>) {
  // expected-error @+1 {{axis 2 is out of range}}
  %0 = relay.nn.l2_normalize %x {eps = 1.0e-10 : f64, axis = array<i64: 2>} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @l2_normalize_repeated(%x: tensor<2x8xf32>) {
  // expected-error @+1 {{axis -1 is repeated}}
  %0 = relay.nn.l2_normalize %x {eps = 1.0e-10 : f64, axis = array<i64: 1, -1>} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @lrn_axis(%x: tensor<2x8xf32>) {
  // expected-error @+1 {{axis 3 is out of range}}
  %0 = relay.nn.lrn %x {axis = 3 : i64} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @prelu_alpha(%x: tensor<2x8xf32>, %a: tensor<3xf32>) {
  // expected-error @+1 {{alpha size 3 ≠ data dim 1 (axis) 8}}
  %0 = relay.nn.prelu %x, %a : (tensor<2x8xf32>, tensor<3xf32>) -> tensor<2x8xf32>
  return
}

// -----

func.func @dropout_rate(%x: tensor<2x8xf32>) {
  // expected-error @+1 {{rate must be in [0, 1), got 1.5}}
  %0 = relay.nn.dropout %x {rate = 1.5 : f64} : (tensor<2x8xf32>) -> tuple<tensor<2x8xf32>, tensor<2x8xf32>>
  return
}

// -----

func.func @pad_width(%x: tensor<2x3xf32>, %v: tensor<f32>) {
  // expected-error @+1 {{pad_width must have 2 entries (before, after) per data dim: 4, got 2}}
  %0 = relay.nn.pad %x, %v {pad_width = array<i64: 1, 1>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @pad_value(%x: tensor<2x3xf32>, %v: tensor<1xf32>) {
  // expected-error @+1 {{operand 'pad_value' must have rank 0, got 'tensor<1xf32>'}}
  %0 = relay.nn.pad %x, %v {pad_width = array<i64: 0, 0, 1, 1>} : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<2x5xf32>
  return
}

// -----

func.func @pad_reflect(%x: tensor<2x3xf32>, %v: tensor<f32>) {
  // expected-error @+1 {{reflect padding of dim 1 (size 3) must be smaller than the dim, got (3, 0)}}
  %0 = relay.nn.pad %x, %v {pad_width = array<i64: 0, 0, 3, 0>, pad_mode = "reflect"} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x6xf32>
  return
}

// -----

func.func @pad_mode(%x: tensor<2x3xf32>, %v: tensor<f32>) {
  // expected-error @+1 {{pad_mode "wrap" is not one of constant, edge, reflect}}
  %0 = relay.nn.pad %x, %v {pad_width = array<i64: 0, 0, 1, 0>, pad_mode = "wrap"} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @upsampling_method(%x: tensor<1x2x3x3xf32>) {
  // expected-error @+1 {{method "bicubic" is not one of nearest_neighbor, bilinear}}
  %0 = relay.nn.upsampling %x {method = "bicubic"} : (tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  return
}

// -----

func.func @upsampling_scale(%x: tensor<1x2x3x3xf32>) {
  // expected-error @+1 {{scale_h must be > 0, got -2}}
  %0 = relay.nn.upsampling %x {scale_h = -2.0 : f64} : (tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  return
}

// -----

func.func @depth_to_space_channels(%x: tensor<1x6x2x2xf32>) {
  // expected-error @+1 {{channels 6 are not divisible by block_size² 4}}
  %0 = relay.nn.depth_to_space %x {block_size = 2 : i64} : (tensor<1x6x2x2xf32>) -> tensor<1x1x4x4xf32>
  return
}

// -----

func.func @depth_to_space_mode(%x: tensor<1x8x2x2xf32>) {
  // expected-error @+1 {{mode "RDC" is not one of DCR, CRD}}
  %0 = relay.nn.depth_to_space %x {block_size = 2 : i64, mode = "RDC"} : (tensor<1x8x2x2xf32>) -> tensor<1x2x4x4xf32>
  return
}

// -----

func.func @space_to_depth_height(%x: tensor<1x2x5x4xf32>) {
  // expected-error @+1 {{height 5 is not divisible by block_size 2}}
  %0 = relay.nn.space_to_depth %x {block_size = 2 : i64} : (tensor<1x2x5x4xf32>) -> tensor<1x8x2x2xf32>
  return
}

// -----

func.func @space_to_depth_block(%x: tensor<1x2x4x4xf32>) {
  // expected-error @+1 {{block_size must be >= 1, got 0}}
  %0 = relay.nn.space_to_depth %x {block_size = 0 : i64} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return
}
