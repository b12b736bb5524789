// RUN: relay-mlir-opt %s -relay-vnni-matmul -verify-diagnostics

// The kernel's dispatch is an IREE op, which MLIR only makes with
// --allow-unregistered-dialect: without it, a located error (not an abort).
// expected-error @+1 {{needs --allow-unregistered-dialect}}
module {
  func.func @dense(%a: tensor<6x8xi8>) -> tensor<6x16xi32> {
    %w = arith.constant dense<1> : tensor<8x16xi8>
    %z = arith.constant 0 : i32
    %e = tensor.empty() : tensor<6x16xi32>
    %f = linalg.fill ins(%z : i32) outs(%e : tensor<6x16xi32>) -> tensor<6x16xi32>
    %r = linalg.matmul ins(%a, %w : tensor<6x8xi8>, tensor<8x16xi8>) outs(%f : tensor<6x16xi32>) -> tensor<6x16xi32>
    return %r : tensor<6x16xi32>
  }
}
