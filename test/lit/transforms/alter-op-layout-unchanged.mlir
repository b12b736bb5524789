// RUN: relay-mlir-opt %s -relay-alter-op-layout=simd-lanes=16 | FileCheck %s
// RUN: relay-mlir-opt %s -relay-alter-op-layout | FileCheck %s --check-prefix=LANES4

// Convolutions that stay nn.conv2d, as in TVM 0.19: NHWC, grouped (not
// depthwise), a depthwise channel multiplier of 2, a dynamic batch; the
// relu after them stays too.
// CHECK-LABEL: func.func @not_blocked(
// CHECK-NOT:     relay.layout_transform
// CHECK-COUNT-4: relay.nn.conv2d
// CHECK-NEXT:    relay.nn.relu
// CHECK-NEXT:    return
func.func @not_blocked(%x: tensor<1x5x5x8xf32>, %wh: tensor<3x3x8x8xf32>, %xc: tensor<1x8x5x5xf32>, %wg: tensor<8x4x3x3xf32>, %wm: tensor<16x1x3x3xf32>, %xd: tensor<?x8x5x5xf32>, %w: tensor<8x8x3x3xf32>) -> (tensor<1x3x3x8xf32>, tensor<1x8x3x3xf32>, tensor<1x16x3x3xf32>, tensor<?x8x3x3xf32>) {
  %a = relay.nn.conv2d %x, %wh {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x5x5x8xf32>, tensor<3x3x8x8xf32>) -> tensor<1x3x3x8xf32>
  %b = relay.nn.conv2d %xc, %wg {groups = 2 : i64} : (tensor<1x8x5x5xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x3x3xf32>
  %c = relay.nn.conv2d %xc, %wm {groups = 8 : i64} : (tensor<1x8x5x5xf32>, tensor<16x1x3x3xf32>) -> tensor<1x16x3x3xf32>
  %d = relay.nn.conv2d %xd, %w : (tensor<?x8x5x5xf32>, tensor<8x8x3x3xf32>) -> tensor<?x8x3x3xf32>
  %r = relay.nn.relu %b : (tensor<1x8x3x3xf32>) -> tensor<1x8x3x3xf32>
  return %a, %r, %c, %d : tensor<1x3x3x8xf32>, tensor<1x8x3x3xf32>, tensor<1x16x3x3xf32>, tensor<?x8x3x3xf32>
}

// An int8 conv stays with more than 4 lanes (TVM's int8 kernels there are
// OIHW{n}i{m}o4i); with 4 it is blocked.
// CHECK-LABEL: func.func @int8(
// CHECK-NEXT:    relay.nn.conv2d
// LANES4-LABEL:  func.func @int8(
// LANES4:        relay.nn.contrib_conv2d_NCHWc {{.*}}out_dtype = i32
func.func @int8(%x: tensor<1x8x5x5xi8>, %w: tensor<8x8x3x3xi8>) -> tensor<1x8x3x3xi32> {
  %c = relay.nn.conv2d %x, %w {out_dtype = i32} : (tensor<1x8x5x5xi8>, tensor<8x8x3x3xi8>) -> tensor<1x8x3x3xi32>
  return %c : tensor<1x8x3x3xi32>
}

// Blocked convs whose users take NCHW: concatenate on N, a multiply by a
// value of 1 channel (blocked by 1: it broadcasts over the channels), a sum
// without an axis, nn.bias_add (CanonicalizeOps makes it an add first) and
// an add of a [W] vector.
// CHECK-LABEL: func.func @in_nchw(
// CHECK:         %[[C:.*]] = relay.nn.contrib_conv2d_NCHWc {{.*}}out_layout = "NCHW8c"
// CHECK-NEXT:    %[[CN:.*]] = relay.layout_transform %[[C]] {dst_layout = "NCHW", src_layout = "NCHW8c"}
// CHECK-NEXT:    %[[C1:.*]] = relay.nn.contrib_conv2d_NCHWc {{.*}}out_layout = "NCHW1c"
// CHECK-NEXT:    %[[C1N:.*]] = relay.layout_transform %[[C1]] {dst_layout = "NCHW", src_layout = "NCHW1c"}
// CHECK-NEXT:    relay.concatenate %[[CN]], %[[CN]] :
// CHECK-NEXT:    relay.multiply %[[CN]], %[[C1N]] :
// CHECK-NEXT:    relay.sum %[[CN]] :
// CHECK-NEXT:    relay.nn.bias_add %[[CN]], %{{.*}} :
// CHECK-NEXT:    relay.add %[[CN]], %{{.*}} :
// CHECK-NEXT:    return
func.func @in_nchw(%x: tensor<1x8x5x5xf32>, %w: tensor<8x8x3x3xf32>, %w1: tensor<1x8x3x3xf32>, %v: tensor<8xf32>, %u: tensor<3xf32>) -> (tensor<2x8x3x3xf32>, tensor<1x8x3x3xf32>, tensor<f32>, tensor<1x8x3x3xf32>, tensor<1x8x3x3xf32>) {
  %c = relay.nn.conv2d %x, %w : (tensor<1x8x5x5xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x3x3xf32>
  %c1 = relay.nn.conv2d %x, %w1 : (tensor<1x8x5x5xf32>, tensor<1x8x3x3xf32>) -> tensor<1x1x3x3xf32>
  %j = relay.concatenate %c, %c {axis = 0 : i64} : (tensor<1x8x3x3xf32>, tensor<1x8x3x3xf32>) -> tensor<2x8x3x3xf32>
  %m = relay.multiply %c, %c1 : (tensor<1x8x3x3xf32>, tensor<1x1x3x3xf32>) -> tensor<1x8x3x3xf32>
  %s = relay.sum %c : (tensor<1x8x3x3xf32>) -> tensor<f32>
  %b = relay.nn.bias_add %c, %v {axis = 1 : i64} : (tensor<1x8x3x3xf32>, tensor<8xf32>) -> tensor<1x8x3x3xf32>
  %v3 = relay.add %c, %u : (tensor<1x8x3x3xf32>, tensor<3xf32>) -> tensor<1x8x3x3xf32>
  return %j, %m, %s, %b, %v3 : tensor<2x8x3x3xf32>, tensor<1x8x3x3xf32>, tensor<f32>, tensor<1x8x3x3xf32>, tensor<1x8x3x3xf32>
}

// TVM skips external functions (a Compiler attribute).
// CHECK-LABEL: func.func @external(
// CHECK-NEXT:    relay.nn.conv2d
func.func @external(%x: tensor<1x8x5x5xf32>, %w: tensor<8x8x3x3xf32>) -> tensor<1x8x3x3xf32> attributes {relay.attrs = {Compiler = "ccompiler"}} {
  %c = relay.nn.conv2d %x, %w : (tensor<1x8x5x5xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x3x3xf32>
  return %c : tensor<1x8x3x3xf32>
}
