// RUN: relay-mlir-opt %s | relay-mlir-opt | FileCheck %s
// Round-trip of the pools (static and `?` dims).

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

// CHECK-LABEL: func.func @pools_nd
func.func @pools_nd(%x1: tensor<1x2x9xf32>, %x3: tensor<1x2x5x5x5xf32>, %x2: tensor<?x3x7x7xf32>) {
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
  // CHECK: relay.nn.adaptive_avg_pool1d %{{.*}} {output_size = array<i64: 4>} : (tensor<1x2x9xf32>) -> tensor<1x2x4xf32>
  %8 = relay.nn.adaptive_avg_pool1d %x1 {output_size = array<i64: 4>} : (tensor<1x2x9xf32>) -> tensor<1x2x4xf32>
  // CHECK: relay.nn.adaptive_max_pool1d %{{.*}} {layout = "NWC", output_size = array<i64: 1>} : (tensor<1x2x9xf32>) -> tensor<1x1x9xf32>
  %9 = relay.nn.adaptive_max_pool1d %x1 {output_size = array<i64: 1>, layout = "NWC"} : (tensor<1x2x9xf32>) -> tensor<1x1x9xf32>
  // CHECK: relay.nn.adaptive_avg_pool3d %{{.*}} {output_size = array<i64: 2, 3, 4>} : (tensor<1x2x5x5x5xf32>) -> tensor<1x2x2x3x4xf32>
  %10 = relay.nn.adaptive_avg_pool3d %x3 {output_size = array<i64: 2, 3, 4>} : (tensor<1x2x5x5x5xf32>) -> tensor<1x2x2x3x4xf32>
  // CHECK: relay.nn.adaptive_max_pool3d %{{.*}} {layout = "NDHWC", output_size = array<i64: 1>} : (tensor<1x2x5x5x5xf32>) -> tensor<1x1x1x1x5xf32>
  %11 = relay.nn.adaptive_max_pool3d %x3 {output_size = array<i64: 1>, layout = "NDHWC"} : (tensor<1x2x5x5x5xf32>) -> tensor<1x1x1x1x5xf32>
  // CHECK: relay.nn.adaptive_max_pool3d %{{.*}} : (tensor<1x2x5x5x5xf32>) -> tensor<1x2x5x5x5xf32>
  %12 = relay.nn.adaptive_max_pool3d %x3 : (tensor<1x2x5x5x5xf32>) -> tensor<1x2x5x5x5xf32>
  return
}
