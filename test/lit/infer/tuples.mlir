// RUN: relay-mlir-opt %s -relay-infer-type | FileCheck %s

// CHECK-LABEL: func.func @tuples(%{{.*}}: tensor<2xf32>, %{{.*}}: tensor<f32>) -> tuple<tensor<f32>, tensor<2xf32>>
func.func @tuples(%a: tensor<2xf32>, %b: tensor<f32>) -> !relay.incomplete {
  // CHECK: relay.tuple {{.*}} : (tensor<2xf32>, tensor<f32>) -> tuple<tensor<2xf32>, tensor<f32>>
  %t = relay.tuple %a, %b : (tensor<2xf32>, tensor<f32>) -> !relay.incomplete
  // CHECK: relay.tuple_get_item {{.*}}[1] : (tuple<tensor<2xf32>, tensor<f32>>) -> tensor<f32>
  %x = relay.tuple_get_item %t[1] : (!relay.incomplete) -> !relay.incomplete
  // CHECK: relay.add {{.*}} -> tensor<2xf32>
  %y = relay.add %x, %a : (!relay.incomplete, tensor<2xf32>) -> !relay.incomplete
  %s = relay.tuple %x, %y : (!relay.incomplete, !relay.incomplete) -> !relay.incomplete
  return %s : !relay.incomplete
}

// tuple_get_item on a tuple known only later (through a closure's result)
// waits for it.
// CHECK-LABEL: func.func @deferred
// CHECK: relay.tuple_get_item {{.*}}[0] : (tuple<tensor<4xi64>, tensor<4xi64>>) -> tensor<4xi64>
func.func @deferred(%a: tensor<4xi64>) -> !relay.incomplete {
  %f = relay.fn : !relay.incomplete {
  ^bb0(%p: !relay.incomplete):
    %t = relay.tuple %p, %p : (!relay.incomplete, !relay.incomplete) -> !relay.incomplete
    relay.yield %t : !relay.incomplete
  }
  %r = relay.call %f(%a) : (!relay.incomplete, tensor<4xi64>) -> !relay.incomplete
  %g = relay.tuple_get_item %r[0] : (!relay.incomplete) -> !relay.incomplete
  return %g : !relay.incomplete
}
