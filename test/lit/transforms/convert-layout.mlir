// RUN: relay-mlir-opt %s -relay-convert-layout=constant-weights-only=false -split-input-file | FileCheck %s

// A conv2d with a constant weight: the input is transposed to NHWC, the
// weight transpose folds into a new HWIO constant, the result goes back.
// CHECK-LABEL: func.func @conv_const_weight
// CHECK-SAME: (%[[X:.+]]: tensor<1x2x5x5xf32>)
// CHECK-DAG: %[[W:.+]] = relay.constant dense<{{\[\[\[\[}}1.000000e+00, 3.000000e+00, 5.000000e+00], [2.000000e+00, 4.000000e+00, 6.000000e+00]]]]> : tensor<1x1x2x3xf32>
// CHECK-DAG: %[[XT:.+]] = relay.transpose %[[X]] {axes = array<i64: 0, 2, 3, 1>} : (tensor<1x2x5x5xf32>) -> tensor<1x5x5x2xf32>
// CHECK: %[[C:.+]] = relay.nn.conv2d %[[XT]], %[[W]] {channels = 3 : i64, data_layout = "NHWC", kernel_layout = "HWIO", kernel_size = array<i64: 1, 1>} : (tensor<1x5x5x2xf32>, tensor<1x1x2x3xf32>) -> tensor<1x5x5x3xf32>
// CHECK: %[[Y:.+]] = relay.transpose %[[C]] {axes = array<i64: 0, 3, 1, 2>} : (tensor<1x5x5x3xf32>) -> tensor<1x3x5x5xf32>
// CHECK: return %[[Y]]
// CHECK-NOT: relay.constant
func.func @conv_const_weight(%x: tensor<1x2x5x5xf32>) -> tensor<1x3x5x5xf32> {
  %w = relay.constant dense<[[[[1.0]], [[2.0]]], [[[3.0]], [[4.0]]], [[[5.0]], [[6.0]]]]> : tensor<3x2x1x1xf32>
  %y = relay.nn.conv2d %x, %w {channels = 3 : i64, kernel_size = array<i64: 1, 1>} : (tensor<1x2x5x5xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x5x5xf32>
  return %y : tensor<1x3x5x5xf32>
}

// -----

// A weight that is an argument is transposed at run time (with
// constant-weights-only=false; convert-layout-weights.mlir has the default).
// CHECK-LABEL: func.func @conv_arg_weight
// CHECK-SAME: (%[[X:.+]]: tensor<1x3x8x8xf32>, %[[W:.+]]: tensor<4x3x3x3xf32>)
// CHECK: %[[XT:.+]] = relay.transpose %[[X]] {axes = array<i64: 0, 2, 3, 1>}
// CHECK: %[[WT:.+]] = relay.transpose %[[W]] {axes = array<i64: 2, 3, 1, 0>} : (tensor<4x3x3x3xf32>) -> tensor<3x3x3x4xf32>
// CHECK: %[[C:.+]] = relay.nn.conv2d %[[XT]], %[[WT]] {data_layout = "NHWC", kernel_layout = "HWIO", padding = array<i64: 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x4x4x4xf32>
// CHECK: %[[Y:.+]] = relay.transpose %[[C]] {axes = array<i64: 0, 3, 1, 2>}
// CHECK: return %[[Y]]
func.func @conv_arg_weight(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32> {
  %y = relay.nn.conv2d %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32>
  return %y : tensor<1x4x4x4xf32>
}

// -----

// Two convolutions with a relu between: the transposes in the middle cancel.
// CHECK-LABEL: func.func @conv_relu_conv
// CHECK: %[[A:.+]] = relay.nn.conv2d {{.*}} -> tensor<1x8x8x4xf32>
// CHECK-NOT: relay.transpose %[[A]]
// CHECK: %[[R:.+]] = relay.nn.relu %[[A]] : (tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
// CHECK-NOT: relay.transpose %[[R]]
// CHECK: %[[B:.+]] = relay.nn.conv2d %[[R]], %{{.+}} {data_layout = "NHWC"
// CHECK: %[[Y:.+]] = relay.transpose %[[B]] {axes = array<i64: 0, 3, 1, 2>}
// CHECK: return %[[Y]]
func.func @conv_relu_conv(%x: tensor<1x3x8x8xf32>, %w1: tensor<4x3x3x3xf32>, %w2: tensor<4x4x3x3xf32>) -> tensor<1x4x8x8xf32> {
  %a = relay.nn.conv2d %x, %w1 {padding = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %r = relay.nn.relu %a : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %b = relay.nn.conv2d %r, %w2 {padding = array<i64: 1, 1>} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x8x8xf32>
  return %b : tensor<1x4x8x8xf32>
}

// -----

// Residual add of two converted values: no transpose on either side.
// CHECK-LABEL: func.func @residual
// CHECK: %[[A:.+]] = relay.nn.conv2d {{.*}} -> tensor<1x8x8x4xf32>
// CHECK: %[[B:.+]] = relay.nn.conv2d {{.*}} -> tensor<1x8x8x4xf32>
// CHECK: %[[S:.+]] = relay.add %[[A]], %[[B]] : (tensor<1x8x8x4xf32>, tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
// CHECK: %[[E:.+]] = relay.exp %[[S]] : (tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
// CHECK: %[[Y:.+]] = relay.transpose %[[E]] {axes = array<i64: 0, 3, 1, 2>}
// CHECK: return %[[Y]]
func.func @residual(%x: tensor<1x4x8x8xf32>, %w1: tensor<4x4x3x3xf32>, %w2: tensor<4x4x1x1xf32>) -> tensor<1x4x8x8xf32> {
  %a = relay.nn.conv2d %x, %w1 {padding = array<i64: 1, 1>} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x8x8xf32>
  %b = relay.nn.conv2d %x, %w2 : (tensor<1x4x8x8xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x8x8xf32>
  %s = relay.add %a, %b : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %e = relay.exp %s : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  return %e : tensor<1x4x8x8xf32>
}

// -----

// Broadcast operands of lower rank: a per-channel constant [C,1,1] becomes
// [1,1,1,C]; a scalar stays; a constant vector [W] (aligned with W) becomes
// [1,1,W,1].
// CHECK-LABEL: func.func @broadcast_constants
// CHECK-DAG: %[[V:.+]] = relay.constant dense<{{\[\[\[\[}}1.000000e+00], [2.000000e+00], [3.000000e+00]]]]> : tensor<1x1x3x1xf32>
// CHECK-DAG: %[[C:.+]] = relay.constant dense<{{\[\[\[\[}}1.000000e+00, 2.000000e+00]]]]> : tensor<1x1x1x2xf32>
// CHECK-DAG: %[[S:.+]] = relay.constant dense<5.000000e-01> : tensor<f32>
// CHECK: %[[Y:.+]] = relay.nn.conv2d {{.*}} -> tensor<1x3x3x2xf32>
// CHECK: %[[M:.+]] = relay.multiply %[[Y]], %[[C]] : (tensor<1x3x3x2xf32>, tensor<1x1x1x2xf32>) -> tensor<1x3x3x2xf32>
// CHECK: %[[A:.+]] = relay.add %[[S]], %[[M]] : (tensor<f32>, tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
// CHECK: %[[D:.+]] = relay.subtract %[[A]], %[[V]] : (tensor<1x3x3x2xf32>, tensor<1x1x3x1xf32>) -> tensor<1x3x3x2xf32>
// CHECK: %[[R:.+]] = relay.transpose %[[D]] {axes = array<i64: 0, 3, 1, 2>}
// CHECK: return %[[R]]
func.func @broadcast_constants(%x: tensor<1x2x3x3xf32>, %w: tensor<2x2x1x1xf32>) -> tensor<1x2x3x3xf32> {
  %y = relay.nn.conv2d %x, %w : (tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %c = relay.constant dense<[[[1.0]], [[2.0]]]> : tensor<2x1x1xf32>
  %m = relay.multiply %y, %c : (tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %s = relay.constant dense<0.5> : tensor<f32>
  %a = relay.add %s, %m : (tensor<f32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %v = relay.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %d = relay.subtract %a, %v : (tensor<1x2x3x3xf32>, tensor<3xf32>) -> tensor<1x2x3x3xf32>
  return %d : tensor<1x2x3x3xf32>
}

// -----

// A full-rank non-constant operand that is not transposed stops the sinking.
// CHECK-LABEL: func.func @broadcast_blocked
// CHECK-SAME: %[[Z:[^:]+]]: tensor<1x2x3x3xf32>)
// CHECK: %[[Y:.+]] = relay.nn.conv2d {{.*}} -> tensor<1x3x3x2xf32>
// CHECK: %[[T:.+]] = relay.transpose %[[Y]] {axes = array<i64: 0, 3, 1, 2>}
// CHECK: %[[A:.+]] = relay.add %[[T]], %[[Z]] : (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>)
// CHECK: return %[[A]]
func.func @broadcast_blocked(%x: tensor<1x2x3x3xf32>, %w: tensor<2x2x1x1xf32>, %z: tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %y = relay.nn.conv2d %x, %w : (tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %a = relay.add %y, %z : (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  return %a : tensor<1x2x3x3xf32>
}

// -----

// Axis ops: bias_add, softmax, batch_norm (a tuple) get the axis remapped.
// CHECK-LABEL: func.func @axis_ops
// CHECK-SAME: %[[B:[^:]+]]: tensor<2xf32>)
// CHECK: %[[Y:.+]] = relay.nn.conv2d {{.*}} -> tensor<1x3x3x2xf32>
// CHECK: %[[Z:.+]] = relay.nn.bias_add %[[Y]], %[[B]] {axis = 3 : i64} : (tensor<1x3x3x2xf32>, tensor<2xf32>) -> tensor<1x3x3x2xf32>
// CHECK: %[[T:.+]] = relay.nn.batch_norm %[[Z]], %[[B]], %[[B]], %[[B]], %[[B]] {axis = 3 : i64} : {{.*}} -> tuple<tensor<1x3x3x2xf32>, tensor<2xf32>, tensor<2xf32>>
// CHECK: %[[N:.+]] = relay.tuple_get_item %[[T]][0]
// CHECK: %[[S:.+]] = relay.nn.softmax %[[N]] {axis = 3 : i64} : (tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
// CHECK: %[[R:.+]] = relay.transpose %[[S]] {axes = array<i64: 0, 3, 1, 2>}
// CHECK: return %[[R]]
func.func @axis_ops(%x: tensor<1x2x3x3xf32>, %w: tensor<2x2x1x1xf32>, %b: tensor<2xf32>) -> tensor<1x2x3x3xf32> {
  %y = relay.nn.conv2d %x, %w : (tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %z = relay.nn.bias_add %y, %b : (tensor<1x2x3x3xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
  %t = relay.nn.batch_norm %z, %b, %b, %b, %b : (tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>>
  %n = relay.tuple_get_item %t[0] : (tuple<tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>>) -> tensor<1x2x3x3xf32>
  %s = relay.nn.softmax %n {axis = 1 : i64} : (tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  return %s : tensor<1x2x3x3xf32>
}

// -----

// Pools change their layout attribute; global_avg_pool2d's [N,1,1,C]
// result goes back to NCHW as a reshape.
// CHECK-LABEL: func.func @pools
// CHECK: %[[Y:.+]] = relay.nn.conv2d {{.*}} -> tensor<1x8x8x4xf32>
// CHECK: %[[M:.+]] = relay.nn.max_pool2d %[[Y]] {layout = "NHWC", padding = array<i64: 1, 1>, pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>} : (tensor<1x8x8x4xf32>) -> tensor<1x4x4x4xf32>
// CHECK: %[[A:.+]] = relay.nn.avg_pool2d %[[M]] {layout = "NHWC", pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x4x4x4xf32>) -> tensor<1x2x2x4xf32>
// CHECK: %[[G:.+]] = relay.nn.global_avg_pool2d %[[A]] {layout = "NHWC"} : (tensor<1x2x2x4xf32>) -> tensor<1x1x1x4xf32>
// CHECK: %[[R:.+]] = relay.reshape %[[G]] {newshape = array<i64: 1, 4, 1, 1>} : (tensor<1x1x1x4xf32>) -> tensor<1x4x1x1xf32>
// CHECK: return %[[R]]
func.func @pools(%x: tensor<1x2x8x8xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<1x4x1x1xf32> {
  %y = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>} : (tensor<1x2x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x8x8xf32>
  %m = relay.nn.max_pool2d %y {pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1>} : (tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32>
  %a = relay.nn.avg_pool2d %m {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x4x4x4xf32>) -> tensor<1x4x2x2xf32>
  %g = relay.nn.global_avg_pool2d %a : (tensor<1x4x2x2xf32>) -> tensor<1x4x1x1xf32>
  return %g : tensor<1x4x1x1xf32>
}

// -----

// concatenate along channels becomes a concatenate along the last dim.
// CHECK-LABEL: func.func @concat
// CHECK: %[[A:.+]] = relay.nn.conv2d {{.*}} -> tensor<1x4x4x3xf32>
// CHECK: %[[B:.+]] = relay.nn.conv2d {{.*}} -> tensor<1x4x4x5xf32>
// CHECK: %[[C:.+]] = relay.concatenate %[[A]], %[[B]] {axis = 3 : i64} : (tensor<1x4x4x3xf32>, tensor<1x4x4x5xf32>) -> tensor<1x4x4x8xf32>
// CHECK: %[[R:.+]] = relay.transpose %[[C]] {axes = array<i64: 0, 3, 1, 2>}
// CHECK: return %[[R]]
func.func @concat(%x: tensor<1x2x4x4xf32>, %w1: tensor<3x2x1x1xf32>, %w2: tensor<5x2x1x1xf32>) -> tensor<1x8x4x4xf32> {
  %a = relay.nn.conv2d %x, %w1 : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x4x4xf32>
  %b = relay.nn.conv2d %x, %w2 : (tensor<1x2x4x4xf32>, tensor<5x2x1x1xf32>) -> tensor<1x5x4x4xf32>
  %c = relay.concatenate %a, %b {axis = 1 : i64} : (tensor<1x3x4x4xf32>, tensor<1x5x4x4xf32>) -> tensor<1x8x4x4xf32>
  return %c : tensor<1x8x4x4xf32>
}

// -----

// Reductions: axes remapped; without keepdims the kept dims come back in
// the old order.
// CHECK-LABEL: func.func @reduce
// CHECK: %[[Y:.+]] = relay.nn.conv2d {{.*}} -> tensor<1x4x5x3xf32>
// CHECK: %[[M:.+]] = relay.mean %[[Y]] {axis = array<i64: 1, 2>, keepdims = true} : (tensor<1x4x5x3xf32>) -> tensor<1x1x1x3xf32>
// CHECK: %[[MR:.+]] = relay.reshape %[[M]] {newshape = array<i64: 1, 3, 1, 1>}
// CHECK: %[[S:.+]] = relay.sum %[[Y]] {axis = array<i64: 1, 3>} : (tensor<1x4x5x3xf32>) -> tensor<1x5xf32>
// CHECK: return %[[MR]], %[[S]]
func.func @reduce(%x: tensor<1x2x4x5xf32>, %w: tensor<3x2x1x1xf32>) -> (tensor<1x3x1x1xf32>, tensor<1x5xf32>) {
  %y = relay.nn.conv2d %x, %w : (tensor<1x2x4x5xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x4x5xf32>
  %m = relay.mean %y {axis = array<i64: 2, 3>, keepdims = true} : (tensor<1x3x4x5xf32>) -> tensor<1x3x1x1xf32>
  %s = relay.sum %y {axis = array<i64: 1, 2>} : (tensor<1x3x4x5xf32>) -> tensor<1x5xf32>
  return %m, %s : tensor<1x3x1x1xf32>, tensor<1x5xf32>
}

// -----

// Transposes: compositions, identities, and unit-dim moves as reshapes.
// CHECK-LABEL: func.func @transposes
// CHECK-SAME: (%[[X:.+]]: tensor<2x3x4xf32>, %[[U:.+]]: tensor<1x5x1xf32>)
// CHECK: %[[C:.+]] = relay.transpose %[[X]] {axes = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
// CHECK: %[[D:.+]] = relay.reshape %[[U]] {newshape = array<i64: 5, 1, 1>} : (tensor<1x5x1xf32>) -> tensor<5x1x1xf32>
// CHECK: return %[[X]], %[[C]], %[[D]]
func.func @transposes(%x: tensor<2x3x4xf32>, %u: tensor<1x5x1xf32>) -> (tensor<2x3x4xf32>, tensor<4x2x3xf32>, tensor<5x1x1xf32>) {
  %a = relay.transpose %x {axes = array<i64: 1, 2, 0>} : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
  %b = relay.transpose %a {axes = array<i64: 2, 0, 1>} : (tensor<3x4x2xf32>) -> tensor<2x3x4xf32>
  %c = relay.transpose %a {axes = array<i64: 1, 2, 0>} : (tensor<3x4x2xf32>) -> tensor<4x2x3xf32>
  %d = relay.transpose %u {axes = array<i64: 1, 0, 2>} : (tensor<1x5x1xf32>) -> tensor<5x1x1xf32>
  return %b, %c, %d : tensor<2x3x4xf32>, tensor<4x2x3xf32>, tensor<5x1x1xf32>
}

// -----

// Depthwise (groups = channels) and grouped convolutions: HWIO weights.
// CHECK-LABEL: func.func @depthwise
// CHECK-SAME: %[[W:[^:]+]]: tensor<4x1x3x3xf32>, %[[G:[^:]+]]: tensor<6x2x1x1xf32>)
// CHECK: %[[WT:.+]] = relay.transpose %[[W]] {axes = array<i64: 2, 3, 1, 0>} : (tensor<4x1x3x3xf32>) -> tensor<3x3x1x4xf32>
// CHECK: %[[D:.+]] = relay.nn.conv2d %{{.+}}, %[[WT]] {channels = 4 : i64, data_layout = "NHWC", groups = 4 : i64, kernel_layout = "HWIO", kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1>} : (tensor<1x6x6x4xf32>, tensor<3x3x1x4xf32>) -> tensor<1x6x6x4xf32>
// CHECK: %[[R:.+]] = relay.clip %[[D]] {{.*}} : (tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
// CHECK: %[[GT:.+]] = relay.transpose %[[G]] {axes = array<i64: 2, 3, 1, 0>} : (tensor<6x2x1x1xf32>) -> tensor<1x1x2x6xf32>
// CHECK: %[[Y:.+]] = relay.nn.conv2d %[[R]], %[[GT]] {data_layout = "NHWC", groups = 2 : i64, kernel_layout = "HWIO"}
// CHECK: %[[O:.+]] = relay.transpose %[[Y]] {axes = array<i64: 0, 3, 1, 2>}
// CHECK: return %[[O]]
func.func @depthwise(%x: tensor<1x4x6x6xf32>, %w: tensor<4x1x3x3xf32>, %g: tensor<6x2x1x1xf32>) -> tensor<1x6x6x6xf32> {
  %d = relay.nn.conv2d %x, %w {groups = 4 : i64, channels = 4 : i64, kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1>} : (tensor<1x4x6x6xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x6x6xf32>
  %r = relay.clip %d {a_min = 0.0 : f64, a_max = 6.0 : f64} : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %y = relay.nn.conv2d %r, %g {groups = 2 : i64} : (tensor<1x4x6x6xf32>, tensor<6x2x1x1xf32>) -> tensor<1x6x6x6xf32>
  return %y : tensor<1x6x6x6xf32>
}

// -----

// cast and comparisons (IdentityBool) are elementwise too.
// CHECK-LABEL: func.func @unary_cast
// CHECK: %[[Y:.+]] = relay.nn.conv2d {{.*}} -> tensor<1x3x3x2xf32>
// CHECK: %[[C:.+]] = relay.cast %[[Y]] {dtype = f16} : (tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf16>
// CHECK: %[[N:.+]] = relay.isnan %[[C]] : (tensor<1x3x3x2xf16>) -> tensor<1x3x3x2xi1>
// CHECK: %[[R:.+]] = relay.transpose %[[N]] {axes = array<i64: 0, 3, 1, 2>} : (tensor<1x3x3x2xi1>) -> tensor<1x2x3x3xi1>
// CHECK: return %[[R]]
func.func @unary_cast(%x: tensor<1x2x3x3xf32>, %w: tensor<2x2x1x1xf32>) -> tensor<1x2x3x3xi1> {
  %y = relay.nn.conv2d %x, %w : (tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %c = relay.cast %y {dtype = f16} : (tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf16>
  %n = relay.isnan %c : (tensor<1x2x3x3xf16>) -> tensor<1x2x3x3xi1>
  return %n : tensor<1x2x3x3xi1>
}

// -----

// nn.pad between two convolutions (as the quantized importers pad with the
// input zero point before an unpadded conv): the pad widths move with the
// dims, and the pad runs in NHWC between the two NHWC convolutions.
// CHECK-LABEL: func.func @pad_between_convs
// CHECK: %[[C1:.+]] = relay.nn.conv2d %{{.+}} -> tensor<1x6x6x2xf32>
// CHECK-NOT: relay.transpose
// CHECK: %[[P:.+]] = relay.nn.pad %[[C1]], %{{.+}} {pad_mode = "edge", pad_width = array<i64: 0, 0, 1, 2, 3, 4, 0, 0>} : (tensor<1x6x6x2xf32>, tensor<f32>) -> tensor<1x9x13x2xf32>
// CHECK-NOT: relay.transpose
// CHECK: relay.nn.conv2d %[[P]]
func.func @pad_between_convs(%x: tensor<1x2x6x6xf32>, %v: tensor<f32>) -> tensor<1x2x9x13xf32> {
  %w = relay.constant dense<1.0> : tensor<2x2x1x1xf32>
  %c1 = relay.nn.conv2d %x, %w {channels = 2 : i64, kernel_size = array<i64: 1, 1>} : (tensor<1x2x6x6xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x6x6xf32>
  %p = relay.nn.pad %c1, %v {pad_width = array<i64: 0, 0, 0, 0, 1, 2, 3, 4>, pad_mode = "edge"} : (tensor<1x2x6x6xf32>, tensor<f32>) -> tensor<1x2x9x13xf32>
  %c2 = relay.nn.conv2d %p, %w {channels = 2 : i64, kernel_size = array<i64: 1, 1>} : (tensor<1x2x9x13xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x9x13xf32>
  return %c2 : tensor<1x2x9x13xf32>
}

// -----

// The model's own NCHW input padded (the zero point) before the first
// convolution: nothing above the pad to meet, so the transpose into NHWC
// moves above the pad; the unpadded input is transposed and the pad runs in
// NHWC (the layout TVM's ConvertLayout pads in), right before the conv.
// CHECK-LABEL: func.func @pad_of_input
// CHECK: %[[T:.+]] = relay.transpose %arg0 {axes = array<i64: 0, 2, 3, 1>} : (tensor<1x3x5x5xf32>) -> tensor<1x5x5x3xf32>
// CHECK: %[[P:.+]] = relay.nn.pad %[[T]], %arg1 {pad_width = array<i64: 0, 0, 1, 2, 1, 1, 0, 0>} : (tensor<1x5x5x3xf32>, tensor<f32>) -> tensor<1x8x7x3xf32>
// CHECK-NEXT: relay.nn.conv2d %[[P]]
func.func @pad_of_input(%x: tensor<1x3x5x5xf32>, %v: tensor<f32>) -> tensor<1x2x6x5xf32> {
  %w = relay.constant dense<1.0> : tensor<2x3x3x3xf32>
  %p = relay.nn.pad %x, %v {pad_width = array<i64: 0, 0, 0, 0, 1, 2, 1, 1>, pad_mode = "constant"} : (tensor<1x3x5x5xf32>, tensor<f32>) -> tensor<1x3x8x7xf32>
  %c = relay.nn.conv2d %p, %w {channels = 2 : i64, kernel_size = array<i64: 3, 3>} : (tensor<1x3x8x7xf32>, tensor<2x3x3x3xf32>) -> tensor<1x2x6x5xf32>
  return %c : tensor<1x2x6x5xf32>
}
