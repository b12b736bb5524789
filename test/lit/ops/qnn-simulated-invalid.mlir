// RUN: relay-mlir-opt %s -split-input-file -verify-diagnostics
// The typing rules of fixed_point_multiply, fixed_point_multiply_per_axis,
// qnn.simulated_quantize and qnn.simulated_dequantize
// (lib/Relations/QnnSimulated.cpp), one broken rule each.

func.func @fpm_dtype(%x: tensor<4xi8>) {
  // expected-error @+1 {{'relay.fixed_point_multiply' op operand 'data' must be int32 or int64 (TVM 0.19's fixed-point multiply runs on no other dtype), got 'i8'}}
  %y = relay.fixed_point_multiply %x {multiplier = 1073741824 : i64, shift = 0 : i64} : (tensor<4xi8>) -> tensor<4xi8>
  return
}

// -----

func.func @fpm_multiplier(%x: tensor<4xi32>) {
  // expected-error @+1 {{'relay.fixed_point_multiply' op multiplier must be an int32 value, got 2147483648}}
  %y = relay.fixed_point_multiply %x {multiplier = 2147483648 : i64, shift = 0 : i64} : (tensor<4xi32>) -> tensor<4xi32>
  return
}

// -----

func.func @fpm_shift(%x: tensor<4xi32>) {
  // expected-error @+1 {{'relay.fixed_point_multiply' op shift must be in [-32, 31] (the int64 shifts of TVM's q_multiply_shift are undefined beyond), got -40}}
  %y = relay.fixed_point_multiply %x {multiplier = 1073741824 : i64, shift = -40 : i64} : (tensor<4xi32>) -> tensor<4xi32>
  return
}

// -----

func.func @per_axis_axis(%x: tensor<2x3xi32>, %m: tensor<3xi32>) {
  // expected-error @+1 {{'relay.fixed_point_multiply_per_axis' op axes 2 is out of range for rank 2}}
  %y = relay.fixed_point_multiply_per_axis %x, %m, %m, %m {axes = array<i64: 2>, is_lshift_required = true, is_rshift_required = true} : (tensor<2x3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  return
}

// -----

func.func @per_axis_repeated(%x: tensor<2x3xi32>, %m: tensor<3x3xi32>) {
  // expected-error @+1 {{'relay.fixed_point_multiply_per_axis' op axes must not repeat an axis, got [1, -1]}}
  %y = relay.fixed_point_multiply_per_axis %x, %m, %m, %m {axes = array<i64: 1, -1>, is_lshift_required = true, is_rshift_required = true} : (tensor<2x3xi32>, tensor<3x3xi32>, tensor<3x3xi32>, tensor<3x3xi32>) -> tensor<2x3xi32>
  return
}

// -----

func.func @per_axis_shape(%x: tensor<2x3xi32>, %m: tensor<3xi32>, %l: tensor<2xi32>) {
  // expected-error @+1 {{'relay.fixed_point_multiply_per_axis' op operand 'left_shift' must have data's dims along axes [1] (shape [3]), got 'tensor<2xi32>'}}
  %y = relay.fixed_point_multiply_per_axis %x, %m, %l, %m {axes = array<i64: 1>, is_lshift_required = true, is_rshift_required = true} : (tensor<2x3xi32>, tensor<3xi32>, tensor<2xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  return
}

// -----

func.func @per_axis_dtype(%x: tensor<2x3xi32>, %m: tensor<3xi32>, %r: tensor<3xi64>) {
  // expected-error @+1 {{'relay.fixed_point_multiply_per_axis' op operand 'right_shift' must be int32, got 'i64'}}
  %y = relay.fixed_point_multiply_per_axis %x, %m, %m, %r {axes = array<i64: 1>, is_lshift_required = false, is_rshift_required = true} : (tensor<2x3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi64>) -> tensor<2x3xi32>
  return
}

// -----

func.func @simulated_quantize_dtype(%x: tensor<4xi8>, %c: tensor<i32>, %s: tensor<1xf32>, %z: tensor<1xi32>) {
  // expected-error @+1 {{'relay.qnn.simulated_quantize' op operand 'data' must be float32 or float64, got 'i8'}}
  %y = relay.qnn.simulated_quantize %x, %c, %s, %z : (tensor<4xi8>, tensor<i32>, tensor<1xf32>, tensor<1xi32>) -> tensor<4xi8>
  return
}

// -----

func.func @simulated_quantize_code(%x: tensor<4xf32>, %c: tensor<f32>, %s: tensor<1xf32>, %z: tensor<1xi32>) {
  // expected-error @+1 {{'relay.qnn.simulated_quantize' op operand 'out_dtype' must be an int32 dtype code (1 int8, 2 uint8, 3 int32), got 'f32'}}
  %y = relay.qnn.simulated_quantize %x, %c, %s, %z : (tensor<4xf32>, tensor<f32>, tensor<1xf32>, tensor<1xi32>) -> tensor<4xf32>
  return
}

// -----

func.func @simulated_quantize_code_rank(%x: tensor<4xf32>, %c: tensor<1xi32>, %s: tensor<1xf32>, %z: tensor<1xi32>) {
  // expected-error @+1 {{'relay.qnn.simulated_quantize' op out_dtype must be a 0-d tensor, got 'tensor<1xi32>'}}
  %y = relay.qnn.simulated_quantize %x, %c, %s, %z : (tensor<4xf32>, tensor<1xi32>, tensor<1xf32>, tensor<1xi32>) -> tensor<4xf32>
  return
}

// -----

func.func @simulated_quantize_scale_length(%x: tensor<2x3xf32>, %c: tensor<i32>, %s: tensor<2xf32>, %z: tensor<1xi32>) {
  // expected-error @+1 {{'relay.qnn.simulated_quantize' op operand 'output_scale' must be 0-d or 1-D with 1 entry or one per channel (3 along the axis), got 'tensor<2xf32>'}}
  %y = relay.qnn.simulated_quantize %x, %c, %s, %z {axis = 1 : i64} : (tensor<2x3xf32>, tensor<i32>, tensor<2xf32>, tensor<1xi32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @simulated_quantize_axis(%x: tensor<2x3xf32>, %c: tensor<i32>, %s: tensor<1xf32>, %z: tensor<1xi32>) {
  // expected-error @+1 {{'relay.qnn.simulated_quantize' op axis -3 is out of range for rank 2}}
  %y = relay.qnn.simulated_quantize %x, %c, %s, %z {axis = -3 : i64} : (tensor<2x3xf32>, tensor<i32>, tensor<1xf32>, tensor<1xi32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @simulated_dequantize_zero_point(%x: tensor<4xf32>, %c: tensor<i32>, %s: tensor<1xf32>, %z: tensor<1xf32>) {
  // expected-error @+1 {{'relay.qnn.simulated_dequantize' op operand 'input_zero_point' must be int32, got 'f32'}}
  %y = relay.qnn.simulated_dequantize %x, %c, %s, %z : (tensor<4xf32>, tensor<i32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @simulated_dequantize_scale_rank(%x: tensor<2x3xf32>, %c: tensor<i32>, %s: tensor<1x3xf32>, %z: tensor<1xi32>) {
  // expected-error @+1 {{'relay.qnn.simulated_dequantize' op operand 'input_scale' must be 0-d or 1-D with 1 entry or one per channel (3 along the axis), got 'tensor<1x3xf32>'}}
  %y = relay.qnn.simulated_dequantize %x, %c, %s, %z : (tensor<2x3xf32>, tensor<i32>, tensor<1x3xf32>, tensor<1xi32>) -> tensor<2x3xf32>
  return
}
