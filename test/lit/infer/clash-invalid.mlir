// RUN: relay-mlir-opt %s -relay-infer-type -split-input-file -verify-diagnostics

func.func @branches(%a: tensor<4xf32>, %b: tensor<3xf32>, %c: tensor<i1>) -> !relay.incomplete {
  // expected-error @+1 {{else branch: type mismatch: cannot unify 'tensor<3xf32>' with 'tensor<4xf32>'}}
  %r = relay.if %c : tensor<i1> -> !relay.incomplete {
    relay.yield %a : tensor<4xf32>
  } else {
    relay.yield %b : tensor<3xf32>
  }
  return %r : !relay.incomplete
}

// -----

// The condition's type is forced to tensor<i1>.
func.func @cond(%a: tensor<4xf32>) -> !relay.incomplete {
  %f = relay.fn : !relay.incomplete {
  ^bb0(%c: !relay.incomplete):
    %r = relay.if %c : !relay.incomplete -> tensor<4xf32> {
      relay.yield %a : tensor<4xf32>
    } else {
      relay.yield %a : tensor<4xf32>
    }
    relay.yield %r : tensor<4xf32>
  }
  // expected-error @+1 {{callee: type mismatch: cannot unify '!relay.fn<(tensor<i1>) -> tensor<4xf32>>' with '!relay.fn<(tensor<4xf32>) -> !relay.incomplete>}}
  %r = relay.call %f(%a) : (!relay.incomplete, tensor<4xf32>) -> !relay.incomplete
  return %r : !relay.incomplete
}

// -----

// A recursive call whose result disagrees with the base case.
func.func @rec(%c: tensor<i1>, %x: tensor<2xf32>) -> !relay.incomplete {
  // expected-error @+1 {{else branch: type mismatch: cannot unify 'tensor<2xf32>' with 'tuple<}}
  %r = relay.if %c : tensor<i1> -> !relay.incomplete {
    %t = func.call @rec(%c, %x) : (tensor<i1>, tensor<2xf32>) -> !relay.incomplete
    %p = relay.tuple %t, %t : (!relay.incomplete, !relay.incomplete) -> !relay.incomplete
    relay.yield %p : !relay.incomplete
  } else {
    relay.yield %x : tensor<2xf32>
  }
  return %r : !relay.incomplete
}

// -----

relay.adt @List ["T"] {
  relay.constructor @Nil []
  relay.constructor @Cons [!relay.tvar<"T">, !relay.adt<@List, !relay.tvar<"T">>]
}
// One list, two element types.
func.func @mixed(%x: tensor<f32>, %y: tensor<2xf32>) -> !relay.incomplete {
  %n = relay.construct @List::@Nil() : () -> !relay.incomplete
  %a = relay.construct @List::@Cons(%y, %n) : (tensor<2xf32>, !relay.incomplete) -> !relay.incomplete
  // expected-error @+1 {{field #1 of Cons: type mismatch: cannot unify '!relay.adt<@List, tensor<2xf32>>' with '!relay.adt<@List, tensor<f32>>' ('tensor<2xf32>' vs 'tensor<f32>')}}
  %b = relay.construct @List::@Cons(%x, %a) : (tensor<f32>, !relay.incomplete) -> !relay.incomplete
  return %b : !relay.incomplete
}

// -----

// A closure argument of the wrong type, found through a func.func's
// signature.
func.func @apply(%f: !relay.incomplete, %x: tensor<3xf32>) -> !relay.incomplete {
  %y = relay.call %f(%x) : (!relay.incomplete, tensor<3xf32>) -> !relay.incomplete
  return %y : !relay.incomplete
}
func.func @caller(%x: tensor<3xf32>) -> !relay.incomplete {
  %g = relay.fn : !relay.incomplete {
  ^bb0(%p: tensor<4xf32>):
    relay.yield %p : tensor<4xf32>
  }
  // expected-error @+1 {{argument #0 of the call to @apply: type mismatch}}
  %r = func.call @apply(%g, %x) : (!relay.incomplete, tensor<3xf32>) -> !relay.incomplete
  return %r : !relay.incomplete
}
