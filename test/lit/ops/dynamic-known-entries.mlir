// RUN: relay-mlir-opt %s -relay-infer-type | FileCheck %s

// Shape values that are only partly known at compile time keep their known
// part: the dyn ops' result dims are static where the entries of the shape
// operand are (constants, static dims of a shape_of, through concatenate,
// take at constant indices, reshape/expand_dims/squeeze, integer casts and
// add/subtract/multiply), `?` elsewhere.

// CHECK-LABEL: func.func @reshape_heads(%{{.+}}: tensor<?x?x128xf32>) -> tensor<?x?x2x64xf32>
func.func @reshape_heads(%x: tensor<?x?x128xf32>) -> !relay.incomplete {
  %s = relay.shape_of %x {dtype = i64} : (tensor<?x?x128xf32>) -> tensor<3xi64>
  %i = relay.constant dense<[0, 1]> : tensor<2xi64>
  %bs = relay.take %s, %i {axis = 0 : i64} : (tensor<3xi64>, tensor<2xi64>) -> tensor<2xi64>
  %c = relay.constant dense<[2, 64]> : tensor<2xi64>
  %t = relay.concatenate %bs, %c : (tensor<2xi64>, tensor<2xi64>) -> tensor<4xi64>
  // CHECK: relay.dyn.reshape %{{.+}}, %{{.+}} : (tensor<?x?x128xf32>, tensor<4xi64>) -> tensor<?x?x2x64xf32>
  %y = relay.dyn.reshape %x, %t : (tensor<?x?x128xf32>, tensor<4xi64>) -> !relay.incomplete
  return %y : !relay.incomplete
}

// CHECK-LABEL: func.func @reshape_codes
func.func @reshape_codes(%x: tensor<4x6xf32>, %n: tensor<1xi64>) -> (!relay.incomplete, !relay.incomplete) {
  // 0 copies the data dim; a -1 is inferred when everything else is known
  %z = relay.constant dense<0> : tensor<1xi64>
  %t = relay.concatenate %z, %n : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  // CHECK: relay.dyn.reshape {{.+}} -> tensor<4x?xf32>
  %a = relay.dyn.reshape %x, %t : (tensor<4x6xf32>, tensor<2xi64>) -> !relay.incomplete
  %w = relay.constant dense<[2, -1]> : tensor<2xi64>
  %w32 = relay.cast %w {dtype = i32} : (tensor<2xi64>) -> tensor<2xi32>
  // CHECK: relay.dyn.reshape {{.+}} -> tensor<2x12xf32>
  %b = relay.dyn.reshape %x, %w32 : (tensor<4x6xf32>, tensor<2xi32>) -> !relay.incomplete
  return %a, %b : !relay.incomplete, !relay.incomplete
}

// CHECK-LABEL: func.func @fill_and_broadcast
func.func @fill_and_broadcast(%x: tensor<?x16xf32>, %v: tensor<3x1xf32>) -> (!relay.incomplete, !relay.incomplete, !relay.incomplete) {
  %s = relay.shape_of %x {dtype = i64} : (tensor<?x16xf32>) -> tensor<2xi64>
  %i0 = relay.constant dense<0> : tensor<i64>
  %b = relay.take %s, %i0 {axis = 0 : i64} : (tensor<2xi64>, tensor<i64>) -> tensor<i64>
  %b1 = relay.expand_dims %b {axis = 0 : i64} : (tensor<i64>) -> tensor<1xi64>
  %c2 = relay.constant dense<2> : tensor<1xi64>
  %c32 = relay.constant dense<32> : tensor<1xi64>
  %shape = relay.concatenate %c2, %b1, %c32 : (tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<3xi64>
  // CHECK: relay.dyn.zeros %{{.+}} {dtype = f32} : (tensor<3xi64>) -> tensor<2x?x32xf32>
  %z = relay.dyn.zeros %shape {dtype = f32} : (tensor<3xi64>) -> !relay.incomplete
  // the data dim 3 (not 1) is the only target its run-time check accepts
  %t2 = relay.concatenate %b1, %b1 : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  // CHECK: relay.dyn.broadcast_to %{{.+}}, %{{.+}} : (tensor<3x1xf32>, tensor<2xi64>) -> tensor<3x?xf32>
  %y = relay.dyn.broadcast_to %v, %t2 : (tensor<3x1xf32>, tensor<2xi64>) -> !relay.incomplete
  // arithmetic on entries: 2 * 16 = 32
  %two = relay.constant dense<2> : tensor<1xi64>
  %i1 = relay.constant dense<1> : tensor<1xi64>
  %k = relay.take %s, %i1 {axis = 0 : i64} : (tensor<2xi64>, tensor<1xi64>) -> tensor<1xi64>
  %k2 = relay.multiply %k, %two : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %t3 = relay.concatenate %b1, %k2 : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %one = relay.constant dense<1.0> : tensor<f32>
  // CHECK: relay.dyn.full %{{.+}}, %{{.+}} : (tensor<f32>, tensor<2xi64>) -> tensor<?x32xf32>
  %f = relay.dyn.full %one, %t3 : (tensor<f32>, tensor<2xi64>) -> !relay.incomplete
  return %z, %y, %f : !relay.incomplete, !relay.incomplete, !relay.incomplete
}
