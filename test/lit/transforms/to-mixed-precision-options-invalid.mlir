// RUN: relay-mlir-opt %s -relay-to-mixed-precision="mixed-precision-type=float8" -split-input-file -verify-diagnostics
// RUN: relay-mlir-opt %s -relay-to-mixed-precision="mixed-precision-type=int8" -split-input-file -verify-diagnostics
// RUN: not relay-mlir-opt %s -relay-to-mixed-precision="missing-op-mode=3" 2>&1 | FileCheck %s --check-prefix=MODE

// A low type that is not float16, bfloat16, float32 or float64 is refused
// (TVM 0.19 also takes float8 types; relay-mlir has none).
// expected-error @+1 {{relay-to-mixed-precision: mixed-precision-type is float16, bfloat16, float32 or float64, not '}}
module {
  func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
    return %a : tensor<2xf32>
  }
}

// MODE: relay-to-mixed-precision: missing-op-mode is 0, 1 or 2, not 3
