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
