// RUN: relay-mlir-opt %s -convert-relay-to-linalg | FileCheck %s

// CHECK-LABEL: func.func @sum_axis
func.func @sum_axis(%x: tensor<2x3x4xf32>) -> tensor<2x4xf32> {
  // CHECK: %[[Z:.+]] = arith.constant 0.000000e+00 : f32
  // CHECK: %[[F:.+]] = linalg.fill ins(%[[Z]] : f32) outs(%{{.+}} : tensor<2x4xf32>)
  // CHECK: %[[R:.+]] = linalg.reduce ins(%{{.+}} : tensor<2x3x4xf32>) outs(%[[F]] : tensor<2x4xf32>) dimensions = [1]
  // CHECK:   arith.addf
  // CHECK: return %[[R]]
  %y = relay.sum %x {axis = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}

// A full reduction runs in two steps (the last dim, then the others):
// IREE 3.13 rejects a one-step full reduction of a broadcast product, and
// (random-program fuzzer, seed 3 programs 56, 574, 758, 783) the first step
// of the other order (all dims but the last) of some.
// CHECK-LABEL: func.func @sum_all_int
func.func @sum_all_int(%x: tensor<2x3xi32>) -> tensor<i32> {
  // CHECK: %[[P:.+]] = linalg.reduce ins(%{{.+}} : tensor<2x3xi32>) outs(%{{.+}} : tensor<2xi32>) dimensions = [1]
  // CHECK:   arith.addi
  // CHECK: linalg.reduce ins(%[[P]] : tensor<2xi32>) outs(%{{.+}} : tensor<i32>) dimensions = [0]
  // CHECK:   arith.addi
  %y = relay.sum %x : (tensor<2x3xi32>) -> tensor<i32>
  return %y : tensor<i32>
}

// CHECK-LABEL: func.func @sum_exclude_keepdims
func.func @sum_exclude_keepdims(%x: tensor<2x3x4xf32>) -> tensor<1x3x1xf32> {
  // CHECK: %[[R:.+]] = linalg.reduce ins(%{{.+}} : tensor<2x3x4xf32>) outs(%{{.+}} : tensor<3xf32>) dimensions = [0, 2]
  // CHECK: tensor.expand_shape %[[R]] {{\[\[}}0, 1, 2]] output_shape [1, 3, 1] : tensor<3xf32> into tensor<1x3x1xf32>
  %y = relay.sum %x {axis = array<i64: 1>, exclude = true, keepdims = true} : (tensor<2x3x4xf32>) -> tensor<1x3x1xf32>
  return %y : tensor<1x3x1xf32>
}

// CHECK-LABEL: func.func @mean_dynamic
func.func @mean_dynamic(%x: tensor<?x3x?xf32>) -> tensor<?x1x1xf32> {
  // The divisor is counted at run time: 3 * dim(x, 2).
  // CHECK: %[[R:.+]] = linalg.reduce ins(%[[X:.+]] : tensor<?x3x?xf32>) outs(%{{.+}} : tensor<?xf32>) dimensions = [1, 2]
  // CHECK: %[[D:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?x3x?xf32>
  // CHECK: %[[C3:.+]] = arith.constant 3 : index
  // CHECK: %[[N:.+]] = arith.muli %[[D]], %[[C3]] : index
  // CHECK: %[[I:.+]] = arith.index_castui %[[N]] : index to i64
  // CHECK: %[[F:.+]] = arith.sitofp %[[I]] : i64 to f32
  // CHECK: %[[M:.+]] = linalg.generic {{.*}} ins(%[[R]] : tensor<?xf32>)
  // CHECK:   arith.divf %{{.+}}, %[[F]] : f32
  // CHECK: tensor.expand_shape %[[M]] {{\[\[}}0, 1, 2]] output_shape [%{{.+}}, 1, 1] : tensor<?xf32> into tensor<?x1x1xf32>
  %y = relay.mean %x {axis = array<i64: 1, -1>, keepdims = true} : (tensor<?x3x?xf32>) -> tensor<?x1x1xf32>
  return %y : tensor<?x1x1xf32>
}

// CHECK-LABEL: func.func @mean_int
func.func @mean_int(%x: tensor<4x6xi32>) -> tensor<4xi32> {
  // CHECK: linalg.reduce
  // CHECK: %[[N:.+]] = arith.index_castui %{{.+}} : index to i32
  // CHECK: %[[D:.+]] = arith.maxsi %[[N]], %{{.+}} : i32
  // CHECK: linalg.generic
  // CHECK:   arith.divsi %{{.+}}, %[[D]] : i32
  %y = relay.mean %x {axis = array<i64: 1>} : (tensor<4x6xi32>) -> tensor<4xi32>
  return %y : tensor<4xi32>
}

// CHECK-LABEL: func.func @max_min_prod
func.func @max_min_prod(%x: tensor<2x3xf32>, %i: tensor<4xi32>) -> (tensor<2xf32>, tensor<i32>, tensor<3xf32>) {
  // max starts from -inf, combines with arith.maximumf.
  // CHECK: arith.constant 0xFF800000 : f32
  // CHECK: linalg.reduce ins(%{{.+}} : tensor<2x3xf32>) outs(%{{.+}} : tensor<2xf32>) dimensions = [1]
  // CHECK:   arith.maximumf
  %0 = relay.max %x {axis = array<i64: 1>} : (tensor<2x3xf32>) -> tensor<2xf32>
  // min of signed ints starts from INT_MAX, combines with arith.minsi.
  // CHECK: arith.constant 2147483647 : i32
  // CHECK: linalg.reduce ins(%{{.+}} : tensor<4xi32>) outs(%{{.+}} : tensor<i32>) dimensions = [0]
  // CHECK:   arith.minsi
  %1 = relay.min %i : (tensor<4xi32>) -> tensor<i32>
  // CHECK: arith.constant 1.000000e+00 : f32
  // CHECK: linalg.reduce ins(%{{.+}} : tensor<2x3xf32>) outs(%{{.+}} : tensor<3xf32>) dimensions = [0]
  // CHECK:   arith.mulf
  %2 = relay.prod %x {axis = array<i64: 0>} : (tensor<2x3xf32>) -> tensor<3xf32>
  return %0, %1, %2 : tensor<2xf32>, tensor<i32>, tensor<3xf32>
}

// CHECK-LABEL: func.func @all_any
func.func @all_any(%b: tensor<2x3xi1>) -> (tensor<2xi1>, tensor<1x3xi1>) {
  // CHECK: arith.constant true
  // CHECK: linalg.reduce
  // CHECK:   arith.andi
  %0 = relay.all %b {axis = array<i64: 1>} : (tensor<2x3xi1>) -> tensor<2xi1>
  // CHECK: arith.constant false
  // CHECK: %[[R:.+]] = linalg.reduce
  // CHECK:   arith.ori
  // CHECK: tensor.expand_shape %[[R]] {{\[\[}}0, 1]] output_shape [1, 3] : tensor<3xi1> into tensor<1x3xi1>
  %1 = relay.any %b {axis = array<i64: 0>, keepdims = true} : (tensor<2x3xi1>) -> tensor<1x3xi1>
  return %0, %1 : tensor<2xi1>, tensor<1x3xi1>
}

// CHECK-LABEL: func.func @argmax
func.func @argmax(%x: tensor<2x?x4xf32>) -> tensor<2xi32> {
  // One generic carries (value, index); the index is row-major over the
  // reduced dims 1 and 2; ties go to the smaller index (init INT32_MAX).
  // CHECK-DAG: %[[NEG:.+]] = arith.constant 0xFF800000 : f32
  // CHECK-DAG: %[[MAXI:.+]] = arith.constant 2147483647 : i32
  // CHECK: %[[G:.+]]:2 = linalg.generic
  // CHECK-SAME: iterator_types = ["parallel", "reduction", "reduction"]
  // CHECK-SAME: ins(%{{.+}} : tensor<2x?x4xf32>) outs(%{{.+}}, %{{.+}} : tensor<2xf32>, tensor<2xi32>)
  // CHECK:   linalg.index 1
  // CHECK:   linalg.index 2
  // CHECK:   arith.cmpf ogt
  // CHECK:   arith.cmpf oeq
  // CHECK:   arith.cmpi slt
  // CHECK: return %[[G]]#1
  %0 = relay.argmax %x {axis = array<i64: 1, 2>} : (tensor<2x?x4xf32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// CHECK-LABEL: func.func @argmin_last
func.func @argmin_last(%x: tensor<5xi32>) -> tensor<i32> {
  // select_last_index: init -1, ties go to the larger index.
  // CHECK: arith.constant -1 : i32
  // CHECK: linalg.generic
  // CHECK:   arith.cmpi slt
  // CHECK:   arith.cmpi eq
  // CHECK:   arith.cmpi sgt
  %0 = relay.argmin %x {select_last_index = true} : (tensor<5xi32>) -> tensor<i32>
  return %0 : tensor<i32>
}

// CHECK-LABEL: func.func @variance
func.func @variance(%x: tensor<2x?xf32>, %m: tensor<2x1xf32>) -> tensor<2xf32> {
  // (x - mean)^2 with the mean broadcast along dim 1, summed, / (N - 1).
  // CHECK: linalg.generic {indexing_maps = [#{{.+}}, #[[MMAP:.+]], #{{.+}}]
  // CHECK:   arith.subf
  // CHECK:   arith.mulf
  // CHECK: linalg.reduce
  // CHECK:   arith.addf
  // CHECK: tensor.dim
  // CHECK: arith.subi
  // CHECK: arith.sitofp
  // CHECK: linalg.generic
  // CHECK:   arith.divf
  %0 = relay.variance %x, %m {axis = array<i64: 1>, unbiased = true} : (tensor<2x?xf32>, tensor<2x1xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// A reduction of a fill is computed from the fill's value (IREE 3.13
// computes a linalg.reduce of a linalg.fill as the value itself: sum of
// full(0.7, [3]) gave 0.7; random-program fuzzer, seed 3 program 232).
// CHECK-LABEL: func.func @sum_of_full
// CHECK: %[[V:.*]] = tensor.extract
// CHECK-NOT: linalg.reduce
// CHECK: %[[C3:.*]] = arith.constant 3 : index
// CHECK: arith.mulf %[[V]], %{{.*}} : f32
// CHECK-NOT: linalg.reduce
// CHECK: return
func.func @sum_of_full(%v: tensor<f32>) -> tensor<f32> {
  %f = relay.full %v {shape = array<i64: 3>} : (tensor<f32>) -> tensor<3xf32>
  %s = relay.sum %f : (tensor<3xf32>) -> tensor<f32>
  return %s : tensor<f32>
}

// The sum of a broadcast reduces the broadcast's source (times the size of
// the reduced broadcast dims) and broadcasts the result over the kept ones.
// CHECK-LABEL: func.func @sum_of_broadcast
// CHECK: %[[S:.*]] = linalg.reduce ins(%{{.*}} : tensor<4xf32>) outs(%{{.*}} : tensor<f32>) dimensions = [0]
// CHECK: arith.mulf
// CHECK: linalg.broadcast ins(%{{.*}} : tensor<f32>) outs(%{{.*}} : tensor<2xf32>) dimensions = [0]
func.func @sum_of_broadcast(%x: tensor<4xf32>) -> tensor<2xf32> {
  %b = relay.broadcast_to %x {shape = array<i64: 2, 3, 4>} : (tensor<4xf32>) -> tensor<2x3x4xf32>
  %s = relay.sum %b {axis = array<i64: 1, 2>} : (tensor<2x3x4xf32>) -> tensor<2xf32>
  return %s : tensor<2xf32>
}
