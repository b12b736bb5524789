// RUN: relay-mlir-opt %s -split-input-file -verify-diagnostics

// Broadcast
func.func @broadcast_dims(%a: tensor<4x3xf32>, %b: tensor<2xf32>) {
  // expected-error @+1 {{operands are not broadcastable: dim 1 of the result would need 3 = 2}}
  %0 = relay.add %a, %b : (tensor<4x3xf32>, tensor<2xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @broadcast_dtypes(%a: tensor<4xf32>, %b: tensor<4xi32>) {
  // expected-error @+1 {{operand dtypes differ: lhs is 'f32', rhs is 'i32'}}
  %0 = relay.multiply %a, %b : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  return
}

// -----

// AxisIdentity
func.func @axis_identity(%x: tensor<2x10xf32>) {
  // expected-error @+1 {{axis -3 is out of range for rank 2}}
  %0 = relay.nn.softmax %x {axis = -3 : i64} : (tensor<2x10xf32>) -> tensor<2x10xf32>
  return
}

// -----

// Identity has no rule of its own: only the result type can disagree.
func.func @identity_result(%x: tensor<2x10xf32>) {
  // expected-error @+1 {{result #0 has type 'tensor<10x2xf32>' but its type relation Identity gives 'tensor<2x10xf32>'}}
  %0 = relay.exp %x : (tensor<2x10xf32>) -> tensor<10x2xf32>
  return
}
