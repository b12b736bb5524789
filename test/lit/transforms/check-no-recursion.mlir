// RUN: relay-mlir-opt %s -split-input-file -verify-diagnostics -relay-check-no-recursion
// (test/lit/pipeline/recursion-invalid.mlir: the check ends relay-to-iree-input)

// iree-compile never returns on a recursive module, so the IREE lowering
// refuses every cycle in the call graph of func.func (func.call callees and
// relay.global_fn references, in nested regions too) at the call closing it.

// Self recursion, the call inside relay.if.
func.func @loop(%go: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %r = relay.if %go : tensor<i1> -> tensor<4xf32> {
    %y = relay.negative %x : (tensor<4xf32>) -> tensor<4xf32>
    // expected-error @+1 {{recursion is not supported by the IREE lowering yet: @loop calls itself}}
    %z = func.call @loop(%go, %y) : (tensor<i1>, tensor<4xf32>) -> tensor<4xf32>
    relay.yield %z : tensor<4xf32>
  } else {
    relay.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// Mutual recursion through a third function: the error is at the call
// closing the cycle, the notes at the other calls.
func.func @main(%c: tensor<i1>, %x: tensor<3xf32>) -> tensor<3xf32> {
  %y = func.call @even(%c, %x) : (tensor<i1>, tensor<3xf32>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}

func.func @even(%c: tensor<i1>, %x: tensor<3xf32>) -> tensor<3xf32> {
  %r = relay.if %c : tensor<i1> -> tensor<3xf32> {
    // expected-note @+1 {{@even calls @odd here}}
    %o = func.call @odd(%c, %x) : (tensor<i1>, tensor<3xf32>) -> tensor<3xf32>
    relay.yield %o : tensor<3xf32>
  } else {
    relay.yield %x : tensor<3xf32>
  }
  return %r : tensor<3xf32>
}

func.func @odd(%c: tensor<i1>, %x: tensor<3xf32>) -> tensor<3xf32> {
  %n = relay.logical_not %c : (tensor<i1>) -> tensor<i1>
  // expected-error @+1 {{recursion is not supported by the IREE lowering yet: @odd calls @even (cycle @even -> @odd -> @even)}}
  %e = func.call @even(%n, %x) : (tensor<i1>, tensor<3xf32>) -> tensor<3xf32>
  %y = relay.exp %e : (tensor<3xf32>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}

// -----

// A global used as a value closes a cycle too (it may be called).
func.func @h(%x: tensor<f32>) -> tensor<f32> {
  // expected-note @+1 {{@h calls @k here}}
  %y = func.call @k(%x) : (tensor<f32>) -> tensor<f32>
  return %y : tensor<f32>
}

func.func @k(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{recursion is not supported by the IREE lowering yet: @k refers to @h (cycle @h -> @k -> @h)}}
  %f = relay.global_fn @h : !relay.fn<(tensor<f32>) -> tensor<f32>>
  %y = relay.call %f(%x) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>
  return %y : tensor<f32>
}

// -----

// No cycle: a diamond (@leaf reached twice, through @a and @b), a global
// used as a value and an external declaration pass unchanged.
func.func private @ext(tensor<f32>) -> tensor<f32>

func.func @leaf(%x: tensor<f32>) -> tensor<f32> {
  %y = func.call @ext(%x) : (tensor<f32>) -> tensor<f32>
  return %y : tensor<f32>
}

func.func @a(%x: tensor<f32>) -> tensor<f32> {
  %y = func.call @leaf(%x) : (tensor<f32>) -> tensor<f32>
  return %y : tensor<f32>
}

func.func @b(%x: tensor<f32>) -> tensor<f32> {
  %f = relay.global_fn @leaf : !relay.fn<(tensor<f32>) -> tensor<f32>>
  %y = relay.call %f(%x) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>
  return %y : tensor<f32>
}

func.func @top(%x: tensor<f32>) -> tensor<f32> {
  %y = func.call @a(%x) : (tensor<f32>) -> tensor<f32>
  %z = func.call @b(%y) : (tensor<f32>) -> tensor<f32>
  %w = func.call @leaf(%z) : (tensor<f32>) -> tensor<f32>
  return %w : tensor<f32>
}
