// RUN: relay-mlir-opt %s -convert-relay-to-linalg | FileCheck %s
// Lowering of qnn.concatenate / avg_pool2d / conv2d_transpose / leaky_relu /
// softmax (QnnComposite.cpp) and the unary ops' lookup tables (QnnLookup.cpp):
// integer linalg only, no relay op left.

// CHECK-LABEL: func.func @concatenate
// CHECK-NOT: relay.
// CHECK: tensor.concat
func.func @concatenate(%a: tensor<2x3xi8>, %b: tensor<2x4xi8>) -> tensor<2x7xi8> {
  %sa = relay.constant dense<0.5> : tensor<f32>
  %sb = relay.constant dense<0.25> : tensor<f32>
  %za = relay.constant dense<1> : tensor<i32>
  %zb = relay.constant dense<0> : tensor<i32>
  %y = relay.qnn.concatenate %a, %b, %sa, %sb, %za, %zb, %sa, %za {axis = 1 : i64} : (tensor<2x3xi8>, tensor<2x4xi8>, tensor<f32>, tensor<f32>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<2x7xi8>
  return %y : tensor<2x7xi8>
}

// CHECK-LABEL: func.func @avg_pool2d
// CHECK-NOT: relay.
// CHECK-NOT: arith.divf
// CHECK: arith.divsi
func.func @avg_pool2d(%x: tensor<1x4x4x3xi8>) -> tensor<1x2x2x3xi8> {
  %s = relay.constant dense<0.5> : tensor<f32>
  %z = relay.constant dense<-3> : tensor<i32>
  %y = relay.qnn.avg_pool2d %x, %s, %z, %s, %z {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x4x4x3xi8>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<1x2x2x3xi8>
  return %y : tensor<1x2x2x3xi8>
}

// CHECK-LABEL: func.func @sigmoid
// CHECK-NOT: relay.
// CHECK: arith.constant dense<{{.*}}> : tensor<256xi8>
// CHECK: linalg.generic
// CHECK: tensor.extract
func.func @sigmoid(%x: tensor<4xi8>) -> tensor<4xi8> {
  %s = relay.constant dense<0.0625> : tensor<f32>
  %z = relay.constant dense<0> : tensor<i32>
  %so = relay.constant dense<0.00390625> : tensor<f32>
  %zo = relay.constant dense<-128> : tensor<i32>
  %y = relay.qnn.sigmoid %x, %s, %z, %so, %zo : (tensor<4xi8>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<4xi8>
  return %y : tensor<4xi8>
}

// CHECK-LABEL: func.func @leaky_relu
// CHECK-NOT: relay.
// CHECK: linalg.generic
// CHECK: arith.select
func.func @leaky_relu(%x: tensor<4xui8>) -> tensor<4xui8> {
  %s = relay.constant dense<0.05> : tensor<f32>
  %z = relay.constant dense<128> : tensor<i32>
  %so = relay.constant dense<0.04> : tensor<f32>
  %zo = relay.constant dense<100> : tensor<i32>
  %y = relay.qnn.leaky_relu %x, %s, %z, %so, %zo {alpha = 2.000000e-01 : f64} : (tensor<4xui8>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<4xui8>
  return %y : tensor<4xui8>
}

// TVM 0.19 form: quotients clipped to [0, 20], shifted by the row maximum.
// CHECK-LABEL: func.func @softmax
// CHECK-NOT: relay.
// CHECK-NOT: math.exp
// CHECK: arith.shli
func.func @softmax(%x: tensor<2x4xi8>) -> tensor<2x4xi8> {
  %s = relay.constant dense<0.02> : tensor<f32>
  %z = relay.constant dense<0> : tensor<i32>
  %so = relay.constant dense<0.00390625> : tensor<f32>
  %zo = relay.constant dense<-128> : tensor<i32>
  %y = relay.qnn.softmax %x, %s, %z, %so, %zo : (tensor<2x4xi8>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<2x4xi8>
  return %y : tensor<2x4xi8>
}

// CHECK-LABEL: func.func @conv2d_transpose
// CHECK-NOT: relay.
// CHECK: linalg
func.func @conv2d_transpose(%x: tensor<1x4x5x5xi8>, %w: tensor<4x2x3x3xi8>) -> tensor<1x2x11x11xi32> {
  %zx = relay.constant dense<3> : tensor<i32>
  %zw = relay.constant dense<-2> : tensor<i32>
  %sx = relay.constant dense<0.5> : tensor<f32>
  %sw = relay.constant dense<0.25> : tensor<f32>
  %y = relay.qnn.conv2d_transpose %x, %w, %zx, %zw, %sx, %sw {strides = array<i64: 2, 2>} : (tensor<1x4x5x5xi8>, tensor<4x2x3x3xi8>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<1x2x11x11xi32>
  return %y : tensor<1x2x11x11xi32>
}

// Every unary op is one table (256 entries for i8) read at the input's bit pattern.
// CHECK-LABEL: func.func @lookup_ops
// CHECK-NOT: relay.
// CHECK-COUNT-8: tensor.extract
func.func @lookup_ops(%x: tensor<4xi8>) -> tensor<4xi8> {
  %s = relay.constant dense<0.05> : tensor<f32>
  %z = relay.constant dense<3> : tensor<i32>
  %0 = relay.qnn.abs %x, %s, %z, %s, %z : (tensor<4xi8>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<4xi8>
  %1 = relay.qnn.exp %0, %s, %z, %s, %z : (tensor<4xi8>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<4xi8>
  %2 = relay.qnn.log %1, %s, %z, %s, %z : (tensor<4xi8>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<4xi8>
  %3 = relay.qnn.tanh %2, %s, %z, %s, %z : (tensor<4xi8>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<4xi8>
  %4 = relay.qnn.erf %3, %s, %z, %s, %z : (tensor<4xi8>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<4xi8>
  %5 = relay.qnn.sqrt %4, %s, %z, %s, %z : (tensor<4xi8>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<4xi8>
  %6 = relay.qnn.rsqrt %5, %s, %z, %s, %z : (tensor<4xi8>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<4xi8>
  %7 = relay.qnn.hardswish %6, %s, %z, %s, %z : (tensor<4xi8>, tensor<f32>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<4xi8>
  return %7 : tensor<4xi8>
}
