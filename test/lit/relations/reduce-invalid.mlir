// RUN: relay-mlir-opt %s -split-input-file -verify-diagnostics

func.func @axis_out_of_range(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{axis 2 is out of range for rank 2}}
  %0 = relay.sum %x {axis = array<i64: 2>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @negative_axis_out_of_range(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{axis -3 is out of range for rank 2}}
  %0 = relay.mean %x {axis = array<i64: -3>, exclude = true} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @duplicate_axis(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{axis lists dim 1 more than once}}
  %0 = relay.sum %x {axis = array<i64: 1, -1>} : (tensor<2x3xf32>) -> tensor<2xf32>
  return
}
