// RUN: relay-mlir-opt %s -relay-to-mixed-precision -verify-diagnostics | FileCheck %s

// missing-op-mode=1 (the default): an operator on no list is a warning (once
// per operator, with the count) and follows its inputs: log of a float16
// value computes in float16.
// CHECK-LABEL: func.func @missing(
// CHECK:         relay.abs %{{.*}} : (tensor<2x3xf16>) -> tensor<2x3xf16>
// CHECK-NEXT:    relay.log %{{.*}} : (tensor<2x3xf16>) -> tensor<2x3xf16>
func.func @missing(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-warning @+1 {{relay-to-mixed-precision: operator 'abs' is on no mixed precision list (1 use); it follows its inputs}}
  %b = relay.abs %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // expected-warning @+1 {{relay-to-mixed-precision: operator 'log' is on no mixed precision list (1 use); it follows its inputs}}
  %l = relay.log %b : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %l : tensor<2x3xf32>
}
