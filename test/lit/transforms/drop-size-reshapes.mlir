// RUN: relay-mlir-opt %s --relay-drop-size-reshapes | FileCheck %s

// The lowering's same-type reshapes naming run-time sizes go (and their
// shape operand); any other tensor.reshape stays.
// CHECK-LABEL: func.func @sizes_only
// CHECK-SAME:    (%[[X:.*]]: tensor<?x32xf32>, %{{.*}}: tensor<?x4xf32>)
// CHECK-NOT:     tensor.from_elements
// CHECK-NOT:     tensor.reshape
// CHECK:         %[[E:.*]] = math.exp %[[X]]
// CHECK-NEXT:    return %[[E]]
func.func @sizes_only(%x: tensor<?x32xf32>, %w: tensor<?x4xf32>) -> tensor<?x32xf32> {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %d = tensor.dim %w, %c0 : tensor<?x4xf32>
  %s = tensor.from_elements %d, %c32 : tensor<2xindex>
  %r = tensor.reshape %x(%s) {relay.sizes_only} : (tensor<?x32xf32>, tensor<2xindex>) -> tensor<?x32xf32>
  %e = math.exp %r : tensor<?x32xf32>
  return %e : tensor<?x32xf32>
}

// CHECK-LABEL: func.func @real_reshape
// CHECK:         tensor.reshape
func.func @real_reshape(%x: tensor<?x?xf32>, %s: tensor<2xindex>) -> tensor<?x?xf32> {
  %r = tensor.reshape %x(%s) : (tensor<?x?xf32>, tensor<2xindex>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
