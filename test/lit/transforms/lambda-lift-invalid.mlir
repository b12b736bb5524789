// RUN: relay-mlir-opt %s -relay-lambda-lift -split-input-file -verify-diagnostics

func.func @not_inferred(%x: tensor<f32>) -> !relay.incomplete {
  // expected-error @+1 {{relay-lambda-lift: the closure's type '!relay.incomplete' is not inferred; run relay-infer-type first}}
  %f = relay.fn : !relay.incomplete {
  ^bb0(%p: tensor<f32>):
    relay.yield %p : tensor<f32>
  }
  return %f : !relay.incomplete
}

// -----

// The verifier accepts compatible types; the lifted func.func needs equal ones.
func.func @param_differs() -> !relay.fn<(tensor<?xf32>) -> tensor<?xf32>> {
  // expected-error @+1 {{relay-lambda-lift: closure parameter #0 has type 'tensor<2xf32>' but the closure's type says 'tensor<?xf32>'; lifting needs them equal}}
  %f = relay.fn : !relay.fn<(tensor<?xf32>) -> tensor<?xf32>> {
  ^bb0(%p: tensor<2xf32>):
    relay.yield %p : tensor<2xf32>
  }
  return %f : !relay.fn<(tensor<?xf32>) -> tensor<?xf32>>
}

// -----

func.func @result_differs() -> !relay.fn<(tensor<2xf32>) -> tensor<?xf32>> {
  // expected-error @+1 {{relay-lambda-lift: the closure's body yields 'tensor<2xf32>' but the closure's type says it returns 'tensor<?xf32>'; lifting needs them equal}}
  %f = relay.fn : !relay.fn<(tensor<2xf32>) -> tensor<?xf32>> {
  ^bb0(%p: tensor<2xf32>):
    relay.yield %p : tensor<2xf32>
  }
  return %f : !relay.fn<(tensor<2xf32>) -> tensor<?xf32>>
}
