// RUN: relay-mlir-opt %s -relay-infer-type -split-input-file -verify-diagnostics

// The closure parameter's type comes from the call site; only then does the
// Broadcast relation see the conflict.
func.func @late(%a: tensor<4xf32>, %b: tensor<3xf32>) -> !relay.incomplete {
  %f = relay.fn : !relay.incomplete {
  ^bb0(%p: !relay.incomplete):
    // expected-error @+1 {{'relay.add' op operands are not broadcastable}}
    %q = relay.add %p, %b : (!relay.incomplete, tensor<3xf32>) -> !relay.incomplete
    relay.yield %q : !relay.incomplete
  }
  %r = relay.call %f(%a) : (!relay.incomplete, tensor<4xf32>) -> !relay.incomplete
  return %r : !relay.incomplete
}

// -----

func.func @dtypes(%a: tensor<4xf32>, %b: tensor<4xi32>) -> !relay.incomplete {
  %x = relay.exp %a : (tensor<4xf32>) -> !relay.incomplete
  // expected-error @+1 {{'relay.subtract' op operand dtypes differ}}
  %y = relay.subtract %x, %b : (!relay.incomplete, tensor<4xi32>) -> !relay.incomplete
  return %y : !relay.incomplete
}

// -----

// A declared result the relation disagrees with once the operand is known.
func.func @declared(%a: tensor<4xf32>) -> tensor<5xf32> {
  %x = relay.exp %a : (tensor<4xf32>) -> !relay.incomplete
  // expected-error @+1 {{result #0 (typing rule of relay.negative): type mismatch: cannot unify 'tensor<5xf32>' with 'tensor<4xf32>'}}
  %y = relay.negative %x : (!relay.incomplete) -> tensor<5xf32>
  return %y : tensor<5xf32>
}

// -----

func.func @get(%a: tensor<4xf32>) -> !relay.incomplete {
  %t = relay.tuple %a, %a : (tensor<4xf32>, tensor<4xf32>) -> !relay.incomplete
  // expected-error @+1 {{'relay.tuple_get_item' op index 2 is out of range}}
  %x = relay.tuple_get_item %t[2] : (!relay.incomplete) -> !relay.incomplete
  return %x : !relay.incomplete
}

// -----

// grad of a function with a non-tensor parameter.
func.func @grad(%a: tensor<4xf32>) -> !relay.incomplete {
  %f = relay.fn : !relay.incomplete {
  ^bb0(%p: !relay.fn<(tensor<4xf32>) -> tensor<4xf32>>):
    relay.yield %a : tensor<4xf32>
  }
  // expected-error @+1 {{'relay.grad' op can only differentiate with respect to tensors, tuples and ADT values}}
  %g = relay.grad %f : (!relay.incomplete) -> !relay.incomplete
  return %g : !relay.incomplete
}
