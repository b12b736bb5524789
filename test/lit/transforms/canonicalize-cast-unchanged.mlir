// RUN: relay-mlir-opt %s -relay-canonicalize-cast | FileCheck %s

// Left alone (as TVM 0.19): a narrowing cast, a cast to as many bits, a
// widening cast with one elementwise consumer (however many others), one
// read by injective ops only.
// CHECK-LABEL: func.func @unchanged(
// CHECK-COUNT-4: relay.cast
// CHECK-NOT:     relay.cast
func.func @unchanged(%x: tensor<4xf32>, %i: tensor<4xi8>, %w: tensor<2x4xf32>) -> tuple<tensor<4xf16>, tensor<4xf16>, tensor<4xi32>, tensor<4xi32>, tensor<4xf32>, tensor<1x2xf32>, tensor<2x2xf32>, tensor<4xf32>, tensor<4xf32>> {
  %n = relay.cast %x {dtype = f16} : (tensor<4xf32>) -> tensor<4xf16>
  %n1 = relay.negative %n : (tensor<4xf16>) -> tensor<4xf16>
  %n2 = relay.exp %n : (tensor<4xf16>) -> tensor<4xf16>
  %s = relay.cast %x {dtype = i32} : (tensor<4xf32>) -> tensor<4xi32>
  %s1 = relay.negative %s : (tensor<4xi32>) -> tensor<4xi32>
  %s2 = relay.abs %s : (tensor<4xi32>) -> tensor<4xi32>
  %o = relay.cast %i {dtype = f32} : (tensor<4xi8>) -> tensor<4xf32>
  %o1 = relay.exp %o : (tensor<4xf32>) -> tensor<4xf32>
  %r = relay.reshape %o {newshape = array<i64: 2, 2>} : (tensor<4xf32>) -> tensor<2x2xf32>
  %o2 = relay.reshape %o {newshape = array<i64: 1, 4>} : (tensor<4xf32>) -> tensor<1x4xf32>
  %d = relay.nn.dense %o2, %w : (tensor<1x4xf32>, tensor<2x4xf32>) -> tensor<1x2xf32>
  %j = relay.cast %i {dtype = f32} : (tensor<4xi8>) -> tensor<4xf32>
  %j1 = relay.reverse %j {axis = 0 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  %j2 = relay.reverse %j {axis = 0 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  %t = relay.tuple %n1, %n2, %s1, %s2, %o1, %d, %r, %j1, %j2 : (tensor<4xf16>, tensor<4xf16>, tensor<4xi32>, tensor<4xi32>, tensor<4xf32>, tensor<1x2xf32>, tensor<2x2xf32>, tensor<4xf32>, tensor<4xf32>) -> tuple<tensor<4xf16>, tensor<4xf16>, tensor<4xi32>, tensor<4xi32>, tensor<4xf32>, tensor<1x2xf32>, tensor<2x2xf32>, tensor<4xf32>, tensor<4xf32>>
  return %t : tuple<tensor<4xf16>, tensor<4xf16>, tensor<4xi32>, tensor<4xi32>, tensor<4xf32>, tensor<1x2xf32>, tensor<2x2xf32>, tensor<4xf32>, tensor<4xf32>>
}
