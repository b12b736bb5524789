// RUN: relay-mlir-opt %s -split-input-file -verify-diagnostics
// Broken rules of the shape-transform and tensor-creation relations.

func.func @reshape_like_count(%x: tensor<2x3xf32>, %s: tensor<5xf32>) {
  // expected-error @+1 {{reshape_like gives [5] with 5 elements, but data has 6 elements}}
  %0 = relay.reshape_like %x, %s : (tensor<2x3xf32>, tensor<5xf32>) -> tensor<5xf32>
  return
}

// -----

func.func @reshape_like_range(%x: tensor<2x3xf32>, %s: tensor<6xf32>) {
  // expected-error @+1 {{lhs_begin = 2 and lhs_end = 1 do not give a dim range of data (rank 2)}}
  %0 = relay.reshape_like %x, %s {lhs_begin = 2 : i64, lhs_end = 1 : i64} : (tensor<2x3xf32>, tensor<6xf32>) -> tensor<6xf32>
  return
}

// -----

func.func @squeeze_not_one(%x: tensor<1x3xf32>) {
  // expected-error @+1 {{cannot squeeze axis 1: its dim is 3, not 1}}
  %0 = relay.squeeze %x {axis = array<i64: 1>} : (tensor<1x3xf32>) -> tensor<1xf32>
  return
}

// -----

func.func @squeeze_dynamic(%x: tensor<?x1xf32>) {
  // expected-error @+1 {{squeeze without axis needs static dims, but dim 0 is ?}}
  %0 = relay.squeeze %x : (tensor<?x1xf32>) -> tensor<?xf32>
  return
}

// -----

func.func @squeeze_range(%x: tensor<1x3xf32>) {
  // expected-error @+1 {{axis 2 is out of range for rank 2}}
  %0 = relay.squeeze %x {axis = array<i64: 2>} : (tensor<1x3xf32>) -> tensor<1x3xf32>
  return
}

// -----

func.func @expand_dims_range(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{axis 3 is out of range [-rank - 1, rank] for rank 2}}
  %0 = relay.expand_dims %x {axis = 3 : i64} : (tensor<2x3xf32>) -> tensor<2x3x1xf32>
  return
}

// -----

func.func @expand_dims_count(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{num_newaxis must be >= 0, got -1}}
  %0 = relay.expand_dims %x {axis = 0 : i64, num_newaxis = -1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

// The shape is built dim by dim: 2^31 new axes used to exhaust the memory.
func.func @expand_dims_huge_count(%x: tensor<f32>) {
  // expected-error @+1 {{num_newaxis 2147483648 would give rank 0 + 2147483648, more than the 64 dims supported}}
  %0 = relay.expand_dims %x {axis = 0 : i64, num_newaxis = 2147483648 : i64} : (tensor<f32>) -> tensor<1x1xf32>
  return
}

// -----

func.func @stack_shape(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) {
  // expected-error @+1 {{operand #1 has shape [2, 4], but operand #0 has shape [2, 3] (stacked tensors must have the same shape)}}
  %0 = relay.stack %a, %b : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<2x2x3xf32>
  return
}

// -----

func.func @stack_dtype(%a: tensor<2xf32>, %b: tensor<2xi32>) {
  // expected-error @+1 {{operand #1 has dtype 'i32', but operand #0 has dtype 'f32'}}
  %0 = relay.stack %a, %b : (tensor<2xf32>, tensor<2xi32>) -> tensor<2x2xf32>
  return
}

// -----

func.func @stack_axis(%a: tensor<2xf32>) {
  // expected-error @+1 {{axis -3 is out of range [-rank - 1, rank] for rank 1}}
  %0 = relay.stack %a, %a {axis = -3 : i64} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
  return
}

// -----

func.func @split_divide(%x: tensor<5xf32>) {
  // expected-error @+1 {{2 sections do not divide the axis 0 dim 5}}
  %0 = relay.split %x {indices_or_sections = 2 : i64} : (tensor<5xf32>) -> tuple<tensor<2xf32>, tensor<2xf32>>
  return
}

// -----

// A section count is refused before a result type is made for each
// (fuzz: 2^31 sections of a `?` dim ran out of memory).
func.func @split_too_many_sections(%d: tensor<?x6xi32>) {
  // expected-error @+1 {{indices_or_sections = 2147483648 sections must be >= 1 and <= 65536}}
  %0 = relay.split %d {indices_or_sections = 2147483648 : i64} : (tensor<?x6xi32>) -> tuple<tensor<?x6xi32>, tensor<?x6xi32>>
  return
}

// -----

func.func @split_ascending(%x: tensor<5xf32>) {
  // expected-error @+1 {{indices_or_sections [3, 2] must be ascending and > 0}}
  %0 = relay.split %x {indices_or_sections = array<i64: 3, 2>} : (tensor<5xf32>) -> tuple<tensor<3xf32>, tensor<1xf32>, tensor<3xf32>>
  return
}

// -----

func.func @split_past(%x: tensor<5xf32>) {
  // expected-error @+1 {{split index 7 is past the axis 0 dim 5}}
  %0 = relay.split %x {indices_or_sections = array<i64: 7>} : (tensor<5xf32>) -> tuple<tensor<7xf32>, tensor<0xf32>>
  return
}

// -----

func.func @split_scalar(%x: tensor<f32>) {
  // expected-error @+1 {{cannot split a 0-d tensor}}
  %0 = relay.split %x {indices_or_sections = 1 : i64} : (tensor<f32>) -> tuple<tensor<f32>>
  return
}

// -----

func.func @strided_slice_empty(%x: tensor<4xf32>) {
  // expected-error @+1 {{begin 3 and end 1 select nothing on dim 0 (size 4) with stride 1}}
  %0 = relay.strided_slice %x {begin = array<i64: 3>, end = array<i64: 1>} : (tensor<4xf32>) -> tensor<0xf32>
  return
}

// -----

func.func @strided_slice_zero_stride(%x: tensor<4xf32>) {
  // expected-error @+1 {{strides entry 0 is 0}}
  %0 = relay.strided_slice %x {begin = array<i64: 0>, end = array<i64: 4>, strides = array<i64: 0>} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @strided_slice_axes(%x: tensor<4x4xf32>) {
  // expected-error @+1 {{with axes, begin, end and strides must have one entry per axis (axes has 1, begin 2, end 1, strides 0)}}
  %0 = relay.strided_slice %x {begin = array<i64: 0, 0>, end = array<i64: 4>, axes = array<i64: 1>} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @strided_slice_rank(%x: tensor<4xf32>) {
  // expected-error @+1 {{begin, end and strides may have at most rank = 1 entries (begin has 2, end 1, strides 0)}}
  %0 = relay.strided_slice %x {begin = array<i64: 0, 0>, end = array<i64: 4>} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @strided_slice_mode(%x: tensor<4xf32>) {
  // expected-error @+1 {{attribute 'slice_mode' failed to satisfy constraint: one of "end", "size"}}
  %0 = relay.strided_slice %x {begin = array<i64: 0>, end = array<i64: 4>, slice_mode = "stop"} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @tile_reps(%x: tensor<4xf32>) {
  // expected-error @+1 {{reps entries must be >= 1, got 0}}
  %0 = relay.tile %x {reps = array<i64: 0>} : (tensor<4xf32>) -> tensor<0xf32>
  return
}

// -----

func.func @repeat_count(%x: tensor<4xf32>) {
  // expected-error @+1 {{repeats must be >= 1, got 0}}
  %0 = relay.repeat %x {repeats = 0 : i64, axis = 0 : i64} : (tensor<4xf32>) -> tensor<0xf32>
  return
}

// -----

// dim * reps used to wrap around to a negative dim (RankedTensorType's
// assertion in the typing rule).
func.func @tile_overflow(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{output dim 3 * 4611686018427387904 overflows int64}}
  %0 = relay.tile %x {reps = array<i64: 2, 4611686018427387904>} : (tensor<2x3xf32>) -> tensor<4x9xf32>
  return
}

// -----

func.func @repeat_overflow(%x: tensor<2x3xi8>) {
  // expected-error @+1 {{output dim 3 * 4611686018427387904 overflows int64}}
  %0 = relay.repeat %x {repeats = 4611686018427387904 : i64, axis = 1 : i64} : (tensor<2x3xi8>) -> tensor<2x6xi8>
  return
}

// -----

func.func @repeat_axis(%x: tensor<4xf32>) {
  // expected-error @+1 {{axis 1 is out of range for rank 1}}
  %0 = relay.repeat %x {repeats = 2 : i64, axis = 1 : i64} : (tensor<4xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @reverse_axis(%x: tensor<4xf32>) {
  // expected-error @+1 {{axis -2 is out of range for rank 1}}
  %0 = relay.reverse %x {axis = -2 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @broadcast_to_shape(%x: tensor<3x2xf32>) {
  // expected-error @+1 {{data shape [3, 2] does not broadcast to target shape [3, 4]}}
  %0 = relay.broadcast_to %x {shape = array<i64: 3, 4>} : (tensor<3x2xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @broadcast_to_rank(%x: tensor<3x2xf32>) {
  // expected-error @+1 {{data shape [3, 2] does not broadcast to target shape [2]}}
  %0 = relay.broadcast_to %x {shape = array<i64: 2>} : (tensor<3x2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @broadcast_to_like(%x: tensor<3xf32>, %l: tensor<2x4xf32>) {
  // expected-error @+1 {{data shape [3] does not broadcast to target shape [2, 4]}}
  %0 = relay.broadcast_to_like %x, %l : (tensor<3xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @collapse_sum_like(%x: tensor<2x3xf32>, %l: tensor<2xf32>) {
  // expected-error @+1 {{collapse_type shape [2] does not broadcast to data shape [2, 3]}}
  %0 = relay.collapse_sum_like %x, %l : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @collapse_sum_like_dtype(%x: tensor<2x3xf32>, %l: tensor<3xi32>) {
  // expected-error @+1 {{collapse_type dtype 'i32' differs from data dtype 'f32'}}
  %0 = relay.collapse_sum_like %x, %l : (tensor<2x3xf32>, tensor<3xi32>) -> tensor<3xi32>
  return
}

// -----

func.func @zeros_shape() {
  // expected-error @+1 {{shape entries must be >= 0, got -1}}
  %0 = relay.zeros {shape = array<i64: -1>, dtype = f32} : () -> tensor<1xf32>
  return
}

// -----

func.func @full_scalar(%v: tensor<1xf32>) {
  // expected-error @+1 {{fill_value must be a 0-d tensor, got 'tensor<1xf32>'}}
  %0 = relay.full %v {shape = array<i64: 2>} : (tensor<1xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @full_like_scalar(%x: tensor<2xf32>, %v: tensor<2xf32>) {
  // expected-error @+1 {{fill_value must be a 0-d tensor, got 'tensor<2xf32>'}}
  %0 = relay.full_like %x, %v : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @arange_dtype(%a: tensor<f32>, %b: tensor<i32>) {
  // expected-error @+1 {{stop has dtype 'i32', but dtype is 'f32'}}
  %0 = relay.arange %a, %b, %a {dtype = f32} : (tensor<f32>, tensor<i32>, tensor<f32>) -> tensor<?xf32>
  return
}

// -----

func.func @arange_empty() {
  %a = relay.constant dense<5.0> : tensor<f32>
  %b = relay.constant dense<1.0> : tensor<f32>
  // expected-error @+1 {{arange(start = 5, stop = 1, step = 1) has no elements}}
  %0 = relay.arange %a, %b, %b {dtype = f32} : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1xf32>
  return
}

// -----

func.func @arange_step() {
  %a = relay.constant dense<0> : tensor<i32>
  // expected-error @+1 {{step is 0}}
  %0 = relay.arange %a, %a, %a {dtype = i32} : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1xi32>
  return
}

// -----

func.func @layout_rank(%x: tensor<1x2x3xf32>) {
  // expected-error @+1 {{src_layout "NCHW" has 4 axes, but data has rank 3}}
  %0 = relay.layout_transform %x {src_layout = "NCHW", dst_layout = "NHWC"} : (tensor<1x2x3xf32>) -> tensor<1x2x3xf32>
  return
}

// -----

func.func @layout_axes(%x: tensor<1x2x3x4xf32>) {
  // expected-error @+1 {{src_layout "NCHW" and dst_layout "NCDW" must have the same primal (upper-case) axes}}
  %0 = relay.layout_transform %x {src_layout = "NCHW", dst_layout = "NCDW"} : (tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xf32>
  return
}

// -----

func.func @layout_block(%x: tensor<1x6x3x4xf32>) {
  // expected-error @+1 {{axis C of size 6 does not split into blocks of 4}}
  %0 = relay.layout_transform %x {src_layout = "NCHW", dst_layout = "NCHW4c"} : (tensor<1x6x3x4xf32>) -> tensor<1x1x3x4x4xf32>
  return
}

// -----

func.func @layout_sub(%x: tensor<1x6x3x4xf32>) {
  // expected-error @+1 {{dst_layout "NHW4c" has sub-axis c without its primal axis C}}
  %0 = relay.layout_transform %x {src_layout = "NCHW", dst_layout = "NHW4c"} : (tensor<1x6x3x4xf32>) -> tensor<1x3x4x4xf32>
  return
}

// -----

func.func @layout_syntax(%x: tensor<1x6x3x4xf32>) {
  // expected-error @+1 {{dst_layout "NC4HW" gives a factor to the primal axis H}}
  %0 = relay.layout_transform %x {src_layout = "NCHW", dst_layout = "NC4HW"} : (tensor<1x6x3x4xf32>) -> tensor<1x6x3x4xf32>
  return
}

// -----

func.func @layout_sub_dim(%x: tensor<1x2x3x4x8xf32>) {
  // expected-error @+1 {{data dim 4 is 8, but src_layout says 4}}
  %0 = relay.layout_transform %x {src_layout = "NCHW4c", dst_layout = "NCHW"} : (tensor<1x2x3x4x8xf32>) -> tensor<1x8x3x4xf32>
  return
}

// -----

func.func @einsum_terms(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{equation "ij,jk->ik" has 2 input terms, but there are 1 operands}}
  %0 = relay.einsum %a {equation = "ij,jk->ik"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @einsum_rank(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{input term 0 "ijk" has 3 labels, but operand #0 has rank 2}}
  %0 = relay.einsum %a {equation = "ijk->i"} : (tensor<2x3xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @einsum_size(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) {
  // expected-error @+1 {{label 'j' has size 3 and 4 (operand #1 dim 0)}}
  %0 = relay.einsum %a, %b {equation = "ij,jk->ik"} : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return
}

// -----

func.func @einsum_output(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{output term "iz" has 'z', which no input term has}}
  %0 = relay.einsum %a {equation = "ij->iz"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @einsum_char(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{input term 0 "i1" has '1', which is not a letter}}
  %0 = relay.einsum %a {equation = "i1->i"} : (tensor<2x3xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @einsum_dtype(%a: tensor<2x3xf32>, %b: tensor<3xf16>) {
  // expected-error @+1 {{operand #1 has dtype 'f16', but operand #0 has dtype 'f32'}}
  %0 = relay.einsum %a, %b {equation = "ij,j->i"} : (tensor<2x3xf32>, tensor<3xf16>) -> tensor<2xf32>
  return
}
