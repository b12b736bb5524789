// RUN: relay-mlir-opt %s "-relay-convert-layout=desired-layout=NCHW constant-weights-only=false" | FileCheck %s
// RUN: not relay-mlir-opt %s -relay-convert-layout=desired-layout=NCWH 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: desired-layout must be NHWC or NCHW, got 'NCWH'

// desired-layout=NCHW converts NHWC/HWIO convolutions the other way; the
// transposes cancel across the bias_add (axis 3 -> 1) and relu.
// CHECK-LABEL: func.func @nhwc_to_nchw
// CHECK-SAME: (%[[X:.+]]: tensor<1x8x8x3xf32>, %[[W1:.+]]: tensor<3x3x3x4xf32>, %[[B:.+]]: tensor<4xf32>, %[[W2:.+]]: tensor<1x1x4x2xf32>)
// CHECK: %[[XT:.+]] = relay.transpose %[[X]] {axes = array<i64: 0, 3, 1, 2>} : (tensor<1x8x8x3xf32>) -> tensor<1x3x8x8xf32>
// CHECK: %[[W1T:.+]] = relay.transpose %[[W1]] {axes = array<i64: 3, 2, 0, 1>} : (tensor<3x3x3x4xf32>) -> tensor<4x3x3x3xf32>
// CHECK: %[[A:.+]] = relay.nn.conv2d %[[XT]], %[[W1T]] {padding = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
// CHECK: %[[BA:.+]] = relay.nn.bias_add %[[A]], %[[B]] : (tensor<1x4x8x8xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
// CHECK: %[[R:.+]] = relay.nn.relu %[[BA]] : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
// CHECK: %[[W2T:.+]] = relay.transpose %[[W2]] {axes = array<i64: 3, 2, 0, 1>}
// CHECK: %[[C:.+]] = relay.nn.conv2d %[[R]], %[[W2T]] : (tensor<1x4x8x8xf32>, tensor<2x4x1x1xf32>) -> tensor<1x2x8x8xf32>
// CHECK: %[[Y:.+]] = relay.transpose %[[C]] {axes = array<i64: 0, 2, 3, 1>} : (tensor<1x2x8x8xf32>) -> tensor<1x8x8x2xf32>
// CHECK: return %[[Y]]
func.func @nhwc_to_nchw(%x: tensor<1x8x8x3xf32>, %w1: tensor<3x3x3x4xf32>, %b: tensor<4xf32>, %w2: tensor<1x1x4x2xf32>) -> tensor<1x8x8x2xf32> {
  %a = relay.nn.conv2d %x, %w1 {padding = array<i64: 1, 1>, data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x8x8x4xf32>
  %ba = relay.nn.bias_add %a, %b {axis = 3 : i64} : (tensor<1x8x8x4xf32>, tensor<4xf32>) -> tensor<1x8x8x4xf32>
  %r = relay.nn.relu %ba : (tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %c = relay.nn.conv2d %r, %w2 {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x8x8x4xf32>, tensor<1x1x4x2xf32>) -> tensor<1x8x8x2xf32>
  return %c : tensor<1x8x8x2xf32>
}

// Convolutions already in the desired layout are left alone.
// CHECK-LABEL: func.func @already_nchw
// CHECK-NOT: relay.transpose
// CHECK: relay.nn.conv2d
// CHECK-NOT: relay.transpose
// CHECK: return
func.func @already_nchw(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  %y = relay.nn.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %y : tensor<1x4x6x6xf32>
}
