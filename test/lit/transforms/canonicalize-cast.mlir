// RUN: relay-mlir-opt %s -relay-canonicalize-cast | FileCheck %s

// A widening cast read by three elementwise ops: the first keeps it, the
// others get copies just before them.
// CHECK-LABEL: func.func @three_consumers(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<2x3xi8>, %[[Y:[^:]*]]: tensor<2x3xf32>
// CHECK-NEXT:    %[[C:.*]] = relay.cast %[[X]] {dtype = f32}
// CHECK-NEXT:    %[[A:.*]] = relay.add %[[C]], %[[Y]]
// CHECK-NEXT:    %[[C2:.*]] = relay.cast %[[X]] {dtype = f32}
// CHECK-NEXT:    %[[M:.*]] = relay.multiply %[[C2]], %[[Y]]
// CHECK-NEXT:    %[[C3:.*]] = relay.cast %[[X]] {dtype = f32}
// CHECK-NEXT:    %[[E:.*]] = relay.exp %[[C3]]
func.func @three_consumers(%x: tensor<2x3xi8>, %y: tensor<2x3xf32>) -> tuple<tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>> {
  %c = relay.cast %x {dtype = f32} : (tensor<2x3xi8>) -> tensor<2x3xf32>
  %a = relay.add %c, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %m = relay.multiply %c, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %e = relay.exp %c : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %t = relay.tuple %a, %m, %e : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tuple<tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>>
  return %t : tuple<tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>>
}

// One op reading it twice counts twice; a reshape, a dense and the tuple
// share the original with the first elementwise use.
// CHECK-LABEL: func.func @shared(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<2x3xf16>
// CHECK-NEXT:    %[[C:.*]] = relay.cast %[[X]] {dtype = f32}
// CHECK-NEXT:    %[[R:.*]] = relay.reshape %[[C]]
// CHECK-NEXT:    %[[D:.*]] = relay.nn.dense %[[C]]
// CHECK-NEXT:    %[[C2:.*]] = relay.cast %[[X]] {dtype = f32}
// CHECK-NEXT:    %[[A:.*]] = relay.add %[[C]], %[[C2]]
// CHECK-NEXT:    relay.tuple %[[C]], %[[R]], %[[D]], %[[A]]
func.func @shared(%x: tensor<2x3xf16>, %w: tensor<4x3xf32>) -> tuple<tensor<2x3xf32>, tensor<6xf32>, tensor<2x4xf32>, tensor<2x3xf32>> {
  %c = relay.cast %x {dtype = f32} : (tensor<2x3xf16>) -> tensor<2x3xf32>
  %r = relay.reshape %c {newshape = array<i64: 6>} : (tensor<2x3xf32>) -> tensor<6xf32>
  %d = relay.nn.dense %c, %w : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
  %a = relay.add %c, %c : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %t = relay.tuple %c, %r, %d, %a : (tensor<2x3xf32>, tensor<6xf32>, tensor<2x4xf32>, tensor<2x3xf32>) -> tuple<tensor<2x3xf32>, tensor<6xf32>, tensor<2x4xf32>, tensor<2x3xf32>>
  return %t : tuple<tensor<2x3xf32>, tensor<6xf32>, tensor<2x4xf32>, tensor<2x3xf32>>
}

// The copies go where their consumers are: an if branch, a closure body.
// CHECK-LABEL: func.func @regions(
// CHECK:         %[[C:.*]] = relay.cast
// CHECK-NEXT:    relay.multiply %[[C]]
// CHECK:         relay.fn
// CHECK:           %[[C2:.*]] = relay.cast
// CHECK-NEXT:      relay.add %[[C2]]
// CHECK:         relay.if
// CHECK-NEXT:      %[[C3:.*]] = relay.cast
// CHECK-NEXT:      relay.subtract %[[C3]]
func.func @regions(%b: tensor<i1>, %x: tensor<3xi32>, %y: tensor<3xf64>) -> tuple<tensor<3xf64>, !relay.fn<(tensor<3xf64>) -> tensor<3xf64>>, tensor<3xf64>> {
  %c = relay.cast %x {dtype = f64} : (tensor<3xi32>) -> tensor<3xf64>
  %m = relay.multiply %c, %y : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
  %f = relay.fn : !relay.fn<(tensor<3xf64>) -> tensor<3xf64>> {
  ^bb0(%p: tensor<3xf64>):
    %s = relay.add %c, %p : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    relay.yield %s : tensor<3xf64>
  }
  %r = relay.if %b : tensor<i1> -> tensor<3xf64> {
    %d = relay.subtract %c, %y : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
    relay.yield %d : tensor<3xf64>
  } else {
    relay.yield %y : tensor<3xf64>
  }
  %t = relay.tuple %m, %f, %r : (tensor<3xf64>, !relay.fn<(tensor<3xf64>) -> tensor<3xf64>>, tensor<3xf64>) -> tuple<tensor<3xf64>, !relay.fn<(tensor<3xf64>) -> tensor<3xf64>>, tensor<3xf64>>
  return %t : tuple<tensor<3xf64>, !relay.fn<(tensor<3xf64>) -> tensor<3xf64>>, tensor<3xf64>>
}
