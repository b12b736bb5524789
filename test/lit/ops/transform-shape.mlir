// RUN: relay-mlir-opt %s | relay-mlir-opt | FileCheck %s
// Round trip of the shape-transform and tensor-creation operators; the
// declared result types are checked by the relations.

// CHECK-LABEL: func.func @reshape_like
func.func @reshape_like(%x: tensor<1x2x3x4xf32>, %s: tensor<6x2x2x3xf32>, %d: tensor<?x6xf32>) {
  // CHECK: relay.reshape_like %{{.*}}, %{{.*}} {lhs_begin = 1 : i64, rhs_end = 3 : i64} : (tensor<1x2x3x4xf32>, tensor<6x2x2x3xf32>) -> tensor<1x6x2x2xf32>
  %0 = relay.reshape_like %x, %s {lhs_begin = 1 : i64, rhs_end = 3 : i64} : (tensor<1x2x3x4xf32>, tensor<6x2x2x3xf32>) -> tensor<1x6x2x2xf32>
  // CHECK: relay.reshape_like {{.*}} -> tensor<6x2x2xf32>
  %1 = relay.reshape_like %x, %s {rhs_end = -1 : i64} : (tensor<1x2x3x4xf32>, tensor<6x2x2x3xf32>) -> tensor<6x2x2xf32>
  // CHECK: relay.reshape_like {{.*}} -> tensor<?x6xf32>
  %2 = relay.reshape_like %x, %d : (tensor<1x2x3x4xf32>, tensor<?x6xf32>) -> tensor<?x6xf32>
  return
}

// CHECK-LABEL: func.func @squeeze_expand
func.func @squeeze_expand(%x: tensor<1x3x1xf32>, %d: tensor<?x3xf32>) {
  // CHECK: relay.squeeze %{{.*}} : (tensor<1x3x1xf32>) -> tensor<3xf32>
  %0 = relay.squeeze %x : (tensor<1x3x1xf32>) -> tensor<3xf32>
  // CHECK: relay.squeeze %{{.*}} {axis = array<i64: -1>} : (tensor<1x3x1xf32>) -> tensor<1x3xf32>
  %1 = relay.squeeze %x {axis = array<i64: -1>} : (tensor<1x3x1xf32>) -> tensor<1x3xf32>
  // A `?` dim may be squeezed by axis (it is 1 at run time).
  // CHECK: relay.squeeze {{.*}} -> tensor<3xf32>
  %2 = relay.squeeze %d {axis = array<i64: 0>} : (tensor<?x3xf32>) -> tensor<3xf32>
  // CHECK: relay.expand_dims %{{.*}} {axis = 1 : i64, num_newaxis = 2 : i64} : (tensor<?x3xf32>) -> tensor<?x1x1x3xf32>
  %3 = relay.expand_dims %d {axis = 1 : i64, num_newaxis = 2 : i64} : (tensor<?x3xf32>) -> tensor<?x1x1x3xf32>
  // CHECK: relay.expand_dims {{.*}} -> tensor<?x3x1xf32>
  %4 = relay.expand_dims %d {axis = -1 : i64} : (tensor<?x3xf32>) -> tensor<?x3x1xf32>
  // CHECK: relay.expand_dims {{.*}} -> tensor<?x3xf32>
  %5 = relay.expand_dims %d {axis = 0 : i64, num_newaxis = 0 : i64} : (tensor<?x3xf32>) -> tensor<?x3xf32>
  return
}

// CHECK-LABEL: func.func @stack_split
func.func @stack_split(%a: tensor<2x3xf32>, %b: tensor<?x3xf32>, %x: tensor<4x6xi32>, %d: tensor<?x6xi32>) {
  // CHECK: relay.stack %{{.*}}, %{{.*}} {axis = -1 : i64} : (tensor<2x3xf32>, tensor<?x3xf32>) -> tensor<2x3x2xf32>
  %0 = relay.stack %a, %b {axis = -1 : i64} : (tensor<2x3xf32>, tensor<?x3xf32>) -> tensor<2x3x2xf32>
  // CHECK: relay.stack {{.*}} -> tensor<3x2x3xf32>
  %1 = relay.stack %a, %a, %a : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<3x2x3xf32>
  // CHECK: relay.split %{{.*}} {axis = 1 : i64, indices_or_sections = 3 : i64} : (tensor<4x6xi32>) -> tuple<tensor<4x2xi32>, tensor<4x2xi32>, tensor<4x2xi32>>
  %2 = relay.split %x {indices_or_sections = 3 : i64, axis = 1 : i64} : (tensor<4x6xi32>) -> tuple<tensor<4x2xi32>, tensor<4x2xi32>, tensor<4x2xi32>>
  // CHECK: relay.split %{{.*}} {axis = -1 : i64, indices_or_sections = array<i64: 1, 4>} : (tensor<4x6xi32>) -> tuple<tensor<4x1xi32>, tensor<4x3xi32>, tensor<4x2xi32>>
  %3 = relay.split %x {indices_or_sections = array<i64: 1, 4>, axis = -1 : i64} : (tensor<4x6xi32>) -> tuple<tensor<4x1xi32>, tensor<4x3xi32>, tensor<4x2xi32>>
  // CHECK: relay.split {{.*}} -> tuple<tensor<?x6xi32>, tensor<?x6xi32>>
  %4 = relay.split %d {indices_or_sections = 2 : i64} : (tensor<?x6xi32>) -> tuple<tensor<?x6xi32>, tensor<?x6xi32>>
  // CHECK: relay.split {{.*}} -> tuple<tensor<2x6xi32>, tensor<?x6xi32>>
  %5 = relay.split %d {indices_or_sections = array<i64: 2>} : (tensor<?x6xi32>) -> tuple<tensor<2x6xi32>, tensor<?x6xi32>>
  return
}

// CHECK-LABEL: func.func @strided_slice
func.func @strided_slice(%x: tensor<3x4xf32>, %d: tensor<?x4xf32>) {
  // CHECK: relay.strided_slice %{{.*}} {begin = array<i64: 0, 1>, end = array<i64: 2, 4>} : (tensor<3x4xf32>) -> tensor<2x3xf32>
  %0 = relay.strided_slice %x {begin = array<i64: 0, 1>, end = array<i64: 2, 4>} : (tensor<3x4xf32>) -> tensor<2x3xf32>
  // Negative indices, clamping and strides.
  // CHECK: relay.strided_slice {{.*}} -> tensor<3x2xf32>
  %1 = relay.strided_slice %x {begin = array<i64: -5, -1>, end = array<i64: 100, -9>, strides = array<i64: 1, -2>} : (tensor<3x4xf32>) -> tensor<3x2xf32>
  // Only some dims (axes); slice_mode "size" with -1.
  // CHECK: relay.strided_slice {{.*}} -> tensor<3x3xf32>
  %2 = relay.strided_slice %x {begin = array<i64: 1>, end = array<i64: -1>, axes = array<i64: 1>, slice_mode = "size"} : (tensor<3x4xf32>) -> tensor<3x3xf32>
  // CHECK: relay.strided_slice {{.*}} -> tensor<?x2xf32>
  %3 = relay.strided_slice %d {begin = array<i64: 1, 0>, end = array<i64: -1, 4>, strides = array<i64: 1, 2>} : (tensor<?x4xf32>) -> tensor<?x2xf32>
  return
}

// CHECK-LABEL: func.func @tile_repeat_reverse
func.func @tile_repeat_reverse(%x: tensor<2x3xf32>, %d: tensor<?x3xi8>) {
  // CHECK: relay.tile %{{.*}} {reps = array<i64: 2, 1, 2>} : (tensor<2x3xf32>) -> tensor<2x2x6xf32>
  %0 = relay.tile %x {reps = array<i64: 2, 1, 2>} : (tensor<2x3xf32>) -> tensor<2x2x6xf32>
  // CHECK: relay.tile {{.*}} -> tensor<?x6xi8>
  %1 = relay.tile %d {reps = array<i64: 2>} : (tensor<?x3xi8>) -> tensor<?x6xi8>
  // CHECK: relay.repeat %{{.*}} {axis = 0 : i64, repeats = 3 : i64} : (tensor<2x3xf32>) -> tensor<6x3xf32>
  %2 = relay.repeat %x {repeats = 3 : i64, axis = 0 : i64} : (tensor<2x3xf32>) -> tensor<6x3xf32>
  // CHECK: relay.repeat {{.*}} -> tensor<?x3xi8>
  %3 = relay.repeat %d {repeats = 2 : i64, axis = -2 : i64} : (tensor<?x3xi8>) -> tensor<?x3xi8>
  // CHECK: relay.reverse %{{.*}} {axis = -1 : i64} : (tensor<?x3xi8>) -> tensor<?x3xi8>
  %4 = relay.reverse %d {axis = -1 : i64} : (tensor<?x3xi8>) -> tensor<?x3xi8>
  return
}

// CHECK-LABEL: func.func @broadcast
func.func @broadcast(%x: tensor<3x1xf32>, %l: tensor<2x3x4xf32>, %ld: tensor<?x3x4xf32>, %g: tensor<2x3x4xf32>) {
  // CHECK: relay.broadcast_to %{{.*}} {shape = array<i64: 2, 3, 4>} : (tensor<3x1xf32>) -> tensor<2x3x4xf32>
  %0 = relay.broadcast_to %x {shape = array<i64: 2, 3, 4>} : (tensor<3x1xf32>) -> tensor<2x3x4xf32>
  // CHECK: relay.broadcast_to_like %{{.*}}, %{{.*}} : (tensor<3x1xf32>, tensor<?x3x4xf32>) -> tensor<?x3x4xf32>
  %1 = relay.broadcast_to_like %x, %ld : (tensor<3x1xf32>, tensor<?x3x4xf32>) -> tensor<?x3x4xf32>
  // CHECK: relay.collapse_sum_like %{{.*}}, %{{.*}} : (tensor<2x3x4xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
  %2 = relay.collapse_sum_like %g, %x : (tensor<2x3x4xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
  return
}

// CHECK-LABEL: func.func @creation
func.func @creation(%v: tensor<f32>, %x: tensor<?x3xi32>, %i: tensor<i64>) {
  // CHECK: relay.zeros {dtype = f32, shape = array<i64: 2, 3>} : () -> tensor<2x3xf32>
  %0 = relay.zeros {shape = array<i64: 2, 3>, dtype = f32} : () -> tensor<2x3xf32>
  // CHECK: relay.ones {dtype = i1, shape = array<i64>} : () -> tensor<i1>
  %1 = relay.ones {shape = array<i64>, dtype = i1} : () -> tensor<i1>
  // CHECK: relay.full %{{.*}} {dtype = i32, shape = array<i64: 4>} : (tensor<f32>) -> tensor<4xi32>
  %2 = relay.full %v {shape = array<i64: 4>, dtype = i32} : (tensor<f32>) -> tensor<4xi32>
  // dtype absent: the fill value's.
  // CHECK: relay.full %{{.*}} {shape = array<i64: 4>} : (tensor<f32>) -> tensor<4xf32>
  %3 = relay.full %v {shape = array<i64: 4>} : (tensor<f32>) -> tensor<4xf32>
  // CHECK: relay.zeros_like %{{.*}} : (tensor<?x3xi32>) -> tensor<?x3xi32>
  %4 = relay.zeros_like %x : (tensor<?x3xi32>) -> tensor<?x3xi32>
  // CHECK: relay.ones_like %{{.*}} : (tensor<?x3xi32>) -> tensor<?x3xi32>
  %5 = relay.ones_like %x : (tensor<?x3xi32>) -> tensor<?x3xi32>
  // CHECK: relay.full_like %{{.*}}, %{{.*}} : (tensor<?x3xi32>, tensor<f32>) -> tensor<?x3xi32>
  %6 = relay.full_like %x, %v : (tensor<?x3xi32>, tensor<f32>) -> tensor<?x3xi32>
  return
}

// CHECK-LABEL: func.func @arange
func.func @arange(%stop: tensor<f32>, %n: tensor<i64>) {
  %start = relay.constant dense<1.0> : tensor<f32>
  %five = relay.constant dense<5.0> : tensor<f32>
  %step = relay.constant dense<1.5> : tensor<f32>
  // Constant start/stop/step: ceil((5 - 1) / 1.5) = 3 elements.
  // CHECK: relay.arange %{{.*}}, %{{.*}}, %{{.*}} {dtype = f32} : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<3xf32>
  %0 = relay.arange %start, %five, %step {dtype = f32} : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<3xf32>
  // A non-constant bound: `?` elements.
  // CHECK: relay.arange {{.*}} -> tensor<?xf32>
  %1 = relay.arange %start, %stop, %step {dtype = f32} : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<?xf32>
  %z = relay.constant dense<0> : tensor<i64>
  %o = relay.constant dense<1> : tensor<i64>
  // CHECK: relay.arange {{.*}} {dtype = i64} : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  %2 = relay.arange %z, %n, %o {dtype = i64} : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  return
}

// CHECK-LABEL: func.func @layout_transform
func.func @layout_transform(%x: tensor<1x8x2x3xf32>, %p: tensor<1x2x2x3x4xf32>, %d: tensor<?x8x2x3xf32>) {
  // CHECK: relay.layout_transform %{{.*}} {dst_layout = "NHWC", src_layout = "NCHW"} : (tensor<1x8x2x3xf32>) -> tensor<1x2x3x8xf32>
  %0 = relay.layout_transform %x {src_layout = "NCHW", dst_layout = "NHWC"} : (tensor<1x8x2x3xf32>) -> tensor<1x2x3x8xf32>
  // CHECK: relay.layout_transform {{.*}} -> tensor<1x2x2x3x4xf32>
  %1 = relay.layout_transform %x {src_layout = "NCHW", dst_layout = "NCHW4c"} : (tensor<1x8x2x3xf32>) -> tensor<1x2x2x3x4xf32>
  // CHECK: relay.layout_transform {{.*}} -> tensor<1x2x3x8xf32>
  %2 = relay.layout_transform %p {src_layout = "NCHW4c", dst_layout = "NHWC"} : (tensor<1x2x2x3x4xf32>) -> tensor<1x2x3x8xf32>
  // CHECK: relay.layout_transform {{.*}} -> tensor<1x4x2x3x2xf32>
  %3 = relay.layout_transform %p {src_layout = "NCHW4c", dst_layout = "NCHW2c"} : (tensor<1x2x2x3x4xf32>) -> tensor<1x4x2x3x2xf32>
  // CHECK: relay.layout_transform {{.*}} -> tensor<?x2x3x8xf32>
  %4 = relay.layout_transform %d {src_layout = "NCHW", dst_layout = "NHWC"} : (tensor<?x8x2x3xf32>) -> tensor<?x2x3x8xf32>
  return
}

// CHECK-LABEL: func.func @einsum
func.func @einsum(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>, %q: tensor<2x8x6x16xf16>, %k: tensor<2x8x7x16xf16>, %v: tensor<2x8x7x16xf16>, %s: tensor<2x8x6x7xf16>, %m: tensor<?x4xf32>) {
  // CHECK: relay.einsum %{{.*}}, %{{.*}} {equation = "bij,bjk->bik"} : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  %0 = relay.einsum %a, %b {equation = "bij,bjk->bik"} : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  // CHECK: relay.einsum {{.*}} -> tensor<2x8x6x7xf16>
  %1 = relay.einsum %q, %k {equation = "bhqd,bhkd->bhqk"} : (tensor<2x8x6x16xf16>, tensor<2x8x7x16xf16>) -> tensor<2x8x6x7xf16>
  // CHECK: relay.einsum {{.*}} -> tensor<2x8x6x16xf16>
  %2 = relay.einsum %s, %v {equation = "bhqk,bhkd->bhqd"} : (tensor<2x8x6x7xf16>, tensor<2x8x7x16xf16>) -> tensor<2x8x6x16xf16>
  // Implicit output (letters used once, sorted), ellipsis, reduction, transpose.
  // CHECK: relay.einsum {{.*}} -> tensor<2x3x5xf32>
  %3 = relay.einsum %a, %b {equation = "...ij,...jk"} : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  // CHECK: relay.einsum {{.*}} -> tensor<4xf32>
  %4 = relay.einsum %a {equation = "bij->j"} : (tensor<2x3x4xf32>) -> tensor<4xf32>
  // CHECK: relay.einsum {{.*}} -> tensor<4x?xf32>
  %5 = relay.einsum %m {equation = "ij->ji"} : (tensor<?x4xf32>) -> tensor<4x?xf32>
  return
}
