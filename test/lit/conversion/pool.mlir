// RUN: relay-mlir-opt %s -convert-relay-to-linalg | FileCheck %s
// Lowering of every pooling operator: named linalg pooling ops where they
// exist, a linalg.generic otherwise.

// CHECK-DAG: #[[PIN:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2 * 2 + d5, d3 * 2 + d6, d4 * 2 + d7)>
// CHECK-DAG: #[[NL_WIN3:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d5, d6, d7)>
// CHECK-DAG: #[[NL_OUT5:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4)>

// CHECK-LABEL: func.func @max_pool
func.func @max_pool(%x: tensor<1x8x32x32xf32>) -> tensor<1x8x16x16xf32> {
  // CHECK: %[[NINF:.+]] = arith.constant 0xFF800000 : f32
  // (the last padded row and column would be read by no window: not added)
  // CHECK: %[[C:.+]] = tensor.pad %{{.+}} low[0, 0, 1, 1] high[0, 0, 0, 0]
  // CHECK:   tensor.yield %[[NINF]] : f32
  // CHECK-NOT: tensor.extract_slice
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

// The same for pools: a 2x2 stride-2 max_pool2d over 5x5 reads 4x4.
// CHECK-LABEL: func.func @max_pool2d_crop_to_windows
// CHECK: %[[C:.+]] = tensor.extract_slice %{{.+}}[0, 0, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : tensor<1x2x5x5xf32> to tensor<1x2x4x4xf32>
// CHECK: linalg.pooling_nchw_max {{.*}} ins(%[[C]], %{{.+}} : tensor<1x2x4x4xf32>, tensor<2x2xf32>)
func.func @max_pool2d_crop_to_windows(%x: tensor<1x2x5x5xf32>) -> tensor<1x2x2x2xf32> {
  %y = relay.nn.max_pool2d %x {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x5x5xf32>) -> tensor<1x2x2x2xf32>
  return %y : tensor<1x2x2x2xf32>
}

// CHECK-LABEL: func.func @max_pool1d
// CHECK: %[[NINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK: tensor.pad %{{.*}} low[0, 0, 1] high[0, 0, 0]
// CHECK: linalg.pooling_ncw_max {dilations = dense<1> : tensor<1xi64>, strides = dense<2> : tensor<1xi64>}
func.func @max_pool1d(%x: tensor<1x3x10xf32>) -> tensor<1x3x5xf32> {
  %y = relay.nn.max_pool1d %x {pool_size = array<i64: 3>, strides = array<i64: 2>, padding = array<i64: 1>} : (tensor<1x3x10xf32>) -> tensor<1x3x5xf32>
  return %y : tensor<1x3x5xf32>
}

// CHECK-LABEL: func.func @avg_pool3d
// CHECK: tensor.pad %{{.*}} low[0, 0, 1, 1, 1] high[0, 0, 0, 1, 1]
// CHECK: linalg.generic {indexing_maps = [#[[PIN]], #[[PWIN:.+]], #[[POUT:.+]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK: arith.addf
// CHECK: linalg.generic
// CHECK: linalg.index 2
// CHECK: arith.divf
func.func @avg_pool3d(%x: tensor<1x2x4x5x5xf32>) -> tensor<1x2x2x3x3xf32> {
  %y = relay.nn.avg_pool3d %x {pool_size = array<i64: 3, 3, 3>, strides = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>} : (tensor<1x2x4x5x5xf32>) -> tensor<1x2x2x3x3xf32>
  return %y : tensor<1x2x2x3x3xf32>
}

// CHECK-LABEL: func.func @global_max
// CHECK: linalg.reduce ins(%{{.*}} : tensor<?x3x5x4xf32>) outs(%{{.*}} : tensor<?x3xf32>) dimensions = [2, 3]
// CHECK: arith.maximumf
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2, 3]]
func.func @global_max(%x: tensor<?x3x5x4xf32>) -> tensor<?x3x1x1xf32> {
  %y = relay.nn.global_max_pool2d %x : (tensor<?x3x5x4xf32>) -> tensor<?x3x1x1xf32>
  return %y : tensor<?x3x1x1xf32>
}

// CHECK-LABEL: func.func @adaptive
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%{{.*}} : tensor<3x3xf32>) outs(%{{.*}} : tensor<2x3x3x5xf32>)
// CHECK: tensor.extract %{{.*}} : tensor<2x3x7x8xf32>
// CHECK: arith.select
// CHECK: arith.divf
func.func @adaptive(%x: tensor<2x3x7x8xf32>) -> tensor<2x3x3x5xf32> {
  %y = relay.nn.adaptive_avg_pool2d %x {output_size = array<i64: 3, 5>} : (tensor<2x3x7x8xf32>) -> tensor<2x3x3x5xf32>
  return %y : tensor<2x3x3x5xf32>
}

// Shrinking 2x2 -> 1x1 (VGG's head): the one cell's window is the whole
// 2x2 map, a static 2x2 reduction.
// CHECK-LABEL: func.func @adaptive_2x2_to_1x1
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%{{.*}} : tensor<2x2xf32>) outs(%{{.*}} : tensor<1x4x1x1xf32>)
// CHECK: tensor.extract %{{.*}} : tensor<1x4x2x2xf32>
// CHECK: arith.maximumf
func.func @adaptive_2x2_to_1x1(%x: tensor<1x4x2x2xf32>) -> tensor<1x4x1x1xf32> {
  %y = relay.nn.adaptive_max_pool2d %x {output_size = array<i64: 1>} : (tensor<1x4x2x2xf32>) -> tensor<1x4x1x1xf32>
  return %y : tensor<1x4x1x1xf32>
}

// adaptive_*_pool1d: the 2-D pool on a unit W (NCW -> NCHW [N, C, W, 1]).
// CHECK-LABEL: func.func @adaptive1d
// CHECK: tensor.expand_shape %{{.*}} : tensor<2x3x7xf32> into tensor<2x3x7x1xf32>
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<2x3x3x1xf32>)
// CHECK: arith.divf
// CHECK: tensor.collapse_shape %{{.*}} : tensor<2x3x3x1xf32> into tensor<2x3x3xf32>
func.func @adaptive1d(%x: tensor<2x3x7xf32>) -> tensor<2x3x3xf32> {
  %y = relay.nn.adaptive_avg_pool1d %x {output_size = array<i64: 3>} : (tensor<2x3x7xf32>) -> tensor<2x3x3xf32>
  return %y : tensor<2x3x3xf32>
}

// adaptive_*_pool3d: [N, C*D, H, W] pooled to [h, w], [N, C, D, h*w] to
// [d, h*w], then [N, C, d, h, w].
// CHECK-LABEL: func.func @adaptive3d
// CHECK: tensor.collapse_shape %{{.*}} : tensor<2x3x5x6x7xf32> into tensor<2x15x6x7xf32>
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<2x15x4x3xf32>)
// CHECK: tensor.expand_shape {{.*}} into tensor<2x3x5x12xf32>
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<2x3x2x12xf32>)
// CHECK: tensor.expand_shape %{{.*}} : tensor<2x3x2x12xf32> into tensor<2x3x2x4x3xf32>
func.func @adaptive3d(%x: tensor<2x3x5x6x7xf32>) -> tensor<2x3x2x4x3xf32> {
  %y = relay.nn.adaptive_max_pool3d %x {output_size = array<i64: 2, 4, 3>} : (tensor<2x3x5x6x7xf32>) -> tensor<2x3x2x4x3xf32>
  return %y : tensor<2x3x2x4x3xf32>
}

// NWC: [N, W, 1, C] in NHWC; NDHWC: the NCDHW rewrite between transposes.
// CHECK-LABEL: func.func @adaptive1d_nwc_3d_ndhwc
// CHECK: tensor.expand_shape %{{.*}} : tensor<2x7x3xf32> into tensor<2x7x1x3xf32>
// CHECK: arith.maximumf
// CHECK: linalg.transpose
// CHECK: arith.divf
// CHECK: linalg.transpose
func.func @adaptive1d_nwc_3d_ndhwc(%x: tensor<2x7x3xf32>, %z: tensor<1x5x6x7x2xf32>) -> (tensor<2x1x3xf32>, tensor<1x1x1x1x2xf32>) {
  %y = relay.nn.adaptive_max_pool1d %x {output_size = array<i64: 1>, layout = "NWC"} : (tensor<2x7x3xf32>) -> tensor<2x1x3xf32>
  %g = relay.nn.adaptive_avg_pool3d %z {output_size = array<i64: 1, 1, 1>, layout = "NDHWC"} : (tensor<1x5x6x7x2xf32>) -> tensor<1x1x1x1x2xf32>
  return %y, %g : tensor<2x1x3xf32>, tensor<1x1x1x1x2xf32>
}

// avg_pool1d without padding: a sum pool over the 8 elements its windows
// read, then a division by the window size.
// CHECK-LABEL: func.func @avg_pool1d
// CHECK-SAME: (%[[AP_X:[a-z0-9_]+]]: tensor<?x2x9xf32>)
// CHECK: %[[AP_ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[AP_IN:.+]] = tensor.extract_slice %[[AP_X]][0, 0, 0] [%{{.+}}, 2, 8] [1, 1, 1] : tensor<?x2x9xf32> to tensor<?x2x8xf32>
// CHECK: %[[AP_INIT:.+]] = linalg.fill ins(%[[AP_ZERO]] : f32) outs(%{{.+}} : tensor<?x2x4xf32>)
// CHECK: %[[AP_SUM:.+]] = linalg.pooling_ncw_sum {dilations = dense<1> : tensor<1xi64>, strides = dense<2> : tensor<1xi64>} ins(%[[AP_IN]], %{{.+}} : tensor<?x2x8xf32>, tensor<2xf32>) outs(%[[AP_INIT]] : tensor<?x2x4xf32>)
// CHECK: %[[AP_N:.+]] = arith.constant 2.000000e+00 : f32
// CHECK: linalg.generic {{.*}} ins(%[[AP_SUM]] : tensor<?x2x4xf32>)
// CHECK: arith.divf %{{.+}}, %[[AP_N]] : f32
func.func @avg_pool1d(%x: tensor<?x2x9xf32>) -> tensor<?x2x4xf32> {
  %y = relay.nn.avg_pool1d %x {pool_size = array<i64: 2>, strides = array<i64: 2>} : (tensor<?x2x9xf32>) -> tensor<?x2x4xf32>
  return %y : tensor<?x2x4xf32>
}

// max_pool3d: a generic with the window in the input map (stride 2), three
// reduction dims, maximumf from -inf.
// CHECK-LABEL: func.func @max_pool3d
// CHECK-SAME: (%[[MP_X:[a-z0-9_]+]]: tensor<?x2x4x4x4xf32>)
// CHECK: %[[MP_NINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK: %[[MP_INIT:.+]] = linalg.fill ins(%[[MP_NINF]] : f32) outs(%{{.+}} : tensor<?x2x2x2x2xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[PIN]], #[[NL_WIN3]], #[[NL_OUT5]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%[[MP_X]], %{{.+}} : tensor<?x2x4x4x4xf32>, tensor<2x2x2xf32>) outs(%[[MP_INIT]] : tensor<?x2x2x2x2xf32>)
// CHECK: ^bb0(%[[MP_IN:[a-z0-9_]+]]: f32, %{{[a-z0-9_]+}}: f32, %[[MP_ACC:[a-z0-9_]+]]: f32):
// CHECK: %[[MP_M:.+]] = arith.maximumf %[[MP_IN]], %[[MP_ACC]] : f32
// CHECK: linalg.yield %[[MP_M]] : f32
func.func @max_pool3d(%x: tensor<?x2x4x4x4xf32>) -> tensor<?x2x2x2x2xf32> {
  %y = relay.nn.max_pool3d %x {pool_size = array<i64: 2, 2, 2>, strides = array<i64: 2, 2, 2>} : (tensor<?x2x4x4x4xf32>) -> tensor<?x2x2x2x2xf32>
  return %y : tensor<?x2x2x2x2xf32>
}

// Unsigned max in NCHW has no named linalg op: the PoolGeneric fallback (a
// linalg.generic with the window dims as reductions).
// CHECK-LABEL: func.func @max_pool2d_unsigned_nchw
// CHECK-NOT: linalg.pooling
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%{{.+}}, %{{.+}} : tensor<1x2x4x4xi8>, tensor<2x2xi8>)
// CHECK: arith.maxui
func.func @max_pool2d_unsigned_nchw(%x: tensor<1x2x4x4xui8>) -> tensor<1x2x2x2xui8> {
  %y = relay.nn.max_pool2d %x {pool_size = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x4x4xui8>) -> tensor<1x2x2x2xui8>
  return %y : tensor<1x2x2x2xui8>
}

// With ceil_mode the last window overhangs the explicit padding; with
// count_include_pad it counts only up to that padding (topi), so the
// divisor depends on the position instead of being the constant 9.
// CHECK-LABEL: func.func @avg_pool2d_ceil_count_pad
// CHECK: tensor.pad %{{.+}} low[0, 0, 1, 1] high[0, 0, 2, 2]
// CHECK: %[[S:.+]] = linalg.pooling_nchw_sum
// CHECK-NOT: arith.constant 9.000000e+00
// CHECK: linalg.generic {{.*}} ins(%[[S]] :
// CHECK:   linalg.index 2 : index
// CHECK:   linalg.index 3 : index
// CHECK:   arith.divf
func.func @avg_pool2d_ceil_count_pad(%x: tensor<1x2x6x6xf32>) -> tensor<1x2x4x4xf32> {
  %y = relay.nn.avg_pool2d %x {pool_size = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1>, ceil_mode = true, count_include_pad = true} : (tensor<1x2x6x6xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}
