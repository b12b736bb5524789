// RUN: relay-mlir-opt %s -relay-infer-type | FileCheck %s

// The branches agree; the condition's type comes from relay.if.
// CHECK-LABEL: func.func @select(%{{.*}}: tensor<i1>, %{{.*}}: tensor<2x?xf32>, %{{.*}}: tensor<?x3xf32>) -> tensor<2x3xf32>
// CHECK: relay.if %{{.*}} : tensor<i1> -> tensor<2x3xf32>
func.func @select(%c: tensor<i1>, %a: tensor<2x?xf32>, %b: tensor<?x3xf32>) -> !relay.incomplete {
  %r = relay.if %c : tensor<i1> -> !relay.incomplete {
    %x = relay.add %a, %b : (tensor<2x?xf32>, tensor<?x3xf32>) -> !relay.incomplete
    relay.yield %x : !relay.incomplete
  } else {
    %y = relay.subtract %b, %a : (tensor<?x3xf32>, tensor<2x?xf32>) -> !relay.incomplete
    relay.yield %y : !relay.incomplete
  }
  return %r : !relay.incomplete
}

// A closure whose parameter is only used as a condition.
// CHECK-LABEL: func.func @cond_param
// CHECK: relay.fn : !relay.fn<(tensor<i1>) -> tensor<f32>>
// CHECK: ^bb0(%{{.*}}: tensor<i1>):
func.func @cond_param(%x: tensor<f32>) -> !relay.incomplete {
  %f = relay.fn : !relay.incomplete {
  ^bb0(%c: !relay.incomplete):
    %r = relay.if %c : !relay.incomplete -> !relay.incomplete {
      relay.yield %x : tensor<f32>
    } else {
      %n = relay.negative %x : (tensor<f32>) -> !relay.incomplete
      relay.yield %n : !relay.incomplete
    }
    relay.yield %r : !relay.incomplete
  }
  return %f : !relay.incomplete
}
