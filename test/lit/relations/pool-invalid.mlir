// RUN: relay-mlir-opt %s -split-input-file -verify-diagnostics
// The typing rules of the pools (lib/Relations/Pool.cpp), one broken rule each.

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

func.func @adaptive1d_output_size(%x: tensor<1x2x5xf32>) {
  // expected-error @+1 {{output_size must have 0 or 1 entries, got 2}}
  %0 = relay.nn.adaptive_avg_pool1d %x {output_size = array<i64: 1, 2>} : (tensor<1x2x5xf32>) -> tensor<1x2x1xf32>
  return
}

// -----

func.func @adaptive3d_output_size(%x: tensor<1x2x5x5x5xf32>) {
  // expected-error @+1 {{output_size must have 0, 1 or 3 entries, got 2}}
  %0 = relay.nn.adaptive_max_pool3d %x {output_size = array<i64: 1, 2>} : (tensor<1x2x5x5x5xf32>) -> tensor<1x2x1x2x2xf32>
  return
}

// -----

func.func @adaptive3d_rank(%x: tensor<1x2x5x5xf32>) {
  // expected-error @+1 {{operand 'data' must have rank 5}}
  %0 = relay.nn.adaptive_avg_pool3d %x : (tensor<1x2x5x5xf32>) -> tensor<1x2x5x5xf32>
  return
}

// -----

func.func @adaptive1d_layout(%x: tensor<1x2x5xf32>) {
  // expected-error @+1 {{layout}}
  %0 = relay.nn.adaptive_max_pool1d %x {layout = "NCHW"} : (tensor<1x2x5xf32>) -> tensor<1x2x5xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Blocked layouts (NCHW4c)
//===----------------------------------------------------------------------===//

// -----

func.func @pool_blocked_extent(%x: tensor<1x2x8x8x3xf32>) {
  // expected-error @+1 {{data dim 4 is 3, but layout "NCHW4c" blocks the channels by 4}}
  %0 = relay.nn.max_pool2d %x {layout = "NCHW4c"} : (tensor<1x2x8x8x3xf32>) -> tensor<1x2x8x8x3xf32>
  return
}

// -----

func.func @pool_blocked_spatial(%x: tensor<1x8x2x8x4xf32>) {
  // expected-error @+1 {{layout "NCHW4h": only the channels may be blocked in a pool (4h splits H)}}
  %0 = relay.nn.global_max_pool2d %x {layout = "NCHW4h"} : (tensor<1x8x2x8x4xf32>) -> tensor<1x8x1x1x4xf32>
  return
}

// -----

func.func @pool_blocked_rank(%x: tensor<1x8x8x8xf32>) {
  // expected-error @+1 {{operand 'data' must have rank 5, got 'tensor<1x8x8x8xf32>'}}
  %0 = relay.nn.avg_pool2d %x {layout = "NCHW4c"} : (tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return
}

// -----

func.func @pool_blocked_malformed(%x: tensor<1x2x8x8x4xf32>) {
  // expected-error @+1 {{layout "NCHW4" ends in a number}}
  %0 = relay.nn.adaptive_max_pool2d %x {layout = "NCHW4"} : (tensor<1x2x8x8x4xf32>) -> tensor<1x2x1x1x4xf32>
  return
}
