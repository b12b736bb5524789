// RUN: relay-mlir-opt %s -split-input-file -verify-diagnostics
// The typing rules of TVM 0.19's nn.dilate, nn.cross_entropy(_with_logits) and nn.nll_loss
// (lib/Relations/NN.cpp), one broken rule each.

func.func @dilate_strides(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{strides must have 2 entries, got 1}}
  %0 = relay.nn.dilate %x {strides = array<i64: 2>} : (tensor<2x3xf32>) -> tensor<3x3xf32>
  return
}

// -----

func.func @dilate_zero_stride(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{strides entries must be >= 1, got 0}}
  %0 = relay.nn.dilate %x {strides = array<i64: 0, 1>} : (tensor<2x3xf32>) -> tensor<1x3xf32>
  return
}

// -----

func.func @dilate_overflow(%x: tensor<4611686018427387904xf32>) {
  // expected-error @+1 {{the dilated size 4611686018427387903 * 4 overflows int64}}
  %0 = relay.nn.dilate %x {strides = array<i64: 4>} : (tensor<4611686018427387904xf32>) -> tensor<1xf32>
  return
}

// -----

func.func @cross_entropy_rank(%p: tensor<2x3x4xf32>, %t: tensor<2x3xf32>) {
  // expected-error @+1 {{operand 'predictions' must have rank 2, got 'tensor<2x3x4xf32>'}}
  %0 = relay.nn.cross_entropy %p, %t : (tensor<2x3x4xf32>, tensor<2x3xf32>) -> tensor<f32>
  return
}

// -----

func.func @cross_entropy_dtype(%p: tensor<2x3xf32>, %t: tensor<2x3xf64>) {
  // expected-error @+1 {{predictions and targets must be of one float dtype, got 'f32' and 'f64'}}
  %0 = relay.nn.cross_entropy %p, %t : (tensor<2x3xf32>, tensor<2x3xf64>) -> tensor<f32>
  return
}

// -----

func.func @cross_entropy_shape(%p: tensor<2x3xf32>, %t: tensor<2x4xf32>) {
  // expected-error @+1 {{predictions shape [2, 3] ≠ targets shape [2, 4]}}
  %0 = relay.nn.cross_entropy_with_logits %p, %t : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<f32>
  return
}

// -----

func.func @nll_loss_dtype(%p: tensor<3x5xf32>, %t: tensor<3xi32>, %w: tensor<5xf64>) {
  // expected-error @+1 {{predictions and weights must be of one float dtype, got 'f32' and 'f64'}}
  %0 = relay.nn.nll_loss %p, %t, %w : (tensor<3x5xf32>, tensor<3xi32>, tensor<5xf64>) -> tensor<f32>
  return
}

// -----

func.func @nll_loss_targets(%p: tensor<3x5xf32>, %t: tensor<3xf32>, %w: tensor<5xf32>) {
  // expected-error @+1 {{operand 'targets' must be an integer tensor, got 'tensor<3xf32>'}}
  %0 = relay.nn.nll_loss %p, %t, %w : (tensor<3x5xf32>, tensor<3xf32>, tensor<5xf32>) -> tensor<f32>
  return
}

// -----

func.func @nll_loss_ranks(%p: tensor<5xf32>, %t: tensor<i32>, %w: tensor<5xf32>) {
  // expected-error @+1 {{predictions must be [N, C, d...] and targets [N, d...], got [5] and []}}
  %0 = relay.nn.nll_loss %p, %t, %w : (tensor<5xf32>, tensor<i32>, tensor<5xf32>) -> tensor<f32>
  return
}

// -----

func.func @nll_loss_weights(%p: tensor<3x5xf32>, %t: tensor<3xi32>, %w: tensor<4xf32>) {
  // expected-error @+1 {{weights length 4 ≠ the classes (dim 1) of predictions 5}}
  %0 = relay.nn.nll_loss %p, %t, %w : (tensor<3x5xf32>, tensor<3xi32>, tensor<4xf32>) -> tensor<f32>
  return
}

// -----

func.func @nll_loss_targets_shape(%p: tensor<3x5x2xf32>, %t: tensor<3x3xi32>, %w: tensor<5xf32>) {
  // expected-error @+1 {{targets shape [3, 3] ≠ predictions shape without dim 1 ([3, 5, 2])}}
  %0 = relay.nn.nll_loss %p, %t, %w {reduction = "none"} : (tensor<3x5x2xf32>, tensor<3x3xi32>, tensor<5xf32>) -> tensor<3x3xf32>
  return
}

// -----

func.func @nll_loss_reduction(%p: tensor<3x5xf32>, %t: tensor<3xi32>, %w: tensor<5xf32>) {
  // expected-error @+1 {{attribute 'reduction' failed to satisfy constraint: one of "mean", "sum", "none"}}
  %0 = relay.nn.nll_loss %p, %t, %w {reduction = "avg"} : (tensor<3x5xf32>, tensor<3xi32>, tensor<5xf32>) -> tensor<f32>
  return
}
