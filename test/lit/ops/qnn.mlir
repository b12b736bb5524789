// RUN: relay-mlir-opt %s | relay-mlir-opt | FileCheck %s
// RUN: relay-mlir-opt %s -relay-infer-type | FileCheck %s --check-prefix=INFER
// Round-trip of the qnn ops (per tensor and per channel), and their typing
// rules inferring result types.

// CHECK-LABEL: func.func @quantize_dequantize
func.func @quantize_dequantize(%x: tensor<2x3xf32>, %s: tensor<f32>, %z: tensor<i32>,
                               %sc: tensor<3xf32>, %zc: tensor<3xi32>) {
  // CHECK: relay.qnn.quantize %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<f32>, tensor<i32>) -> tensor<2x3xi8>
  %0 = relay.qnn.quantize %x, %s, %z : (tensor<2x3xf32>, tensor<f32>, tensor<i32>) -> tensor<2x3xi8>
  // CHECK: relay.qnn.quantize %{{.*}}, %{{.*}}, %{{.*}} {axis = 1 : i64, out_dtype = ui8} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xi32>) -> tensor<2x3xui8>
  %1 = relay.qnn.quantize %x, %sc, %zc {axis = 1 : i64, out_dtype = ui8} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xi32>) -> tensor<2x3xui8>
  // CHECK: relay.qnn.dequantize %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x3xui8>, tensor<3xf32>, tensor<3xi32>) -> tensor<2x3xf32>
  %2 = relay.qnn.dequantize %1, %sc, %zc : (tensor<2x3xui8>, tensor<3xf32>, tensor<3xi32>) -> tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @requantize
func.func @requantize(%x: tensor<2x3xi32>, %s: tensor<f32>, %z: tensor<i32>, %sc: tensor<3xf32>) {
  // CHECK: relay.qnn.requantize %{{.*}} {axis = 1 : i64, rounding = "TONEAREST"} : (tensor<2x3xi32>, tensor<3xf32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<2x3xi8>
  %0 = relay.qnn.requantize %x, %sc, %z, %s, %z {axis = 1 : i64, rounding = "TONEAREST"} : (tensor<2x3xi32>, tensor<3xf32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<2x3xi8>
  return
}

// INFER-LABEL: func.func @infer
func.func @infer(%x: tensor<1x3x8x8xi8>, %w: tensor<4x3x3x3xi8>, %d: tensor<2x8xui8>, %dw: tensor<5x8xi8>,
                 %s: tensor<f32>, %z: tensor<i32>, %sw: tensor<4xf32>) -> (!relay.incomplete, !relay.incomplete, !relay.incomplete, !relay.incomplete, !relay.incomplete) {
  // INFER: relay.qnn.conv2d {{.*}} -> tensor<1x4x8x8xi32>
  %0 = relay.qnn.conv2d %x, %w, %z, %z, %s, %sw {padding = array<i64: 1, 1>} : (tensor<1x3x8x8xi8>, tensor<4x3x3x3xi8>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<4xf32>) -> !relay.incomplete
  // INFER: relay.qnn.requantize {{.*}} -> tensor<1x4x8x8xui8>
  %1 = relay.qnn.requantize %0, %s, %z, %s, %z {axis = 1 : i64, out_dtype = ui8} : (!relay.incomplete, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> !relay.incomplete
  // INFER: relay.qnn.dense {{.*}} -> tensor<2x5xi64>
  %2 = relay.qnn.dense %d, %dw, %z, %z, %s, %s {out_dtype = i64} : (tensor<2x8xui8>, tensor<5x8xi8>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<f32>) -> !relay.incomplete
  // INFER: relay.qnn.add {{.*}} -> tensor<2x8xui8>
  %3 = relay.qnn.add %d, %d, %s, %z, %s, %z, %s, %z : (tensor<2x8xui8>, tensor<2x8xui8>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> !relay.incomplete
  // INFER: relay.qnn.dequantize {{.*}} -> tensor<1x4x8x8xf16>
  %4 = relay.qnn.dequantize %1, %s, %z {out_dtype = f16} : (!relay.incomplete, tensor<f32>, tensor<i32>) -> !relay.incomplete
  return %0, %1, %2, %3, %4 : !relay.incomplete, !relay.incomplete, !relay.incomplete, !relay.incomplete, !relay.incomplete
}
