// RUN: relay-mlir-opt %s -split-input-file -verify-diagnostics
// The typing rules of nn.space_to_batch_nd / nn.batch_to_space_nd
// (lib/Relations/SpaceBatch.cpp), one broken rule each.

func.func @s2b_empty_block(%x: tensor<1x4x4x3xf32>) {
  // expected-error @+1 {{block_shape must not be empty}}
  %0 = relay.nn.space_to_batch_nd %x {block_shape = array<i64>, paddings = array<i64>} : (tensor<1x4x4x3xf32>) -> tensor<4x2x2x3xf32>
  return
}

// -----

func.func @s2b_zero_block(%x: tensor<1x4x4x3xf32>) {
  // expected-error @+1 {{block_shape entries must be >= 1, got 0}}
  %0 = relay.nn.space_to_batch_nd %x {block_shape = array<i64: 0, 2>, paddings = array<i64: 0, 0, 0, 0>} : (tensor<1x4x4x3xf32>) -> tensor<4x2x2x3xf32>
  return
}

// -----

func.func @s2b_pair_count(%x: tensor<1x4x4x3xf32>) {
  // expected-error @+1 {{paddings must have 2 entries (a pair) per block_shape entry: 4, got 2}}
  %0 = relay.nn.space_to_batch_nd %x {block_shape = array<i64: 2, 2>, paddings = array<i64: 0, 0>} : (tensor<1x4x4x3xf32>) -> tensor<4x2x2x3xf32>
  return
}

// -----

func.func @s2b_negative_padding(%x: tensor<1x4x4x3xf32>) {
  // expected-error @+1 {{paddings entries must be >= 0, got -2}}
  %0 = relay.nn.space_to_batch_nd %x {block_shape = array<i64: 2, 2>, paddings = array<i64: 0, -2, 0, 0>} : (tensor<1x4x4x3xf32>) -> tensor<4x2x2x3xf32>
  return
}

// -----

func.func @s2b_rank(%x: tensor<4x4xf32>) {
  // expected-error @+1 {{data of rank 2 has no 2 spatial dims after the batch}}
  %0 = relay.nn.space_to_batch_nd %x {block_shape = array<i64: 2, 2>, paddings = array<i64: 0, 0, 0, 0>} : (tensor<4x4xf32>) -> tensor<4x2x2x3xf32>
  return
}

// -----

func.func @s2b_not_multiple(%x: tensor<4x4x4x2xf32>) {
  // expected-error @+1 {{padded spatial dim 0 (4) is not a multiple of block_shape[0] = 3}}
  %0 = relay.nn.space_to_batch_nd %x {block_shape = array<i64: 3, 2>, paddings = array<i64: 0, 0, 0, 0>} : (tensor<4x4x4x2xf32>) -> tensor<4x2x2x3xf32>
  return
}

// -----

func.func @b2s_negative_crop(%x: tensor<4x4x4x2xf32>) {
  // expected-error @+1 {{crops entries must be >= 0, got -1}}
  %0 = relay.nn.batch_to_space_nd %x {block_shape = array<i64: 2, 2>, crops = array<i64: 0, -1, 0, 0>} : (tensor<4x4x4x2xf32>) -> tensor<4x2x2x3xf32>
  return
}

// -----

func.func @b2s_batch(%x: tensor<4x4x4x2xf32>) {
  // expected-error @+1 {{batch 4 is not a multiple of the block size 6 (the product of block_shape)}}
  %0 = relay.nn.batch_to_space_nd %x {block_shape = array<i64: 3, 2>, crops = array<i64: 0, 0, 0, 0>} : (tensor<4x4x4x2xf32>) -> tensor<4x2x2x3xf32>
  return
}

// -----

func.func @b2s_crops_exceed(%x: tensor<4x4x4x2xf32>) {
  // expected-error @+1 {{crops (5, 4) of spatial dim 0 exceed its uncropped size 8}}
  %0 = relay.nn.batch_to_space_nd %x {block_shape = array<i64: 2, 2>, crops = array<i64: 5, 4, 0, 0>} : (tensor<4x4x4x2xf32>) -> tensor<4x2x2x3xf32>
  return
}

// -----

func.func @b2s_block_overflow(%x: tensor<4x4x4x2xf32>) {
  // expected-error @+1 {{block_shape product 4611686018427387904 * 4 overflows int64}}
  %0 = relay.nn.batch_to_space_nd %x {block_shape = array<i64: 4611686018427387904, 4>, crops = array<i64: 0, 0, 0, 0>} : (tensor<4x4x4x2xf32>) -> tensor<4x2x2x3xf32>
  return
}
