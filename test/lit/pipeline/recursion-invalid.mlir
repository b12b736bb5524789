// RUN: relay-mlir-opt %s -split-input-file -verify-diagnostics -relay-to-iree-input

// relay-to-iree-input ends with relay-check-no-recursion: iree-compile never
// returns on a recursive module, so recursion is a located error after
// inference and lowering (which handle it) instead of a hang.

// The loop of test/lit/infer/recursion.mlir: types are inferred through
// the recursive call, then the call is refused.
func.func @loop(%go: tensor<i1>, %acc: tensor<4xf32>, %i: tensor<f32>) -> !relay.incomplete {
  %r = relay.if %go : tensor<i1> -> !relay.incomplete {
    %acc2 = relay.add %acc, %i : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    // expected-error @+1 {{recursion is not supported by the IREE lowering yet: @loop calls itself}}
    %rec = func.call @loop(%go, %acc2, %i) : (tensor<i1>, tensor<4xf32>, tensor<f32>) -> !relay.incomplete
    relay.yield %rec : !relay.incomplete
  } else {
    %t = relay.tuple %acc, %i : (tensor<4xf32>, tensor<f32>) -> !relay.incomplete
    relay.yield %t : !relay.incomplete
  }
  return %r : !relay.incomplete
}

// -----

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
  // expected-error @+1 {{recursion is not supported by the IREE lowering yet: @odd calls @even (cycle @even -> @odd -> @even)}}
  %e = func.call @even(%c, %x) : (tensor<i1>, tensor<3xf32>) -> tensor<3xf32>
  %y = relay.exp %e : (tensor<3xf32>) -> tensor<3xf32>
  return %y : tensor<3xf32>
}
