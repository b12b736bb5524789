// RUN: relay-mlir-opt %s -relay-infer-type -split-input-file -verify-diagnostics

// Nothing fixes the parameter's type.
// expected-error @+1 {{cannot infer the type of argument #0 of @unknown}}
func.func @unknown(%x: !relay.incomplete) -> !relay.incomplete {
  return %x : !relay.incomplete
}

// -----

// A closure never called: its parameter stays unknown (and so does the
// relu waiting on it, which is not reported separately).
func.func @closure_unused() -> !relay.incomplete {
  %f = relay.fn : !relay.incomplete {
  // expected-error @+1 {{cannot infer the type of closure parameter #0}}
  ^bb0(%p: !relay.incomplete):
    %q = relay.nn.relu %p : (!relay.incomplete) -> !relay.incomplete
    relay.yield %q : !relay.incomplete
  }
  return %f : !relay.incomplete
}

// -----

relay.adt @List ["T"] {
  relay.constructor @Nil []
  relay.constructor @Cons [!relay.tvar<"T">, !relay.adt<@List, !relay.tvar<"T">>]
}
// Nil's type argument is never fixed.
func.func @nil() -> !relay.incomplete {
  // expected-error @+1 {{cannot infer the type of this 'relay.construct' (only '!relay.adt<@List, !relay.incomplete<}}
  %n = relay.construct @List::@Nil() : () -> !relay.incomplete
  return %n : !relay.incomplete
}

// -----

// Mutual recursion without a base case types nothing.
func.func @mut_a(%x: tensor<f32>) -> !relay.incomplete {
  // expected-error @+1 {{cannot infer the type of this 'func.call'}}
  %r = func.call @mut_b(%x) : (tensor<f32>) -> !relay.incomplete
  return %r : !relay.incomplete
}
func.func @mut_b(%x: tensor<f32>) -> !relay.incomplete {
  %r = func.call @mut_a(%x) : (tensor<f32>) -> !relay.incomplete
  return %r : !relay.incomplete
}

// -----

// An external declaration whose result nobody fixes.
// expected-error @+1 {{cannot infer the type of @ext}}
func.func private @ext(tensor<f32>) -> !relay.incomplete

// -----

// The self reference of a recursive closure is the closure: calling it
// with a tensor<f32> clashes with its use on a tensor<2xf32>.
func.func @recursive_clash(%x: tensor<2xf32>) -> !relay.incomplete {
  %f = relay.fn recursive : !relay.incomplete {
  ^bb0(%self: !relay.fn<(tensor<f32>) -> !relay.incomplete>, %p: !relay.incomplete):
    relay.yield %p : !relay.incomplete
  }
  // expected-error @+1 {{callee: type mismatch: cannot unify '!relay.fn<(tensor<f32>) -> tensor<f32>>' with '!relay.fn<(tensor<2xf32>) -> !relay.incomplete>}}
  %r = relay.call %f(%x) : (!relay.incomplete, tensor<2xf32>) -> !relay.incomplete
  return %r : !relay.incomplete
}

// -----

// Nothing but the recursive call uses the self reference's result.
func.func @recursive_unknown() -> !relay.incomplete {
  %f = relay.fn recursive : !relay.incomplete {
  // expected-error @+1 {{cannot infer the type of the self reference of a recursive closure}}
  ^bb0(%self: !relay.incomplete, %p: !relay.incomplete):
    %r = relay.call %self(%p) : (!relay.incomplete, !relay.incomplete) -> !relay.incomplete
    relay.yield %r : !relay.incomplete
  }
  return %f : !relay.incomplete
}
