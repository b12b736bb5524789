// RUN: relay-mlir-opt %s | relay-mlir-opt | FileCheck %s
// Round-trip of TVM 0.19's nn.dilate, nn.cross_entropy(_with_logits) and nn.nll_loss (static and `?` dims).

// CHECK-LABEL: func.func @dilate
func.func @dilate(%x: tensor<2x3xf32>, %y: tensor<?x3x0xi8>) {
  // CHECK: relay.nn.dilate %{{.*}} {dilation_value = 5.000000e-01 : f64, strides = array<i64: 1, 2>} : (tensor<2x3xf32>) -> tensor<2x5xf32>
  %0 = relay.nn.dilate %x {strides = array<i64: 1, 2>, dilation_value = 0.5 : f64} : (tensor<2x3xf32>) -> tensor<2x5xf32>
  // CHECK: relay.nn.dilate %{{.*}} {strides = array<i64: 2, 3, 4>} : (tensor<?x3x0xi8>) -> tensor<?x7x0xi8>
  %1 = relay.nn.dilate %y {strides = array<i64: 2, 3, 4>} : (tensor<?x3x0xi8>) -> tensor<?x7x0xi8>
  return
}

// CHECK-LABEL: func.func @losses
func.func @losses(%p: tensor<4x3xf32>, %t: tensor<4x3xf32>, %q: tensor<?x3xf64>, %r: tensor<?x3xf64>,
                  %lp: tensor<2x5x3xf32>, %lt: tensor<2x3xi64>, %w: tensor<5xf32>) {
  // CHECK: relay.nn.cross_entropy %{{.*}}, %{{.*}} : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<f32>
  %0 = relay.nn.cross_entropy %p, %t : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<f32>
  // CHECK: relay.nn.cross_entropy_with_logits %{{.*}}, %{{.*}} : (tensor<?x3xf64>, tensor<?x3xf64>) -> tensor<f64>
  %1 = relay.nn.cross_entropy_with_logits %q, %r : (tensor<?x3xf64>, tensor<?x3xf64>) -> tensor<f64>
  // CHECK: relay.nn.nll_loss %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x5x3xf32>, tensor<2x3xi64>, tensor<5xf32>) -> tensor<f32>
  %2 = relay.nn.nll_loss %lp, %lt, %w : (tensor<2x5x3xf32>, tensor<2x3xi64>, tensor<5xf32>) -> tensor<f32>
  // CHECK: relay.nn.nll_loss %{{.*}}, %{{.*}}, %{{.*}} {ignore_index = 1 : i64, reduction = "none"} : (tensor<2x5x3xf32>, tensor<2x3xi64>, tensor<5xf32>) -> tensor<2x3xf32>
  %3 = relay.nn.nll_loss %lp, %lt, %w {reduction = "none", ignore_index = 1 : i64} : (tensor<2x5x3xf32>, tensor<2x3xi64>, tensor<5xf32>) -> tensor<2x3xf32>
  return
}
