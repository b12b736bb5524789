// RUN: relay-mlir-opt %s -relay-combine-parallel-conv2d | FileCheck %s

// Left alone (as TVM 0.19): two parallel convs (fewer than 3), convs with
// groups = 2, convs of different kernel sizes, convs of different data.
// CHECK-LABEL: func.func @unchanged(
// CHECK-NOT:     relay.concatenate
// CHECK-NOT:     relay.strided_slice
// CHECK-COUNT-9: relay.nn.conv2d
// CHECK-NOT:     relay.concatenate
func.func @unchanged(%x: tensor<1x4x8x8xf32>, %y: tensor<1x4x8x8xf32>, %w: tensor<2x4x3x3xf32>, %g: tensor<4x2x3x3xf32>, %k: tensor<2x4x1x1xf32>, %k5: tensor<2x4x5x5xf32>) -> (tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>, tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>, tensor<1x2x8x8xf32>, tensor<1x2x4x4xf32>, tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>) {
  %a = relay.nn.conv2d %x, %w : (tensor<1x4x8x8xf32>, tensor<2x4x3x3xf32>) -> tensor<1x2x6x6xf32>
  %b = relay.nn.conv2d %x, %w : (tensor<1x4x8x8xf32>, tensor<2x4x3x3xf32>) -> tensor<1x2x6x6xf32>
  %c = relay.nn.conv2d %y, %g {groups = 2 : i64} : (tensor<1x4x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x6x6xf32>
  %d = relay.nn.conv2d %y, %g {groups = 2 : i64} : (tensor<1x4x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x6x6xf32>
  %e = relay.nn.conv2d %y, %g {groups = 2 : i64} : (tensor<1x4x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x6x6xf32>
  %f = relay.nn.conv2d %y, %k : (tensor<1x4x8x8xf32>, tensor<2x4x1x1xf32>) -> tensor<1x2x8x8xf32>
  %h = relay.nn.conv2d %y, %k5 : (tensor<1x4x8x8xf32>, tensor<2x4x5x5xf32>) -> tensor<1x2x4x4xf32>
  %i = relay.nn.conv2d %y, %w : (tensor<1x4x8x8xf32>, tensor<2x4x3x3xf32>) -> tensor<1x2x6x6xf32>
  %j = relay.nn.conv2d %y, %w {strides = array<i64: 1, 1>} : (tensor<1x4x8x8xf32>, tensor<2x4x3x3xf32>) -> tensor<1x2x6x6xf32>
  return %a, %b, %c, %d, %e, %f, %h, %i, %j : tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>, tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>, tensor<1x2x8x8xf32>, tensor<1x2x4x4xf32>, tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>
}
