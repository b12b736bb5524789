// RUN: relay-mlir-opt %s -relay-infer-type -relay-convert-layout | FileCheck %s
// RUN: relay-mlir-opt %s "-relay-to-iree-input=convert-layout=true" | FileCheck %s --check-prefix=IREE
// RUN: relay-mlir-opt %s "-relay-to-iree-input=convert-layout=false" | FileCheck %s --check-prefix=NCHW

// A ResNet-style network (stem conv-bn-relu, max_pool, a residual block,
// global_avg_pool, flatten, dense, softmax) with constant weights becomes
// NHWC end to end: one transpose at the input, none in the body; the
// weight transposes fold; global_avg_pool2d's [N,1,1,C] result goes back
// to NCHW as a reshape.

// CHECK-LABEL: func.func @resnet
// CHECK-SAME: (%[[X:.+]]: tensor<1x3x16x16xf32>)
// CHECK: %[[XT:.+]] = relay.transpose %[[X]] {axes = array<i64: 0, 2, 3, 1>}
// CHECK-NOT: relay.transpose
// CHECK: %[[C0:.+]] = relay.nn.conv2d %[[XT]], %{{.+}} {data_layout = "NHWC", kernel_layout = "HWIO", padding = array<i64: 1, 1>} : (tensor<1x16x16x3xf32>, tensor<3x3x3x8xf32>) -> tensor<1x16x16x8xf32>
// CHECK: %[[BN:.+]] = relay.nn.batch_norm %[[C0]], {{.*}} {axis = 3 : i64}
// CHECK: %[[B0:.+]] = relay.tuple_get_item %[[BN]][0]
// CHECK: %[[R0:.+]] = relay.nn.relu %[[B0]]
// CHECK: %[[P:.+]] = relay.nn.max_pool2d %[[R0]] {layout = "NHWC"
// CHECK: %[[C1:.+]] = relay.nn.conv2d %[[P]], {{.*}} -> tensor<1x8x8x8xf32>
// CHECK: %[[R1:.+]] = relay.nn.relu %[[C1]]
// CHECK: %[[C2:.+]] = relay.nn.conv2d %[[R1]], {{.*}} -> tensor<1x8x8x8xf32>
// CHECK: %[[S:.+]] = relay.add %[[P]], %[[C2]] : (tensor<1x8x8x8xf32>, tensor<1x8x8x8xf32>)
// CHECK: %[[R2:.+]] = relay.nn.relu %[[S]]
// CHECK: %[[G:.+]] = relay.nn.global_avg_pool2d %[[R2]] {layout = "NHWC"} : (tensor<1x8x8x8xf32>) -> tensor<1x1x1x8xf32>
// CHECK: %[[GR:.+]] = relay.reshape %[[G]] {newshape = array<i64: 1, 8, 1, 1>}
// CHECK: %[[F:.+]] = relay.nn.batch_flatten %[[GR]]
// CHECK: relay.nn.dense %[[F]]
// CHECK-NOT: relay.transpose
// CHECK: return

// IREE-LABEL: func.func @resnet
// IREE-COUNT-1: linalg.transpose
// IREE-NOT: linalg.transpose
// IREE-NOT: conv_2d_nchw
// IREE-NOT: pooling_nchw
// (kernels of at most 128 KB: direct NHWC convolutions; the dense a matmul)
// IREE: linalg.conv_2d_nhwc_hwcf
// IREE: linalg.pooling_nhwc_max
// IREE: linalg.conv_2d_nhwc_hwcf
// IREE: linalg.conv_2d_nhwc_hwcf
// IREE: linalg.matmul
// IREE: math.exp
// IREE: arith.divf

// NCHW-LABEL: func.func @resnet
// NCHW-NOT: linalg.transpose
// NCHW: linalg.conv_2d_nchw_fchw
// NCHW: linalg.pooling_nchw_max
func.func @resnet(%x: tensor<1x3x16x16xf32>) -> !relay.incomplete {
  %w0 = relay.constant dense<0.1> : tensor<8x3x3x3xf32>
  %g = relay.constant dense<[1.0, 0.5, 2.0, 1.5, 1.0, 0.25, 1.0, 3.0]> : tensor<8xf32>
  %b = relay.constant dense<[0.0, 0.1, -0.1, 0.2, 0.0, 0.3, -0.2, 0.0]> : tensor<8xf32>
  %m = relay.constant dense<[0.1, 0.0, 0.2, 0.0, 0.1, 0.0, 0.3, 0.0]> : tensor<8xf32>
  %v = relay.constant dense<[1.0, 2.0, 1.0, 0.5, 1.0, 1.0, 2.0, 1.0]> : tensor<8xf32>
  %c0 = relay.nn.conv2d %x, %w0 {padding = array<i64: 1, 1>} : (tensor<1x3x16x16xf32>, tensor<8x3x3x3xf32>) -> !relay.incomplete
  %bn = relay.nn.batch_norm %c0, %g, %b, %m, %v : (!relay.incomplete, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> !relay.incomplete
  %b0 = relay.tuple_get_item %bn[0] : (!relay.incomplete) -> !relay.incomplete
  %r0 = relay.nn.relu %b0 : (!relay.incomplete) -> !relay.incomplete
  %p = relay.nn.max_pool2d %r0 {pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1>} : (!relay.incomplete) -> !relay.incomplete
  %w1 = relay.constant dense<0.05> : tensor<8x8x3x3xf32>
  %c1 = relay.nn.conv2d %p, %w1 {padding = array<i64: 1, 1>} : (!relay.incomplete, tensor<8x8x3x3xf32>) -> !relay.incomplete
  %r1 = relay.nn.relu %c1 : (!relay.incomplete) -> !relay.incomplete
  %w2 = relay.constant dense<-0.05> : tensor<8x8x3x3xf32>
  %c2 = relay.nn.conv2d %r1, %w2 {padding = array<i64: 1, 1>} : (!relay.incomplete, tensor<8x8x3x3xf32>) -> !relay.incomplete
  %s = relay.add %p, %c2 : (!relay.incomplete, !relay.incomplete) -> !relay.incomplete
  %r2 = relay.nn.relu %s : (!relay.incomplete) -> !relay.incomplete
  %gp = relay.nn.global_avg_pool2d %r2 : (!relay.incomplete) -> !relay.incomplete
  %f = relay.nn.batch_flatten %gp : (!relay.incomplete) -> !relay.incomplete
  %wd = relay.constant dense<0.2> : tensor<4x8xf32>
  %d = relay.nn.dense %f, %wd : (!relay.incomplete, tensor<4x8xf32>) -> !relay.incomplete
  %y = relay.nn.softmax %d : (!relay.incomplete) -> !relay.incomplete
  return %y : !relay.incomplete
}
