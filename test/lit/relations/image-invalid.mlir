// RUN: relay-mlir-opt %s -split-input-file -verify-diagnostics

func.func @resize_rank(%x: tensor<3x4x4xf32>) {
  // expected-error @+1 {{operand 'data' must have rank 4, got 'tensor<3x4x4xf32>'}}
  %0 = relay.image.resize2d %x {size = array<i64: 8, 8>} : (tensor<3x4x4xf32>) -> tensor<3x8x8xf32>
  return
}

// -----

func.func @resize_size(%x: tensor<1x3x4x4xf32>) {
  // expected-error @+1 {{size must have 2 entries, got 1}}
  %0 = relay.image.resize2d %x {size = array<i64: 8>} : (tensor<1x3x4x4xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @resize_layout(%x: tensor<1x3x4x4xf32>) {
  // expected-error @+1 {{attribute 'layout' failed to satisfy constraint: one of "NCHW", "NHWC"}}
  %0 = relay.image.resize2d %x {size = array<i64: 8, 8>, layout = "NCWH"} : (tensor<1x3x4x4xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @resize_method(%x: tensor<1x3x4x4xf32>) {
  // expected-error @+1 {{attribute 'method' failed to satisfy constraint: one of "nearest_neighbor", "linear", "cubic"}}
  %0 = relay.image.resize2d %x {size = array<i64: 8, 8>, method = "bilinear"} : (tensor<1x3x4x4xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @resize_mode(%x: tensor<1x3x4x4xf32>) {
  // expected-error @+1 {{attribute 'coordinate_transformation_mode' failed to satisfy constraint: one of "half_pixel", "align_corners"}}
  %0 = relay.image.resize2d %x {size = array<i64: 8, 8>, coordinate_transformation_mode = "center"} : (tensor<1x3x4x4xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @resize_rounding(%x: tensor<1x3x4x4xf32>) {
  // expected-error @+1 {{attribute 'rounding_method' failed to satisfy constraint: one of "", "round", "floor"}}
  %0 = relay.image.resize2d %x {size = array<i64: 8, 8>, rounding_method = "trunc"} : (tensor<1x3x4x4xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @resize_roi(%x: tensor<1x3x4x4xf32>) {
  // expected-error @+1 {{roi must have 4 entries, got 2}}
  %0 = relay.image.resize2d %x {size = array<i64: 8, 8>, roi = array<f64: 0.0, 1.0>} : (tensor<1x3x4x4xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @resize_result(%x: tensor<1x3x4x4xf32>) {
  // expected-error @+1 {{result #0 has type 'tensor<1x3x8x8xf32>' but its typing rule gives 'tensor<1x3x6x8xf32>'}}
  %0 = relay.image.resize2d %x {size = array<i64: 6, 8>} : (tensor<1x3x4x4xf32>) -> tensor<1x3x8x8xf32>
  return
}
