// RUN: relay-mlir-opt %s -split-input-file -verify-diagnostics

func.func @axis_out_of_range(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{axis 2 is out of range for rank 2}}
  %0 = relay.sum %x {axis = array<i64: 2>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @negative_axis_out_of_range(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{axis -3 is out of range for rank 2}}
  %0 = relay.mean %x {axis = array<i64: -3>, exclude = true} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @duplicate_axis(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{axis lists dim 1 more than once}}
  %0 = relay.sum %x {axis = array<i64: 1, -1>} : (tensor<2x3xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @all_not_bool(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{operand 'data' must be a bool tensor (a logical reduction), got 'tensor<2x3xf32>'}}
  %0 = relay.all %x : (tensor<2x3xf32>) -> tensor<f32>
  return
}

// -----

func.func @argmax_rank0(%x: tensor<f32>) {
  // expected-error @+1 {{operand 'data' must have rank >= 1 (an index reduction)}}
  %0 = relay.argmax %x : (tensor<f32>) -> tensor<i32>
  return
}

// -----

func.func @argmin_result_not_i32(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{result #0 has type 'tensor<2xf32>' but its typing rule gives 'tensor<2xi32>'}}
  %0 = relay.argmin %x {axis = array<i64: 1>} : (tensor<2x3xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @max_axis_out_of_range(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{axis -3 is out of range for rank 2}}
  %0 = relay.max %x {axis = array<i64: -3>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @variance_mean_rank(%x: tensor<2x3xf32>, %m: tensor<2xf32>) {
  // expected-error @+1 {{operand 'mean' must have rank 2}}
  %0 = relay.variance %x, %m {axis = array<i64: 1>} : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @variance_mean_broadcast(%x: tensor<2x3xf32>, %m: tensor<2x2xf32>) {
  // expected-error @+1 {{operand 'mean' must broadcast to 'data': dim 1 is 2, expected 1 or 3}}
  %0 = relay.variance %x, %m {axis = array<i64: 1>} : (tensor<2x3xf32>, tensor<2x2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @variance_mean_dtype(%x: tensor<2x3xf32>, %m: tensor<2x1xf16>) {
  // expected-error @+1 {{operand 'mean' must have the dtype of 'data' ('f32'), got 'f16'}}
  %0 = relay.variance %x, %m {axis = array<i64: 1>} : (tensor<2x3xf32>, tensor<2x1xf16>) -> tensor<2xf32>
  return
}
