// RUN: not relay-mlir-opt %s -relay-alter-op-layout=simd-lanes=0 2>&1 | FileCheck %s

// The lanes are a positive count (relay_mlir.x86_target gives 4, 8 or 16).
// CHECK: relay-alter-op-layout: simd-lanes must be at least 1, got 0
func.func @f(%x: tensor<1x8x5x5xf32>, %w: tensor<8x8x3x3xf32>) -> tensor<1x8x3x3xf32> {
  %c = relay.nn.conv2d %x, %w : (tensor<1x8x5x5xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x3x3xf32>
  return %c : tensor<1x8x3x3xf32>
}
