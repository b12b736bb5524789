// RUN: relay-mlir-opt %s | relay-mlir-opt | FileCheck %s

// CHECK: relay.adt @List ["T"] {
// CHECK-NEXT: relay.constructor @Nil []
// CHECK-NEXT: relay.constructor @Cons [!relay.tvar<"T">, !relay.adt<@List, !relay.tvar<"T">>]
relay.adt @List ["T"] {
  relay.constructor @Nil []
  relay.constructor @Cons [!relay.tvar<"T">, !relay.adt<@List, !relay.tvar<"T">>]
}

// CHECK: relay.adt @Pair ["A", "B"] {
// CHECK-NEXT: relay.constructor @MkPair [!relay.tvar<"A">, tuple<!relay.tvar<"B">, tensor<2xf32>>]
relay.adt @Pair ["A", "B"] {
  relay.constructor @MkPair [!relay.tvar<"A">, tuple<!relay.tvar<"B">, tensor<2xf32>>]
}

// CHECK: relay.adt @Nat [] {
relay.adt @Nat [] {
  relay.constructor @Z []
  relay.constructor @S [!relay.adt<@Nat>]
}

// CHECK-LABEL: func.func @build
func.func @build(%x: tensor<f32>) -> !relay.adt<@List, tensor<f32>> {
  // CHECK: relay.construct @List::@Nil() : () -> !relay.adt<@List, tensor<f32>>
  %nil = relay.construct @List::@Nil() : () -> !relay.adt<@List, tensor<f32>>
  // CHECK: relay.construct @List::@Cons(%{{.*}}, %{{.*}}) : (tensor<f32>, !relay.adt<@List, tensor<f32>>) -> !relay.adt<@List, tensor<f32>>
  %l = relay.construct @List::@Cons(%x, %nil) : (tensor<f32>, !relay.adt<@List, tensor<f32>>) -> !relay.adt<@List, tensor<f32>>
  return %l : !relay.adt<@List, tensor<f32>>
}

// A constructor whose result type is not fixed by its operands keeps the
// incomplete argument until inference.
// CHECK-LABEL: func.func @nil_unknown
// CHECK: relay.construct @List::@Nil() : () -> !relay.adt<@List, !relay.incomplete>
func.func @nil_unknown() -> !relay.adt<@List, !relay.incomplete> {
  %nil = relay.construct @List::@Nil() : () -> !relay.adt<@List, !relay.incomplete>
  return %nil : !relay.adt<@List, !relay.incomplete>
}

// CHECK-LABEL: func.func @head
func.func @head(%l: !relay.adt<@List, tensor<f32>>, %d: tensor<f32>) -> tensor<f32> {
  // CHECK: relay.match %{{.*}} : !relay.adt<@List, tensor<f32>> -> tensor<f32> {
  // CHECK-NEXT: case #relay.pat_ctor<@List::@Cons, [#relay.pat_var, #relay.pat_wildcard]> (%{{.*}}: tensor<f32>) {
  // CHECK: case #relay.pat_wildcard {
  %r = relay.match %l : !relay.adt<@List, tensor<f32>> -> tensor<f32> {
    case #relay.pat_ctor<@List::@Cons, [#relay.pat_var, #relay.pat_wildcard]> (%h: tensor<f32>) {
      relay.yield %h : tensor<f32>
    }
    case #relay.pat_wildcard {
      relay.yield %d : tensor<f32>
    }
  }
  return %r : tensor<f32>
}

// Nested constructor and tuple patterns; a partial match (`match?`).
// CHECK-LABEL: func.func @nested
func.func @nested(%p: !relay.adt<@Pair, !relay.adt<@Nat>, tensor<i8>>) -> tensor<2xf32> {
  // CHECK: relay.match %{{.*}} : !relay.adt<@Pair, !relay.adt<@Nat>, tensor<i8>> -> tensor<2xf32> attributes {complete = false} {
  // CHECK-NEXT: case #relay.pat_ctor<@Pair::@MkPair, [#relay.pat_ctor<@Nat::@S, [#relay.pat_var]>, #relay.pat_tuple<[#relay.pat_var, #relay.pat_var]>]> (%{{.*}}: !relay.adt<@Nat>, %{{.*}}: tensor<i8>, %{{.*}}: tensor<2xf32>)
  %r = relay.match %p : !relay.adt<@Pair, !relay.adt<@Nat>, tensor<i8>> -> tensor<2xf32> attributes {complete = false} {
    case #relay.pat_ctor<@Pair::@MkPair, [#relay.pat_ctor<@Nat::@S, [#relay.pat_var]>, #relay.pat_tuple<[#relay.pat_var, #relay.pat_var]>]> (%n: !relay.adt<@Nat>, %b: tensor<i8>, %v: tensor<2xf32>) {
      relay.yield %v : tensor<2xf32>
    }
  }
  return %r : tensor<2xf32>
}

// CHECK-LABEL: func.func @nat
func.func @nat() -> !relay.adt<@Nat> {
  // CHECK: relay.construct @Nat::@Z() : () -> !relay.adt<@Nat>
  %z = relay.construct @Nat::@Z() : () -> !relay.adt<@Nat>
  // CHECK: relay.construct @Nat::@S(%{{.*}}) : (!relay.adt<@Nat>) -> !relay.adt<@Nat>
  %one = relay.construct @Nat::@S(%z) : (!relay.adt<@Nat>) -> !relay.adt<@Nat>
  return %one : !relay.adt<@Nat>
}
