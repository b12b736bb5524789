// RUN: relay-mlir-opt %s -relay-infer-type | FileCheck %s
// RUN: relay-mlir-opt %s -relay-infer-type -relay-monomorphize | FileCheck %s --check-prefix=MONO

// After relay-monomorphize: one clone per instance, each after the other
// clones of its generic, the uses calling them directly (a generic passed
// as a value stays a relay.global_fn of its clone).
// MONO-NOT: relay.type_params
// MONO: func.func private @id$f32(
// MONO: func.func private @id$2xi8(
// MONO: func.func private @length$f32(
// MONO: func.call @length$f32(
// MONO: func.func private @length$2xi8(
// MONO: func.func private @map$f32$f32(
// MONO: func.func private @evens$2xi8(
// MONO: func.call @odds$2xi8(
// MONO: func.func private @odds$2xi8(
// MONO: func.call @evens$2xi8(
// MONO: call @same$2xi8(
// MONO: func.func private @same$2xi8(
// MONO: func.func private @nest$2xi8(
// MONO: call @singleton$2xi8(
// MONO: call @singleton$List.2xi8(
// MONO: func.func private @singleton$2xi8(
// MONO: func.func private @singleton$List.2xi8(
// MONO-LABEL: func.func @main
// MONO: call @id$f32(
// MONO: call @id$2xi8(
// MONO: %[[ID:.*]] = relay.global_fn @id$f32 : !relay.fn<(tensor<f32>) -> tensor<f32>>
// MONO: call @map$f32$f32(%[[ID]],
// MONO: call @length$f32(
// MONO: call @evens$2xi8(
// MONO: call @length$2xi8(
// MONO: call @nest$2xi8(
// MONO-NOT: relay.call
// MONO-NOT: func.func

relay.adt @List ["T"] {
  relay.constructor @Nil []
  relay.constructor @Cons [!relay.tvar<"T">, !relay.adt<@List, !relay.tvar<"T">>]
}

// A generic identity (fully annotated); its parameter is rigid inside it.
// CHECK-LABEL: func.func @id(%{{.*}}: !relay.tvar<"A">) -> !relay.tvar<"A"> attributes {relay.type_params = ["A"]}
func.func @id(%x: !relay.tvar<"A">) -> !relay.tvar<"A"> attributes {relay.type_params = ["A"]} {
  return %x : !relay.tvar<"A">
}

// A generic length whose result type is left to inference: solved from its
// own body, where the recursive use shares the signature.
// CHECK-LABEL: func.func @length(%{{.*}}: !relay.adt<@List, !relay.tvar<"T">>) -> tensor<i32>
func.func @length(%l: !relay.adt<@List, !relay.tvar<"T">>) -> !relay.incomplete attributes {relay.type_params = ["T"]} {
  %r = relay.match %l : !relay.adt<@List, !relay.tvar<"T">> -> !relay.incomplete {
    // CHECK: (%{{.*}}: !relay.adt<@List, !relay.tvar<"T">>)
    case #relay.pat_ctor<@List::@Cons, [#relay.pat_wildcard, #relay.pat_var]> (%t: !relay.incomplete) {
      // CHECK: relay.global_fn @length : !relay.fn<(!relay.adt<@List, !relay.tvar<"T">>) -> tensor<i32>>
      %len = relay.global_fn @length : !relay.incomplete
      %n = relay.call %len(%t) : (!relay.incomplete, !relay.incomplete) -> !relay.incomplete
      %one = relay.constant dense<1> : tensor<i32>
      %s = relay.add %n, %one : (!relay.incomplete, tensor<i32>) -> !relay.incomplete
      relay.yield %s : !relay.incomplete
    }
    case #relay.pat_wildcard {
      %z = relay.constant dense<0> : tensor<i32>
      relay.yield %z : tensor<i32>
    }
  }
  return %r : !relay.incomplete
}

// map[A, B]: two parameters; the closure call and the recursive call are
// typed with the rigid A and B.
// CHECK-LABEL: func.func @map
func.func @map(%f: !relay.fn<(!relay.tvar<"A">) -> !relay.tvar<"B">>, %l: !relay.adt<@List, !relay.tvar<"A">>) -> !relay.adt<@List, !relay.tvar<"B">> attributes {relay.type_params = ["A", "B"]} {
  %r = relay.match %l : !relay.adt<@List, !relay.tvar<"A">> -> !relay.adt<@List, !relay.tvar<"B">> {
    // CHECK: (%{{.*}}: !relay.tvar<"A">, %{{.*}}: !relay.adt<@List, !relay.tvar<"A">>)
    case #relay.pat_ctor<@List::@Cons, [#relay.pat_var, #relay.pat_var]> (%h: !relay.incomplete, %t: !relay.incomplete) {
      // CHECK: relay.call %{{.*}}(%{{.*}}) : (!relay.fn<(!relay.tvar<"A">) -> !relay.tvar<"B">>, !relay.tvar<"A">) -> !relay.tvar<"B">
      %y = relay.call %f(%h) : (!relay.fn<(!relay.tvar<"A">) -> !relay.tvar<"B">>, !relay.incomplete) -> !relay.incomplete
      // CHECK: relay.global_fn @map : !relay.fn<(!relay.fn<(!relay.tvar<"A">) -> !relay.tvar<"B">>, !relay.adt<@List, !relay.tvar<"A">>) -> !relay.adt<@List, !relay.tvar<"B">>>
      %m = relay.global_fn @map : !relay.incomplete
      %ys = relay.call %m(%f, %t) : (!relay.incomplete, !relay.fn<(!relay.tvar<"A">) -> !relay.tvar<"B">>, !relay.incomplete) -> !relay.incomplete
      %c = relay.construct @List::@Cons(%y, %ys) : (!relay.incomplete, !relay.incomplete) -> !relay.incomplete
      relay.yield %c : !relay.incomplete
    }
    case #relay.pat_ctor<@List::@Nil, []> {
      // CHECK: relay.construct @List::@Nil() : () -> !relay.adt<@List, !relay.tvar<"B">>
      %n = relay.construct @List::@Nil() : () -> !relay.incomplete
      relay.yield %n : !relay.incomplete
    }
  }
  return %r : !relay.adt<@List, !relay.tvar<"B">>
}

// Mutual recursion between generics: @evens[T] uses @odds[U] at U := T and
// @odds uses @evens at T := U.
// CHECK-LABEL: func.func @evens
func.func @evens(%l: !relay.adt<@List, !relay.tvar<"T">>) -> !relay.adt<@List, !relay.tvar<"T">> attributes {relay.type_params = ["T"]} {
  %r = relay.match %l : !relay.adt<@List, !relay.tvar<"T">> -> !relay.adt<@List, !relay.tvar<"T">> {
    case #relay.pat_ctor<@List::@Cons, [#relay.pat_var, #relay.pat_var]> (%h: !relay.incomplete, %t: !relay.incomplete) {
      // CHECK: relay.global_fn @odds : !relay.fn<(!relay.adt<@List, !relay.tvar<"T">>) -> !relay.adt<@List, !relay.tvar<"T">>>
      %o = relay.global_fn @odds : !relay.incomplete
      %rest = relay.call %o(%t) : (!relay.incomplete, !relay.incomplete) -> !relay.incomplete
      %c = relay.construct @List::@Cons(%h, %rest) : (!relay.incomplete, !relay.incomplete) -> !relay.incomplete
      relay.yield %c : !relay.incomplete
    }
    case #relay.pat_wildcard {
      relay.yield %l : !relay.adt<@List, !relay.tvar<"T">>
    }
  }
  return %r : !relay.adt<@List, !relay.tvar<"T">>
}

// CHECK-LABEL: func.func @odds
func.func @odds(%l: !relay.adt<@List, !relay.tvar<"U">>) -> !relay.adt<@List, !relay.tvar<"U">> attributes {relay.type_params = ["U"]} {
  %r = relay.match %l : !relay.adt<@List, !relay.tvar<"U">> -> !relay.adt<@List, !relay.tvar<"U">> {
    case #relay.pat_ctor<@List::@Cons, [#relay.pat_wildcard, #relay.pat_var]> (%t: !relay.incomplete) {
      %e = relay.global_fn @evens : !relay.incomplete
      %rest = relay.call %e(%t) : (!relay.incomplete, !relay.incomplete) -> !relay.incomplete
      relay.yield %rest : !relay.incomplete
    }
    case #relay.pat_wildcard {
      // CHECK: relay.construct @List::@Nil() : () -> !relay.adt<@List, !relay.tvar<"U">>
      %n = relay.construct @List::@Nil() : () -> !relay.incomplete
      relay.yield %n : !relay.incomplete
    }
  }
  // CHECK: call @same(%{{.*}}) : (!relay.adt<@List, !relay.tvar<"U">>) -> !relay.adt<@List, !relay.tvar<"U">>
  %s = func.call @same(%r) : (!relay.adt<@List, !relay.tvar<"U">>) -> !relay.adt<@List, !relay.tvar<"U">>
  return %s : !relay.adt<@List, !relay.tvar<"U">>
}

// A generic used at a parameter of its caller by a direct call: the types
// of the func.call are the callee's signature, read in the caller's scope.
func.func @same(%l: !relay.adt<@List, !relay.tvar<"U">>) -> !relay.adt<@List, !relay.tvar<"U">> attributes {relay.type_params = ["U"]} {
  return %l : !relay.adt<@List, !relay.tvar<"U">>
}

// A generic using another at a nested type: singleton[A] at A := List[A'].
// CHECK-LABEL: func.func @nest(%{{.*}}: !relay.tvar<"E">) -> !relay.adt<@List, !relay.adt<@List, !relay.tvar<"E">>>
func.func @nest(%x: !relay.tvar<"E">) -> !relay.incomplete attributes {relay.type_params = ["E"]} {
  %s = relay.global_fn @singleton : !relay.incomplete
  %inner = relay.call %s(%x) : (!relay.incomplete, !relay.tvar<"E">) -> !relay.incomplete
  // CHECK: relay.global_fn @singleton : !relay.fn<(!relay.adt<@List, !relay.tvar<"E">>) -> !relay.adt<@List, !relay.adt<@List, !relay.tvar<"E">>>>
  %s2 = relay.global_fn @singleton : !relay.incomplete
  %outer = relay.call %s2(%inner) : (!relay.incomplete, !relay.incomplete) -> !relay.incomplete
  return %outer : !relay.incomplete
}

func.func @singleton(%x: !relay.tvar<"A">) -> !relay.adt<@List, !relay.tvar<"A">> attributes {relay.type_params = ["A"]} {
  %n = relay.construct @List::@Nil() : () -> !relay.incomplete
  %c = relay.construct @List::@Cons(%x, %n) : (!relay.tvar<"A">, !relay.incomplete) -> !relay.adt<@List, !relay.tvar<"A">>
  return %c : !relay.adt<@List, !relay.tvar<"A">>
}

// The uses: @id at two types, @id passed to @map as a value, @length (its
// result known only from its body) at two element types, @nest.
// CHECK-LABEL: func.func @main(%{{.*}}: tensor<f32>, %{{.*}}: tensor<2xi8>) -> tuple<tensor<f32>, tensor<2xi8>, tensor<i32>, tensor<i32>, !relay.adt<@List, !relay.adt<@List, tensor<2xi8>>>>
func.func @main(%x: tensor<f32>, %y: tensor<2xi8>) -> !relay.incomplete {
  // CHECK: relay.global_fn @id : !relay.fn<(tensor<f32>) -> tensor<f32>>
  %id1 = relay.global_fn @id : !relay.incomplete
  %a = relay.call %id1(%x) : (!relay.incomplete, tensor<f32>) -> !relay.incomplete
  // CHECK: relay.global_fn @id : !relay.fn<(tensor<2xi8>) -> tensor<2xi8>>
  %id2 = relay.global_fn @id : !relay.incomplete
  %b = relay.call %id2(%y) : (!relay.incomplete, tensor<2xi8>) -> !relay.incomplete
  %nil = relay.construct @List::@Nil() : () -> !relay.incomplete
  %l = relay.construct @List::@Cons(%x, %nil) : (tensor<f32>, !relay.incomplete) -> !relay.incomplete
  // CHECK: relay.global_fn @id : !relay.fn<(tensor<f32>) -> tensor<f32>>
  %idv = relay.global_fn @id : !relay.incomplete
  // CHECK: relay.global_fn @map : !relay.fn<(!relay.fn<(tensor<f32>) -> tensor<f32>>, !relay.adt<@List, tensor<f32>>) -> !relay.adt<@List, tensor<f32>>>
  %map = relay.global_fn @map : !relay.incomplete
  %l2 = relay.call %map(%idv, %l) : (!relay.incomplete, !relay.incomplete, !relay.incomplete) -> !relay.incomplete
  // CHECK: relay.global_fn @length : !relay.fn<(!relay.adt<@List, tensor<f32>>) -> tensor<i32>>
  %len1 = relay.global_fn @length : !relay.incomplete
  %n1 = relay.call %len1(%l2) : (!relay.incomplete, !relay.incomplete) -> !relay.incomplete
  %nil8 = relay.construct @List::@Nil() : () -> !relay.incomplete
  %l8 = relay.construct @List::@Cons(%y, %nil8) : (tensor<2xi8>, !relay.incomplete) -> !relay.incomplete
  // CHECK: relay.global_fn @evens : !relay.fn<(!relay.adt<@List, tensor<2xi8>>) -> !relay.adt<@List, tensor<2xi8>>>
  %ev = relay.global_fn @evens : !relay.incomplete
  %l8e = relay.call %ev(%l8) : (!relay.incomplete, !relay.incomplete) -> !relay.incomplete
  // CHECK: relay.global_fn @length : !relay.fn<(!relay.adt<@List, tensor<2xi8>>) -> tensor<i32>>
  %len2 = relay.global_fn @length : !relay.incomplete
  %n2 = relay.call %len2(%l8e) : (!relay.incomplete, !relay.incomplete) -> !relay.incomplete
  // CHECK: relay.global_fn @nest : !relay.fn<(tensor<2xi8>) -> !relay.adt<@List, !relay.adt<@List, tensor<2xi8>>>>
  %nest = relay.global_fn @nest : !relay.incomplete
  %ll = relay.call %nest(%y) : (!relay.incomplete, tensor<2xi8>) -> !relay.incomplete
  %t = relay.tuple %a, %b, %n1, %n2, %ll : (!relay.incomplete, !relay.incomplete, !relay.incomplete, !relay.incomplete, !relay.incomplete) -> !relay.incomplete
  return %t : !relay.incomplete
}
