// RUN: relay-mlir-opt %s -convert-relay-to-linalg | FileCheck %s

// CHECK-DAG: #[[ID2:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[COL:.+]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-DAG: #[[ROW:.+]] = affine_map<(d0, d1) -> (d1)>

// CHECK-LABEL: func.func @add_broadcast
// CHECK-SAME: (%[[X:.+]]: tensor<4x1xf32>, %[[Y:.+]]: tensor<3xf32>)
func.func @add_broadcast(%x: tensor<4x1xf32>, %y: tensor<3xf32>) -> tensor<4x3xf32> {
  // CHECK: %[[E:.+]] = tensor.empty() : tensor<4x3xf32>
  // CHECK: %[[R:.+]] = linalg.generic {indexing_maps = [#[[COL]], #[[ROW]], #[[ID2]]], iterator_types = ["parallel", "parallel"]}
  // CHECK-SAME: ins(%[[X]], %[[Y]] : tensor<4x1xf32>, tensor<3xf32>) outs(%[[E]] : tensor<4x3xf32>)
  // CHECK: ^bb0(%[[A:.+]]: f32, %[[B:.+]]: f32, %{{.+}}: f32):
  // CHECK:   %[[S:.+]] = arith.addf %[[A]], %[[B]] : f32
  // CHECK:   linalg.yield %[[S]] : f32
  %z = relay.add %x, %y : (tensor<4x1xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  // CHECK: return %[[R]]
  return %z : tensor<4x3xf32>
}

// CHECK-LABEL: func.func @binary_float
func.func @binary_float(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK: arith.subf
  %0 = relay.subtract %x, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: arith.mulf
  %1 = relay.multiply %0, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: arith.divf
  %2 = relay.divide %1, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: arith.maximumf
  %3 = relay.maximum %2, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: arith.minimumf
  %4 = relay.minimum %3, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %4 : tensor<2x3xf32>
}

// Integer division truncates, as in Relay.
// CHECK-LABEL: func.func @binary_int
func.func @binary_int(%x: tensor<4xi32>, %y: tensor<4xi32>) -> tensor<4xi32> {
  // CHECK: arith.addi
  %0 = relay.add %x, %y : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // CHECK: arith.subi
  %1 = relay.subtract %0, %y : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // CHECK: arith.muli
  %2 = relay.multiply %1, %y : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // CHECK: arith.divsi
  %3 = relay.divide %2, %y : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // CHECK: arith.maxsi
  %4 = relay.maximum %3, %y : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // CHECK: arith.minsi
  %5 = relay.minimum %4, %y : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // CHECK: %[[Z:.+]] = arith.constant 0 : i32
  // CHECK: arith.subi %[[Z]], %{{.+}} : i32
  %6 = relay.negative %5 : (tensor<4xi32>) -> tensor<4xi32>
  // CHECK: arith.maxsi %{{.+}}, %{{.+}} : i32
  %7 = relay.nn.relu %6 : (tensor<4xi32>) -> tensor<4xi32>
  return %7 : tensor<4xi32>
}

// Unsigned tensors become signless; the ops pick the unsigned form.
// CHECK-LABEL: func.func @binary_uint
// CHECK-SAME: (%{{.+}}: tensor<4xi8>, %{{.+}}: tensor<4xi8>) -> tensor<4xi8>
func.func @binary_uint(%x: tensor<4xui8>, %y: tensor<4xui8>) -> tensor<4xui8> {
  // CHECK: arith.divui
  %0 = relay.divide %x, %y : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  // CHECK: arith.maxui
  %1 = relay.maximum %0, %y : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  return %1 : tensor<4xui8>
}

// CHECK-LABEL: func.func @unary_float
func.func @unary_float(%x: tensor<8xf32>) -> tensor<8xf32> {
  // CHECK: arith.negf
  %0 = relay.negative %x : (tensor<8xf32>) -> tensor<8xf32>
  // CHECK: math.exp
  %1 = relay.exp %0 : (tensor<8xf32>) -> tensor<8xf32>
  // CHECK: math.log
  %2 = relay.log %1 : (tensor<8xf32>) -> tensor<8xf32>
  // CHECK: math.sqrt
  %3 = relay.sqrt %2 : (tensor<8xf32>) -> tensor<8xf32>
  // CHECK: math.tanh
  %4 = relay.tanh %3 : (tensor<8xf32>) -> tensor<8xf32>
  // CHECK: linalg.generic
  // CHECK: ^bb0(%[[A:.+]]: f32, %{{.+}}: f32):
  // CHECK:   %[[ONE:.+]] = arith.constant 1.000000e+00 : f32
  // CHECK:   %[[N:.+]] = arith.negf %[[A]] : f32
  // CHECK:   %[[E:.+]] = math.exp %[[N]] : f32
  // CHECK:   %[[D:.+]] = arith.addf %[[ONE]], %[[E]] : f32
  // CHECK:   %[[S:.+]] = arith.divf %[[ONE]], %[[D]] : f32
  // CHECK:   linalg.yield %[[S]]
  %5 = relay.sigmoid %4 : (tensor<8xf32>) -> tensor<8xf32>
  // CHECK: ^bb0(%[[B:.+]]: f32, %{{.+}}: f32):
  // CHECK:   %[[Z:.+]] = arith.constant 0.000000e+00 : f32
  // CHECK:   %[[M:.+]] = arith.maximumf %[[B]], %[[Z]] : f32
  %6 = relay.nn.relu %5 : (tensor<8xf32>) -> tensor<8xf32>
  return %6 : tensor<8xf32>
}

// `?` dims: sizes come from the operands at run time.
// CHECK-LABEL: func.func @dynamic
// CHECK-SAME: (%[[X:.+]]: tensor<?x4xf32>, %[[Y:.+]]: tensor<?x1xf32>)
func.func @dynamic(%x: tensor<?x4xf32>, %y: tensor<?x1xf32>) -> tensor<?x4xf32> {
  // CHECK: %[[C0:.+]] = arith.constant 0 : index
  // CHECK: %[[D:.+]] = tensor.dim %[[X]], %[[C0]] : tensor<?x4xf32>
  // CHECK: %[[E:.+]] = tensor.empty(%[[D]]) : tensor<?x4xf32>
  // CHECK: linalg.generic {indexing_maps = [#[[ID2]], #[[COL]], #[[ID2]]]
  // CHECK-SAME: ins(%[[X]], %[[Y]] : tensor<?x4xf32>, tensor<?x1xf32>) outs(%[[E]] : tensor<?x4xf32>)
  // CHECK: arith.mulf
  %z = relay.multiply %x, %y : (tensor<?x4xf32>, tensor<?x1xf32>) -> tensor<?x4xf32>
  return %z : tensor<?x4xf32>
}

// CHECK-LABEL: func.func @dynamic_unary
// CHECK-SAME: (%[[X:.+]]: tensor<?x?xf32>)
func.func @dynamic_unary(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  // CHECK-DAG: %[[D0:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x?xf32>
  // CHECK-DAG: %[[D1:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x?xf32>
  // CHECK: tensor.empty(%[[D0]], %[[D1]]) : tensor<?x?xf32>
  // CHECK: math.tanh
  %y = relay.tanh %x : (tensor<?x?xf32>) -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

// Scalars broadcast against tensors; rank-0 operands read with an empty map.
// CHECK-LABEL: func.func @scalar_operand
func.func @scalar_operand(%x: tensor<2x2xf32>, %s: tensor<f32>) -> tensor<2x2xf32> {
  // CHECK: linalg.generic {indexing_maps = [#[[ID2]], #{{.+}}, #[[ID2]]]
  // CHECK-SAME: ins(%{{.+}}, %{{.+}} : tensor<2x2xf32>, tensor<f32>)
  %z = relay.subtract %x, %s : (tensor<2x2xf32>, tensor<f32>) -> tensor<2x2xf32>
  return %z : tensor<2x2xf32>
}
