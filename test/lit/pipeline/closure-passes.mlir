// RUN: relay-mlir-opt %s --relay-to-iree-input --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s

// Closures become first-order code right after type inference, before the
// layout and lowering passes (test/lit/transforms/lambda-lift.mlir and
// defunctionalize.mlir test the two passes).
// CHECK: relay-infer-type
// CHECK: relay-lambda-lift
// CHECK-NEXT: relay-defunctionalize
// CHECK: relay-convert-layout
// CHECK: convert-relay-to-linalg

func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = relay.negative %x : (tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}
