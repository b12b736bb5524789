// RUN: relay-mlir-opt %s -relay-combine-parallel-dense | FileCheck %s
// RUN: relay-mlir-opt %s -relay-combine-parallel-dense=to-batch=false | FileCheck %s --check-prefix=DENSE

// Three denses of %x with a bias add each. to-batch: the data and weights
// stacked, one batch_matmul, the biases made [1, 3] and stacked, one add,
// a split and a squeeze per branch. Without: one dense of the weights
// concatenated (units 9), one add of the concatenated biases, slices.
// CHECK-LABEL: func.func @bias(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<2x4xf32>
// CHECK:         %[[XS:.*]] = relay.stack %[[X]], %[[X]], %[[X]] : {{.*}} -> tensor<3x2x4xf32>
// CHECK-NEXT:    %[[WS:.*]] = relay.stack {{.*}} -> tensor<3x3x4xf32>
// CHECK-NEXT:    %[[M:.*]] = relay.nn.batch_matmul %[[XS]], %[[WS]] : {{.*}} -> tensor<3x2x3xf32>
// CHECK-COUNT-3: relay.expand_dims {{.*}} {axis = 0 : i64} : (tensor<3xf32>) -> tensor<1x3xf32>
// CHECK-NEXT:    %[[BS:.*]] = relay.stack {{.*}} -> tensor<3x1x3xf32>
// CHECK-NEXT:    %[[A:.*]] = relay.add %[[M]], %[[BS]]
// CHECK-NEXT:    %[[S:.*]] = relay.split %[[A]] {indices_or_sections = 3 : i64}
// CHECK-COUNT-3: relay.squeeze
// CHECK-NOT:     relay.nn.dense
// DENSE-LABEL: func.func @bias(
// DENSE:         %[[W:.*]] = relay.concatenate {{.*}} -> tensor<9x4xf32>
// DENSE-NEXT:    %[[D:.*]] = relay.nn.dense %{{.*}}, %[[W]] {units = 9 : i64} : {{.*}} -> tensor<2x9xf32>
// DENSE-NEXT:    %[[B:.*]] = relay.concatenate {{.*}} -> tensor<9xf32>
// DENSE-NEXT:    %[[A:.*]] = relay.add %[[D]], %[[B]]
// DENSE-NEXT:    relay.strided_slice %[[A]] {begin = array<i64: 0, 0>, end = array<i64: -1, 3>, slice_mode = "size", strides = array<i64: 1, 1>}
// DENSE-NEXT:    relay.strided_slice %[[A]] {begin = array<i64: 0, 3>, end = array<i64: -1, 3>, slice_mode = "size", strides = array<i64: 1, 1>}
// DENSE-NEXT:    relay.strided_slice %[[A]] {begin = array<i64: 0, 6>, end = array<i64: -1, 3>, slice_mode = "size", strides = array<i64: 1, 1>}
func.func @bias(%x: tensor<2x4xf32>, %w1: tensor<3x4xf32>, %w2: tensor<3x4xf32>, %w3: tensor<3x4xf32>, %b1: tensor<3xf32>, %b2: tensor<3xf32>, %b3: tensor<3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %d1 = relay.nn.dense %x, %w1 : (tensor<2x4xf32>, tensor<3x4xf32>) -> tensor<2x3xf32>
  %a1 = relay.add %d1, %b1 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %d2 = relay.nn.dense %x, %w2 : (tensor<2x4xf32>, tensor<3x4xf32>) -> tensor<2x3xf32>
  %a2 = relay.add %d2, %b2 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %d3 = relay.nn.dense %x, %w3 : (tensor<2x4xf32>, tensor<3x4xf32>) -> tensor<2x3xf32>
  %a3 = relay.add %d3, %b3 : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %a1, %a2, %a3 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// Units differ: only the one-dense form combines; a [2, 1] operand is
// repeated to each branch's units before the concatenation.
// CHECK-LABEL: func.func @units_differ(
// CHECK-COUNT-3: relay.nn.dense
// CHECK-NOT:     relay.nn.batch_matmul
// DENSE-LABEL: func.func @units_differ(
// DENSE:         relay.nn.dense {{.*}} {units = 10 : i64}
// DENSE-NEXT:    relay.repeat %{{.*}} {axis = 1 : i64, repeats = 2 : i64}
// DENSE-NEXT:    relay.repeat %{{.*}} {axis = 1 : i64, repeats = 3 : i64}
// DENSE-NEXT:    relay.repeat %{{.*}} {axis = 1 : i64, repeats = 5 : i64}
// DENSE-NEXT:    relay.concatenate {{.*}} {axis = 1 : i64} : {{.*}} -> tensor<2x10xf32>
// DENSE-NEXT:    relay.multiply
// DENSE-COUNT-3: relay.strided_slice
func.func @units_differ(%x: tensor<2x4xf32>, %w1: tensor<2x4xf32>, %w2: tensor<3x4xf32>, %w3: tensor<5x4xf32>, %c: tensor<2x1xf32>) -> (tensor<2x2xf32>, tensor<2x3xf32>, tensor<2x5xf32>) {
  %d1 = relay.nn.dense %x, %w1 : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x2xf32>
  %m1 = relay.multiply %d1, %c : (tensor<2x2xf32>, tensor<2x1xf32>) -> tensor<2x2xf32>
  %d2 = relay.nn.dense %x, %w2 : (tensor<2x4xf32>, tensor<3x4xf32>) -> tensor<2x3xf32>
  %m2 = relay.multiply %d2, %c : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
  %d3 = relay.nn.dense %x, %w3 : (tensor<2x4xf32>, tensor<5x4xf32>) -> tensor<2x5xf32>
  %m3 = relay.multiply %d3, %c : (tensor<2x5xf32>, tensor<2x1xf32>) -> tensor<2x5xf32>
  return %m1, %m2, %m3 : tensor<2x2xf32>, tensor<2x3xf32>, tensor<2x5xf32>
}

// Two denses (fewer than 3) and denses of other data stay.
// CHECK-LABEL: func.func @unchanged(
// CHECK-COUNT-3: relay.nn.dense
// CHECK-NOT:     relay.stack
// DENSE-LABEL: func.func @unchanged(
// DENSE-COUNT-3: relay.nn.dense
// DENSE-NOT:     relay.concatenate
func.func @unchanged(%x: tensor<2x4xf32>, %y: tensor<2x4xf32>, %w: tensor<3x4xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %d1 = relay.nn.dense %x, %w : (tensor<2x4xf32>, tensor<3x4xf32>) -> tensor<2x3xf32>
  %d2 = relay.nn.dense %x, %w : (tensor<2x4xf32>, tensor<3x4xf32>) -> tensor<2x3xf32>
  %d3 = relay.nn.dense %y, %w : (tensor<2x4xf32>, tensor<3x4xf32>) -> tensor<2x3xf32>
  return %d1, %d2, %d3 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}
