// RUN: relay-mlir-opt %s -relay-infer-type -split-input-file -verify-diagnostics

// x(x): x would need the type fn(T) -> R with T = that same type.
func.func @self_apply(%a: tensor<4xf32>) -> tensor<4xf32> {
  %f = relay.fn : !relay.incomplete {
  ^bb0(%p: !relay.incomplete):
    // expected-error @+1 {{callee: occurs check failed}}
    %q = relay.call %p(%p) : (!relay.incomplete, !relay.incomplete) -> !relay.incomplete
    relay.yield %q : !relay.incomplete
  }
  return %a : tensor<4xf32>
}

// -----

// A function returning a tuple containing its own result.
func.func @nest(%c: tensor<i1>, %x: tensor<f32>) -> !relay.incomplete {
  %r = func.call @nest(%c, %x) : (tensor<i1>, tensor<f32>) -> !relay.incomplete
  %t = relay.tuple %r, %x : (!relay.incomplete, tensor<f32>) -> !relay.incomplete
  // expected-error @+1 {{returned value #0 of @nest: occurs check failed}}
  return %t : !relay.incomplete
}
