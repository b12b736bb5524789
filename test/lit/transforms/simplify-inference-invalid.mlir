// RUN: relay-mlir-opt %s -relay-simplify-inference -split-input-file -verify-diagnostics

// The rewrites read operand types: an untyped program is refused.
func.func @untyped(%x: tensor<2x3xf32>, %g: !relay.incomplete, %b: tensor<3xf32>) -> !relay.incomplete {
  // expected-error @+1 {{relay-simplify-inference: operands of 'relay.nn.layer_norm' are not typed tensors; run relay-infer-type first}}
  %y = relay.nn.layer_norm %x, %g, %b : (tensor<2x3xf32>, !relay.incomplete, tensor<3xf32>) -> !relay.incomplete
  return %y : !relay.incomplete
}
