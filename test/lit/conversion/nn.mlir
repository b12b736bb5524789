// RUN: relay-mlir-opt %s -convert-relay-to-linalg | FileCheck %s

// The im2col patch map of @conv2d_im2col (module-level maps print first).
// CHECK-DAG: #[[PATCH:.+]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1 * 2 + d3 * 2, d2 * 2 + d4 * 2, d5)>
// CHECK-DAG: #[[MA:.+]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[MB:.+]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[MC:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[NN_ID2:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[NN_ID3:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[NN_CH3:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d1)>

// CHECK-LABEL: func.func @dense
// CHECK-SAME: (%[[X:.+]]: tensor<2x8xf32>, %[[W:.+]]: tensor<5x8xf32>)
func.func @dense(%x: tensor<2x8xf32>, %w: tensor<5x8xf32>) -> tensor<2x5xf32> {
  // CHECK: %[[Z:.+]] = arith.constant 0.000000e+00 : f32
  // CHECK: %[[E:.+]] = tensor.empty() : tensor<2x5xf32>
  // CHECK: %[[F:.+]] = linalg.fill ins(%[[Z]] : f32) outs(%[[E]] : tensor<2x5xf32>)
  // CHECK: %[[R:.+]] = linalg.matmul indexing_maps = [#[[MA]], #[[MB]], #[[MC]]] ins(%[[X]], %[[W]] : tensor<2x8xf32>, tensor<5x8xf32>) outs(%[[F]] : tensor<2x5xf32>)
  // CHECK: return %[[R]]
  %y = relay.nn.dense %x, %w : (tensor<2x8xf32>, tensor<5x8xf32>) -> tensor<2x5xf32>
  return %y : tensor<2x5xf32>
}

// CHECK-LABEL: func.func @dense_nd_dynamic
// CHECK-SAME: (%[[X:.+]]: tensor<?x3x8xf32>, %[[W:.+]]: tensor<5x8xf32>)
func.func @dense_nd_dynamic(%x: tensor<?x3x8xf32>, %w: tensor<5x8xf32>) -> tensor<?x3x5xf32> {
  // CHECK: %[[N:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x3x8xf32>
  // CHECK: %[[C:.+]] = tensor.collapse_shape %[[X]] {{\[\[}}0, 1], [2]] : tensor<?x3x8xf32> into tensor<?x8xf32>
  // CHECK: %[[M:.+]] = linalg.matmul {{.*}} ins(%[[C]], %[[W]] : tensor<?x8xf32>, tensor<5x8xf32>)
  // CHECK: %[[R:.+]] = tensor.expand_shape %[[M]] {{\[\[}}0, 1], [2]] output_shape [%[[N]], 3, 5] : tensor<?x5xf32> into tensor<?x3x5xf32>
  // CHECK: return %[[R]]
  %y = relay.nn.dense %x, %w : (tensor<?x3x8xf32>, tensor<5x8xf32>) -> tensor<?x3x5xf32>
  return %y : tensor<?x3x5xf32>
}

// CHECK-LABEL: func.func @dense_i8
func.func @dense_i8(%x: tensor<2x8xi8>, %w: tensor<5x8xi8>) -> tensor<2x5xi32> {
  // CHECK: linalg.matmul {{.*}} ins(%{{.+}}, %{{.+}} : tensor<2x8xi8>, tensor<5x8xi8>) outs(%{{.+}} : tensor<2x5xi32>)
  %y = relay.nn.dense %x, %w {out_dtype = i32} : (tensor<2x8xi8>, tensor<5x8xi8>) -> tensor<2x5xi32>
  return %y : tensor<2x5xi32>
}

// CHECK-LABEL: func.func @bias_add
func.func @bias_add(%x: tensor<1x8x4x4xf32>, %b: tensor<8xf32>) -> tensor<1x8x4x4xf32> {
  // CHECK: linalg.generic {indexing_maps = [#[[ID4:.+]], #[[CH:.+]], #[[ID4]]]
  // CHECK: arith.addf
  %y = relay.nn.bias_add %x, %b : (tensor<1x8x4x4xf32>, tensor<8xf32>) -> tensor<1x8x4x4xf32>
  return %y : tensor<1x8x4x4xf32>
}

// CHECK-LABEL: func.func @conv_nchw
func.func @conv_nchw(%x: tensor<1x3x32x32xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<1x8x16x16xf32> {
  // CHECK: %[[P:.+]] = tensor.pad %{{.+}} low[0, 0, 1, 1] high[0, 0, 1, 1]
  // CHECK: } : tensor<1x3x32x32xf32> to tensor<1x3x34x34xf32>
  // CHECK: %[[C:.+]] = tensor.extract_slice %[[P]][0, 0, 0, 0] [1, 3, 33, 33] [1, 1, 1, 1]
  // CHECK: %[[F:.+]] = linalg.fill
  // CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[C]], %{{.+}} : tensor<1x3x33x33xf32>, tensor<8x3x3x3xf32>) outs(%[[F]] : tensor<1x8x16x16xf32>)
  %y = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x3x32x32xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x16x16xf32>
  return %y : tensor<1x8x16x16xf32>
}

// CHECK-LABEL: func.func @conv_nhwc_dynamic
func.func @conv_nhwc_dynamic(%x: tensor<?x?x?x3xf32>, %w: tensor<3x3x3x8xf32>) -> tensor<?x?x?x8xf32> {
  // CHECK-NOT: tensor.pad
  // CHECK: %[[N:.+]] = tensor.dim %{{.+}}, %{{.+}} : tensor<?x?x?x3xf32>
  // CHECK: %[[E:.+]] = tensor.empty(%[[N]], %{{.+}}, %{{.+}}) : tensor<?x?x?x8xf32>
  // CHECK: linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%{{.+}}, %{{.+}} : tensor<?x?x?x3xf32>, tensor<3x3x3x8xf32>) outs(%{{.+}} : tensor<?x?x?x8xf32>)
  %y = relay.nn.conv2d %x, %w {dilation = array<i64: 2, 2>, data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<?x?x?x3xf32>, tensor<3x3x3x8xf32>) -> tensor<?x?x?x8xf32>
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

// CHECK-LABEL: func.func @max_pool
func.func @max_pool(%x: tensor<1x8x32x32xf32>) -> tensor<1x8x16x16xf32> {
  // CHECK: %[[NINF:.+]] = arith.constant 0xFF800000 : f32
  // CHECK: %[[P:.+]] = tensor.pad %{{.+}} low[0, 0, 1, 1] high[0, 0, 1, 1]
  // CHECK:   tensor.yield %[[NINF]] : f32
  // CHECK: %[[C:.+]] = tensor.extract_slice %[[P]][0, 0, 0, 0] [1, 8, 33, 33] [1, 1, 1, 1]
  // CHECK: %[[F:.+]] = linalg.fill ins(%[[NINF]] : f32)
  // CHECK: %[[K:.+]] = tensor.empty() : tensor<3x3xf32>
  // CHECK: linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[C]], %[[K]] : tensor<1x8x33x33xf32>, tensor<3x3xf32>) outs(%[[F]] : tensor<1x8x16x16xf32>)
  %y = relay.nn.max_pool2d %x {pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1>} : (tensor<1x8x32x32xf32>) -> tensor<1x8x16x16xf32>
  return %y : tensor<1x8x16x16xf32>
}

// CHECK-LABEL: func.func @avg_pool_nhwc
func.func @avg_pool_nhwc(%x: tensor<1x8x8x4xf32>) -> tensor<1x4x4x4xf32> {
  // CHECK: %[[S:.+]] = linalg.pooling_nhwc_sum
  // CHECK: %[[FOUR:.+]] = arith.constant 4.000000e+00 : f32
  // CHECK: linalg.generic {{.*}} ins(%[[S]] :
  // CHECK:   arith.divf %{{.+}}, %[[FOUR]] : f32
  %y = relay.nn.avg_pool2d %x {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>, layout = "NHWC"} : (tensor<1x8x8x4xf32>) -> tensor<1x4x4x4xf32>
  return %y : tensor<1x4x4x4xf32>
}

// CHECK-LABEL: func.func @avg_pool_exclude_pad
func.func @avg_pool_exclude_pad(%x: tensor<1x2x7x7xf32>) -> tensor<1x2x4x4xf32> {
  // Without count_include_pad the divisor depends on the window position.
  // CHECK: %[[S:.+]] = linalg.pooling_nchw_sum
  // CHECK: linalg.generic {{.*}} ins(%[[S]] :
  // CHECK:   linalg.index 2 : index
  // CHECK:   linalg.index 3 : index
  // CHECK:   arith.sitofp
  // CHECK:   arith.divf
  %y = relay.nn.avg_pool2d %x {pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1>} : (tensor<1x2x7x7xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// CHECK-LABEL: func.func @global_avg_pool_dynamic
func.func @global_avg_pool_dynamic(%x: tensor<?x8x?x?xf32>) -> tensor<?x8x1x1xf32> {
  // CHECK: %[[R:.+]] = linalg.reduce ins(%{{.+}} : tensor<?x8x?x?xf32>) outs(%{{.+}} : tensor<?x8xf32>) dimensions = [2, 3]
  // CHECK: %[[H:.+]] = tensor.dim %{{.+}}, %{{.+}} : tensor<?x8x?x?xf32>
  // CHECK: %[[W:.+]] = tensor.dim %{{.+}}, %{{.+}} : tensor<?x8x?x?xf32>
  // CHECK: %[[HW:.+]] = arith.muli %[[H]], %[[W]] : index
  // CHECK: arith.index_castui %[[HW]] : index to i64
  // CHECK: %[[M:.+]] = linalg.generic {{.*}} ins(%[[R]] : tensor<?x8xf32>)
  // CHECK:   arith.divf
  // CHECK: tensor.expand_shape %[[M]] {{\[\[}}0], [1, 2, 3]] output_shape [%{{.+}}, 8, 1, 1] : tensor<?x8xf32> into tensor<?x8x1x1xf32>
  %y = relay.nn.global_avg_pool2d %x : (tensor<?x8x?x?xf32>) -> tensor<?x8x1x1xf32>
  return %y : tensor<?x8x1x1xf32>
}

// CHECK-LABEL: func.func @batch_flatten
func.func @batch_flatten(%x: tensor<?x8x2x2xf32>) -> tensor<?x32xf32> {
  // CHECK: tensor.collapse_shape %{{.+}} {{\[\[}}0], [1, 2, 3]] : tensor<?x8x2x2xf32> into tensor<?x32xf32>
  %y = relay.nn.batch_flatten %x : (tensor<?x8x2x2xf32>) -> tensor<?x32xf32>
  return %y : tensor<?x32xf32>
}

// CHECK-LABEL: func.func @softmax
func.func @softmax(%x: tensor<2x10xf32>) -> tensor<2x10xf32> {
  // CHECK: %[[E:.+]] = tensor.empty() : tensor<2x10xf32>
  // CHECK: linalg.softmax dimension(1) ins(%{{.+}} : tensor<2x10xf32>) outs(%[[E]] : tensor<2x10xf32>)
  %y = relay.nn.softmax %x : (tensor<2x10xf32>) -> tensor<2x10xf32>
  return %y : tensor<2x10xf32>
}

// CHECK-LABEL: func.func @batch_norm_constant
func.func @batch_norm_constant(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  // scale = gamma / sqrt(var + eps), shift = beta - mean * scale, folded.
  // CHECK-DAG: %[[SHIFT:.+]] = arith.constant dense<[0.000000e+00, -5.000000e-01]> : tensor<2xf32>
  // CHECK-DAG: %[[SCALE:.+]] = arith.constant dense<[5.000000e-01, 4.000000e+00]> : tensor<2xf32>
  // CHECK: linalg.generic {indexing_maps = [#{{.+}}, #[[CH:.+]], #[[CH]], #{{.+}}], {{.*}} ins(%{{.+}}, %[[SCALE]], %[[SHIFT]] :
  // CHECK:   %[[M:.+]] = arith.mulf
  // CHECK:   arith.addf %[[M]]
  %g = relay.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = relay.constant dense<[0.5, -0.5]> : tensor<2xf32>
  %m = relay.constant dense<[1.0, 0.0]> : tensor<2xf32>
  %v = relay.constant dense<[4.0, 0.25]> : tensor<2xf32>
  %t = relay.nn.batch_norm %x, %g, %b, %m, %v {epsilon = 0.0 : f64} : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>>
  %y = relay.tuple_get_item %t[0] : (tuple<tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// CHECK-LABEL: func.func @batch_norm_nhwc
// CHECK-SAME: (%[[X:.+]]: tensor<?x4x4x2xf32>, %[[G:.+]]: tensor<2xf32>, %[[B:.+]]: tensor<2xf32>, %[[M:.+]]: tensor<2xf32>, %[[V:.+]]: tensor<2xf32>)
func.func @batch_norm_nhwc(%x: tensor<?x4x4x2xf32>, %g: tensor<2xf32>, %b: tensor<2xf32>, %m: tensor<2xf32>, %v: tensor<2xf32>) -> (tensor<?x4x4x2xf32>, tensor<2xf32>) {
  // CHECK: %[[SC:.+]] = linalg.generic {{.*}} ins(%[[V]], %[[G]] : tensor<2xf32>, tensor<2xf32>)
  // CHECK:   math.sqrt
  // CHECK: %[[SH:.+]] = linalg.generic {{.*}} ins(%[[M]], %[[SC]], %[[B]] :
  // CHECK: %[[Y:.+]] = linalg.generic {indexing_maps = [#{{.+}}, #[[C3:.+]], #[[C3]], #{{.+}}], {{.*}} ins(%[[X]], %[[SC]], %[[SH]] : tensor<?x4x4x2xf32>, tensor<2xf32>, tensor<2xf32>)
  // CHECK: return %[[Y]], %[[M]] : tensor<?x4x4x2xf32>, tensor<2xf32>
  %t = relay.nn.batch_norm %x, %g, %b, %m, %v {axis = 3 : i64} : (tensor<?x4x4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tuple<tensor<?x4x4x2xf32>, tensor<2xf32>, tensor<2xf32>>
  %y = relay.tuple_get_item %t[0] : (tuple<tensor<?x4x4x2xf32>, tensor<2xf32>, tensor<2xf32>>) -> tensor<?x4x4x2xf32>
  %mm = relay.tuple_get_item %t[1] : (tuple<tensor<?x4x4x2xf32>, tensor<2xf32>, tensor<2xf32>>) -> tensor<2xf32>
  return %y, %mm : tensor<?x4x4x2xf32>, tensor<2xf32>
}

// A window op reads its input only up to the last window: a 3x3 stride-2
// convolution over a 2x2 map padded to 4x4 has one output pixel and reads
// 3x3 of the padded map, so the input is cropped to exactly that (IREE
// rejects a conv whose input extent disagrees with the one linalg infers
// from its output once unit dims are folded).
// (a `?` batch keeps this conv off the im2col path, see below)
// CHECK-LABEL: func.func @conv2d_crop_to_windows
// CHECK: %[[P:.+]] = tensor.pad %{{.+}} low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK: %[[C:.+]] = tensor.extract_slice %[[P]][0, 0, 0, 0] [%{{.+}}, 3, 3, 4] [1, 1, 1, 1] : tensor<?x4x4x4xf32> to tensor<?x3x3x4xf32>
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[C]], %{{.+}} : tensor<?x3x3x4xf32>, tensor<3x3x4x8xf32>)
func.func @conv2d_crop_to_windows(%x: tensor<?x2x2x4xf32>, %w: tensor<3x3x4x8xf32>) -> tensor<?x1x1x8xf32> {
  %y = relay.nn.conv2d %x, %w {strides = array<i64: 2, 2>, padding = array<i64: 1, 1>, data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<?x2x2x4xf32>, tensor<3x3x4x8xf32>) -> tensor<?x1x1x8xf32>
  return %y : tensor<?x1x1x8xf32>
}

// Static NHWC/HWIO float convolutions with at most 256 output pixels are
// lowered as im2col + linalg.matmul: one linalg.generic gathers the
// [N, OH, OW, KH, KW, C] patches (strides and dilation in its map), the
// weight collapses to [KH*KW*C, O] for free.
// CHECK-LABEL: func.func @conv2d_im2col
// CHECK-SAME: (%[[X:.+]]: tensor<1x9x9x4xf32>, %[[W:.+]]: tensor<3x3x4x8xf32>)
// CHECK: %[[E:.+]] = tensor.empty() : tensor<1x3x3x3x3x4xf32>
// CHECK: %[[G:.+]] = linalg.generic {indexing_maps = [#[[PATCH]], #{{.+}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%[[X]] : tensor<1x9x9x4xf32>) outs(%[[E]] : tensor<1x3x3x3x3x4xf32>)
// CHECK: %[[A:.+]] = tensor.collapse_shape %[[G]] {{\[}}[0, 1, 2], [3, 4, 5]] : tensor<1x3x3x3x3x4xf32> into tensor<9x36xf32>
// CHECK: %[[B:.+]] = tensor.collapse_shape %[[W]] {{\[}}[0, 1, 2], [3]] : tensor<3x3x4x8xf32> into tensor<36x8xf32>
// CHECK: %[[F:.+]] = linalg.fill
// CHECK: %[[M:.+]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<9x36xf32>, tensor<36x8xf32>) outs(%[[F]] : tensor<9x8xf32>)
// CHECK: tensor.expand_shape %[[M]] {{\[}}[0, 1, 2], [3]] output_shape [1, 3, 3, 8] : tensor<9x8xf32> into tensor<1x3x3x8xf32>
func.func @conv2d_im2col(%x: tensor<1x9x9x4xf32>, %w: tensor<3x3x4x8xf32>) -> tensor<1x3x3x8xf32> {
  %y = relay.nn.conv2d %x, %w {strides = array<i64: 2, 2>, dilation = array<i64: 2, 2>, data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<1x9x9x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x3x3x8xf32>
  return %y : tensor<1x3x3x8xf32>
}

// The same for pools: a 2x2 stride-2 max_pool2d over 5x5 reads 4x4.
// CHECK-LABEL: func.func @max_pool2d_crop_to_windows
// CHECK: %[[C:.+]] = tensor.extract_slice %{{.+}}[0, 0, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x2x5x5xf32> to tensor<1x2x4x4xf32>
// CHECK: linalg.pooling_nchw_max {{.*}} ins(%[[C]], %{{.+}} : tensor<1x2x4x4xf32>, tensor<2x2xf32>)
func.func @max_pool2d_crop_to_windows(%x: tensor<1x2x5x5xf32>) -> tensor<1x2x2x2xf32> {
  %y = relay.nn.max_pool2d %x {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x5x5xf32>) -> tensor<1x2x2x2xf32>
  return %y : tensor<1x2x2x2xf32>
}

// leaky_relu: x > 0 ? x : alpha * x, elementwise.
// CHECK-LABEL: func.func @leaky_relu
// CHECK-SAME: (%[[LR_X:[a-z0-9_]+]]: tensor<?x4xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[NN_ID2]], #[[NN_ID2]]], iterator_types = ["parallel", "parallel"]} ins(%[[LR_X]] : tensor<?x4xf32>) outs(%{{.+}} : tensor<?x4xf32>)
// CHECK: ^bb0(%[[LR_IN:[a-z0-9_]+]]: f32, %{{[a-z0-9_]+}}: f32):
// CHECK: %[[LR_ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[LR_POS:.+]] = arith.cmpf ogt, %[[LR_IN]], %[[LR_ZERO]] : f32
// CHECK: %[[LR_ALPHA:.+]] = arith.constant 2.500000e-01 : f32
// CHECK: %[[LR_NEG:.+]] = arith.mulf %[[LR_IN]], %[[LR_ALPHA]] : f32
// CHECK: %[[LR_R:.+]] = arith.select %[[LR_POS]], %[[LR_IN]], %[[LR_NEG]] : f32
// CHECK: linalg.yield %[[LR_R]] : f32
func.func @leaky_relu(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %y = relay.nn.leaky_relu %x {alpha = 0.25 : f64} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %y : tensor<?x4xf32>
}

// prelu: x > 0 ? x : alpha[c] * x, alpha indexed by the channel (axis 1)
// through the map, not materialised as a broadcast.
// CHECK-LABEL: func.func @prelu
// CHECK-SAME: (%[[PR_X:[a-z0-9_]+]]: tensor<?x4x3xf32>, %[[PR_A:[a-z0-9_]+]]: tensor<4xf32>)
// CHECK-NOT: linalg.broadcast
// CHECK: linalg.generic {indexing_maps = [#[[NN_ID3]], #[[NN_CH3]], #[[NN_ID3]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[PR_X]], %[[PR_A]] : tensor<?x4x3xf32>, tensor<4xf32>) outs(%{{.+}} : tensor<?x4x3xf32>)
// CHECK: ^bb0(%[[PR_IN:[a-z0-9_]+]]: f32, %[[PR_AL:[a-z0-9_]+]]: f32, %{{[a-z0-9_]+}}: f32):
// CHECK: %[[PR_ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[PR_POS:.+]] = arith.cmpf ogt, %[[PR_IN]], %[[PR_ZERO]] : f32
// CHECK: %[[PR_NEG:.+]] = arith.mulf %[[PR_IN]], %[[PR_AL]] : f32
// CHECK: %[[PR_R:.+]] = arith.select %[[PR_POS]], %[[PR_IN]], %[[PR_NEG]] : f32
// CHECK: linalg.yield %[[PR_R]] : f32
func.func @prelu(%x: tensor<?x4x3xf32>, %a: tensor<4xf32>) -> tensor<?x4x3xf32> {
  %y = relay.nn.prelu %x, %a : (tensor<?x4x3xf32>, tensor<4xf32>) -> tensor<?x4x3xf32>
  return %y : tensor<?x4x3xf32>
}
