// RUN: relay-mlir-opt %s -convert-relay-to-linalg | FileCheck %s

// CHECK-LABEL: func.func @reshape_collapse
func.func @reshape_collapse(%x: tensor<2x3x4xf32>) -> tensor<2x12xf32> {
  // CHECK: %[[R:.+]] = tensor.collapse_shape %{{.+}} {{\[\[}}0], [1, 2]] : tensor<2x3x4xf32> into tensor<2x12xf32>
  // CHECK: return %[[R]]
  %y = relay.reshape %x {newshape = array<i64: 0, -1>} : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
  return %y : tensor<2x12xf32>
}

// CHECK-LABEL: func.func @reshape_expand
func.func @reshape_expand(%x: tensor<6x4xf32>) -> tensor<2x3x4xf32> {
  // CHECK: tensor.expand_shape %{{.+}} {{\[\[}}0, 1], [2]] output_shape [2, 3, 4] : tensor<6x4xf32> into tensor<2x3x4xf32>
  %y = relay.reshape %x {newshape = array<i64: -4, 2, 3, -2>} : (tensor<6x4xf32>) -> tensor<2x3x4xf32>
  return %y : tensor<2x3x4xf32>
}

// CHECK-LABEL: func.func @reshape_general
func.func @reshape_general(%x: tensor<2x3x4xf32>) -> tensor<3x8xf32> {
  // Neither a collapse nor an expansion: through 1-D.
  // CHECK: %[[F:.+]] = tensor.collapse_shape %{{.+}} {{\[\[}}0, 1, 2]] : tensor<2x3x4xf32> into tensor<24xf32>
  // CHECK: tensor.expand_shape %[[F]] {{\[\[}}0, 1]] output_shape [3, 8] : tensor<24xf32> into tensor<3x8xf32>
  %y = relay.reshape %x {newshape = array<i64: 3, 8>} : (tensor<2x3x4xf32>) -> tensor<3x8xf32>
  return %y : tensor<3x8xf32>
}

// CHECK-LABEL: func.func @reshape_dynamic_collapse
func.func @reshape_dynamic_collapse(%x: tensor<?x3x4xf32>) -> tensor<?x12xf32> {
  // CHECK: tensor.collapse_shape %{{.+}} {{\[\[}}0], [1, 2]] : tensor<?x3x4xf32> into tensor<?x12xf32>
  %y = relay.reshape %x {newshape = array<i64: 0, -1>} : (tensor<?x3x4xf32>) -> tensor<?x12xf32>
  return %y : tensor<?x12xf32>
}

// CHECK-LABEL: func.func @reshape_dynamic_expand
func.func @reshape_dynamic_expand(%x: tensor<?x4xf32>) -> tensor<?x2x2xf32> {
  // CHECK: %[[D:.+]] = tensor.dim %[[X:.+]], %{{.+}} : tensor<?x4xf32>
  // CHECK: tensor.expand_shape %[[X]] {{\[\[}}0], [1, 2]] output_shape [%[[D]], 2, 2] : tensor<?x4xf32> into tensor<?x2x2xf32>
  %y = relay.reshape %x {newshape = array<i64: 0, 2, 2>} : (tensor<?x4xf32>) -> tensor<?x2x2xf32>
  return %y : tensor<?x2x2xf32>
}

// CHECK-LABEL: func.func @reshape_dynamic_general
func.func @reshape_dynamic_general(%x: tensor<?x4xf32>) -> tensor<?x2x3xf32> {
  // The -1 dim is numel / 6, computed at run time.
  // CHECK: %[[N:.+]] = arith.divui %{{.+}}, %{{.+}} : index
  // CHECK: %[[F:.+]] = tensor.collapse_shape %{{.+}} {{\[\[}}0, 1]] : tensor<?x4xf32> into tensor<?xf32>
  // CHECK: tensor.expand_shape %[[F]] {{\[\[}}0, 1, 2]] output_shape [%[[N]], 2, 3] : tensor<?xf32> into tensor<?x2x3xf32>
  %y = relay.reshape %x {newshape = array<i64: -1, 2, 3>} : (tensor<?x4xf32>) -> tensor<?x2x3xf32>
  return %y : tensor<?x2x3xf32>
}

// CHECK-LABEL: func.func @transpose_axes
func.func @transpose_axes(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  // CHECK: %[[E:.+]] = tensor.empty() : tensor<4x2x3xf32>
  // CHECK: linalg.transpose ins(%{{.+}} : tensor<2x3x4xf32>) outs(%[[E]] : tensor<4x2x3xf32>) permutation = [2, 0, 1]
  %y = relay.transpose %x {axes = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  return %y : tensor<4x2x3xf32>
}

// CHECK-LABEL: func.func @transpose_reverse_dynamic
func.func @transpose_reverse_dynamic(%x: tensor<?x3xf32>) -> tensor<3x?xf32> {
  // CHECK: %[[D:.+]] = tensor.dim %{{.+}}, %{{.+}} : tensor<?x3xf32>
  // CHECK: %[[E:.+]] = tensor.empty(%[[D]]) : tensor<3x?xf32>
  // CHECK: linalg.transpose ins(%{{.+}} : tensor<?x3xf32>) outs(%[[E]] : tensor<3x?xf32>) permutation = [1, 0]
  %y = relay.transpose %x : (tensor<?x3xf32>) -> tensor<3x?xf32>
  return %y : tensor<3x?xf32>
}

// CHECK-LABEL: func.func @concatenate
func.func @concatenate(%a: tensor<?x2xf32>, %b: tensor<?x3xf32>) -> tensor<?x5xf32> {
  // CHECK: tensor.concat dim(1) %{{.+}}, %{{.+}} : (tensor<?x2xf32>, tensor<?x3xf32>) -> tensor<?x5xf32>
  %y = relay.concatenate %a, %b {axis = -1 : i64} : (tensor<?x2xf32>, tensor<?x3xf32>) -> tensor<?x5xf32>
  return %y : tensor<?x5xf32>
}

// A stride over at most one element becomes 1 (IREE 3.13 fails to bufferize
// an expand_shape of a slice strided on a unit dim; random-program fuzzer,
// seed 3 programs 330 and 490).
// CHECK-LABEL: func.func @strided_slice_unit_dims
// CHECK: tensor.extract_slice %{{.*}}[0, 0, 3] [2, 1, 1] [1, 1, 1] : tensor<2x1x4xf32> to tensor<2x1x1xf32>
func.func @strided_slice_unit_dims(%x: tensor<2x1x4xf32>) -> tensor<2x1x1xf32> {
  %y = relay.strided_slice %x {begin = array<i64: 0, 0, 3>, end = array<i64: 2, 2, 4>, strides = array<i64: 1, 2, 2>} : (tensor<2x1x4xf32>) -> tensor<2x1x1xf32>
  return %y : tensor<2x1x1xf32>
}

// concatenate: `?` sizes off the axis must agree at run time.
// CHECK-LABEL: func.func @concatenate_runtime_sizes
// CHECK-DAG: %[[DA:.+]] = tensor.dim %arg0, %{{.+}} : tensor<?x2xf32>
// CHECK-DAG: %[[DB:.+]] = tensor.dim %arg1, %{{.+}} : tensor<?x3xf32>
// CHECK: %[[EQ:.+]] = arith.cmpi eq, %[[DA]], %[[DB]] : index
// CHECK: cf.assert %[[EQ]], "relay.concatenate: the inputs' sizes of axis 0 differ
// CHECK: tensor.concat dim(1)
func.func @concatenate_runtime_sizes(%a: tensor<?x2xf32>, %b: tensor<?x3xf32>) -> tensor<?x5xf32> {
  %c = relay.concatenate %a, %b {axis = 1 : i64} : (tensor<?x2xf32>, tensor<?x3xf32>) -> tensor<?x5xf32>
  return %c : tensor<?x5xf32>
}
