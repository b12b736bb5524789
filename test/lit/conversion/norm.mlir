// RUN: relay-mlir-opt %s -convert-relay-to-linalg | FileCheck %s
// Lowering of the normalisations and softmax.

// CHECK-DAG: #[[NL_ID4:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[NL_NC4:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
// CHECK-DAG: #[[NL_C4:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-DAG: #[[NL_ID2:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[NL_ROW:map[0-9]*]] = affine_map<(d0, d1) -> (d0)>

// max, exp(x - max), its sum, a division: reductions and maps, not
// linalg.softmax (a dispatch of its own in IREE 3.13, nothing fused into it;
// and 2.5x slower with a dynamic reduction).
// CHECK-LABEL: func.func @softmax
// CHECK-NOT: linalg.softmax
// CHECK: %[[MAX:.+]] = linalg.reduce ins(%{{.+}} : tensor<2x10xf32>) outs(%{{.+}} : tensor<2xf32>) dimensions = [1]
// CHECK: arith.maximumf
// CHECK: %[[EXP:.+]] = linalg.generic {{.*}} ins(%{{.+}}, %[[MAX]] : tensor<2x10xf32>, tensor<2xf32>)
// CHECK: math.exp
// CHECK: %[[SUM:.+]] = linalg.reduce ins(%[[EXP]] : tensor<2x10xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[EXP]], %[[SUM]] : tensor<2x10xf32>, tensor<2xf32>)
// CHECK: arith.divf
func.func @softmax(%x: tensor<2x10xf32>) -> tensor<2x10xf32> {
  %y = relay.nn.softmax %x : (tensor<2x10xf32>) -> tensor<2x10xf32>
  return %y : tensor<2x10xf32>
}

// The same along a run-time axis.
// CHECK-LABEL: func.func @softmax_dynamic_axis
// CHECK-NOT: linalg.softmax
// CHECK: %[[MAX:.+]] = linalg.reduce ins(%{{.+}} : tensor<2x?xf32>) outs(%{{.+}} : tensor<2xf32>) dimensions = [1]
// CHECK: arith.maximumf
// CHECK: %[[EXP:.+]] = linalg.generic {{.*}} ins(%{{.+}}, %[[MAX]] : tensor<2x?xf32>, tensor<2xf32>)
// CHECK: math.exp
// CHECK: %[[SUM:.+]] = linalg.reduce ins(%[[EXP]] : tensor<2x?xf32>)
// CHECK: linalg.generic {{.*}} ins(%[[EXP]], %[[SUM]] : tensor<2x?xf32>, tensor<2xf32>)
// CHECK: arith.divf
func.func @softmax_dynamic_axis(%x: tensor<2x?xf32>) -> tensor<2x?xf32> {
  %y = relay.nn.softmax %x : (tensor<2x?xf32>) -> tensor<2x?xf32>
  return %y : tensor<2x?xf32>
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
