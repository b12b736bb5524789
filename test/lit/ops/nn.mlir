// RUN: relay-mlir-opt %s | relay-mlir-opt | FileCheck %s
// Round-trip of dense, matmuls, bias_add, activations, dropout, pad, mirror_pad, upsampling(3d), depth/space moves, batch_flatten (static and `?` dims).

// CHECK-LABEL: func.func @dense
func.func @dense(%x: tensor<1x64xf32>, %w: tensor<10x64xf32>, %x3: tensor<2x3x64xf32>,
                 %xd: tensor<?x?xf32>, %q: tensor<4x8xi8>, %qw: tensor<16x8xi8>) {
  // CHECK: relay.nn.dense %{{.*}}, %{{.*}} : (tensor<1x64xf32>, tensor<10x64xf32>) -> tensor<1x10xf32>
  %0 = relay.nn.dense %x, %w : (tensor<1x64xf32>, tensor<10x64xf32>) -> tensor<1x10xf32>
  // CHECK: relay.nn.dense %{{.*}}, %{{.*}} {units = 10 : i64} : (tensor<2x3x64xf32>, tensor<10x64xf32>) -> tensor<2x3x10xf32>
  %1 = relay.nn.dense %x3, %w {units = 10 : i64} : (tensor<2x3x64xf32>, tensor<10x64xf32>) -> tensor<2x3x10xf32>
  // CHECK: relay.nn.dense %{{.*}}, %{{.*}} : (tensor<?x?xf32>, tensor<10x64xf32>) -> tensor<?x10xf32>
  %2 = relay.nn.dense %xd, %w : (tensor<?x?xf32>, tensor<10x64xf32>) -> tensor<?x10xf32>
  // CHECK: relay.nn.dense %{{.*}}, %{{.*}} {out_dtype = i32} : (tensor<4x8xi8>, tensor<16x8xi8>) -> tensor<4x16xi32>
  %3 = relay.nn.dense %q, %qw {out_dtype = i32} : (tensor<4x8xi8>, tensor<16x8xi8>) -> tensor<4x16xi32>
  return
}

// CHECK-LABEL: func.func @bias_add
func.func @bias_add(%x: tensor<1x8x4x4xf32>, %b: tensor<8xf32>, %c: tensor<4xf32>, %xd: tensor<?x?xf32>) {
  // CHECK: relay.nn.bias_add %{{.*}}, %{{.*}} : (tensor<1x8x4x4xf32>, tensor<8xf32>) -> tensor<1x8x4x4xf32>
  %0 = relay.nn.bias_add %x, %b {axis = 1 : i64} : (tensor<1x8x4x4xf32>, tensor<8xf32>) -> tensor<1x8x4x4xf32>
  // CHECK: relay.nn.bias_add %{{.*}}, %{{.*}} {axis = -1 : i64} : (tensor<1x8x4x4xf32>, tensor<4xf32>) -> tensor<1x8x4x4xf32>
  %1 = relay.nn.bias_add %x, %c {axis = -1 : i64} : (tensor<1x8x4x4xf32>, tensor<4xf32>) -> tensor<1x8x4x4xf32>
  // CHECK: relay.nn.bias_add %{{.*}}, %{{.*}} : (tensor<?x?xf32>, tensor<8xf32>) -> tensor<?x?xf32>
  %2 = relay.nn.bias_add %xd, %b : (tensor<?x?xf32>, tensor<8xf32>) -> tensor<?x?xf32>
  return
}

// CHECK-LABEL: func.func @batch_flatten
func.func @batch_flatten(%x: tensor<2x3x4x5xf32>, %xd: tensor<?x3x4xf32>, %xa: tensor<2x?x4xf32>, %x1: tensor<7xf32>) {
  // CHECK: relay.nn.batch_flatten %{{.*}} : (tensor<2x3x4x5xf32>) -> tensor<2x60xf32>
  %0 = relay.nn.batch_flatten %x : (tensor<2x3x4x5xf32>) -> tensor<2x60xf32>
  // CHECK: relay.nn.batch_flatten %{{.*}} : (tensor<?x3x4xf32>) -> tensor<?x12xf32>
  %1 = relay.nn.batch_flatten %xd : (tensor<?x3x4xf32>) -> tensor<?x12xf32>
  // CHECK: relay.nn.batch_flatten %{{.*}} : (tensor<2x?x4xf32>) -> tensor<2x?xf32>
  %2 = relay.nn.batch_flatten %xa : (tensor<2x?x4xf32>) -> tensor<2x?xf32>
  // CHECK: relay.nn.batch_flatten %{{.*}} : (tensor<7xf32>) -> tensor<7x1xf32>
  %3 = relay.nn.batch_flatten %x1 : (tensor<7xf32>) -> tensor<7x1xf32>
  return
}

// CHECK-LABEL: func.func @matmuls
func.func @matmuls(%a: tensor<2x8xf32>, %b: tensor<8x5xf32>, %bt: tensor<5x8xf32>,
                   %at: tensor<?x8x2xf32>, %x: tensor<2x3x4xf32>, %y: tensor<2x5x4xf32>,
                   %y1: tensor<1x4x5xf32>) {
  // CHECK: relay.nn.matmul %{{.*}}, %{{.*}} : (tensor<2x8xf32>, tensor<8x5xf32>) -> tensor<2x5xf32>
  %0 = relay.nn.matmul %a, %b : (tensor<2x8xf32>, tensor<8x5xf32>) -> tensor<2x5xf32>
  // CHECK: relay.nn.matmul %{{.*}}, %{{.*}} {transpose_b = true} : (tensor<2x8xf32>, tensor<5x8xf32>) -> tensor<2x5xf32>
  %1 = relay.nn.matmul %a, %bt {transpose_b = true} : (tensor<2x8xf32>, tensor<5x8xf32>) -> tensor<2x5xf32>
  // CHECK: relay.nn.matmul %{{.*}}, %{{.*}} {transpose_a = true} : (tensor<?x8x2xf32>, tensor<8x5xf32>) -> tensor<?x2x5xf32>
  %2 = relay.nn.matmul %at, %b {transpose_a = true} : (tensor<?x8x2xf32>, tensor<8x5xf32>) -> tensor<?x2x5xf32>
  // CHECK: relay.nn.batch_matmul %{{.*}}, %{{.*}} : (tensor<2x3x4xf32>, tensor<2x5x4xf32>) -> tensor<2x3x5xf32>
  %3 = relay.nn.batch_matmul %x, %y : (tensor<2x3x4xf32>, tensor<2x5x4xf32>) -> tensor<2x3x5xf32>
  // CHECK: relay.nn.batch_matmul %{{.*}}, %{{.*}} {transpose_b = false} : (tensor<2x3x4xf32>, tensor<1x4x5xf32>) -> tensor<2x3x5xf32>
  %4 = relay.nn.batch_matmul %x, %y1 {transpose_b = false} : (tensor<2x3x4xf32>, tensor<1x4x5xf32>) -> tensor<2x3x5xf32>
  return
}

// CHECK-LABEL: func.func @activations
func.func @activations(%x: tensor<2x4x3xf32>, %a: tensor<4xf32>, %h: tensor<?x3xf16>) {
  // CHECK: relay.nn.leaky_relu %{{.*}} {alpha = 2.000000e-01 : f64} : (tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  %0 = relay.nn.leaky_relu %x {alpha = 0.2 : f64} : (tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  // CHECK: relay.nn.prelu %{{.*}}, %{{.*}} : (tensor<2x4x3xf32>, tensor<4xf32>) -> tensor<2x4x3xf32>
  %1 = relay.nn.prelu %x, %a : (tensor<2x4x3xf32>, tensor<4xf32>) -> tensor<2x4x3xf32>
  // CHECK: relay.nn.gelu %{{.*}} : (tensor<?x3xf16>) -> tensor<?x3xf16>
  %2 = relay.nn.gelu %h : (tensor<?x3xf16>) -> tensor<?x3xf16>
  // CHECK: relay.nn.dropout %{{.*}} : (tensor<?x3xf16>) -> tuple<tensor<?x3xf16>, tensor<?x3xf16>>
  %3 = relay.nn.dropout %h : (tensor<?x3xf16>) -> tuple<tensor<?x3xf16>, tensor<?x3xf16>>
  return
}

// CHECK-LABEL: func.func @layout
func.func @layout(%x: tensor<?x3xf32>, %v: tensor<f32>, %i: tensor<1x8x2x2xi8>, %u: tensor<1x2x3x4xf32>) {
  // CHECK: relay.nn.pad %{{.*}}, %{{.*}} {pad_width = array<i64: 0, 0, 1, 2>} : (tensor<?x3xf32>, tensor<f32>) -> tensor<?x6xf32>
  %0 = relay.nn.pad %x, %v {pad_width = array<i64: 0, 0, 1, 2>} : (tensor<?x3xf32>, tensor<f32>) -> tensor<?x6xf32>
  // CHECK: relay.nn.pad %{{.*}}, %{{.*}} {pad_mode = "reflect", pad_width = array<i64: 1, 1, 2, 2>} : (tensor<?x3xf32>, tensor<f32>) -> tensor<?x7xf32>
  %1 = relay.nn.pad %x, %v {pad_width = array<i64: 1, 1, 2, 2>, pad_mode = "reflect"} : (tensor<?x3xf32>, tensor<f32>) -> tensor<?x7xf32>
  // CHECK: relay.nn.depth_to_space %{{.*}} {block_size = 2 : i64, mode = "CRD"} : (tensor<1x8x2x2xi8>) -> tensor<1x2x4x4xi8>
  %2 = relay.nn.depth_to_space %i {block_size = 2 : i64, mode = "CRD"} : (tensor<1x8x2x2xi8>) -> tensor<1x2x4x4xi8>
  // CHECK: relay.nn.space_to_depth %{{.*}} {block_size = 2 : i64} : (tensor<1x2x4x4xi8>) -> tensor<1x8x2x2xi8>
  %3 = relay.nn.space_to_depth %2 {block_size = 2 : i64} : (tensor<1x2x4x4xi8>) -> tensor<1x8x2x2xi8>
  // CHECK: relay.nn.upsampling %{{.*}} {method = "bilinear", scale_h = 2.000000e+00 : f64, scale_w = 1.500000e+00 : f64} : (tensor<1x2x3x4xf32>) -> tensor<1x2x6x6xf32>
  %4 = relay.nn.upsampling %u {scale_h = 2.0 : f64, scale_w = 1.5 : f64, method = "bilinear"} : (tensor<1x2x3x4xf32>) -> tensor<1x2x6x6xf32>
  return
}

// CHECK-LABEL: func.func @mirror_pad_upsampling3d
func.func @mirror_pad_upsampling3d(%x: tensor<?x3xf32>, %u: tensor<1x2x3x5x3xf32>, %ul: tensor<2x3x?x4x2xi32>) {
  // CHECK: relay.nn.mirror_pad %{{.*}} {pad_width = array<i64: 0, 0, 3, 2>} : (tensor<?x3xf32>) -> tensor<?x8xf32>
  %0 = relay.nn.mirror_pad %x {pad_width = array<i64: 0, 0, 3, 2>} : (tensor<?x3xf32>) -> tensor<?x8xf32>
  // CHECK: relay.nn.mirror_pad %{{.*}} {mode = "REFLECT", pad_width = array<i64: 1, 1, 2, 0>} : (tensor<?x3xf32>) -> tensor<?x5xf32>
  %1 = relay.nn.mirror_pad %x {pad_width = array<i64: 1, 1, 2, 0>, mode = "REFLECT"} : (tensor<?x3xf32>) -> tensor<?x5xf32>
  // 3 × 1.5 = 4.5 -> 4, 5 × 2.5 = 12.5 -> 12 (half to even, as TVM)
  // CHECK: relay.nn.upsampling3d %{{.*}} {scale_d = 1.500000e+00 : f64, scale_h = 2.500000e+00 : f64, scale_w = 2.000000e+00 : f64} : (tensor<1x2x3x5x3xf32>) -> tensor<1x2x4x12x6xf32>
  %2 = relay.nn.upsampling3d %u {scale_d = 1.5 : f64, scale_h = 2.5 : f64, scale_w = 2.0 : f64} : (tensor<1x2x3x5x3xf32>) -> tensor<1x2x4x12x6xf32>
  // CHECK: relay.nn.upsampling3d %{{.*}} {coordinate_transformation_mode = "align_corners", layout = "NDHWC", method = "trilinear", scale_d = 2.000000e+00 : f64, scale_h = 5.000000e-01 : f64} : (tensor<2x3x?x4x2xi32>) -> tensor<2x6x?x4x2xi32>
  %3 = relay.nn.upsampling3d %ul {scale_d = 2.0 : f64, scale_h = 0.5 : f64, layout = "NDHWC", method = "trilinear", coordinate_transformation_mode = "align_corners"} : (tensor<2x3x?x4x2xi32>) -> tensor<2x6x?x4x2xi32>
  return
}
