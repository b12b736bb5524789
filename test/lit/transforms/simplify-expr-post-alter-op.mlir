// RUN: relay-mlir-opt %s -relay-simplify-expr-post-alter-op | FileCheck %s
// TVM 0.19's SimplifyExprPostAlterOp: identities, reshapes, casts, clips.

// x + zeros_like(x), 1 * x, x - 0, x / ones are x; reshape(reshape(x)) is
// one reshape.
// CHECK-LABEL: func.func @identities_reshapes(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<2x3xf32>
// CHECK-NEXT:    %[[R:.*]] = relay.reshape %[[X]] {newshape = array<i64: 6>}
// CHECK-NEXT:    relay.tuple %[[X]], %[[R]]
func.func @identities_reshapes(%x: tensor<2x3xf32>) -> tuple<tensor<2x3xf32>, tensor<6xf32>> {
  %z = relay.zeros_like %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %a = relay.add %x, %z : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %one = relay.constant dense<1.0> : tensor<f32>
  %m = relay.multiply %one, %a : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %zero = relay.constant dense<0.0> : tensor<f32>
  %s = relay.subtract %m, %zero : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %o = relay.ones {shape = array<i64: 2, 3>, dtype = f32} : () -> tensor<2x3xf32>
  %d = relay.divide %s, %o : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %r1 = relay.reshape %x {newshape = array<i64: 3, 2>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %r2 = relay.reshape %r1 {newshape = array<i64: -1>} : (tensor<3x2xf32>) -> tensor<6xf32>
  %r = relay.tuple %d, %r2 : (tensor<2x3xf32>, tensor<6xf32>) -> tuple<tensor<2x3xf32>, tensor<6xf32>>
  return %r : tuple<tensor<2x3xf32>, tensor<6xf32>>
}

// Same-dtype cast and cast_like go; float32 -> float64 -> float16 is one
// cast; cast_like after a widening cast is a cast.
// CHECK-LABEL: func.func @casts(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<3xf32>, %[[I:[^:]*]]: tensor<3xi8>
// CHECK-NEXT:    %[[H:.*]] = relay.cast %[[X]] {dtype = f16}
// CHECK-NEXT:    %[[W:.*]] = relay.cast %[[I]] {dtype = f32}
// CHECK-NEXT:    relay.tuple %[[X]], %[[X]], %[[H]], %[[W]]
func.func @casts(%x: tensor<3xf32>, %i: tensor<3xi8>) -> tuple<tensor<3xf32>, tensor<3xf32>, tensor<3xf16>, tensor<3xf32>> {
  %s = relay.cast %x {dtype = f32} : (tensor<3xf32>) -> tensor<3xf32>
  %sl = relay.cast_like %x, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %w = relay.cast %x {dtype = f64} : (tensor<3xf32>) -> tensor<3xf64>
  %h = relay.cast %w {dtype = f16} : (tensor<3xf64>) -> tensor<3xf16>
  %i32 = relay.cast %i {dtype = i32} : (tensor<3xi8>) -> tensor<3xi32>
  %f = relay.cast_like %i32, %x : (tensor<3xi32>, tensor<3xf32>) -> tensor<3xf32>
  %r = relay.tuple %s, %sl, %h, %f : (tensor<3xf32>, tensor<3xf32>, tensor<3xf16>, tensor<3xf32>) -> tuple<tensor<3xf32>, tensor<3xf32>, tensor<3xf16>, tensor<3xf32>>
  return %r : tuple<tensor<3xf32>, tensor<3xf32>, tensor<3xf16>, tensor<3xf32>>
}

// clip(int32, 0, 255) -> uint8 -> int32: both casts change nothing;
// clip(float32, 0, 255) -> uint8 -> int32 is one truncation to int32;
// clip(int32, 0, 1000) -> uint8 -> int32 stays (uint8 wraps 1000).
// CHECK-LABEL: func.func @clip_casts(
// CHECK-SAME:    %[[I:[^:]*]]: tensor<4xi32>, %[[F:[^:]*]]: tensor<4xf32>
// CHECK-NEXT:    %[[C:.*]] = relay.clip %[[I]] {a_max = 2.550000e+02 : f64, a_min = 0.000000e+00 : f64}
// CHECK-NEXT:    %[[D:.*]] = relay.clip %[[F]]
// CHECK-NEXT:    %[[DI:.*]] = relay.cast %[[D]] {dtype = i32}
// CHECK-NEXT:    %[[E:.*]] = relay.clip %[[I]] {a_max = 1.000000e+03
// CHECK-NEXT:    %[[EU:.*]] = relay.cast %[[E]] {dtype = ui8}
// CHECK-NEXT:    %[[EI:.*]] = relay.cast %[[EU]] {dtype = i32}
// CHECK-NEXT:    relay.tuple %[[C]], %[[DI]], %[[EI]]
func.func @clip_casts(%i: tensor<4xi32>, %f: tensor<4xf32>) -> tuple<tensor<4xi32>, tensor<4xi32>, tensor<4xi32>> {
  %c = relay.clip %i {a_min = 0.0 : f64, a_max = 255.0 : f64} : (tensor<4xi32>) -> tensor<4xi32>
  %cu = relay.cast %c {dtype = ui8} : (tensor<4xi32>) -> tensor<4xui8>
  %ci = relay.cast %cu {dtype = i32} : (tensor<4xui8>) -> tensor<4xi32>
  %d = relay.clip %f {a_min = 0.0 : f64, a_max = 255.0 : f64} : (tensor<4xf32>) -> tensor<4xf32>
  %du = relay.cast %d {dtype = ui8} : (tensor<4xf32>) -> tensor<4xui8>
  %di = relay.cast %du {dtype = i32} : (tensor<4xui8>) -> tensor<4xi32>
  %e = relay.clip %i {a_min = 0.0 : f64, a_max = 1000.0 : f64} : (tensor<4xi32>) -> tensor<4xi32>
  %eu = relay.cast %e {dtype = ui8} : (tensor<4xi32>) -> tensor<4xui8>
  %ei = relay.cast %eu {dtype = i32} : (tensor<4xui8>) -> tensor<4xi32>
  %r = relay.tuple %ci, %di, %ei : (tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) -> tuple<tensor<4xi32>, tensor<4xi32>, tensor<4xi32>>
  return %r : tuple<tensor<4xi32>, tensor<4xi32>, tensor<4xi32>>
}

// A clip of uint8 to [0, 255], of int8 to [-200, 300] and of float32 to
// [-inf, inf] clips nothing.
// CHECK-LABEL: func.func @clips(
// CHECK-SAME:    %[[U:[^:]*]]: tensor<4xui8>, %[[S:[^:]*]]: tensor<4xi8>, %[[F:[^:]*]]: tensor<4xf32>
// CHECK-NEXT:    relay.tuple %[[U]], %[[S]], %[[F]]
func.func @clips(%u: tensor<4xui8>, %s: tensor<4xi8>, %f: tensor<4xf32>) -> tuple<tensor<4xui8>, tensor<4xi8>, tensor<4xf32>> {
  %a = relay.clip %u {a_min = 0.0 : f64, a_max = 255.0 : f64} : (tensor<4xui8>) -> tensor<4xui8>
  %b = relay.clip %s {a_min = -200.0 : f64, a_max = 300.0 : f64} : (tensor<4xi8>) -> tensor<4xi8>
  %c = relay.clip %f {a_min = 0xFFF0000000000000 : f64, a_max = 0x7FF0000000000000 : f64} : (tensor<4xf32>) -> tensor<4xf32>
  %r = relay.tuple %a, %b, %c : (tensor<4xui8>, tensor<4xi8>, tensor<4xf32>) -> tuple<tensor<4xui8>, tensor<4xi8>, tensor<4xf32>>
  return %r : tuple<tensor<4xui8>, tensor<4xi8>, tensor<4xf32>>
}

// clip(float32, 0, 1) -> int32 -> bool -> float32: the truncated values are
// 0 and 1, which bool and float32 keep: one truncation to int32, then
// float32. (The bool cast is no truncation: merged into the first cast it
// made 0.5 true; pass_fuzz.py finding s43:999.)
// CHECK-LABEL: func.func @trunc_then_bool(
// CHECK:         %[[C:.*]] = relay.clip
// CHECK-NEXT:    %[[I:.*]] = relay.cast %[[C]] {dtype = i32}
// CHECK-NEXT:    %[[F:.*]] = relay.cast %[[I]] {dtype = f32}
// CHECK-NEXT:    return %[[F]]
func.func @trunc_then_bool(%f: tensor<4xf32>) -> tensor<4xf32> {
  %c = relay.clip %f {a_min = 0.0 : f64, a_max = 1.0 : f64} : (tensor<4xf32>) -> tensor<4xf32>
  %i = relay.cast %c {dtype = i32} : (tensor<4xf32>) -> tensor<4xi32>
  %b = relay.cast %i {dtype = i1} : (tensor<4xi32>) -> tensor<4xi1>
  %r = relay.cast %b {dtype = f32} : (tensor<4xi1>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// clip(float32, 0, 1) -> bool -> int32: bool is x != 0, kept.
// CHECK-LABEL: func.func @bool_not_trunc(
// CHECK:         relay.clip
// CHECK-NEXT:    relay.cast {{.*}}dtype = i1
// CHECK-NEXT:    relay.cast {{.*}}dtype = i32
func.func @bool_not_trunc(%f: tensor<4xf32>) -> tensor<4xi32> {
  %c = relay.clip %f {a_min = 0.0 : f64, a_max = 1.0 : f64} : (tensor<4xf32>) -> tensor<4xf32>
  %b = relay.cast %c {dtype = i1} : (tensor<4xf32>) -> tensor<4xi1>
  %i = relay.cast %b {dtype = i32} : (tensor<4xi1>) -> tensor<4xi32>
  return %i : tensor<4xi32>
}
