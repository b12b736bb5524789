// RUN: relay-mlir-opt %s | relay-mlir-opt | FileCheck %s

// CHECK-LABEL: func.func @dense
func.func @dense(%x: tensor<1x64xf32>, %w: tensor<10x64xf32>, %x3: tensor<2x3x64xf32>,
                 %xd: tensor<?x?xf32>, %q: tensor<4x8xi8>, %qw: tensor<16x8xi8>) {
  // CHECK: relay.nn.dense %{{.*}}, %{{.*}} : (tensor<1x64xf32>, tensor<10x64xf32>) -> tensor<1x10xf32>
  %0 = relay.nn.dense %x, %w : (tensor<1x64xf32>, tensor<10x64xf32>) -> tensor<1x10xf32>
  // CHECK: relay.nn.dense %{{.*}}, %{{.*}} {units = 10 : i64} : (tensor<2x3x64xf32>, tensor<10x64xf32>) -> tensor<2x3x10xf32>
  %1 = relay.nn.dense %x3, %w {units = 10 : i64} : (tensor<2x3x64xf32>, tensor<10x64xf32>) -> tensor<2x3x10xf32>
  // CHECK: relay.nn.dense %{{.*}}, %{{.*}} : (tensor<?x?xf32>, tensor<10x64xf32>) -> tensor<?x10xf32>
  %2 = relay.nn.dense %xd, %w : (tensor<?x?xf32>, tensor<10x64xf32>) -> tensor<?x10xf32>
  // CHECK: relay.nn.dense %{{.*}}, %{{.*}} {out_dtype = i32} : (tensor<4x8xi8>, tensor<16x8xi8>) -> tensor<4x16xi32>
  %3 = relay.nn.dense %q, %qw {out_dtype = i32} : (tensor<4x8xi8>, tensor<16x8xi8>) -> tensor<4x16xi32>
  return
}

// CHECK-LABEL: func.func @bias_add
func.func @bias_add(%x: tensor<1x8x4x4xf32>, %b: tensor<8xf32>, %c: tensor<4xf32>, %xd: tensor<?x?xf32>) {
  // CHECK: relay.nn.bias_add %{{.*}}, %{{.*}} : (tensor<1x8x4x4xf32>, tensor<8xf32>) -> tensor<1x8x4x4xf32>
  %0 = relay.nn.bias_add %x, %b {axis = 1 : i64} : (tensor<1x8x4x4xf32>, tensor<8xf32>) -> tensor<1x8x4x4xf32>
  // CHECK: relay.nn.bias_add %{{.*}}, %{{.*}} {axis = -1 : i64} : (tensor<1x8x4x4xf32>, tensor<4xf32>) -> tensor<1x8x4x4xf32>
  %1 = relay.nn.bias_add %x, %c {axis = -1 : i64} : (tensor<1x8x4x4xf32>, tensor<4xf32>) -> tensor<1x8x4x4xf32>
  // CHECK: relay.nn.bias_add %{{.*}}, %{{.*}} : (tensor<?x?xf32>, tensor<8xf32>) -> tensor<?x?xf32>
  %2 = relay.nn.bias_add %xd, %b : (tensor<?x?xf32>, tensor<8xf32>) -> tensor<?x?xf32>
  return
}

// CHECK-LABEL: func.func @conv2d
func.func @conv2d(%x: tensor<1x3x32x32xf32>, %w: tensor<8x3x3x3xf32>,
                  %xh: tensor<1x32x32x3xf32>, %wh: tensor<3x3x3x8xf32>, %wo: tensor<8x3x3x3xf32>,
                  %xg: tensor<1x8x16x16xf32>, %wg: tensor<16x2x3x3xf32>, %wd: tensor<8x1x3x3xf32>,
                  %wdm: tensor<3x3x8x2xf32>, %xgh: tensor<1x16x16x8xf32>,
                  %xd: tensor<?x3x?x32xf32>, %wdyn: tensor<8x3x?x3xf32>,
                  %q: tensor<1x3x8x8xi8>, %qw: tensor<4x3x1x1xi8>) {
  // CHECK: relay.nn.conv2d %{{.*}}, %{{.*}} {padding = array<i64: 1, 1>} : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x32x32xf32>
  %0 = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>} : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x32x32xf32>
  // strides 2, dilation 2, 4-entry padding: (32 + 1 + 2 - 5) / 2 + 1 = 16, (32 + 0 + 0 - 5) / 2 + 1 = 14
  // CHECK: relay.nn.conv2d {{.*}} -> tensor<1x8x16x14xf32>
  %1 = relay.nn.conv2d %x, %w {strides = array<i64: 2, 2>, dilation = array<i64: 2, 2>, padding = array<i64: 1, 0, 2, 0>, channels = 8 : i64, kernel_size = array<i64: 3, 3>} : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x16x14xf32>
  // 1-entry padding
  // CHECK: relay.nn.conv2d {{.*}} -> tensor<1x8x34x34xf32>
  %2 = relay.nn.conv2d %x, %w {padding = array<i64: 2>} : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x34x34xf32>
  // NHWC / HWIO
  // CHECK: relay.nn.conv2d %{{.*}}, %{{.*}} {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x32x32x3xf32>, tensor<3x3x3x8xf32>) -> tensor<1x30x30x8xf32>
  %3 = relay.nn.conv2d %xh, %wh {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x32x32x3xf32>, tensor<3x3x3x8xf32>) -> tensor<1x30x30x8xf32>
  // NHWC / OHWI (weight 8x3x3x3 read as O=8, H=3, W=3, I=3)
  // CHECK: relay.nn.conv2d {{.*}} -> tensor<1x30x30x8xf32>
  %4 = relay.nn.conv2d %xh, %wo {data_layout = "NHWC", kernel_layout = "OHWI"} : (tensor<1x32x32x3xf32>, tensor<8x3x3x3xf32>) -> tensor<1x30x30x8xf32>
  // out_layout differs from data_layout
  // CHECK: relay.nn.conv2d {{.*}} -> tensor<1x30x30x8xf32>
  %5 = relay.nn.conv2d %x, %w {out_layout = "NHWC"} : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<1x30x30x8xf32>
  // grouped: 8 input channels = 2 × 4 groups, 16 outputs
  // CHECK: relay.nn.conv2d {{.*}} -> tensor<1x16x14x14xf32>
  %6 = relay.nn.conv2d %xg, %wg {groups = 4 : i64} : (tensor<1x8x16x16xf32>, tensor<16x2x3x3xf32>) -> tensor<1x16x14x14xf32>
  // depthwise, OIHW [C, 1, kh, kw]
  // CHECK: relay.nn.conv2d {{.*}} -> tensor<1x8x16x16xf32>
  %7 = relay.nn.conv2d %xg, %wd {groups = 8 : i64, channels = 8 : i64, kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1>} : (tensor<1x8x16x16xf32>, tensor<8x1x3x3xf32>) -> tensor<1x8x16x16xf32>
  // depthwise with channel multiplier 2, NHWC / HWOI (TensorFlow's kernel: [kh, kw, C, multiplier])
  // CHECK: relay.nn.conv2d {{.*}} -> tensor<1x14x14x16xf32>
  %8 = relay.nn.conv2d %xgh, %wdm {groups = 8 : i64, channels = 16 : i64, kernel_size = array<i64: 3, 3>, data_layout = "NHWC", kernel_layout = "HWOI"} : (tensor<1x16x16x8xf32>, tensor<3x3x8x2xf32>) -> tensor<1x14x14x16xf32>
  // `?` batch and spatial dims propagate; a `?` kernel dim makes the output dim `?`
  // CHECK: relay.nn.conv2d {{.*}} -> tensor<?x8x?x30xf32>
  %9 = relay.nn.conv2d %xd, %w : (tensor<?x3x?x32xf32>, tensor<8x3x3x3xf32>) -> tensor<?x8x?x30xf32>
  // CHECK: relay.nn.conv2d {{.*}} -> tensor<1x8x?x30xf32>
  %10 = relay.nn.conv2d %x, %wdyn : (tensor<1x3x32x32xf32>, tensor<8x3x?x3xf32>) -> tensor<1x8x?x30xf32>
  // out_dtype
  // CHECK: relay.nn.conv2d %{{.*}}, %{{.*}} {out_dtype = i32} : (tensor<1x3x8x8xi8>, tensor<4x3x1x1xi8>) -> tensor<1x4x8x8xi32>
  %11 = relay.nn.conv2d %q, %qw {out_dtype = i32} : (tensor<1x3x8x8xi8>, tensor<4x3x1x1xi8>) -> tensor<1x4x8x8xi32>
  return
}

// CHECK-LABEL: func.func @pools
func.func @pools(%x: tensor<1x8x32x32xf32>, %xh: tensor<1x7x7x8xf32>, %xd: tensor<?x8x?x32xf32>, %x5: tensor<1x1x5x5xf32>) {
  // CHECK: relay.nn.max_pool2d %{{.*}} {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x8x32x32xf32>) -> tensor<1x8x16x16xf32>
  %0 = relay.nn.max_pool2d %x {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x8x32x32xf32>) -> tensor<1x8x16x16xf32>
  // CHECK: relay.nn.avg_pool2d %{{.*}} {count_include_pad = true, padding = array<i64: 1>, pool_size = array<i64: 3, 3>} : (tensor<1x8x32x32xf32>) -> tensor<1x8x32x32xf32>
  %1 = relay.nn.avg_pool2d %x {pool_size = array<i64: 3, 3>, padding = array<i64: 1>, count_include_pad = true} : (tensor<1x8x32x32xf32>) -> tensor<1x8x32x32xf32>
  // NHWC; 7 with pool 3 stride 2: floor 3, ceil 3
  // CHECK: relay.nn.max_pool2d {{.*}} -> tensor<1x3x3x8xf32>
  %2 = relay.nn.max_pool2d %xh {pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, layout = "NHWC", out_layout = "NHWC"} : (tensor<1x7x7x8xf32>) -> tensor<1x3x3x8xf32>
  // ceil_mode: 5 with pool 2 stride 2: floor 2, ceil 3
  // CHECK: relay.nn.max_pool2d {{.*}} -> tensor<1x1x2x2xf32>
  %3 = relay.nn.max_pool2d %x5 {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x1x5x5xf32>) -> tensor<1x1x2x2xf32>
  // CHECK: relay.nn.max_pool2d {{.*}} -> tensor<1x1x3x3xf32>
  %4 = relay.nn.max_pool2d %x5 {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>, ceil_mode = true} : (tensor<1x1x5x5xf32>) -> tensor<1x1x3x3xf32>
  // Relay's ceil formula has no "last window must start inside" correction:
  // (5 + 1 + 1 - 2 + 2 - 1) / 2 + 1 = 4 (PyTorch would give 3)
  // CHECK: relay.nn.avg_pool2d {{.*}} -> tensor<1x1x4x4xf32>
  %5 = relay.nn.avg_pool2d %x5 {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1>, ceil_mode = true} : (tensor<1x1x5x5xf32>) -> tensor<1x1x4x4xf32>
  // dilation 2: span 3
  // CHECK: relay.nn.max_pool2d {{.*}} -> tensor<1x1x3x3xf32>
  %6 = relay.nn.max_pool2d %x5 {pool_size = array<i64: 2, 2>, dilation = array<i64: 2, 2>} : (tensor<1x1x5x5xf32>) -> tensor<1x1x3x3xf32>
  // CHECK: relay.nn.max_pool2d {{.*}} -> tensor<?x8x?x16xf32>
  %7 = relay.nn.max_pool2d %xd {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<?x8x?x32xf32>) -> tensor<?x8x?x16xf32>
  // CHECK: relay.nn.global_avg_pool2d %{{.*}} : (tensor<1x8x32x32xf32>) -> tensor<1x8x1x1xf32>
  %8 = relay.nn.global_avg_pool2d %x : (tensor<1x8x32x32xf32>) -> tensor<1x8x1x1xf32>
  // CHECK: relay.nn.global_avg_pool2d %{{.*}} {layout = "NHWC"} : (tensor<1x7x7x8xf32>) -> tensor<1x1x1x8xf32>
  %9 = relay.nn.global_avg_pool2d %xh {layout = "NHWC"} : (tensor<1x7x7x8xf32>) -> tensor<1x1x1x8xf32>
  // CHECK: relay.nn.global_avg_pool2d {{.*}} -> tensor<?x8x1x1xf32>
  %10 = relay.nn.global_avg_pool2d %xd : (tensor<?x8x?x32xf32>) -> tensor<?x8x1x1xf32>
  return
}

// CHECK-LABEL: func.func @batch_flatten
func.func @batch_flatten(%x: tensor<2x3x4x5xf32>, %xd: tensor<?x3x4xf32>, %xa: tensor<2x?x4xf32>, %x1: tensor<7xf32>) {
  // CHECK: relay.nn.batch_flatten %{{.*}} : (tensor<2x3x4x5xf32>) -> tensor<2x60xf32>
  %0 = relay.nn.batch_flatten %x : (tensor<2x3x4x5xf32>) -> tensor<2x60xf32>
  // CHECK: relay.nn.batch_flatten %{{.*}} : (tensor<?x3x4xf32>) -> tensor<?x12xf32>
  %1 = relay.nn.batch_flatten %xd : (tensor<?x3x4xf32>) -> tensor<?x12xf32>
  // CHECK: relay.nn.batch_flatten %{{.*}} : (tensor<2x?x4xf32>) -> tensor<2x?xf32>
  %2 = relay.nn.batch_flatten %xa : (tensor<2x?x4xf32>) -> tensor<2x?xf32>
  // CHECK: relay.nn.batch_flatten %{{.*}} : (tensor<7xf32>) -> tensor<7x1xf32>
  %3 = relay.nn.batch_flatten %x1 : (tensor<7xf32>) -> tensor<7x1xf32>
  return
}

// CHECK-LABEL: func.func @batch_norm
func.func @batch_norm(%x: tensor<1x8x4x4xf32>, %p: tensor<8xf32>, %xh: tensor<1x4x4x8xf32>, %xd: tensor<?x?x4x4xf32>) {
  // CHECK: relay.nn.batch_norm %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<1x8x4x4xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tuple<tensor<1x8x4x4xf32>, tensor<8xf32>, tensor<8xf32>>
  %0 = relay.nn.batch_norm %x, %p, %p, %p, %p : (tensor<1x8x4x4xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tuple<tensor<1x8x4x4xf32>, tensor<8xf32>, tensor<8xf32>>
  // CHECK: relay.nn.batch_norm {{.*}} {axis = -1 : i64, center = false, epsilon = 1.000000e-03 : f64, scale = false}
  %1 = relay.nn.batch_norm %xh, %p, %p, %p, %p {axis = -1 : i64, epsilon = 1.0e-3 : f64, center = false, scale = false} : (tensor<1x4x4x8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tuple<tensor<1x4x4x8xf32>, tensor<8xf32>, tensor<8xf32>>
  // CHECK: relay.nn.batch_norm {{.*}} -> tuple<tensor<?x?x4x4xf32>, tensor<8xf32>, tensor<8xf32>>
  %2 = relay.nn.batch_norm %xd, %p, %p, %p, %p : (tensor<?x?x4x4xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tuple<tensor<?x?x4x4xf32>, tensor<8xf32>, tensor<8xf32>>
  return
}

// CHECK-LABEL: func.func @softmax
func.func @softmax(%x: tensor<2x10xf32>, %xd: tensor<?x?xf32>) {
  // CHECK: relay.nn.softmax %{{.*}} : (tensor<2x10xf32>) -> tensor<2x10xf32>
  %0 = relay.nn.softmax %x : (tensor<2x10xf32>) -> tensor<2x10xf32>
  // CHECK: relay.nn.softmax %{{.*}} {axis = 0 : i64} : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %1 = relay.nn.softmax %xd {axis = 0 : i64} : (tensor<?x?xf32>) -> tensor<?x?xf32>
  return
}
