// RUN: relay-mlir-opt %s -relay-canonicalize-ops | FileCheck %s

// bias_add along the channels of NCHW: the bias gets two unit dims and is
// added.
// CHECK-LABEL: func.func @nchw(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<1x3x4x5xf32>, %[[B:[^:]*]]: tensor<3xf32>
// CHECK-NEXT:    %[[E:.*]] = relay.expand_dims %[[B]] {axis = 1 : i64, num_newaxis = 2 : i64} : (tensor<3xf32>) -> tensor<3x1x1xf32>
// CHECK-NEXT:    %[[Y:.*]] = relay.add %[[X]], %[[E]] : (tensor<1x3x4x5xf32>, tensor<3x1x1xf32>) -> tensor<1x3x4x5xf32>
// CHECK-NEXT:    return %[[Y]]
func.func @nchw(%x: tensor<1x3x4x5xf32>, %b: tensor<3xf32>) -> tensor<1x3x4x5xf32> {
  %y = relay.nn.bias_add %x, %b {axis = 1 : i64} : (tensor<1x3x4x5xf32>, tensor<3xf32>) -> tensor<1x3x4x5xf32>
  return %y : tensor<1x3x4x5xf32>
}

// The last axis (NHWC, -1, a dense output): a plain add.
// CHECK-LABEL: func.func @last_axis(
// CHECK-NOT:     relay.expand_dims
// CHECK-NOT:     relay.nn.bias_add
// CHECK:         relay.add %{{.*}}, %{{.*}} : (tensor<1x4x5x3xf32>, tensor<3xf32>) -> tensor<1x4x5x3xf32>
// CHECK:         relay.add %{{.*}}, %{{.*}} : (tensor<1x4x5x3xf32>, tensor<3xf32>) -> tensor<1x4x5x3xf32>
// CHECK:         relay.add %{{.*}}, %{{.*}} : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
func.func @last_axis(%x: tensor<1x4x5x3xf32>, %b: tensor<3xf32>, %d: tensor<2x3xi32>, %bi: tensor<3xi32>) -> (tensor<1x4x5x3xf32>, tensor<1x4x5x3xf32>, tensor<2x3xi32>) {
  %a = relay.nn.bias_add %x, %b {axis = 3 : i64} : (tensor<1x4x5x3xf32>, tensor<3xf32>) -> tensor<1x4x5x3xf32>
  %c = relay.nn.bias_add %x, %b {axis = -1 : i64} : (tensor<1x4x5x3xf32>, tensor<3xf32>) -> tensor<1x4x5x3xf32>
  %e = relay.nn.bias_add %d, %bi {axis = 1 : i64} : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  return %a, %c, %e : tensor<1x4x5x3xf32>, tensor<1x4x5x3xf32>, tensor<2x3xi32>
}

// Axis 0 and a negative axis; a ? dim elsewhere; ? sizes along the axis on
// both sides.
// CHECK-LABEL: func.func @axes_and_dynamic(
// CHECK:         relay.expand_dims %{{.*}} {axis = 1 : i64, num_newaxis = 2 : i64} : (tensor<3xf32>) -> tensor<3x1x1xf32>
// CHECK:         relay.add %{{.*}} : (tensor<3x4x5xf32>, tensor<3x1x1xf32>) -> tensor<3x4x5xf32>
// CHECK:         relay.expand_dims %{{.*}} {axis = 1 : i64} : (tensor<3xf32>) -> tensor<3x1xf32>
// CHECK:         relay.add %{{.*}} : (tensor<?x3x4xf32>, tensor<3x1xf32>) -> tensor<?x3x4xf32>
// CHECK:         relay.expand_dims %{{.*}} {axis = 1 : i64} : (tensor<?xf32>) -> tensor<?x1xf32>
// CHECK:         relay.add %{{.*}} : (tensor<2x?x4xf32>, tensor<?x1xf32>) -> tensor<2x?x4xf32>
func.func @axes_and_dynamic(%x: tensor<3x4x5xf32>, %b: tensor<3xf32>, %y: tensor<?x3x4xf32>, %z: tensor<2x?x4xf32>, %bz: tensor<?xf32>) -> (tensor<3x4x5xf32>, tensor<?x3x4xf32>, tensor<2x?x4xf32>) {
  %a = relay.nn.bias_add %x, %b {axis = 0 : i64} : (tensor<3x4x5xf32>, tensor<3xf32>) -> tensor<3x4x5xf32>
  %c = relay.nn.bias_add %y, %b {axis = -2 : i64} : (tensor<?x3x4xf32>, tensor<3xf32>) -> tensor<?x3x4xf32>
  %d = relay.nn.bias_add %z, %bz {axis = 1 : i64} : (tensor<2x?x4xf32>, tensor<?xf32>) -> tensor<2x?x4xf32>
  return %a, %c, %d : tensor<3x4x5xf32>, tensor<?x3x4xf32>, tensor<2x?x4xf32>
}
