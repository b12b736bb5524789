// RUN: relay-mlir-opt %s -relay-infer-type -split-input-file -verify-diagnostics

// TVM infers an untyped conv2d weight only from channels and kernel_size.
func.func @no_channels(%x: tensor<1x4x8x8xf32>, %w: !relay.incomplete) -> !relay.incomplete {
  // expected-error @+1 {{'relay.nn.conv2d' op cannot infer the type of the untyped operand 'weight': give the attributes `channels` and `kernel_size`}}
  %0 = relay.nn.conv2d %x, %w {kernel_size = array<i64: 3, 3>} : (tensor<1x4x8x8xf32>, !relay.incomplete) -> !relay.incomplete
  return %0 : !relay.incomplete
}

// -----

// TVM 0.19: "Weight shape must be specified when groups is greater than 1".
func.func @groups(%x: tensor<1x4x8x8xf32>, %w: !relay.incomplete) -> !relay.incomplete {
  // expected-error @+1 {{cannot infer the type of the untyped operand 'weight' with groups = 2}}
  %0 = relay.nn.conv2d %x, %w {channels = 6 : i64, kernel_size = array<i64: 3, 3>, groups = 2 : i64} : (tensor<1x4x8x8xf32>, !relay.incomplete) -> !relay.incomplete
  return %0 : !relay.incomplete
}

// -----

func.func @no_units(%x: tensor<2x7xf32>, %w: !relay.incomplete) -> !relay.incomplete {
  // expected-error @+1 {{cannot infer the type of the untyped operand 'weight': give the attribute `units`}}
  %0 = relay.nn.dense %x, %w : (tensor<2x7xf32>, !relay.incomplete) -> !relay.incomplete
  return %0 : !relay.incomplete
}

// -----

// An axis out of range is reported as the rule would.
func.func @axis(%x: tensor<1x4xf32>, %b: !relay.incomplete) -> !relay.incomplete {
  // expected-error @+1 {{axis 3 is out of range for rank 2}}
  %0 = relay.nn.bias_add %x, %b {axis = 3 : i64} : (tensor<1x4xf32>, !relay.incomplete) -> !relay.incomplete
  return %0 : !relay.incomplete
}

// -----

// The data's type is unknown too: the parameter is reported, not the op.
func.func @data_unknown(%x: !relay.incomplete, %w: !relay.incomplete) -> !relay.incomplete {
  // expected-error @-1 {{cannot infer the type of argument #0 of @data_unknown}}
  // expected-error @-2 {{cannot infer the type of argument #1 of @data_unknown}}
  %0 = relay.nn.dense %x, %w {units = 3 : i64} : (!relay.incomplete, !relay.incomplete) -> !relay.incomplete
  return %0 : !relay.incomplete
}

// -----

// The weight per group needs the input channels divisible by groups.
func.func @indivisible(%x: tensor<1x4x10xf32>, %w: !relay.incomplete) -> !relay.incomplete {
  // expected-error @+1 {{input channels 4 are not divisible by groups 3}}
  %0 = relay.nn.conv1d %x, %w {channels = 6 : i64, kernel_size = array<i64: 3>, groups = 3 : i64} : (tensor<1x4x10xf32>, !relay.incomplete) -> !relay.incomplete
  return %0 : !relay.incomplete
}

// -----

// A negative `units` (fuzz_mlir mutant 14:43 aborted creating the type).
func.func @dense_negative_units(%x: tensor<2x7xf32>, %w: !relay.incomplete) -> !relay.incomplete {
  // expected-error @+1 {{cannot infer the type of the untyped operand 'weight': its size -1 from the attributes is negative}}
  %0 = relay.nn.dense %x, %w {units = -1 : i64} : (tensor<2x7xf32>, !relay.incomplete) -> !relay.incomplete
  return %0 : !relay.incomplete
}

// -----

// A `units` whose inferred weight has more elements than int64 counts
// (fuzz_mlir mutant 14:100 aborted in relay-fold-constants): every relay op
// refuses operand and result types whose element count overflows.
func.func @matmul_huge_units(%x: tensor<7x2xf32>, %w: !relay.incomplete) -> !relay.incomplete {
  // expected-error @+1 {{'relay.nn.matmul' op operand #1 has type 'tensor<7x4611686018427387904xf32>', whose element count overflows int64}}
  %0 = relay.nn.matmul %x, %w {units = 4611686018427387904 : i64, transpose_a = true} : (tensor<7x2xf32>, !relay.incomplete) -> !relay.incomplete
  return %0 : !relay.incomplete
}
