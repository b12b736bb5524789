// RUN: relay-mlir-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// Reshape
//===----------------------------------------------------------------------===//

func.func @reshape_count(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{newshape [5, 5] gives [5, 5] with 25 elements, but data has 24 elements}}
  %0 = relay.reshape %x {newshape = array<i64: 5, 5>} : (tensor<2x3x4xf32>) -> tensor<5x5xf32>
  return
}

// -----

// The product of the other new dims used to wrap around (to 0 here, and a
// wrong "0 elements" error; to a negative dim in general).
func.func @reshape_infer_overflow(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{the new dims' product 4611686018427387904 * 4 overflows int64}}
  %0 = relay.reshape %x {newshape = array<i64: 4611686018427387904, 4, -1>} : (tensor<2x3x4xf32>) -> tensor<1x1x1xf32>
  return
}

// -----

// A `?` input reshaped to static dims whose product overflows (fuzz seed 42,
// mutant 32208: relay-dynamic-to-static made such a reshape, and its
// lowering asked for the element count).
func.func @reshape_static_dims_overflow(%x: tensor<?xf32>) {
  // expected-error @+1 {{the result's element count 3 * 4611686018427387904 overflows int64}}
  %0 = relay.reshape %x {newshape = array<i64: 3, 4611686018427387904>} : (tensor<?xf32>) -> tensor<?x?xf32>
  return
}

// -----

func.func @reshape_count_copy(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{newshape [0, 0] gives [2, 3] with 6 elements, but data has 24 elements}}
  %0 = relay.reshape %x {newshape = array<i64: 0, 0>} : (tensor<2x3x4xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @reshape_zero_past_rank(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{newshape[2] = 0 copies input dim 2, but data has rank 2}}
  %0 = relay.reshape %x {newshape = array<i64: 0, 0, 0>} : (tensor<2x3xf32>) -> tensor<2x3x1xf32>
  return
}

// -----

func.func @reshape_two_infer(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{newshape has more than one -1 (entries 0 and 2)}}
  %0 = relay.reshape %x {newshape = array<i64: -1, 2, -1>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  return
}

// -----

func.func @reshape_infer_divisible(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{cannot infer the -1 dim (newshape[1]): 24 elements are not divisible by 5}}
  %0 = relay.reshape %x {newshape = array<i64: 5, -1>} : (tensor<2x3x4xf32>) -> tensor<5x5xf32>
  return
}

// -----

func.func @reshape_infer_zero(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{cannot infer the -1 dim (newshape[1]): the other new dims have 0 elements}}
  %0 = relay.reshape %x {newshape = array<i64: 0, -1>, allowzero = true} : (tensor<2x3xf32>) -> tensor<0x1xf32>
  return
}

// -----

func.func @reshape_merge_past_rank(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{newshape[1] = -3 merges input dims 2 and 3, but data has rank 3}}
  %0 = relay.reshape %x {newshape = array<i64: -3, -3>} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  return
}

// -----

func.func @reshape_split_values(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{newshape[1] = -4 must be followed by two values}}
  %0 = relay.reshape %x {newshape = array<i64: 0, -4, 3>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @reshape_split_past_rank(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{newshape[1] = -4 splits input dim 2, but data has rank 2}}
  %0 = relay.reshape %x {newshape = array<i64: -2, -4, 1, 1>} : (tensor<2x3xf32>) -> tensor<2x3x1x1xf32>
  return
}

// -----

func.func @reshape_split_codes(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{the two values after newshape[0] = -4 must be positive or -1, got 0, -2}}
  %0 = relay.reshape %x {newshape = array<i64: -4, 0, -2>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @reshape_split_both_infer(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{the two values after newshape[0] = -4 cannot both be -1}}
  %0 = relay.reshape %x {newshape = array<i64: -4, -1, -1, -2>} : (tensor<2x3x4xf32>) -> tensor<1x2x3x4xf32>
  return
}

// -----

func.func @reshape_split_divisible(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{newshape[1] = -4 cannot split input dim 1 of size 3 by 2}}
  %0 = relay.reshape %x {newshape = array<i64: 0, -4, 2, -1, -2>} : (tensor<2x3x4xf32>) -> tensor<2x2x1x4xf32>
  return
}

// -----

func.func @reshape_split_product(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{newshape[2] = -4 splits input dim 2 of size 4 into 3 × 2}}
  %0 = relay.reshape %x {newshape = array<i64: 0, 0, -4, 3, 2>} : (tensor<2x3x4xf32>) -> tensor<2x3x3x2xf32>
  return
}

// -----

func.func @reshape_bad_code(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{newshape[1] = -5 is not a valid entry (expected > 0, 0, -1, -2, -3 or -4)}}
  %0 = relay.reshape %x {newshape = array<i64: 2, -5>} : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Transpose
//===----------------------------------------------------------------------===//

func.func @transpose_count(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{axes has 2 entries, but data has rank 3}}
  %0 = relay.transpose %x {axes = array<i64: 1, 0>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  return
}

// -----

func.func @transpose_range(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{axes entry 3 is out of range for rank 3}}
  %0 = relay.transpose %x {axes = array<i64: 0, 1, 3>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @transpose_repeat(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{axes [0, 2, -1] is not a permutation: dim 2 appears twice}}
  %0 = relay.transpose %x {axes = array<i64: 0, 2, -1>} : (tensor<2x3x4xf32>) -> tensor<2x4x4xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Concatenate
//===----------------------------------------------------------------------===//

func.func @concatenate_empty() {
  // expected-error @+1 {{expects at least one operand}}
  %0 = relay.concatenate : () -> tensor<1xf32>
  return
}

// -----

func.func @concatenate_axis(%a: tensor<1x2xf32>) {
  // expected-error @+1 {{axis 2 is out of range for rank 2}}
  %0 = relay.concatenate %a, %a {axis = 2 : i64} : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x4xf32>
  return
}

// -----

func.func @concatenate_rank(%a: tensor<1x2xf32>, %b: tensor<2xf32>) {
  // expected-error @+1 {{operand #1 has rank 1, but operand #0 has rank 2}}
  %0 = relay.concatenate %a, %b {axis = 1 : i64} : (tensor<1x2xf32>, tensor<2xf32>) -> tensor<1x4xf32>
  return
}

// -----

func.func @concatenate_dtype(%a: tensor<1x2xf32>, %b: tensor<1x2xi32>) {
  // expected-error @+1 {{operand #1 has dtype 'i32', but operand #0 has dtype 'f32'}}
  %0 = relay.concatenate %a, %b {axis = 1 : i64} : (tensor<1x2xf32>, tensor<1x2xi32>) -> tensor<1x4xf32>
  return
}

// -----

func.func @concatenate_dims(%a: tensor<1x2xf32>, %b: tensor<?x2xf32>, %c: tensor<3x2xf32>) {
  // expected-error @+1 {{operand #2 dim 0 is 3, but earlier operands have 1 (only the axis 1 dim may differ)}}
  %0 = relay.concatenate %a, %b, %c {axis = 1 : i64} : (tensor<1x2xf32>, tensor<?x2xf32>, tensor<3x2xf32>) -> tensor<1x6xf32>
  return
}

// -----

// The concatenated dim overflowing int64 used to wrap to the `?` sentinel
// (fuzz seed 43, mutant 19569, where a dyn.reshape's shape inference then
// read 2^62 entries from it).
func.func @concatenate_overflow(%n: tensor<4611686018427387904xi64>) {
  // expected-error @+1 {{the concatenated axis 0 dim overflows int64 at operand #1}}
  %t = relay.concatenate %n, %n : (tensor<4611686018427387904xi64>, tensor<4611686018427387904xi64>) -> tensor<2xi64>
  return
}
