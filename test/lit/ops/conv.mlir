// RUN: relay-mlir-opt %s | relay-mlir-opt | FileCheck %s
// Round-trip of the convolutions and transposed convolutions (static and `?` dims).

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

// CHECK-LABEL: func.func @conv_transpose_nd
func.func @conv_transpose_nd(%x1: tensor<1x4x5xf32>, %w1: tensor<4x2x3xf32>, %x1g: tensor<1x4x7xf32>,
                             %w1g: tensor<4x3x3xf32>, %x1d: tensor<?x4x?xf32>, %x1l: tensor<1x5x4xi8>,
                             %w1l: tensor<4x2x3xi8>, %x3: tensor<1x4x3x3x3xf32>, %w3: tensor<4x2x3x3x3xf32>,
                             %x3l: tensor<1x3x4x5x4xf32>, %w3g: tensor<4x1x2x2x2xf32>, %x3d: tensor<?x4x3x?x3xf32>) {
  // (5 - 1) * 2 + 2 + 1 + output_padding 1 = 12
  // CHECK: relay.nn.conv1d_transpose %{{.*}}, %{{.*}} {output_padding = array<i64: 1>, strides = array<i64: 2>} : (tensor<1x4x5xf32>, tensor<4x2x3xf32>) -> tensor<1x2x12xf32>
  %0 = relay.nn.conv1d_transpose %x1, %w1 {strides = array<i64: 2>, output_padding = array<i64: 1>} : (tensor<1x4x5xf32>, tensor<4x2x3xf32>) -> tensor<1x2x12xf32>
  // groups 2: 2 × 3 out channels; (7 - 1) - 1 - 2 + 2 * 2 + 1 = 8
  // CHECK: relay.nn.conv1d_transpose %{{.*}}, %{{.*}} {channels = 6 : i64, dilation = array<i64: 2>, groups = 2 : i64, kernel_size = array<i64: 3>, padding = array<i64: 1, 2>} : (tensor<1x4x7xf32>, tensor<4x3x3xf32>) -> tensor<1x6x8xf32>
  %1 = relay.nn.conv1d_transpose %x1g, %w1g {padding = array<i64: 1, 2>, dilation = array<i64: 2>, groups = 2 : i64, channels = 6 : i64, kernel_size = array<i64: 3>} : (tensor<1x4x7xf32>, tensor<4x3x3xf32>) -> tensor<1x6x8xf32>
  // CHECK: relay.nn.conv1d_transpose %{{.*}}, %{{.*}} {strides = array<i64: 3>} : (tensor<?x4x?xf32>, tensor<4x2x3xf32>) -> tensor<?x2x?xf32>
  %2 = relay.nn.conv1d_transpose %x1d, %w1 {strides = array<i64: 3>} : (tensor<?x4x?xf32>, tensor<4x2x3xf32>) -> tensor<?x2x?xf32>
  // CHECK: relay.nn.conv1d_transpose %{{.*}}, %{{.*}} {data_layout = "NWC", out_dtype = i32} : (tensor<1x5x4xi8>, tensor<4x2x3xi8>) -> tensor<1x7x2xi32>
  %3 = relay.nn.conv1d_transpose %x1l, %w1l {data_layout = "NWC", out_dtype = i32} : (tensor<1x5x4xi8>, tensor<4x2x3xi8>) -> tensor<1x7x2xi32>
  // CHECK: relay.nn.conv3d_transpose %{{.*}}, %{{.*}} {strides = array<i64: 2, 2, 2>} : (tensor<1x4x3x3x3xf32>, tensor<4x2x3x3x3xf32>) -> tensor<1x2x7x7x7xf32>
  %4 = relay.nn.conv3d_transpose %x3, %w3 {strides = array<i64: 2, 2, 2>} : (tensor<1x4x3x3x3xf32>, tensor<4x2x3x3x3xf32>) -> tensor<1x2x7x7x7xf32>
  // CHECK: relay.nn.conv3d_transpose %{{.*}}, %{{.*}} {data_layout = "NDHWC", groups = 4 : i64} : (tensor<1x3x4x5x4xf32>, tensor<4x1x2x2x2xf32>) -> tensor<1x4x5x6x4xf32>
  %5 = relay.nn.conv3d_transpose %x3l, %w3g {groups = 4 : i64, data_layout = "NDHWC"} : (tensor<1x3x4x5x4xf32>, tensor<4x1x2x2x2xf32>) -> tensor<1x4x5x6x4xf32>
  // CHECK: relay.nn.conv3d_transpose %{{.*}}, %{{.*}} {output_padding = array<i64: 0, 0, 1>, padding = array<i64: 1, 0, 1>, strides = array<i64: 1, 1, 2>} : (tensor<?x4x3x?x3xf32>, tensor<4x2x3x3x3xf32>) -> tensor<?x2x3x?x6xf32>
  %6 = relay.nn.conv3d_transpose %x3d, %w3 {padding = array<i64: 1, 0, 1>, output_padding = array<i64: 0, 0, 1>, strides = array<i64: 1, 1, 2>} : (tensor<?x4x3x?x3xf32>, tensor<4x2x3x3x3xf32>) -> tensor<?x2x3x?x6xf32>
  return
}
