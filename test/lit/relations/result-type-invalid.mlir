// RUN: relay-mlir-opt %s -split-input-file -verify-diagnostics
//
// verifyTypeRelation: once every operand type is complete, the declared
// result types must be compatible (equal modulo `?` dims and incomplete
// types) with what the op's relation computes.

func.func @conv2d_shape(%x: tensor<1x3x32x32xf32>, %w: tensor<8x3x3x3xf32>) {
  // expected-error @+1 {{result #0 has type 'tensor<1x8x32x32xf32>' but its typing rule gives 'tensor<1x8x30x30xf32>'}}
  %0 = relay.nn.conv2d %x, %w : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x32x32xf32>
  return
}

// -----

func.func @dense_dtype(%x: tensor<4x8xi8>, %w: tensor<16x8xi8>) {
  // expected-error @+1 {{result #0 has type 'tensor<4x16xi8>' but its typing rule gives 'tensor<4x16xi32>'}}
  %0 = relay.nn.dense %x, %w {out_dtype = i32} : (tensor<4x8xi8>, tensor<16x8xi8>) -> tensor<4x16xi8>
  return
}

// -----

func.func @sum_rank(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{result #0 has type 'tensor<2x1xf32>' but its typing rule gives 'tensor<2xf32>'}}
  %0 = relay.sum %x {axis = array<i64: 1>} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return
}

// -----

func.func @batch_norm_tuple(%x: tensor<1x8x4x4xf32>, %p: tensor<8xf32>) {
  // expected-error @+1 {{result #0 has type 'tuple<tensor<1x8x4x4xf32>, tensor<4xf32>, tensor<8xf32>>' but its typing rule gives 'tuple<tensor<1x8x4x4xf32>, tensor<8xf32>, tensor<8xf32>>'}}
  %0 = relay.nn.batch_norm %x, %p, %p, %p, %p : (tensor<1x8x4x4xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tuple<tensor<1x8x4x4xf32>, tensor<4xf32>, tensor<8xf32>>
  return
}

// -----

func.func @batch_norm_not_tuple(%x: tensor<1x8x4x4xf32>, %p: tensor<8xf32>) {
  // expected-error @+1 {{result #0 has type 'tensor<1x8x4x4xf32>' but its typing rule gives 'tuple<tensor<1x8x4x4xf32>, tensor<8xf32>, tensor<8xf32>>'}}
  %0 = relay.nn.batch_norm %x, %p, %p, %p, %p : (tensor<1x8x4x4xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<1x8x4x4xf32>
  return
}

// -----

func.func @reshape_shape(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{result #0 has type 'tensor<4x6xf32>' but its typing rule gives 'tensor<2x12xf32>'}}
  %0 = relay.reshape %x {newshape = array<i64: 0, -1>} : (tensor<2x3x4xf32>) -> tensor<4x6xf32>
  return
}

// -----

func.func @broadcast_shape(%a: tensor<4x1xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{result #0 has type 'tensor<4x1xf32>' but its typing rule gives 'tensor<4x3xf32>'}}
  %0 = relay.add %a, %b : (tensor<4x1xf32>, tensor<3xf32>) -> tensor<4x1xf32>
  return
}

// -----

// Compatible declarations are accepted: `?` against a static dim either
// way, and incomplete types (operands or results) are not checked.
func.func @compatible(%x: tensor<?x3x32x32xf32>, %w: tensor<8x3x3x3xf32>, %s: tensor<1x3x32x32xf32>, %i: !relay.incomplete) {
  %0 = relay.nn.conv2d %x, %w : (tensor<?x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x30x30xf32>
  %1 = relay.nn.conv2d %s, %w : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<?x?x?x?xf32>
  %2 = relay.nn.conv2d %s, %w : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>) -> !relay.incomplete
  %3 = relay.nn.conv2d %i, %w : (!relay.incomplete, tensor<8x3x3x3xf32>) -> tensor<5xf32>
  return
}
