// RUN: relay-mlir-opt %s -relay-monomorphize -split-input-file -verify-diagnostics
// RUN: not relay-mlir-opt %s -relay-monomorphize=max-instances=10 -split-input-file 2>&1 | FileCheck %s --check-prefix=BOUND

// A type argument still unknown (inference did not run).
func.func @id(%x: !relay.tvar<"A">) -> !relay.tvar<"A"> attributes {relay.type_params = ["A"]} {
  return %x : !relay.tvar<"A">
}
func.func @main(%x: !relay.incomplete) -> !relay.incomplete {
  // expected-error @+1 {{cannot monomorphize this use of generic @id: type argument "A" is '!relay.incomplete', not a known type (run relay-infer-type first)}}
  %f = relay.global_fn @id : !relay.fn<(!relay.incomplete) -> !relay.incomplete>
  %y = relay.call %f(%x) : (!relay.fn<(!relay.incomplete) -> !relay.incomplete>, !relay.incomplete) -> !relay.incomplete
  return %y : !relay.incomplete
}

// -----

// A type parameter the signature does not mention: no use determines it.
func.func @phantom(%x: tensor<f32>) -> tensor<f32> attributes {relay.type_params = ["A"]} {
  return %x : tensor<f32>
}
func.func @main(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{cannot monomorphize this use of generic @phantom: type parameter "A" does not occur in its type}}
  %f = relay.global_fn @phantom : !relay.fn<(tensor<f32>) -> tensor<f32>>
  %y = relay.call %f(%x) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>
  return %y : tensor<f32>
}

// -----

// Polymorphic recursion: @grow[A] uses itself at List[A], List[List[A]],
// ...; refused after max-instances (default 1000), never looping.
relay.adt @List ["T"] {
  relay.constructor @Nil []
  relay.constructor @Cons [!relay.tvar<"T">, !relay.adt<@List, !relay.tvar<"T">>]
}
func.func @grow(%c: tensor<i1>, %x: !relay.tvar<"A">) -> tensor<i32> attributes {relay.type_params = ["A"]} {
  %r = relay.if %c : tensor<i1> -> tensor<i32> {
    %n = relay.construct @List::@Nil() : () -> !relay.adt<@List, !relay.tvar<"A">>
    %l = relay.construct @List::@Cons(%x, %n) : (!relay.tvar<"A">, !relay.adt<@List, !relay.tvar<"A">>) -> !relay.adt<@List, !relay.tvar<"A">>
    %g = relay.global_fn @grow : !relay.fn<(tensor<i1>, !relay.adt<@List, !relay.tvar<"A">>) -> tensor<i32>>
    // expected-error @-1 {{more than 1000 instances of generic functions (this use needs @grow at}}
    // BOUND: more than 10 instances of generic functions (this use needs @grow at [!relay.adt<@List, !relay.adt<@List, !relay.adt<@List, !relay.adt<@List, !relay.adt<@List, !relay.adt<@List, !relay.adt<@List, !relay.adt<@List, !relay.adt<@List, !relay.adt<@List, tensor<f32>>>>>>>>>>>]): the program is polymorphically recursive
    %y = relay.call %g(%c, %l) : (!relay.fn<(tensor<i1>, !relay.adt<@List, !relay.tvar<"A">>) -> tensor<i32>>, tensor<i1>, !relay.adt<@List, !relay.tvar<"A">>) -> tensor<i32>
    relay.yield %y : tensor<i32>
  } else {
    %z = relay.constant dense<0> : tensor<i32>
    relay.yield %z : tensor<i32>
  }
  return %r : tensor<i32>
}
func.func @main(%c: tensor<i1>, %x: tensor<f32>) -> tensor<i32> {
  %f = relay.global_fn @grow : !relay.fn<(tensor<i1>, tensor<f32>) -> tensor<i32>>
  %y = relay.call %f(%c, %x) : (!relay.fn<(tensor<i1>, tensor<f32>) -> tensor<i32>>, tensor<i1>, tensor<f32>) -> tensor<i32>
  return %y : tensor<i32>
}
