// RUN: relay-mlir-opt %s -relay-backward-fold-scale-axis -relay-forward-fold-scale-axis | FileCheck %s

// Backward: conv2d * s[C,1,1] -> conv2d with the weight scaled along O.
// CHECK-LABEL: func.func @backward_conv(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<1x1x3x3xf32>
// CHECK-NEXT:    %[[W:.*]] = relay.constant dense<[{{\[}}{{\[}}[3.000000e+00]]], {{\[}}{{\[}}[8.000000e+00]]]]> : tensor<2x1x1x1xf32>
// CHECK-NEXT:    %[[Y:.*]] = relay.nn.conv2d %[[X]], %[[W]] :
// CHECK-NEXT:    return %[[Y]]
func.func @backward_conv(%x: tensor<1x1x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %w = relay.constant dense<[[[[1.0]]], [[[2.0]]]]> : tensor<2x1x1x1xf32>
  %s = relay.constant dense<[[[3.0]], [[4.0]]]> : tensor<2x1x1xf32>
  %y = relay.nn.conv2d %x, %w : (tensor<1x1x3x3xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x3x3xf32>
  %z = relay.multiply %y, %s : (tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) -> tensor<1x2x3x3xf32>
  return %z : tensor<1x2x3x3xf32>
}

// Backward through relu and bias_add: the bias is scaled too.
// CHECK-LABEL: func.func @backward_bias_relu(
// CHECK:         %[[W:.*]] = relay.constant dense<[{{\[}}{{\[}}[1.000000e+00]]], {{\[}}{{\[}}[2.000000e+00]]]]> : tensor<2x1x1x1xf32>
// CHECK:         %[[B:.*]] = relay.constant dense<[5.000000e+00, 6.000000e+00]> : tensor<2xf32>
// CHECK:         %[[S:.*]] = relay.reshape
// CHECK:         %[[Q:.*]] = relay.squeeze %[[S]] {axis = array<i64: 1, 2>} : (tensor<2x1x1xf32>) -> tensor<2xf32>
// CHECK:         %[[E:.*]] = relay.expand_dims %[[Q]] {axis = 1 : i64, num_newaxis = 3 : i64} : (tensor<2xf32>) -> tensor<2x1x1x1xf32>
// CHECK:         %[[SW:.*]] = relay.multiply %[[W]], %[[E]] : (tensor<2x1x1x1xf32>, tensor<2x1x1x1xf32>) -> tensor<2x1x1x1xf32>
// CHECK:         %[[C:.*]] = relay.nn.conv2d %{{.*}}, %[[SW]] :
// CHECK:         %[[Q2:.*]] = relay.squeeze %[[S]]
// CHECK:         %[[SB:.*]] = relay.multiply %[[B]], %[[Q2]] : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK:         %[[A:.*]] = relay.nn.bias_add %[[C]], %[[SB]]
// CHECK:         %[[R:.*]] = relay.nn.relu %[[A]]
// CHECK-NEXT:    return %[[R]]
func.func @backward_bias_relu(%x: tensor<1x1x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %w = relay.constant dense<[[[[1.0]]], [[[2.0]]]]> : tensor<2x1x1x1xf32>
  %b = relay.constant dense<[5.0, 6.0]> : tensor<2xf32>
  %s = relay.constant dense<[3.0, 0.5]> : tensor<2xf32>
  %y = relay.nn.conv2d %x, %w : (tensor<1x1x3x3xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x3x3xf32>
  %a = relay.nn.bias_add %y, %b {axis = 1 : i64} : (tensor<1x2x3x3xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
  %r = relay.nn.relu %a : (tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %s4 = relay.reshape %s {newshape = array<i64: 2, 1, 1>} : (tensor<2xf32>) -> tensor<2x1x1xf32>
  %z = relay.multiply %s4, %r : (tensor<2x1x1xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  return %z : tensor<1x2x3x3xf32>
}

// Backward, a scale that is not a constant (no relu): ops scale the weight.
// CHECK-LABEL: func.func @backward_var_scale(
// CHECK-SAME:    %{{[^:]*}}: tensor<1x1x3x3xf32>, %[[S:[^:]*]]: tensor<2x1x1xf32>
// CHECK:         %[[Q:.*]] = relay.squeeze %[[S]] {axis = array<i64: 1, 2>}
// CHECK:         %[[E:.*]] = relay.expand_dims %[[Q]] {axis = 1 : i64, num_newaxis = 3 : i64}
// CHECK:         %[[W:.*]] = relay.multiply %{{.*}}, %[[E]]
// CHECK:         %[[Y:.*]] = relay.nn.conv2d %{{.*}}, %[[W]]
// CHECK-NEXT:    return %[[Y]]
func.func @backward_var_scale(%x: tensor<1x1x3x3xf32>, %s: tensor<2x1x1xf32>) -> tensor<1x2x3x3xf32> {
  %w = relay.constant dense<[[[[1.0]]], [[[2.0]]]]> : tensor<2x1x1x1xf32>
  %y = relay.nn.conv2d %x, %w : (tensor<1x1x3x3xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x3x3xf32>
  %z = relay.multiply %y, %s : (tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) -> tensor<1x2x3x3xf32>
  return %z : tensor<1x2x3x3xf32>
}

// Backward, dense: along the units.
// CHECK-LABEL: func.func @backward_dense(
// CHECK-NEXT:    %[[W:.*]] = relay.constant dense<{{\[}}[1.000000e+01, 2.000000e+01], [-3.000000e+00, -4.000000e+00]]> : tensor<2x2xf32>
// CHECK-NEXT:    %[[Y:.*]] = relay.nn.dense %{{.*}}, %[[W]]
// CHECK-NEXT:    return %[[Y]]
func.func @backward_dense(%x: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %w = relay.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %s = relay.constant dense<[10.0, -1.0]> : tensor<2xf32>
  %y = relay.nn.dense %x, %w : (tensor<4x2xf32>, tensor<2x2xf32>) -> tensor<4x2xf32>
  %z = relay.multiply %y, %s : (tensor<4x2xf32>, tensor<2xf32>) -> tensor<4x2xf32>
  return %z : tensor<4x2xf32>
}

// Forward: x * s -> conv2d: weight scaled along I (HWIO: axis 2), the add's
// operand divided by the scale.
// CHECK-LABEL: func.func @forward_nhwc_add_relu(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<1x3x3x2xf32>
// CHECK-DAG:     %[[W:.*]] = relay.constant dense<{{\[}}{{\[}}{{\[}}[2.000000e+00], [8.000000e+00]]]]> : tensor<1x1x2x1xf32>
// CHECK-DAG:     %[[B:.*]] = relay.constant dense<[5.000000e-01, 2.500000e-01]> : tensor<2xf32>
// CHECK:         %[[A:.*]] = relay.add %[[X]], %[[B]]
// CHECK-NEXT:    %[[R:.*]] = relay.nn.relu %[[A]]
// CHECK-NEXT:    %[[Y:.*]] = relay.nn.conv2d %[[R]], %[[W]] {data_layout = "NHWC", kernel_layout = "HWIO"}
// CHECK-NEXT:    return %[[Y]]
func.func @forward_nhwc_add_relu(%x: tensor<1x3x3x2xf32>) -> tensor<1x3x3x1xf32> {
  %w = relay.constant dense<[[[[1.0], [2.0]]]]> : tensor<1x1x2x1xf32>
  %s = relay.constant dense<[2.0, 4.0]> : tensor<2xf32>
  %b = relay.constant dense<[1.0, 1.0]> : tensor<2xf32>
  %m = relay.multiply %x, %s : (tensor<1x3x3x2xf32>, tensor<2xf32>) -> tensor<1x3x3x2xf32>
  %a = relay.add %m, %b : (tensor<1x3x3x2xf32>, tensor<2xf32>) -> tensor<1x3x3x2xf32>
  %r = relay.nn.relu %a : (tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
  %y = relay.nn.conv2d %r, %w {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x3x3x2xf32>, tensor<1x1x2x1xf32>) -> tensor<1x3x3x1xf32>
  return %y : tensor<1x3x3x1xf32>
}

// Forward into two convs (one depthwise: along O) and a dense-free fan-out.
// CHECK-LABEL: func.func @forward_two_convs(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<1x2x3x3xf32>
// CHECK-DAG:     %[[D:.*]] = relay.constant dense<[{{\[}}{{\[}}[-2.000000e+00]]], {{\[}}{{\[}}[-4.000000e+00]]]]> : tensor<2x1x1x1xf32>
// CHECK-DAG:     %[[W:.*]] = relay.constant dense<[{{\[}}{{\[}}[-2.000000e+00]], {{\[}}[-4.000000e+00]]]]> : tensor<1x2x1x1xf32>
// CHECK-NOT:     relay.multiply
// CHECK:         relay.nn.conv2d %[[X]], %[[W]] :
// CHECK:         relay.nn.conv2d %[[X]], %[[D]] {groups = 2 : i64}
func.func @forward_two_convs(%x: tensor<1x2x3x3xf32>) -> (tensor<1x1x3x3xf32>, tensor<1x2x3x3xf32>) {
  %w = relay.constant dense<[[[[1.0]], [[2.0]]]]> : tensor<1x2x1x1xf32>
  %d = relay.constant dense<[[[[1.0]]], [[[2.0]]]]> : tensor<2x1x1x1xf32>
  %s = relay.constant dense<-2.0> : tensor<f32>
  %m = relay.multiply %x, %s : (tensor<1x2x3x3xf32>, tensor<f32>) -> tensor<1x2x3x3xf32>
  %y = relay.nn.conv2d %m, %w : (tensor<1x2x3x3xf32>, tensor<1x2x1x1xf32>) -> tensor<1x1x3x3xf32>
  %z = relay.nn.conv2d %m, %d {groups = 2 : i64} : (tensor<1x2x3x3xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x3x3xf32>
  return %y, %z : tensor<1x1x3x3xf32>, tensor<1x2x3x3xf32>
}

// The dense's data is its weight: only the weight operand is scaled.
// CHECK-LABEL: func.func @backward_dense_same_operand(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<2x2xf32>
// CHECK:         %[[S:.*]] = relay.constant dense<{{\[}}[2.000000e+00], [3.000000e+00]]> : tensor<2x1xf32>
// CHECK:         %[[W:.*]] = relay.multiply %[[X]], %[[S]] : (tensor<2x2xf32>, tensor<2x1xf32>) -> tensor<2x2xf32>
// CHECK:         %[[Y:.*]] = relay.nn.dense %[[X]], %[[W]]
// CHECK-NEXT:    return %[[Y]]
func.func @backward_dense_same_operand(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %s = relay.constant dense<[2.0, 3.0]> : tensor<2xf32>
  %y = relay.nn.dense %x, %x : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %z = relay.multiply %y, %s : (tensor<2x2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
  return %z : tensor<2x2xf32>
}

// Across regions: the conv outside an if folds the branch's multiply (the new
// conv is built in the branch, where the scale is), the multiply outside
// folds into convs in a branch and after it.
// CHECK-LABEL: func.func @in_branches(
// CHECK-SAME:    %[[C:[^:]*]]: tensor<i1>, %[[X:[^:]*]]: tensor<1x1x3x3xf32>, %[[S:[^:]*]]: tensor<2x1x1xf32>
// CHECK-DAG:     %[[F:.*]] = relay.constant dense<[{{\[}}{{\[}}[5.000000e+00]]], {{\[}}{{\[}}[1.000000e+01]]]]> : tensor<2x1x1x1xf32>
// CHECK-DAG:     %[[W:.*]] = relay.constant dense<[{{\[}}{{\[}}[1.000000e+00]]], {{\[}}{{\[}}[2.000000e+00]]]]> : tensor<2x1x1x1xf32>
// CHECK-NOT:     relay.nn.conv2d
// CHECK:         relay.if %[[C]]
// CHECK:           %[[Q:.*]] = relay.squeeze %[[S]]
// CHECK:           %[[E:.*]] = relay.expand_dims %[[Q]]
// CHECK:           %[[SW:.*]] = relay.multiply %[[W]], %[[E]]
// CHECK:           %[[Y:.*]] = relay.nn.conv2d %[[X]], %[[SW]]
// CHECK-NEXT:      relay.yield %[[Y]]
// CHECK:         } else {
// CHECK-NEXT:      %[[Z:.*]] = relay.nn.conv2d %[[X]], %[[F]]
// CHECK-NEXT:      relay.yield %[[Z]]
// CHECK:         relay.nn.conv2d %[[X]], %[[F]]
// CHECK-NOT:     relay.multiply
func.func @in_branches(%c: tensor<i1>, %x: tensor<1x1x3x3xf32>, %s: tensor<2x1x1xf32>) -> (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) {
  %w = relay.constant dense<[[[[1.0]]], [[[2.0]]]]> : tensor<2x1x1x1xf32>
  %t = relay.constant dense<[[[5.0]]]> : tensor<1x1x1xf32>
  %y = relay.nn.conv2d %x, %w : (tensor<1x1x3x3xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x3x3xf32>
  %m = relay.multiply %x, %t : (tensor<1x1x3x3xf32>, tensor<1x1x1xf32>) -> tensor<1x1x3x3xf32>
  %r = relay.if %c : tensor<i1> -> tensor<1x2x3x3xf32> {
    %z = relay.multiply %y, %s : (tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) -> tensor<1x2x3x3xf32>
    relay.yield %z : tensor<1x2x3x3xf32>
  } else {
    %q = relay.nn.conv2d %m, %w : (tensor<1x1x3x3xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x3x3xf32>
    relay.yield %q : tensor<1x2x3x3xf32>
  }
  %u = relay.nn.conv2d %m, %w : (tensor<1x1x3x3xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x3x3xf32>
  return %r, %u : tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>
}
