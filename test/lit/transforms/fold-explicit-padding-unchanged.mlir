// RUN: relay-mlir-opt %s -relay-fold-explicit-padding | FileCheck %s

// Left alone (as TVM 0.19): a padded channel dim, a pad value of 1 or not
// a constant, edge/reflect modes, a pad with another use, an average pool
// not counting its own padding, a max pool after a zero pad, a transposed
// convolution. Not folded here (TVM folds it): a max pool after a pad of
// the lowest finite float (max pools pad with -inf here, so windows of -inf
// data or of padding alone would change).
// CHECK-LABEL: func.func @unchanged(
// CHECK:         %[[P0:.*]] = relay.nn.pad
// CHECK-NEXT:    relay.nn.conv2d %[[P0]], %{{[^ ]*}} :
// CHECK-NEXT:    %[[P1:.*]] = relay.nn.pad
// CHECK-NEXT:    relay.nn.conv2d %[[P1]], %{{[^ ]*}} :
// CHECK-NEXT:    %[[P2:.*]] = relay.nn.pad
// CHECK-NEXT:    relay.nn.conv2d %[[P2]], %{{[^ ]*}} :
// CHECK-NEXT:    %[[P3:.*]] = relay.nn.pad {{.*}}pad_mode = "reflect"
// CHECK-NEXT:    relay.nn.conv2d %[[P3]], %{{[^ ]*}} :
// CHECK-NEXT:    %[[P4:.*]] = relay.nn.pad {{.*}}pad_mode = "edge"
// CHECK-NEXT:    relay.nn.conv2d %[[P4]], %{{[^ ]*}} :
// CHECK-NEXT:    %[[P5:.*]] = relay.nn.pad
// CHECK-NEXT:    relay.nn.conv2d %[[P5]], %{{[^ ]*}} :
// CHECK-NEXT:    %[[P6:.*]] = relay.nn.pad
// CHECK-NEXT:    relay.nn.avg_pool2d %[[P6]] {padding = array<i64: 1, 1>, pool_size = array<i64: 2, 2>}
// CHECK-NEXT:    %[[P7:.*]] = relay.nn.pad
// CHECK-NEXT:    relay.nn.max_pool2d %[[P7]] {pool_size = array<i64: 2, 2>}
// CHECK-NEXT:    %[[P8:.*]] = relay.nn.pad
// CHECK-NEXT:    relay.nn.conv2d_transpose %[[P8]]
// CHECK-NEXT:    %[[P9:.*]] = relay.nn.pad
// CHECK-NEXT:    relay.nn.max_pool2d %[[P9]] {pool_size = array<i64: 2, 2>}
func.func @unchanged(%x: tensor<1x2x5x6xf32>, %w: tensor<3x2x3x3xf32>, %w3: tensor<3x3x3x3xf32>, %v: tensor<f32>, %wt: tensor<2x3x3x3xf32>) -> (tensor<1x3x5x6xf32>, tensor<1x3x6x5xf32>, tensor<1x3x6x5xf32>, tensor<1x3x5x6xf32>, tensor<1x3x6x5xf32>, tensor<1x2x8x7xf32>, tensor<1x3x6x5xf32>, tensor<1x2x9x8xf32>, tensor<1x2x7x6xf32>, tensor<1x3x10x9xf32>, tensor<1x2x7x6xf32>) {
  %z = relay.constant dense<0.0> : tensor<f32>
  %one = relay.constant dense<1.0> : tensor<f32>
  %lowest = relay.constant dense<-3.40282347E+38> : tensor<f32>
  %p0 = relay.nn.pad %x, %z {pad_width = array<i64: 0, 0, 1, 0, 1, 1, 1, 1>} : (tensor<1x2x5x6xf32>, tensor<f32>) -> tensor<1x3x7x8xf32>
  %y0 = relay.nn.conv2d %p0, %w3 {padding = array<i64: 0, 0>} : (tensor<1x3x7x8xf32>, tensor<3x3x3x3xf32>) -> tensor<1x3x5x6xf32>
  %p1 = relay.nn.pad %x, %one {pad_width = array<i64: 0, 0, 0, 0, 1, 2, 0, 1>} : (tensor<1x2x5x6xf32>, tensor<f32>) -> tensor<1x2x8x7xf32>
  %y1 = relay.nn.conv2d %p1, %w : (tensor<1x2x8x7xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x6x5xf32>
  %p2 = relay.nn.pad %x, %v {pad_width = array<i64: 0, 0, 0, 0, 1, 2, 0, 1>} : (tensor<1x2x5x6xf32>, tensor<f32>) -> tensor<1x2x8x7xf32>
  %y2 = relay.nn.conv2d %p2, %w : (tensor<1x2x8x7xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x6x5xf32>
  %p3 = relay.nn.pad %x, %z {pad_width = array<i64: 0, 0, 0, 0, 1, 1, 1, 1>, pad_mode = "reflect"} : (tensor<1x2x5x6xf32>, tensor<f32>) -> tensor<1x2x7x8xf32>
  %y3 = relay.nn.conv2d %p3, %w : (tensor<1x2x7x8xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x5x6xf32>
  %p4 = relay.nn.pad %x, %z {pad_width = array<i64: 0, 0, 0, 0, 1, 2, 0, 1>, pad_mode = "edge"} : (tensor<1x2x5x6xf32>, tensor<f32>) -> tensor<1x2x8x7xf32>
  %y4 = relay.nn.conv2d %p4, %w : (tensor<1x2x8x7xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x6x5xf32>
  %p5 = relay.nn.pad %x, %z {pad_width = array<i64: 0, 0, 0, 0, 1, 2, 0, 1>} : (tensor<1x2x5x6xf32>, tensor<f32>) -> tensor<1x2x8x7xf32>
  %y5 = relay.nn.conv2d %p5, %w : (tensor<1x2x8x7xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x6x5xf32>
  %p6 = relay.nn.pad %x, %z {pad_width = array<i64: 0, 0, 0, 0, 1, 2, 0, 1>} : (tensor<1x2x5x6xf32>, tensor<f32>) -> tensor<1x2x8x7xf32>
  %a6 = relay.nn.avg_pool2d %p6 {pool_size = array<i64: 2, 2>, padding = array<i64: 1, 1>} : (tensor<1x2x8x7xf32>) -> tensor<1x2x9x8xf32>
  %p7 = relay.nn.pad %x, %z {pad_width = array<i64: 0, 0, 0, 0, 1, 2, 0, 1>} : (tensor<1x2x5x6xf32>, tensor<f32>) -> tensor<1x2x8x7xf32>
  %m7 = relay.nn.max_pool2d %p7 {pool_size = array<i64: 2, 2>} : (tensor<1x2x8x7xf32>) -> tensor<1x2x7x6xf32>
  %p8 = relay.nn.pad %x, %z {pad_width = array<i64: 0, 0, 0, 0, 1, 2, 0, 1>} : (tensor<1x2x5x6xf32>, tensor<f32>) -> tensor<1x2x8x7xf32>
  %t8 = relay.nn.conv2d_transpose %p8, %wt : (tensor<1x2x8x7xf32>, tensor<2x3x3x3xf32>) -> tensor<1x3x10x9xf32>
  %p9 = relay.nn.pad %x, %lowest {pad_width = array<i64: 0, 0, 0, 0, 1, 2, 0, 1>} : (tensor<1x2x5x6xf32>, tensor<f32>) -> tensor<1x2x8x7xf32>
  %m9 = relay.nn.max_pool2d %p9 {pool_size = array<i64: 2, 2>} : (tensor<1x2x8x7xf32>) -> tensor<1x2x7x6xf32>
  return %y0, %y1, %y2, %y3, %y4, %p5, %y5, %a6, %m7, %t8, %m9 : tensor<1x3x5x6xf32>, tensor<1x3x6x5xf32>, tensor<1x3x6x5xf32>, tensor<1x3x5x6xf32>, tensor<1x3x6x5xf32>, tensor<1x2x8x7xf32>, tensor<1x3x6x5xf32>, tensor<1x2x9x8xf32>, tensor<1x2x7x6xf32>, tensor<1x3x10x9xf32>, tensor<1x2x7x6xf32>
}

// A max pool whose folded windows would read padding alone (a run-time
// error of max pooling), here the last rows: the pad stays. So do pads
// before a max pool of ? sizes.
// CHECK-LABEL: func.func @max_pool_padding_windows(
// CHECK:         %[[P:.*]] = relay.nn.pad
// CHECK-NEXT:    relay.nn.max_pool2d %[[P]] {pool_size = array<i64: 2, 2>}
// CHECK-NEXT:    %[[Q:.*]] = relay.nn.pad
// CHECK-NEXT:    relay.nn.max_pool2d %[[Q]] {pool_size = array<i64: 2, 2>}
func.func @max_pool_padding_windows(%x: tensor<1x2x5x6xf32>, %y: tensor<1x2x?x6xf32>) -> (tensor<1x2x7x6xf32>, tensor<1x2x?x6xf32>) {
  %inf = relay.constant dense<0xFF800000> : tensor<f32>
  %p = relay.nn.pad %x, %inf {pad_width = array<i64: 0, 0, 0, 0, 1, 2, 0, 1>} : (tensor<1x2x5x6xf32>, tensor<f32>) -> tensor<1x2x8x7xf32>
  %m = relay.nn.max_pool2d %p {pool_size = array<i64: 2, 2>} : (tensor<1x2x8x7xf32>) -> tensor<1x2x7x6xf32>
  %q = relay.nn.pad %y, %inf {pad_width = array<i64: 0, 0, 0, 0, 1, 0, 0, 1>} : (tensor<1x2x?x6xf32>, tensor<f32>) -> tensor<1x2x?x7xf32>
  %n = relay.nn.max_pool2d %q {pool_size = array<i64: 2, 2>} : (tensor<1x2x?x7xf32>) -> tensor<1x2x?x6xf32>
  return %m, %n : tensor<1x2x7x6xf32>, tensor<1x2x?x6xf32>
}
