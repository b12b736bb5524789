// RUN: relay-mlir-opt %s | relay-mlir-opt | FileCheck %s
// Round-trip of the operator-library nn.* ops (static and `?` dims).

// CHECK-LABEL: func.func @matmuls
func.func @matmuls(%a: tensor<2x8xf32>, %b: tensor<8x5xf32>, %bt: tensor<5x8xf32>,
                   %at: tensor<?x8x2xf32>, %x: tensor<2x3x4xf32>, %y: tensor<2x5x4xf32>,
                   %y1: tensor<1x4x5xf32>) {
  // CHECK: relay.nn.matmul %{{.*}}, %{{.*}} : (tensor<2x8xf32>, tensor<8x5xf32>) -> tensor<2x5xf32>
  %0 = relay.nn.matmul %a, %b : (tensor<2x8xf32>, tensor<8x5xf32>) -> tensor<2x5xf32>
  // CHECK: relay.nn.matmul %{{.*}}, %{{.*}} {transpose_b = true} : (tensor<2x8xf32>, tensor<5x8xf32>) -> tensor<2x5xf32>
  %1 = relay.nn.matmul %a, %bt {transpose_b = true} : (tensor<2x8xf32>, tensor<5x8xf32>) -> tensor<2x5xf32>
  // CHECK: relay.nn.matmul %{{.*}}, %{{.*}} {transpose_a = true} : (tensor<?x8x2xf32>, tensor<8x5xf32>) -> tensor<?x2x5xf32>
  %2 = relay.nn.matmul %at, %b {transpose_a = true} : (tensor<?x8x2xf32>, tensor<8x5xf32>) -> tensor<?x2x5xf32>
  // CHECK: relay.nn.batch_matmul %{{.*}}, %{{.*}} : (tensor<2x3x4xf32>, tensor<2x5x4xf32>) -> tensor<2x3x5xf32>
  %3 = relay.nn.batch_matmul %x, %y : (tensor<2x3x4xf32>, tensor<2x5x4xf32>) -> tensor<2x3x5xf32>
  // CHECK: relay.nn.batch_matmul %{{.*}}, %{{.*}} {transpose_b = false} : (tensor<2x3x4xf32>, tensor<1x4x5xf32>) -> tensor<2x3x5xf32>
  %4 = relay.nn.batch_matmul %x, %y1 {transpose_b = false} : (tensor<2x3x4xf32>, tensor<1x4x5xf32>) -> tensor<2x3x5xf32>
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

// CHECK-LABEL: func.func @pools
func.func @pools(%x1: tensor<1x2x9xf32>, %x3: tensor<1x2x5x5x5xf32>, %x2: tensor<?x3x7x7xf32>) {
  // CHECK: relay.nn.max_pool1d %{{.*}} {pool_size = array<i64: 3>, strides = array<i64: 2>} : (tensor<1x2x9xf32>) -> tensor<1x2x4xf32>
  %0 = relay.nn.max_pool1d %x1 {pool_size = array<i64: 3>, strides = array<i64: 2>} : (tensor<1x2x9xf32>) -> tensor<1x2x4xf32>
  // CHECK: relay.nn.avg_pool1d %{{.*}} {ceil_mode = true, count_include_pad = true, padding = array<i64: 1>, pool_size = array<i64: 2>, strides = array<i64: 2>} : (tensor<1x2x9xf32>) -> tensor<1x2x6xf32>
  %1 = relay.nn.avg_pool1d %x1 {pool_size = array<i64: 2>, strides = array<i64: 2>, padding = array<i64: 1>, ceil_mode = true, count_include_pad = true} : (tensor<1x2x9xf32>) -> tensor<1x2x6xf32>
  // CHECK: relay.nn.max_pool3d %{{.*}} {pool_size = array<i64: 2, 2, 2>, strides = array<i64: 2, 2, 2>} : (tensor<1x2x5x5x5xf32>) -> tensor<1x2x2x2x2xf32>
  %2 = relay.nn.max_pool3d %x3 {pool_size = array<i64: 2, 2, 2>, strides = array<i64: 2, 2, 2>} : (tensor<1x2x5x5x5xf32>) -> tensor<1x2x2x2x2xf32>
  // CHECK: relay.nn.avg_pool3d %{{.*}} {layout = "NDHWC", pool_size = array<i64: 1, 3, 3>} : (tensor<1x2x5x5x5xf32>) -> tensor<1x2x3x3x5xf32>
  %3 = relay.nn.avg_pool3d %x3 {pool_size = array<i64: 1, 3, 3>, layout = "NDHWC"} : (tensor<1x2x5x5x5xf32>) -> tensor<1x2x3x3x5xf32>
  // CHECK: relay.nn.global_max_pool2d %{{.*}} : (tensor<?x3x7x7xf32>) -> tensor<?x3x1x1xf32>
  %4 = relay.nn.global_max_pool2d %x2 : (tensor<?x3x7x7xf32>) -> tensor<?x3x1x1xf32>
  // CHECK: relay.nn.adaptive_avg_pool2d %{{.*}} {output_size = array<i64: 3, 2>} : (tensor<?x3x7x7xf32>) -> tensor<?x3x3x2xf32>
  %5 = relay.nn.adaptive_avg_pool2d %x2 {output_size = array<i64: 3, 2>} : (tensor<?x3x7x7xf32>) -> tensor<?x3x3x2xf32>
  // CHECK: relay.nn.adaptive_max_pool2d %{{.*}} {output_size = array<i64: 1>} : (tensor<?x3x7x7xf32>) -> tensor<?x3x1x1xf32>
  %6 = relay.nn.adaptive_max_pool2d %x2 {output_size = array<i64: 1>} : (tensor<?x3x7x7xf32>) -> tensor<?x3x1x1xf32>
  // CHECK: relay.nn.adaptive_avg_pool2d %{{.*}} : (tensor<?x3x7x7xf32>) -> tensor<?x3x7x7xf32>
  %7 = relay.nn.adaptive_avg_pool2d %x2 : (tensor<?x3x7x7xf32>) -> tensor<?x3x7x7xf32>
  return
}

// CHECK-LABEL: func.func @norms
func.func @norms(%x: tensor<2x4x3x3xf32>, %g: tensor<4xf32>, %b: tensor<4xf32>,
                 %l: tensor<?x8xf32>, %lg: tensor<8xf32>) {
  // CHECK: relay.nn.layer_norm %{{.*}}, %{{.*}}, %{{.*}} : (tensor<?x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
  %0 = relay.nn.layer_norm %l, %lg, %lg : (tensor<?x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
  // CHECK: relay.nn.group_norm %{{.*}}, %{{.*}}, %{{.*}} {epsilon = 1.000000e-03 : f64, num_groups = 2 : i64} : (tensor<2x4x3x3xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4x3x3xf32>
  %1 = relay.nn.group_norm %x, %g, %b {num_groups = 2 : i64, epsilon = 1.0e-3 : f64} : (tensor<2x4x3x3xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4x3x3xf32>
  // CHECK: relay.nn.instance_norm %{{.*}}, %{{.*}}, %{{.*}} {center = false} : (tensor<2x4x3x3xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4x3x3xf32>
  %2 = relay.nn.instance_norm %x, %g, %b {center = false} : (tensor<2x4x3x3xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4x3x3xf32>
  // CHECK: relay.nn.l2_normalize %{{.*}} {axis = array<i64: 1>, eps = 1.000000e-10 : f64} : (tensor<?x8xf32>) -> tensor<?x8xf32>
  %3 = relay.nn.l2_normalize %l {eps = 1.0e-10 : f64, axis = array<i64: 1>} : (tensor<?x8xf32>) -> tensor<?x8xf32>
  // CHECK: relay.nn.lrn %{{.*}} {size = 3 : i64} : (tensor<2x4x3x3xf32>) -> tensor<2x4x3x3xf32>
  %4 = relay.nn.lrn %x {size = 3 : i64} : (tensor<2x4x3x3xf32>) -> tensor<2x4x3x3xf32>
  // CHECK: relay.nn.log_softmax %{{.*}} : (tensor<?x8xf32>) -> tensor<?x8xf32>
  %5 = relay.nn.log_softmax %l : (tensor<?x8xf32>) -> tensor<?x8xf32>
  return
}

// CHECK-LABEL: func.func @activations
func.func @activations(%x: tensor<2x4x3xf32>, %a: tensor<4xf32>, %h: tensor<?x3xf16>) {
  // CHECK: relay.nn.leaky_relu %{{.*}} {alpha = 2.000000e-01 : f64} : (tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  %0 = relay.nn.leaky_relu %x {alpha = 0.2 : f64} : (tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  // CHECK: relay.nn.prelu %{{.*}}, %{{.*}} : (tensor<2x4x3xf32>, tensor<4xf32>) -> tensor<2x4x3xf32>
  %1 = relay.nn.prelu %x, %a : (tensor<2x4x3xf32>, tensor<4xf32>) -> tensor<2x4x3xf32>
  // CHECK: relay.nn.gelu %{{.*}} : (tensor<?x3xf16>) -> tensor<?x3xf16>
  %2 = relay.nn.gelu %h : (tensor<?x3xf16>) -> tensor<?x3xf16>
  // CHECK: relay.nn.dropout %{{.*}} : (tensor<?x3xf16>) -> tuple<tensor<?x3xf16>, tensor<?x3xf16>>
  %3 = relay.nn.dropout %h : (tensor<?x3xf16>) -> tuple<tensor<?x3xf16>, tensor<?x3xf16>>
  return
}

// CHECK-LABEL: func.func @layout
func.func @layout(%x: tensor<?x3xf32>, %v: tensor<f32>, %i: tensor<1x8x2x2xi8>, %u: tensor<1x2x3x4xf32>) {
  // CHECK: relay.nn.pad %{{.*}}, %{{.*}} {pad_width = array<i64: 0, 0, 1, 2>} : (tensor<?x3xf32>, tensor<f32>) -> tensor<?x6xf32>
  %0 = relay.nn.pad %x, %v {pad_width = array<i64: 0, 0, 1, 2>} : (tensor<?x3xf32>, tensor<f32>) -> tensor<?x6xf32>
  // CHECK: relay.nn.pad %{{.*}}, %{{.*}} {pad_mode = "reflect", pad_width = array<i64: 1, 1, 2, 2>} : (tensor<?x3xf32>, tensor<f32>) -> tensor<?x7xf32>
  %1 = relay.nn.pad %x, %v {pad_width = array<i64: 1, 1, 2, 2>, pad_mode = "reflect"} : (tensor<?x3xf32>, tensor<f32>) -> tensor<?x7xf32>
  // CHECK: relay.nn.depth_to_space %{{.*}} {block_size = 2 : i64, mode = "CRD"} : (tensor<1x8x2x2xi8>) -> tensor<1x2x4x4xi8>
  %2 = relay.nn.depth_to_space %i {block_size = 2 : i64, mode = "CRD"} : (tensor<1x8x2x2xi8>) -> tensor<1x2x4x4xi8>
  // CHECK: relay.nn.space_to_depth %{{.*}} {block_size = 2 : i64} : (tensor<1x2x4x4xi8>) -> tensor<1x8x2x2xi8>
  %3 = relay.nn.space_to_depth %2 {block_size = 2 : i64} : (tensor<1x2x4x4xi8>) -> tensor<1x8x2x2xi8>
  // CHECK: relay.nn.upsampling %{{.*}} {method = "bilinear", scale_h = 2.000000e+00 : f64, scale_w = 1.500000e+00 : f64} : (tensor<1x2x3x4xf32>) -> tensor<1x2x6x6xf32>
  %4 = relay.nn.upsampling %u {scale_h = 2.0 : f64, scale_w = 1.5 : f64, method = "bilinear"} : (tensor<1x2x3x4xf32>) -> tensor<1x2x6x6xf32>
  return
}
