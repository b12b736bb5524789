// RUN: relay-mlir-opt %s -convert-relay-to-linalg | FileCheck %s

// The rank and inverse-permutation maps of @argsort.
// CHECK-DAG: #[[AS_IJ:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[AS_IK:map[0-9]*]] = affine_map<(d0, d1, d2) -> (d0, d2)>

// CHECK-LABEL: func.func @take_rows
func.func @take_rows(%w: tensor<10x4xf32>, %i: tensor<2x3xi32>) -> tensor<2x3x4xf32> {
  // A parallel generic over the result reads the index and extracts from
  // data at the clamped index (mode clip).
  // CHECK: linalg.generic
  // CHECK-SAME: ins(%{{.+}} : tensor<2x3xi32>) outs(%{{.+}} : tensor<2x3x4xf32>)
  // CHECK:   arith.index_cast %{{.+}} : i32 to index
  // CHECK:   arith.maxsi
  // CHECK:   arith.minsi
  // CHECK:   linalg.index 2
  // CHECK:   tensor.extract %{{.+}}[%{{.+}}, %{{.+}}] : tensor<10x4xf32>
  %0 = relay.take %w, %i {axis = 0 : i64} : (tensor<10x4xf32>, tensor<2x3xi32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// CHECK-LABEL: func.func @take_flat_wrap
func.func @take_flat_wrap(%w: tensor<?x4xf32>, %i: tensor<5xi64>) -> tensor<5xf32> {
  // No axis: the data is collapsed to 1-D first; wrap uses remsi.
  // CHECK: tensor.collapse_shape %{{.+}} {{\[\[}}0, 1]] : tensor<?x4xf32> into tensor<?xf32>
  // CHECK: linalg.generic
  // CHECK:   arith.remsi
  // CHECK:   tensor.extract %{{.+}}[%{{.+}}] : tensor<?xf32>
  %0 = relay.take %w, %i {mode = "wrap"} : (tensor<?x4xf32>, tensor<5xi64>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// CHECK-LABEL: func.func @take_fast_checked_at_end
func.func @take_fast_checked_at_end(%w: tensor<10x4xf32>, %i: tensor<2x3xi32>) -> tensor<2x3x4xf32> {
  // mode fast: the take clamps (reads stay in bounds), a reduction flags an
  // index out of [0, 10), and the host asserts the flag at the end of the
  // block, after the ops that follow the take.
  // CHECK: %[[T:.+]] = linalg.generic {{.*}} ins(%{{.+}} : tensor<2x3xi32>) outs(%{{.+}} : tensor<2x3x4xf32>)
  // CHECK:   arith.maxsi
  // CHECK:   arith.minsi
  // CHECK: %[[F:.+]] = linalg.generic {{.*}}iterator_types = ["reduction", "reduction"]{{.*}} ins(%{{.+}} : tensor<2x3xi32>) outs(%{{.+}} : tensor<i32>)
  // CHECK:   arith.cmpi sge
  // CHECK:   arith.cmpi slt
  // CHECK:   arith.ori
  // CHECK: math.exp
  // CHECK: %[[B:.+]] = tensor.extract %[[F]][] : tensor<i32>
  // CHECK: %[[OK:.+]] = arith.cmpi eq, %[[B]], %{{.+}} : i32
  // CHECK: cf.assert %[[OK]], "relay.take: an index is out of range (mode \22fast\22) [at
  // CHECK-NEXT: return
  %0 = relay.take %w, %i {axis = 0 : i64, mode = "fast"} : (tensor<10x4xf32>, tensor<2x3xi32>) -> tensor<2x3x4xf32>
  %1 = relay.exp %0 : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %1 : tensor<2x3x4xf32>
}

// CHECK-LABEL: func.func @gather
func.func @gather(%x: tensor<3x5xf32>, %i: tensor<3x2xi64>) -> tensor<3x2xf32> {
  // CHECK: linalg.generic
  // CHECK-SAME: ins(%{{.+}} : tensor<3x2xi64>) outs(%{{.+}} : tensor<3x2xf32>)
  // CHECK:   linalg.index 0
  // CHECK:   tensor.extract %{{.+}}[%{{.+}}, %{{.+}}] : tensor<3x5xf32>
  // An index outside [-5, 5) is a run-time error (negative ones count from
  // the end), asserted at the end of the block; the read clamps until then.
  // CHECK: linalg.generic {{.*}}iterator_types = ["reduction", "reduction"]{{.*}} ins(%{{.+}} : tensor<3x2xi64>) outs(%{{.+}} : tensor<i32>)
  // CHECK: cf.assert %{{.+}}, "relay.gather: an index is out of range
  // CHECK-NEXT: return
  %0 = relay.gather %x, %i {axis = 1 : i64} : (tensor<3x5xf32>, tensor<3x2xi64>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// CHECK-LABEL: func.func @gather_nd
func.func @gather_nd(%x: tensor<3x4x5xf32>, %i: tensor<2x6xi32>) -> tensor<6x5xf32> {
  // Both index components are read from `indices` in the body.
  // CHECK: linalg.generic
  // CHECK-SAME: outs(%{{.+}} : tensor<6x5xf32>)
  // CHECK:   tensor.extract %{{.+}}[%{{.+}}, %{{.+}}] : tensor<2x6xi32>
  // CHECK:   tensor.extract %{{.+}}[%{{.+}}, %{{.+}}] : tensor<2x6xi32>
  // CHECK:   tensor.extract %{{.+}}[%{{.+}}, %{{.+}}, %{{.+}}] : tensor<3x4x5xf32>
  // Component j (indices' row j) is checked against data dim j: 3 or 4.
  // CHECK: linalg.generic {{.*}} ins(%{{.+}} : tensor<2x6xi32>) outs(%{{.+}} : tensor<i32>)
  // CHECK:   linalg.index 0
  // CHECK:   arith.select
  // CHECK: cf.assert %{{.+}}, "relay.gather_nd: an index is out of range
  // CHECK-NEXT: return
  %0 = relay.gather_nd %x, %i : (tensor<3x4x5xf32>, tensor<2x6xi32>) -> tensor<6x5xf32>
  return %0 : tensor<6x5xf32>
}

// CHECK-LABEL: func.func @scatter_elements_update
func.func @scatter_elements_update(%x: tensor<4x3xf32>, %i: tensor<2x3xi32>, %u: tensor<2x3xf32>) -> tensor<4x3xf32> {
  // Parallel over data, reduction over the update positions along the axis;
  // `update` keeps the latest position (an i64 companion output, init -1),
  // starting from `data` itself.
  // CHECK: %[[POS:.+]] = linalg.fill ins(%{{.+}} : i64) outs(%{{.+}} : tensor<4x3xi64>)
  // CHECK: %[[G:.+]]:2 = linalg.generic
  // CHECK-SAME: iterator_types = ["parallel", "parallel", "reduction"]
  // CHECK-SAME: outs(%arg0, %[[POS]] : tensor<4x3xf32>, tensor<4x3xi64>)
  // CHECK:   tensor.extract %arg1
  // CHECK:   tensor.extract %arg2
  // CHECK:   arith.cmpi sgt
  // CHECK: return %[[G]]#0
  %0 = relay.scatter_elements %x, %i, %u : (tensor<4x3xf32>, tensor<2x3xi32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// CHECK-LABEL: func.func @scatter_elements_mean
func.func @scatter_elements_mean(%x: tensor<4x3xf32>, %i: tensor<5x3xi64>, %u: tensor<5x3xf32>) -> tensor<4x3xf32> {
  // Relay's running mean: each matching update in position order (the
  // reduction loop) halves acc + update.
  // CHECK: %[[G:.+]] = linalg.generic
  // CHECK-SAME: iterator_types = ["parallel", "parallel", "reduction"]
  // CHECK-SAME: outs(%arg0 : tensor<4x3xf32>)
  // CHECK:   %[[UPD:.+]] = tensor.extract %arg2
  // CHECK:   %[[SUM:.+]] = arith.addf %[[ACC:.+]], %[[UPD]] : f32
  // CHECK:   %[[HALF:.+]] = arith.divf %[[SUM]], %{{.+}} : f32
  // CHECK:   arith.select %{{.+}}, %[[HALF]], %[[ACC]] : f32
  // CHECK: return %[[G]]
  %0 = relay.scatter_elements %x, %i, %u {reduction = "mean"} : (tensor<4x3xf32>, tensor<5x3xi64>, tensor<5x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// CHECK-LABEL: func.func @scatter_nd_add
func.func @scatter_nd_add(%x: tensor<4x3xf32>, %i: tensor<1x2xi32>, %u: tensor<2x3xf32>) -> tensor<4x3xf32> {
  // CHECK: linalg.generic
  // CHECK-SAME: iterator_types = ["parallel", "parallel", "reduction"]
  // CHECK-SAME: ins(%arg2 : tensor<2x3xf32>) outs(%arg0 : tensor<4x3xf32>)
  // CHECK:   tensor.extract %arg1
  // CHECK:   arith.addf
  // CHECK:   arith.select
  %0 = relay.scatter_nd %x, %i, %u {mode = "add"} : (tensor<4x3xf32>, tensor<1x2xi32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// CHECK-LABEL: func.func @one_hot
func.func @one_hot(%i: tensor<?xi32>, %on: tensor<f32>, %off: tensor<f32>) -> tensor<?x4xf32> {
  // CHECK: linalg.generic
  // CHECK-SAME: ins(%arg0, %arg1, %arg2 : tensor<?xi32>, tensor<f32>, tensor<f32>) outs(%{{.+}} : tensor<?x4xf32>)
  // CHECK:   linalg.index 1
  // CHECK:   arith.cmpi eq
  // CHECK:   arith.select
  %0 = relay.one_hot %i, %on, %off {depth = 4 : i64, dtype = f32} : (tensor<?xi32>, tensor<f32>, tensor<f32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// CHECK-LABEL: func.func @cumsum_exclusive
func.func @cumsum_exclusive(%x: tensor<2x?xf32>) -> tensor<2x?xf32> {
  // out[.., i] = sum over k < i: a reduction loop k over the axis.
  // CHECK: linalg.generic
  // CHECK-SAME: iterator_types = ["parallel", "parallel", "reduction"]
  // CHECK:   arith.cmpi ult
  // CHECK:   arith.select
  // CHECK:   arith.addf
  %0 = relay.cumsum %x {axis = 1 : i64, exclusive = true} : (tensor<2x?xf32>) -> tensor<2x?xf32>
  return %0 : tensor<2x?xf32>
}

// CHECK-LABEL: func.func @cumprod_flat_cast
func.func @cumprod_flat_cast(%x: tensor<2x3xi32>) -> tensor<6xf32> {
  // CHECK: tensor.collapse_shape
  // CHECK: linalg.generic
  // CHECK:   arith.sitofp
  // CHECK:   arith.cmpi ule
  // CHECK:   arith.mulf
  %0 = relay.cumprod %x {dtype = f32} : (tensor<2x3xi32>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// CHECK-LABEL: func.func @sort_desc
func.func @sort_desc(%x: tensor<2x5xf32>) -> tensor<2x5xf32> {
  // Stable ranks (count of elements ordered before), then a gather by rank.
  // CHECK: %[[RK:.+]] = linalg.generic
  // CHECK-SAME: iterator_types = ["parallel", "parallel", "reduction"]
  // CHECK:   arith.cmpf ogt
  // CHECK:   arith.cmpf oeq
  // CHECK:   arith.cmpi ult
  // CHECK: linalg.generic
  // CHECK-SAME: ins(%arg0, %[[RK]] : tensor<2x5xf32>, tensor<2x5xi64>)
  // CHECK:   arith.cmpi eq
  %0 = relay.sort %x {is_ascend = false} : (tensor<2x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// CHECK-LABEL: func.func @topk
func.func @topk(%x: tensor<2x5xf32>) -> (tensor<2x2xf32>, tensor<2x2xi32>) {
  // CHECK: linalg.generic
  // CHECK: %[[G:.+]]:2 = linalg.generic
  // CHECK-SAME: outs(%{{.+}}, %{{.+}} : tensor<2x2xf32>, tensor<2x2xi32>)
  // CHECK: return %[[G]]#0, %[[G]]#1
  %t = relay.topk %x {k = 2 : i64} : (tensor<2x5xf32>) -> tuple<tensor<2x2xf32>, tensor<2x2xi32>>
  %v = relay.tuple_get_item %t[0] : (tuple<tensor<2x2xf32>, tensor<2x2xi32>>) -> tensor<2x2xf32>
  %i = relay.tuple_get_item %t[1] : (tuple<tensor<2x2xf32>, tensor<2x2xi32>>) -> tensor<2x2xi32>
  return %v, %i : tensor<2x2xf32>, tensor<2x2xi32>
}

// argsort (ascending, stable) along a dynamic axis is two generics: the rank
// of each element j (how many k sort before it: x[k] < x[j], or equal with
// k < j), then the inverse permutation (out[i, r] = the k whose rank is r).
// CHECK-LABEL: func.func @argsort
// CHECK-SAME: (%[[AS_X:[a-z0-9_]+]]: tensor<2x?xf32>)
// CHECK: %[[AS_RANK:.+]] = linalg.generic {indexing_maps = [#[[AS_IJ]], #[[AS_IK]], #[[AS_IJ]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[AS_X]], %[[AS_X]] : tensor<2x?xf32>, tensor<2x?xf32>) outs(%{{.+}} : tensor<2x?xi64>)
// CHECK: ^bb0(%[[AS_XJ:[a-z0-9_]+]]: f32, %[[AS_XK:[a-z0-9_]+]]: f32, %[[AS_CNT:[a-z0-9_]+]]: i64):
// CHECK: %[[AS_LT:.+]] = arith.cmpf olt, %[[AS_XK]], %[[AS_XJ]] : f32
// CHECK: %[[AS_EQ:.+]] = arith.cmpf oeq, %[[AS_XK]], %[[AS_XJ]] : f32
// CHECK: %[[AS_J:.+]] = linalg.index 1 : index
// CHECK: %[[AS_K:.+]] = linalg.index 2 : index
// CHECK: %[[AS_KJ:.+]] = arith.cmpi ult, %[[AS_K]], %[[AS_J]] : index
// CHECK: %[[AS_TIE:.+]] = arith.andi %[[AS_EQ]], %[[AS_KJ]] : i1
// CHECK: %[[AS_BEFORE:.+]] = arith.ori %[[AS_LT]], %[[AS_TIE]] : i1
// CHECK: %[[AS_ONE:.+]] = arith.extui %[[AS_BEFORE]] : i1 to i64
// CHECK: arith.addi %[[AS_CNT]], %[[AS_ONE]] : i64
// CHECK: linalg.generic {indexing_maps = [#[[AS_IK]], #[[AS_IK]], #[[AS_IJ]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[AS_X]], %[[AS_RANK]] : tensor<2x?xf32>, tensor<2x?xi64>) outs(%{{.+}} : tensor<2x?xi32>)
// CHECK: ^bb0(%{{[a-z0-9_]+}}: f32, %[[AS_RK:[a-z0-9_]+]]: i64, %[[AS_ACC:[a-z0-9_]+]]: i32):
// CHECK: %[[AS_R:.+]] = linalg.index 1 : index
// CHECK: %[[AS_R64:.+]] = arith.index_cast %[[AS_R]] : index to i64
// CHECK: %[[AS_HIT:.+]] = arith.cmpi eq, %[[AS_RK]], %[[AS_R64]] : i64
// CHECK: %[[AS_K2:.+]] = linalg.index 2 : index
// CHECK: %[[AS_K32:.+]] = arith.index_cast %[[AS_K2]] : index to i32
// CHECK: %[[AS_SEL:.+]] = arith.select %[[AS_HIT]], %[[AS_K32]], %[[AS_ACC]] : i32
// CHECK: linalg.yield %[[AS_SEL]] : i32
func.func @argsort(%x: tensor<2x?xf32>) -> tensor<2x?xi32> {
  %y = relay.argsort %x {axis = 1 : i64} : (tensor<2x?xf32>) -> tensor<2x?xi32>
  return %y : tensor<2x?xi32>
}
