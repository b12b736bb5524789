// RUN: relay-mlir-opt %s -convert-relay-to-linalg | FileCheck %s
// The last step of convert-relay-to-linalg (PadsForIREE.h): a constant pad
// read by an elementwise-like op (a map, a transpose), directly or through a
// reshape, becomes linalg.fill + tensor.insert_slice: IREE 3.13 fuses a
// tensor.pad into such a consumer under relay-mlir's pad-fusion flag and
// then fails to compile the dispatch. Pads read by window ops stay pads.

// CHECK-LABEL: func.func @pad_then_transpose
func.func @pad_then_transpose(%x: tensor<1x3x24x24xi8>) -> tensor<1x26x26x3xi8> {
  // CHECK-NOT: tensor.pad
  // CHECK: %[[V:.+]] = tensor.extract %{{.+}}[] : tensor<i8>
  // CHECK: %[[F:.+]] = linalg.fill ins(%[[V]] : i8) outs(%{{.+}} : tensor<1x3x26x26xi8>)
  // CHECK: %[[P:.+]] = tensor.insert_slice %arg0 into %[[F]][0, 0, 1, 1] [1, 3, 24, 24] [1, 1, 1, 1]
  // CHECK: linalg.transpose ins(%[[P]] : tensor<1x3x26x26xi8>)
  %zp = relay.constant dense<-3> : tensor<i8>
  %p = relay.nn.pad %x, %zp {pad_width = array<i64: 0, 0, 0, 0, 1, 1, 1, 1>} : (tensor<1x3x24x24xi8>, tensor<i8>) -> tensor<1x3x26x26xi8>
  %t = relay.transpose %p {axes = array<i64: 0, 2, 3, 1>} : (tensor<1x3x26x26xi8>) -> tensor<1x26x26x3xi8>
  return %t : tensor<1x26x26x3xi8>
}

// A run-time size: the fill takes the padded sizes.
// CHECK-LABEL: func.func @pad_then_map_dynamic
func.func @pad_then_map_dynamic(%x: tensor<?x30xf32>) -> tensor<?x32xf32> {
  // CHECK-NOT: tensor.pad
  // CHECK: tensor.empty(%{{.+}}) : tensor<?x32xf32>
  // CHECK: tensor.insert_slice %arg0 into %{{.+}}[1, 1] [%{{.+}}, 30] [1, 1]
  // CHECK: math.exp
  %v = relay.constant dense<1.0> : tensor<f32>
  %p = relay.nn.pad %x, %v {pad_width = array<i64: 1, 1, 1, 1>} : (tensor<?x30xf32>, tensor<f32>) -> tensor<?x32xf32>
  %e = relay.exp %p : (tensor<?x32xf32>) -> tensor<?x32xf32>
  return %e : tensor<?x32xf32>
}

// A pad read by a depthwise convolution: left for IREE to fuse.
// CHECK-LABEL: func.func @pad_then_depthwise
func.func @pad_then_depthwise(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x1x4xf32>) -> tensor<1x8x8x4xf32> {
  // CHECK: tensor.pad
  // CHECK-NOT: linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<1x10x10x4xf32>)
  // CHECK: linalg.depthwise_conv_2d_nhwc_hwc
  %v = relay.constant dense<0.5> : tensor<f32>
  %p = relay.nn.pad %x, %v {pad_width = array<i64: 0, 0, 1, 1, 1, 1, 0, 0>} : (tensor<1x8x8x4xf32>, tensor<f32>) -> tensor<1x10x10x4xf32>
  %y = relay.nn.conv2d %p, %w {groups = 4 : i64, data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x10x10x4xf32>, tensor<3x3x1x4xf32>) -> tensor<1x8x8x4xf32>
  return %y : tensor<1x8x8x4xf32>
}
