// RUN: relay-mlir-opt %s -convert-relay-to-linalg | FileCheck %s

// CHECK-LABEL: func.func @nearest
func.func @nearest(%x: tensor<1x3x4x4xf32>) -> tensor<1x3x8x8xf32> {
  // asymmetric + default rounding (floor with Relay's 1e-5 epsilon).
  // CHECK: linalg.generic
  // CHECK-SAME: outs(%{{.+}} : tensor<1x3x8x8xf32>)
  // CHECK:   math.floor
  // CHECK:   arith.fptosi
  // CHECK:   arith.minsi
  // CHECK:   arith.maxsi
  // CHECK:   tensor.extract %arg0[%{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}] : tensor<1x3x4x4xf32>
  // CHECK-NOT: tensor.extract
  // CHECK:   linalg.yield
  %0 = relay.image.resize2d %x {size = array<i64: 8, 8>, method = "nearest_neighbor", coordinate_transformation_mode = "asymmetric"} : (tensor<1x3x4x4xf32>) -> tensor<1x3x8x8xf32>
  return %0 : tensor<1x3x8x8xf32>
}

// CHECK-LABEL: func.func @nearest_align_corners
func.func @nearest_align_corners(%x: tensor<1x1x3x3xf32>) -> tensor<1x1x5x5xf32> {
  // align_corners' default rounding is "round", TVM's: halves away from zero
  // (coordinate 0.5 -> pixel 1), math.round, not math.roundeven.
  // CHECK: linalg.generic
  // CHECK-NOT: math.roundeven
  // CHECK:   math.round %
  // CHECK-NOT: math.roundeven
  // CHECK:   linalg.yield
  %0 = relay.image.resize2d %x {size = array<i64: 5, 5>, method = "nearest_neighbor", coordinate_transformation_mode = "align_corners"} : (tensor<1x1x3x3xf32>) -> tensor<1x1x5x5xf32>
  return %0 : tensor<1x1x5x5xf32>
}

// CHECK-LABEL: func.func @linear_nhwc
func.func @linear_nhwc(%x: tensor<?x5x6x2xf16>) -> tensor<?x3x7x2xf16> {
  // Four neighbours, interpolated in f32, truncated back to f16.
  // CHECK: linalg.generic
  // CHECK:   tensor.extract
  // CHECK:   arith.extf
  // CHECK:   tensor.extract
  // CHECK:   tensor.extract
  // CHECK:   tensor.extract
  // CHECK:   arith.truncf
  %0 = relay.image.resize2d %x {size = array<i64: 3, 7>, layout = "NHWC", coordinate_transformation_mode = "align_corners"} : (tensor<?x5x6x2xf16>) -> tensor<?x3x7x2xf16>
  return %0 : tensor<?x3x7x2xf16>
}
