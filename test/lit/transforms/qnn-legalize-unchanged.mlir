// RUN: relay-mlir-opt %s -relay-qnn-legalize | FileCheck %s --check-prefixes=CHECK,INT16
// RUN: relay-mlir-opt %s -relay-qnn-legalize=fast-int8=true | FileCheck %s --check-prefixes=CHECK,FAST

// With fast int8, uint8 data with an int8 kernel and int16 data (nothing
// to shift) stay. In both modes qnn.conv2d_transpose and the other qnn ops
// stay (TVM 0.19 legalizes conv2d_transpose on every target; relay-mlir
// lowers it exactly).
// CHECK-LABEL: func.func @unchanged(
// FAST-NOT:      relay.cast
// FAST:          relay.qnn.dense
// FAST-NEXT:     relay.qnn.dense
// INT16-COUNT-2: relay.nn.dense
// CHECK-NOT:     relay.nn.conv2d_transpose
// CHECK:         relay.qnn.conv2d_transpose
// CHECK-NEXT:    relay.qnn.requantize
// CHECK-NEXT:    return
func.func @unchanged(%x: tensor<2x8xui8>, %w: tensor<4x8xi8>, %x16: tensor<2x8xi16>, %xc: tensor<1x3x4x4xi8>, %wc: tensor<3x2x3x3xi8>) -> (tensor<2x4xi32>, tensor<2x4xi32>, tensor<1x2x6x6xi32>, tensor<2x4xi8>) {
  %z = relay.constant dense<1> : tensor<i32>
  %s = relay.constant dense<0.5> : tensor<f32>
  %y = relay.qnn.dense %x, %w, %z, %z, %s, %s {units = 4 : i64} : (tensor<2x8xui8>, tensor<4x8xi8>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<2x4xi32>
  %y16 = relay.qnn.dense %x16, %w, %z, %z, %s, %s {units = 4 : i64} : (tensor<2x8xi16>, tensor<4x8xi8>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<2x4xi32>
  %t = relay.qnn.conv2d_transpose %xc, %wc, %z, %z, %s, %s : (tensor<1x3x4x4xi8>, tensor<3x2x3x3xi8>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<1x2x6x6xi32>
  %r = relay.qnn.requantize %y, %s, %z, %s, %z {out_dtype = i8} : (tensor<2x4xi32>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<2x4xi8>
  return %y, %y16, %t, %r : tensor<2x4xi32>, tensor<2x4xi32>, tensor<1x2x6x6xi32>, tensor<2x4xi8>
}
