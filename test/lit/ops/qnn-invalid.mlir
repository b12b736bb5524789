// RUN: relay-mlir-opt %s -split-input-file -verify-diagnostics
// The typing rules of the qnn operators (lib/Relations/Qnn.cpp), one broken
// rule each: constant scales must be positive and finite, constant zero
// points inside the quantized dtype, parameters 0-d or one entry per channel.

func.func @zero_scale(%x: tensor<2x3xf32>) {
  %s = relay.constant dense<0.0> : tensor<f32>
  %z = relay.constant dense<0> : tensor<i32>
  // expected-error @+1 {{'relay.qnn.quantize' op operand 'output_scale' must be positive and finite, got 0 at index 0}}
  %q = relay.qnn.quantize %x, %s, %z : (tensor<2x3xf32>, tensor<f32>, tensor<i32>) -> tensor<2x3xi8>
  return
}

// -----

func.func @negative_scale_per_channel(%x: tensor<2x3xi8>) {
  %s = relay.constant dense<[0.5, -0.25, 1.0]> : tensor<3xf32>
  %z = relay.constant dense<0> : tensor<i32>
  // expected-error @+1 {{'relay.qnn.dequantize' op operand 'input_scale' must be positive and finite, got -0.25 at index 1}}
  %y = relay.qnn.dequantize %x, %s, %z : (tensor<2x3xi8>, tensor<3xf32>, tensor<i32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @nan_scale(%x: tensor<4xi32>) {
  %s = relay.constant dense<0x7FC00000> : tensor<f32>
  %o = relay.constant dense<0.5> : tensor<f32>
  %z = relay.constant dense<0> : tensor<i32>
  // expected-error @+1 {{'relay.qnn.requantize' op operand 'input_scale' must be positive and finite, got nan at index 0}}
  %y = relay.qnn.requantize %x, %s, %z, %o, %z : (tensor<4xi32>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<4xi8>
  return
}

// -----

func.func @zero_point_out_of_range(%x: tensor<4xf32>) {
  %s = relay.constant dense<0.5> : tensor<f32>
  %z = relay.constant dense<256> : tensor<i32>
  // expected-error @+1 {{'relay.qnn.quantize' op operand 'output_zero_point' must be in [0, 255] (the range of ui8), got 256 at index 0}}
  %q = relay.qnn.quantize %x, %s, %z {out_dtype = ui8} : (tensor<4xf32>, tensor<f32>, tensor<i32>) -> tensor<4xui8>
  return
}

// -----

func.func @per_channel_length(%x: tensor<2x3xf32>) {
  %s = relay.constant dense<[0.5, 0.25]> : tensor<2xf32>
  %z = relay.constant dense<0> : tensor<i32>
  // expected-error @+1 {{'relay.qnn.quantize' op operand 'output_scale' must be 0-d or 1-D with one entry per channel (3 along the axis), got 'tensor<2xf32>'}}
  %q = relay.qnn.quantize %x, %s, %z : (tensor<2x3xf32>, tensor<2xf32>, tensor<i32>) -> tensor<2x3xi8>
  return
}

// -----

func.func @output_scale_per_channel(%x: tensor<2x3xi32>) {
  %s = relay.constant dense<0.5> : tensor<f32>
  %o = relay.constant dense<[0.5, 0.5, 0.5]> : tensor<3xf32>
  %z = relay.constant dense<0> : tensor<i32>
  // expected-error @+1 {{'relay.qnn.requantize' op operand 'output_scale' must be a 0-d tensor (one value for the tensor), got 'tensor<3xf32>'}}
  %y = relay.qnn.requantize %x, %s, %z, %o, %z : (tensor<2x3xi32>, tensor<f32>, tensor<i32>, tensor<3xf32>, tensor<i32>) -> tensor<2x3xi8>
  return
}

// -----

func.func @scale_dtype(%x: tensor<4xf32>, %s: tensor<f64>, %z: tensor<i32>) {
  // expected-error @+1 {{'relay.qnn.quantize' op operand 'output_scale' must be float32, got 'f64'}}
  %q = relay.qnn.quantize %x, %s, %z : (tensor<4xf32>, tensor<f64>, tensor<i32>) -> tensor<4xi8>
  return
}

// -----

func.func @axis_out_of_range(%x: tensor<4xf32>, %s: tensor<f32>, %z: tensor<i32>) {
  // expected-error @+1 {{'relay.qnn.quantize' op axis 2 is out of range for rank 1}}
  %q = relay.qnn.quantize %x, %s, %z {axis = 2 : i64} : (tensor<4xf32>, tensor<f32>, tensor<i32>) -> tensor<4xi8>
  return
}

// -----

func.func @dequantize_float_data(%x: tensor<4xf32>, %s: tensor<f32>, %z: tensor<i32>) {
  // expected-error @+1 {{'relay.qnn.dequantize' op operand 'data' must be int8, uint8, int16, uint16 or int32, got 'f32'}}
  %y = relay.qnn.dequantize %x, %s, %z : (tensor<4xf32>, tensor<f32>, tensor<i32>) -> tensor<4xf32>
  return
}

// -----

func.func @dense_kernel_zero_point_per_unit(%x: tensor<2x8xi8>, %w: tensor<4x8xi8>, %s: tensor<f32>, %z: tensor<i32>) {
  %zw = relay.constant dense<[1, 2, 3]> : tensor<3xi32>
  // expected-error @+1 {{'relay.qnn.dense' op operand 'kernel_zero_point' must be 0-d or 1-D with one entry per channel (4 along the axis), got 'tensor<3xi32>'}}
  %y = relay.qnn.dense %x, %w, %z, %zw, %s, %s : (tensor<2x8xi8>, tensor<4x8xi8>, tensor<i32>, tensor<3xi32>, tensor<f32>, tensor<f32>) -> tensor<2x4xi32>
  return
}

// -----

func.func @dense_out_dtype(%x: tensor<2x8xi8>, %w: tensor<4x8xi8>, %s: tensor<f32>, %z: tensor<i32>) {
  // expected-error @+1 {{'relay.qnn.dense' op out_dtype must be int32 or int64, got 'i16'}}
  %y = relay.qnn.dense %x, %w, %z, %z, %s, %s {out_dtype = i16} : (tensor<2x8xi8>, tensor<4x8xi8>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<2x4xi16>
  return
}

// -----

func.func @conv2d_kernel_scale_per_channel(%x: tensor<1x3x8x8xi8>, %w: tensor<4x3x3x3xi8>, %s: tensor<f32>, %z: tensor<i32>) {
  %sw = relay.constant dense<[0.5, 0.5]> : tensor<2xf32>
  // expected-error @+1 {{'relay.qnn.conv2d' op operand 'kernel_scale' must be 0-d or 1-D with one entry per channel (4 along the axis), got 'tensor<2xf32>'}}
  %y = relay.qnn.conv2d %x, %w, %z, %z, %s, %sw : (tensor<1x3x8x8xi8>, tensor<4x3x3x3xi8>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<2xf32>) -> tensor<1x4x6x6xi32>
  return
}

// -----

func.func @add_mixed_dtypes(%a: tensor<4xi8>, %b: tensor<4xui8>, %s: tensor<f32>, %z: tensor<i32>) {
  // expected-error @+1 {{'relay.qnn.add' op operands 'lhs' and 'rhs' must have one dtype, got 'i8' and 'ui8'}}
  %y = relay.qnn.add %a, %b, %s, %z, %s, %z, %s, %z : (tensor<4xi8>, tensor<4xui8>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<4xi8>
  return
}

// -----

func.func @batch_matmul_int16(%x: tensor<2x3x4xi16>, %y: tensor<2x5x4xi8>, %s: tensor<f32>, %z: tensor<i32>) {
  // expected-error @+1 {{'relay.qnn.batch_matmul' op operand 'x' must be int8 or uint8, got 'i16'}}
  %r = relay.qnn.batch_matmul %x, %y, %z, %z, %s, %s : (tensor<2x3x4xi16>, tensor<2x5x4xi8>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<2x3x5xi32>
  return
}
