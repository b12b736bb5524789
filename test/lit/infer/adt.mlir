// RUN: relay-mlir-opt %s -relay-infer-type | FileCheck %s

relay.adt @List ["T"] {
  relay.constructor @Nil []
  relay.constructor @Cons [!relay.tvar<"T">, !relay.adt<@List, !relay.tvar<"T">>]
}

// A recursive length with match; the scrutinee type fixes the pattern
// variables.
// CHECK-LABEL: func.func @length(%{{.*}}: !relay.adt<@List, tensor<f32>>) -> tensor<i32>
func.func @length(%l: !relay.adt<@List, tensor<f32>>) -> !relay.incomplete {
  // CHECK: relay.match %{{.*}} : !relay.adt<@List, tensor<f32>> -> tensor<i32>
  %r = relay.match %l : !relay.adt<@List, tensor<f32>> -> !relay.incomplete {
    case #relay.pat_ctor<@List::@Cons, [#relay.pat_wildcard, #relay.pat_var]> (%t: !relay.adt<@List, tensor<f32>>) {
      %n = func.call @length(%t) : (!relay.adt<@List, tensor<f32>>) -> !relay.incomplete
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

// map: every type (the function, the list, pattern variables, Nil's type
// argument) comes from the caller and the constructors.
// CHECK-LABEL: func.func @map(%{{.*}}: !relay.fn<(tensor<f32>) -> tensor<2xf32>>, %{{.*}}: !relay.adt<@List, tensor<f32>>) -> !relay.adt<@List, tensor<2xf32>>
func.func @map(%f: !relay.incomplete, %l: !relay.incomplete) -> !relay.incomplete {
  %r = relay.match %l : !relay.incomplete -> !relay.incomplete {
    // CHECK: case #relay.pat_ctor<@List::@Cons, [#relay.pat_var, #relay.pat_var]> (%{{.*}}: tensor<f32>, %{{.*}}: !relay.adt<@List, tensor<f32>>)
    case #relay.pat_ctor<@List::@Cons, [#relay.pat_var, #relay.pat_var]> (%h: !relay.incomplete, %t: !relay.incomplete) {
      %y = relay.call %f(%h) : (!relay.incomplete, !relay.incomplete) -> !relay.incomplete
      %ys = func.call @map(%f, %t) : (!relay.incomplete, !relay.incomplete) -> !relay.incomplete
      // CHECK: relay.construct @List::@Cons(%{{.*}}, %{{.*}}) : (tensor<2xf32>, !relay.adt<@List, tensor<2xf32>>) -> !relay.adt<@List, tensor<2xf32>>
      %c = relay.construct @List::@Cons(%y, %ys) : (!relay.incomplete, !relay.incomplete) -> !relay.incomplete
      relay.yield %c : !relay.incomplete
    }
    case #relay.pat_ctor<@List::@Nil, []> {
      // CHECK: relay.construct @List::@Nil() : () -> !relay.adt<@List, tensor<2xf32>>
      %n = relay.construct @List::@Nil() : () -> !relay.incomplete
      relay.yield %n : !relay.incomplete
    }
  }
  return %r : !relay.incomplete
}

// CHECK-LABEL: func.func @main(%{{.*}}: tensor<f32>) -> tensor<2xf32>
func.func @main(%x: tensor<f32>) -> !relay.incomplete {
  // Nil gets its type argument from its use in Cons.
  // CHECK: relay.construct @List::@Nil() : () -> !relay.adt<@List, tensor<f32>>
  %nil = relay.construct @List::@Nil() : () -> !relay.incomplete
  %l = relay.construct @List::@Cons(%x, %nil) : (tensor<f32>, !relay.incomplete) -> !relay.incomplete
  %two = relay.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %f = relay.fn : !relay.incomplete {
  ^bb0(%p: !relay.incomplete):
    %q = relay.add %p, %two : (!relay.incomplete, tensor<2xf32>) -> !relay.incomplete
    relay.yield %q : !relay.incomplete
  }
  %m = func.call @map(%f, %l) : (!relay.incomplete, !relay.incomplete) -> !relay.incomplete
  // A nested pattern: the second element of the list.
  // CHECK: relay.match %{{.*}} : !relay.adt<@List, tensor<2xf32>> -> tensor<2xf32>
  // CHECK: (%{{.*}}: tensor<2xf32>)
  %second = relay.match %m : !relay.incomplete -> !relay.incomplete {
    case #relay.pat_ctor<@List::@Cons, [#relay.pat_wildcard, #relay.pat_ctor<@List::@Cons, [#relay.pat_var, #relay.pat_wildcard]>]> (%h: !relay.incomplete) {
      relay.yield %h : !relay.incomplete
    }
    case #relay.pat_wildcard {
      relay.yield %two : tensor<2xf32>
    }
  }
  return %second : !relay.incomplete
}

// A tuple pattern.
// CHECK-LABEL: func.func @swap(%{{.*}}: tuple<tensor<f32>, tensor<2xi8>>) -> tuple<tensor<2xi8>, tensor<f32>>
func.func @swap(%p: tuple<tensor<f32>, tensor<2xi8>>) -> !relay.incomplete {
  %r = relay.match %p : tuple<tensor<f32>, tensor<2xi8>> -> !relay.incomplete {
    case #relay.pat_tuple<[#relay.pat_var, #relay.pat_var]> (%a: !relay.incomplete, %b: !relay.incomplete) {
      %t = relay.tuple %b, %a : (!relay.incomplete, !relay.incomplete) -> !relay.incomplete
      relay.yield %t : !relay.incomplete
    }
  }
  return %r : !relay.incomplete
}
