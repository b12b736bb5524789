// RUN: relay-mlir-opt %s --convert-relay-to-linalg | FileCheck %s
// Lowering of the shape-transform and tensor-creation operators.

// CHECK-DAG: #[[REV:.*]] = affine_map<(d0, d1) -> (d0, -d1 + 2)>
// CHECK-DAG: #[[ID2:.*]] = affine_map<(d0, d1) -> (d0, d1)>
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
// Negative stride: a positive-stride slice, then reversed with an affine map.
// CHECK: tensor.extract_slice %{{.*}}[0, 1] [3, 3] [2, 2] : tensor<5x6xf32> to tensor<3x3xf32>
// CHECK: linalg.generic {indexing_maps = [#[[REV]], #[[ID2]]]
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

// CHECK-LABEL: func.func @full(
// CHECK: %[[V:.*]] = tensor.extract %{{.*}}[] : tensor<f32>
// CHECK: %[[I:.*]] = arith.fptosi %[[V]] : f32 to i32
// CHECK: linalg.fill ins(%[[I]] : i32) outs(%{{.*}} : tensor<3xi32>)
func.func @full(%v: tensor<f32>) -> tensor<3xi32> {
  %0 = relay.full %v {shape = array<i64: 3>, dtype = i32} : (tensor<f32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
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
