// RUN: relay-mlir-opt %s -relay-simplify-expr | FileCheck %s

// CHECK-LABEL: func.func @reshapes(
// CHECK-NEXT:    %[[R:.*]] = relay.reshape %arg0 {newshape = array<i64: 6>}
// CHECK-NEXT:    return %[[R]]
func.func @reshapes(%x: tensor<2x3xf32>) -> tensor<6xf32> {
  %a = relay.reshape %x {newshape = array<i64: 3, 2>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %b = relay.reshape %a {newshape = array<i64: -1>} : (tensor<3x2xf32>) -> tensor<6xf32>
  return %b : tensor<6xf32>
}

// Composed: (1, 2, 0) then (0, 2, 1) is (1, 0, 2); a transpose and its
// inverse cancel; an identity transpose goes.
// CHECK-LABEL: func.func @transposes(
// CHECK-NEXT:    %[[T:.*]] = relay.transpose %arg0 {axes = array<i64: 1, 0, 2>}
// CHECK-NEXT:    relay.tuple %[[T]], %arg0, %arg0
func.func @transposes(%t: tensor<2x3x4xf32>) -> tuple<tensor<3x2x4xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>> {
  %a = relay.transpose %t {axes = array<i64: 1, 2, 0>} : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
  %b = relay.transpose %a {axes = array<i64: 0, 2, 1>} : (tensor<3x4x2xf32>) -> tensor<3x2x4xf32>
  %c = relay.transpose %t : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
  %d = relay.transpose %c : (tensor<4x3x2xf32>) -> tensor<2x3x4xf32>
  %e = relay.transpose %t {axes = array<i64: 0, 1, -1>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %r = relay.tuple %b, %d, %e : (tensor<3x2x4xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tuple<tensor<3x2x4xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>>
  return %r : tuple<tensor<3x2x4xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>>
}

// Same-dtype casts go; int8 -> int32 -> float32 is one cast; float32 ->
// float16 -> float32 stays (the first cast rounds); cast_like -> cast.
// CHECK-LABEL: func.func @casts(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<3xf32>, %[[I:[^:]*]]: tensor<3xi8>
// CHECK-NEXT:    %[[W:.*]] = relay.cast %[[I]] {dtype = f32}
// CHECK-NEXT:    %[[H:.*]] = relay.cast %[[X]] {dtype = f16}
// CHECK-NEXT:    %[[N:.*]] = relay.cast %[[H]] {dtype = f32}
// CHECK-NEXT:    %[[L:.*]] = relay.cast %[[X]] {dtype = i8}
// CHECK-NEXT:    relay.tuple %[[X]], %[[X]], %[[W]], %[[N]], %[[L]]
func.func @casts(%x: tensor<3xf32>, %i: tensor<3xi8>) -> tuple<tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xi8>> {
  %s = relay.cast %x {dtype = f32} : (tensor<3xf32>) -> tensor<3xf32>
  %sl = relay.cast_like %x, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %w1 = relay.cast %i {dtype = i32} : (tensor<3xi8>) -> tensor<3xi32>
  %w2 = relay.cast %w1 {dtype = f32} : (tensor<3xi32>) -> tensor<3xf32>
  %n1 = relay.cast %x {dtype = f16} : (tensor<3xf32>) -> tensor<3xf16>
  %n2 = relay.cast %n1 {dtype = f32} : (tensor<3xf16>) -> tensor<3xf32>
  %l = relay.cast_like %x, %i : (tensor<3xf32>, tensor<3xi8>) -> tensor<3xi8>
  %r = relay.tuple %s, %sl, %w2, %n2, %l : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xi8>) -> tuple<tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xi8>>
  return %r : tuple<tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xi8>>
}

// x + 0, 1 * x, x - 0, x / 1 (fills or scalar constants) are x.
// CHECK-LABEL: func.func @identities(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<2x3xf32>
// CHECK-NOT:     relay.add
// CHECK-NOT:     relay.multiply
// CHECK-NOT:     relay.subtract
// CHECK-NOT:     relay.divide
// CHECK:         return %[[X]]
func.func @identities(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %z = relay.zeros_like %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %a = relay.add %x, %z : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %o = relay.ones {shape = array<i64: 2, 3>, dtype = f32} : () -> tensor<2x3xf32>
  %m = relay.multiply %o, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %zero = relay.constant dense<0.0> : tensor<f32>
  %s = relay.subtract %m, %zero : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %one = relay.constant dense<1.0> : tensor<f32>
  %d = relay.divide %s, %one : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  return %d : tensor<2x3xf32>
}

// x / sqrt(y) -> x * rsqrt(y); x + x -> x * 2; zeros_like/ones_like of a
// static type -> zeros/ones; a fill operand of a broadcast op -> a scalar.
// CHECK-LABEL: func.func @arithmetic(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<2x3xf32>, %[[Y:[^:]*]]: tensor<2x3xf32>
// CHECK-DAG:     %[[ONE:.*]] = relay.constant dense<1.000000e+00> : tensor<f32>
// CHECK-DAG:     %[[TWO:.*]] = relay.constant dense<2.000000e+00> : tensor<f32>
// CHECK:         %[[R:.*]] = relay.rsqrt %[[Y]]
// CHECK-NEXT:    relay.multiply %[[X]], %[[R]]
// CHECK-NEXT:    relay.multiply %[[X]], %[[TWO]]
// CHECK-NEXT:    relay.zeros {{.*}}shape = array<i64: 2, 3>
// CHECK-NEXT:    relay.maximum %[[X]], %[[ONE]]
// CHECK-NOT:     relay.zeros_like
func.func @arithmetic(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tuple<tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>> {
  %q = relay.sqrt %y : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %a = relay.divide %x, %q : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %b = relay.add %x, %x : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %z = relay.zeros_like %y : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %o = relay.ones_like %y : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %m = relay.maximum %x, %o : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %r = relay.tuple %a, %b, %z, %m : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tuple<tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>>
  return %r : tuple<tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>>
}
