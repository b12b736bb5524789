// RUN: relay-mlir-opt %s -relay-eta-expand -verify-diagnostics

// Neither option: refused (TVM 0.19: "must expand at least one language
// feature").
// expected-error @+1 {{relay-eta-expand: expand at least one of constructors (expand-constructor) and global functions (expand-global-var)}}
module {
  func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
    return %x : tensor<2xf32>
  }
}
