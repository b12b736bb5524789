// RUN: relay-mlir-opt %s -convert-relay-to-linalg | FileCheck %s
// Lowering of nn.* ops outside convolutions, pools and normalisations:
// named linalg ops where they exist, transposes in indexing maps, no
// materialised broadcasts.

// CHECK-DAG: #[[MA:.+]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[MB:.+]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[MC:.+]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[NN_ID2:map[0-9]*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[NN_ID3:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[NN_CH3:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-DAG: #[[BKM:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d1)>
// CHECK-DAG: #[[KN:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d3, d2)>
// CHECK-DAG: #[[BMK:map[0-9]*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>

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

// A vector: linalg.matvec of the weight, no unit dim (IREE 3.13 rejects the
// slice + expand_shape it would fold otherwise).
// CHECK-LABEL: func.func @dense_vector
// CHECK-NOT:     tensor.expand_shape
// CHECK:         linalg.matvec ins(%{{.*}}, %{{.*}} : tensor<5x8xf32>, tensor<8xf32>) outs(%{{.*}} : tensor<5xf32>)
func.func @dense_vector(%x: tensor<8xf32>, %w: tensor<5x8xf32>) -> tensor<5xf32> {
  %y = relay.nn.dense %x, %w : (tensor<8xf32>, tensor<5x8xf32>) -> tensor<5xf32>
  return %y : tensor<5xf32>
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

// A run-time row count: one row runs a static 1-row kernel, up to 8 rows a
// static 8-row kernel (the rows padded, the result sliced back), more rows
// the dynamic matmul; IREE 3.13 runs the rows of a `?`-row matmul past a
// multiple of 8 as scalar code.
// CHECK-LABEL: func.func @dense_dynamic_rows
// CHECK: %[[ONE:.+]] = arith.cmpi eq, %{{.+}}, %c1
// CHECK: scf.if %[[ONE]] -> (tensor<?x512xf32>)
// CHECK:   tensor.cast %{{.+}} : tensor<?x64xf32> to tensor<1x64xf32>
// CHECK:   linalg.matmul {{.*}} ins(%{{.+}}, %{{.+}} : tensor<1x64xf32>, tensor<512x64xf32>)
// CHECK:   tensor.cast %{{.+}} : tensor<1x512xf32> to tensor<?x512xf32>
// CHECK: } else {
// CHECK: %[[FEW:.+]] = arith.cmpi ule, %[[M:.+]], %c8
// CHECK: scf.if %[[FEW]] -> (tensor<?x512xf32>)
// CHECK:   %[[P:.+]] = tensor.pad %{{.+}} low[0, 0] high[%{{.+}}, 0]
// CHECK:   } : tensor<?x64xf32> to tensor<8x64xf32>
// CHECK:   %[[R:.+]] = linalg.matmul {{.*}} ins(%[[P]], %{{.+}} : tensor<8x64xf32>, tensor<512x64xf32>)
// CHECK:   tensor.extract_slice %[[R]][0, 0] [%[[M]], 512] [1, 1] : tensor<8x512xf32> to tensor<?x512xf32>
// CHECK: } else {
// CHECK:   linalg.matmul {{.*}} ins(%{{.+}}, %{{.+}} : tensor<?x64xf32>, tensor<512x64xf32>)
func.func @dense_dynamic_rows(%x: tensor<?x64xf32>, %w: tensor<512x64xf32>) -> tensor<?x512xf32> {
  %y = relay.nn.dense %x, %w : (tensor<?x64xf32>, tensor<512x64xf32>) -> tensor<?x512xf32>
  return %y : tensor<?x512xf32>
}

// (a small weight, K * N < 2^15, keeps the one dynamic matmul: the scf.if
// would cost more than it wins)
// CHECK-LABEL: func.func @dense_dynamic_rows_small
// CHECK-NOT: scf.if
// CHECK: linalg.matmul {{.*}} ins(%{{.+}}, %{{.+}} : tensor<?x8xf32>, tensor<5x8xf32>)
func.func @dense_dynamic_rows_small(%x: tensor<?x8xf32>, %w: tensor<5x8xf32>) -> tensor<?x5xf32> {
  %y = relay.nn.dense %x, %w : (tensor<?x8xf32>, tensor<5x8xf32>) -> tensor<?x5xf32>
  return %y : tensor<?x5xf32>
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

// CHECK-LABEL: func.func @batch_flatten
func.func @batch_flatten(%x: tensor<?x8x2x2xf32>) -> tensor<?x32xf32> {
  // CHECK: tensor.collapse_shape %{{.+}} {{\[\[}}0], [1, 2, 3]] : tensor<?x8x2x2xf32> into tensor<?x32xf32>
  %y = relay.nn.batch_flatten %x : (tensor<?x8x2x2xf32>) -> tensor<?x32xf32>
  return %y : tensor<?x32xf32>
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

// CHECK-LABEL: func.func @matmul_tb
// CHECK: linalg.matmul indexing_maps = [#[[MA]], #[[MB]], #[[MN:.+]]] ins(%{{.*}}, %{{.*}} : tensor<?x8xf32>, tensor<5x8xf32>) outs(%{{.*}} : tensor<?x5xf32>)
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

// batch_flatten of a rank-1 tensor adds the unit dim (it used to build a
// collapse_shape with an empty reassociation group; random-program fuzzer,
// seed 3 program 383).
// CHECK-LABEL: func.func @batch_flatten_rank1
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0, 1]] output_shape [2, 1] : tensor<2xf32> into tensor<2x1xf32>
func.func @batch_flatten_rank1(%x: tensor<2xf32>) -> tensor<2x1xf32> {
  %y = relay.nn.batch_flatten %x : (tensor<2xf32>) -> tensor<2x1xf32>
  return %y : tensor<2x1xf32>
}

// batch_matmul with `?` batches of different origins: a run-time batch of 1
// broadcasts, so both operands are first copied to the common batch (each
// checked: 1 or the same); the contraction sizes are checked equal.
// CHECK-LABEL: func.func @batch_matmul_runtime_broadcast
// CHECK-SAME: (%[[A:.+]]: tensor<?x2x?xf32>, %[[B:.+]]: tensor<?x?x3xf32>)
// CHECK: cf.assert %{{.+}}, "relay.nn.batch_matmul: the contraction sizes differ
// CHECK: %[[N:.+]] = arith.select
// CHECK: cf.assert %{{.+}}, "relay.nn.batch_matmul: the batch sizes do not broadcast
// CHECK: cf.assert %{{.+}}, "relay.nn.batch_matmul: the batch sizes do not broadcast
// CHECK: %[[RA:.+]] = linalg.generic
// CHECK: tensor.extract %[[A]]
// CHECK: %[[RB:.+]] = linalg.generic
// CHECK: tensor.extract %[[B]]
// CHECK: linalg.batch_matmul
// CHECK-SAME: ins(%[[RA]], %[[RB]] : tensor<?x2x?xf32>, tensor<?x?x3xf32>)
func.func @batch_matmul_runtime_broadcast(%a: tensor<?x2x?xf32>, %b: tensor<?x?x3xf32>) -> tensor<?x2x3xf32> {
  %c = relay.nn.batch_matmul %a, %b {transpose_a = false, transpose_b = false} : (tensor<?x2x?xf32>, tensor<?x?x3xf32>) -> tensor<?x2x3xf32>
  return %c : tensor<?x2x3xf32>
}

// A dense whose data has a `?` input size: checked against the weight's.
// CHECK-LABEL: func.func @dense_runtime_units
// CHECK: cf.assert %{{.+}}, "relay.nn.dense: the data's last size is not the weight's input size
// CHECK: linalg.matmul
func.func @dense_runtime_units(%x: tensor<2x?xf32>, %w: tensor<3x4xf32>) -> tensor<2x3xf32> {
  %y = relay.nn.dense %x, %w {units = 3 : i64} : (tensor<2x?xf32>, tensor<3x4xf32>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

// nn.dense with a run-time row count: one row runs a static 1-row kernel, up
// to 8 rows a static 8-row kernel (zero-padded), more the dynamic matmul (an
// scf.if on the row count). Outside a loop only for weights of 2^15
// elements or more (the branch costs more than a small matmul wins); in a
// loop body (a function calling itself) for any weight, since
// relay-unswitch-loops takes the branch out of the loop.
// CHECK-LABEL: func.func @dense_rows_small_weight
// CHECK-NOT:     scf.if
// CHECK:         linalg.matmul {{.*}} ins(%{{.*}}, %{{.*}} : tensor<?x16xf32>, tensor<16x16xf32>)
// CHECK-NOT:     scf.if
// CHECK-LABEL: func.func private @dense_rows_in_loop
// CHECK:         arith.cmpi eq, %{{.*}}, %c1
// CHECK:         scf.if
// CHECK:           linalg.matmul {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x16xf32>, tensor<16x16xf32>)
// CHECK:           arith.cmpi ule, %{{.*}}, %c8
// CHECK:           scf.if
// CHECK:             tensor.pad
// CHECK:             linalg.matmul {{.*}} ins(%{{.*}}, %{{.*}} : tensor<8x16xf32>, tensor<16x16xf32>)
// CHECK:             linalg.matmul {{.*}} ins(%{{.*}}, %{{.*}} : tensor<?x16xf32>, tensor<16x16xf32>)
func.func @dense_rows_small_weight(%x: tensor<?x16xf32>, %w: tensor<16x16xf32>) -> tensor<?x16xf32> {
  %y = relay.nn.dense %x, %w {units = 16 : i64} : (tensor<?x16xf32>, tensor<16x16xf32>) -> tensor<?x16xf32>
  return %y : tensor<?x16xf32>
}
func.func private @dense_rows_in_loop(%c: tensor<i1>, %x: tensor<?x16xf32>, %w: tensor<16x16xf32>) -> tensor<?x16xf32> {
  %r = relay.if %c : tensor<i1> -> tensor<?x16xf32> {
    %y = relay.nn.dense %x, %w {units = 16 : i64} : (tensor<?x16xf32>, tensor<16x16xf32>) -> tensor<?x16xf32>
    %z = func.call @dense_rows_in_loop(%c, %y, %w) : (tensor<i1>, tensor<?x16xf32>, tensor<16x16xf32>) -> tensor<?x16xf32>
    relay.yield %z : tensor<?x16xf32>
  } else {
    relay.yield %x : tensor<?x16xf32>
  }
  return %r : tensor<?x16xf32>
}

// nn.mirror_pad REFLECT is nn.pad "reflect"; SYMMETRIC concatenates the
// reversed border slices around the data, one padded dim at a time.
// CHECK-LABEL: func.func @mirror_pad
// CHECK: %[[R:.+]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<?x5xf32>)
// CHECK: %[[D0:.+]] = tensor.concat dim(0) %{{.*}}, %arg0 : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
// CHECK: %[[D1:.+]] = tensor.concat dim(1) %{{.*}}, %[[D0]], %{{.*}} : (tensor<?x2xf32>, tensor<?x3xf32>, tensor<?x1xf32>) -> tensor<?x6xf32>
// CHECK: return %[[R]], %[[D1]]
func.func @mirror_pad(%x: tensor<?x3xf32>) -> (tensor<?x5xf32>, tensor<?x6xf32>) {
  %0 = relay.nn.mirror_pad %x {pad_width = array<i64: 0, 0, 1, 1>, mode = "REFLECT"} : (tensor<?x3xf32>) -> tensor<?x5xf32>
  %1 = relay.nn.mirror_pad %x {pad_width = array<i64: 1, 0, 2, 1>} : (tensor<?x3xf32>) -> tensor<?x6xf32>
  return %0, %1 : tensor<?x5xf32>, tensor<?x6xf32>
}

// nn.upsampling3d is separable: image.resize2d over (H, W) with C and D
// merged, then over (D, h*w) (an identity on the merged dim).
// CHECK-LABEL: func.func @upsampling3d
// CHECK: tensor.collapse_shape %arg0 {{.*}} into tensor<?x6x4x5xf32>
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<?x6x6x10xf32>)
// CHECK: tensor.expand_shape {{.*}} into tensor<?x2x3x60xf32>
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<?x2x6x60xf32>)
// CHECK: %[[Y:.+]] = tensor.expand_shape {{.*}} into tensor<?x2x6x6x10xf32>
// CHECK: return %[[Y]]
func.func @upsampling3d(%x: tensor<?x2x3x4x5xf32>) -> tensor<?x2x6x6x10xf32> {
  %y = relay.nn.upsampling3d %x {scale_d = 2.0 : f64, scale_h = 1.5 : f64, scale_w = 2.0 : f64, method = "trilinear"} : (tensor<?x2x3x4x5xf32>) -> tensor<?x2x6x6x10xf32>
  return %y : tensor<?x2x6x6x10xf32>
}
