// RUN: relay-mlir-opt %s -split-input-file -verify-diagnostics

func.func @shape_of_float_dtype(%x: tensor<2xf32>) {
  // expected-error @+1 {{'relay.shape_of' op dtype must be an integer type of 8 bits or more, got 'f32'}}
  %0 = relay.shape_of %x {dtype = f32} : (tensor<2xf32>) -> tensor<1xf32>
  return
}

// -----

func.func @shape_of_wrong_result(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{result #0 has type 'tensor<3xi32>' but its typing rule gives 'tensor<2xi32>'}}
  %0 = relay.shape_of %x : (tensor<2x3xf32>) -> tensor<3xi32>
  return
}

// -----

func.func @reshape_newshape_rank(%x: tensor<6xf32>, %s: tensor<2x1xi64>) {
  // expected-error @+1 {{newshape}}
  %0 = relay.dyn.reshape %x, %s : (tensor<6xf32>, tensor<2x1xi64>) -> tensor<?x?xf32>
  return
}

// -----

func.func @reshape_unknown_rank(%x: tensor<6xf32>, %s: tensor<?xi64>) {
  // expected-error @+1 {{'relay.dyn.reshape' op the length of newshape (the rank of the result) must be known, got 'tensor<?xi64>'}}
  %0 = relay.dyn.reshape %x, %s : (tensor<6xf32>, tensor<?xi64>) -> tensor<?xf32>
  return
}

// -----

func.func @reshape_float_shape(%x: tensor<6xf32>, %s: tensor<2xf32>) {
  // expected-error @+1 {{'relay.dyn.reshape' op newshape must be an integer tensor, got 'tensor<2xf32>'}}
  %0 = relay.dyn.reshape %x, %s : (tensor<6xf32>, tensor<2xf32>) -> tensor<?x?xf32>
  return
}

// -----

func.func @broadcast_lower_rank(%x: tensor<2x3xf32>, %s: tensor<1xi64>) {
  // expected-error @+1 {{'relay.dyn.broadcast_to' op cannot broadcast a rank-2 tensor to rank 1}}
  %0 = relay.dyn.broadcast_to %x, %s : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<?xf32>
  return
}

// -----

func.func @full_not_scalar(%v: tensor<2xf32>, %s: tensor<2xi64>) {
  // expected-error @+1 {{'relay.dyn.full' op fill_value must be a 0-d tensor, got 'tensor<2xf32>'}}
  %0 = relay.dyn.full %v, %s : (tensor<2xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return
}

// -----

func.func @zeros_bool_shape(%s: tensor<2xi1>) {
  // expected-error @+1 {{'relay.dyn.zeros' op shape must be an integer tensor, got 'tensor<2xi1>'}}
  %0 = relay.dyn.zeros %s {dtype = f32} : (tensor<2xi1>) -> tensor<?x?xf32>
  return
}

// -----

// entries known at compile time are checked at compile time
func.func @reshape_known_count(%x: tensor<2x3xf32>) {
  %s = relay.constant dense<[4, 2]> : tensor<2xi64>
  // expected-error @+1 {{cannot reshape 'tensor<2x3xf32>' (6 elements) to a shape with 8 elements}}
  %0 = relay.dyn.reshape %x, %s : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return
}

// -----

func.func @reshape_two_wildcards(%x: tensor<2x3xf32>) {
  %s = relay.constant dense<[-1, -1]> : tensor<2xi64>
  // expected-error @+1 {{newshape entry 1 is -1 (only one -1 and no other negative value is allowed)}}
  %0 = relay.dyn.reshape %x, %s : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return
}

// -----

func.func @full_negative(%v: tensor<f32>, %n: tensor<1xi64>) {
  %c = relay.constant dense<-2> : tensor<1xi64>
  %s = relay.concatenate %n, %c : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  // expected-error @+1 {{shape entry 1 is negative (-2)}}
  %0 = relay.dyn.full %v, %s : (tensor<f32>, tensor<2xi64>) -> tensor<?x?xf32>
  return
}

// -----

func.func @broadcast_known_mismatch(%v: tensor<3xf32>) {
  %s = relay.constant dense<[2, 4]> : tensor<2xi64>
  // expected-error @+1 {{cannot broadcast 'tensor<3xf32>' to a shape with entry 1 = 4}}
  %0 = relay.dyn.broadcast_to %v, %s : (tensor<3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return
}

// -----

// Found by fuzz/mlir_mutate.py (seed 40): a shape vector of 2^62 entries made
// the rule build a result of that rank (LLVM ERROR: SmallVector unable to grow).
func.func @huge_rank(%s: tensor<4611686018427387904xi64>) -> tensor<?x?xi8> {
  // expected-error @+1 {{'relay.dyn.zeros' op shape has 4611686018427387904 entries: a result of that rank is more than the 64 dims supported}}
  %z = relay.dyn.zeros %s {dtype = i8} : (tensor<4611686018427387904xi64>) -> tensor<?x?xi8>
  return %z : tensor<?x?xi8>
}

// -----

// A shape vector made of pieces declared longer than the result: inference
// (run before the concatenate's own verifier) does not look into them.
func.func @shape_pieces_too_long(%x: tensor<4x6xf32>, %n: tensor<4611686018427387904xi64>, %m: tensor<1xi64>) -> !relay.incomplete {
  // expected-error @+1 {{'relay.concatenate' op result #0 has type 'tensor<2xi64>' but its typing rule gives 'tensor<4611686018427387905xi64>'}}
  %t = relay.concatenate %n, %m : (tensor<4611686018427387904xi64>, tensor<1xi64>) -> tensor<2xi64>
  %a = relay.dyn.reshape %x, %t : (tensor<4x6xf32>, tensor<2xi64>) -> !relay.incomplete
  return %a : !relay.incomplete
}

// -----

func.func @strided_slice_lengths(%x: tensor<4x5xf32>, %b: tensor<1xi64>, %e: tensor<2xi64>) {
  // expected-error @+1 {{'relay.dyn.strided_slice' op begin and end must have the same length (got 1 and 2)}}
  %0 = relay.dyn.strided_slice %x, %b, %e, %b : (tensor<4x5xf32>, tensor<1xi64>, tensor<2xi64>, tensor<1xi64>) -> tensor<?x?xf32>
  return
}

// -----

func.func @strided_slice_too_long(%x: tensor<4xf32>, %b: tensor<2xi64>) {
  // expected-error @+1 {{'relay.dyn.strided_slice' op begin has 2 entries for a rank-1 tensor}}
  %0 = relay.dyn.strided_slice %x, %b, %b, %b : (tensor<4xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?xf32>
  return
}

// -----

func.func @strided_slice_strides(%x: tensor<4x5x6xf32>, %b: tensor<3xi64>, %s: tensor<2xi64>) {
  // expected-error @+1 {{'relay.dyn.strided_slice' op strides must have 1 or 3 entries, got 2}}
  %0 = relay.dyn.strided_slice %x, %b, %b, %s : (tensor<4x5x6xf32>, tensor<3xi64>, tensor<3xi64>, tensor<2xi64>) -> tensor<?x?x?xf32>
  return
}

// -----

func.func @strided_slice_float_begin(%x: tensor<4xf32>, %b: tensor<1xf32>, %e: tensor<1xi64>) {
  // expected-error @+1 {{'relay.dyn.strided_slice' op begin must be an integer tensor, got 'tensor<1xf32>'}}
  %0 = relay.dyn.strided_slice %x, %b, %e, %e : (tensor<4xf32>, tensor<1xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<?xf32>
  return
}

// -----

func.func @strided_slice_static_result(%x: tensor<4xf32>, %b: tensor<1xi64>) {
  // expected-error @+1 {{result #0 has type 'tensor<?xi32>' but its typing rule gives 'tensor<?xf32>'}}
  %0 = relay.dyn.strided_slice %x, %b, %b, %b : (tensor<4xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?xi32>
  return
}

// -----

func.func @tile_negative(%x: tensor<4xf32>) {
  %r = relay.constant dense<[-2]> : tensor<1xi64>
  // expected-error @+1 {{'relay.dyn.tile' op reps entry 0 is negative (-2)}}
  %0 = relay.dyn.tile %x, %r : (tensor<4xf32>, tensor<1xi64>) -> tensor<?xf32>
  return
}

// -----

func.func @tile_unknown_length(%x: tensor<4xf32>, %r: tensor<?xi64>) {
  // expected-error @+1 {{'relay.dyn.tile' op the length of reps (the rank of the result) must be known, got 'tensor<?xi64>'}}
  %0 = relay.dyn.tile %x, %r : (tensor<4xf32>, tensor<?xi64>) -> tensor<?xf32>
  return
}

// -----

func.func @pad_width_shape(%x: tensor<4x5xf32>, %w: tensor<3x2xi64>, %v: tensor<f32>) {
  // expected-error @+1 {{'relay.dyn.nn.pad' op pad_width must be a (2, 2) integer tensor, got 'tensor<3x2xi64>'}}
  %0 = relay.dyn.nn.pad %x, %w, %v : (tensor<4x5xf32>, tensor<3x2xi64>, tensor<f32>) -> tensor<?x?xf32>
  return
}

// -----

func.func @pad_value_dtype(%x: tensor<4x5xf32>, %w: tensor<2x2xi64>, %v: tensor<i32>) {
  // expected-error @+1 {{'relay.dyn.nn.pad' op pad_value dtype 'i32' ≠ data dtype 'f32'}}
  %0 = relay.dyn.nn.pad %x, %w, %v : (tensor<4x5xf32>, tensor<2x2xi64>, tensor<i32>) -> tensor<?x?xf32>
  return
}

// -----

func.func @one_hot_depth_vector(%i: tensor<3xi32>, %v: tensor<f32>, %d: tensor<2xi32>) {
  // expected-error @+1 {{'relay.dyn.one_hot' op depth must be an integer tensor of one element (0-d or 1-d), got 'tensor<2xi32>'}}
  %0 = relay.dyn.one_hot %i, %v, %v, %d {dtype = f32} : (tensor<3xi32>, tensor<f32>, tensor<f32>, tensor<2xi32>) -> tensor<3x?xf32>
  return
}

// -----

func.func @one_hot_negative_depth(%i: tensor<3xi32>, %v: tensor<f32>) {
  %d = relay.constant dense<-1> : tensor<i32>
  // expected-error @+1 {{'relay.dyn.one_hot' op depth is negative (-1)}}
  %0 = relay.dyn.one_hot %i, %v, %v, %d {dtype = f32} : (tensor<3xi32>, tensor<f32>, tensor<f32>, tensor<i32>) -> tensor<3x?xf32>
  return
}

// -----

func.func @squeeze_too_many(%x: tensor<1x1xf32>, %a: tensor<3xi64>) {
  // expected-error @+1 {{'relay.dyn.squeeze' op axis has 3 entries for a rank-2 tensor}}
  %0 = relay.dyn.squeeze %x, %a : (tensor<1x1xf32>, tensor<3xi64>) -> tensor<?xf32>
  return
}

// -----

func.func @expand_dims_axis_vector(%x: tensor<4xf32>, %a: tensor<2xi64>) {
  // expected-error @+1 {{'relay.dyn.expand_dims' op axis must be an integer tensor of one element (0-d or 1-d), got 'tensor<2xi64>'}}
  %0 = relay.dyn.expand_dims %x, %a : (tensor<4xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return
}

// -----

func.func @topk_axis(%x: tensor<4xf32>, %k: tensor<i64>) {
  // expected-error @+1 {{'relay.dyn.topk' op axis}}
  %0 = relay.dyn.topk %x, %k {axis = 3 : i64} : (tensor<4xf32>, tensor<i64>) -> tuple<tensor<?xf32>, tensor<?xi32>>
  return
}

// -----

func.func @topk_float_k(%x: tensor<4xf32>, %k: tensor<f32>) {
  // expected-error @+1 {{'relay.dyn.topk' op k must be an integer tensor of one element (0-d or 1-d), got 'tensor<f32>'}}
  %0 = relay.dyn.topk %x, %k : (tensor<4xf32>, tensor<f32>) -> tuple<tensor<?xf32>, tensor<?xi32>>
  return
}

// -----

func.func @strided_set_v_dtype(%x: tensor<4x5xf32>, %v: tensor<1x5xi32>, %b: tensor<1xi64>) {
  // expected-error @+1 {{'relay.strided_set' op v has element type 'i32', data 'f32'}}
  %0 = relay.strided_set %x, %v, %b, %b, %b : (tensor<4x5xf32>, tensor<1x5xi32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<4x5xf32>
  return
}

// -----

func.func @strided_set_v_rank(%x: tensor<4x5xf32>, %v: tensor<5xf32>, %b: tensor<1xi64>) {
  // expected-error @+1 {{'relay.strided_set' op v has rank 1, data 2}}
  %0 = relay.strided_set %x, %v, %b, %b, %b : (tensor<4x5xf32>, tensor<5xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<4x5xf32>
  return
}

// -----

func.func @strided_set_whole_dim(%x: tensor<4x5xf32>, %v: tensor<1x3xf32>, %b: tensor<1xi64>) {
  // expected-error @+1 {{'relay.strided_set' op v's dim 1 is 3 where the slice takes all 5}}
  %0 = relay.strided_set %x, %v, %b, %b, %b : (tensor<4x5xf32>, tensor<1x3xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<4x5xf32>
  return
}

// -----

func.func @strided_set_lengths(%x: tensor<4x5xf32>, %v: tensor<1x5xf32>, %b: tensor<1xi64>, %e: tensor<2xi64>) {
  // expected-error @+1 {{'relay.strided_set' op begin and end must have the same length (got 1 and 2)}}
  %0 = relay.strided_set %x, %v, %b, %e, %b : (tensor<4x5xf32>, tensor<1x5xf32>, tensor<1xi64>, tensor<2xi64>, tensor<1xi64>) -> tensor<4x5xf32>
  return
}
