// RUN: relay-mlir-opt %s -split-input-file -verify-diagnostics
// The typing rules of dense, matmuls, bias_add, activations, dropout, pad, upsampling, depth/space moves, batch_flatten (lib/Relations/NN.cpp), one broken rule each.

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
// BatchFlatten
//===----------------------------------------------------------------------===//

func.func @batch_flatten_rank(%x: tensor<f32>) {
  // expected-error @+1 {{operand 'data' must have rank >= 1, got 'tensor<f32>'}}
  %0 = relay.nn.batch_flatten %x : (tensor<f32>) -> tensor<1x1xf32>
  return
}

// -----

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

// 3 + 2 + (2^63 - 1) used to wrap to a negative dim (RankedTensorType's
// assertion in the typing rule).
func.func @pad_overflow(%x: tensor<2x3xf32>, %v: tensor<f32>) {
  // expected-error @+1 {{padding dim 1 (size 3) by (2, 9223372036854775807) overflows int64}}
  %0 = relay.nn.pad %x, %v {pad_width = array<i64: 1, 0, 2, 9223372036854775807>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<3x6xf32>
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
  // expected-error @+1 {{attribute 'pad_mode' failed to satisfy constraint: one of "constant", "edge", "reflect"}}
  %0 = relay.nn.pad %x, %v {pad_width = array<i64: 0, 0, 1, 0>, pad_mode = "wrap"} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @upsampling_method(%x: tensor<1x2x3x3xf32>) {
  // expected-error @+1 {{attribute 'method' failed to satisfy constraint: one of "nearest_neighbor", "bilinear"}}
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
  // expected-error @+1 {{attribute 'mode' failed to satisfy constraint: one of "DCR", "CRD"}}
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

// -----

// block_size² wrapped around to 0 and the divisibility check divided by it
// (SIGFPE); the products are now checked.
func.func @depth_to_space_huge_block(%x: tensor<1x6x2x2xf32>) {
  // expected-error @+1 {{block_size² 4611686018427387904 * 4611686018427387904 overflows int64}}
  %0 = relay.nn.depth_to_space %x {block_size = 4611686018427387904 : i64} : (tensor<1x6x2x2xf32>) -> tensor<1x1x4x4xf32>
  return
}

// -----

func.func @space_to_depth_huge_channels(%x: tensor<1x4611686018427387904x?x?xf32>) {
  // expected-error @+1 {{the output channels 4611686018427387904 * 4 overflows int64}}
  %0 = relay.nn.space_to_depth %x {block_size = 2 : i64} : (tensor<1x4611686018427387904x?x?xf32>) -> tensor<1x1x1x1xf32>
  return
}

//===----------------------------------------------------------------------===//
// MirrorPad (inferMirrorPad: nn.pad's widths, no pad value)
//===----------------------------------------------------------------------===//

// -----

func.func @mirror_pad_width(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{pad_width must have 2 entries (before, after) per data dim: 4, got 3}}
  %0 = relay.nn.mirror_pad %x {pad_width = array<i64: 0, 1, 1>} : (tensor<2x3xf32>) -> tensor<2x5xf32>
  return
}

// -----

func.func @mirror_pad_negative(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{pad_width entries must be >= 0, got -1 for dim 0}}
  %0 = relay.nn.mirror_pad %x {pad_width = array<i64: -1, 0, 1, 1>} : (tensor<2x3xf32>) -> tensor<1x5xf32>
  return
}

// -----

func.func @mirror_pad_reflect(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{reflect padding of dim 0 (size 2) must be smaller than the dim, got (0, 2)}}
  %0 = relay.nn.mirror_pad %x {pad_width = array<i64: 0, 2, 0, 0>, mode = "REFLECT"} : (tensor<2x3xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @mirror_pad_symmetric(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{symmetric padding of dim 1 (size 3) must be at most the dim, got (4, 0)}}
  %0 = relay.nn.mirror_pad %x {pad_width = array<i64: 0, 0, 4, 0>} : (tensor<2x3xf32>) -> tensor<2x7xf32>
  return
}

// -----

func.func @mirror_pad_mode(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{attribute 'mode' failed to satisfy constraint: one of "REFLECT", "SYMMETRIC"}}
  %0 = relay.nn.mirror_pad %x {pad_width = array<i64: 0, 0, 1, 0>, mode = "reflect"} : (tensor<2x3xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @mirror_pad_result(%x: tensor<?x3xf32>) {
  // expected-error @+1 {{result #0 has type 'tensor<?x5xf32>' but its typing rule gives 'tensor<?x6xf32>'}}
  %0 = relay.nn.mirror_pad %x {pad_width = array<i64: 1, 1, 2, 1>} : (tensor<?x3xf32>) -> tensor<?x5xf32>
  return
}

//===----------------------------------------------------------------------===//
// UpSampling3D (inferUpSampling with scales d, h, w)
//===----------------------------------------------------------------------===//

// -----

func.func @upsampling3d_layout(%x: tensor<1x2x3x3x3xf32>) {
  // expected-error @+1 {{layout "NCHW" is not supported (expected a permutation of NCDHW)}}
  %0 = relay.nn.upsampling3d %x {layout = "NCHW"} : (tensor<1x2x3x3x3xf32>) -> tensor<1x2x3x3x3xf32>
  return
}

// -----

func.func @upsampling3d_rank(%x: tensor<1x2x3x3xf32>) {
  // expected-error @+1 {{operand 'data' must have rank 5, got 'tensor<1x2x3x3xf32>'}}
  %0 = relay.nn.upsampling3d %x : (tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  return
}

// -----

func.func @upsampling3d_scale(%x: tensor<1x2x3x3x3xf32>) {
  // expected-error @+1 {{scale_d must be > 0, got 0}}
  %0 = relay.nn.upsampling3d %x {scale_d = 0.0 : f64} : (tensor<1x2x3x3x3xf32>) -> tensor<1x2x3x3x3xf32>
  return
}

// -----

func.func @upsampling3d_output_size(%x: tensor<1x2x3x3x3xf32>) {
  // expected-error @+1 {{output size along W would be 0 (3 × 1.000000e-01)}}
  %0 = relay.nn.upsampling3d %x {scale_w = 0.1 : f64} : (tensor<1x2x3x3x3xf32>) -> tensor<1x2x3x3x0xf32>
  return
}

// -----

func.func @upsampling3d_method(%x: tensor<1x2x3x3x3xf32>) {
  // expected-error @+1 {{attribute 'method' failed to satisfy constraint: one of "nearest_neighbor", "trilinear"}}
  %0 = relay.nn.upsampling3d %x {method = "bilinear"} : (tensor<1x2x3x3x3xf32>) -> tensor<1x2x3x3x3xf32>
  return
}

// -----

func.func @upsampling3d_coordinate_mode(%x: tensor<1x2x3x3x3xf32>) {
  // expected-error @+1 {{attribute 'coordinate_transformation_mode' failed to satisfy constraint: one of "half_pixel", "align_corners", "asymmetric"}}
  %0 = relay.nn.upsampling3d %x {coordinate_transformation_mode = "tf_half_pixel_for_nn"} : (tensor<1x2x3x3x3xf32>) -> tensor<1x2x3x3x3xf32>
  return
}

// -----

// 3 × 1.5 = 4.5 rounds half to even, as in TVM.
func.func @upsampling3d_result(%x: tensor<?x2x3x?x3xf32>) {
  // expected-error @+1 {{result #0 has type 'tensor<?x2x6x?x3xf32>' but its typing rule gives 'tensor<?x2x6x?x4xf32>'}}
  %0 = relay.nn.upsampling3d %x {scale_d = 2.0 : f64, scale_w = 1.5 : f64} : (tensor<?x2x3x?x3xf32>) -> tensor<?x2x6x?x3xf32>
  return
}
