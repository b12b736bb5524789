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
