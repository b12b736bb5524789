// RUN: relay-mlir-opt %s | relay-mlir-opt | FileCheck %s
// Round-trip of the convolutions (static and `?` dims).

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

// CHECK-LABEL: func.func @convs
func.func @convs(%x1: tensor<1x3x16xf32>, %w1: tensor<8x3x3xf32>, %x1d: tensor<?x4x?xf32>,
                 %w1g: tensor<4x2x3xf32>, %x3: tensor<1x2x4x6x6xf32>, %w3: tensor<4x2x3x3x3xf32>,
                 %x3l: tensor<1x4x6x6x2xf32>, %w3l: tensor<3x3x3x2x4xf32>,
                 %xt: tensor<1x4x5x5xf32>, %wt: tensor<4x2x3x3xf32>) {
  // CHECK: relay.nn.conv1d %{{.*}}, %{{.*}} {padding = array<i64: 1>} : (tensor<1x3x16xf32>, tensor<8x3x3xf32>) -> tensor<1x8x16xf32>
  %0 = relay.nn.conv1d %x1, %w1 {padding = array<i64: 1>} : (tensor<1x3x16xf32>, tensor<8x3x3xf32>) -> tensor<1x8x16xf32>
  // CHECK: relay.nn.conv1d %{{.*}}, %{{.*}} {dilation = array<i64: 2>, groups = 2 : i64, strides = array<i64: 2>} : (tensor<?x4x?xf32>, tensor<4x2x3xf32>) -> tensor<?x4x?xf32>
  %1 = relay.nn.conv1d %x1d, %w1g {strides = array<i64: 2>, dilation = array<i64: 2>, groups = 2 : i64} : (tensor<?x4x?xf32>, tensor<4x2x3xf32>) -> tensor<?x4x?xf32>
  // CHECK: relay.nn.conv3d %{{.*}}, %{{.*}} {padding = array<i64: 1, 1, 1>} : (tensor<1x2x4x6x6xf32>, tensor<4x2x3x3x3xf32>) -> tensor<1x4x4x6x6xf32>
  %2 = relay.nn.conv3d %x3, %w3 {padding = array<i64: 1, 1, 1>} : (tensor<1x2x4x6x6xf32>, tensor<4x2x3x3x3xf32>) -> tensor<1x4x4x6x6xf32>
  // CHECK: relay.nn.conv3d %{{.*}}, %{{.*}} {data_layout = "NDHWC", kernel_layout = "DHWIO"} : (tensor<1x4x6x6x2xf32>, tensor<3x3x3x2x4xf32>) -> tensor<1x2x4x4x4xf32>
  %3 = relay.nn.conv3d %x3l, %w3l {data_layout = "NDHWC", kernel_layout = "DHWIO"} : (tensor<1x4x6x6x2xf32>, tensor<3x3x3x2x4xf32>) -> tensor<1x2x4x4x4xf32>
  // CHECK: relay.nn.conv2d_transpose %{{.*}}, %{{.*}} {strides = array<i64: 2, 2>} : (tensor<1x4x5x5xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x11x11xf32>
  %4 = relay.nn.conv2d_transpose %xt, %wt {strides = array<i64: 2, 2>} : (tensor<1x4x5x5xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x11x11xf32>
  // CHECK: relay.nn.conv2d_transpose %{{.*}}, %{{.*}} {output_padding = array<i64: 1, 1>, padding = array<i64: 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x4x5x5xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x10x10xf32>
  %5 = relay.nn.conv2d_transpose %xt, %wt {strides = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>} : (tensor<1x4x5x5xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x10x10xf32>
  return
}
