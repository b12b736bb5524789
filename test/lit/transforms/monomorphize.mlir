// RUN: relay-mlir-opt %s -relay-monomorphize -split-input-file | FileCheck %s
// RUN: relay-mlir-opt %s -relay-infer-type -relay-monomorphize -split-input-file | FileCheck %s

// A generic identity used at two types: two clones, named after their type
// arguments; the generic is gone and the calls are direct.
// CHECK-NOT: relay.type_params
// CHECK-LABEL: func.func private @id$f32(%{{.*}}: tensor<f32>) -> tensor<f32>
// CHECK-SAME: attributes {relay.instance_of = "id"}
// CHECK-NEXT: return %{{.*}} : tensor<f32>
// CHECK-LABEL: func.func private @id$2x3xi8(%{{.*}}: tensor<2x3xi8>) -> tensor<2x3xi8>
// CHECK-LABEL: func.func @main
// CHECK-NOT: relay.global_fn
// CHECK-NOT: relay.call
// CHECK: %[[A:.*]] = call @id$f32(%{{.*}}) : (tensor<f32>) -> tensor<f32>
// CHECK: %[[B:.*]] = call @id$2x3xi8(%{{.*}}) : (tensor<2x3xi8>) -> tensor<2x3xi8>
// CHECK: %[[C:.*]] = call @id$f32(%[[A]]) : (tensor<f32>) -> tensor<f32>
// CHECK: relay.tuple %[[C]], %[[B]]
func.func @id(%x: !relay.tvar<"A">) -> !relay.tvar<"A"> attributes {relay.type_params = ["A"]} {
  return %x : !relay.tvar<"A">
}
func.func @main(%x: tensor<f32>, %y: tensor<2x3xi8>) -> tuple<tensor<f32>, tensor<2x3xi8>> {
  %f = relay.global_fn @id : !relay.fn<(tensor<f32>) -> tensor<f32>>
  %a = relay.call %f(%x) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>
  %g = relay.global_fn @id : !relay.fn<(tensor<2x3xi8>) -> tensor<2x3xi8>>
  %b = relay.call %g(%y) : (!relay.fn<(tensor<2x3xi8>) -> tensor<2x3xi8>>, tensor<2x3xi8>) -> tensor<2x3xi8>
  %c = relay.call %f(%a) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>
  %t = relay.tuple %c, %b : (tensor<f32>, tensor<2x3xi8>) -> tuple<tensor<f32>, tensor<2x3xi8>>
  return %t : tuple<tensor<f32>, tensor<2x3xi8>>
}

// -----

// A generic recursive length over List[T] used at two element types: each
// clone calls itself (the recursive use maps to the same instance).
relay.adt @List ["T"] {
  relay.constructor @Nil []
  relay.constructor @Cons [!relay.tvar<"T">, !relay.adt<@List, !relay.tvar<"T">>]
}
// CHECK-NOT: relay.type_params
// CHECK-LABEL: func.func private @length$f32(%{{.*}}: !relay.adt<@List, tensor<f32>>) -> tensor<i32>
// CHECK: relay.match %{{.*}} : !relay.adt<@List, tensor<f32>> -> tensor<i32>
// CHECK: (%{{.*}}: !relay.adt<@List, tensor<f32>>)
// CHECK: call @length$f32(%{{.*}}) : (!relay.adt<@List, tensor<f32>>) -> tensor<i32>
// CHECK-LABEL: func.func private @length$Dxi64(%{{.*}}: !relay.adt<@List, tensor<?xi64>>) -> tensor<i32>
// CHECK: call @length$Dxi64(%{{.*}}) : (!relay.adt<@List, tensor<?xi64>>) -> tensor<i32>
func.func @length(%l: !relay.adt<@List, !relay.tvar<"T">>) -> tensor<i32> attributes {relay.type_params = ["T"]} {
  %r = relay.match %l : !relay.adt<@List, !relay.tvar<"T">> -> tensor<i32> {
    case #relay.pat_ctor<@List::@Cons, [#relay.pat_wildcard, #relay.pat_var]> (%t: !relay.adt<@List, !relay.tvar<"T">>) {
      %len = relay.global_fn @length : !relay.fn<(!relay.adt<@List, !relay.tvar<"T">>) -> tensor<i32>>
      %n = relay.call %len(%t) : (!relay.fn<(!relay.adt<@List, !relay.tvar<"T">>) -> tensor<i32>>, !relay.adt<@List, !relay.tvar<"T">>) -> tensor<i32>
      %one = relay.constant dense<1> : tensor<i32>
      %s = relay.add %n, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
      relay.yield %s : tensor<i32>
    }
    case #relay.pat_wildcard {
      %z = relay.constant dense<0> : tensor<i32>
      relay.yield %z : tensor<i32>
    }
  }
  return %r : tensor<i32>
}
// CHECK-LABEL: func.func @lengths
// CHECK: call @length$f32(%{{.*}}) : (!relay.adt<@List, tensor<f32>>) -> tensor<i32>
// CHECK: call @length$Dxi64(%{{.*}}) : (!relay.adt<@List, tensor<?xi64>>) -> tensor<i32>
func.func @lengths(%a: !relay.adt<@List, tensor<f32>>, %b: !relay.adt<@List, tensor<?xi64>>) -> tuple<tensor<i32>, tensor<i32>> {
  %f = relay.global_fn @length : !relay.fn<(!relay.adt<@List, tensor<f32>>) -> tensor<i32>>
  %n = relay.call %f(%a) : (!relay.fn<(!relay.adt<@List, tensor<f32>>) -> tensor<i32>>, !relay.adt<@List, tensor<f32>>) -> tensor<i32>
  %g = relay.global_fn @length : !relay.fn<(!relay.adt<@List, tensor<?xi64>>) -> tensor<i32>>
  %m = relay.call %g(%b) : (!relay.fn<(!relay.adt<@List, tensor<?xi64>>) -> tensor<i32>>, !relay.adt<@List, tensor<?xi64>>) -> tensor<i32>
  %t = relay.tuple %n, %m : (tensor<i32>, tensor<i32>) -> tuple<tensor<i32>, tensor<i32>>
  return %t : tuple<tensor<i32>, tensor<i32>>
}

// -----

// Mutual recursion of generics with different parameter names (@evens[T]
// uses @odds at U := T, @odds uses @evens at T := U), and a direct
// func.call of a generic at its own signature: one clone each.
relay.adt @List ["T"] {
  relay.constructor @Nil []
  relay.constructor @Cons [!relay.tvar<"T">, !relay.adt<@List, !relay.tvar<"T">>]
}
// CHECK-LABEL: func.func private @evens$List.f32(%{{.*}}: !relay.adt<@List, !relay.adt<@List, tensor<f32>>>)
// CHECK: call @odds$List.f32(
// CHECK-LABEL: func.func private @odds$List.f32(
// CHECK: call @evens$List.f32(
// CHECK: call @same$List.f32(
// CHECK-LABEL: func.func private @same$List.f32(
// CHECK-LABEL: func.func @main
// CHECK: call @evens$List.f32(
// CHECK-NOT: func.func
func.func @evens(%l: !relay.adt<@List, !relay.tvar<"T">>) -> !relay.adt<@List, !relay.tvar<"T">> attributes {relay.type_params = ["T"]} {
  %r = relay.match %l : !relay.adt<@List, !relay.tvar<"T">> -> !relay.adt<@List, !relay.tvar<"T">> {
    case #relay.pat_ctor<@List::@Cons, [#relay.pat_var, #relay.pat_var]> (%h: !relay.tvar<"T">, %t: !relay.adt<@List, !relay.tvar<"T">>) {
      %o = relay.global_fn @odds : !relay.fn<(!relay.adt<@List, !relay.tvar<"T">>) -> !relay.adt<@List, !relay.tvar<"T">>>
      %rest = relay.call %o(%t) : (!relay.fn<(!relay.adt<@List, !relay.tvar<"T">>) -> !relay.adt<@List, !relay.tvar<"T">>>, !relay.adt<@List, !relay.tvar<"T">>) -> !relay.adt<@List, !relay.tvar<"T">>
      %c = relay.construct @List::@Cons(%h, %rest) : (!relay.tvar<"T">, !relay.adt<@List, !relay.tvar<"T">>) -> !relay.adt<@List, !relay.tvar<"T">>
      relay.yield %c : !relay.adt<@List, !relay.tvar<"T">>
    }
    case #relay.pat_wildcard {
      relay.yield %l : !relay.adt<@List, !relay.tvar<"T">>
    }
  }
  return %r : !relay.adt<@List, !relay.tvar<"T">>
}
func.func @odds(%l: !relay.adt<@List, !relay.tvar<"U">>) -> !relay.adt<@List, !relay.tvar<"U">> attributes {relay.type_params = ["U"]} {
  %r = relay.match %l : !relay.adt<@List, !relay.tvar<"U">> -> !relay.adt<@List, !relay.tvar<"U">> {
    case #relay.pat_ctor<@List::@Cons, [#relay.pat_wildcard, #relay.pat_var]> (%t: !relay.adt<@List, !relay.tvar<"U">>) {
      %e = relay.global_fn @evens : !relay.fn<(!relay.adt<@List, !relay.tvar<"U">>) -> !relay.adt<@List, !relay.tvar<"U">>>
      %rest = relay.call %e(%t) : (!relay.fn<(!relay.adt<@List, !relay.tvar<"U">>) -> !relay.adt<@List, !relay.tvar<"U">>>, !relay.adt<@List, !relay.tvar<"U">>) -> !relay.adt<@List, !relay.tvar<"U">>
      relay.yield %rest : !relay.adt<@List, !relay.tvar<"U">>
    }
    case #relay.pat_wildcard {
      %n = relay.construct @List::@Nil() : () -> !relay.adt<@List, !relay.tvar<"U">>
      relay.yield %n : !relay.adt<@List, !relay.tvar<"U">>
    }
  }
  %s = func.call @same(%r) : (!relay.adt<@List, !relay.tvar<"U">>) -> !relay.adt<@List, !relay.tvar<"U">>
  return %s : !relay.adt<@List, !relay.tvar<"U">>
}
func.func @same(%l: !relay.adt<@List, !relay.tvar<"U">>) -> !relay.adt<@List, !relay.tvar<"U">> attributes {relay.type_params = ["U"]} {
  return %l : !relay.adt<@List, !relay.tvar<"U">>
}
// Element type List[f32]: a nested instantiation.
func.func @main(%l: !relay.adt<@List, !relay.adt<@List, tensor<f32>>>) -> !relay.adt<@List, !relay.adt<@List, tensor<f32>>> {
  %e = relay.global_fn @evens : !relay.fn<(!relay.adt<@List, !relay.adt<@List, tensor<f32>>>) -> !relay.adt<@List, !relay.adt<@List, tensor<f32>>>>
  %r = relay.call %e(%l) : (!relay.fn<(!relay.adt<@List, !relay.adt<@List, tensor<f32>>>) -> !relay.adt<@List, !relay.adt<@List, tensor<f32>>>>, !relay.adt<@List, !relay.adt<@List, tensor<f32>>>) -> !relay.adt<@List, !relay.adt<@List, tensor<f32>>>
  return %r : !relay.adt<@List, !relay.adt<@List, tensor<f32>>>
}

// -----

// A generic passed as a value (map(id, xs)): the value is the instance's
// relay.global_fn; map's closure call stays a relay.call; map's clone
// has both type arguments in its name.
relay.adt @List ["T"] {
  relay.constructor @Nil []
  relay.constructor @Cons [!relay.tvar<"T">, !relay.adt<@List, !relay.tvar<"T">>]
}
// CHECK-LABEL: func.func private @id$4xf32(
// CHECK-LABEL: func.func private @map$4xf32$4xf32(
// CHECK-SAME: %[[F:[^:]*]]: !relay.fn<(tensor<4xf32>) -> tensor<4xf32>>, %{{.*}}: !relay.adt<@List, tensor<4xf32>>) -> !relay.adt<@List, tensor<4xf32>>
// CHECK: relay.call %[[F]](%{{.*}}) : (!relay.fn<(tensor<4xf32>) -> tensor<4xf32>>, tensor<4xf32>) -> tensor<4xf32>
// CHECK: call @map$4xf32$4xf32(%[[F]], %{{.*}})
// CHECK-LABEL: func.func @main
// CHECK: %[[ID:.*]] = relay.global_fn @id$4xf32 : !relay.fn<(tensor<4xf32>) -> tensor<4xf32>>
// CHECK: call @map$4xf32$4xf32(%[[ID]], %{{.*}})
func.func @id(%x: !relay.tvar<"A">) -> !relay.tvar<"A"> attributes {relay.type_params = ["A"]} {
  return %x : !relay.tvar<"A">
}
func.func @map(%f: !relay.fn<(!relay.tvar<"A">) -> !relay.tvar<"B">>, %l: !relay.adt<@List, !relay.tvar<"A">>) -> !relay.adt<@List, !relay.tvar<"B">> attributes {relay.type_params = ["A", "B"]} {
  %r = relay.match %l : !relay.adt<@List, !relay.tvar<"A">> -> !relay.adt<@List, !relay.tvar<"B">> {
    case #relay.pat_ctor<@List::@Cons, [#relay.pat_var, #relay.pat_var]> (%h: !relay.tvar<"A">, %t: !relay.adt<@List, !relay.tvar<"A">>) {
      %y = relay.call %f(%h) : (!relay.fn<(!relay.tvar<"A">) -> !relay.tvar<"B">>, !relay.tvar<"A">) -> !relay.tvar<"B">
      %ys = func.call @map(%f, %t) : (!relay.fn<(!relay.tvar<"A">) -> !relay.tvar<"B">>, !relay.adt<@List, !relay.tvar<"A">>) -> !relay.adt<@List, !relay.tvar<"B">>
      %c = relay.construct @List::@Cons(%y, %ys) : (!relay.tvar<"B">, !relay.adt<@List, !relay.tvar<"B">>) -> !relay.adt<@List, !relay.tvar<"B">>
      relay.yield %c : !relay.adt<@List, !relay.tvar<"B">>
    }
    case #relay.pat_ctor<@List::@Nil, []> {
      %n = relay.construct @List::@Nil() : () -> !relay.adt<@List, !relay.tvar<"B">>
      relay.yield %n : !relay.adt<@List, !relay.tvar<"B">>
    }
  }
  return %r : !relay.adt<@List, !relay.tvar<"B">>
}
func.func @main(%l: !relay.adt<@List, tensor<4xf32>>) -> !relay.adt<@List, tensor<4xf32>> {
  %id = relay.global_fn @id : !relay.fn<(tensor<4xf32>) -> tensor<4xf32>>
  %m = relay.global_fn @map : !relay.fn<(!relay.fn<(tensor<4xf32>) -> tensor<4xf32>>, !relay.adt<@List, tensor<4xf32>>) -> !relay.adt<@List, tensor<4xf32>>>
  %r = relay.call %m(%id, %l) : (!relay.fn<(!relay.fn<(tensor<4xf32>) -> tensor<4xf32>>, !relay.adt<@List, tensor<4xf32>>) -> !relay.adt<@List, tensor<4xf32>>>, !relay.fn<(tensor<4xf32>) -> tensor<4xf32>>, !relay.adt<@List, tensor<4xf32>>) -> !relay.adt<@List, tensor<4xf32>>
  return %r : !relay.adt<@List, tensor<4xf32>>
}

// -----

// The direct-call rewrite also applies to non-generic functions, and packs
// several results into a tuple; a relay.call whose types differ from the
// callee's (`?` against a static dim) stays.
// CHECK-LABEL: func.func @caller
// CHECK: %[[R:.*]]:2 = call @pair(%{{.*}}) : (tensor<f32>) -> (tensor<f32>, tensor<i32>)
// CHECK: relay.tuple %[[R]]#0, %[[R]]#1 : (tensor<f32>, tensor<i32>) -> tuple<tensor<f32>, tensor<i32>>
// CHECK: %[[G:.*]] = relay.global_fn @square
// CHECK: relay.call %[[G]](%{{.*}}) : (!relay.fn<(tensor<?xf32>) -> tensor<?xf32>>, tensor<?xf32>) -> tensor<?xf32>
func.func @pair(%x: tensor<f32>) -> (tensor<f32>, tensor<i32>) {
  %i = relay.constant dense<0> : tensor<i32>
  return %x, %i : tensor<f32>, tensor<i32>
}
func.func @square(%x: tensor<3xf32>) -> tensor<3xf32> {
  %y = relay.multiply %x, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}
func.func @caller(%x: tensor<f32>, %v: tensor<?xf32>) -> tuple<tuple<tensor<f32>, tensor<i32>>, tensor<?xf32>> {
  %p = relay.global_fn @pair : !relay.fn<(tensor<f32>) -> tuple<tensor<f32>, tensor<i32>>>
  %r = relay.call %p(%x) : (!relay.fn<(tensor<f32>) -> tuple<tensor<f32>, tensor<i32>>>, tensor<f32>) -> tuple<tensor<f32>, tensor<i32>>
  %s = relay.global_fn @square : !relay.fn<(tensor<?xf32>) -> tensor<?xf32>>
  %q = relay.call %s(%v) : (!relay.fn<(tensor<?xf32>) -> tensor<?xf32>>, tensor<?xf32>) -> tensor<?xf32>
  %t = relay.tuple %r, %q : (tuple<tensor<f32>, tensor<i32>>, tensor<?xf32>) -> tuple<tuple<tensor<f32>, tensor<i32>>, tensor<?xf32>>
  return %t : tuple<tuple<tensor<f32>, tensor<i32>>, tensor<?xf32>>
}

// -----

// Three type parameters and a closure: compose[A, B, C] returns a relay.fn
// capturing its arguments; the clone substitutes inside the closure's
// parameter, result and body types.
// CHECK-LABEL: func.func private @compose$f32$2xi32$tuple2.f32.i1(
// CHECK-SAME: %[[F:[^:]*]]: !relay.fn<(tensor<2xi32>) -> tuple<tensor<f32>, tensor<i1>>>, %[[G:[^:]*]]: !relay.fn<(tensor<f32>) -> tensor<2xi32>>) -> !relay.fn<(tensor<f32>) -> tuple<tensor<f32>, tensor<i1>>>
// CHECK: relay.fn : !relay.fn<(tensor<f32>) -> tuple<tensor<f32>, tensor<i1>>> {
// CHECK-NEXT: ^bb0(%[[X:.*]]: tensor<f32>):
// CHECK-NEXT: %[[Y:.*]] = relay.call %[[G]](%[[X]]) : (!relay.fn<(tensor<f32>) -> tensor<2xi32>>, tensor<f32>) -> tensor<2xi32>
// CHECK-NEXT: relay.call %[[F]](%[[Y]]) : (!relay.fn<(tensor<2xi32>) -> tuple<tensor<f32>, tensor<i1>>>, tensor<2xi32>) -> tuple<tensor<f32>, tensor<i1>>
// CHECK-LABEL: func.func @use_compose
// CHECK: call @compose$f32$2xi32$tuple2.f32.i1(
func.func @compose(%f: !relay.fn<(!relay.tvar<"B">) -> !relay.tvar<"C">>, %g: !relay.fn<(!relay.tvar<"A">) -> !relay.tvar<"B">>) -> !relay.fn<(!relay.tvar<"A">) -> !relay.tvar<"C">> attributes {relay.type_params = ["A", "B", "C"]} {
  %h = relay.fn : !relay.fn<(!relay.tvar<"A">) -> !relay.tvar<"C">> {
  ^bb0(%x: !relay.tvar<"A">):
    %y = relay.call %g(%x) : (!relay.fn<(!relay.tvar<"A">) -> !relay.tvar<"B">>, !relay.tvar<"A">) -> !relay.tvar<"B">
    %z = relay.call %f(%y) : (!relay.fn<(!relay.tvar<"B">) -> !relay.tvar<"C">>, !relay.tvar<"B">) -> !relay.tvar<"C">
    relay.yield %z : !relay.tvar<"C">
  }
  return %h : !relay.fn<(!relay.tvar<"A">) -> !relay.tvar<"C">>
}
func.func @use_compose(%f: !relay.fn<(tensor<2xi32>) -> tuple<tensor<f32>, tensor<i1>>>, %g: !relay.fn<(tensor<f32>) -> tensor<2xi32>>) -> !relay.fn<(tensor<f32>) -> tuple<tensor<f32>, tensor<i1>>> {
  %c = relay.global_fn @compose : !relay.fn<(!relay.fn<(tensor<2xi32>) -> tuple<tensor<f32>, tensor<i1>>>, !relay.fn<(tensor<f32>) -> tensor<2xi32>>) -> !relay.fn<(tensor<f32>) -> tuple<tensor<f32>, tensor<i1>>>>
  %h = relay.call %c(%f, %g) : (!relay.fn<(!relay.fn<(tensor<2xi32>) -> tuple<tensor<f32>, tensor<i1>>>, !relay.fn<(tensor<f32>) -> tensor<2xi32>>) -> !relay.fn<(tensor<f32>) -> tuple<tensor<f32>, tensor<i1>>>>, !relay.fn<(tensor<2xi32>) -> tuple<tensor<f32>, tensor<i1>>>, !relay.fn<(tensor<f32>) -> tensor<2xi32>>) -> !relay.fn<(tensor<f32>) -> tuple<tensor<f32>, tensor<i1>>>
  return %h : !relay.fn<(tensor<f32>) -> tuple<tensor<f32>, tensor<i1>>>
}

// -----

// A mangled name already taken gets a `$N` suffix; an instance type with `?`
// where the signature repeats the parameter takes the static dims (one
// instance, A = tensor<3xf32>), and its relay.call, whose types differ
// from the clone's, stays a relay.call.
// CHECK-LABEL: func.func private @id$3xf32$1(%{{.*}}: tensor<3xf32>) -> tensor<3xf32>
// CHECK-LABEL: func.func @id$3xf32(
// CHECK-LABEL: func.func @main
// CHECK: %[[F:.*]] = relay.global_fn @id$3xf32$1 : !relay.fn<(tensor<?xf32>) -> tensor<3xf32>>
// CHECK: relay.call %[[F]]
func.func @id(%x: !relay.tvar<"A">) -> !relay.tvar<"A"> attributes {relay.type_params = ["A"]} {
  return %x : !relay.tvar<"A">
}
func.func @id$3xf32(%x: tensor<f32>) -> tensor<f32> {
  return %x : tensor<f32>
}
func.func @main(%x: tensor<?xf32>) -> tensor<3xf32> {
  %f = relay.global_fn @id : !relay.fn<(tensor<?xf32>) -> tensor<3xf32>>
  %y = relay.call %f(%x) : (!relay.fn<(tensor<?xf32>) -> tensor<3xf32>>, tensor<?xf32>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}
