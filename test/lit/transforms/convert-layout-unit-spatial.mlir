// RUN: relay-mlir-opt %s -relay-infer-type -relay-convert-layout | FileCheck %s

// Regression: with 1x1 spatial dims (late ResNet stages on small images)
// NCHW<->NHWC transposes only move unit dims, i.e. they are reshapes. The
// binary-op sinking used to treat such transposes of the other operand as
// free and moved them back and forth across the residual add forever
// (ResNet-18 on 32x32 images never finished relay-to-iree-input). Such
// transposes are no longer sunk; they become reshapes and the pass ends.

// CHECK-LABEL: func.func @unit_spatial_residual
// CHECK-NOT: relay.transpose
// CHECK: relay.nn.conv2d {{.*}} {data_layout = "NHWC", kernel_layout = "HWIO", padding = array<i64: 1, 1>} : (tensor<1x1x1x8xf32>, tensor<3x3x8x8xf32>) -> tensor<1x1x1x8xf32>
// CHECK: relay.nn.conv2d {{.*}} {data_layout = "NHWC", kernel_layout = "HWIO", padding = array<i64: 1, 1>} : (tensor<1x1x1x8xf32>, tensor<3x3x8x8xf32>) -> tensor<1x1x1x8xf32>
// CHECK: relay.add
// CHECK: relay.nn.relu
// CHECK: return
func.func @unit_spatial_residual(%x: tensor<1x8x1x1xf32>) -> tensor<1x8x1x1xf32> {
  %w1 = relay.constant dense<0.5> : tensor<8x8x3x3xf32>
  %w2 = relay.constant dense<0.25> : tensor<8x8x3x3xf32>
  %r0 = relay.nn.relu %x : (tensor<1x8x1x1xf32>) -> tensor<1x8x1x1xf32>
  %c1 = relay.nn.conv2d %r0, %w1 {padding = array<i64: 1, 1>} : (tensor<1x8x1x1xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x1x1xf32>
  %r1 = relay.nn.relu %c1 : (tensor<1x8x1x1xf32>) -> tensor<1x8x1x1xf32>
  %c2 = relay.nn.conv2d %r1, %w2 {padding = array<i64: 1, 1>} : (tensor<1x8x1x1xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x1x1xf32>
  %s = relay.add %r0, %c2 : (tensor<1x8x1x1xf32>, tensor<1x8x1x1xf32>) -> tensor<1x8x1x1xf32>
  %y = relay.nn.relu %s : (tensor<1x8x1x1xf32>) -> tensor<1x8x1x1xf32>
  return %y : tensor<1x8x1x1xf32>
}
