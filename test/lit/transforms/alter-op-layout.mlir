// RUN: relay-mlir-opt %s -relay-alter-op-layout | FileCheck %s
// RUN: relay-mlir-opt %s -relay-alter-op-layout=simd-lanes=16 | FileCheck %s --check-prefix=AVX512

// An NCHW conv2d blocked by the lanes (plain llvm: 4): the data and the
// kernel into NCHW4c / OIHW4i4o, the relu running blocked, the result back
// to NCHW. With 16 lanes the 8 channels are one block.
// CHECK-LABEL: func.func @conv_relu(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<1x8x5x5xf32>, %[[W:[^:]*]]: tensor<8x8x3x3xf32>
// CHECK-DAG:     %[[K:.*]] = relay.layout_transform %[[W]] {dst_layout = "OIHW4i4o", src_layout = "OIHW"} : (tensor<8x8x3x3xf32>) -> tensor<2x2x3x3x4x4xf32>
// CHECK-DAG:     %[[D:.*]] = relay.layout_transform %[[X]] {dst_layout = "NCHW4c", src_layout = "NCHW"} : (tensor<1x8x5x5xf32>) -> tensor<1x2x5x5x4xf32>
// CHECK:         %[[C:.*]] = relay.nn.contrib_conv2d_NCHWc %[[D]], %[[K]] {channels = 8 : i64, data_layout = "NCHW4c", kernel_layout = "OIHW4i4o", out_layout = "NCHW4c"} : (tensor<1x2x5x5x4xf32>, tensor<2x2x3x3x4x4xf32>) -> tensor<1x2x3x3x4xf32>
// CHECK-NEXT:    %[[R:.*]] = relay.nn.relu %[[C]] : (tensor<1x2x3x3x4xf32>) -> tensor<1x2x3x3x4xf32>
// CHECK-NEXT:    %[[Y:.*]] = relay.layout_transform %[[R]] {dst_layout = "NCHW", src_layout = "NCHW4c"} : (tensor<1x2x3x3x4xf32>) -> tensor<1x8x3x3xf32>
// CHECK-NEXT:    return %[[Y]]
// AVX512-LABEL: func.func @conv_relu(
// AVX512:         relay.nn.contrib_conv2d_NCHWc {{.*}}data_layout = "NCHW8c", kernel_layout = "OIHW8i8o", out_layout = "NCHW8c"
func.func @conv_relu(%x: tensor<1x8x5x5xf32>, %w: tensor<8x8x3x3xf32>) -> tensor<1x8x3x3xf32> {
  %c = relay.nn.conv2d %x, %w : (tensor<1x8x5x5xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x3x3xf32>
  %r = relay.nn.relu %c : (tensor<1x8x3x3xf32>) -> tensor<1x8x3x3xf32>
  return %r : tensor<1x8x3x3xf32>
}

// Two convs with other blocks: one layout_transform NCHW4c -> NCHW2c
// between them (6 output channels: oc 3, ic the largest divisor of 8 up to
// 3), the conv's attributes kept, a max_pool2d running blocked.
// CHECK-LABEL: func.func @conv_chain(
// CHECK:         %[[C:.*]] = relay.nn.contrib_conv2d_NCHWc {{.*}} {channels = 8 : i64, data_layout = "NCHW4c", kernel_layout = "OIHW4i4o", kernel_size = array<i64: 3, 3>, out_layout = "NCHW4c", padding = array<i64: 1, 1, 1, 1>}
// CHECK-NEXT:    %[[R:.*]] = relay.nn.relu %[[C]]
// CHECK-NEXT:    %[[R2:.*]] = relay.layout_transform %[[R]] {dst_layout = "NCHW2c", src_layout = "NCHW4c"} : (tensor<1x2x5x5x4xf32>) -> tensor<1x4x5x5x2xf32>
// CHECK-NEXT:    %[[D:.*]] = relay.nn.contrib_conv2d_NCHWc %[[R2]], %{{.*}} {channels = 6 : i64, data_layout = "NCHW2c", kernel_layout = "OIHW2i3o", out_layout = "NCHW3c", strides = array<i64: 2, 2>} : (tensor<1x4x5x5x2xf32>, tensor<2x4x1x1x2x3xf32>) -> tensor<1x2x3x3x3xf32>
// CHECK-NEXT:    %[[P:.*]] = relay.nn.max_pool2d %[[D]] {layout = "NCHW3c", pool_size = array<i64: 2, 2>} : (tensor<1x2x3x3x3xf32>) -> tensor<1x2x2x2x3xf32>
// CHECK-NEXT:    %[[Y:.*]] = relay.layout_transform %[[P]] {dst_layout = "NCHW", src_layout = "NCHW3c"}
// CHECK-NEXT:    return %[[Y]]
func.func @conv_chain(%x: tensor<1x8x5x5xf32>, %w: tensor<8x8x3x3xf32>, %w2: tensor<6x8x1x1xf32>) -> tensor<1x6x2x2xf32> {
  %c = relay.nn.conv2d %x, %w {channels = 8 : i64, kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>} : (tensor<1x8x5x5xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x5x5xf32>
  %r = relay.nn.relu %c : (tensor<1x8x5x5xf32>) -> tensor<1x8x5x5xf32>
  %d = relay.nn.conv2d %r, %w2 {strides = array<i64: 2, 2>} : (tensor<1x8x5x5xf32>, tensor<6x8x1x1xf32>) -> tensor<1x6x3x3xf32>
  %p = relay.nn.max_pool2d %d {pool_size = array<i64: 2, 2>} : (tensor<1x6x3x3xf32>) -> tensor<1x6x2x2xf32>
  return %p : tensor<1x6x2x2xf32>
}

// A depthwise conv (groups = channels, one input channel per group): the
// depthwise blocked conv with an OIHW1i4o kernel.
// CHECK-LABEL: func.func @depthwise(
// CHECK-DAG:     %[[K:.*]] = relay.layout_transform %{{.*}} {dst_layout = "OIHW1i4o", src_layout = "OIHW"} : (tensor<8x1x3x3xf32>) -> tensor<2x1x3x3x1x4xf32>
// CHECK-DAG:     %[[D:.*]] = relay.layout_transform %{{.*}} {dst_layout = "NCHW4c", src_layout = "NCHW"}
// CHECK:         relay.nn.contrib_depthwise_conv2d_NCHWc %[[D]], %[[K]] {channels = 8 : i64, data_layout = "NCHW4c", groups = 8 : i64, kernel_layout = "OIHW1i4o", out_layout = "NCHW4c"}
func.func @depthwise(%x: tensor<1x8x5x5xf32>, %w: tensor<8x1x3x3xf32>) -> tensor<1x8x3x3xf32> {
  %c = relay.nn.conv2d %x, %w {groups = 8 : i64} : (tensor<1x8x5x5xf32>, tensor<8x1x3x3xf32>) -> tensor<1x8x3x3xf32>
  return %c : tensor<1x8x3x3xf32>
}

// Binary broadcasts run blocked: a [C, 1, 1] bias (expand_dims, then
// blocked), a scalar as it is, an NCHW tensor of the channels blocked once
// for both of its users.
// CHECK-LABEL: func.func @broadcasts(
// CHECK-SAME:    %[[B:[^:]*]]: tensor<8x1x1xf32>, %[[S:[^:]*]]: tensor<f32>, %[[Y:[^:]*]]: tensor<1x8x3x3xf32>
// CHECK:         %[[YB:.*]] = relay.layout_transform %[[Y]] {dst_layout = "NCHW4c", src_layout = "NCHW"}
// CHECK:         %[[C:.*]] = relay.nn.contrib_conv2d_NCHWc
// CHECK-NEXT:    %[[E:.*]] = relay.expand_dims %[[B]] {axis = 0 : i64} : (tensor<8x1x1xf32>) -> tensor<1x8x1x1xf32>
// CHECK-NEXT:    %[[EB:.*]] = relay.layout_transform %[[E]] {dst_layout = "NCHW4c", src_layout = "NCHW"} : (tensor<1x8x1x1xf32>) -> tensor<1x2x1x1x4xf32>
// CHECK-NEXT:    %[[A:.*]] = relay.add %[[C]], %[[EB]] : (tensor<1x2x3x3x4xf32>, tensor<1x2x1x1x4xf32>) -> tensor<1x2x3x3x4xf32>
// CHECK-NEXT:    %[[M:.*]] = relay.multiply %[[S]], %[[A]] : (tensor<f32>, tensor<1x2x3x3x4xf32>) -> tensor<1x2x3x3x4xf32>
// CHECK-NEXT:    %[[N:.*]] = relay.subtract %[[M]], %[[YB]]
// CHECK-NEXT:    %[[O:.*]] = relay.maximum %[[N]], %[[YB]]
// CHECK-NEXT:    %[[R:.*]] = relay.layout_transform %[[O]] {dst_layout = "NCHW", src_layout = "NCHW4c"}
// CHECK-NEXT:    return %[[R]]
func.func @broadcasts(%x: tensor<1x8x5x5xf32>, %w: tensor<8x8x3x3xf32>, %b: tensor<8x1x1xf32>, %s: tensor<f32>, %y: tensor<1x8x3x3xf32>) -> tensor<1x8x3x3xf32> {
  %c = relay.nn.conv2d %x, %w : (tensor<1x8x5x5xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x3x3xf32>
  %a = relay.add %c, %b : (tensor<1x8x3x3xf32>, tensor<8x1x1xf32>) -> tensor<1x8x3x3xf32>
  %m = relay.multiply %s, %a : (tensor<f32>, tensor<1x8x3x3xf32>) -> tensor<1x8x3x3xf32>
  %n = relay.subtract %m, %y : (tensor<1x8x3x3xf32>, tensor<1x8x3x3xf32>) -> tensor<1x8x3x3xf32>
  %o = relay.maximum %n, %y : (tensor<1x8x3x3xf32>, tensor<1x8x3x3xf32>) -> tensor<1x8x3x3xf32>
  return %o : tensor<1x8x3x3xf32>
}

// Reductions with an axis and pools of a blocked value: H, W reduced
// without keepdims back to NC at once; C reduced (axis -3) with keepdims
// stays blocked by 1; C reduced without keepdims needs no transform; a
// global pool blocked.
// CHECK-LABEL: func.func @reductions(
// CHECK:         %[[C:.*]] = relay.nn.contrib_conv2d_NCHWc
// CHECK-NEXT:    %[[S:.*]] = relay.sum %[[C]] {axis = array<i64: 2, 3>} : (tensor<1x2x3x3x4xf32>) -> tensor<1x2x4xf32>
// CHECK-NEXT:    %[[S2:.*]] = relay.layout_transform %[[S]] {dst_layout = "NC", src_layout = "NC4c"} : (tensor<1x2x4xf32>) -> tensor<1x8xf32>
// CHECK-NEXT:    %[[M:.*]] = relay.mean %[[C]] {axis = array<i64: 1, 4>, keepdims = true} : (tensor<1x2x3x3x4xf32>) -> tensor<1x1x3x3x1xf32>
// CHECK-NEXT:    %[[M2:.*]] = relay.layout_transform %[[M]] {dst_layout = "NCHW", src_layout = "NCHW1c"} : (tensor<1x1x3x3x1xf32>) -> tensor<1x1x3x3xf32>
// CHECK-NEXT:    %[[N:.*]] = relay.max %[[C]] {axis = array<i64: 1, 4>} : (tensor<1x2x3x3x4xf32>) -> tensor<1x3x3xf32>
// CHECK-NEXT:    %[[G:.*]] = relay.nn.global_avg_pool2d %[[C]] {layout = "NCHW4c"} : (tensor<1x2x3x3x4xf32>) -> tensor<1x2x1x1x4xf32>
// CHECK-NEXT:    %[[G2:.*]] = relay.layout_transform %[[G]] {dst_layout = "NCHW", src_layout = "NCHW4c"}
// CHECK-NEXT:    return %[[S2]], %[[M2]], %[[N]], %[[G2]]
func.func @reductions(%x: tensor<1x8x5x5xf32>, %w: tensor<8x8x3x3xf32>) -> (tensor<1x8xf32>, tensor<1x1x3x3xf32>, tensor<1x3x3xf32>, tensor<1x8x1x1xf32>) {
  %c = relay.nn.conv2d %x, %w : (tensor<1x8x5x5xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x3x3xf32>
  %s = relay.sum %c {axis = array<i64: 2, 3>} : (tensor<1x8x3x3xf32>) -> tensor<1x8xf32>
  %m = relay.mean %c {axis = array<i64: -3>, keepdims = true} : (tensor<1x8x3x3xf32>) -> tensor<1x1x3x3xf32>
  %n = relay.max %c {axis = array<i64: 1>} : (tensor<1x8x3x3xf32>) -> tensor<1x3x3xf32>
  %g = relay.nn.global_avg_pool2d %c : (tensor<1x8x3x3xf32>) -> tensor<1x8x1x1xf32>
  return %s, %m, %n, %g : tensor<1x8xf32>, tensor<1x1x3x3xf32>, tensor<1x3x3xf32>, tensor<1x8x1x1xf32>
}

// concatenate on the channels (axis -3) of two values blocked alike runs
// blocked (axis 1); nn.softmax needs NCHW and gets the conv's value back,
// the one layout_transform that remains of it.
// CHECK-LABEL: func.func @concat_and_shared(
// CHECK:         %[[C:.*]] = relay.nn.contrib_conv2d_NCHWc
// CHECK-NEXT:    %[[CN:.*]] = relay.layout_transform %[[C]] {dst_layout = "NCHW", src_layout = "NCHW4c"}
// CHECK-NEXT:    %[[E:.*]] = relay.exp %[[C]]
// CHECK-NEXT:    %[[J:.*]] = relay.concatenate %[[C]], %[[E]] {axis = 1 : i64} : (tensor<1x2x3x3x4xf32>, tensor<1x2x3x3x4xf32>) -> tensor<1x4x3x3x4xf32>
// CHECK-NEXT:    %[[JN:.*]] = relay.layout_transform %[[J]] {dst_layout = "NCHW", src_layout = "NCHW4c"}
// CHECK-NEXT:    %[[S:.*]] = relay.nn.softmax %[[CN]] {axis = 1 : i64}
// CHECK-NEXT:    return %[[JN]], %[[S]]
// CHECK-NOT:     relay.alter_op_layout
func.func @concat_and_shared(%x: tensor<1x8x5x5xf32>, %w: tensor<8x8x3x3xf32>) -> (tensor<1x16x3x3xf32>, tensor<1x8x3x3xf32>) {
  %c = relay.nn.conv2d %x, %w : (tensor<1x8x5x5xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x3x3xf32>
  %e = relay.exp %c : (tensor<1x8x3x3xf32>) -> tensor<1x8x3x3xf32>
  %j = relay.concatenate %c, %e {axis = -3 : i64} : (tensor<1x8x3x3xf32>, tensor<1x8x3x3xf32>) -> tensor<1x16x3x3xf32>
  %s = relay.nn.softmax %c {axis = 1 : i64} : (tensor<1x8x3x3xf32>) -> tensor<1x8x3x3xf32>
  return %j, %s : tensor<1x16x3x3xf32>, tensor<1x8x3x3xf32>
}
