// RUN: relay-mlir-opt %s -relay-backward-fold-scale-axis -relay-forward-fold-scale-axis | FileCheck %s

// Neither fold applies: every multiply stays.

// A relu between the conv and a negative scale (relu(y) * s != relu(y * s)).
// CHECK-LABEL: func.func @relu_negative(
// CHECK-COUNT-1: relay.multiply
// CHECK-NOT:   relay.multiply
// CHECK:       return
func.func @relu_negative(%x: tensor<1x1x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %w = relay.constant dense<[[[[1.0]]], [[[2.0]]]]> : tensor<2x1x1x1xf32>
  %s = relay.constant dense<[[[3.0]], [[-4.0]]]> : tensor<2x1x1xf32>
  %y = relay.nn.conv2d %x, %w : (tensor<1x1x3x3xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x3x3xf32>
  %r = relay.nn.relu %y : (tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %z = relay.multiply %r, %s : (tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) -> tensor<1x2x3x3xf32>
  return %z : tensor<1x2x3x3xf32>
}

// A relu and a scale that is not a constant.
// CHECK-LABEL: func.func @relu_var_scale(
// CHECK-COUNT-1: relay.multiply
// CHECK-NOT:   relay.multiply
// CHECK:       return
func.func @relu_var_scale(%x: tensor<1x1x3x3xf32>, %s: tensor<2x1x1xf32>) -> tensor<1x2x3x3xf32> {
  %w = relay.constant dense<[[[[1.0]]], [[[2.0]]]]> : tensor<2x1x1x1xf32>
  %y = relay.nn.conv2d %x, %w : (tensor<1x1x3x3xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x3x3xf32>
  %r = relay.nn.relu %y : (tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %z = relay.multiply %r, %s : (tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) -> tensor<1x2x3x3xf32>
  return %z : tensor<1x2x3x3xf32>
}

// The conv's result is used twice (backward), the product is returned too
// (forward).
// CHECK-LABEL: func.func @fan_out(
// CHECK-COUNT-2: relay.multiply
// CHECK-NOT:   relay.multiply
// CHECK:       return
func.func @fan_out(%x: tensor<1x1x3x3xf32>) -> (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) {
  %w = relay.constant dense<[[[[1.0]]], [[[2.0]]]]> : tensor<2x1x1x1xf32>
  %s = relay.constant dense<[[[3.0]], [[4.0]]]> : tensor<2x1x1xf32>
  %t = relay.constant dense<[[[3.0]]]> : tensor<1x1x1xf32>
  %y = relay.nn.conv2d %x, %w : (tensor<1x1x3x3xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x3x3xf32>
  %z = relay.multiply %y, %s : (tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %m = relay.multiply %x, %t : (tensor<1x1x3x3xf32>, tensor<1x1x1xf32>) -> tensor<1x1x3x3xf32>
  %c = relay.nn.conv2d %m, %w : (tensor<1x1x3x3xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x3x3xf32>
  %e = relay.exp %m : (tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32>
  %f = relay.add %c, %e : (tensor<1x2x3x3xf32>, tensor<1x1x3x3xf32>) -> tensor<1x2x3x3xf32>
  return %y, %z, %f : tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>
}

// Scales not along the channel axis alone: spatial (backward), along H
// (forward).
// CHECK-LABEL: func.func @other_axes(
// CHECK-COUNT-2: relay.multiply
// CHECK-NOT:   relay.multiply
// CHECK:       return
func.func @other_axes(%x: tensor<1x1x3x3xf32>) -> (tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) {
  %w = relay.constant dense<[[[[1.0]]], [[[2.0]]]]> : tensor<2x1x1x1xf32>
  %sp = relay.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %h = relay.constant dense<[[1.0], [2.0], [3.0]]> : tensor<3x1xf32>
  %y = relay.nn.conv2d %x, %w : (tensor<1x1x3x3xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x3x3xf32>
  %z = relay.multiply %y, %sp : (tensor<1x2x3x3xf32>, tensor<3xf32>) -> tensor<1x2x3x3xf32>
  %m = relay.multiply %x, %h : (tensor<1x1x3x3xf32>, tensor<3x1xf32>) -> tensor<1x1x3x3xf32>
  %c = relay.nn.conv2d %m, %w : (tensor<1x1x3x3xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x3x3xf32>
  return %z, %c : tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>
}

// A grouped conv (groups 2, not depthwise), conv1d (TVM folds conv2d/3d
// only), an int8 conv with an int32 result (the weight cannot take an int32
// scale).
// CHECK-LABEL: func.func @other_convs(
// CHECK-COUNT-3: relay.multiply
// CHECK-NOT:   relay.multiply
// CHECK:       return
func.func @other_convs(%x: tensor<1x4x3x3xf32>, %x1: tensor<1x2x5xf32>, %q: tensor<1x2x3x3xi8>) -> (tensor<1x4x3x3xf32>, tensor<1x2x5xf32>, tensor<1x2x3x3xi32>) {
  %w = relay.constant dense<1.0> : tensor<4x2x1x1xf32>
  %s = relay.constant dense<[[[1.0]], [[2.0]], [[3.0]], [[4.0]]]> : tensor<4x1x1xf32>
  %y = relay.nn.conv2d %x, %w {groups = 2 : i64} : (tensor<1x4x3x3xf32>, tensor<4x2x1x1xf32>) -> tensor<1x4x3x3xf32>
  %z = relay.multiply %y, %s : (tensor<1x4x3x3xf32>, tensor<4x1x1xf32>) -> tensor<1x4x3x3xf32>
  %w1 = relay.constant dense<1.0> : tensor<2x2x1xf32>
  %s1 = relay.constant dense<[[2.0], [3.0]]> : tensor<2x1xf32>
  %y1 = relay.nn.conv1d %x1, %w1 : (tensor<1x2x5xf32>, tensor<2x2x1xf32>) -> tensor<1x2x5xf32>
  %z1 = relay.multiply %y1, %s1 : (tensor<1x2x5xf32>, tensor<2x1xf32>) -> tensor<1x2x5xf32>
  %wq = relay.constant dense<1> : tensor<2x2x1x1xi8>
  %sq = relay.constant dense<[[[2]], [[3]]]> : tensor<2x1x1xi32>
  %yq = relay.nn.conv2d %q, %wq {out_dtype = i32} : (tensor<1x2x3x3xi8>, tensor<2x2x1x1xi8>) -> tensor<1x2x3x3xi32>
  %zq = relay.multiply %yq, %sq : (tensor<1x2x3x3xi32>, tensor<2x1x1xi32>) -> tensor<1x2x3x3xi32>
  return %z, %z1, %zq : tensor<1x4x3x3xf32>, tensor<1x2x5xf32>, tensor<1x2x3x3xi32>
}

// Forward: an add's operand would be divided by a zero of the scale; an
// integer add (division would truncate).
// CHECK-LABEL: func.func @forward_division(
// CHECK-COUNT-2: relay.multiply
// CHECK-NOT:   relay.multiply
// CHECK:       return
func.func @forward_division(%x: tensor<1x2x3x3xf32>, %i: tensor<1x2x3x3xi32>) -> (tensor<1x1x3x3xf32>, tensor<1x1x3x3xi32>) {
  %w = relay.constant dense<1.0> : tensor<1x2x1x1xf32>
  %s = relay.constant dense<[[[0.0]], [[2.0]]]> : tensor<2x1x1xf32>
  %b = relay.constant dense<1.0> : tensor<2x1x1xf32>
  %m = relay.multiply %x, %s : (tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %a = relay.add %m, %b : (tensor<1x2x3x3xf32>, tensor<2x1x1xf32>) -> tensor<1x2x3x3xf32>
  %y = relay.nn.conv2d %a, %w : (tensor<1x2x3x3xf32>, tensor<1x2x1x1xf32>) -> tensor<1x1x3x3xf32>
  %wi = relay.constant dense<1> : tensor<1x2x1x1xi32>
  %si = relay.constant dense<[[[3]], [[2]]]> : tensor<2x1x1xi32>
  %bi = relay.constant dense<1> : tensor<2x1x1xi32>
  %mi = relay.multiply %i, %si : (tensor<1x2x3x3xi32>, tensor<2x1x1xi32>) -> tensor<1x2x3x3xi32>
  %ai = relay.add %mi, %bi : (tensor<1x2x3x3xi32>, tensor<2x1x1xi32>) -> tensor<1x2x3x3xi32>
  %yi = relay.nn.conv2d %ai, %wi : (tensor<1x2x3x3xi32>, tensor<1x2x1x1xi32>) -> tensor<1x1x3x3xi32>
  return %y, %yi : tensor<1x1x3x3xf32>, tensor<1x1x3x3xi32>
}
