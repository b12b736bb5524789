// RUN: relay-mlir-opt %s -convert-relay-to-linalg | FileCheck %s
// Lowering of fixed_point_multiply, fixed_point_multiply_per_axis,
// qnn.simulated_quantize and qnn.simulated_dequantize (QnnSimulated.cpp): one
// linalg.generic each, no relay op left; the fixed-point multiplies in
// integers only (int64 arithmetic, no float).

// CHECK-LABEL: func.func @fixed_point_multiply
// CHECK-NOT: relay.
// CHECK: linalg.generic
// CHECK: arith.extsi {{.*}} : i32 to i64
// CHECK: arith.muli
// CHECK: arith.shrsi
// CHECK: arith.trunci {{.*}} : i64 to i32
// CHECK-NOT: f32
// CHECK: return
func.func @fixed_point_multiply(%x: tensor<2x3xi32>) -> tensor<2x3xi32> {
  %y = relay.fixed_point_multiply %x {multiplier = 1610612736 : i64, shift = -2 : i64} : (tensor<2x3xi32>) -> tensor<2x3xi32>
  return %y : tensor<2x3xi32>
}

// relay.quantize's form: int64 data, the int32 result sign-extended back.
// CHECK-LABEL: func.func @fixed_point_multiply_i64
// CHECK-NOT: relay.
// CHECK: linalg.generic
// CHECK: arith.trunci {{.*}} : i64 to i32
// CHECK: arith.extsi {{.*}} : i32 to i64
// CHECK-NOT: f32
// CHECK: return
func.func @fixed_point_multiply_i64(%x: tensor<4xi64>) -> tensor<4xi64> {
  %y = relay.fixed_point_multiply %x {multiplier = 2142531584 : i64, shift = -7 : i64} : (tensor<4xi64>) -> tensor<4xi64>
  return %y : tensor<4xi64>
}

// CHECK-LABEL: func.func @per_axis
// CHECK-NOT: relay.
// CHECK: linalg.generic {{.*}}ins({{.*}} : tensor<2x3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>)
// CHECK: arith.shli
// CHECK: arith.muli
// CHECK: arith.shrsi
// CHECK-NOT: f32
// CHECK: return
func.func @per_axis(%x: tensor<2x3xi32>, %m: tensor<3xi32>, %l: tensor<3xi32>, %r: tensor<3xi32>) -> tensor<2x3xi32> {
  %y = relay.fixed_point_multiply_per_axis %x, %m, %l, %r {axes = array<i64: 1>, is_lshift_required = true, is_rshift_required = true} : (tensor<2x3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  return %y : tensor<2x3xi32>
}

// The dtype code is read at run time: a select per code.
// CHECK-LABEL: func.func @simulated_quantize
// CHECK-NOT: relay.
// CHECK: linalg.generic
// CHECK: arith.divf
// CHECK: math.round
// CHECK: arith.cmpi eq
// CHECK: arith.select
// CHECK: return
func.func @simulated_quantize(%x: tensor<2x3xf32>, %c: tensor<i32>) -> tensor<2x3xf32> {
  %s = relay.constant dense<[0.5, 1.0, 2.0]> : tensor<3xf32>
  %z = relay.constant dense<[1]> : tensor<1xi32>
  %y = relay.qnn.simulated_quantize %x, %c, %s, %z {axis = 1 : i64} : (tensor<2x3xf32>, tensor<i32>, tensor<3xf32>, tensor<1xi32>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @simulated_dequantize
// CHECK-NOT: relay.
// CHECK: linalg.generic
// CHECK: arith.subf
// CHECK: arith.mulf
// CHECK: arith.select
// CHECK: return
func.func @simulated_dequantize(%x: tensor<4xf64>) -> tensor<4xf64> {
  %c = relay.constant dense<2> : tensor<i32>
  %s = relay.constant dense<0.5> : tensor<f32>
  %z = relay.constant dense<3> : tensor<i32>
  %y = relay.qnn.simulated_dequantize %x, %c, %s, %z : (tensor<4xf64>, tensor<i32>, tensor<f32>, tensor<i32>) -> tensor<4xf64>
  return %y : tensor<4xf64>
}
