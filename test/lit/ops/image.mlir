// RUN: relay-mlir-opt %s | relay-mlir-opt | FileCheck %s

// CHECK-LABEL: func.func @resize2d
func.func @resize2d(%x: tensor<1x3x4x4xf32>, %y: tensor<?x5x6x2xf16>) {
  // CHECK: relay.image.resize2d %{{.*}} {method = "nearest_neighbor", size = array<i64: 8, 8>} : (tensor<1x3x4x4xf32>) -> tensor<1x3x8x8xf32>
  %0 = relay.image.resize2d %x {size = array<i64: 8, 8>, method = "nearest_neighbor"} : (tensor<1x3x4x4xf32>) -> tensor<1x3x8x8xf32>
  // CHECK: relay.image.resize2d %{{.*}} {coordinate_transformation_mode = "align_corners", layout = "NHWC", size = array<i64: 3, 7>} : (tensor<?x5x6x2xf16>) -> tensor<?x3x7x2xf16>
  %1 = relay.image.resize2d %y {size = array<i64: 3, 7>, layout = "NHWC", coordinate_transformation_mode = "align_corners"} : (tensor<?x5x6x2xf16>) -> tensor<?x3x7x2xf16>
  // CHECK: relay.image.resize2d %{{.*}} {cubic_alpha = -7.500000e-01 : f64, cubic_exclude = 1 : i64, method = "cubic", out_dtype = f32, roi = array<f64: 0.000000e+00, 0.000000e+00, 1.000000e+00, 1.000000e+00>, size = array<i64: 2, 2>} : (tensor<?x5x6x2xf16>) -> tensor<?x5x2x2xf32>
  %2 = relay.image.resize2d %y {size = array<i64: 2, 2>, method = "cubic", cubic_alpha = -0.75, cubic_exclude = 1, roi = array<f64: 0.0, 0.0, 1.0, 1.0>, out_dtype = f32} : (tensor<?x5x6x2xf16>) -> tensor<?x5x2x2xf32>
  return
}
