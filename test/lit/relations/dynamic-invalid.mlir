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
