// RUN: relay-mlir-opt %s -split-input-file -verify-diagnostics

func.func @take_float_indices(%x: tensor<4x3xf32>, %i: tensor<2xf32>) {
  // expected-error @+1 {{operand 'indices' must be an integer tensor, got 'tensor<2xf32>'}}
  %0 = relay.take %x, %i {axis = 0 : i64} : (tensor<4x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @take_mode(%x: tensor<4x3xf32>, %i: tensor<2xi32>) {
  // expected-error @+1 {{attribute 'mode' failed to satisfy constraint: one of "clip", "wrap", "fast", "nan"}}
  %0 = relay.take %x, %i {axis = 0 : i64, mode = "raise"} : (tensor<4x3xf32>, tensor<2xi32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @take_axis(%x: tensor<4x3xf32>, %i: tensor<2xi32>) {
  // expected-error @+1 {{axis 2 is out of range for rank 2}}
  %0 = relay.take %x, %i {axis = 2 : i64} : (tensor<4x3xf32>, tensor<2xi32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @take_batch_dims(%x: tensor<4x3xf32>, %i: tensor<4x2xi32>) {
  // expected-error @+1 {{batch_dims 1 must be in [0, min(axis, rank of 'indices')] = [0, 0]}}
  %0 = relay.take %x, %i {axis = 0 : i64, batch_dims = 1 : i64} : (tensor<4x3xf32>, tensor<4x2xi32>) -> tensor<4x2x3xf32>
  return
}

// -----

func.func @take_batch_mismatch(%x: tensor<4x3xf32>, %i: tensor<5x2xi32>) {
  // expected-error @+1 {{batch dim 0 of 'data' (4) and 'indices' (5) must agree}}
  %0 = relay.take %x, %i {axis = 1 : i64, batch_dims = 1 : i64} : (tensor<4x3xf32>, tensor<5x2xi32>) -> tensor<4x2xf32>
  return
}

// -----

func.func @gather_rank(%x: tensor<4x3xf32>, %i: tensor<2xi32>) {
  // expected-error @+1 {{operand 'indices' must have the rank of 'data' (2), got 'tensor<2xi32>'}}
  %0 = relay.gather %x, %i {axis = 0 : i64} : (tensor<4x3xf32>, tensor<2xi32>) -> tensor<2xf32>
  return
}

// -----

func.func @gather_nd_too_many(%x: tensor<4x3xf32>, %i: tensor<3x2xi32>) {
  // expected-error @+1 {{dim 0 of 'indices' (3) + batch_dims (0) must be <= rank of 'data' (2)}}
  %0 = relay.gather_nd %x, %i : (tensor<4x3xf32>, tensor<3x2xi32>) -> tensor<2xf32>
  return
}

// -----

func.func @gather_nd_dynamic_m(%x: tensor<4x3xf32>, %i: tensor<?x2xi32>) {
  // expected-error @+1 {{dim 0 of 'indices' (the index tuple size) must be static or given by index_rank}}
  %0 = relay.gather_nd %x, %i : (tensor<4x3xf32>, tensor<?x2xi32>) -> tensor<2xf32>
  return
}

// -----

func.func @scatter_elements_shapes(%x: tensor<4x3xf32>, %i: tensor<2x3xi32>, %u: tensor<2x2xf32>) {
  // expected-error @+1 {{operands 'indices' and 'updates' must have one shape, got 'tensor<2x3xi32>' and 'tensor<2x2xf32>'}}
  %0 = relay.scatter_elements %x, %i, %u : (tensor<4x3xf32>, tensor<2x3xi32>, tensor<2x2xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @scatter_elements_reduction(%x: tensor<4x3xf32>, %i: tensor<2x3xi32>, %u: tensor<2x3xf32>) {
  // expected-error @+1 {{attribute 'reduction' failed to satisfy constraint: one of "update", "add", "mul", "mean", "min", "max"}}
  %0 = relay.scatter_elements %x, %i, %u {reduction = "sub"} : (tensor<4x3xf32>, tensor<2x3xi32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @scatter_dtype(%x: tensor<4x3xf32>, %i: tensor<2x3xi32>, %u: tensor<2x3xi32>) {
  // expected-error @+1 {{operand 'updates' must have the dtype of 'data' ('f32'), got 'i32'}}
  %0 = relay.scatter_elements %x, %i, %u : (tensor<4x3xf32>, tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @scatter_nd_updates(%x: tensor<4x3xf32>, %i: tensor<1x2xi32>, %u: tensor<2x4xf32>) {
  // expected-error @+1 {{operand 'updates' must have shape indices.shape[1:] + data.shape[M:] = [2, 3], got 'tensor<2x4xf32>'}}
  %0 = relay.scatter_nd %x, %i, %u : (tensor<4x3xf32>, tensor<1x2xi32>, tensor<2x4xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @one_hot_on_value(%i: tensor<3xi32>, %on: tensor<1xf32>, %off: tensor<f32>) {
  // expected-error @+1 {{operand 'on_value' must have rank 0, got 'tensor<1xf32>'}}
  %0 = relay.one_hot %i, %on, %off {depth = 4 : i64, dtype = f32} : (tensor<3xi32>, tensor<1xf32>, tensor<f32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @one_hot_dtype(%i: tensor<3xi32>, %on: tensor<i32>, %off: tensor<i32>) {
  // expected-error @+1 {{operand 'on_value' must have dtype 'f32', got 'i32'}}
  %0 = relay.one_hot %i, %on, %off {depth = 4 : i64, dtype = f32} : (tensor<3xi32>, tensor<i32>, tensor<i32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @one_hot_axis(%i: tensor<3xi32>, %on: tensor<f32>, %off: tensor<f32>) {
  // expected-error @+1 {{axis 2 is out of range [-1, 1]}}
  %0 = relay.one_hot %i, %on, %off {depth = 4 : i64, axis = 2 : i64, dtype = f32} : (tensor<3xi32>, tensor<f32>, tensor<f32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @cumsum_axis(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{axis 2 is out of range for rank 2}}
  %0 = relay.cumsum %x {axis = 2 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @cumsum_flatten(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{result #0 has type 'tensor<2x3xf32>' but its typing rule gives 'tensor<6xf32>'}}
  %0 = relay.cumsum %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @sort_axis(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{axis -3 is out of range for rank 2}}
  %0 = relay.sort %x {axis = -3 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @topk_k(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{k 4 must be <= dim 1 of 'data' (3)}}
  %0 = relay.topk %x {k = 4 : i64} : (tensor<2x3xf32>) -> tuple<tensor<2x4xf32>, tensor<2x4xi32>>
  return
}

// -----

func.func @topk_ret_type(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{attribute 'ret_type' failed to satisfy constraint: one of "both", "values", "indices"}}
  %0 = relay.topk %x {ret_type = "all"} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return
}

// -----

func.func @topk_dtype(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{dtype must be an integer type, got 'f32'}}
  %0 = relay.topk %x {dtype = f32} : (tensor<2x3xf32>) -> tuple<tensor<2x1xf32>, tensor<2x1xf32>>
  return
}
