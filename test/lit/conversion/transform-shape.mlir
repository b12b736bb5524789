// RUN: relay-mlir-opt %s --convert-relay-to-linalg | FileCheck %s
// Lowering of the shape-transform and tensor-creation operators.

// CHECK-DAG: #[[TILE_IN:.*]] = affine_map<(d0, d1, d2, d3) -> (d1, d3)>
// CHECK-DAG: #[[Q:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>
// CHECK-DAG: #[[K:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>
// CHECK-DAG: #[[S:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>

// CHECK-LABEL: func.func @squeeze(
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0], [1, 2]] : tensor<?x1x3xf32> into tensor<?x3xf32>
func.func @squeeze(%x: tensor<?x1x3xf32>) -> tensor<?x3xf32> {
  %0 = relay.squeeze %x {axis = array<i64: 1>} : (tensor<?x1x3xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// CHECK-LABEL: func.func @split(
// CHECK: tensor.extract_slice %{{.*}}[0, %{{.*}}] [%{{.*}}, 2] [1, 1] : tensor<?x6xi32> to tensor<?x2xi32>
// CHECK: tensor.extract_slice %{{.*}}[0, %{{.*}}] [%{{.*}}, 4] [1, 1] : tensor<?x6xi32> to tensor<?x4xi32>
// CHECK: return %{{.*}}, %{{.*}} : tensor<?x2xi32>, tensor<?x4xi32>
func.func @split(%x: tensor<?x6xi32>) -> tuple<tensor<?x2xi32>, tensor<?x4xi32>> {
  %0 = relay.split %x {indices_or_sections = array<i64: 2>, axis = 1 : i64} : (tensor<?x6xi32>) -> tuple<tensor<?x2xi32>, tensor<?x4xi32>>
  return %0 : tuple<tensor<?x2xi32>, tensor<?x4xi32>>
}

// CHECK-LABEL: func.func @slice(
// A negative stride: one gather reading data[start + stride * i].
// CHECK-NOT: tensor.extract_slice
// CHECK: linalg.generic
// CHECK: %[[J:.*]] = linalg.index 1
// CHECK: %[[M:.*]] = arith.muli %[[J]], %{{.*}}
// CHECK: %[[C:.*]] = arith.addi %{{.*}}, %[[M]]
// CHECK: tensor.extract %{{.*}}[%{{.*}}, %[[C]]] : tensor<5x6xf32>
func.func @slice(%x: tensor<5x6xf32>) -> tensor<3x3xf32> {
  %0 = relay.strided_slice %x {begin = array<i64: -100, -1>, end = array<i64: 100, -7>, strides = array<i64: 2, -2>} : (tensor<5x6xf32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// CHECK-LABEL: func.func @tile(
// CHECK: linalg.generic {indexing_maps = [#[[TILE_IN]], #{{.*}}]{{.*}} outs(%{{.*}} : tensor<2x2x3x3xf32>)
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2, 3]] : tensor<2x2x3x3xf32> into tensor<4x9xf32>
func.func @tile(%x: tensor<2x3xf32>) -> tensor<4x9xf32> {
  %0 = relay.tile %x {reps = array<i64: 2, 3>} : (tensor<2x3xf32>) -> tensor<4x9xf32>
  return %0 : tensor<4x9xf32>
}

// CHECK-LABEL: func.func @bcast(
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0, 1]] : tensor<3x1xf32> into tensor<3xf32>
// CHECK: linalg.broadcast ins(%{{.*}} : tensor<3xf32>) outs(%{{.*}} : tensor<2x3x4xf32>) dimensions = [0, 2]
func.func @bcast(%x: tensor<3x1xf32>) -> tensor<2x3x4xf32> {
  %0 = relay.broadcast_to %x {shape = array<i64: 2, 3, 4>} : (tensor<3x1xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// CHECK-LABEL: func.func @csum(
// CHECK: linalg.reduce ins(%{{.*}} : tensor<2x3x4xf32>) outs(%{{.*}} : tensor<3xf32>) dimensions = [0, 2]
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0, 1]] output_shape [3, 1] : tensor<3xf32> into tensor<3x1xf32>
func.func @csum(%x: tensor<2x3x4xf32>, %l: tensor<3x1xf32>) -> tensor<3x1xf32> {
  %0 = relay.collapse_sum_like %x, %l : (tensor<2x3x4xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
  return %0 : tensor<3x1xf32>
}

// A fill of another dtype casts inside a linalg.generic reading the 0-d
// fill value: a cast of the extracted scalar would run in IREE's VM, which
// rounds float -> int to nearest (-7.75 -> -8) instead of truncating.
// CHECK-LABEL: func.func @full(
// CHECK-NOT: tensor.extract
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<f32>) outs(%{{.*}} : tensor<3xi32>)
// CHECK: ^bb0(%[[V:.*]]: f32, %{{.*}}: i32):
// CHECK-NEXT: %[[I:.*]] = arith.fptosi %[[V]] : f32 to i32
// CHECK-NEXT: linalg.yield %[[I]] : i32
func.func @full(%v: tensor<f32>) -> tensor<3xi32> {
  %0 = relay.full %v {shape = array<i64: 3>, dtype = i32} : (tensor<f32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}

// The same dtype stays a linalg.fill of the extracted value.
// CHECK-LABEL: func.func @full_like_same_dtype(
// CHECK: %[[V:.*]] = tensor.extract %{{.*}}[] : tensor<f32>
// CHECK: linalg.fill ins(%[[V]] : f32) outs(%{{.*}} : tensor<2x?xf32>)
func.func @full_like_same_dtype(%x: tensor<2x?xf32>, %v: tensor<f32>) -> tensor<2x?xf32> {
  %0 = relay.full_like %x, %v : (tensor<2x?xf32>, tensor<f32>) -> tensor<2x?xf32>
  return %0 : tensor<2x?xf32>
}

// CHECK-LABEL: func.func @full_like_cast(
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<f16>) outs(%{{.*}} : tensor<?xi8>)
// CHECK: arith.fptoui %{{.*}} : f16 to i8
func.func @full_like_cast(%x: tensor<?xui8>, %v: tensor<f16>) -> tensor<?xui8> {
  %0 = relay.full_like %x, %v : (tensor<?xui8>, tensor<f16>) -> tensor<?xui8>
  return %0 : tensor<?xui8>
}

// CHECK-LABEL: func.func @arange(
// The length ceil((stop - start) / step) at run time.
// CHECK: math.ceil
// CHECK: %[[N:.*]] = arith.maxsi
// CHECK: tensor.empty(%[[N]]) : tensor<?xf32>
// CHECK: linalg.index 0
// CHECK: arith.mulf
// CHECK: arith.addf
func.func @arange(%n: tensor<f32>) -> tensor<?xf32> {
  %a = relay.constant dense<0.5> : tensor<f32>
  %s = relay.constant dense<1.0> : tensor<f32>
  %0 = relay.arange %a, %n, %s {dtype = f32} : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// CHECK-LABEL: func.func @layout(
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2], [3], [4]] output_shape [1, 2, 4, 2, 3]
// CHECK: linalg.transpose ins(%{{.*}} : tensor<1x2x4x2x3xf32>) outs(%{{.*}} : tensor<1x2x2x3x4xf32>) permutation = [0, 1, 3, 4, 2]
func.func @layout(%x: tensor<1x8x2x3xf32>) -> tensor<1x2x2x3x4xf32> {
  %0 = relay.layout_transform %x {src_layout = "NCHW", dst_layout = "NCHW4c"} : (tensor<1x8x2x3xf32>) -> tensor<1x2x2x3x4xf32>
  return %0 : tensor<1x2x2x3x4xf32>
}

// CHECK-LABEL: func.func @einsum(
// CHECK: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<2x3x4xf32>, tensor<2x4x5xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[Q]], #[[K]], #[[S]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f16
// CHECK: arith.addf %{{.*}}, %{{.*}} : f16
func.func @einsum(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>, %q: tensor<2x8x6x16xf16>, %k: tensor<2x8x7x16xf16>) -> (tensor<2x3x5xf32>, tensor<2x8x6x7xf16>) {
  %0 = relay.einsum %a, %b {equation = "bij,bjk->bik"} : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  %1 = relay.einsum %q, %k {equation = "bhqd,bhkd->bhqk"} : (tensor<2x8x6x16xf16>, tensor<2x8x7x16xf16>) -> tensor<2x8x6x7xf16>
  return %0, %1 : tensor<2x3x5xf32>, tensor<2x8x6x7xf16>
}

// CHECK-LABEL: func.func @rev(
// A `?` dim is reversed with a gather.
// CHECK: linalg.index 0
// CHECK: tensor.extract %{{.*}}[%{{.*}}, %{{.*}}] : tensor<?x3xf32>
func.func @rev(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %0 = relay.reverse %x {axis = 0 : i64} : (tensor<?x3xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// stack: each operand inserted (rank-reducing insert_slice) at its index
// along the new axis.
// CHECK-LABEL: func.func @stack(
// CHECK: %[[E:.*]] = tensor.empty(%{{.*}}) : tensor<?x2x3xf32>
// CHECK: %[[A:.*]] = tensor.insert_slice %{{.*}} into %[[E]][0, 0, 0] [%{{.*}}, 1, 3] [1, 1, 1] : tensor<?x3xf32> into tensor<?x2x3xf32>
// CHECK: tensor.insert_slice %{{.*}} into %[[A]][0, 1, 0] [%{{.*}}, 1, 3] [1, 1, 1] : tensor<?x3xf32> into tensor<?x2x3xf32>
func.func @stack(%a: tensor<?x3xf32>, %b: tensor<?x3xf32>) -> tensor<?x2x3xf32> {
  %0 = relay.stack %a, %b {axis = 1 : i64} : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x2x3xf32>
  return %0 : tensor<?x2x3xf32>
}

// repeat: broadcast into [d, repeats], collapse the pair.
// CHECK-LABEL: func.func @repeat(
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<2x3xi8>) outs(%{{.*}} : tensor<2x3x2xi8>)
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0], [1, 2]] : tensor<2x3x2xi8> into tensor<2x6xi8>
func.func @repeat(%x: tensor<2x3xi8>) -> tensor<2x6xi8> {
  %0 = relay.repeat %x {repeats = 2 : i64, axis = 1 : i64} : (tensor<2x3xi8>) -> tensor<2x6xi8>
  return %0 : tensor<2x6xi8>
}

// CHECK-LABEL: func.func @expand_dims(
// CHECK: tensor.expand_shape %{{.*}} [] output_shape [1, 1] : tensor<f32> into tensor<1x1xf32>
func.func @expand_dims(%x: tensor<f32>) -> tensor<1x1xf32> {
  %0 = relay.expand_dims %x {axis = 0 : i64, num_newaxis = 2 : i64} : (tensor<f32>) -> tensor<1x1xf32>
  return %0 : tensor<1x1xf32>
}

// The `?` size comes from shape_like.
// CHECK-LABEL: func.func @reshape_like(
// CHECK-SAME: %{{.*}}: tensor<?x6xf32>, %[[S:.*]]: tensor<?x2x3xf32>
// CHECK: %[[D:.*]] = tensor.dim %[[S]], %{{.*}} : tensor<?x2x3xf32>
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2]] output_shape [%[[D]], 2, 3]
func.func @reshape_like(%x: tensor<?x6xf32>, %s: tensor<?x2x3xf32>) -> tensor<?x2x3xf32> {
  %0 = relay.reshape_like %x, %s : (tensor<?x6xf32>, tensor<?x2x3xf32>) -> tensor<?x2x3xf32>
  return %0 : tensor<?x2x3xf32>
}

// CHECK-LABEL: func.func @ones_like(
// CHECK: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK: linalg.fill ins(%[[ONE]] : i32) outs(%{{.*}} : tensor<?x3xi32>)
func.func @ones_like(%x: tensor<?x3xi32>) -> tensor<?x3xi32> {
  %0 = relay.ones_like %x : (tensor<?x3xi32>) -> tensor<?x3xi32>
  return %0 : tensor<?x3xi32>
}

// Einsum with a 0-d output, and with a repeated label: the diagonal is
// gathered first.
// CHECK-LABEL: func.func @einsum_dot(
// CHECK: linalg.generic {indexing_maps = [#[[V:.*]], #[[V]], #[[SCALAR:.*]]], iterator_types = ["reduction"]}
// CHECK: linalg.index 0
// CHECK: tensor.extract %{{.*}}[%{{.*}}, %{{.*}}] : tensor<4x4xf32>
// CHECK: linalg.generic {indexing_maps = [#[[V]], #[[V]]], iterator_types = ["parallel"]}
func.func @einsum_dot(%a: tensor<5xf32>, %b: tensor<5xf32>, %m: tensor<4x4xf32>) -> (tensor<f32>, tensor<4xf32>) {
  %0 = relay.einsum %a, %b {equation = "i,i->"} : (tensor<5xf32>, tensor<5xf32>) -> tensor<f32>
  %1 = relay.einsum %m {equation = "ii->i"} : (tensor<4x4xf32>) -> tensor<4xf32>
  return %0, %1 : tensor<f32>, tensor<4xf32>
}

// broadcast_to_like takes the shape (incl. the dynamic dim) from the second
// operand: drop the unit dim, broadcast into dims 0 and 2.
// CHECK-LABEL: func.func @broadcast_to_like(
// CHECK-SAME: %[[BL_X:[a-z0-9_]+]]: tensor<3x1xf32>, %[[BL_L:[a-z0-9_]+]]: tensor<?x3x4xf32>)
// CHECK: %[[BL_D:.+]] = tensor.dim %[[BL_L]], %{{.+}} : tensor<?x3x4xf32>
// CHECK: %[[BL_C:.+]] = tensor.collapse_shape %[[BL_X]] {{\[\[}}0, 1]] : tensor<3x1xf32> into tensor<3xf32>
// CHECK: %[[BL_E:.+]] = tensor.empty(%[[BL_D]]) : tensor<?x3x4xf32>
// CHECK: %[[BL_B:.+]] = linalg.broadcast ins(%[[BL_C]] : tensor<3xf32>) outs(%[[BL_E]] : tensor<?x3x4xf32>) dimensions = [0, 2]
// CHECK: return %[[BL_B]] : tensor<?x3x4xf32>
func.func @broadcast_to_like(%x: tensor<3x1xf32>, %l: tensor<?x3x4xf32>) -> tensor<?x3x4xf32> {
  %y = relay.broadcast_to_like %x, %l : (tensor<3x1xf32>, tensor<?x3x4xf32>) -> tensor<?x3x4xf32>
  return %y : tensor<?x3x4xf32>
}

// CHECK-LABEL: func.func @ones(
// CHECK: %[[ON_ONE:.+]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[ON_E:.+]] = tensor.empty() : tensor<2x3xf32>
// CHECK: linalg.fill ins(%[[ON_ONE]] : f32) outs(%[[ON_E]] : tensor<2x3xf32>) -> tensor<2x3xf32>
func.func @ones() -> tensor<2x3xf32> {
  %y = relay.ones {shape = array<i64: 2, 3>, dtype = f32} : () -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @zeros(
// CHECK: %[[ZE_ZERO:.+]] = arith.constant 0 : i32
// CHECK: %[[ZE_E:.+]] = tensor.empty() : tensor<2x3xi32>
// CHECK: linalg.fill ins(%[[ZE_ZERO]] : i32) outs(%[[ZE_E]] : tensor<2x3xi32>) -> tensor<2x3xi32>
func.func @zeros() -> tensor<2x3xi32> {
  %y = relay.zeros {shape = array<i64: 2, 3>, dtype = i32} : () -> tensor<2x3xi32>
  return %y : tensor<2x3xi32>
}

// zeros_like does not read its operand's data, only its (dynamic) shape.
// CHECK-LABEL: func.func @zeros_like(
// CHECK-SAME: %[[ZL_X:[a-z0-9_]+]]: tensor<?x3xi32>)
// CHECK: %[[ZL_D:.+]] = tensor.dim %[[ZL_X]], %{{.+}} : tensor<?x3xi32>
// CHECK: %[[ZL_ZERO:.+]] = arith.constant 0 : i32
// CHECK: %[[ZL_E:.+]] = tensor.empty(%[[ZL_D]]) : tensor<?x3xi32>
// CHECK: %[[ZL_F:.+]] = linalg.fill ins(%[[ZL_ZERO]] : i32) outs(%[[ZL_E]] : tensor<?x3xi32>) -> tensor<?x3xi32>
// CHECK: return %[[ZL_F]] : tensor<?x3xi32>
func.func @zeros_like(%x: tensor<?x3xi32>) -> tensor<?x3xi32> {
  %y = relay.zeros_like %x : (tensor<?x3xi32>) -> tensor<?x3xi32>
  return %y : tensor<?x3xi32>
}

// A static op declared with a less precise result type (`?` where its
// `shape` attribute fixes the dim; the verifier accepts compatible types):
// the `?` dims come from the attribute (fuzz seed 43, mutant 17878: the
// lowering read a size that did not exist).
// CHECK-LABEL: func.func @ones_declared_dynamic
// CHECK: %[[C2:.*]] = arith.constant 2 : index
// CHECK: tensor.empty(%[[C2]]) : tensor<?x3xf32>
func.func @ones_declared_dynamic() -> tensor<?x3xf32> {
  %y = relay.ones {shape = array<i64: 2, 3>, dtype = f32} : () -> tensor<?x3xf32>
  return %y : tensor<?x3xf32>
}

// CHECK-LABEL: func.func @full_declared_dynamic
// CHECK: %[[C3:.*]] = arith.constant 3 : index
// CHECK: tensor.empty(%[[C3]]) : tensor<2x?xf32>
func.func @full_declared_dynamic(%v: tensor<f32>) -> tensor<2x?xf32> {
  %y = relay.full %v {shape = array<i64: 2, 3>} : (tensor<f32>) -> tensor<2x?xf32>
  return %y : tensor<2x?xf32>
}

// CHECK-LABEL: func.func @broadcast_to_declared_dynamic
// CHECK: %[[C2:.*]] = arith.constant 2 : index
// CHECK: tensor.empty(%[[C2]]) : tensor<?x3xf32>
// CHECK: linalg.broadcast
func.func @broadcast_to_declared_dynamic(%x: tensor<3xf32>) -> tensor<?x3xf32> {
  %y = relay.broadcast_to %x {shape = array<i64: 2, 3>} : (tensor<3xf32>) -> tensor<?x3xf32>
  return %y : tensor<?x3xf32>
}

// A reshape that splits or merges dims and carries the dynamic dims over
// (relay's `0` code; a dyn.reshape entry read from shape_of) is one
// expand_shape / collapse_shape, not a trip through 1-D: IREE keeps the
// grouping (the dynamic-axes transformer's head split and merge).
// CHECK-LABEL: func.func @reshape_carried_dims
// CHECK-NOT: into tensor<?xf32>
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0], [1], [2, 3]] output_shape [%{{.*}}, %{{.*}}, 2, 64] : tensor<?x?x128xf32> into tensor<?x?x2x64xf32>
// CHECK: tensor.collapse_shape %{{.*}} {{\[}}[0], [1], [2, 3]] : tensor<?x?x2x64xf32> into tensor<?x?x128xf32>
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2]] output_shape [%{{.*}}, 4, 32] : tensor<?x128xf32> into tensor<?x4x32xf32>
func.func @reshape_carried_dims(%x: tensor<?x?x128xf32>, %y: tensor<?x128xf32>) -> (tensor<?x?x128xf32>, tensor<?x4x32xf32>) {
  %0 = relay.reshape %x {newshape = array<i64: 0, 0, 2, 64>} : (tensor<?x?x128xf32>) -> tensor<?x?x2x64xf32>
  %1 = relay.reshape %0 {newshape = array<i64: 0, 0, 128>} : (tensor<?x?x2x64xf32>) -> tensor<?x?x128xf32>
  %s = relay.shape_of %y {dtype = i64} : (tensor<?x128xf32>) -> tensor<2xi64>
  %c0 = relay.constant dense<[0]> : tensor<1xi64>
  %d = relay.take %s, %c0 {axis = 0 : i64} : (tensor<2xi64>, tensor<1xi64>) -> tensor<1xi64>
  %k = relay.constant dense<[4, 32]> : tensor<2xi64>
  %n = relay.concatenate %d, %k {axis = 0 : i64} : (tensor<1xi64>, tensor<2xi64>) -> tensor<3xi64>
  %2 = relay.dyn.reshape %y, %n : (tensor<?x128xf32>, tensor<3xi64>) -> tensor<?x4x32xf32>
  return %1, %2 : tensor<?x?x128xf32>, tensor<?x4x32xf32>
}
