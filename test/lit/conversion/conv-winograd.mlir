// RUN: relay-mlir-opt %s -convert-relay-to-linalg --mlir-elide-elementsattrs-if-larger=16 | FileCheck %s
// RUN: relay-mlir-opt %s --allow-unregistered-dialect -convert-relay-to-linalg --mlir-elide-elementsattrs-if-larger=16 | FileCheck %s --check-prefix=IREE
// nn.conv2d 3x3 at stride 1 with a constant weight by Winograd F(4x4, 3x3)
// or F(2x2, 3x3) (Conv2DWinograd, ConvWinograd.cpp), and the convolutions
// it leaves to the other strategies. The small cases ask for Winograd
// (relay.conv_strategy): by the cost rules they are direct (fewer
// multiply-adds than kWinogradMinMacs, @not_winograd).

// F(4x4): 14x14 outputs are 4x4 tiles of 4x4 (padded to 16x16, cropped);
// 6x6 = 36 strided slices of the input padded and extended to 18x18 in
// one tensor.pad (the conv's padding and the tiles' extension); the input
// transform in 3 generics of 12 results (IREE's 32-binding limit), the
// folded filter transform [36, 32, 32], 36 products of [16, 32] x [32, 32],
// the output transform (16 results) and the blocks put in place.
// CHECK-LABEL: func.func @f4
func.func @f4(%x: tensor<1x14x14x32xf32>) -> tensor<1x14x14x32xf32> {
  // CHECK: %[[IN:.+]] = tensor.pad %arg0 low[0, 1, 1, 0] high[0, 3, 3, 0]
  // CHECK: %[[U:.+]] = arith.constant dense_resource<__elided__> : tensor<36x32x32xf32>
  // CHECK: tensor.extract_slice %[[IN]][0, 0, 0, 0] [1, 4, 4, 32] [1, 4, 4, 1] : tensor<1x18x18x32xf32> to tensor<1x4x4x32xf32>
  // CHECK: tensor.extract_slice %[[IN]][0, 5, 5, 0] [1, 4, 4, 32] [1, 4, 4, 1]
  // CHECK-COUNT-3: %{{.+}}:12 = linalg.generic
  // CHECK: %[[V:.+]] = tensor.concat dim(0) {{.+}} -> tensor<36x1x4x4x32xf32>
  // CHECK: %[[VM:.+]] = tensor.collapse_shape %[[V]] {{\[}}[0], [1, 2, 3], [4]] : tensor<36x1x4x4x32xf32> into tensor<36x16x32xf32>
  // CHECK: %[[M:.+]] = linalg.batch_matmul ins(%[[VM]], %[[U]] : tensor<36x16x32xf32>, tensor<36x32x32xf32>) outs(%{{.+}} : tensor<36x16x32xf32>)
  // CHECK: %{{.+}}:16 = linalg.generic
  // CHECK: tensor.concat dim(0) {{.+}} -> tensor<16x1x4x4x32xf32>
  // CHECK: linalg.transpose ins(%{{.+}} : tensor<4x4x1x4x4x32xf32>) outs(%{{.+}} : tensor<1x4x4x4x4x32xf32>) permutation = [2, 3, 0, 4, 1, 5]
  // CHECK: %[[IMG:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0], [1, 2], [3, 4], [5]] : tensor<1x4x4x4x4x32xf32> into tensor<1x16x16x32xf32>
  // CHECK: tensor.extract_slice %[[IMG]][0, 0, 0, 0] [1, 14, 14, 32] [1, 1, 1, 1]
  // CHECK-NOT: linalg.conv_2d
  %w = relay.constant dense<0.5> : tensor<3x3x32x32xf32>
  %y = relay.nn.conv2d %x, %w {relay.conv_strategy = "winograd", padding = array<i64: 1, 1>, data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x14x14x32xf32>, tensor<3x3x32x32xf32>) -> tensor<1x14x14x32xf32>
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
  %y = relay.nn.conv2d %x, %w {relay.conv_strategy = "winograd", padding = array<i64: 1, 1>, data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x7x7x128xf32>, tensor<3x3x128x128xf32>) -> tensor<1x7x7x128xf32>
  return %y : tensor<1x7x7x128xf32>
}

// Transforms beyond kWinogradWholeBytes (16 MB) are computed in chunks of
// at most kWinogradChunkBytes (4 MB), all of one shape: one image of
// 170x170x32 -> 32 (43x43 tiles of 4x4, 2 x 8.5 MB) in 5 bands of 9 tile
// rows (10 fit, but 9 extends the image by the fewest rows: 45), each
// reading 4*9 + 2 rows of the input extended to 182x174, its whole-tile
// outputs inserted into a 180x172 image cropped at the end. For IREE the
// band offsets are values behind a barrier (one executable per dispatch
// of a band); the image offset, always 0, stays a constant.
// CHECK-LABEL: func.func @bands
// IREE-LABEL: func.func @bands
func.func @bands(%x: tensor<1x170x170x32xf32>) -> tensor<1x170x170x32xf32> {
  // CHECK: %[[IN:.+]] = tensor.pad %arg0 low[0, 1, 1, 0] high[0, 11, 3, 0]
  // CHECK: %[[U:.+]] = arith.constant dense_resource<__elided__> : tensor<36x32x32xf32>
  // CHECK: %[[E:.+]] = tensor.empty() : tensor<1x180x172x32xf32>
  // CHECK: tensor.extract_slice %[[IN]][0, 0, 0, 0] [1, 38, 174, 32] [1, 1, 1, 1] : tensor<1x182x174x32xf32> to tensor<1x38x174x32xf32>
  // CHECK: linalg.batch_matmul ins(%{{.+}}, %[[U]] : tensor<36x387x32xf32>, tensor<36x32x32xf32>)
  // CHECK: %[[R0:.+]] = tensor.insert_slice %{{.+}} into %[[E]][0, 0, 0, 0] [1, 36, 172, 32]
  // CHECK: tensor.extract_slice %[[IN]][0, 36, 0, 0] [1, 38, 174, 32]
  // CHECK: linalg.batch_matmul ins(%{{.+}}, %[[U]] : tensor<36x387x32xf32>, tensor<36x32x32xf32>)
  // CHECK: %[[R1:.+]] = tensor.insert_slice %{{.+}} into %[[R0]][0, 36, 0, 0] [1, 36, 172, 32]
  // CHECK-COUNT-2: linalg.batch_matmul ins(%{{.+}}, %[[U]] : tensor<36x387x32xf32>
  // CHECK: tensor.extract_slice %[[IN]][0, 144, 0, 0] [1, 38, 174, 32]
  // CHECK: linalg.batch_matmul ins(%{{.+}}, %[[U]] : tensor<36x387x32xf32>, tensor<36x32x32xf32>)
  // CHECK: %[[R4:.+]] = tensor.insert_slice %{{.+}} into %{{.+}}[0, 144, 0, 0] [1, 36, 172, 32]
  // CHECK-NOT: linalg.batch_matmul
  // CHECK: %[[R:.+]] = tensor.extract_slice %[[R4]][0, 0, 0, 0] [1, 170, 170, 32] [1, 1, 1, 1] : tensor<1x180x172x32xf32> to tensor<1x170x170x32xf32>
  // CHECK: return %[[R]]
  // IREE: %[[IN:.+]] = tensor.pad %arg0 low[0, 1, 1, 0] high[0, 11, 3, 0]
  // IREE: %[[C36:.+]] = arith.constant 36 : index
  // IREE: %[[Y1:.+]] = "util.optimization_barrier"(%[[C36]]) : (index) -> index
  // IREE: tensor.extract_slice %[[IN]][0, %[[Y1]], 0, 0] [1, 38, 174, 32]
  // IREE: tensor.insert_slice %{{.+}} into %{{.+}}[0, %[[Y1]], 0, 0] [1, 36, 172, 32]
  %w = relay.constant dense<0.5> : tensor<3x3x32x32xf32>
  %y = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>, data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x170x170x32xf32>, tensor<3x3x32x32xf32>) -> tensor<1x170x170x32xf32>
  return %y : tensor<1x170x170x32xf32>
}

// Images (1.8 MB of transforms each) are grouped first: a batch of 10
// 56x56x32 -> 32 (2 x 9 MB) in 5 chunks of 2 images, whole tiles, nothing
// to crop.
// CHECK-LABEL: func.func @images
func.func @images(%x: tensor<10x56x56x32xf32>) -> tensor<10x56x56x32xf32> {
  // CHECK: %[[IN:.+]] = tensor.pad %{{.+}} low[0, 1, 1, 0] high[0, 1, 1, 0]
  // CHECK: %[[E:.+]] = tensor.empty() : tensor<10x56x56x32xf32>
  // CHECK: tensor.extract_slice %[[IN]][0, 0, 0, 0] [2, 58, 58, 32] [1, 1, 1, 1] : tensor<10x58x58x32xf32> to tensor<2x58x58x32xf32>
  // CHECK: linalg.batch_matmul ins(%{{.+}}, %{{.+}} : tensor<36x392x32xf32>, tensor<36x32x32xf32>)
  // CHECK: %[[R0:.+]] = tensor.insert_slice %{{.+}} into %[[E]][0, 0, 0, 0] [2, 56, 56, 32]
  // CHECK: tensor.extract_slice %[[IN]][2, 0, 0, 0] [2, 58, 58, 32]
  // CHECK: tensor.insert_slice %{{.+}} into %[[R0]][2, 0, 0, 0] [2, 56, 56, 32]
  // CHECK-COUNT-3: linalg.batch_matmul
  // CHECK: %[[R:.+]] = tensor.insert_slice %{{.+}} into %{{.+}}[8, 0, 0, 0] [2, 56, 56, 32]
  // CHECK-NOT: linalg.batch_matmul
  // CHECK: return %[[R]]
  %w = relay.constant dense<0.5> : tensor<3x3x32x32xf32>
  %y = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>, data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<10x56x56x32xf32>, tensor<3x3x32x32xf32>) -> tensor<10x56x56x32xf32>
  return %y : tensor<10x56x56x32xf32>
}

// Left to the other strategies: a weight known only at run time, a stride
// of 2, 16 channels, a float16 result, maps whose transforms (2 x
// 231 MB) exceed kWinogradMaxTransformBytes (128 MB: unrolled chunks),
// and a convolution of 2.7 M multiply-adds (under kWinogradMinMacs: its
// transforms' dispatches would cost more than they save).
// CHECK-LABEL: func.func @not_winograd
func.func @not_winograd(%x: tensor<1x14x14x32xf32>, %w: tensor<3x3x32x32xf32>, %h: tensor<1x14x14x16xf32>, %x16: tensor<1x14x14x32xf16>, %big: tensor<4x224x224x128xf32>) -> (tensor<1x14x14x32xf32>, tensor<1x7x7x32xf32>, tensor<1x14x14x16xf32>, tensor<1x14x14x32xf16>, tensor<4x224x224x128xf32>, tensor<1x14x14x48xf32>) {
  // CHECK-NOT: linalg.batch_matmul
  // (small maps and kernels of at most 128 KB: direct convolutions)
  // CHECK: linalg.conv_2d_nhwc_hwcf {{.+}} -> tensor<1x14x14x32xf32>
  // CHECK: linalg.conv_2d_nhwc_hwcf {{.+}} -> tensor<1x7x7x32xf32>
  // CHECK: linalg.conv_2d_nhwc_hwcf {{.+}} -> tensor<1x14x14x16xf32>
  // CHECK: linalg.conv_2d_nhwc_hwcf {{.+}} -> tensor<1x14x14x32xf16>
  // CHECK: linalg.conv_2d_nhwc_hwcf {{.+}} -> tensor<4x224x224x128xf32>
  // CHECK: linalg.conv_2d_nhwc_hwcf {{.+}} -> tensor<1x14x14x48xf32>
  // CHECK-NOT: linalg.batch_matmul
  %c = relay.constant dense<0.5> : tensor<3x3x32x32xf32>
  %c16 = relay.constant dense<0.5> : tensor<3x3x16x16xf32>
  %ch = relay.constant dense<0.5> : tensor<3x3x32x32xf16>
  %cb = relay.constant dense<0.5> : tensor<3x3x128x128xf32>
  %0 = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>, data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x14x14x32xf32>, tensor<3x3x32x32xf32>) -> tensor<1x14x14x32xf32>
  %1 = relay.nn.conv2d %x, %c {padding = array<i64: 1, 1>, strides = array<i64: 2, 2>, data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x14x14x32xf32>, tensor<3x3x32x32xf32>) -> tensor<1x7x7x32xf32>
  %2 = relay.nn.conv2d %h, %c16 {padding = array<i64: 1, 1>, data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x14x14x16xf32>, tensor<3x3x16x16xf32>) -> tensor<1x14x14x16xf32>
  %3 = relay.nn.conv2d %x16, %ch {padding = array<i64: 1, 1>, data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x14x14x32xf16>, tensor<3x3x32x32xf16>) -> tensor<1x14x14x32xf16>
  %4 = relay.nn.conv2d %big, %cb {padding = array<i64: 1, 1>, data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<4x224x224x128xf32>, tensor<3x3x128x128xf32>) -> tensor<4x224x224x128xf32>
  %c48 = relay.constant dense<0.5> : tensor<3x3x32x48xf32>
  %5 = relay.nn.conv2d %x, %c48 {padding = array<i64: 1, 1>, data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x14x14x32xf32>, tensor<3x3x32x48xf32>) -> tensor<1x14x14x48xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<1x14x14x32xf32>, tensor<1x7x7x32xf32>, tensor<1x14x14x16xf32>, tensor<1x14x14x32xf16>, tensor<4x224x224x128xf32>, tensor<1x14x14x48xf32>
}

// i8 x i8 -> i32 (quantized models): F(2x2, 3x3), exact. The filter is
// transformed as (2G) g (2G)^T in i16, the input tiles widened to i16 in
// the transform, the 16 products accumulate in i32, and the output
// transform's sums (4x the convolution) are shifted right by 2.
// CHECK-LABEL: func.func @int8
func.func @int8(%x: tensor<1x14x14x32xi8>) -> tensor<1x14x14x32xi32> {
  // CHECK: %[[U:.+]] = arith.constant dense_resource<__elided__> : tensor<16x32x32xi16>
  // CHECK-COUNT-16: tensor.extract_slice %{{.+}} [1, 7, 7, 32] [1, 2, 2, 1] : tensor<1x16x16x32xi8> to tensor<1x7x7x32xi8>
  // CHECK: %{{.+}}:16 = linalg.generic
  // CHECK: arith.extsi %{{.+}} : i8 to i16
  // CHECK: linalg.batch_matmul ins(%{{.+}}, %[[U]] : tensor<16x49x32xi16>, tensor<16x32x32xi16>) outs(%{{.+}} : tensor<16x49x32xi32>)
  // CHECK: %{{.+}}:4 = linalg.generic
  // CHECK: arith.shrsi %{{.+}}, %{{.+}} : i32
  // CHECK-NOT: linalg.matmul
  %w = relay.constant dense<-3> : tensor<3x3x32x32xi8>
  %y = relay.nn.conv2d %x, %w {relay.conv_strategy = "winograd", padding = array<i64: 1, 1>, data_layout = "NHWC", kernel_layout = "HWIO", out_dtype = i32} : (tensor<1x14x14x32xi8>, tensor<3x3x32x32xi8>) -> tensor<1x14x14x32xi32>
  return %y : tensor<1x14x14x32xi32>
}

// An input padded with its zero point (the quantized importers' nn.pad) and
// extended to whole 2x2 tiles (7 + 2 -> 10): one tensor.pad of the zero
// point, low 1, high 2 (nested pads made IREE refuse the producer's
// dispatch; ResNet-18 int8 did not compile).
// CHECK-LABEL: func.func @int8_zero_point_pad
func.func @int8_zero_point_pad(%x: tensor<1x7x7x32xi8>) -> tensor<1x7x7x32xi32> {
  // CHECK: %[[ZP:.+]] = tensor.extract %{{.+}}[] : tensor<i8>
  // CHECK: tensor.pad %{{.+}} low[0, 1, 1, 0] high[0, 2, 2, 0]
  // CHECK-NEXT: ^bb0
  // CHECK-NEXT: tensor.yield %[[ZP]] : i8
  // CHECK-NEXT: } : tensor<1x7x7x32xi8> to tensor<1x10x10x32xi8>
  // CHECK-NOT: tensor.pad
  // CHECK: linalg.batch_matmul
  %zp = relay.constant dense<-5> : tensor<i8>
  %p = relay.nn.pad %x, %zp {pad_width = array<i64: 0, 0, 1, 1, 1, 1, 0, 0>} : (tensor<1x7x7x32xi8>, tensor<i8>) -> tensor<1x9x9x32xi8>
  %w = relay.constant dense<-3> : tensor<3x3x32x32xi8>
  %y = relay.nn.conv2d %p, %w {relay.conv_strategy = "winograd", data_layout = "NHWC", kernel_layout = "HWIO", out_dtype = i32} : (tensor<1x9x9x32xi8>, tensor<3x3x32x32xi8>) -> tensor<1x7x7x32xi32>
  return %y : tensor<1x7x7x32xi32>
}

// Integer convolutions left to the patch matmul: weights whose results
// could need more than i32 once multiplied by 4 (128 * sum |w| = 128 * 9 *
// 3700 * 127 per output channel, times 4, is 2^31 or more), and an i32
// input (the qnn lowering's shifted operands).
// CHECK-LABEL: func.func @int_not_winograd
func.func @int_not_winograd(%x: tensor<1x4x4x3700xi8>, %x32: tensor<1x14x14x32xi32>) -> (tensor<1x4x4x32xi32>, tensor<1x14x14x32xi32>) {
  // CHECK-NOT: linalg.batch_matmul
  // CHECK: linalg.matmul {{.+}} -> tensor<16x32xi32>
  // CHECK: linalg.matmul {{.+}} -> tensor<196x32xi32>
  // CHECK-NOT: linalg.batch_matmul
  %w = relay.constant dense<127> : tensor<3x3x3700x32xi8>
  %w32 = relay.constant dense<3> : tensor<3x3x32x32xi32>
  %0 = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>, data_layout = "NHWC", kernel_layout = "HWIO", out_dtype = i32} : (tensor<1x4x4x3700xi8>, tensor<3x3x3700x32xi8>) -> tensor<1x4x4x32xi32>
  %1 = relay.nn.conv2d %x32, %w32 {padding = array<i64: 1, 1>, data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x14x14x32xi32>, tensor<3x3x32x32xi32>) -> tensor<1x14x14x32xi32>
  return %0, %1 : tensor<1x4x4x32xi32>, tensor<1x14x14x32xi32>
}
