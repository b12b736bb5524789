// RUN: relay-mlir-opt %s -convert-relay-to-linalg -split-input-file -verify-diagnostics
// What the qnn lowering refuses, with the reason (then the conversion's own
// "failed to legalize").

func.func @requantize_scale_not_constant(%x: tensor<4xi32>, %s: tensor<f32>) -> tensor<4xi8> {
  %o = relay.constant dense<0.5> : tensor<f32>
  %z = relay.constant dense<0> : tensor<i32>
  // expected-error @+2 {{failed to legalize operation 'relay.qnn.requantize'}}
  // expected-error @+1 {{'relay.qnn.requantize' op needs constant input_scale and output_scale (the fixed-point multiplier is computed at compile time, as in TVM)}}
  %y = relay.qnn.requantize %x, %s, %z, %o, %z : (tensor<4xi32>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<4xi8>
  return %y : tensor<4xi8>
}

// -----

func.func @requantize_float_compute(%x: tensor<4xi32>) -> tensor<4xi8> {
  %s = relay.constant dense<0.5> : tensor<f32>
  %z = relay.constant dense<0> : tensor<i32>
  // expected-error @+2 {{failed to legalize operation 'relay.qnn.requantize'}}
  // expected-error @+1 {{'relay.qnn.requantize' op compute_dtype "float32" is not supported (the int64 fixed-point form is: "None" or "int64")}}
  %y = relay.qnn.requantize %x, %s, %z, %s, %z {compute_dtype = "float32"} : (tensor<4xi32>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<4xi8>
  return %y : tensor<4xi8>
}

// -----

func.func @mul_per_channel_scale(%a: tensor<2x3xi8>) -> tensor<2x3xi8> {
  %sc = relay.constant dense<[0.5, 0.25, 1.0]> : tensor<3xf32>
  %s = relay.constant dense<0.5> : tensor<f32>
  %z = relay.constant dense<0> : tensor<i32>
  // expected-error @+2 {{failed to legalize operation 'relay.qnn.mul'}}
  // expected-error @+1 {{'relay.qnn.mul' op needs constant 0-d lhs_scale and rhs_scale (per-channel scales are not supported yet)}}
  %y = relay.qnn.mul %a, %a, %sc, %z, %s, %z, %s, %z : (tensor<2x3xi8>, tensor<2x3xi8>, tensor<3xf32>, tensor<i32>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<2x3xi8>
  return %y : tensor<2x3xi8>
}

// -----

// TVM's integer softmax needs 1 / scale >= 1 (TVM 0.19 checks scale <= 1).
func.func @softmax_scale_above_one(%x: tensor<2x4xi8>) -> tensor<2x4xi8> {
  %s = relay.constant dense<1.5> : tensor<f32>
  %z = relay.constant dense<0> : tensor<i32>
  %so = relay.constant dense<0.0078125> : tensor<f32>
  // expected-error @+2 {{failed to legalize operation 'relay.qnn.softmax'}}
  // expected-error @+1 {{'relay.qnn.softmax' op needs an input scale in (0, 1] (TVM's integer softmax), got 1.5}}
  %y = relay.qnn.softmax %x, %s, %z, %so, %z : (tensor<2x4xi8>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<2x4xi8>
  return %y : tensor<2x4xi8>
}
