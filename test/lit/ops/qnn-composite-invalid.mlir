// RUN: relay-mlir-opt %s -split-input-file -verify-diagnostics
// The typing rules of qnn.concatenate, avg_pool2d, conv2d_transpose and the
// unary ops (lib/Relations/Qnn.cpp), one broken rule each.

func.func @concatenate_operand_count(%a: tensor<2x3xi8>) {
  %s = relay.constant dense<0.5> : tensor<f32>
  %z = relay.constant dense<0> : tensor<i32>
  // expected-error @+1 {{'relay.qnn.concatenate' op takes n tensors, their n scales, their n zero points, the output scale and zero point (3n + 2 operands, n >= 1), got 4 operands}}
  %y = relay.qnn.concatenate %a, %s, %z, %s : (tensor<2x3xi8>, tensor<f32>, tensor<i32>, tensor<f32>) -> tensor<2x3xi8>
  return
}

// -----

func.func @concatenate_zero_scale(%a: tensor<2x3xi8>, %b: tensor<2x3xi8>) {
  %s = relay.constant dense<0.5> : tensor<f32>
  %s0 = relay.constant dense<0.0> : tensor<f32>
  %z = relay.constant dense<0> : tensor<i32>
  // expected-error @+1 {{'relay.qnn.concatenate' op operand 'input_scales[1]' must be positive and finite, got 0 at index 0}}
  %y = relay.qnn.concatenate %a, %b, %s, %s0, %z, %z, %s, %z {axis = 1 : i64} : (tensor<2x3xi8>, tensor<2x3xi8>, tensor<f32>, tensor<f32>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<2x6xi8>
  return
}

// -----

func.func @avg_pool2d_zero_point(%x: tensor<1x4x4x3xi8>) {
  %s = relay.constant dense<0.5> : tensor<f32>
  %z = relay.constant dense<200> : tensor<i32>
  // expected-error @+1 {{'relay.qnn.avg_pool2d' op operand 'input_zero_point' must be in [-128, 127] (the range of i8), got 200 at index 0}}
  %y = relay.qnn.avg_pool2d %x, %s, %z, %s, %z {pool_size = array<i64: 2, 2>} : (tensor<1x4x4x3xi8>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<1x3x3x3xi8>
  return
}

// -----

func.func @conv2d_transpose_kernel_scale(%x: tensor<1x4x5x5xi8>, %w: tensor<4x2x3x3xi8>) {
  %z = relay.constant dense<0> : tensor<i32>
  %s = relay.constant dense<0.5> : tensor<f32>
  %ks = relay.constant dense<[0.5, 0.5, 0.5]> : tensor<3xf32>
  // expected-error @+1 {{'relay.qnn.conv2d_transpose' op operand 'kernel_scale' must be 0-d or 1-D with one entry per channel (2 along the axis), got 'tensor<3xf32>'}}
  %y = relay.qnn.conv2d_transpose %x, %w, %z, %z, %s, %ks : (tensor<1x4x5x5xi8>, tensor<4x2x3x3xi8>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<3xf32>) -> tensor<1x2x7x7xi32>
  return
}

// -----

func.func @sigmoid_int16(%x: tensor<4xi16>) {
  %s = relay.constant dense<0.5> : tensor<f32>
  %z = relay.constant dense<0> : tensor<i32>
  // expected-error @+1 {{'relay.qnn.sigmoid' op operand 'x' must be int8 or uint8, got 'i16'}}
  %y = relay.qnn.sigmoid %x, %s, %z, %s, %z : (tensor<4xi16>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<4xi16>
  return
}

// -----

func.func @softmax_uint8(%x: tensor<4xui8>) {
  %s = relay.constant dense<0.5> : tensor<f32>
  %z = relay.constant dense<0> : tensor<i32>
  // expected-error @+1 {{'relay.qnn.softmax' op operand 'x' must be int8, got 'ui8'}}
  %y = relay.qnn.softmax %x, %s, %z, %s, %z : (tensor<4xui8>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<4xui8>
  return
}
