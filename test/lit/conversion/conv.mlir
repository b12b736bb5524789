// RUN: relay-mlir-opt %s -convert-relay-to-linalg | FileCheck %s
// Lowering of nn.conv1d/2d/3d and nn.conv{1,2,3}d_transpose: one pattern per
// strategy (im2col + matmul, named NHWC/NCHW, depthwise, grouped).
// (The im2col patch map of @conv2d_im2col: module-level maps print first.)

// CHECK-DAG: #[[PATCH:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1 * 2 + d3 * 2, d2 * 2 + d4 * 2, d5)>
// CHECK-DAG: #[[GI:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d4, d3 + d5)>

// CHECK-LABEL: func.func @conv_nchw
func.func @conv_nchw(%x: tensor<1x3x32x32xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<1x8x16x16xf32> {
  // (the last row and column of padding would be read by no window: not added)
  // CHECK: %[[C:.+]] = tensor.pad %{{.+}} low[0, 0, 1, 1] high[0, 0, 0, 0]
  // CHECK: } : tensor<1x3x32x32xf32> to tensor<1x3x33x33xf32>
  // CHECK-NOT: tensor.extract_slice
  // CHECK: %[[F:.+]] = linalg.fill
  // CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[C]], %{{.+}} : tensor<1x3x33x33xf32>, tensor<8x3x3x3xf32>) outs(%[[F]] : tensor<1x8x16x16xf32>)
  %y = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x16x16xf32>
  return %y : tensor<1x8x16x16xf32>
}

// A run-time image size (Conv2DRunTimeImage): both forms, sized per call,
// the one not taken to nothing. Large maps (>= 1024 output pixels an image):
// 8x8 output tiles, each tile's 12x12 input window (dilation 2) gathered
// into a batch and convolved with static spatial sizes; small maps: the
// patch matmul. Each writes a canvas from its origin, cropped to the
// result. No scf.if (IREE waits on the host at each).
// CHECK-LABEL: func.func @conv_nhwc_dynamic
func.func @conv_nhwc_dynamic(%x: tensor<?x?x?x3xf32>, %w: tensor<3x3x3x8xf32>) -> tensor<?x?x?x8xf32> {
  // CHECK-NOT: scf.if
  // CHECK: %[[N:.+]] = tensor.dim %{{.+}}, %{{.+}} : tensor<?x?x?x3xf32>
  // CHECK: %[[LARGE:.+]] = arith.cmpi sge, %{{.+}}, %c1024
  // CHECK: %[[TH:.+]] = arith.select %[[LARGE]], %{{.+}}, %c0
  // CHECK: arith.select %[[LARGE]], %{{.+}}, %c0
  // CHECK: %[[CH:.+]] = arith.select %[[LARGE]], %{{.+}}, %[[OH:[0-9]+]] : index
  // CHECK: %[[TW:.+]] = arith.select %[[LARGE]], %{{.+}}, %c0
  // CHECK: arith.select %[[LARGE]], %{{.+}}, %c0
  // CHECK: %[[CW:.+]] = arith.select %[[LARGE]], %{{.+}}, %[[OW:[0-9]+]] : index
  // CHECK: %[[IN:.+]] = tensor.pad %{{.+}} low[0, 0, 0, 0] high[0, %{{.+}}, %{{.+}}, 0]
  // CHECK: %[[WIN:.+]] = tensor.empty(%[[N]], %[[TH]], %[[TW]]) : tensor<?x?x?x12x36xf32>
  // CHECK: linalg.generic {{.*}} outs(%[[WIN]] : tensor<?x?x?x12x36xf32>)
  // CHECK: linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%{{.+}}, %{{.+}} : tensor<?x12x12x3xf32>, tensor<3x3x3x8xf32>) outs(%{{.+}} : tensor<?x8x8x8xf32>)
  // CHECK: linalg.transpose {{.*}} permutation = [0, 1, 3, 2, 4, 5]
  // CHECK: %[[TILED:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0], [1, 2], [3, 4], [5]]
  // CHECK: %[[MR:.+]] = arith.select %[[LARGE]], %c0{{.*}}, %[[OH]]
  // The patch rows read the tiles' input cut to the rows their windows read
  // (MR + 4, none when MR is 0; cropToOutputWindows).
  // CHECK: %[[RR:.+]] = affine.max #{{.+}}()[%[[MR]]]
  // CHECK: %[[RIN:.+]] = tensor.extract_slice %[[IN]][0, 0, 0, 0] [%{{.+}}, %[[RR]], %{{.+}}, 3] [1, 1, 1, 1]
  // CHECK: %[[E:.+]] = tensor.empty(%[[N]], %[[MR]], %[[OW]]) : tensor<?x?x?x3x3x3xf32>
  // CHECK: %[[G:.+]] = linalg.generic {{.*}} ins(%[[RIN]] : tensor<?x?x?x3xf32>) outs(%[[E]] : tensor<?x?x?x3x3x3xf32>)
  // CHECK: %[[A:.+]] = tensor.collapse_shape %[[G]] {{\[}}[0, 1, 2], [3, 4, 5]] : tensor<?x?x?x3x3x3xf32> into tensor<?x27xf32>
  // CHECK: %[[M:.+]] = linalg.matmul ins(%[[A]], %{{.+}} : tensor<?x27xf32>, tensor<27x8xf32>) outs(%{{.+}} : tensor<?x8xf32>)
  // CHECK: %[[MI:.+]] = tensor.expand_shape %[[M]] {{\[}}[0, 1, 2], [3]] output_shape [%[[N]], %[[MR]], %[[OW]], 8] : tensor<?x8xf32> into tensor<?x?x?x8xf32>
  // CHECK: %[[C:.+]] = tensor.empty(%[[N]], %[[CH]], %[[CW]]) : tensor<?x?x?x8xf32>
  // CHECK: %[[I:.+]] = tensor.insert_slice %[[TILED]] into %[[C]][0, 0, 0, 0]
  // CHECK: %[[J:.+]] = tensor.insert_slice %[[MI]] into %[[I]][0, 0, 0, 0] [%[[N]], %[[MR]], %[[OW]], 8]
  // CHECK: tensor.extract_slice %[[J]][0, 0, 0, 0] [%[[N]], %[[OH]], %[[OW]], 8]
  %y = relay.nn.conv2d %x, %w {dilation = array<i64: 2, 2>, data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<?x?x?x3xf32>, tensor<3x3x3x8xf32>) -> tensor<?x?x?x8xf32>
  return %y : tensor<?x?x?x8xf32>
}

// Only the batch known at run time: IREE's direct convolution is as fast as
// at a static size, so the static choice (direct above 256 pixels an image).
// CHECK-LABEL: func.func @conv_nhwc_dynamic_batch
// CHECK-NOT: linalg.matmul
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%{{.+}}, %{{.+}} : tensor<?x34x34x3xf32>, tensor<3x3x3x8xf32>) outs(%{{.+}} : tensor<?x32x32x8xf32>)
func.func @conv_nhwc_dynamic_batch(%x: tensor<?x34x34x3xf32>, %w: tensor<3x3x3x8xf32>) -> tensor<?x32x32x8xf32> {
  %y = relay.nn.conv2d %x, %w {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<?x34x34x3xf32>, tensor<3x3x3x8xf32>) -> tensor<?x32x32x8xf32>
  return %y : tensor<?x32x32x8xf32>
}

// A 1x1 kernel at stride 1 with a run-time image size: a matmul over the
// pixels (no copy, no tiles).
// CHECK-LABEL: func.func @conv_nhwc_dynamic_1x1
// CHECK-NOT: linalg.generic
// CHECK-NOT: linalg.conv_2d
// CHECK: %[[A:.+]] = tensor.collapse_shape %{{.+}} {{\[}}[0, 1, 2], [3]] : tensor<?x?x?x3xf32> into tensor<?x3xf32>
// CHECK: linalg.matmul ins(%[[A]], %{{.+}} : tensor<?x3xf32>, tensor<3x8xf32>)
func.func @conv_nhwc_dynamic_1x1(%x: tensor<?x?x?x3xf32>, %w: tensor<1x1x3x8xf32>) -> tensor<?x?x?x8xf32> {
  %y = relay.nn.conv2d %x, %w {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<?x?x?x3xf32>, tensor<1x1x3x8xf32>) -> tensor<?x?x?x8xf32>
  return %y : tensor<?x?x?x8xf32>
}

// CHECK-LABEL: func.func @conv_depthwise_nchw
func.func @conv_depthwise_nchw(%x: tensor<1x8x8x8xf32>, %w: tensor<8x1x3x3xf32>) -> tensor<1x8x8x8xf32> {
  // CHECK: %[[W:.+]] = tensor.collapse_shape %{{.+}} {{\[\[}}0, 1], [2], [3]] : tensor<8x1x3x3xf32> into tensor<8x3x3xf32>
  // CHECK: linalg.depthwise_conv_2d_nchw_chw {{.*}} ins(%{{.+}}, %[[W]] : tensor<1x8x10x10xf32>, tensor<8x3x3xf32>)
  %y = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>, groups = 8 : i64} : (tensor<1x8x8x8xf32>, tensor<8x1x3x3xf32>) -> tensor<1x8x8x8xf32>
  return %y : tensor<1x8x8x8xf32>
}

// CHECK-LABEL: func.func @conv_depthwise_multiplier_nhwc
func.func @conv_depthwise_multiplier_nhwc(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x1x8xf32>) -> tensor<1x6x6x8xf32> {
  // CHECK: tensor.expand_shape %{{.+}} output_shape [3, 3, 4, 2] : tensor<3x3x8xf32> into tensor<3x3x4x2xf32>
  // CHECK: %[[C:.+]] = linalg.depthwise_conv_2d_nhwc_hwcm {{.*}} outs(%{{.+}} : tensor<1x6x6x4x2xf32>)
  // CHECK: tensor.collapse_shape %[[C]] {{\[\[}}0], [1], [2], [3, 4]] : tensor<1x6x6x4x2xf32> into tensor<1x6x6x8xf32>
  %y = relay.nn.conv2d %x, %w {groups = 4 : i64, data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x8x8x4xf32>, tensor<3x3x1x8xf32>) -> tensor<1x6x6x8xf32>
  return %y : tensor<1x6x6x8xf32>
}

// CHECK-LABEL: func.func @conv_grouped_nchw
func.func @conv_grouped_nchw(%x: tensor<1x4x8x8xf32>, %w: tensor<6x2x3x3xf32>) -> tensor<1x6x6x6xf32> {
  // CHECK: %[[I:.+]] = tensor.expand_shape %{{.+}} output_shape [1, 2, 2, 8, 8] : tensor<1x4x8x8xf32> into tensor<1x2x2x8x8xf32>
  // CHECK: %[[W:.+]] = tensor.expand_shape %{{.+}} output_shape [2, 3, 2, 3, 3] : tensor<6x2x3x3xf32> into tensor<2x3x2x3x3xf32>
  // CHECK: %[[C:.+]] = linalg.conv_2d_ngchw_gfchw {{.*}} ins(%[[I]], %[[W]] : {{.*}}) outs(%{{.+}} : tensor<1x2x3x6x6xf32>)
  // CHECK: tensor.collapse_shape %[[C]] {{\[\[}}0], [1, 2], [3], [4]] : tensor<1x2x3x6x6xf32> into tensor<1x6x6x6xf32>
  %y = relay.nn.conv2d %x, %w {groups = 2 : i64} : (tensor<1x4x8x8xf32>, tensor<6x2x3x3xf32>) -> tensor<1x6x6x6xf32>
  return %y : tensor<1x6x6x6xf32>
}

// A window op reads its input only up to the last window: a 3x3 stride-2
// convolution over a 2x2 map padded to 4x4 has one output pixel and reads
// 3x3 of the padded map, so the input is exactly that (IREE rejects a conv
// whose input extent disagrees with the one linalg infers from its output
// once unit dims are folded): the padding after is left out (no crop after
// the pad, which would keep IREE from fusing the pad into its consumer).
// (NCHW data: the direct convolution, not the im2col path)
// CHECK-LABEL: func.func @conv2d_crop_to_windows
// CHECK: %[[C:.+]] = tensor.pad %{{.+}} low[0, 0, 1, 1] high[0, 0, 0, 0]
// CHECK-NOT: tensor.extract_slice
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%[[C]], %{{.+}} : tensor<?x4x3x3xf32>, tensor<8x4x3x3xf32>)
func.func @conv2d_crop_to_windows(%x: tensor<?x4x2x2xf32>, %w: tensor<8x4x3x3xf32>) -> tensor<?x8x1x1xf32> {
  %y = relay.nn.conv2d %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 1, 1>} : (tensor<?x4x2x2xf32>, tensor<8x4x3x3xf32>) -> tensor<?x8x1x1xf32>
  return %y : tensor<?x8x1x1xf32>
}

// Padding beyond what the windows read and input rows: the padding is left
// out, the rows cropped.
// CHECK-LABEL: func.func @conv2d_crop_padding_and_rows
// CHECK: %[[P:.+]] = tensor.pad %{{.+}} low[0, 0, 1, 1] high[0, 0, 0, 0]
// CHECK: %[[C:.+]] = tensor.extract_slice %[[P]][0, 0, 0, 0] [1, 4, 3, 3] [1, 1, 1, 1] : tensor<1x4x4x4xf32> to tensor<1x4x3x3xf32>
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%[[C]], %{{.+}} : tensor<1x4x3x3xf32>, tensor<8x4x3x3xf32>)
func.func @conv2d_crop_padding_and_rows(%x: tensor<1x4x3x3xf32>, %w: tensor<8x4x3x3xf32>) -> tensor<1x8x1x1xf32> {
  %y = relay.nn.conv2d %x, %w {strides = array<i64: 3, 3>, padding = array<i64: 1, 1>} : (tensor<1x4x3x3xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x1x1xf32>
  return %y : tensor<1x8x1x1xf32>
}

// Static NHWC/HWIO float convolutions with at most 256 output pixels and a
// kernel over 128 KB are lowered as im2col + linalg.matmul. With fewer than
// 16 input channels one linalg.generic gathers the [N, OH, OW, KH, KW, C]
// patches (strides and dilation in its map); the weight collapses to
// [KH*KW*C, O] for free.
// CHECK-LABEL: func.func @conv2d_im2col
// CHECK-SAME: (%[[X:.+]]: tensor<1x9x9x4xf32>, %[[W:.+]]: tensor<3x3x4x1024xf32>)
// CHECK: %[[E:.+]] = tensor.empty() : tensor<1x3x3x3x3x4xf32>
// CHECK: %[[G:.+]] = linalg.generic {indexing_maps = [#[[PATCH]], #{{.+}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%[[X]] : tensor<1x9x9x4xf32>) outs(%[[E]] : tensor<1x3x3x3x3x4xf32>)
// CHECK: %[[A:.+]] = tensor.collapse_shape %[[G]] {{\[}}[0, 1, 2], [3, 4, 5]] : tensor<1x3x3x3x3x4xf32> into tensor<9x36xf32>
// CHECK: %[[B:.+]] = tensor.collapse_shape %[[W]] {{\[}}[0, 1, 2], [3]] : tensor<3x3x4x1024xf32> into tensor<36x1024xf32>
// CHECK: %[[F:.+]] = linalg.fill
// CHECK: %[[M:.+]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<9x36xf32>, tensor<36x1024xf32>) outs(%[[F]] : tensor<9x1024xf32>)
// CHECK: tensor.expand_shape %[[M]] {{\[}}[0, 1, 2], [3]] output_shape [1, 3, 3, 1024] : tensor<9x1024xf32> into tensor<1x3x3x1024xf32>
func.func @conv2d_im2col(%x: tensor<1x9x9x4xf32>, %w: tensor<3x3x4x1024xf32>) -> tensor<1x3x3x1024xf32> {
  %y = relay.nn.conv2d %x, %w {strides = array<i64: 2, 2>, dilation = array<i64: 2, 2>, data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x9x9x4xf32>, tensor<3x3x4x1024xf32>) -> tensor<1x3x3x1024xf32>
  return %y : tensor<1x3x3x1024xf32>
}

// With 16 channels or more, one strided slice per kernel tap (offsets
// from the dilation, strides from the convolution's), concatenated along C
// in (kh, kw, c) order: copies IREE vectorizes.
// CHECK-LABEL: func.func @conv2d_im2col_sliced
// CHECK-NOT: linalg.generic
// CHECK: tensor.extract_slice %{{.+}}[0, 0, 0, 0] [1, 3, 3, 16] [1, 2, 2, 1] : tensor<1x9x9x16xf32> to tensor<1x3x3x16xf32>
// CHECK: tensor.extract_slice %{{.+}}[0, 0, 2, 0] [1, 3, 3, 16] [1, 2, 2, 1]
// CHECK: tensor.extract_slice %{{.+}}[0, 4, 4, 0] [1, 3, 3, 16] [1, 2, 2, 1]
// CHECK: tensor.concat dim(3) {{.+}} -> tensor<1x3x3x144xf32>
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<9x144xf32>, tensor<144x256xf32>) outs(%{{.+}} : tensor<9x256xf32>)
func.func @conv2d_im2col_sliced(%x: tensor<1x9x9x16xf32>, %w: tensor<3x3x16x256xf32>) -> tensor<1x3x3x256xf32> {
  %y = relay.nn.conv2d %x, %w {strides = array<i64: 2, 2>, dilation = array<i64: 2, 2>, data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x9x9x16xf32>, tensor<3x3x16x256xf32>) -> tensor<1x3x3x256xf32>
  return %y : tensor<1x3x3x256xf32>
}

// A kernel of at most 128 KB (here 3x3x16x8 floats, 4.5 KB) takes the
// direct convolution on small maps too: im2col's copies and packing cost
// more than they save.
// CHECK-LABEL: func.func @conv2d_small_kernel_direct
// CHECK-NOT: linalg.matmul
// CHECK: linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%{{.+}}, %{{.+}} : tensor<1x9x9x16xf32>, tensor<3x3x16x8xf32>)
func.func @conv2d_small_kernel_direct(%x: tensor<1x9x9x16xf32>, %w: tensor<3x3x16x8xf32>) -> tensor<1x3x3x8xf32> {
  %y = relay.nn.conv2d %x, %w {strides = array<i64: 2, 2>, dilation = array<i64: 2, 2>, data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x9x9x16xf32>, tensor<3x3x16x8xf32>) -> tensor<1x3x3x8xf32>
  return %y : tensor<1x3x3x8xf32>
}

// CHECK-LABEL: func.func @conv1d
// (the last padded element would be read by no window: not added)
// CHECK: %[[C1D:.+]] = tensor.pad %{{.*}} low[0, 0, 1] high[0, 0, 0]
// CHECK-NOT: tensor.extract_slice
// CHECK: linalg.conv_1d_ncw_fcw {dilations = dense<1> : tensor<1xi64>, strides = dense<2> : tensor<1xi64>} ins(%[[C1D]], %{{.*}} : tensor<?x3x17xf32>, tensor<8x3x3xf32>) outs(%{{.*}} : tensor<?x8x8xf32>)
func.func @conv1d(%x: tensor<?x3x16xf32>, %w: tensor<8x3x3xf32>) -> tensor<?x8x8xf32> {
  %y = relay.nn.conv1d %x, %w {padding = array<i64: 1>, strides = array<i64: 2>} : (tensor<?x3x16xf32>, tensor<8x3x3xf32>) -> tensor<?x8x8xf32>
  return %y : tensor<?x8x8xf32>
}

// CHECK-LABEL: func.func @conv1d_groups
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2], [3]] output_shape [1, 2, 2, 9]
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2], [3]] output_shape [2, 3, 2, 3]
// CHECK: linalg.generic {indexing_maps = [#[[GI]], #[[GW:.+]], #[[GO:.+]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0], [1, 2], [3]] : tensor<1x2x3x7xf32> into tensor<1x6x7xf32>
func.func @conv1d_groups(%x: tensor<1x4x9xf32>, %w: tensor<6x2x3xf32>) -> tensor<1x6x7xf32> {
  %y = relay.nn.conv1d %x, %w {groups = 2 : i64} : (tensor<1x4x9xf32>, tensor<6x2x3xf32>) -> tensor<1x6x7xf32>
  return %y : tensor<1x6x7xf32>
}

// CHECK-LABEL: func.func @conv3d_ndhwc_dw
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0], [1], [2], [3, 4]] : tensor<2x2x2x1x2xf32> into tensor<2x2x2x2xf32>
// CHECK: linalg.depthwise_conv_3d_ndhwc_dhwc
func.func @conv3d_ndhwc_dw(%x: tensor<1x4x5x5x2xf32>, %w: tensor<2x2x2x1x2xf32>) -> tensor<1x3x4x4x2xf32> {
  %y = relay.nn.conv3d %x, %w {groups = 2 : i64, data_layout = "NDHWC", kernel_layout = "DHWIO"} : (tensor<1x4x5x5x2xf32>, tensor<2x2x2x1x2xf32>) -> tensor<1x3x4x4x2xf32>
  return %y : tensor<1x3x4x4x2xf32>
}

// CHECK-LABEL: func.func @conv2d_transpose
// CHECK: %[[Z:.+]] = linalg.fill {{.*}} -> tensor<1x3x10x12xf32>
// CHECK: %[[S:.+]] = tensor.insert_slice %{{.*}} into %[[Z]][0, 0, 1, 1] [1, 3, 4, 5] [1, 1, 2, 2]
// CHECK: %[[W:.+]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<2x3x3x3xf32>)
// CHECK: tensor.extract %{{.*}} : tensor<3x2x3x3xf32>
// CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%[[S]], %[[W]] : tensor<1x3x10x12xf32>, tensor<2x3x3x3xf32>) outs(%{{.*}} : tensor<1x2x8x10xf32>)
func.func @conv2d_transpose(%x: tensor<1x3x4x5xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<1x2x8x10xf32> {
  %y = relay.nn.conv2d_transpose %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 1, 1>, output_padding = array<i64: 1, 1>} : (tensor<1x3x4x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x2x8x10xf32>
  return %y : tensor<1x2x8x10xf32>
}

// NHWC data and HWOI kernel are transposed to NCHW/IOHW; groups = 2 gathers
// the flipped kernel as [G, F/G, C/G, KH, KW] for the grouped generic over
// the input split [N, G, C/G, H, W]; the NCHW result goes back to NHWC.
// CHECK-LABEL: func.func @conv2d_transpose_nhwc_groups
// CHECK: linalg.transpose ins(%arg0 : tensor<1x3x3x4xf32>) outs(%{{.*}} : tensor<1x4x3x3xf32>) permutation = [0, 3, 1, 2]
// CHECK: linalg.transpose ins(%arg1 : tensor<2x2x3x4xf32>) outs(%{{.*}} : tensor<4x3x2x2xf32>) permutation = [3, 2, 0, 1]
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<2x3x2x2x2xf32>)
// CHECK: tensor.expand_shape {{.*}} : tensor<1x4x5x5xf32> into tensor<1x2x2x5x5xf32>
// CHECK: %[[G:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x2x2x5x5xf32>, tensor<2x3x2x2x2xf32>) outs(%{{.*}} : tensor<1x2x3x4x4xf32>)
// CHECK: %[[C:.*]] = tensor.collapse_shape %[[G]] {{.*}} into tensor<1x6x4x4xf32>
// CHECK: linalg.transpose ins(%[[C]] : tensor<1x6x4x4xf32>) outs(%{{.*}} : tensor<1x4x4x6xf32>) permutation = [0, 2, 3, 1]
func.func @conv2d_transpose_nhwc_groups(%x: tensor<1x3x3x4xf32>, %w: tensor<2x2x3x4xf32>) -> tensor<1x4x4x6xf32> {
  %y = relay.nn.conv2d_transpose %x, %w {groups = 2 : i64, data_layout = "NHWC", kernel_layout = "HWOI"} : (tensor<1x3x3x4xf32>, tensor<2x2x3x4xf32>) -> tensor<1x4x4x6xf32>
  return %y : tensor<1x4x4x6xf32>
}

// Conv2DNhwcHwcf with an HWOI kernel: transposed to HWIO (im2col takes
// HWIO kernels only).
// CHECK-LABEL: func.func @conv_nhwc_hwoi
// CHECK-NOT: linalg.matmul
// CHECK: %[[T:.+]] = linalg.transpose ins(%{{.+}} : tensor<3x3x8x3xf32>) outs(%{{.+}} : tensor<3x3x3x8xf32>) permutation = [0, 1, 3, 2]
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%{{.+}}, %[[T]] : tensor<1x6x6x3xf32>, tensor<3x3x3x8xf32>)
func.func @conv_nhwc_hwoi(%x: tensor<1x6x6x3xf32>, %w: tensor<3x3x8x3xf32>) -> tensor<1x4x4x8xf32> {
  %y = relay.nn.conv2d %x, %w {data_layout = "NHWC", kernel_layout = "HWOI"} : (tensor<1x6x6x3xf32>, tensor<3x3x8x3xf32>) -> tensor<1x4x4x8xf32>
  return %y : tensor<1x4x4x8xf32>
}

// Above kIm2colMaxPixels (17x17 = 289 > 256 output pixels) Conv2DIm2colMatmul
// rejects and the direct convolution is used.
// CHECK-LABEL: func.func @conv_nhwc_large_direct
// CHECK-NOT: linalg.matmul
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} outs(%{{.+}} : tensor<1x17x17x8xf32>)
func.func @conv_nhwc_large_direct(%x: tensor<1x19x19x3xf32>, %w: tensor<3x3x3x8xf32>) -> tensor<1x17x17x8xf32> {
  %y = relay.nn.conv2d %x, %w {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x19x19x3xf32>, tensor<3x3x3x8xf32>) -> tensor<1x17x17x8xf32>
  return %y : tensor<1x17x17x8xf32>
}

// Conv2DDepthwise in NHWC (multiplier 1) beats the im2col pattern, which
// takes groups = 1 only.
// CHECK-LABEL: func.func @conv_depthwise_nhwc
// CHECK: %[[W:.+]] = tensor.collapse_shape %{{.+}} {{\[\[}}0], [1], [2, 3]] : tensor<3x3x1x4xf32> into tensor<3x3x4xf32>
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc {{.*}} ins(%{{.+}}, %[[W]] : tensor<1x8x8x4xf32>, tensor<3x3x4xf32>)
func.func @conv_depthwise_nhwc(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x1x4xf32>) -> tensor<1x6x6x4xf32> {
  %y = relay.nn.conv2d %x, %w {groups = 4 : i64, data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x8x8x4xf32>, tensor<3x3x1x4xf32>) -> tensor<1x6x6x4xf32>
  return %y : tensor<1x6x6x4xf32>
}

// Conv2DGrouped in NHWC: C → [G, C/G], the kernel [KH, KW, I, O] →
// [G, O/G, KH, KW, I].
// CHECK-LABEL: func.func @conv_grouped_nhwc
// CHECK: %[[I:.+]] = tensor.expand_shape %{{.+}} {{\[\[}}0], [1], [2], [3, 4]] output_shape [1, 8, 8, 2, 2]
// CHECK: %[[T:.+]] = linalg.transpose ins(%{{.+}} : tensor<3x3x2x2x3xf32>) outs(%{{.+}} : tensor<2x3x3x3x2xf32>) permutation = [3, 4, 0, 1, 2]
// CHECK: %[[C:.+]] = linalg.conv_2d_nhwgc_gfhwc {{.*}} ins(%[[I]], %[[T]] : {{.*}}) outs(%{{.+}} : tensor<1x6x6x2x3xf32>)
// CHECK: tensor.collapse_shape %[[C]] {{\[\[}}0], [1], [2], [3, 4]] : tensor<1x6x6x2x3xf32> into tensor<1x6x6x6xf32>
func.func @conv_grouped_nhwc(%x: tensor<1x8x8x4xf32>, %w: tensor<3x3x2x6xf32>) -> tensor<1x6x6x6xf32> {
  %y = relay.nn.conv2d %x, %w {groups = 2 : i64, data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x8x8x4xf32>, tensor<3x3x2x6xf32>) -> tensor<1x6x6x6xf32>
  return %y : tensor<1x6x6x6xf32>
}

// A signed integer convolution (int8 x int8 -> int32, as quantized models
// have them) takes the patch matmul at any map size (here 32x32 = 1024
// output pixels, where a float one is a direct convolution); an unsigned one
// stays a direct convolution (linalg.matmul would sign-extend its operands).
// The integer patch matrix is one strided slice per kernel tap,
// concatenated (no linalg.generic window copy, which IREE does not
// vectorize).
// CHECK-LABEL: func.func @conv_int8_im2col
// CHECK-NOT: linalg.conv_2d
// CHECK-NOT: linalg.generic
// CHECK: tensor.extract_slice %{{.+}}[0, 2, 2, 0] [1, 32, 32, 4] [1, 1, 1, 1] : tensor<1x34x34x4xi8> to tensor<1x32x32x4xi8>
// CHECK: tensor.concat dim(3) {{.+}} -> tensor<1x32x32x36xi8>
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<1024x36xi8>, tensor<36x8xi8>) outs(%{{.+}} : tensor<1024x8xi32>)
func.func @conv_int8_im2col(%x: tensor<1x32x32x4xi8>, %w: tensor<3x3x4x8xi8>) -> tensor<1x32x32x8xi32> {
  %y = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>, data_layout = "NHWC", kernel_layout = "HWIO", out_dtype = i32} : (tensor<1x32x32x4xi8>, tensor<3x3x4x8xi8>) -> tensor<1x32x32x8xi32>
  return %y : tensor<1x32x32x8xi32>
}
// CHECK-LABEL: func.func @conv_int8_im2col_strided
// CHECK: tensor.extract_slice %{{.+}}[0, 1, 1, 0] [1, 8, 8, 4] [1, 2, 2, 1] : tensor<1x17x17x4xi8> to tensor<1x8x8x4xi8>
// CHECK: tensor.concat dim(3) {{.+}} -> tensor<1x8x8x36xi8>
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : tensor<64x36xi8>, tensor<36x8xi8>) outs(%{{.+}} : tensor<64x8xi32>)
func.func @conv_int8_im2col_strided(%x: tensor<1x16x16x4xi8>, %w: tensor<3x3x4x8xi8>) -> tensor<1x8x8x8xi32> {
  %y = relay.nn.conv2d %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 1, 1>, data_layout = "NHWC", kernel_layout = "HWIO", out_dtype = i32} : (tensor<1x16x16x4xi8>, tensor<3x3x4x8xi8>) -> tensor<1x8x8x8xi32>
  return %y : tensor<1x8x8x8xi32>
}
// CHECK-LABEL: func.func @conv_uint8_direct
// CHECK-NOT: linalg.matmul
// CHECK: linalg.conv_2d_nhwc_hwcf
func.func @conv_uint8_direct(%x: tensor<1x32x32x4xui8>, %w: tensor<3x3x4x8xi8>) -> tensor<1x32x32x8xi32> {
  %y = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>, data_layout = "NHWC", kernel_layout = "HWIO", out_dtype = i32} : (tensor<1x32x32x4xui8>, tensor<3x3x4x8xi8>) -> tensor<1x32x32x8xi32>
  return %y : tensor<1x32x32x8xi32>
}

// Relay's depthwise weight convention (groups = C = 3 = weight out-channels,
// channels = 12 = C*M with M = 4, kernel_size given; TFLite's HWOI
// [KH, KW, C, M]): the weight is rewritten to the grouped [KH, KW, 12, 1]
// (through OIHW [3, 4, 3, 3] -> [12, 1, 3, 3]) and lowered as a grouped
// convolution of 12 output channels.
// CHECK-LABEL: func.func @conv_depthwise_convention_hwoi
// CHECK: linalg.transpose ins(%{{.+}} : tensor<3x3x3x4xf32>) outs(%{{.+}} : tensor<3x4x3x3xf32>) permutation = [2, 3, 0, 1]
// CHECK: tensor.expand_shape {{.+}} output_shape [12, 1, 3, 3] : tensor<108xf32> into tensor<12x1x3x3xf32>
// CHECK: linalg.transpose ins(%{{.+}} : tensor<12x1x3x3xf32>) outs(%{{.+}} : tensor<3x3x12x1xf32>) permutation = [2, 3, 0, 1]
// CHECK: linalg.depthwise_conv_2d_nhwc_hwcm {{.+}} outs(%{{.+}} : tensor<1x5x5x3x4xf32>)
// CHECK-NOT: relay.
func.func @conv_depthwise_convention_hwoi(%x: tensor<1x7x7x3xf32>, %w: tensor<3x3x3x4xf32>) -> tensor<1x5x5x12xf32> {
  %y = relay.nn.conv2d %x, %w {groups = 3 : i64, channels = 12 : i64, kernel_size = array<i64: 3, 3>, data_layout = "NHWC", kernel_layout = "HWOI"} : (tensor<1x7x7x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x5x5x12xf32>
  return %y : tensor<1x5x5x12xf32>
}

// Kernel layouts the strategies do not take are layout_transformed to the
// data layout's kernel: OIHW for NCHW data, HWIO for NHWC (TFLite's OHWI).
// CHECK-LABEL: func.func @conv_nchw_hwio
// CHECK: linalg.transpose ins(%{{.+}} : tensor<3x3x3x8xf32>) outs(%{{.+}} : tensor<8x3x3x3xf32>) permutation = [3, 2, 0, 1]
// CHECK: linalg.conv_2d_nchw_fchw
func.func @conv_nchw_hwio(%x: tensor<1x3x8x8xf32>, %w: tensor<3x3x3x8xf32>) -> tensor<1x8x6x6xf32> {
  %y = relay.nn.conv2d %x, %w {kernel_layout = "HWIO"} : (tensor<1x3x8x8xf32>, tensor<3x3x3x8xf32>) -> tensor<1x8x6x6xf32>
  return %y : tensor<1x8x6x6xf32>
}
// CHECK-LABEL: func.func @conv_nhwc_ohwi
// CHECK: linalg.transpose ins(%{{.+}} : tensor<8x3x2x4xf32>) outs(%{{.+}} : tensor<3x2x4x8xf32>) permutation = [1, 2, 3, 0]
// CHECK-NOT: relay.
func.func @conv_nhwc_ohwi(%x: tensor<1x9x8x4xf32>, %w: tensor<8x3x2x4xf32>) -> tensor<1x7x7x8xf32> {
  %y = relay.nn.conv2d %x, %w {data_layout = "NHWC", kernel_layout = "OHWI"} : (tensor<1x9x8x4xf32>, tensor<8x3x2x4xf32>) -> tensor<1x7x7x8xf32>
  return %y : tensor<1x7x7x8xf32>
}

// nn.conv1d_transpose is nn.conv2d_transpose on a unit H: NWC data -> NHWC
// at expand_dims, the 2-D lowering (here NHWC/IOHW, transposed to NCHW),
// the unit H squeezed away; `?` data dims go through.
// CHECK-LABEL: func.func @conv1d_transpose
// CHECK: tensor.expand_shape %arg1 {{.*}} into tensor<4x2x1x3xf32>
// CHECK: tensor.expand_shape %arg0 {{.*}} into tensor<?x1x?x4xf32>
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%{{.*}}, %{{.*}} : tensor<?x4x1x?xf32>, tensor<2x4x1x3xf32>) outs(%{{.*}} : tensor<?x2x1x?xf32>)
// CHECK: %[[Y:.+]] = tensor.collapse_shape %{{.*}} {{\[}}[0], [1, 2], [3]] : tensor<?x1x?x2xf32> into tensor<?x?x2xf32>
// CHECK: return %[[Y]]
func.func @conv1d_transpose(%x: tensor<?x?x4xf32>, %w: tensor<4x2x3xf32>) -> tensor<?x?x2xf32> {
  %y = relay.nn.conv1d_transpose %x, %w {strides = array<i64: 2>, padding = array<i64: 1, 0>, output_padding = array<i64: 1>, data_layout = "NWC"} : (tensor<?x?x4xf32>, tensor<4x2x3xf32>) -> tensor<?x?x2xf32>
  return %y : tensor<?x?x2xf32>
}

// nn.conv3d_transpose is the data adjoint of nn.conv3d: the input
// zero-stuffed by the strides (pad + reshape), the flipped kernel, a
// stride-1 grouped convolution.
// CHECK-LABEL: func.func @conv3d_transpose
// CHECK: tensor.pad %{{.*}} low[0, 0, 0, 0, 0, 0, 0, 0] high[0, 0, 0, 1, 0, 1, 0, 0]
// CHECK: } : tensor<1x4x3x1x3x1x3x1xf32> to tensor<1x4x3x2x3x2x3x1xf32>
// CHECK: tensor.pad %{{.*}} low[0, 0, 1, 1, 1] high[0, 0, 1, 1, 1]
// CHECK: } : tensor<1x4x5x5x3xf32> to tensor<1x4x7x7x5xf32>
// CHECK: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x2x2x7x7x5xf32>, tensor<2x1x2x2x2x2xf32>) outs(%{{.*}} : tensor<1x2x1x6x6x4xf32>)
// CHECK: %[[Y:.+]] = tensor.collapse_shape {{.*}} into tensor<1x2x6x6x4xf32>
// CHECK: return %[[Y]]
func.func @conv3d_transpose(%x: tensor<1x4x3x3x3xf32>, %w: tensor<4x1x2x2x2xf32>) -> tensor<1x2x6x6x4xf32> {
  %y = relay.nn.conv3d_transpose %x, %w {strides = array<i64: 2, 2, 1>, padding = array<i64: 0, 0, 0, 0, 1, 0>, output_padding = array<i64: 0, 1, 0>, groups = 2 : i64} : (tensor<1x4x3x3x3xf32>, tensor<4x1x2x2x2xf32>) -> tensor<1x2x6x6x4xf32>
  return %y : tensor<1x2x6x6x4xf32>
}
