// RUN: relay-mlir-opt %s | relay-mlir-opt | FileCheck %s

// CHECK-LABEL: func.func @closures_tuples_if
func.func @closures_tuples_if(%a: tensor<4x3xf32>, %c: tensor<i1>) -> tensor<4x3xf32> {
  // CHECK: %[[T:.+]] = relay.tuple
  %t = relay.tuple %a, %a : (tensor<4x3xf32>, tensor<4x3xf32>) -> tuple<tensor<4x3xf32>, tensor<4x3xf32>>
  // CHECK: relay.tuple_get_item %[[T]][1]
  %b = relay.tuple_get_item %t[1] : (tuple<tensor<4x3xf32>, tensor<4x3xf32>>) -> tensor<4x3xf32>
  // CHECK: relay.fn : !relay.fn<(tensor<4x3xf32>) -> tensor<4x3xf32>>
  %f = relay.fn : !relay.fn<(tensor<4x3xf32>) -> tensor<4x3xf32>> {
  ^bb0(%x: tensor<4x3xf32>):
    %y = relay.multiply %x, %b : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
    relay.yield %y : tensor<4x3xf32>
  }
  // CHECK: relay.call
  %r = relay.call %f(%b) : (!relay.fn<(tensor<4x3xf32>) -> tensor<4x3xf32>>, tensor<4x3xf32>) -> tensor<4x3xf32>
  // CHECK: relay.if
  %s = relay.if %c : tensor<i1> -> tensor<4x3xf32> {
    relay.yield %r : tensor<4x3xf32>
  } else {
    relay.yield %a : tensor<4x3xf32>
  }
  return %s : tensor<4x3xf32>
}

// A recursive closure: the first block argument is the closure itself.
// CHECK-LABEL: func.func @recursive_closure
func.func @recursive_closure(%n: tensor<i32>) -> tensor<i32> {
  %one = relay.constant dense<1> : tensor<i32>
  // CHECK: %[[LOOP:.+]] = relay.fn recursive : !relay.fn<(tensor<i32>) -> tensor<i32>> {
  // CHECK-NEXT: ^bb0(%[[SELF:.+]]: !relay.fn<(tensor<i32>) -> tensor<i32>>, %[[I:.+]]: tensor<i32>):
  %loop = relay.fn recursive : !relay.fn<(tensor<i32>) -> tensor<i32>> {
  ^bb0(%self: !relay.fn<(tensor<i32>) -> tensor<i32>>, %i: tensor<i32>):
    %c = relay.less %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %r = relay.if %c : tensor<i1> -> tensor<i32> {
      %j = relay.add %i, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
      // CHECK: relay.call %[[SELF]](%{{.*}})
      %k = relay.call %self(%j) : (!relay.fn<(tensor<i32>) -> tensor<i32>>, tensor<i32>) -> tensor<i32>
      relay.yield %k : tensor<i32>
    } else {
      relay.yield %i : tensor<i32>
    }
    relay.yield %r : tensor<i32>
  }
  // CHECK: relay.call %[[LOOP]]
  %zero = relay.constant dense<0> : tensor<i32>
  %r = relay.call %loop(%zero) : (!relay.fn<(tensor<i32>) -> tensor<i32>>, tensor<i32>) -> tensor<i32>
  return %r : tensor<i32>
}

// A lambda-lifted closure: a module function and its captures.
func.func private @lifted(%b: tensor<2xf32>, %x: tensor<2xf32>) -> tensor<2xf32> {
  %y = relay.add %x, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}
func.func private @lifted_nocapture(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}
// CHECK-LABEL: func.func @closures_lifted
func.func @closures_lifted(%b: tensor<2xf32>) -> !relay.fn<(tensor<2xf32>) -> tensor<2xf32>> {
  // CHECK: relay.closure @lifted(%{{.*}} : tensor<2xf32>) : !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>
  %f = relay.closure @lifted(%b : tensor<2xf32>) : !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>
  // CHECK: relay.closure @lifted_nocapture() : !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>
  %g = relay.closure @lifted_nocapture() : !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>
  return %f : !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>
}
