// RUN: relay-mlir-opt %s -relay-infer-type | FileCheck %s

// CHECK-LABEL: func.func @refs(%{{.*}}: tensor<3xf32>) -> tuple<tensor<3xf32>, tuple<>>
func.func @refs(%x: tensor<3xf32>) -> !relay.incomplete {
  // CHECK: relay.ref_new {{.*}} : (tensor<3xf32>) -> !relay.ref<tensor<3xf32>>
  %r = relay.ref_new %x : (tensor<3xf32>) -> !relay.incomplete
  // CHECK: relay.ref_read {{.*}} : (!relay.ref<tensor<3xf32>>) -> tensor<3xf32>
  %v = relay.ref_read %r : (!relay.incomplete) -> !relay.incomplete
  %w = relay.exp %v : (!relay.incomplete) -> !relay.incomplete
  // CHECK: relay.ref_write {{.*}} : (!relay.ref<tensor<3xf32>>, tensor<3xf32>) -> tuple<>
  %u = relay.ref_write %r, %w : (!relay.incomplete, !relay.incomplete) -> !relay.incomplete
  %t = relay.tuple %v, %u : (!relay.incomplete, !relay.incomplete) -> !relay.incomplete
  return %t : !relay.incomplete
}

// A closure parameter used as a reference gets a ref type from what is
// written into it.
// CHECK-LABEL: func.func @ref_param
// CHECK: relay.fn : !relay.fn<(!relay.ref<tensor<i64>>) -> tuple<>>
func.func @ref_param(%x: tensor<i64>) -> !relay.incomplete {
  %f = relay.fn : !relay.incomplete {
  ^bb0(%r: !relay.incomplete):
    %u = relay.ref_write %r, %x : (!relay.incomplete, tensor<i64>) -> !relay.incomplete
    relay.yield %u : !relay.incomplete
  }
  return %f : !relay.incomplete
}

// grad: fn(T1, T2) -> R becomes fn(T1, T2) -> (R, (T1, T2)).
// CHECK-LABEL: func.func @grad(%{{.*}}: tensor<2x2xf32>) -> tuple<tensor<2x2xf32>, tuple<tensor<2x2xf32>, tensor<2xf32>>>
func.func @grad(%x: tensor<2x2xf32>) -> !relay.incomplete {
  %f = relay.fn : !relay.incomplete {
  ^bb0(%a: tensor<2x2xf32>, %b: tensor<2xf32>):
    %s = relay.multiply %a, %b : (tensor<2x2xf32>, tensor<2xf32>) -> !relay.incomplete
    relay.yield %s : !relay.incomplete
  }
  // CHECK: relay.grad {{.*}} : (!relay.fn<(tensor<2x2xf32>, tensor<2xf32>) -> tensor<2x2xf32>>) -> !relay.fn<(tensor<2x2xf32>, tensor<2xf32>) -> tuple<tensor<2x2xf32>, tuple<tensor<2x2xf32>, tensor<2xf32>>>>
  %g = relay.grad %f : (!relay.incomplete) -> !relay.incomplete
  %b = relay.constant dense<1.0> : tensor<2xf32>
  %r = relay.call %g(%x, %b) : (!relay.incomplete, tensor<2x2xf32>, tensor<2xf32>) -> !relay.incomplete
  return %r : !relay.incomplete
}
