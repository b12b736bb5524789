// RUN: relay-mlir-opt %s -convert-relay-to-linalg | FileCheck %s
// Lowering of the qnn ops to integer linalg (lib/Conversion/RelayToLinalg/Qnn.cpp):
// no float arithmetic outside quantize/dequantize, per-channel parameters
// read along the axis, the requantize multiplier as constants.

// CHECK-LABEL: func.func @quantize
func.func @quantize(%x: tensor<2x3xf32>) -> tensor<2x3xi8> {
  %s = relay.constant dense<0.5> : tensor<f32>
  %z = relay.constant dense<3> : tensor<i32>
  // One scale: times its reciprocal, rounded half away from zero, clipped in float.
  // CHECK: linalg.generic
  // CHECK: arith.divf
  // CHECK: arith.mulf
  // CHECK: math.round
  // CHECK: arith.maxnumf
  // CHECK: arith.minnumf
  // CHECK: arith.fptosi
  // CHECK: arith.trunci {{.*}} : i64 to i8
  %q = relay.qnn.quantize %x, %s, %z : (tensor<2x3xf32>, tensor<f32>, tensor<i32>) -> tensor<2x3xi8>
  return %q : tensor<2x3xi8>
}

// CHECK-LABEL: func.func @dequantize_per_channel
func.func @dequantize_per_channel(%q: tensor<2x3xui8>) -> tensor<2x3xf32> {
  %s = relay.constant dense<[0.5, 0.25, 1.0]> : tensor<3xf32>
  %z = relay.constant dense<[0, 128, 255]> : tensor<3xi32>
  // CHECK: linalg.generic
  // CHECK-DAG: arith.extui {{.*}} : i8 to i32
  // CHECK: arith.subi
  // CHECK: arith.sitofp
  // CHECK: arith.mulf
  %y = relay.qnn.dequantize %q, %s, %z {axis = 1 : i64} : (tensor<2x3xui8>, tensor<3xf32>, tensor<3xi32>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @requantize
func.func @requantize(%x: tensor<2x3xi32>) -> tensor<2x3xi8> {
  %si = relay.constant dense<[0.25, 0.75, 2.0]> : tensor<3xf32>
  %so = relay.constant dense<0.5> : tensor<f32>
  %z = relay.constant dense<0> : tensor<i32>
  // Multipliers 0.5, 1.5, 4: Q31 mantissas 2^30, 0.75 * 2^31, 2^30; shifts 0, 1, 3.
  // CHECK-DAG: arith.constant dense<[1073741824, 1610612736, 1073741824]> : tensor<3xi64>
  // CHECK-DAG: arith.constant dense<[0, 1, 3]> : tensor<3xi64>
  // CHECK-DAG: arith.constant dense<31> : tensor<3xi64>
  // CHECK: linalg.generic
  // CHECK-NOT: arith.sitofp
  // CHECK: arith.shli
  // CHECK: arith.muli
  // CHECK: arith.shrsi
  // CHECK: arith.trunci {{.*}} : i64 to i32
  // CHECK: arith.maxsi
  // CHECK: arith.minsi
  %y = relay.qnn.requantize %x, %si, %z, %so, %z {axis = 1 : i64} : (tensor<2x3xi32>, tensor<3xf32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<2x3xi8>
  return %y : tensor<2x3xi8>
}

// Contractions: integers only, accumulating in int32. Operands that extend
// alike keep the raw i8 x i8 -> i32 contraction (zero points as corrections).
// CHECK-LABEL: func.func @dense
// CHECK-SAME: (%[[X:.+]]: tensor<2x8xi8>, %[[W:.+]]: tensor<4x8xi8>)
func.func @dense(%x: tensor<2x8xi8>, %w: tensor<4x8xi8>) -> tensor<2x4xi32> {
  %zx = relay.constant dense<3> : tensor<i32>
  %zw = relay.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %s = relay.constant dense<0.5> : tensor<f32>
  %sw = relay.constant dense<[0.5, 0.5, 0.5, 0.5]> : tensor<4xf32>
  // CHECK-NOT: arith.sitofp
  // CHECK: linalg.matmul {{.*}} ins(%[[X]], %[[W]] : tensor<2x8xi8>, tensor<4x8xi8>) outs({{.*}} : tensor<2x4xi32>)
  %y = relay.qnn.dense %x, %w, %zx, %zw, %s, %sw {units = 4 : i64} : (tensor<2x8xi8>, tensor<4x8xi8>, tensor<i32>, tensor<4xi32>, tensor<f32>, tensor<4xf32>) -> tensor<2x4xi32>
  return %y : tensor<2x4xi32>
}

// uint8 x int8 with constant zero points: the uint8 data moved down by 128
// (its zero point 128 -> 0), then the int8 x int8 contraction; zero points of
// zeros add no correction terms (no reduction of the data).
// CHECK-LABEL: func.func @dense_mixed_signedness
func.func @dense_mixed_signedness(%x: tensor<2x8xui8>, %w: tensor<4x8xi8>) -> tensor<2x4xi32> {
  %zx = relay.constant dense<128> : tensor<i32>
  %zw = relay.constant dense<0> : tensor<i32>
  %s = relay.constant dense<0.5> : tensor<f32>
  // CHECK: arith.extui {{.*}} : i8 to i32
  // CHECK: arith.subi
  // CHECK: %[[X8:.*]] = linalg.generic
  // CHECK: arith.trunci {{.*}} : i32 to i8
  // CHECK: %[[R:.*]] = linalg.matmul {{.*}} ins(%[[X8]], %arg1 : tensor<2x8xi8>, tensor<4x8xi8>) outs({{.*}} : tensor<2x4xi32>)
  // CHECK-NOT: linalg.reduce
  // CHECK: return %[[R]]
  %y = relay.qnn.dense %x, %w, %zx, %zw, %s, %s : (tensor<2x8xui8>, tensor<4x8xi8>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<2x4xi32>
  return %y : tensor<2x4xi32>
}

// CHECK-LABEL: func.func @batch_matmul
// CHECK-SAME: (%[[X:.+]]: tensor<2x3x4xi8>, %[[Y:.+]]: tensor<2x5x4xi8>)
func.func @batch_matmul(%x: tensor<2x3x4xi8>, %y: tensor<2x5x4xi8>) -> tensor<2x3x5xi32> {
  %z = relay.constant dense<1> : tensor<i32>
  %s = relay.constant dense<0.5> : tensor<f32>
  // CHECK: linalg.batch_matmul {{.*}} ins(%[[X]], %[[Y]] : tensor<2x3x4xi8>, tensor<2x5x4xi8>)
  // CHECK-SAME: tensor<2x3x5xi32>
  %r = relay.qnn.batch_matmul %x, %y, %z, %z, %s, %s : (tensor<2x3x4xi8>, tensor<2x5x4xi8>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<2x3x5xi32>
  return %r : tensor<2x3x5xi32>
}

// CHECK-LABEL: func.func @conv2d
func.func @conv2d(%x: tensor<1x3x8x8xi8>, %w: tensor<4x3x3x3xi8>) -> tensor<1x4x8x8xi32> {
  %zx = relay.constant dense<-5> : tensor<i32>
  %zw = relay.constant dense<2> : tensor<i32>
  %s = relay.constant dense<0.5> : tensor<f32>
  // CHECK-NOT: arith.sitofp
  // CHECK: linalg.conv_2d_nchw_fchw
  // CHECK-SAME: tensor<1x4x8x8xi32>
  %y = relay.qnn.conv2d %x, %w, %zx, %zw, %s, %s {padding = array<i64: 1, 1>} : (tensor<1x3x8x8xi8>, tensor<4x3x3x3xi8>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<1x4x8x8xi32>
  return %y : tensor<1x4x8x8xi32>
}

// Kernel zero point 0: an int8 x int8 -> int32 convolution over the data padded
// with its zero point (uint8 data and zero point moved down by 128: 131 -> 3),
// minus z * sum(w) per output channel.
// CHECK-LABEL: func.func @conv2d_int8_form
// CHECK: arith.extui
// CHECK: arith.subi
// CHECK: arith.trunci %{{.*}} : i32 to i8
// CHECK: %[[Z:.*]] = arith.constant dense<3> : tensor<i8>
// CHECK: %[[ZS:.*]] = tensor.extract %[[Z]][] : tensor<i8>
// CHECK: %[[P:.*]] = tensor.pad %{{.*}} low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: tensor.yield %[[ZS]] : i8
// CHECK: %[[C:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[P]], %{{.*}} : tensor<1x3x10x10xi8>, tensor<4x3x3x3xi8>) outs(%{{.*}} : tensor<1x4x8x8xi32>)
// CHECK: linalg.reduce {{.*}} dimensions = [1, 2, 3]
// CHECK: arith.muli
// CHECK: linalg.generic {{.*}} ins(%[[C]], %{{.*}} : tensor<1x4x8x8xi32>, tensor<4xi32>)
// CHECK: arith.subi
func.func @conv2d_int8_form(%x: tensor<1x3x8x8xui8>) -> tensor<1x4x8x8xi32> {
  %w = relay.constant dense<3> : tensor<4x3x3x3xi8>
  %zx = relay.constant dense<131> : tensor<i32>
  %zw = relay.constant dense<0> : tensor<i32>
  %s = relay.constant dense<0.5> : tensor<f32>
  %y = relay.qnn.conv2d %x, %w, %zx, %zw, %s, %s {padding = array<i64: 1, 1>} : (tensor<1x3x8x8xui8>, tensor<4x3x3x3xi8>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<1x4x8x8xi32>
  return %y : tensor<1x4x8x8xi32>
}

// add / subtract / mul: the requantize fixed point, int32 arithmetic, clipped.
// CHECK-LABEL: func.func @add_sub_mul
func.func @add_sub_mul(%a: tensor<4xi8>, %b: tensor<4xi8>) -> (tensor<4xi8>, tensor<4xi8>, tensor<4xi8>) {
  %sa = relay.constant dense<0.5> : tensor<f32>
  %sb = relay.constant dense<0.25> : tensor<f32>
  %so = relay.constant dense<0.7> : tensor<f32>
  %z = relay.constant dense<1> : tensor<i32>
  // CHECK-NOT: arith.sitofp
  // CHECK: arith.shrsi
  // CHECK: arith.addi
  %0 = relay.qnn.add %a, %b, %sa, %z, %sb, %z, %so, %z : (tensor<4xi8>, tensor<4xi8>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<4xi8>
  // CHECK: arith.subi
  %1 = relay.qnn.subtract %a, %b, %sa, %z, %sb, %z, %so, %z : (tensor<4xi8>, tensor<4xi8>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<4xi8>
  // CHECK: arith.muli
  %2 = relay.qnn.mul %a, %b, %sa, %z, %sb, %z, %so, %z : (tensor<4xi8>, tensor<4xi8>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<4xi8>
  return %0, %1, %2 : tensor<4xi8>, tensor<4xi8>, tensor<4xi8>
}
