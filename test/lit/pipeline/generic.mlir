// RUN: relay-mlir-opt %s -relay-to-iree-input | FileCheck %s
// RUN: relay-mlir-opt %s -relay-to-iree-input | FileCheck %s --check-prefix=NORELAY

// A generic function used at two tensor types goes through the whole
// pipeline: inferred, cloned per instance (relay-monomorphize), called
// directly and lowered; no generic function or relay op is left.

// No relay op or type is left (the `relay.instance_of` attribute is).
// NORELAY-NOT: {{!relay|relay\.[a-z_.0-9]+ [^=]}}
// CHECK-LABEL: func.func private @dup$4xf32(%{{.*}}: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
// CHECK-LABEL: func.func private @dup$i32(%{{.*}}: tensor<i32>) -> (tensor<i32>, tensor<i32>)
// CHECK-LABEL: func.func @main(%{{.*}}: tensor<4xf32>, %{{.*}}: tensor<i32>) -> (tensor<4xf32>, tensor<i32>)
// CHECK: call @dup$4xf32(
// CHECK: linalg.generic
// CHECK: call @dup$i32(
func.func @dup(%x: !relay.tvar<"A">) -> tuple<!relay.tvar<"A">, !relay.tvar<"A">> attributes {relay.type_params = ["A"]} {
  %t = relay.tuple %x, %x : (!relay.tvar<"A">, !relay.tvar<"A">) -> tuple<!relay.tvar<"A">, !relay.tvar<"A">>
  return %t : tuple<!relay.tvar<"A">, !relay.tvar<"A">>
}
func.func @main(%x: tensor<4xf32>, %n: tensor<i32>) -> !relay.incomplete {
  %d = relay.global_fn @dup : !relay.incomplete
  %p = relay.call %d(%x) : (!relay.incomplete, tensor<4xf32>) -> !relay.incomplete
  %a = relay.tuple_get_item %p[0] : (!relay.incomplete) -> !relay.incomplete
  %b = relay.tuple_get_item %p[1] : (!relay.incomplete) -> !relay.incomplete
  %s = relay.add %a, %b : (!relay.incomplete, !relay.incomplete) -> !relay.incomplete
  %e = relay.global_fn @dup : !relay.incomplete
  %q = relay.call %e(%n) : (!relay.incomplete, tensor<i32>) -> !relay.incomplete
  %c = relay.tuple_get_item %q[0] : (!relay.incomplete) -> !relay.incomplete
  %r = relay.tuple %s, %c : (!relay.incomplete, !relay.incomplete) -> !relay.incomplete
  return %r : !relay.incomplete
}
