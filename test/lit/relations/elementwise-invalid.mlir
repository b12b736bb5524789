// RUN: relay-mlir-opt %s -split-input-file -verify-diagnostics

// Broadcast
func.func @broadcast_dims(%a: tensor<4x3xf32>, %b: tensor<2xf32>) {
  // expected-error @+1 {{operands are not broadcastable: dim 1 of the result would need 3 = 2}}
  %0 = relay.add %a, %b : (tensor<4x3xf32>, tensor<2xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @broadcast_dtypes(%a: tensor<4xf32>, %b: tensor<4xi32>) {
  // expected-error @+1 {{operand dtypes differ: lhs is 'f32', rhs is 'i32'}}
  %0 = relay.multiply %a, %b : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  return
}

// -----

// AxisIdentity
func.func @axis_identity(%x: tensor<2x10xf32>) {
  // expected-error @+1 {{axis -3 is out of range for rank 2}}
  %0 = relay.nn.softmax %x {axis = -3 : i64} : (tensor<2x10xf32>) -> tensor<2x10xf32>
  return
}

// -----

// Identity has no rule of its own: only the result type can disagree.
func.func @identity_result(%x: tensor<2x10xf32>) {
  // expected-error @+1 {{result #0 has type 'tensor<10x2xf32>' but its typing rule gives 'tensor<2x10xf32>'}}
  %0 = relay.exp %x : (tensor<2x10xf32>) -> tensor<10x2xf32>
  return
}

// -----

// Dtype classes (RelayDtypeTraits.td), checked by Identity and Broadcast.
func.func @float_operand(%x: tensor<4xi32>) {
  // expected-error @+1 {{operand 'data' must be a float tensor, got 'i32'}}
  %0 = relay.sin %x : (tensor<4xi32>) -> tensor<4xi32>
  return
}

// -----

func.func @float_operand_exp(%x: tensor<4xi32>) {
  // expected-error @+1 {{operand 'data' must be a float tensor, got 'i32'}}
  %0 = relay.exp %x : (tensor<4xi32>) -> tensor<4xi32>
  return
}

// -----

func.func @float_operand_acosh(%x: tensor<4xi32>) {
  // expected-error @+1 {{operand 'data' must be a float tensor, got 'i32'}}
  %0 = relay.acosh %x : (tensor<4xi32>) -> tensor<4xi32>
  return
}

// -----

func.func @float_operand_atanh_result(%x: tensor<4xf32>) {
  // expected-error @+1 {{result #0 has type 'tensor<4xf16>' but its typing rule gives 'tensor<4xf32>'}}
  %0 = relay.atanh %x : (tensor<4xf32>) -> tensor<4xf16>
  return
}

// -----

func.func @numeric_operand_trunc_mod(%x: tensor<4xi1>) {
  // expected-error @+1 {{operands must be float or integer tensors, got 'i1'}}
  %0 = relay.trunc_mod %x, %x : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return
}

// -----

func.func @trunc_divide_broadcast(%a: tensor<4x3xi32>, %b: tensor<2xi32>) {
  // expected-error @+1 {{operands are not broadcastable: dim 1 of the result would need 3 = 2}}
  %0 = relay.trunc_divide %a, %b : (tensor<4x3xi32>, tensor<2xi32>) -> tensor<4x3xi32>
  return
}

// -----

func.func @numeric_operand(%x: tensor<4xi1>) {
  // expected-error @+1 {{operand 'data' must be a float or integer tensor, got 'i1'}}
  %0 = relay.abs %x : (tensor<4xi1>) -> tensor<4xi1>
  return
}

// -----

func.func @numeric_clip(%x: tensor<4xi1>) {
  // expected-error @+1 {{operand 'data' must be a float or integer tensor, got 'i1'}}
  %0 = relay.clip %x {a_min = 0.0 : f64, a_max = 1.0 : f64} : (tensor<4xi1>) -> tensor<4xi1>
  return
}

// -----

func.func @bool_operand(%x: tensor<4xi8>) {
  // expected-error @+1 {{operand 'data' must be a bool tensor, got 'i8'}}
  %0 = relay.logical_not %x : (tensor<4xi8>) -> tensor<4xi8>
  return
}

// -----

func.func @integer_or_bool_operand(%x: tensor<4xf16>) {
  // expected-error @+1 {{operand 'data' must be an integer or bool tensor, got 'f16'}}
  %0 = relay.bitwise_not %x : (tensor<4xf16>) -> tensor<4xf16>
  return
}

// -----

// IdentityBool: float tests take floats and give bools.
func.func @isnan_int(%x: tensor<4xi32>) {
  // expected-error @+1 {{operand 'data' must be a float tensor, got 'i32'}}
  %0 = relay.isnan %x : (tensor<4xi32>) -> tensor<4xi1>
  return
}

// -----

func.func @isnan_result(%x: tensor<4xf32>) {
  // expected-error @+1 {{result #0 has type 'tensor<4xf32>' but its typing rule gives 'tensor<4xi1>'}}
  %0 = relay.isnan %x : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @bitwise_float(%a: tensor<4xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{operands must be integer or bool tensors, got 'f32'}}
  %0 = relay.bitwise_and %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @logical_int(%a: tensor<4xi32>, %b: tensor<4xi32>) {
  // expected-error @+1 {{operands must be bool tensors, got 'i32'}}
  %0 = relay.logical_or %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return
}

// -----

func.func @shift_bool(%a: tensor<4xi1>, %b: tensor<4xi1>) {
  // expected-error @+1 {{operands must be integer tensors, got 'i1'}}
  %0 = relay.left_shift %a, %b : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return
}

// -----

func.func @power_int(%a: tensor<4xi32>, %b: tensor<4xi32>) {
  // expected-error @+1 {{operands must be float tensors, got 'i32'}}
  %0 = relay.power %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return
}

// -----

func.func @floor_mod_bool(%a: tensor<4xi1>, %b: tensor<4xi1>) {
  // expected-error @+1 {{operands must be float or integer tensors, got 'i1'}}
  %0 = relay.floor_mod %a, %b : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return
}

// -----

// BroadcastBool: Broadcast's rules, bool result.
func.func @compare_dtypes(%a: tensor<4xf32>, %b: tensor<4xf16>) {
  // expected-error @+1 {{operand dtypes differ: lhs is 'f32', rhs is 'f16'}}
  %0 = relay.less %a, %b : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xi1>
  return
}

// -----

func.func @compare_dims(%a: tensor<4x3xi32>, %b: tensor<2xi32>) {
  // expected-error @+1 {{operands are not broadcastable: dim 1 of the result would need 3 = 2}}
  %0 = relay.equal %a, %b : (tensor<4x3xi32>, tensor<2xi32>) -> tensor<4x3xi1>
  return
}

// -----

func.func @compare_result(%a: tensor<4xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{result #0 has type 'tensor<4xf32>' but its typing rule gives 'tensor<4xi1>'}}
  %0 = relay.greater %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// Where
func.func @where_dtypes(%c: tensor<4xi1>, %x: tensor<4xf32>, %y: tensor<4xi32>) {
  // expected-error @+1 {{x and y dtypes differ: x is 'f32', y is 'i32'}}
  %0 = relay.where %c, %x, %y : (tensor<4xi1>, tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  return
}

// -----

func.func @where_xy_dims(%c: tensor<4xi1>, %x: tensor<3xf32>, %y: tensor<2xf32>) {
  // expected-error @+1 {{operands are not broadcastable: dim 0 of the result would need 3 = 2}}
  %0 = relay.where %c, %x, %y : (tensor<4xi1>, tensor<3xf32>, tensor<2xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @where_cond_dims(%c: tensor<4xi1>, %x: tensor<3xf32>, %y: tensor<3xf32>) {
  // expected-error @+1 {{operands are not broadcastable: dim 0 of the result would need 4 = 3}}
  %0 = relay.where %c, %x, %y : (tensor<4xi1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

// Cast, CastLike
func.func @cast_dtype(%x: tensor<4xf32>) {
  // expected-error @+1 {{dtype must be an integer, float or bool element type, got 'index'}}
  %0 = relay.cast %x {dtype = index} : (tensor<4xf32>) -> tensor<4xindex>
  return
}

// -----

func.func @cast_result(%x: tensor<4xf32>) {
  // expected-error @+1 {{result #0 has type 'tensor<4xf32>' but its typing rule gives 'tensor<4xi8>'}}
  %0 = relay.cast %x {dtype = i8} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @cast_like_result(%x: tensor<4xf32>, %l: tensor<2x2xf16>) {
  // expected-error @+1 {{result #0 has type 'tensor<2x2xf16>' but its typing rule gives 'tensor<4xf16>'}}
  %0 = relay.cast_like %x, %l : (tensor<4xf32>, tensor<2x2xf16>) -> tensor<2x2xf16>
  return
}

// -----

// reinterpret (TVM 0.19's): the bits must keep their width.
func.func @reinterpret_width(%x: tensor<4xf32>) {
  // expected-error @+1 {{dtype 'i64' has 64 bits, data dtype 'f32' 32}}
  %0 = relay.reinterpret %x {dtype = i64} : (tensor<4xf32>) -> tensor<4xi64>
  return
}

// -----

func.func @reinterpret_dtype(%x: tensor<4xf32>) {
  // expected-error @+1 {{dtype must be an integer, float or bool element type, got 'index'}}
  %0 = relay.reinterpret %x {dtype = index} : (tensor<4xf32>) -> tensor<4xindex>
  return
}
