// RUN: relay-mlir-opt %s -relay-convert-layout | FileCheck %s

// By default only convolutions with a constant weight are converted: a
// run-time weight would be transposed on every call.

// CHECK-LABEL: func.func @arg_weight
// CHECK-NOT: relay.transpose
// CHECK: relay.nn.conv2d %{{.+}}, %{{.+}} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
// CHECK-NOT: relay.transpose
// CHECK: return
func.func @arg_weight(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  %y = relay.nn.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %y : tensor<1x4x6x6xf32>
}

// CHECK-LABEL: func.func @const_weight
// CHECK: %[[XT:.+]] = relay.transpose %{{.+}} {axes = array<i64: 0, 2, 3, 1>}
// CHECK: %[[C:.+]] = relay.nn.conv2d %[[XT]], %{{.+}} {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x6x6x4xf32>
// CHECK: relay.transpose %[[C]] {axes = array<i64: 0, 3, 1, 2>}
func.func @const_weight(%x: tensor<1x3x8x8xf32>) -> tensor<1x4x6x6xf32> {
  %w = relay.constant dense<1.0> : tensor<4x3x3x3xf32>
  %y = relay.nn.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %y : tensor<1x4x6x6xf32>
}
