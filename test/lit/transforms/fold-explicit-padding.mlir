// RUN: relay-mlir-opt %s -relay-fold-explicit-padding | FileCheck %s

// A zero pad of H and W before a conv2d: the conv pads instead, its own
// padding ([p] / [ph, pw] / 4 entries) added (befores, then afters).
// CHECK-LABEL: func.func @conv2d(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<1x2x5x6xf32>, %[[W:[^:]*]]: tensor<3x2x3x3xf32>
// CHECK-NOT:     relay.nn.pad
// CHECK:         %[[Y:.*]] = relay.nn.conv2d %[[X]], %[[W]] {dilation = array<i64: 1, 2>, padding = array<i64: 2, 1, 3, 2>, strides = array<i64: 2, 1>} : (tensor<1x2x5x6xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x4x5xf32>
// CHECK-NEXT:    return %[[Y]]
func.func @conv2d(%x: tensor<1x2x5x6xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<1x3x4x5xf32> {
  %z = relay.constant dense<0.0> : tensor<f32>
  %p = relay.nn.pad %x, %z {pad_width = array<i64: 0, 0, 0, 0, 1, 2, 0, 1>} : (tensor<1x2x5x6xf32>, tensor<f32>) -> tensor<1x2x8x7xf32>
  %y = relay.nn.conv2d %p, %w {padding = array<i64: 1, 1>, strides = array<i64: 2, 1>, dilation = array<i64: 1, 2>} : (tensor<1x2x8x7xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x4x5xf32>
  return %y : tensor<1x3x4x5xf32>
}

// NHWC: the spatial dims are found by the layout's letters; conv1d, conv3d;
// an int8 conv; two pads in a row fold one after the other.
// CHECK-LABEL: func.func @layouts_and_ranks(
// CHECK-NOT:     relay.nn.pad
// CHECK:         relay.nn.conv2d %{{.*}}, %{{.*}} {data_layout = "NHWC", kernel_layout = "HWIO", padding = array<i64: 1, 2, 1, 0>}
// CHECK:         relay.nn.conv1d %{{.*}}, %{{.*}} {padding = array<i64: 3, 2>}
// CHECK:         relay.nn.conv3d %{{.*}}, %{{.*}} {padding = array<i64: 1, 0, 1, 0, 1, 1>}
// CHECK:         relay.nn.conv2d %{{.*}}, %{{.*}} {out_dtype = i32, padding = array<i64: 1, 0, 2, 1>}
// CHECK:         relay.nn.conv2d %{{.*}}, %{{.*}} {padding = array<i64: 2, 0, 4, 2>}
func.func @layouts_and_ranks(%xh: tensor<1x5x6x2xf32>, %wh: tensor<3x3x2x3xf32>, %x3: tensor<1x2x7xf32>, %w3: tensor<3x2x3xf32>, %x5: tensor<1x2x4x5x6xf32>, %w5: tensor<3x2x3x3x3xf32>, %xi: tensor<1x2x5x6xi8>, %wi: tensor<3x2x3x3xi8>, %x: tensor<1x2x5x6xf32>, %w: tensor<3x2x3x3xf32>) -> (tensor<1x5x6x3xf32>, tensor<1x3x10xf32>, tensor<1x3x3x4x6xf32>, tensor<1x3x6x5xi32>, tensor<1x3x9x6xf32>) {
  %z = relay.constant dense<0.0> : tensor<f32>
  %zi = relay.constant dense<0> : tensor<i8>
  %ph = relay.nn.pad %xh, %z {pad_width = array<i64: 0, 0, 1, 1, 2, 0, 0, 0>} : (tensor<1x5x6x2xf32>, tensor<f32>) -> tensor<1x7x8x2xf32>
  %yh = relay.nn.conv2d %ph, %wh {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x7x8x2xf32>, tensor<3x3x2x3xf32>) -> tensor<1x5x6x3xf32>
  %p3 = relay.nn.pad %x3, %z {pad_width = array<i64: 0, 0, 0, 0, 2, 1>} : (tensor<1x2x7xf32>, tensor<f32>) -> tensor<1x2x10xf32>
  %y3 = relay.nn.conv1d %p3, %w3 {padding = array<i64: 1>} : (tensor<1x2x10xf32>, tensor<3x2x3xf32>) -> tensor<1x3x10xf32>
  %p5 = relay.nn.pad %x5, %z {pad_width = array<i64: 0, 0, 0, 0, 1, 0, 0, 1, 1, 1>} : (tensor<1x2x4x5x6xf32>, tensor<f32>) -> tensor<1x2x5x6x8xf32>
  %y5 = relay.nn.conv3d %p5, %w5 : (tensor<1x2x5x6x8xf32>, tensor<3x2x3x3x3xf32>) -> tensor<1x3x3x4x6xf32>
  %pi = relay.nn.pad %xi, %zi {pad_width = array<i64: 0, 0, 0, 0, 1, 2, 0, 1>} : (tensor<1x2x5x6xi8>, tensor<i8>) -> tensor<1x2x8x7xi8>
  %yi = relay.nn.conv2d %pi, %wi {out_dtype = i32} : (tensor<1x2x8x7xi8>, tensor<3x2x3x3xi8>) -> tensor<1x3x6x5xi32>
  %pa = relay.nn.pad %x, %z {pad_width = array<i64: 0, 0, 0, 0, 1, 2, 0, 1>} : (tensor<1x2x5x6xf32>, tensor<f32>) -> tensor<1x2x8x7xf32>
  %pb = relay.nn.pad %pa, %z {pad_width = array<i64: 0, 0, 0, 0, 1, 2, 0, 1>} : (tensor<1x2x8x7xf32>, tensor<f32>) -> tensor<1x2x11x8xf32>
  %yb = relay.nn.conv2d %pb, %w : (tensor<1x2x11x8xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x9x6xf32>
  return %yh, %y3, %y5, %yi, %yb : tensor<1x5x6x3xf32>, tensor<1x3x10xf32>, tensor<1x3x3x4x6xf32>, tensor<1x3x6x5xi32>, tensor<1x3x9x6xf32>
}

// Average pools take a zero pad and then count their padding; one that does
// not count its padding takes the pad only if it has none.
// CHECK-LABEL: func.func @avg_pools(
// CHECK-NOT:     relay.nn.pad
// CHECK:         relay.nn.avg_pool2d %{{[^ ]*}} {count_include_pad = true, padding = array<i64: 1, 0, 2, 1>, pool_size = array<i64: 2, 2>}
// CHECK:         relay.nn.avg_pool2d %{{[^ ]*}} {count_include_pad = true, padding = array<i64: 2, 1, 3, 2>, pool_size = array<i64: 2, 2>}
// CHECK:         relay.nn.avg_pool1d %{{[^ ]*}} {count_include_pad = true, padding = array<i64: 2, 1>, pool_size = array<i64: 2>}
// CHECK:         relay.nn.avg_pool3d %{{[^ ]*}} {count_include_pad = true, padding = array<i64: 1, 0, 1, 0, 1, 1>, pool_size = array<i64: 2, 2, 2>}
func.func @avg_pools(%x: tensor<1x2x5x6xf32>, %x3: tensor<1x2x7xf32>, %x5: tensor<1x2x4x5x6xf32>) -> (tensor<1x2x7x6xf32>, tensor<1x2x9x8xf32>, tensor<1x2x9xf32>, tensor<1x2x4x5x7xf32>) {
  %z = relay.constant dense<0.0> : tensor<f32>
  %p1 = relay.nn.pad %x, %z {pad_width = array<i64: 0, 0, 0, 0, 1, 2, 0, 1>} : (tensor<1x2x5x6xf32>, tensor<f32>) -> tensor<1x2x8x7xf32>
  %a1 = relay.nn.avg_pool2d %p1 {pool_size = array<i64: 2, 2>} : (tensor<1x2x8x7xf32>) -> tensor<1x2x7x6xf32>
  %p2 = relay.nn.pad %x, %z {pad_width = array<i64: 0, 0, 0, 0, 1, 2, 0, 1>} : (tensor<1x2x5x6xf32>, tensor<f32>) -> tensor<1x2x8x7xf32>
  %a2 = relay.nn.avg_pool2d %p2 {pool_size = array<i64: 2, 2>, padding = array<i64: 1, 1>, count_include_pad = true} : (tensor<1x2x8x7xf32>) -> tensor<1x2x9x8xf32>
  %p3 = relay.nn.pad %x3, %z {pad_width = array<i64: 0, 0, 0, 0, 2, 1>} : (tensor<1x2x7xf32>, tensor<f32>) -> tensor<1x2x10xf32>
  %a3 = relay.nn.avg_pool1d %p3 {pool_size = array<i64: 2>} : (tensor<1x2x10xf32>) -> tensor<1x2x9xf32>
  %p5 = relay.nn.pad %x5, %z {pad_width = array<i64: 0, 0, 0, 0, 1, 0, 0, 1, 1, 1>} : (tensor<1x2x4x5x6xf32>, tensor<f32>) -> tensor<1x2x5x6x8xf32>
  %a5 = relay.nn.avg_pool3d %p5 {pool_size = array<i64: 2, 2, 2>} : (tensor<1x2x5x6x8xf32>) -> tensor<1x2x4x5x7xf32>
  return %a1, %a2, %a3, %a5 : tensor<1x2x7x6xf32>, tensor<1x2x9x8xf32>, tensor<1x2x9xf32>, tensor<1x2x4x5x7xf32>
}

// Max pools take a pad of what they pad with: -inf, the lowest integer
// (int8 -128, uint8 0), when every window still reads data (strides,
// dilation and ceil_mode counted).
// CHECK-LABEL: func.func @max_pools(
// CHECK-NOT:     relay.nn.pad
// CHECK:         relay.nn.max_pool2d %{{[^ ]*}} {padding = array<i64: 2, 1, 1, 2>, pool_size = array<i64: 3, 3>}
// CHECK:         relay.nn.max_pool1d %{{[^ ]*}} {padding = array<i64: 1, 1>, pool_size = array<i64: 2>}
// CHECK:         relay.nn.max_pool3d %{{[^ ]*}} {padding = array<i64: 1, 0, 1, 0, 1, 1>, pool_size = array<i64: 2, 2, 2>}
// CHECK:         relay.nn.max_pool2d %{{[^ ]*}} {padding = array<i64: 1, 0, 0, 1>, pool_size = array<i64: 2, 2>}
// CHECK:         relay.nn.max_pool2d %{{[^ ]*}} {padding = array<i64: 1, 0, 0, 1>, pool_size = array<i64: 2, 2>}
// CHECK:         relay.nn.max_pool2d %{{[^ ]*}} {ceil_mode = true, dilation = array<i64: 1, 2>, padding = array<i64: 1, 0, 0, 1>, pool_size = array<i64: 2, 3>, strides = array<i64: 2, 2>}
func.func @max_pools(%x: tensor<1x2x5x6xf32>, %x3: tensor<1x2x7xf32>, %x5: tensor<1x2x4x5x6xf32>, %xi: tensor<1x2x5x6xi8>, %xu: tensor<1x2x5x6xui8>) -> (tensor<1x2x6x7xf32>, tensor<1x2x8xf32>, tensor<1x2x4x5x7xf32>, tensor<1x2x5x6xi8>, tensor<1x2x5x6xui8>, tensor<1x2x3x2xf32>) {
  %inf = relay.constant dense<0xFF800000> : tensor<f32>
  %lo = relay.constant dense<-128> : tensor<i8>
  %u0 = relay.constant dense<0> : tensor<ui8>
  %p1 = relay.nn.pad %x, %inf {pad_width = array<i64: 0, 0, 0, 0, 1, 0, 0, 1>} : (tensor<1x2x5x6xf32>, tensor<f32>) -> tensor<1x2x6x7xf32>
  %m1 = relay.nn.max_pool2d %p1 {pool_size = array<i64: 3, 3>, padding = array<i64: 1, 1>} : (tensor<1x2x6x7xf32>) -> tensor<1x2x6x7xf32>
  %p3 = relay.nn.pad %x3, %inf {pad_width = array<i64: 0, 0, 0, 0, 1, 1>} : (tensor<1x2x7xf32>, tensor<f32>) -> tensor<1x2x9xf32>
  %m3 = relay.nn.max_pool1d %p3 {pool_size = array<i64: 2>} : (tensor<1x2x9xf32>) -> tensor<1x2x8xf32>
  %p5 = relay.nn.pad %x5, %inf {pad_width = array<i64: 0, 0, 0, 0, 1, 0, 0, 1, 1, 1>} : (tensor<1x2x4x5x6xf32>, tensor<f32>) -> tensor<1x2x5x6x8xf32>
  %m5 = relay.nn.max_pool3d %p5 {pool_size = array<i64: 2, 2, 2>} : (tensor<1x2x5x6x8xf32>) -> tensor<1x2x4x5x7xf32>
  %pi = relay.nn.pad %xi, %lo {pad_width = array<i64: 0, 0, 0, 0, 1, 0, 0, 1>} : (tensor<1x2x5x6xi8>, tensor<i8>) -> tensor<1x2x6x7xi8>
  %mi = relay.nn.max_pool2d %pi {pool_size = array<i64: 2, 2>} : (tensor<1x2x6x7xi8>) -> tensor<1x2x5x6xi8>
  %pu = relay.nn.pad %xu, %u0 {pad_width = array<i64: 0, 0, 0, 0, 1, 0, 0, 1>} : (tensor<1x2x5x6xui8>, tensor<ui8>) -> tensor<1x2x6x7xui8>
  %mu = relay.nn.max_pool2d %pu {pool_size = array<i64: 2, 2>} : (tensor<1x2x6x7xui8>) -> tensor<1x2x5x6xui8>
  %ps = relay.nn.pad %x, %inf {pad_width = array<i64: 0, 0, 0, 0, 1, 0, 0, 1>} : (tensor<1x2x5x6xf32>, tensor<f32>) -> tensor<1x2x6x7xf32>
  %ms = relay.nn.max_pool2d %ps {pool_size = array<i64: 2, 3>, strides = array<i64: 2, 2>, dilation = array<i64: 1, 2>, ceil_mode = true} : (tensor<1x2x6x7xf32>) -> tensor<1x2x3x2xf32>
  return %m1, %m3, %m5, %mi, %mu, %ms : tensor<1x2x6x7xf32>, tensor<1x2x8xf32>, tensor<1x2x4x5x7xf32>, tensor<1x2x5x6xi8>, tensor<1x2x5x6xui8>, tensor<1x2x3x2xf32>
}
