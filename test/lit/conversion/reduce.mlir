// RUN: relay-mlir-opt %s -convert-relay-to-linalg | FileCheck %s

// CHECK-LABEL: func.func @sum_axis
func.func @sum_axis(%x: tensor<2x3x4xf32>) -> tensor<2x4xf32> {
  // CHECK: %[[Z:.+]] = arith.constant 0.000000e+00 : f32
  // CHECK: %[[F:.+]] = linalg.fill ins(%[[Z]] : f32) outs(%{{.+}} : tensor<2x4xf32>)
  // CHECK: %[[R:.+]] = linalg.reduce ins(%{{.+}} : tensor<2x3x4xf32>) outs(%[[F]] : tensor<2x4xf32>) dimensions = [1]
  // CHECK:   arith.addf
  // CHECK: return %[[R]]
  %y = relay.sum %x {axis = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}

// CHECK-LABEL: func.func @sum_all_int
func.func @sum_all_int(%x: tensor<2x3xi32>) -> tensor<i32> {
  // CHECK: linalg.reduce ins(%{{.+}} : tensor<2x3xi32>) outs(%{{.+}} : tensor<i32>) dimensions = [0, 1]
  // CHECK:   arith.addi
  %y = relay.sum %x : (tensor<2x3xi32>) -> tensor<i32>
  return %y : tensor<i32>
}

// CHECK-LABEL: func.func @sum_exclude_keepdims
func.func @sum_exclude_keepdims(%x: tensor<2x3x4xf32>) -> tensor<1x3x1xf32> {
  // CHECK: %[[R:.+]] = linalg.reduce ins(%{{.+}} : tensor<2x3x4xf32>) outs(%{{.+}} : tensor<3xf32>) dimensions = [0, 2]
  // CHECK: tensor.expand_shape %[[R]] {{\[\[}}0, 1, 2]] output_shape [1, 3, 1] : tensor<3xf32> into tensor<1x3x1xf32>
  %y = relay.sum %x {axis = array<i64: 1>, exclude = true, keepdims = true} : (tensor<2x3x4xf32>) -> tensor<1x3x1xf32>
  return %y : tensor<1x3x1xf32>
}

// CHECK-LABEL: func.func @mean_dynamic
func.func @mean_dynamic(%x: tensor<?x3x?xf32>) -> tensor<?x1x1xf32> {
  // The divisor is counted at run time: 3 * dim(x, 2).
  // CHECK: %[[R:.+]] = linalg.reduce ins(%[[X:.+]] : tensor<?x3x?xf32>) outs(%{{.+}} : tensor<?xf32>) dimensions = [1, 2]
  // CHECK: %[[D:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x3x?xf32>
  // CHECK: %[[C3:.+]] = arith.constant 3 : index
  // CHECK: %[[N:.+]] = arith.muli %[[D]], %[[C3]] : index
  // CHECK: %[[I:.+]] = arith.index_castui %[[N]] : index to i64
  // CHECK: %[[F:.+]] = arith.sitofp %[[I]] : i64 to f32
  // CHECK: %[[M:.+]] = linalg.generic {{.*}} ins(%[[R]] : tensor<?xf32>)
  // CHECK:   arith.divf %{{.+}}, %[[F]] : f32
  // CHECK: tensor.expand_shape %[[M]] {{\[\[}}0, 1, 2]] output_shape [%{{.+}}, 1, 1] : tensor<?xf32> into tensor<?x1x1xf32>
  %y = relay.mean %x {axis = array<i64: 1, -1>, keepdims = true} : (tensor<?x3x?xf32>) -> tensor<?x1x1xf32>
  return %y : tensor<?x1x1xf32>
}

// CHECK-LABEL: func.func @mean_int
func.func @mean_int(%x: tensor<4x6xi32>) -> tensor<4xi32> {
  // CHECK: linalg.reduce
  // CHECK: %[[N:.+]] = arith.index_castui %{{.+}} : index to i32
  // CHECK: linalg.generic
  // CHECK:   arith.divsi %{{.+}}, %[[N]] : i32
  %y = relay.mean %x {axis = array<i64: 1>} : (tensor<4x6xi32>) -> tensor<4xi32>
  return %y : tensor<4xi32>
}
