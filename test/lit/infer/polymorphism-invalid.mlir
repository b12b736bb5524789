// RUN: relay-mlir-opt %s -relay-infer-type -split-input-file -verify-diagnostics

// A rigid type parameter is not a tensor: relu cannot take it.
func.func @relu_of_param(%x: !relay.tvar<"A">) -> !relay.incomplete attributes {relay.type_params = ["A"]} {
  %f = relay.fn : !relay.incomplete {
  ^bb0(%p: !relay.incomplete):
    // expected-error @+1 {{'relay.nn.relu' op operand 'data' must be a ranked tensor, got '!relay.tvar<"A">'}}
    %q = relay.nn.relu %p : (!relay.incomplete) -> !relay.incomplete
    relay.yield %q : !relay.incomplete
  }
  %y = relay.call %f(%x) : (!relay.incomplete, !relay.tvar<"A">) -> !relay.incomplete
  return %y : !relay.incomplete
}

// -----

// A rigid type parameter equals only itself, never a tensor.
func.func @param_is_rigid(%c: tensor<i1>, %x: !relay.tvar<"A">) -> !relay.incomplete attributes {relay.type_params = ["A"]} {
  // expected-error @+1 {{else branch: type mismatch: cannot unify 'tensor<f32>' with '!relay.tvar<"A">'}}
  %r = relay.if %c : tensor<i1> -> !relay.incomplete {
    relay.yield %x : !relay.tvar<"A">
  } else {
    %k = relay.constant dense<1.0> : tensor<f32>
    relay.yield %k : tensor<f32>
  }
  return %r : !relay.incomplete
}

// -----

// Two parameters are two different types.
func.func @two_params(%c: tensor<i1>, %x: !relay.tvar<"A">, %y: !relay.tvar<"B">) -> !relay.incomplete attributes {relay.type_params = ["A", "B"]} {
  // expected-error @+1 {{else branch: type mismatch: cannot unify '!relay.tvar<"B">' with '!relay.tvar<"A">'}}
  %r = relay.if %c : tensor<i1> -> !relay.incomplete {
    relay.yield %x : !relay.tvar<"A">
  } else {
    relay.yield %y : !relay.tvar<"B">
  }
  return %r : !relay.incomplete
}

// -----

func.func @id(%x: !relay.tvar<"A">) -> !relay.tvar<"A"> attributes {relay.type_params = ["A"]} {
  return %x : !relay.tvar<"A">
}
func.func @wrong_instance(%x: tensor<f32>) -> tensor<i32> {
  // expected-error @+1 {{type of @id: type mismatch: cannot unify '!relay.fn<(tensor<f32>) -> tensor<i32>>' with '!relay.fn<(tensor<f32>) -> tensor<f32>>' ('tensor<f32>' vs 'tensor<i32>')}}
  %f = relay.global_fn @id : !relay.fn<(tensor<f32>) -> tensor<i32>>
  %y = relay.call %f(%x) : (!relay.fn<(tensor<f32>) -> tensor<i32>>, tensor<f32>) -> tensor<i32>
  return %y : tensor<i32>
}

// -----

relay.adt @List ["T"] {
  relay.constructor @Nil []
  relay.constructor @Cons [!relay.tvar<"T">, !relay.adt<@List, !relay.tvar<"T">>]
}
func.func @map(%f: !relay.fn<(!relay.tvar<"A">) -> !relay.tvar<"B">>, %l: !relay.adt<@List, !relay.tvar<"A">>) -> !relay.adt<@List, !relay.tvar<"B">> attributes {relay.type_params = ["A", "B"]} {
  %n = relay.construct @List::@Nil() : () -> !relay.adt<@List, !relay.tvar<"B">>
  return %n : !relay.adt<@List, !relay.tvar<"B">>
}
// A is f32 in the function and i8 in the list.
func.func @inconsistent_instance() -> () {
  // expected-error @+1 {{type of @map: type mismatch: cannot unify '!relay.fn<(!relay.fn<(tensor<f32>) -> tensor<i32>>, !relay.adt<@List, tensor<i8>>) -> !relay.adt<@List, tensor<i32>>>' with '!relay.fn<(!relay.fn<(tensor<f32>) -> tensor<i32>>, !relay.adt<@List, tensor<f32>>) -> !relay.adt<@List, tensor<i32>>>' ('tensor<f32>' vs 'tensor<i8>')}}
  %m = relay.global_fn @map : !relay.fn<(!relay.fn<(tensor<f32>) -> tensor<i32>>, !relay.adt<@List, tensor<i8>>) -> !relay.adt<@List, tensor<i32>>>
  return
}

// -----

// Inference finds the wrong instance: @id returns what it takes (the call
// asks for an instance fn(f32) -> i32).
func.func @id(%x: !relay.tvar<"A">) -> !relay.tvar<"A"> attributes {relay.type_params = ["A"]} {
  return %x : !relay.tvar<"A">
}
func.func @inferred_wrong_instance(%x: tensor<f32>) -> tensor<i32> {
  %f = relay.global_fn @id : !relay.incomplete
  // expected-error @+1 {{callee: type mismatch: cannot unify '!relay.fn<(tensor<f32>) -> tensor<f32>>' with '!relay.fn<(tensor<f32>) -> tensor<i32>>'}}
  %y = relay.call %f(%x) : (!relay.incomplete, tensor<f32>) -> tensor<i32>
  return %y : tensor<i32>
}

// -----

// expected-error @+1 {{signature mentions '!relay.tvar<"B">', which is not one of its type parameters ["A"]}}
func.func @unknown_in_signature(%x: !relay.tvar<"B">) -> !relay.tvar<"B"> attributes {relay.type_params = ["A"]} {
  return %x : !relay.tvar<"B">
}

// -----

func.func @unknown_in_body(%x: !relay.tvar<"A">) -> !relay.tvar<"A"> attributes {relay.type_params = ["A"]} {
  %f = relay.fn : !relay.fn<(!relay.tvar<"C">) -> !relay.tvar<"C">> {
  // expected-error @+1 {{type variable '!relay.tvar<"C">' is not a type parameter of @unknown_in_body (its type parameters are ["A"])}}
  ^bb0(%p: !relay.tvar<"C">):
    relay.yield %p : !relay.tvar<"C">
  }
  return %x : !relay.tvar<"A">
}

// -----

// expected-error @+1 {{type variable '!relay.tvar<"A">' is not a type parameter of @not_generic (it has no 'relay.type_params')}}
func.func @not_generic(%x: !relay.tvar<"A">) -> !relay.tvar<"A"> {
  return %x : !relay.tvar<"A">
}

// -----

// expected-error @+1 {{type parameter "A" is declared twice}}
func.func @twice(%x: !relay.tvar<"A">) -> !relay.tvar<"A"> attributes {relay.type_params = ["A", "A"]} {
  return %x : !relay.tvar<"A">
}

// -----

// expected-error @+1 {{'relay.type_params' must name at least one type parameter}}
func.func @empty(%x: tensor<f32>) -> tensor<f32> attributes {relay.type_params = []} {
  return %x : tensor<f32>
}

// -----

// expected-error @+1 {{'relay.type_params' must hold non-empty strings}}
func.func @not_names(%x: tensor<f32>) -> tensor<f32> attributes {relay.type_params = [1]} {
  return %x : tensor<f32>
}

// -----

// Two generics whose result types are only known from each other: neither
// can be instantiated.
func.func @ping(%x: !relay.tvar<"A">) -> !relay.incomplete attributes {relay.type_params = ["A"]} {
  // expected-error @+1 {{cannot instantiate generic @pong: its type is not known from its own body}}
  %f = relay.global_fn @pong : !relay.incomplete
  %y = relay.call %f(%x) : (!relay.incomplete, !relay.tvar<"A">) -> !relay.incomplete
  return %y : !relay.incomplete
}
func.func @pong(%x: !relay.tvar<"A">) -> !relay.incomplete attributes {relay.type_params = ["A"]} {
  // expected-error @+1 {{cannot instantiate generic @ping: its type is not known from its own body}}
  %f = relay.global_fn @ping : !relay.incomplete
  %y = relay.call %f(%x) : (!relay.incomplete, !relay.tvar<"A">) -> !relay.incomplete
  return %y : !relay.incomplete
}
