// RUN: relay-mlir-opt %s -relay-legalize -split-input-file -verify-diagnostics

// A kernel layout that is not a permutation of I, O, H, W is left for the
// verifier, which names it.
func.func @bad_kernel_layout(%x: tensor<1x3x8x8xf32>, %w: tensor<3x4x3x3xf32>) -> tensor<1x4x10x10xf32> {
  // expected-error @+1 {{kernel_layout}}
  %y = relay.nn.conv2d_transpose %x, %w {kernel_layout = "IOXW"} : (tensor<1x3x8x8xf32>, tensor<3x4x3x3xf32>) -> tensor<1x4x10x10xf32>
  return %y : tensor<1x4x10x10xf32>
}
