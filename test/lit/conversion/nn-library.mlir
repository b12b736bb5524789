// RUN: relay-mlir-opt %s -convert-relay-to-linalg | FileCheck %s
// Lowering of the operator-library nn.* ops: named linalg ops where they
// exist, transposes in indexing maps, no materialised broadcasts.

// CHECK-DAG: #[[MK:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[NK:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[BKM:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d1)>
// CHECK-DAG: #[[KN:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d3, d2)>
// CHECK-DAG: #[[BMK:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG: #[[GI:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d4, d3 + d5)>
// CHECK-DAG: #[[PIN:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2 * 2 + d5, d3 * 2 + d6, d4 * 2 + d7)>
// CHECK-DAG: #[[NL_WIN3:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d5, d6, d7)>
// CHECK-DAG: #[[NL_OUT5:map[0-9]*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4)>
// CHECK-DAG: #[[NL_ID4:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[NL_NC4:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
// CHECK-DAG: #[[NL_C4:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-DAG: #[[NL_ID2:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[NL_ROW:map[0-9]*]] = affine_map<(d0, d1) -> (d0)>


// CHECK-LABEL: func.func @matmul_tb
// CHECK: linalg.matmul indexing_maps = [#[[MK]], #[[NK]], #[[MN:.+]]] ins(%{{.*}}, %{{.*}} : tensor<?x8xf32>, tensor<5x8xf32>) outs(%{{.*}} : tensor<?x5xf32>)
func.func @matmul_tb(%a: tensor<?x8xf32>, %b: tensor<5x8xf32>) -> tensor<?x5xf32> {
  %y = relay.nn.matmul %a, %b {transpose_b = true} : (tensor<?x8xf32>, tensor<5x8xf32>) -> tensor<?x5xf32>
  return %y : tensor<?x5xf32>
}

// CHECK-LABEL: func.func @matmul_ta3
// CHECK-NOT: linalg.transpose
// CHECK: linalg.batch_matmul indexing_maps = [#[[BKM]], #[[KN]], #[[BMN:.+]]] ins(%{{.*}}, %{{.*}} : tensor<2x8x3xf32>, tensor<8x5xf32>)
func.func @matmul_ta3(%a: tensor<2x8x3xf32>, %b: tensor<8x5xf32>) -> tensor<2x3x5xf32> {
  %y = relay.nn.matmul %a, %b {transpose_a = true} : (tensor<2x8x3xf32>, tensor<8x5xf32>) -> tensor<2x3x5xf32>
  return %y : tensor<2x3x5xf32>
}

// CHECK-LABEL: func.func @batch_matmul_bcast
// CHECK: %[[Y:.+]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2]] : tensor<1x4x5xf32> into tensor<4x5xf32>
// CHECK: linalg.batch_matmul indexing_maps = [#[[BMK]], #[[KN]], #[[BMN]]] ins(%{{.*}}, %[[Y]] : tensor<2x3x4xf32>, tensor<4x5xf32>)
func.func @batch_matmul_bcast(%x: tensor<2x3x4xf32>, %y: tensor<1x4x5xf32>) -> tensor<2x3x5xf32> {
  %z = relay.nn.batch_matmul %x, %y {transpose_b = false} : (tensor<2x3x4xf32>, tensor<1x4x5xf32>) -> tensor<2x3x5xf32>
  return %z : tensor<2x3x5xf32>
}

// CHECK-LABEL: func.func @conv1d
// CHECK: tensor.pad %{{.*}} low[0, 0, 1] high[0, 0, 1]
// (the last padded element is read by no window: the input is cropped to 17)
// CHECK: %[[C1D:.+]] = tensor.extract_slice %{{.+}}[0, 0, 0] [%{{.+}}, 3, 17] [1, 1, 1] : tensor<?x3x18xf32> to tensor<?x3x17xf32>
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

// CHECK-LABEL: func.func @max_pool1d
// CHECK: %[[NINF:.+]] = arith.constant 0xFF800000 : f32
// CHECK: tensor.pad %{{.*}} low[0, 0, 1] high[0, 0, 1]
// CHECK: linalg.pooling_ncw_max {dilations = dense<1> : tensor<1xi64>, strides = dense<2> : tensor<1xi64>}
func.func @max_pool1d(%x: tensor<1x3x10xf32>) -> tensor<1x3x5xf32> {
  %y = relay.nn.max_pool1d %x {pool_size = array<i64: 3>, strides = array<i64: 2>, padding = array<i64: 1>} : (tensor<1x3x10xf32>) -> tensor<1x3x5xf32>
  return %y : tensor<1x3x5xf32>
}

// CHECK-LABEL: func.func @avg_pool3d
// CHECK: tensor.pad %{{.*}} low[0, 0, 1, 1, 1] high[0, 0, 1, 1, 1]
// CHECK: linalg.generic {indexing_maps = [#[[PIN]], #[[PWIN:.+]], #[[POUT:.+]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK: arith.addf
// CHECK: linalg.generic
// CHECK: linalg.index 2
// CHECK: arith.divf
func.func @avg_pool3d(%x: tensor<1x2x4x5x5xf32>) -> tensor<1x2x2x3x3xf32> {
  %y = relay.nn.avg_pool3d %x {pool_size = array<i64: 3, 3, 3>, strides = array<i64: 2, 2, 2>, padding = array<i64: 1, 1, 1>} : (tensor<1x2x4x5x5xf32>) -> tensor<1x2x2x3x3xf32>
  return %y : tensor<1x2x2x3x3xf32>
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

// CHECK-LABEL: func.func @layer_norm
// CHECK: linalg.reduce ins(%{{.*}} : tensor<?x8xf32>) outs(%{{.*}} : tensor<?xf32>) dimensions = [1]
// CHECK: linalg.reduce
// CHECK: math.rsqrt
// CHECK-NOT: linalg.broadcast
func.func @layer_norm(%x: tensor<?x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<?x8xf32> {
  %y = relay.nn.layer_norm %x, %g, %b : (tensor<?x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
  return %y : tensor<?x8xf32>
}

// CHECK-LABEL: func.func @group_norm
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2], [3]] output_shape [2, 3, 2, 3] : tensor<2x6x3xf32> into tensor<2x3x2x3xf32>
// CHECK: linalg.reduce ins(%{{.*}} : tensor<2x3x2x3xf32>) outs(%{{.*}} : tensor<2x3xf32>) dimensions = [2, 3]
// CHECK: tensor.collapse_shape %{{.*}} : tensor<2x3x2x3xf32> into tensor<2x6x3xf32>
func.func @group_norm(%x: tensor<2x6x3xf32>, %g: tensor<6xf32>, %b: tensor<6xf32>) -> tensor<2x6x3xf32> {
  %y = relay.nn.group_norm %x, %g, %b {num_groups = 3 : i64} : (tensor<2x6x3xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<2x6x3xf32>
  return %y : tensor<2x6x3xf32>
}

// CHECK-LABEL: func.func @lrn
// CHECK: tensor.pad %{{.*}} low[0, 1] high[0, 1]
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: math.powf
func.func @lrn(%x: tensor<2x7xf32>) -> tensor<2x7xf32> {
  %y = relay.nn.lrn %x {size = 3 : i64} : (tensor<2x7xf32>) -> tensor<2x7xf32>
  return %y : tensor<2x7xf32>
}

// CHECK-LABEL: func.func @log_softmax
// CHECK: linalg.reduce {{.*}} dimensions = [1]
// CHECK: arith.maximumf
// CHECK: math.exp
// CHECK: math.log
func.func @log_softmax(%x: tensor<3x7xf32>) -> tensor<3x7xf32> {
  %y = relay.nn.log_softmax %x : (tensor<3x7xf32>) -> tensor<3x7xf32>
  return %y : tensor<3x7xf32>
}

// CHECK-LABEL: func.func @gelu
// CHECK: math.erf
func.func @gelu(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = relay.nn.gelu %x : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// CHECK-LABEL: func.func @dropout
// CHECK-SAME: (%[[X:.+]]: tensor<4xf32>)
// CHECK: return %[[X]] : tensor<4xf32>
func.func @dropout(%x: tensor<4xf32>) -> tensor<4xf32> {
  %t = relay.nn.dropout %x : (tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<4xf32>>
  %y = relay.tuple_get_item %t[0] : (tuple<tensor<4xf32>, tensor<4xf32>>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// CHECK-LABEL: func.func @pad_reflect
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<?x9xf32>)
// CHECK: linalg.index 0
// CHECK: arith.maxsi
// CHECK: tensor.extract %{{.*}}[%{{.*}}, %{{.*}}] : tensor<?x4xf32>
func.func @pad_reflect(%x: tensor<?x4xf32>, %v: tensor<f32>) -> tensor<?x9xf32> {
  %y = relay.nn.pad %x, %v {pad_width = array<i64: 1, 1, 3, 2>, pad_mode = "reflect"} : (tensor<?x4xf32>, tensor<f32>) -> tensor<?x9xf32>
  return %y : tensor<?x9xf32>
}

// CHECK-LABEL: func.func @pad_constant
// CHECK: %[[V:.+]] = tensor.extract %{{.*}}[] : tensor<f32>
// CHECK: tensor.pad %{{.*}} low[1, 2] high[0, 1]
// CHECK: tensor.yield %[[V]] : f32
func.func @pad_constant(%x: tensor<2x3xf32>, %v: tensor<f32>) -> tensor<3x6xf32> {
  %y = relay.nn.pad %x, %v {pad_width = array<i64: 1, 0, 2, 1>} : (tensor<2x3xf32>, tensor<f32>) -> tensor<3x6xf32>
  return %y : tensor<3x6xf32>
}

// CHECK-LABEL: func.func @upsampling
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x2x6x8xf32>)
// CHECK: math.floor
// CHECK: tensor.extract %{{.*}} : tensor<1x2x3x4xf32>
func.func @upsampling(%x: tensor<1x2x3x4xf32>) -> tensor<1x2x6x8xf32> {
  %y = relay.nn.upsampling %x {scale_h = 2.0 : f64, scale_w = 2.0 : f64} : (tensor<1x2x3x4xf32>) -> tensor<1x2x6x8xf32>
  return %y : tensor<1x2x6x8xf32>
}

// CHECK-LABEL: func.func @depth_to_space
// CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2, 3], [4], [5]] output_shape [1, 2, 2, 2, 2, 3]
// CHECK: linalg.transpose {{.*}} permutation = [0, 3, 4, 1, 5, 2]
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0], [1], [2, 3], [4, 5]] : tensor<1x2x2x2x3x2xf32> into tensor<1x2x4x6xf32>
func.func @depth_to_space(%x: tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32> {
  %y = relay.nn.depth_to_space %x {block_size = 2 : i64} : (tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32>
  return %y : tensor<1x2x4x6xf32>
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

// instance_norm over NCHW: mean and (biased) variance per (n, c) over the
// spatial dims, then (x - mean) * rsqrt(var + eps) * gamma[c] + beta[c].
// CHECK-LABEL: func.func @instance_norm
// CHECK-SAME: (%[[IN_X:[a-z0-9_]+]]: tensor<?x4x3x3xf32>, %[[IN_G:[a-z0-9_]+]]: tensor<4xf32>, %[[IN_B:[a-z0-9_]+]]: tensor<4xf32>)
// CHECK: %[[IN_C9:.+]] = arith.constant 9 : index
// CHECK: %[[IN_CNT:.+]] = arith.sitofp %{{.+}} : i64 to f32
// CHECK: %[[IN_SUM:.+]] = linalg.reduce ins(%[[IN_X]] : tensor<?x4x3x3xf32>) outs(%{{.+}} : tensor<?x4xf32>) dimensions = [2, 3]
// CHECK: arith.addf
// CHECK: %[[IN_MEAN:.+]] = linalg.generic {{.*}} ins(%[[IN_SUM]] : tensor<?x4xf32>)
// CHECK: arith.divf %{{.+}}, %[[IN_CNT]] : f32
// CHECK: %[[IN_SQ:.+]] = linalg.generic {indexing_maps = [#[[NL_ID4]], #[[NL_NC4]], #[[NL_ID4]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[IN_X]], %[[IN_MEAN]] : tensor<?x4x3x3xf32>, tensor<?x4xf32>)
// CHECK: %[[IN_D:.+]] = arith.subf
// CHECK: arith.mulf %[[IN_D]], %[[IN_D]] : f32
// CHECK: %[[IN_VSUM:.+]] = linalg.reduce ins(%[[IN_SQ]] : tensor<?x4x3x3xf32>) outs(%{{.+}} : tensor<?x4xf32>) dimensions = [2, 3]
// CHECK: %[[IN_VAR:.+]] = linalg.generic {{.*}} ins(%[[IN_VSUM]] : tensor<?x4xf32>)
// CHECK: arith.divf %{{.+}}, %[[IN_CNT]] : f32
// CHECK: linalg.generic {indexing_maps = [#[[NL_ID4]], #[[NL_NC4]], #[[NL_NC4]], #[[NL_C4]], #[[NL_C4]], #[[NL_ID4]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%[[IN_X]], %[[IN_MEAN]], %[[IN_VAR]], %[[IN_G]], %[[IN_B]] : tensor<?x4x3x3xf32>, tensor<?x4xf32>, tensor<?x4xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK: ^bb0(%[[IN_XI:[a-z0-9_]+]]: f32, %[[IN_MI:[a-z0-9_]+]]: f32, %[[IN_VI:[a-z0-9_]+]]: f32, %[[IN_GI:[a-z0-9_]+]]: f32, %[[IN_BI:[a-z0-9_]+]]: f32, %{{[a-z0-9_]+}}: f32):
// CHECK: %[[IN_EPS:.+]] = arith.constant 9.99999974E-6 : f32
// CHECK: %[[IN_VE:.+]] = arith.addf %[[IN_VI]], %[[IN_EPS]] : f32
// CHECK: %[[IN_RS:.+]] = math.rsqrt %[[IN_VE]] : f32
// CHECK: %[[IN_XM:.+]] = arith.subf %[[IN_XI]], %[[IN_MI]] : f32
// CHECK: %[[IN_N:.+]] = arith.mulf %[[IN_XM]], %[[IN_RS]] : f32
// CHECK: %[[IN_S:.+]] = arith.mulf %[[IN_N]], %[[IN_GI]] : f32
// CHECK: %[[IN_R:.+]] = arith.addf %[[IN_S]], %[[IN_BI]] : f32
// CHECK: linalg.yield %[[IN_R]] : f32
func.func @instance_norm(%x: tensor<?x4x3x3xf32>, %g: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<?x4x3x3xf32> {
  %y = relay.nn.instance_norm %x, %g, %b : (tensor<?x4x3x3xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<?x4x3x3xf32>
  return %y : tensor<?x4x3x3xf32>
}

// l2_normalize over axis 1: x * rsqrt(max(sum(x^2), eps)).
// CHECK-LABEL: func.func @l2_normalize
// CHECK-SAME: (%[[L2_X:[a-z0-9_]+]]: tensor<?x8xf32>)
// CHECK: %[[L2_SQ:.+]] = linalg.generic {indexing_maps = [#[[NL_ID2]], #[[NL_ID2]]], iterator_types = ["parallel", "parallel"]} ins(%[[L2_X]] : tensor<?x8xf32>)
// CHECK: ^bb0(%[[L2_A:[a-z0-9_]+]]: f32, %{{[a-z0-9_]+}}: f32):
// CHECK: arith.mulf %[[L2_A]], %[[L2_A]] : f32
// CHECK: %[[L2_SUM:.+]] = linalg.reduce ins(%[[L2_SQ]] : tensor<?x8xf32>) outs(%{{.+}} : tensor<?xf32>) dimensions = [1]
// CHECK: arith.addf
// CHECK: linalg.generic {indexing_maps = [#[[NL_ID2]], #[[NL_ROW]], #[[NL_ID2]]], iterator_types = ["parallel", "parallel"]} ins(%[[L2_X]], %[[L2_SUM]] : tensor<?x8xf32>, tensor<?xf32>)
// CHECK: ^bb0(%[[L2_IN:[a-z0-9_]+]]: f32, %[[L2_S:[a-z0-9_]+]]: f32, %{{[a-z0-9_]+}}: f32):
// CHECK: %[[L2_EPS:.+]] = arith.constant 1.000000e-10 : f32
// CHECK: %[[L2_M:.+]] = arith.maximumf %[[L2_S]], %[[L2_EPS]] : f32
// CHECK: %[[L2_RS:.+]] = math.rsqrt %[[L2_M]] : f32
// CHECK: %[[L2_Y:.+]] = arith.mulf %[[L2_IN]], %[[L2_RS]] : f32
// CHECK: linalg.yield %[[L2_Y]] : f32
func.func @l2_normalize(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %y = relay.nn.l2_normalize %x {eps = 1.0e-10 : f64, axis = array<i64: 1>} : (tensor<?x8xf32>) -> tensor<?x8xf32>
  return %y : tensor<?x8xf32>
}

// space_to_depth (NCHW, TVM order): [N, C, H/b, b, W/b, b] transposed to
// [N, b, b, C, H/b, W/b], so output channel = (bh * b + bw) * C + c.
// CHECK-LABEL: func.func @space_to_depth
// CHECK: %[[SD_E:.+]] = tensor.expand_shape %{{.*}} {{\[\[}}0], [1], [2, 3], [4, 5]] output_shape [%{{.+}}, 2, 2, 2, 3, 2] : tensor<?x2x4x6xf32> into tensor<?x2x2x2x3x2xf32>
// CHECK: %[[SD_T:.+]] = linalg.transpose ins(%[[SD_E]] : tensor<?x2x2x2x3x2xf32>) outs(%{{.+}} : tensor<?x2x2x2x2x3xf32>) permutation = [0, 3, 5, 1, 2, 4]
// CHECK: tensor.collapse_shape %[[SD_T]] {{\[\[}}0], [1, 2, 3], [4], [5]] : tensor<?x2x2x2x2x3xf32> into tensor<?x8x2x3xf32>
func.func @space_to_depth(%x: tensor<?x2x4x6xf32>) -> tensor<?x8x2x3xf32> {
  %y = relay.nn.space_to_depth %x {block_size = 2 : i64} : (tensor<?x2x4x6xf32>) -> tensor<?x8x2x3xf32>
  return %y : tensor<?x8x2x3xf32>
}
