// RUN: relay-mlir-opt %s -relay-fold-constants | FileCheck %s

// What FoldConstant leaves: operators with a non-constant operand, effects
// (dropout is stateful), values it does not fold (a float -> int cast of NaN
// or out of range: undefined in numpy; a "fast" take out of range: a run-time
// error), and results above 2^22 elements (TVM 0.19 folds these too).

// CHECK-LABEL: func.func @not_constant(
// CHECK:         relay.exp
// CHECK:         relay.add
func.func @not_constant(%x: tensor<3xf32>) -> tensor<3xf32> {
  %c = relay.constant dense<[0.0, 1.0, 2.0]> : tensor<3xf32>
  %e = relay.exp %x : (tensor<3xf32>) -> tensor<3xf32>
  %a = relay.add %e, %c : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %a : tensor<3xf32>
}

// CHECK-LABEL: func.func @dropout(
// CHECK:         relay.nn.dropout
func.func @dropout() -> tuple<tensor<3xf32>, tensor<3xf32>> {
  %c = relay.constant dense<[0.0, 1.0, 2.0]> : tensor<3xf32>
  %d = relay.nn.dropout %c : (tensor<3xf32>) -> tuple<tensor<3xf32>, tensor<3xf32>>
  return %d : tuple<tensor<3xf32>, tensor<3xf32>>
}

// CHECK-LABEL: func.func @undefined_values(
// CHECK:         relay.cast
// CHECK:         relay.take
func.func @undefined_values() -> (tensor<2xi32>, tensor<1xf32>) {
  %c = relay.constant dense<[0x7FC00000, 1.0e+10]> : tensor<2xf32>
  %i = relay.cast %c {dtype = i32} : (tensor<2xf32>) -> tensor<2xi32>
  %d = relay.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %k = relay.constant dense<[5]> : tensor<1xi32>
  %t = relay.take %d, %k {axis = 0 : i64, mode = "fast"} : (tensor<2xf32>, tensor<1xi32>) -> tensor<1xf32>
  return %i, %t : tensor<2xi32>, tensor<1xf32>
}

// CHECK-LABEL: func.func @too_large(
// CHECK:         relay.broadcast_to
// CHECK:         relay.exp
func.func @too_large() -> (tensor<10000x10000xf32>, tensor<4194305xf32>) {
  %c = relay.constant dense<1.0> : tensor<f32>
  %b = relay.broadcast_to %c {shape = array<i64: 10000, 10000>} : (tensor<f32>) -> tensor<10000x10000xf32>
  %d = relay.constant dense<1.0> : tensor<4194305xf32>
  %e = relay.exp %d : (tensor<4194305xf32>) -> tensor<4194305xf32>
  return %b, %e : tensor<10000x10000xf32>, tensor<4194305xf32>
}
