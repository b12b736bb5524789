// RUN: not relay-mlir-opt %s -relay-convert-layout="desired-layout=NCWH" 2>&1 | FileCheck %s
// RUN: not relay-mlir-opt %s -relay-convert-layout="desired-layout=NCHW4c" 2>&1 | FileCheck %s --check-prefix=BLOCKED

// relay-convert-layout takes conv2d data layouts NHWC and NCHW only (TVM 0.19's
// ConvertLayout also takes blocked layouts such as NCHW4c; relay-mlir has no
// blocked convolution: docs/optimizer.md, "AlterOpLayout").
// CHECK: relay-convert-layout: desired-layout must be NHWC or NCHW, got 'NCWH'
// BLOCKED: relay-convert-layout: desired-layout must be NHWC or NCHW, got 'NCHW4c'
func.func @main(%x: tensor<1x4x8x8xf32>, %w: tensor<8x4x3x3xf32>) -> tensor<1x8x6x6xf32> {
  %y = relay.nn.conv2d %x, %w : (tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x6x6xf32>
  return %y : tensor<1x8x6x6xf32>
}
