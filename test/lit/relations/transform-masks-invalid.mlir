// RUN: relay-mlir-opt %s -split-input-file -verify-diagnostics
// The typing rules of TVM 0.19's trilu, sequence_mask, reverse_sequence, meshgrid, unravel_index,
// invert_permutation, matrix_set_diag, collapse_sum_to, contrib_reverse_reshape and sliding_window
// (lib/Relations/TransformMasks.cpp), one broken rule each.
func.func @trilu_rank(%x: tensor<4xf32>, %k: tensor<i32>) {
  // expected-error @+1 {{operand 'data' must have rank >= 2, got 'tensor<4xf32>'}}
  %0 = relay.trilu %x, %k : (tensor<4xf32>, tensor<i32>) -> tensor<4xf32>
  return
}

// -----

func.func @trilu_k_vector(%x: tensor<3x4xf32>, %k: tensor<1xi32>) {
  // expected-error @+1 {{operand 'k' must be a 0-d integer tensor, got 'tensor<1xi32>'}}
  %0 = relay.trilu %x, %k : (tensor<3x4xf32>, tensor<1xi32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @trilu_k_float(%x: tensor<3x4xf32>, %k: tensor<f32>) {
  // expected-error @+1 {{operand 'k' must be a 0-d integer tensor, got 'tensor<f32>'}}
  %0 = relay.trilu %x, %k : (tensor<3x4xf32>, tensor<f32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @sequence_mask_axis(%x: tensor<3x4xf32>, %l: tensor<4xi32>) {
  // expected-error @+1 {{axis must be 0 or 1, got 2}}
  %0 = relay.sequence_mask %x, %l {axis = 2 : i64} : (tensor<3x4xf32>, tensor<4xi32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @sequence_mask_length_size(%x: tensor<3x4xf32>, %l: tensor<3xi32>) {
  // expected-error @+1 {{valid_length size ≠ the batch dim 1 of data: 3 ≠ 4}}
  %0 = relay.sequence_mask %x, %l : (tensor<3x4xf32>, tensor<3xi32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @sequence_mask_float_length(%x: tensor<3x4xf32>, %l: tensor<4xf32>) {
  // expected-error @+1 {{operand 'valid_length' must be a 1-D integer tensor, got 'tensor<4xf32>'}}
  %0 = relay.sequence_mask %x, %l : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @sequence_mask_rank(%x: tensor<4xf32>, %l: tensor<4xi32>) {
  // expected-error @+1 {{operand 'data' must have rank >= 2, got 'tensor<4xf32>'}}
  %0 = relay.sequence_mask %x, %l : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  return
}

// -----

func.func @reverse_sequence_axis(%x: tensor<3x4xf32>, %l: tensor<3xi32>) {
  // expected-error @+1 {{seq_axis 2 is out of range for rank 2}}
  %0 = relay.reverse_sequence %x, %l {seq_axis = 2 : i64} : (tensor<3x4xf32>, tensor<3xi32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @reverse_sequence_batch_axis(%x: tensor<3x4xf32>, %l: tensor<3xi32>) {
  // expected-error @+1 {{batch_axis -3 is out of range for rank 2}}
  %0 = relay.reverse_sequence %x, %l {batch_axis = -3 : i64} : (tensor<3x4xf32>, tensor<3xi32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @reverse_sequence_same_axes(%x: tensor<3x4xf32>, %l: tensor<3xi32>) {
  // expected-error @+1 {{seq_axis and batch_axis must differ, both are 0}}
  %0 = relay.reverse_sequence %x, %l {seq_axis = 0 : i64} : (tensor<3x4xf32>, tensor<3xi32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @reverse_sequence_lengths(%x: tensor<3x4xf32>, %l: tensor<4xi64>) {
  // expected-error @+1 {{seq_lengths size ≠ the batch_axis dim 0 of data: 4 ≠ 3}}
  %0 = relay.reverse_sequence %x, %l : (tensor<3x4xf32>, tensor<4xi64>) -> tensor<3x4xf32>
  return
}

// -----

func.func @reverse_sequence_lengths_rank(%x: tensor<3x4xf32>, %l: tensor<i64>) {
  // expected-error @+1 {{operand 'seq_lengths' must be a 1-D integer tensor, got 'tensor<i64>'}}
  %0 = relay.reverse_sequence %x, %l : (tensor<3x4xf32>, tensor<i64>) -> tensor<3x4xf32>
  return
}

// -----

func.func @meshgrid_empty() {
  // expected-error @+1 {{expects at least one operand}}
  %0 = relay.meshgrid : () -> tuple<>
  return
}

// -----

func.func @meshgrid_rank(%a: tensor<3xf32>, %b: tensor<2x2xf32>) {
  // expected-error @+1 {{operand 1 must be 0-d or 1-D, got 'tensor<2x2xf32>'}}
  %0 = relay.meshgrid %a, %b : (tensor<3xf32>, tensor<2x2xf32>) -> tuple<tensor<3x4xf32>, tensor<3x4xf32>>
  return
}

// -----

func.func @meshgrid_dtype(%a: tensor<3xf32>, %b: tensor<2xi32>) {
  // expected-error @+1 {{operand 1 dtype 'i32' ≠ operand 0 dtype 'f32'}}
  %0 = relay.meshgrid %a, %b : (tensor<3xf32>, tensor<2xi32>) -> tuple<tensor<3x2xf32>, tensor<3x2xf32>>
  return
}

// -----

func.func @unravel_index_rank(%i: tensor<2x2xi32>, %s: tensor<3xi32>) {
  // expected-error @+1 {{operand 'indices' must be 0-d or 1-D, got 'tensor<2x2xi32>'}}
  %0 = relay.unravel_index %i, %s : (tensor<2x2xi32>, tensor<3xi32>) -> tensor<3x2xi32>
  return
}

// -----

func.func @unravel_index_float(%i: tensor<2xf32>, %s: tensor<3xi32>) {
  // expected-error @+1 {{operand 'indices' must be an integer tensor, got 'tensor<2xf32>'}}
  %0 = relay.unravel_index %i, %s : (tensor<2xf32>, tensor<3xi32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @unravel_index_shape_rank(%i: tensor<2xi32>, %s: tensor<3x1xi32>) {
  // expected-error @+1 {{operand 'shape' must be a 1-D integer tensor, got 'tensor<3x1xi32>'}}
  %0 = relay.unravel_index %i, %s : (tensor<2xi32>, tensor<3x1xi32>) -> tensor<3x2xi32>
  return
}

// -----

func.func @unravel_index_dtypes(%i: tensor<2xi32>, %s: tensor<3xi64>) {
  // expected-error @+1 {{indices dtype 'i32' ≠ shape dtype 'i64'}}
  %0 = relay.unravel_index %i, %s : (tensor<2xi32>, tensor<3xi64>) -> tensor<3x2xi32>
  return
}

// -----

func.func @invert_permutation_float(%p: tensor<4xf32>) {
  // expected-error @+1 {{operand 'data' must be a 1-D integer tensor, got 'tensor<4xf32>'}}
  %0 = relay.invert_permutation %p : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @matrix_set_diag_k(%x: tensor<3x4xf32>, %d: tensor<3xf32>) {
  // expected-error @+1 {{k2 0 must be >= k1 1}}
  %0 = relay.matrix_set_diag %x, %d {k1 = 1 : i64, k2 = 0 : i64} : (tensor<3x4xf32>, tensor<3xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @matrix_set_diag_dtype(%x: tensor<3x4xf32>, %d: tensor<3xi32>) {
  // expected-error @+1 {{diagonal dtype 'i32' ≠ data dtype 'f32'}}
  %0 = relay.matrix_set_diag %x, %d : (tensor<3x4xf32>, tensor<3xi32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @matrix_set_diag_outside(%x: tensor<3x4xf32>, %d: tensor<1xf32>) {
  // expected-error @+1 {{diagonals 4 .. 4 are not all inside a 3x4 matrix}}
  %0 = relay.matrix_set_diag %x, %d {k1 = 4 : i64, k2 = 4 : i64} : (tensor<3x4xf32>, tensor<1xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @matrix_set_diag_shape(%x: tensor<2x3x4xf32>, %d: tensor<2x3x4xf32>) {
  // expected-error @+1 {{diagonal shape [2, 3, 4] ≠ [2, 3, 3] (diagonals -1 .. 1)}}
  %0 = relay.matrix_set_diag %x, %d {k1 = -1 : i64, k2 = 1 : i64} : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @matrix_set_diag_rank(%x: tensor<4xf32>, %d: tensor<f32>) {
  // expected-error @+1 {{operand 'data' must have rank >= 2, got 'tensor<4xf32>'}}
  %0 = relay.matrix_set_diag %x, %d : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

func.func @collapse_sum_to_negative(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{shape entries must be >= 0, got -1}}
  %0 = relay.collapse_sum_to %x {shape = array<i64: -1, 3>} : (tensor<2x3xf32>) -> tensor<1x3xf32>
  return
}

// -----

func.func @collapse_sum_to_broadcast(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{shape [2] does not broadcast to data shape [2, 3]}}
  %0 = relay.collapse_sum_to %x {shape = array<i64: 2>} : (tensor<2x3xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @collapse_sum_to_rank(%x: tensor<3xf32>) {
  // expected-error @+1 {{shape [2, 3] does not broadcast to data shape [3]}}
  %0 = relay.collapse_sum_to %x {shape = array<i64: 2, 3>} : (tensor<3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @reverse_reshape_count(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{newshape [-2, 5] gives [4, 3, 2, 5] with 120 elements, but data has 24 elements}}
  %0 = relay.contrib_reverse_reshape %x {newshape = array<i64: 5, -2>} : (tensor<2x3x4xf32>) -> tensor<5x3x4xf32>
  return
}

// -----

func.func @sliding_window_axis(%x: tensor<2x6xf32>) {
  // expected-error @+1 {{axis 2 is out of range for rank 2 (it must be >= 0)}}
  %0 = relay.sliding_window %x {axis = 2 : i64, window_shape = array<i64: 1>, strides = array<i64: 1>} : (tensor<2x6xf32>) -> tensor<2x6xf32>
  return
}

// -----

func.func @sliding_window_count(%x: tensor<2x6xf32>) {
  // expected-error @+1 {{window_shape must have 2 entries, got 1}}
  %0 = relay.sliding_window %x {axis = 0 : i64, window_shape = array<i64: 1>, strides = array<i64: 1, 1>} : (tensor<2x6xf32>) -> tensor<2x6x1xf32>
  return
}

// -----

func.func @sliding_window_stride(%x: tensor<2x6xf32>) {
  // expected-error @+1 {{strides entries must be >= 1, got 0}}
  %0 = relay.sliding_window %x {axis = 1 : i64, window_shape = array<i64: 2>, strides = array<i64: 0>} : (tensor<2x6xf32>) -> tensor<2x5x2xf32>
  return
}

// -----

func.func @sliding_window_too_wide(%x: tensor<2x6xf32>) {
  // expected-error @+1 {{window_shape entry 7 exceeds dim 1 of data (6)}}
  %0 = relay.sliding_window %x {axis = 1 : i64, window_shape = array<i64: 7>, strides = array<i64: 1>} : (tensor<2x6xf32>) -> tensor<2x0x7xf32>
  return
}

// -----

func.func @unravel_index_long_shape(%i: tensor<2xi32>, %s: tensor<65xi32>) {
  // expected-error @+1 {{shape has 65 entries: at most 64 dims supported}}
  %0 = relay.unravel_index %i, %s : (tensor<2xi32>, tensor<65xi32>) -> tensor<65x2xi32>
  return
}

// -----

func.func @matrix_set_diag_far(%x: tensor<?x4xf32>, %d: tensor<?xf32>) {
  // expected-error @+1 {{diagonals -9223372036854775807 .. 0 are out of range (|k| <= 1099511627776)}}
  %0 = relay.matrix_set_diag %x, %d {k1 = -9223372036854775807 : i64, k2 = 0 : i64} : (tensor<?x4xf32>, tensor<?xf32>) -> tensor<?x4xf32>
  return
}
