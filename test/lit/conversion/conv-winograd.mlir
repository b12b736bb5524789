// RUN: relay-mlir-opt %s -convert-relay-to-linalg --mlir-elide-elementsattrs-if-larger=16 | FileCheck %s
// nn.conv2d 3x3 at stride 1 with a constant weight by Winograd F(4x4, 3x3)
// or F(2x2, 3x3) (Conv2DWinograd, ConvWinograd.cpp), and the convolutions
// it leaves to the other strategies.

// F(4x4): 14x14 outputs are 4x4 tiles of 4x4 (padded to 16x16, cropped);
// 6x6 = 36 strided slices of the input extended to 18x18; the input
// transform in 3 generics of 12 results (IREE's 32-binding limit), the
// folded filter transform [36, 32, 32], 36 products of [16, 32] x [32, 32],
// the output transform (16 results) and the blocks put in place.
// CHECK-LABEL: func.func @f4
func.func @f4(%x: tensor<1x14x14x32xf32>) -> tensor<1x14x14x32xf32> {
  // CHECK: tensor.pad %{{.+}} low[0, 1, 1, 0] high[0, 1, 1, 0]
  // CHECK: %[[IN:.+]] = tensor.pad %{{.+}} low[0, 0, 0, 0] high[0, 2, 2, 0]
  // CHECK: tensor.extract_slice %[[IN]][0, 0, 0, 0] [1, 4, 4, 32] [1, 4, 4, 1] : tensor<1x18x18x32xf32> to tensor<1x4x4x32xf32>
  // CHECK: tensor.extract_slice %[[IN]][0, 5, 5, 0] [1, 4, 4, 32] [1, 4, 4, 1]
  // CHECK-COUNT-3: %{{.+}}:12 = linalg.generic
  // CHECK: %[[V:.+]] = tensor.concat dim(0) {{.+}} -> tensor<36x1x4x4x32xf32>
  // CHECK: %[[VM:.+]] = tensor.collapse_shape %[[V]] {{\[}}[0], [1, 2, 3], [4]] : tensor<36x1x4x4x32xf32> into tensor<36x16x32xf32>
  // CHECK: %[[U:.+]] = arith.constant dense_resource<__elided__> : tensor<36x32x32xf32>
  // CHECK: %[[M:.+]] = linalg.batch_matmul ins(%[[VM]], %[[U]] : tensor<36x16x32xf32>, tensor<36x32x32xf32>) outs(%{{.+}} : tensor<36x16x32xf32>)
  // CHECK: %{{.+}}:16 = linalg.generic
  // CHECK: tensor.concat dim(0) {{.+}} -> tensor<16x1x4x4x32xf32>
  // CHECK: linalg.transpose ins(%{{.+}} : tensor<4x4x1x4x4x32xf32>) outs(%{{.+}} : tensor<1x4x4x4x4x32xf32>) permutation = [2, 3, 0, 4, 1, 5]
  // CHECK: %[[IMG:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0], [1, 2], [3, 4], [5]] : tensor<1x4x4x4x4x32xf32> into tensor<1x16x16x32xf32>
  // CHECK: tensor.extract_slice %[[IMG]][0, 0, 0, 0] [1, 14, 14, 32] [1, 1, 1, 1]
  // CHECK-NOT: linalg.conv_2d
  %w = relay.constant dense<0.5> : tensor<3x3x32x32xf32>
  %y = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>, data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x14x14x32xf32>, tensor<3x3x32x32xf32>) -> tensor<1x14x14x32xf32>
  return %y : tensor<1x14x14x32xf32>
}

// A 7x7 map of 128 channels has 4 tiles of 4x4 and a 2.4 MB F(4x4)
// filter (more than the 2 MB kWinogradCachedFilterBytes): F(2x2), 16 tiles
// of 2x2 and products [16, 128] x [128, 128].
// CHECK-LABEL: func.func @f2_few_tiles
func.func @f2_few_tiles(%x: tensor<1x7x7x128xf32>) -> tensor<1x7x7x128xf32> {
  // CHECK-COUNT-16: tensor.extract_slice %{{.+}} [1, 4, 4, 128] [1, 2, 2, 1] : tensor<1x10x10x128xf32> to tensor<1x4x4x128xf32>
  // CHECK: %{{.+}}:16 = linalg.generic
  // CHECK: linalg.batch_matmul ins(%{{.+}}, %{{.+}} : tensor<16x16x128xf32>, tensor<16x128x128xf32>)
  // CHECK: %{{.+}}:4 = linalg.generic
  // CHECK: permutation = [2, 3, 0, 4, 1, 5]
  // CHECK: tensor.extract_slice %{{.+}}[0, 0, 0, 0] [1, 7, 7, 128] [1, 1, 1, 1] : tensor<1x8x8x128xf32> to tensor<1x7x7x128xf32>
  %w = relay.constant dense<1.0> : tensor<3x3x128x128xf32>
  %y = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>, data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x7x7x128xf32>, tensor<3x3x128x128xf32>) -> tensor<1x7x7x128xf32>
  return %y : tensor<1x7x7x128xf32>
}

// Left to the other strategies: a weight known only at run time, a stride
// of 2, 16 channels, a float16 result, and a map whose transforms (2 x
// 14.4 MB) would not fit the cache.
// CHECK-LABEL: func.func @not_winograd
func.func @not_winograd(%x: tensor<1x14x14x32xf32>, %w: tensor<3x3x32x32xf32>, %h: tensor<1x14x14x16xf32>, %x16: tensor<1x14x14x32xf16>, %big: tensor<1x112x112x128xf32>) -> (tensor<1x14x14x32xf32>, tensor<1x7x7x32xf32>, tensor<1x14x14x16xf32>, tensor<1x14x14x32xf16>, tensor<1x112x112x128xf32>) {
  // CHECK-NOT: linalg.batch_matmul
  // (small maps: the patch matmul)
  // CHECK: linalg.matmul {{.+}} -> tensor<196x32xf32>
  // CHECK: linalg.matmul {{.+}} -> tensor<49x32xf32>
  // CHECK: linalg.matmul {{.+}} -> tensor<196x16xf32>
  // CHECK: linalg.matmul {{.+}} -> tensor<196x32xf16>
  // CHECK: linalg.conv_2d_nhwc_hwcf {{.+}} -> tensor<1x112x112x128xf32>
  // CHECK-NOT: linalg.batch_matmul
  %c = relay.constant dense<0.5> : tensor<3x3x32x32xf32>
  %c16 = relay.constant dense<0.5> : tensor<3x3x16x16xf32>
  %ch = relay.constant dense<0.5> : tensor<3x3x32x32xf16>
  %cb = relay.constant dense<0.5> : tensor<3x3x128x128xf32>
  %0 = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>, data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x14x14x32xf32>, tensor<3x3x32x32xf32>) -> tensor<1x14x14x32xf32>
  %1 = relay.nn.conv2d %x, %c {padding = array<i64: 1, 1>, strides = array<i64: 2, 2>, data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x14x14x32xf32>, tensor<3x3x32x32xf32>) -> tensor<1x7x7x32xf32>
  %2 = relay.nn.conv2d %h, %c16 {padding = array<i64: 1, 1>, data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x14x14x16xf32>, tensor<3x3x16x16xf32>) -> tensor<1x14x14x16xf32>
  %3 = relay.nn.conv2d %x16, %ch {padding = array<i64: 1, 1>, data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x14x14x32xf16>, tensor<3x3x32x32xf16>) -> tensor<1x14x14x32xf16>
  %4 = relay.nn.conv2d %big, %cb {padding = array<i64: 1, 1>, data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x112x112x128xf32>, tensor<3x3x128x128xf32>) -> tensor<1x112x112x128xf32>
  return %0, %1, %2, %3, %4 : tensor<1x14x14x32xf32>, tensor<1x7x7x32xf32>, tensor<1x14x14x16xf32>, tensor<1x14x14x32xf16>, tensor<1x112x112x128xf32>
}
