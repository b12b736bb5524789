// RUN: relay-mlir-opt %s -split-input-file -verify-diagnostics
// The narrow dtypes (int4, uint4, int2, uint2, float8) are storage types:
// arithmetic on them is refused (cast to a wider dtype first).

func.func @add_float8(%x: tensor<4xf8E4M3FN>) -> tensor<4xf8E4M3FN> {
  // expected-error @+1 {{'relay.add' op operand #0 has the narrow element type 'f8E4M3FN', which only cast, cast_like, reshape, transpose, squeeze, expand_dims and copy take (cast it to a wider dtype first)}}
  %y = relay.add %x, %x : (tensor<4xf8E4M3FN>, tensor<4xf8E4M3FN>) -> tensor<4xf8E4M3FN>
  return %y : tensor<4xf8E4M3FN>
}

// -----

func.func @negative_int4(%x: tensor<4xi4>) -> tensor<4xi4> {
  // expected-error @+1 {{'relay.negative' op operand #0 has the narrow element type 'i4'}}
  %y = relay.negative %x : (tensor<4xi4>) -> tensor<4xi4>
  return %y : tensor<4xi4>
}

// -----

func.func @signed_int4(%x: tensor<4xsi4>) -> tensor<4xf32> {
  // expected-error @+1 {{'relay.cast' op operand #0 has element type 'si4', which is not a relay dtype}}
  %y = relay.cast %x {dtype = f32} : (tensor<4xsi4>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
