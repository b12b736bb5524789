// RUN: relay-mlir-opt %s -convert-relay-to-linalg | FileCheck %s

// CHECK-LABEL: func.func @shape_of
func.func @shape_of(%x: tensor<?x3xf32>) -> (tensor<2xi64>, tensor<i32>) {
  // CHECK: %[[D:.+]] = tensor.dim %{{.+}}, %c0
  // CHECK: arith.index_cast %[[D]] : index to i64
  // CHECK: tensor.from_elements %{{.+}}, %{{.+}} : tensor<2xi64>
  %s = relay.shape_of %x {dtype = i64} : (tensor<?x3xf32>) -> tensor<2xi64>
  // CHECK: arith.muli
  // CHECK: tensor.from_elements %{{.+}} : tensor<i32>
  %n = relay.ndarray_size %x : (tensor<?x3xf32>) -> tensor<i32>
  return %s, %n : tensor<2xi64>, tensor<i32>
}

// CHECK-LABEL: func.func @reshape
func.func @reshape(%x: tensor<?x3xf32>, %s: tensor<2xi64>) -> tensor<?x?xf32> {
  // CHECK: tensor.extract %{{.+}}[%{{.+}}] : tensor<2xi64>
  // CHECK: cf.assert %{{.+}}, "relay.dyn.reshape: newshape does not fit
  // CHECK: %[[F:.+]] = tensor.collapse_shape %{{.+}} {{\[\[}}0, 1]] : tensor<?x3xf32> into tensor<?xf32>
  // CHECK: tensor.expand_shape %[[F]] {{\[\[}}0, 1]] output_shape [%{{.+}}, %{{.+}}] : tensor<?xf32> into tensor<?x?xf32>
  %y = relay.dyn.reshape %x, %s : (tensor<?x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

// CHECK-LABEL: func.func @broadcast
func.func @broadcast(%x: tensor<?x1xf32>, %s: tensor<3xi32>) -> tensor<?x?x?xf32> {
  // CHECK: cf.assert %{{.+}}, "relay.dyn.broadcast_to: a dim of data is neither 1 nor the target size"
  // CHECK: linalg.generic
  // CHECK: linalg.index 1
  // CHECK: tensor.extract
  %y = relay.dyn.broadcast_to %x, %s : (tensor<?x1xf32>, tensor<3xi32>) -> tensor<?x?x?xf32>
  return %y : tensor<?x?x?xf32>
}

// CHECK-LABEL: func.func @fills
func.func @fills(%s: tensor<2xi64>, %v: tensor<f32>) -> (tensor<?x?xi8>, tensor<?x?xf32>, tensor<?x?xf32>) {
  // CHECK: tensor.empty(%{{.+}}, %{{.+}}) : tensor<?x?xi8>
  // CHECK: linalg.fill
  %z = relay.dyn.zeros %s {dtype = i8} : (tensor<2xi64>) -> tensor<?x?xi8>
  // CHECK: linalg.fill
  %o = relay.dyn.ones %s {dtype = f32} : (tensor<2xi64>) -> tensor<?x?xf32>
  // CHECK: linalg.fill
  %f = relay.dyn.full %v, %s : (tensor<f32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %z, %o, %f : tensor<?x?xi8>, tensor<?x?xf32>, tensor<?x?xf32>
}
