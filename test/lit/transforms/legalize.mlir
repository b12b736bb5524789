// RUN: relay-mlir-opt %s -relay-legalize | FileCheck %s

// float16 erf is computed in float32 (TVM 0.19 on llvm); float32 erf stays.
// CHECK-LABEL: func.func @erf16
// CHECK-SAME: (%[[X:.+]]: tensor<2x8xf16>)
// CHECK-NEXT: %[[A:.+]] = relay.cast %[[X]] {dtype = f32} : (tensor<2x8xf16>) -> tensor<2x8xf32>
// CHECK-NEXT: %[[B:.+]] = relay.erf %[[A]] : (tensor<2x8xf32>) -> tensor<2x8xf32>
// CHECK-NEXT: %[[C:.+]] = relay.cast %[[B]] {dtype = f16} : (tensor<2x8xf32>) -> tensor<2x8xf16>
// CHECK-NEXT: return %[[C]]
func.func @erf16(%x: tensor<2x8xf16>) -> tensor<2x8xf16> {
  %y = relay.erf %x : (tensor<2x8xf16>) -> tensor<2x8xf16>
  return %y : tensor<2x8xf16>
}
// CHECK-LABEL: func.func @erf32
// CHECK-NEXT: relay.erf
// CHECK-NEXT: return
func.func @erf32(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %y = relay.erf %x : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %y : tensor<2x8xf32>
}

// NHWC data and an HWOI kernel: transposed to NCHW / IOHW (TVM 0.19:
// transpose(%x, [0, 3, 1, 2]), transpose(%w, [3, 2, 0, 1]), the result back
// with [0, 2, 3, 1]).
// CHECK-LABEL: func.func @conv_transpose_nhwc
// CHECK-SAME: (%[[X:.+]]: tensor<1x8x8x3xf32>, %[[W:.+]]: tensor<3x3x4x3xf32>)
// CHECK-DAG: %[[XT:.+]] = relay.transpose %[[X]] {axes = array<i64: 0, 3, 1, 2>} : (tensor<1x8x8x3xf32>) -> tensor<1x3x8x8xf32>
// CHECK-DAG: %[[WT:.+]] = relay.transpose %[[W]] {axes = array<i64: 3, 2, 0, 1>} : (tensor<3x3x4x3xf32>) -> tensor<3x4x3x3xf32>
// (NCHW / IOHW are the defaults: no layout attributes printed)
// CHECK: %[[C:.+]] = relay.nn.conv2d_transpose %[[XT]], %[[WT]] : (tensor<1x3x8x8xf32>, tensor<3x4x3x3xf32>) -> tensor<1x4x10x10xf32>
// CHECK: %[[Y:.+]] = relay.transpose %[[C]] {axes = array<i64: 0, 2, 3, 1>} : (tensor<1x4x10x10xf32>) -> tensor<1x10x10x4xf32>
// CHECK: return %[[Y]]
func.func @conv_transpose_nhwc(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x4x3xf32>) -> tensor<1x10x10x4xf32> {
  %y = relay.nn.conv2d_transpose %x, %w {data_layout = "NHWC", kernel_layout = "HWOI"} : (tensor<1x8x8x3xf32>, tensor<3x3x4x3xf32>) -> tensor<1x10x10x4xf32>
  return %y : tensor<1x10x10x4xf32>
}

// Already NCHW / IOHW: unchanged.
// CHECK-LABEL: func.func @conv_transpose_nchw
// CHECK-NEXT: relay.nn.conv2d_transpose
// CHECK-NEXT: return
func.func @conv_transpose_nchw(%x: tensor<1x3x8x8xf32>, %w: tensor<3x4x3x3xf32>) -> tensor<1x4x10x10xf32> {
  %y = relay.nn.conv2d_transpose %x, %w : (tensor<1x3x8x8xf32>, tensor<3x4x3x3xf32>) -> tensor<1x4x10x10xf32>
  return %y : tensor<1x4x10x10xf32>
}
