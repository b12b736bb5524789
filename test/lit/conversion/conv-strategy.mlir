// RUN: relay-mlir-opt %s -split-input-file -convert-relay-to-linalg -verify-diagnostics | FileCheck %s
// A convolution asks for a strategy with `relay.conv_strategy`, whatever the
// cost rules would choose (how bench/strategies.py measures each strategy on
// one shape); a strategy that cannot compute it is a located error.

// 56x56 outputs (> 256 pixels): the cost rules take the direct convolution,
// asked for im2col it is the patch matmul.
// CHECK-LABEL: func.func @asks_im2col
// CHECK-NOT: linalg.conv_2d
// CHECK: tensor.concat dim(3)
// CHECK: linalg.matmul {{.+}} -> tensor<3136x8xf32>
func.func @asks_im2col(%x: tensor<1x58x58x16xf32>, %w: tensor<3x3x16x8xf32>) -> tensor<1x56x56x8xf32> {
  %y = relay.nn.conv2d %x, %w {data_layout = "NHWC", kernel_layout = "HWIO", relay.conv_strategy = "im2col"} : (tensor<1x58x58x16xf32>, tensor<3x3x16x8xf32>) -> tensor<1x56x56x8xf32>
  return %y : tensor<1x56x56x8xf32>
}

// -----

// 16 channels (fewer than Winograd's 32): direct by the cost rules, Winograd
// when asked: the folded transformed filter and a batch matmul.
// CHECK-LABEL: func.func @asks_winograd
// CHECK: linalg.batch_matmul
// CHECK-NOT: linalg.conv_2d
func.func @asks_winograd(%x: tensor<1x14x14x16xf32>) -> tensor<1x14x14x16xf32> {
  %w = relay.constant dense<0.5> : tensor<3x3x16x16xf32>
  %y = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>, data_layout = "NHWC", kernel_layout = "HWIO", relay.conv_strategy = "winograd"} : (tensor<1x14x14x16xf32>, tensor<3x3x16x16xf32>) -> tensor<1x14x14x16xf32>
  return %y : tensor<1x14x14x16xf32>
}

// -----

// 64 channels on a 14x14 map: Winograd by the cost rules, direct when asked.
// CHECK-LABEL: func.func @asks_direct
// CHECK-NOT: linalg.batch_matmul
// CHECK: linalg.conv_2d_nhwc_hwcf
func.func @asks_direct(%x: tensor<1x14x14x64xf32>) -> tensor<1x14x14x64xf32> {
  %w = relay.constant dense<0.5> : tensor<3x3x64x64xf32>
  %y = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>, data_layout = "NHWC", kernel_layout = "HWIO", relay.conv_strategy = "direct"} : (tensor<1x14x14x64xf32>, tensor<3x3x64x64xf32>) -> tensor<1x14x14x64xf32>
  return %y : tensor<1x14x14x64xf32>
}

// -----

// The request survives the kernel layout's normalisation (OHWI -> HWIO).
// CHECK-LABEL: func.func @asks_im2col_ohwi
// CHECK: linalg.matmul
// CHECK-NOT: linalg.conv_2d
func.func @asks_im2col_ohwi(%x: tensor<1x30x30x16xf32>, %w: tensor<8x3x3x16xf32>) -> tensor<1x28x28x8xf32> {
  %y = relay.nn.conv2d %x, %w {data_layout = "NHWC", kernel_layout = "OHWI", relay.conv_strategy = "im2col"} : (tensor<1x30x30x16xf32>, tensor<8x3x3x16xf32>) -> tensor<1x28x28x8xf32>
  return %y : tensor<1x28x28x8xf32>
}

// -----

// Winograd takes 3x3 kernels at stride 1 only.
func.func @winograd_at_stride_2(%x: tensor<1x15x15x32xf32>) -> tensor<1x7x7x32xf32> {
  %w = relay.constant dense<0.5> : tensor<3x3x32x32xf32>
  // expected-error @+2 {{not supported yet: nn.conv2d asks for relay.conv_strategy "winograd", which does not compute it}}
  // expected-error @+1 {{failed to legalize operation 'relay.nn.conv2d'}}
  %y = relay.nn.conv2d %x, %w {strides = array<i64: 2, 2>, data_layout = "NHWC", kernel_layout = "HWIO", relay.conv_strategy = "winograd"} : (tensor<1x15x15x32xf32>, tensor<3x3x32x32xf32>) -> tensor<1x7x7x32xf32>
  return %y : tensor<1x7x7x32xf32>
}

// -----

// im2col takes NHWC data only.
func.func @im2col_nchw(%x: tensor<1x16x10x10xf32>, %w: tensor<8x16x3x3xf32>) -> tensor<1x8x8x8xf32> {
  // expected-error @+2 {{asks for relay.conv_strategy "im2col", which does not compute it}}
  // expected-error @+1 {{failed to legalize operation 'relay.nn.conv2d'}}
  %y = relay.nn.conv2d %x, %w {relay.conv_strategy = "im2col"} : (tensor<1x16x10x10xf32>, tensor<8x16x3x3xf32>) -> tensor<1x8x8x8xf32>
  return %y : tensor<1x8x8x8xf32>
}

// -----

// A name that is no strategy.
func.func @unknown_strategy(%x: tensor<1x16x10x10xf32>, %w: tensor<8x16x3x3xf32>) -> tensor<1x8x8x8xf32> {
  // expected-error @+2 {{asks for relay.conv_strategy "fastest", which does not compute it}}
  // expected-error @+1 {{failed to legalize operation 'relay.nn.conv2d'}}
  %y = relay.nn.conv2d %x, %w {relay.conv_strategy = "fastest"} : (tensor<1x16x10x10xf32>, tensor<8x16x3x3xf32>) -> tensor<1x8x8x8xf32>
  return %y : tensor<1x8x8x8xf32>
}
