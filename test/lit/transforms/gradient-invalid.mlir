// RUN: relay-mlir-opt %s -relay-gradient -split-input-file -verify-diagnostics

// Off the differentiated path an op needs no rule (the index computation).
func.func @f(%x: tensor<4xf32>, %i: tensor<4xi32>) -> tensor<4xf32> {
  %s = relay.sort %i : (tensor<4xi32>) -> tensor<4xi32>
  %c = relay.cast %s {dtype = f32} : (tensor<4xi32>) -> tensor<4xf32>
  %y = relay.multiply %x, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func @main() -> !relay.fn<(tensor<4xf32>, tensor<4xi32>) -> tuple<tensor<4xf32>, tuple<tensor<4xf32>>>> {
  %f = relay.global_fn @f : !relay.fn<(tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>>
  %g = relay.grad %f {wrt = array<i64: 0>} : (!relay.fn<(tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>>) -> !relay.fn<(tensor<4xf32>, tensor<4xi32>) -> tuple<tensor<4xf32>, tuple<tensor<4xf32>>>>
  return %g : !relay.fn<(tensor<4xf32>, tensor<4xi32>) -> tuple<tensor<4xf32>, tuple<tensor<4xf32>>>>
}

// -----

// A function value passed in is not known at compile time.
func.func @apply(%f: !relay.fn<(tensor<f32>) -> tensor<f32>>, %x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{cannot differentiate through this call: the callee is not known at compile time}}
  %y = relay.call %f(%x) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>
  return %y : tensor<f32>
}
func.func @main() -> !relay.fn<(!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>> {
  %f = relay.global_fn @apply : !relay.fn<(!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>>
  %g = relay.grad %f {wrt = array<i64: 1>} : (!relay.fn<(!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>>) -> !relay.fn<(!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>>
  return %g : !relay.fn<(!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>>
}

// -----

// A recursive function with a function-typed parameter whose argument is
// not known (a parameter of the differentiated function; a known function
// would be specialised on, transforms/gradient.mlir).
// expected-error @+1 {{cannot differentiate through the recursive function @loop: parameter #0 has type '!relay.fn<(tensor<f32>) -> tensor<f32>>'}}
func.func @loop(%f: !relay.fn<(tensor<f32>) -> tensor<f32>>, %x: tensor<f32>, %n: tensor<i32>) -> tensor<f32> {
  %zero = relay.constant dense<0> : tensor<i32>
  %done = relay.equal %n, %zero : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %r = relay.if %done : tensor<i1> -> tensor<f32> {
    relay.yield %x : tensor<f32>
  } else {
    %one = relay.constant dense<1> : tensor<i32>
    %m = relay.subtract %n, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %k = func.call @loop(%f, %x, %m) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>, tensor<i32>) -> tensor<f32>
    relay.yield %k : tensor<f32>
  }
  return %r : tensor<f32>
}
func.func @user(%f: !relay.fn<(tensor<f32>) -> tensor<f32>>, %x: tensor<f32>, %n: tensor<i32>) -> tensor<f32> {
  %y = func.call @loop(%f, %x, %n) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>, tensor<i32>) -> tensor<f32>
  return %y : tensor<f32>
}
func.func @main() -> !relay.fn<(!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>, tensor<i32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>> {
  %f = relay.global_fn @user : !relay.fn<(!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>, tensor<i32>) -> tensor<f32>>
  %g = relay.grad %f {wrt = array<i64: 1>} : (!relay.fn<(!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>, tensor<i32>) -> tensor<f32>>) -> !relay.fn<(!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>, tensor<i32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>>
  return %g : !relay.fn<(!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>, tensor<i32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>>
}

// -----

// A function value computed at run time.
func.func @main(%f: !relay.fn<(tensor<f32>) -> tensor<f32>>) -> !relay.fn<(tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>> {
  // expected-error @+1 {{can only differentiate a function known at compile time}}
  %g = relay.grad %f : (!relay.fn<(tensor<f32>) -> tensor<f32>>) -> !relay.fn<(tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>>
  return %g : !relay.fn<(tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>>
}

// -----

// The result must carry a gradient.
func.func @f(%x: tensor<4xf32>) -> tensor<4xi32> {
  %c = relay.cast %x {dtype = i32} : (tensor<4xf32>) -> tensor<4xi32>
  // expected-error @+1 {{cannot differentiate a function whose result is 'tensor<4xi32>'}}
  return %c : tensor<4xi32>
}
func.func @main() -> !relay.fn<(tensor<4xf32>) -> tuple<tensor<4xi32>, tuple<tensor<4xf32>>>> {
  %f = relay.global_fn @f : !relay.fn<(tensor<4xf32>) -> tensor<4xi32>>
  %g = relay.grad %f : (!relay.fn<(tensor<4xf32>) -> tensor<4xi32>>) -> !relay.fn<(tensor<4xf32>) -> tuple<tensor<4xi32>, tuple<tensor<4xf32>>>>
  return %g : !relay.fn<(tensor<4xf32>) -> tuple<tensor<4xi32>, tuple<tensor<4xf32>>>>
}

// -----

// Types must be inferred first.
func.func @f(%x: tensor<f32>) -> tensor<f32> {
  return %x : tensor<f32>
}
func.func @main() -> !relay.incomplete {
  %f = relay.global_fn @f : !relay.fn<(tensor<f32>) -> tensor<f32>>
  // expected-error @+1 {{relay-gradient needs inferred types (run relay-infer-type first)}}
  %g = relay.grad %f : (!relay.fn<(tensor<f32>) -> tensor<f32>>) -> !relay.incomplete
  return %g : !relay.incomplete
}

// -----

// A rule's own limit is a located error naming the op and the case (every
// relay operator has a rule; an op without one would be "no gradient rule
// for ...").
func.func @f(%x: tensor<3x4xf32>, %u: tensor<2x4xf32>, %i: tensor<2x4xi32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{the gradient of `scatter_elements` with reduction "mul" is not implemented yet}}
  %y = relay.scatter_elements %x, %i, %u {axis = 0 : i64, reduction = "mul"} : (tensor<3x4xf32>, tensor<2x4xi32>, tensor<2x4xf32>) -> tensor<3x4xf32>
  return %y : tensor<3x4xf32>
}
func.func @main() -> !relay.fn<(tensor<3x4xf32>, tensor<2x4xf32>, tensor<2x4xi32>) -> tuple<tensor<3x4xf32>, tuple<tensor<3x4xf32>>>> {
  %f = relay.global_fn @f : !relay.fn<(tensor<3x4xf32>, tensor<2x4xf32>, tensor<2x4xi32>) -> tensor<3x4xf32>>
  %g = relay.grad %f {wrt = array<i64: 0>} : (!relay.fn<(tensor<3x4xf32>, tensor<2x4xf32>, tensor<2x4xi32>) -> tensor<3x4xf32>>) -> !relay.fn<(tensor<3x4xf32>, tensor<2x4xf32>, tensor<2x4xi32>) -> tuple<tensor<3x4xf32>, tuple<tensor<3x4xf32>>>>
  return %g : !relay.fn<(tensor<3x4xf32>, tensor<2x4xf32>, tensor<2x4xi32>) -> tuple<tensor<3x4xf32>, tuple<tensor<3x4xf32>>>>
}

// -----

// A pool with blocked channels (AlterOpLayout's NCHW4c): no gradient yet.
func.func @f(%x: tensor<1x2x4x4x4xf32>) -> tensor<1x2x2x2x4xf32> {
  // expected-error @+1 {{the gradient of `relay.nn.max_pool2d` is not implemented for blocked layouts, got layout = "NCHW4c"}}
  %y = relay.nn.max_pool2d %x {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>, layout = "NCHW4c"} : (tensor<1x2x4x4x4xf32>) -> tensor<1x2x2x2x4xf32>
  return %y : tensor<1x2x2x2x4xf32>
}
func.func @main() -> !relay.fn<(tensor<1x2x4x4x4xf32>) -> tuple<tensor<1x2x2x2x4xf32>, tuple<tensor<1x2x4x4x4xf32>>>> {
  %f = relay.global_fn @f : !relay.fn<(tensor<1x2x4x4x4xf32>) -> tensor<1x2x2x2x4xf32>>
  %g = relay.grad %f : (!relay.fn<(tensor<1x2x4x4x4xf32>) -> tensor<1x2x2x2x4xf32>>) -> !relay.fn<(tensor<1x2x4x4x4xf32>) -> tuple<tensor<1x2x2x2x4xf32>, tuple<tensor<1x2x4x4x4xf32>>>>
  return %g : !relay.fn<(tensor<1x2x4x4x4xf32>) -> tuple<tensor<1x2x2x2x4xf32>, tuple<tensor<1x2x4x4x4xf32>>>>
}

// -----

// A function argument rebuilt at every recursive call (a new closure around
// the last) would need a new specialisation per level: refused.
func.func @loop(%f: !relay.fn<(tensor<f32>) -> tensor<f32>>, %x: tensor<f32>, %n: tensor<i32>) -> tensor<f32> {
  %zero = relay.constant dense<0> : tensor<i32>
  %done = relay.equal %n, %zero : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %r = relay.if %done : tensor<i1> -> tensor<f32> {
    %y = relay.call %f(%x) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>
    relay.yield %y : tensor<f32>
  } else {
    %one = relay.constant dense<1> : tensor<i32>
    %m = relay.subtract %n, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %g = relay.fn : !relay.fn<(tensor<f32>) -> tensor<f32>> {
    ^bb0(%a: tensor<f32>):
      %b = relay.call %f(%a) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>
      %c = relay.sin %b : (tensor<f32>) -> tensor<f32>
      relay.yield %c : tensor<f32>
    }
    // expected-error @+1 {{more than 256 specialisations of recursive functions on their function arguments}}
    %k = func.call @loop(%g, %x, %m) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>, tensor<i32>) -> tensor<f32>
    relay.yield %k : tensor<f32>
  }
  return %r : tensor<f32>
}
func.func @user(%x: tensor<f32>, %n: tensor<i32>) -> tensor<f32> {
  %f = relay.fn : !relay.fn<(tensor<f32>) -> tensor<f32>> {
  ^bb0(%a: tensor<f32>):
    relay.yield %a : tensor<f32>
  }
  %y = func.call @loop(%f, %x, %n) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>, tensor<i32>) -> tensor<f32>
  return %y : tensor<f32>
}
func.func @main() -> !relay.fn<(tensor<f32>, tensor<i32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>> {
  %f = relay.global_fn @user : !relay.fn<(tensor<f32>, tensor<i32>) -> tensor<f32>>
  %g = relay.grad %f {wrt = array<i64: 0>} : (!relay.fn<(tensor<f32>, tensor<i32>) -> tensor<f32>>) -> !relay.fn<(tensor<f32>, tensor<i32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>>
  return %g : !relay.fn<(tensor<f32>, tensor<i32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>>
}
