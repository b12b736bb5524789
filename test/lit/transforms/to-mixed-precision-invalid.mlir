// RUN: relay-mlir-opt %s -relay-to-mixed-precision="missing-op-mode=0" -split-input-file -verify-diagnostics

// missing-op-mode=0: an operator on no list is an error (once per operator,
// at its first use, with the count).
func.func @missing(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{relay-to-mixed-precision: operator 'log' is on no mixed precision list (2 uses); it follows its inputs}}
  %l = relay.log %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %m = relay.log %l : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %n = relay.nn.relu %m : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %n : tensor<2x3xf32>
}

// -----

// The categories read operand types: an untyped program is refused.
func.func @untyped(%a: !relay.incomplete) -> !relay.incomplete {
  // expected-error @+1 {{relay-to-mixed-precision: operands of 'relay.nn.relu' are not typed; run relay-infer-type first}}
  %r = relay.nn.relu %a : (!relay.incomplete) -> !relay.incomplete
  return %r : !relay.incomplete
}
