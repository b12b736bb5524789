// RUN: relay-mlir-opt %s -relay-simplify-expr-post-alter-op | FileCheck %s

// Left alone (TVM 0.19 leaves them too: SimplifyExpr's other rewrites are
// not part of SimplifyExprPostAlterOp): transpose pairs, layout_transform
// pairs, x + x, x / sqrt(y), zeros_like, a narrowing cast pair, a clip that
// clips.
// CHECK-LABEL: func.func @others(
// CHECK-COUNT-2: relay.transpose
// CHECK-COUNT-2: relay.layout_transform
// CHECK:         relay.add
// CHECK:         relay.sqrt
// CHECK-NEXT:    relay.divide
// CHECK:         relay.zeros_like
// CHECK:         relay.cast {{.*}}dtype = f16
// CHECK-NEXT:    relay.cast {{.*}}dtype = f32
// CHECK:         relay.clip
func.func @others(%x: tensor<2x3xf32>, %y: tensor<1x4x2x2xf32>) -> tuple<tensor<2x3xf32>, tensor<1x4x2x2xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>> {
  %t1 = relay.transpose %x {axes = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %t2 = relay.transpose %t1 {axes = array<i64: 1, 0>} : (tensor<3x2xf32>) -> tensor<2x3xf32>
  %l1 = relay.layout_transform %y {src_layout = "NCHW", dst_layout = "NCHW2c"} : (tensor<1x4x2x2xf32>) -> tensor<1x2x2x2x2xf32>
  %l2 = relay.layout_transform %l1 {src_layout = "NCHW2c", dst_layout = "NCHW"} : (tensor<1x2x2x2x2xf32>) -> tensor<1x4x2x2xf32>
  %a = relay.add %x, %x : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %s = relay.sqrt %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %d = relay.divide %x, %s : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %z = relay.zeros_like %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %h = relay.cast %x {dtype = f16} : (tensor<2x3xf32>) -> tensor<2x3xf16>
  %n = relay.cast %h {dtype = f32} : (tensor<2x3xf16>) -> tensor<2x3xf32>
  %c = relay.clip %x {a_min = -1.0 : f64, a_max = 1.0 : f64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %r = relay.tuple %t2, %l2, %a, %d, %z, %n, %c : (tensor<2x3xf32>, tensor<1x4x2x2xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tuple<tensor<2x3xf32>, tensor<1x4x2x2xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>>
  return %r : tuple<tensor<2x3xf32>, tensor<1x4x2x2xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>>
}

// Where TVM 0.19 is wrong, kept: clip(float32, 0, 255) -> uint8 -> float32
// truncates (TVM drops both casts: 3.7 stays 3.7); clip(float32, -FLT_MAX,
// FLT_MAX) clips infinities (TVM drops it); clip(int32, 0, 20000000) ->
// float32 -> int32 rounds odd values above 2^24 (TVM drops both casts).
// CHECK-LABEL: func.func @tvm_wrong(
// CHECK:         relay.clip
// CHECK-NEXT:    relay.cast {{.*}}dtype = ui8
// CHECK-NEXT:    relay.cast {{.*}}dtype = f32
// CHECK-NEXT:    relay.clip
// CHECK-NEXT:    relay.clip
// CHECK-NEXT:    relay.cast {{.*}}dtype = f32
// CHECK-NEXT:    relay.cast {{.*}}dtype = i32
func.func @tvm_wrong(%f: tensor<4xf32>, %i: tensor<4xi32>) -> tuple<tensor<4xf32>, tensor<4xf32>, tensor<4xi32>> {
  %a = relay.clip %f {a_min = 0.0 : f64, a_max = 255.0 : f64} : (tensor<4xf32>) -> tensor<4xf32>
  %au = relay.cast %a {dtype = ui8} : (tensor<4xf32>) -> tensor<4xui8>
  %af = relay.cast %au {dtype = f32} : (tensor<4xui8>) -> tensor<4xf32>
  %b = relay.clip %f {a_min = -3.4028234663852886E+38 : f64, a_max = 3.4028234663852886E+38 : f64} : (tensor<4xf32>) -> tensor<4xf32>
  %c = relay.clip %i {a_min = 0.0 : f64, a_max = 2.0E+7 : f64} : (tensor<4xi32>) -> tensor<4xi32>
  %cf = relay.cast %c {dtype = f32} : (tensor<4xi32>) -> tensor<4xf32>
  %ci = relay.cast %cf {dtype = i32} : (tensor<4xf32>) -> tensor<4xi32>
  %r = relay.tuple %af, %b, %ci : (tensor<4xf32>, tensor<4xf32>, tensor<4xi32>) -> tuple<tensor<4xf32>, tensor<4xf32>, tensor<4xi32>>
  return %r : tuple<tensor<4xf32>, tensor<4xf32>, tensor<4xi32>>
}

// A cast inside the chain that another op reads stays: the quantized uint8
// tensor read as int16 (an integer conv's input) and as float32 (a residual
// add's) keeps its one uint8 cast, not a second truncation of the float32
// clip (which would then be stored for both readers, 4 bytes a value).
// CHECK-LABEL: func.func @shared_cast(
// CHECK:         %[[C:.*]] = relay.clip
// CHECK-NEXT:    %[[U:.*]] = relay.cast %[[C]] {{.*}}dtype = ui8
// CHECK-NEXT:    relay.cast %[[U]] {{.*}}dtype = i16
// CHECK-NEXT:    relay.cast %[[U]] {{.*}}dtype = f32
func.func @shared_cast(%f: tensor<4xf32>) -> tuple<tensor<4xi16>, tensor<4xf32>> {
  %a = relay.clip %f {a_min = 0.0 : f64, a_max = 255.0 : f64} : (tensor<4xf32>) -> tensor<4xf32>
  %au = relay.cast %a {dtype = ui8} : (tensor<4xf32>) -> tensor<4xui8>
  %ai = relay.cast %au {dtype = i16} : (tensor<4xui8>) -> tensor<4xi16>
  %af = relay.cast %au {dtype = f32} : (tensor<4xui8>) -> tensor<4xf32>
  %r = relay.tuple %ai, %af : (tensor<4xi16>, tensor<4xf32>) -> tuple<tensor<4xi16>, tensor<4xf32>>
  return %r : tuple<tensor<4xi16>, tensor<4xf32>>
}
