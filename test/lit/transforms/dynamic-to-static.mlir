// RUN: relay-mlir-opt %s -relay-dynamic-to-static | FileCheck %s

// A constant shape makes dyn.reshape a static reshape; the types after it
// are inferred again (the relu and the signature become static).
// CHECK-LABEL: func.func @reshape(%{{.*}}: tensor<6xf32>) -> tensor<3x2xf32>
func.func @reshape(%x: tensor<6xf32>) -> tensor<?x?xf32> {
  %s = relay.constant dense<[3, -1]> : tensor<2xi64>
  // CHECK: relay.reshape %{{.*}} {newshape = array<i64: 3, -1>} : (tensor<6xf32>) -> tensor<3x2xf32>
  // CHECK: relay.nn.relu %{{.*}} : (tensor<3x2xf32>) -> tensor<3x2xf32>
  // CHECK-NOT: relay.dyn
  %y = relay.dyn.reshape %x, %s : (tensor<6xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %z = relay.nn.relu %y : (tensor<?x?xf32>) -> tensor<?x?xf32>
  return %z : tensor<?x?xf32>
}

// shape_of of a static tensor is a constant, which makes the broadcast and
// the zeros static in the next round.
// CHECK-LABEL: func.func @chain(%{{.*}}: tensor<2x3xf32>, %{{.*}}: tensor<f32>) -> (tensor<2x3xf32>, tensor<2x3xi32>)
func.func @chain(%x: tensor<2x3xf32>, %v: tensor<f32>) -> (tensor<?x?xf32>, tensor<?x?xi32>) {
  // CHECK: relay.broadcast_to %{{.*}} {shape = array<i64: 2, 3>} : (tensor<f32>) -> tensor<2x3xf32>
  // CHECK: relay.zeros {{ *}}{dtype = i32, shape = array<i64: 2, 3>} : () -> tensor<2x3xi32>
  %s = relay.shape_of %x {dtype = i64} : (tensor<2x3xf32>) -> tensor<2xi64>
  %b = relay.dyn.broadcast_to %v, %s : (tensor<f32>, tensor<2xi64>) -> tensor<?x?xf32>
  %z = relay.dyn.zeros %s {dtype = i32} : (tensor<2xi64>) -> tensor<?x?xi32>
  return %b, %z : tensor<?x?xf32>, tensor<?x?xi32>
}

// A run-time shape stays dynamic.
// CHECK-LABEL: func.func @runtime
func.func @runtime(%x: tensor<6xf32>, %s: tensor<2xi64>) -> tensor<?x?xf32> {
  // CHECK: relay.dyn.reshape
  %y = relay.dyn.reshape %x, %s : (tensor<6xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

// A constant shape the static reshape's rule refuses (its dims' product
// overflows int64) leaves the dyn op, checked at run time.
// CHECK-LABEL: func.func @overflowing_shape
// CHECK: relay.dyn.reshape
func.func @overflowing_shape(%x: tensor<?xf32>) -> tensor<?x?xf32> {
  %s = relay.constant dense<[3, 4611686018427387904]> : tensor<2xi64>
  %y = relay.dyn.reshape %x, %s : (tensor<?xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

// Constant arguments make the dyn forms of slicing, tiling, padding and the
// index operators static; the types after them become static too.
// CHECK-LABEL: func.func @index_ops
// CHECK-SAME: -> (tensor<2x3xf32>, tensor<8x6xf32>, tensor<5x11xf32>, tensor<5x3xf32>, tensor<3xf32>, tensor<4x6x1x1xf32>, tensor<2x6xf32>)
func.func @index_ops(%x: tensor<4x6xf32>, %i: tensor<3xi32>, %s: tensor<1x3x1xf32>, %v: tensor<f32>) -> (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x3xf32>, tensor<?xf32>, tensor<?x?x?x?xf32>, tensor<?x6xf32>) {
  %b = relay.constant dense<[1, -1]> : tensor<2xi64>
  %e = relay.constant dense<[4, 0]> : tensor<2xi64>
  %st = relay.constant dense<[2, -2]> : tensor<2xi32>
  // CHECK: relay.strided_slice %{{.*}} {begin = array<i64: 1, -1>, end = array<i64: 4, 0>, strides = array<i64: 2, -2>} : (tensor<4x6xf32>) -> tensor<2x3xf32>
  %0 = relay.dyn.strided_slice %x, %b, %e, %st : (tensor<4x6xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi32>) -> tensor<?x?xf32>
  %r = relay.constant dense<[2, 1]> : tensor<2xi64>
  // CHECK: relay.tile %{{.*}} {reps = array<i64: 2, 1>} : (tensor<4x6xf32>) -> tensor<8x6xf32>
  %1 = relay.dyn.tile %x, %r : (tensor<4x6xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %w = relay.constant dense<[[1, 0], [2, 3]]> : tensor<2x2xi64>
  // CHECK: relay.nn.pad %{{.*}}, %{{.*}} {pad_mode = "reflect", pad_width = array<i64: 1, 0, 2, 3>} : (tensor<4x6xf32>, tensor<f32>) -> tensor<5x11xf32>
  %2 = relay.dyn.nn.pad %x, %w, %v {pad_mode = "reflect"} : (tensor<4x6xf32>, tensor<2x2xi64>, tensor<f32>) -> tensor<?x?xf32>
  %d = relay.constant dense<5> : tensor<1xi64>
  // CHECK: relay.one_hot %{{.*}}, %{{.*}}, %{{.*}} {axis = 0 : i64, depth = 5 : i64, dtype = f32} : (tensor<3xi32>, tensor<f32>, tensor<f32>) -> tensor<5x3xf32>
  %3 = relay.dyn.one_hot %i, %v, %v, %d {axis = 0 : i64, dtype = f32} : (tensor<3xi32>, tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<?x3xf32>
  %a = relay.constant dense<[0, -1]> : tensor<2xi64>
  // CHECK: relay.squeeze %{{.*}} {axis = array<i64: 0, -1>} : (tensor<1x3x1xf32>) -> tensor<3xf32>
  %4 = relay.dyn.squeeze %s, %a : (tensor<1x3x1xf32>, tensor<2xi64>) -> tensor<?xf32>
  %n = relay.constant dense<-1> : tensor<i64>
  // CHECK: relay.expand_dims %{{.*}} {axis = -1 : i64, num_newaxis = 2 : i64} : (tensor<4x6xf32>) -> tensor<4x6x1x1xf32>
  %5 = relay.dyn.expand_dims %x, %n {num_newaxis = 2 : i64} : (tensor<4x6xf32>, tensor<i64>) -> tensor<?x?x?x?xf32>
  %k = relay.constant dense<2> : tensor<i32>
  // CHECK: relay.topk %{{.*}} {axis = 0 : i64, k = 2 : i64, ret_type = "values"} : (tensor<4x6xf32>) -> tensor<2x6xf32>
  %6 = relay.dyn.topk %x, %k {axis = 0 : i64, ret_type = "values"} : (tensor<4x6xf32>, tensor<i32>) -> tensor<?x6xf32>
  // CHECK-NOT: relay.dyn
  return %0, %1, %2, %3, %4, %5, %6 : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x3xf32>, tensor<?xf32>, tensor<?x?x?x?xf32>, tensor<?x6xf32>
}

// Where the static op means something else (topk's k = 0 is the whole axis;
// a slice selecting nothing is an error of the static op) or refuses the
// values, the dyn op stays and its run-time semantics hold.
// CHECK-LABEL: func.func @kept_dynamic
func.func @kept_dynamic(%x: tensor<4x6xf32>) -> (tensor<?x6xf32>, tensor<?x6xf32>, tensor<?x?xf32>) {
  %k = relay.constant dense<0> : tensor<i32>
  // CHECK: relay.dyn.topk
  %0 = relay.dyn.topk %x, %k {axis = 0 : i64, ret_type = "values"} : (tensor<4x6xf32>, tensor<i32>) -> tensor<?x6xf32>
  %b = relay.constant dense<[3]> : tensor<1xi64>
  %e = relay.constant dense<[1]> : tensor<1xi64>
  %s = relay.constant dense<[1]> : tensor<1xi64>
  // CHECK: relay.dyn.strided_slice
  %1 = relay.dyn.strided_slice %x, %b, %e, %s : (tensor<4x6xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x6xf32>
  %r = relay.constant dense<[0, 1]> : tensor<2xi64>
  // CHECK: relay.dyn.tile
  %2 = relay.dyn.tile %x, %r : (tensor<4x6xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %0, %1, %2 : tensor<?x6xf32>, tensor<?x6xf32>, tensor<?x?xf32>
}
