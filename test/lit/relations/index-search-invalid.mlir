// RUN: relay-mlir-opt %s -split-input-file -verify-diagnostics
// The typing rules of TVM 0.19's searchsorted and sparse_to_dense (lib/Relations/Index.cpp),
// one broken rule each.

func.func @searchsorted_rank(%s: tensor<f32>, %v: tensor<3xf32>) {
  // expected-error @+1 {{sorted_sequence and values must have rank >= 1, got 'tensor<f32>' and 'tensor<3xf32>'}}
  %0 = relay.searchsorted %s, %v : (tensor<f32>, tensor<3xf32>) -> tensor<3xi32>
  return
}

// -----

func.func @searchsorted_dtype(%s: tensor<5xf32>, %v: tensor<3xi32>) {
  // expected-error @+1 {{values dtype 'i32' ≠ sorted_sequence dtype 'f32'}}
  %0 = relay.searchsorted %s, %v : (tensor<5xf32>, tensor<3xi32>) -> tensor<3xi32>
  return
}

// -----

func.func @searchsorted_values_rank(%s: tensor<2x5xf32>, %v: tensor<2x3x4xf32>) {
  // expected-error @+1 {{values must have the rank of a multi-dimensional sorted_sequence (2), got 'tensor<2x3x4xf32>'}}
  %0 = relay.searchsorted %s, %v : (tensor<2x5xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xi32>
  return
}

// -----

func.func @searchsorted_leading(%s: tensor<2x5xf32>, %v: tensor<3x3xf32>) {
  // expected-error @+1 {{dim 0 of sorted_sequence and values must agree, got 2 and 3}}
  %0 = relay.searchsorted %s, %v : (tensor<2x5xf32>, tensor<3x3xf32>) -> tensor<3x3xi32>
  return
}

// -----

func.func @searchsorted_out_dtype(%s: tensor<5xf32>, %v: tensor<3xf32>) {
  // expected-error @+1 {{dtype must be an integer type, got 'f32'}}
  %0 = relay.searchsorted %s, %v {dtype = f32} : (tensor<5xf32>, tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @sparse_to_dense_float_indices(%i: tensor<2x2xf32>, %v: tensor<2xf32>, %d: tensor<f32>) {
  // expected-error @+1 {{operand 'sparse_indices' must be an integer tensor, got 'tensor<2x2xf32>'}}
  %0 = relay.sparse_to_dense %i, %v, %d {output_shape = array<i64: 3, 4>} : (tensor<2x2xf32>, tensor<2xf32>, tensor<f32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @sparse_to_dense_default_rank(%i: tensor<2x2xi32>, %v: tensor<2xf32>, %d: tensor<1xf32>) {
  // expected-error @+1 {{operand 'default_value' must have rank 0, got 'tensor<1xf32>'}}
  %0 = relay.sparse_to_dense %i, %v, %d {output_shape = array<i64: 3, 4>} : (tensor<2x2xi32>, tensor<2xf32>, tensor<1xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @sparse_to_dense_negative(%i: tensor<2x2xi32>, %v: tensor<2xf32>, %d: tensor<f32>) {
  // expected-error @+1 {{output_shape entries must be >= 0, got -3}}
  %0 = relay.sparse_to_dense %i, %v, %d {output_shape = array<i64: -3, 4>} : (tensor<2x2xi32>, tensor<2xf32>, tensor<f32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @sparse_to_dense_indices_rank(%i: tensor<2xi32>, %v: tensor<2xf32>, %d: tensor<f32>) {
  // expected-error @+1 {{sparse_indices must be [N, 2], got 'tensor<2xi32>'}}
  %0 = relay.sparse_to_dense %i, %v, %d {output_shape = array<i64: 3, 4>} : (tensor<2xi32>, tensor<2xf32>, tensor<f32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @sparse_to_dense_index_width(%i: tensor<2x3xi32>, %v: tensor<2xf32>, %d: tensor<f32>) {
  // expected-error @+1 {{sparse_indices dim 1 and the output rank must agree, got 3 and 2}}
  %0 = relay.sparse_to_dense %i, %v, %d {output_shape = array<i64: 3, 4>} : (tensor<2x3xi32>, tensor<2xf32>, tensor<f32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @sparse_to_dense_values(%i: tensor<2x2xi32>, %v: tensor<3xf32>, %d: tensor<f32>) {
  // expected-error @+1 {{sparse_values must be 0-d or [2] (one per index), got 'tensor<3xf32>'}}
  %0 = relay.sparse_to_dense %i, %v, %d {output_shape = array<i64: 3, 4>} : (tensor<2x2xi32>, tensor<3xf32>, tensor<f32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @sparse_to_dense_default_dtype(%i: tensor<2x2xi32>, %v: tensor<2xf32>, %d: tensor<i32>) {
  // expected-error @+1 {{default_value dtype 'i32' ≠ sparse_values dtype 'f32'}}
  %0 = relay.sparse_to_dense %i, %v, %d {output_shape = array<i64: 3, 4>} : (tensor<2x2xi32>, tensor<2xf32>, tensor<i32>) -> tensor<3x4xf32>
  return
}
