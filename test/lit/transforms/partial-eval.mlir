// RUN: relay-mlir-opt %s -relay-partial-eval -canonicalize -split-input-file | FileCheck %s

// A let-bound closure called twice and a helper function: both inlined, the
// closure gone.
// CHECK-LABEL: func.func @main(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<3xf32>, %[[K:[^:]*]]: tensor<3xf32>)
// CHECK-NOT:     relay.fn
// CHECK-NOT:     relay.call
// CHECK-NOT:     func.call
// CHECK:         %[[A:.*]] = relay.multiply %[[X]], %[[K]]
// CHECK:         %[[B:.*]] = relay.multiply %[[A]], %[[K]]
// CHECK:         relay.exp %[[B]]
func.func @helper(%a: tensor<3xf32>) -> tensor<3xf32> {
  %e = relay.exp %a : (tensor<3xf32>) -> tensor<3xf32>
  return %e : tensor<3xf32>
}
func.func @main(%x: tensor<3xf32>, %k: tensor<3xf32>) -> tensor<3xf32> {
  %f = relay.fn : !relay.fn<(tensor<3xf32>) -> tensor<3xf32>> {
  ^bb0(%a: tensor<3xf32>):
    %m = relay.multiply %a, %k : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    relay.yield %m : tensor<3xf32>
  }
  %y = relay.call %f(%x) : (!relay.fn<(tensor<3xf32>) -> tensor<3xf32>>, tensor<3xf32>) -> tensor<3xf32>
  %z = relay.call %f(%y) : (!relay.fn<(tensor<3xf32>) -> tensor<3xf32>>, tensor<3xf32>) -> tensor<3xf32>
  %r = func.call @helper(%z) : (tensor<3xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----

// A constant condition selects its branch; a recursive function stays a call.
// CHECK-LABEL: func.func @main(
// CHECK-NOT:     relay.if
// CHECK:         %[[T:.*]] = relay.tanh
// CHECK:         call @loop(%[[T]]
func.func @loop(%x: tensor<f32>, %n: tensor<i32>) -> tensor<f32> {
  %zero = relay.constant dense<0> : tensor<i32>
  %done = relay.equal %n, %zero : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %r = relay.if %done : tensor<i1> -> tensor<f32> {
    relay.yield %x : tensor<f32>
  } else {
    %one = relay.constant dense<1> : tensor<i32>
    %m = relay.subtract %n, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %k = func.call @loop(%x, %m) : (tensor<f32>, tensor<i32>) -> tensor<f32>
    relay.yield %k : tensor<f32>
  }
  return %r : tensor<f32>
}
func.func @main(%x: tensor<f32>, %n: tensor<i32>) -> tensor<f32> {
  %c = relay.constant dense<false> : tensor<i1>
  %r = relay.if %c : tensor<i1> -> tensor<f32> {
    relay.yield %x : tensor<f32>
  } else {
    %t = relay.tanh %x : (tensor<f32>) -> tensor<f32>
    relay.yield %t : tensor<f32>
  }
  %y = func.call @loop(%r, %n) : (tensor<f32>, tensor<i32>) -> tensor<f32>
  return %y : tensor<f32>
}
