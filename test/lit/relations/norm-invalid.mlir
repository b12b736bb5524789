// RUN: relay-mlir-opt %s -split-input-file -verify-diagnostics
// The typing rules of the normalisations and softmax (lib/Relations/Norm.cpp), one broken rule each.

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
