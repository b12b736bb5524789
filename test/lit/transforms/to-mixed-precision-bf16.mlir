// RUN: relay-mlir-opt %s -relay-to-mixed-precision="mixed-precision-type=bfloat16 keep-orig-output-dtype=true" | FileCheck %s

// bfloat16, results kept float32: conv2d in bfloat16 (constant weight
// converted), max_pool follows, global_avg_pool2d never; a tuple result's
// bfloat16 field is cast back.
// CHECK-LABEL: func.func @conv(
// CHECK-SAME:    -> tuple<tensor<1x4x4x4xf32>, tensor<1x4x1x1xf32>>
// CHECK:         %[[W:.*]] = relay.constant dense<5.000000e-01> : tensor<4x3x3x3xbf16>
// CHECK:         %[[C:.*]] = relay.nn.conv2d %{{.*}}, %[[W]] {out_dtype = bf16, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xbf16>, tensor<4x3x3x3xbf16>) -> tensor<1x4x8x8xbf16>
// CHECK-NEXT:    %[[P:.*]] = relay.nn.max_pool2d %[[C]] {{.*}}: (tensor<1x4x8x8xbf16>) -> tensor<1x4x4x4xbf16>
// CHECK-NEXT:    %[[PF:.*]] = relay.cast %[[P]] {dtype = f32}
// CHECK-NEXT:    %[[G:.*]] = relay.nn.global_avg_pool2d %[[PF]] : (tensor<1x4x4x4xf32>) -> tensor<1x4x1x1xf32>
// CHECK:         relay.tuple %[[PF]], %[[G]]
func.func @conv(%x: tensor<1x3x8x8xf32>) -> tuple<tensor<1x4x4x4xf32>, tensor<1x4x1x1xf32>> {
  %w = relay.constant dense<0.5> : tensor<4x3x3x3xf32>
  %c = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %p = relay.nn.max_pool2d %c {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32>
  %g = relay.nn.global_avg_pool2d %p : (tensor<1x4x4x4xf32>) -> tensor<1x4x1x1xf32>
  %t = relay.tuple %p, %g : (tensor<1x4x4x4xf32>, tensor<1x4x1x1xf32>) -> tuple<tensor<1x4x4x4xf32>, tensor<1x4x1x1xf32>>
  return %t : tuple<tensor<1x4x4x4xf32>, tensor<1x4x1x1xf32>>
}
