// RUN: relay-mlir-opt %s -relay-defunctionalize -split-input-file -verify-diagnostics

func.func @not_lifted(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{relay-defunctionalize: relay.fn closures must be lifted first; run relay-lambda-lift}}
  %f = relay.fn : !relay.fn<(tensor<f32>) -> tensor<f32>> {
  ^bb0(%p: tensor<f32>):
    relay.yield %p : tensor<f32>
  }
  %y = relay.call %f(%x) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>
  return %y : tensor<f32>
}

// -----

func.func @grad(%f: !relay.fn<(tensor<f32>) -> tensor<f32>>) -> !relay.fn<(tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>> {
  // expected-error @+1 {{relay-defunctionalize: relay.grad must be expanded before function values are defunctionalized}}
  %g = relay.grad %f : (!relay.fn<(tensor<f32>) -> tensor<f32>>) -> !relay.fn<(tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>>
  return %g : !relay.fn<(tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>>
}

// -----

relay.adt @Box ["T"] {
  // expected-error @+1 {{relay-defunctionalize: function type '!relay.fn<(!relay.tvar<"T">) -> !relay.tvar<"T">>' mentions ADT type parameters; only monomorphic function types can be defunctionalized}}
  relay.constructor @Box [!relay.fn<(!relay.tvar<"T">) -> !relay.tvar<"T">>]
}

// -----

// relay.call accepts arguments compatible with its callee's type; the
// apply function's func.call needs equal ones, and a tensor.cast converts
// only tensors.
func.func @call_types(%f: !relay.fn<(tuple<tensor<?xf32>>) -> tensor<f32>>, %x: tuple<tensor<2xf32>>) -> tensor<f32> {
  // expected-error @+1 {{relay-defunctionalize: the call's types '(tuple<tensor<2xf32>>) -> tensor<f32>' differ from its callee's type '!relay.fn<(tuple<tensor<?xf32>>) -> tensor<f32>>' beyond tensor dims a tensor.cast can convert; the direct call of the apply function needs them equal}}
  %y = relay.call %f(%x) : (!relay.fn<(tuple<tensor<?xf32>>) -> tensor<f32>>, tuple<tensor<2xf32>>) -> tensor<f32>
  return %y : tensor<f32>
}

// -----

func.func @dyn(%x: tensor<?xf32>) -> tensor<?xf32> {
  return %x : tensor<?xf32>
}
func.func @global_types() -> !relay.fn<(tensor<2xf32>) -> tensor<2xf32>> {
  // expected-error @+1 {{relay-defunctionalize: @dyn has type '(tensor<?xf32>) -> tensor<?xf32>' but calling it directly as a value of type '!relay.fn<(tensor<2xf32>) -> tensor<2xf32>>' needs exactly that type}}
  %f = relay.global_fn @dyn : !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>
  return %f : !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>
}

// -----

func.func private @lifted(%b: tensor<f32>, %x: tensor<?xf32>) -> tensor<?xf32> {
  return %x : tensor<?xf32>
}
func.func @closure_types(%b: tensor<f32>) -> !relay.fn<(tensor<2xf32>) -> tensor<2xf32>> {
  // expected-error @+1 {{relay-defunctionalize: @lifted has type '(tensor<f32>, tensor<?xf32>) -> tensor<?xf32>' but calling it directly from the closure's apply function needs exactly '(tensor<f32>, tensor<2xf32>) -> tensor<2xf32>'}}
  %f = relay.closure @lifted(%b : tensor<f32>) : !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>
  return %f : !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>
}
