// RUN: relay-mlir-opt %s -convert-relay-to-linalg | FileCheck %s

// CHECK-LABEL: func.func @shape_of
func.func @shape_of(%x: tensor<?x3xf32>) -> (tensor<2xi64>, tensor<i32>) {
  // CHECK: %[[D:.+]] = tensor.dim %{{.+}}, %c0
  // CHECK: arith.index_cast %[[D]] : index to i64
  // CHECK: tensor.from_elements %{{.+}}, %{{.+}} : tensor<2xi64>
  %s = relay.shape_of %x {dtype = i64} : (tensor<?x3xf32>) -> tensor<2xi64>
  // CHECK: arith.muli
  // CHECK: tensor.from_elements %{{.+}} : tensor<i32>
  %n = relay.ndarray_size %x : (tensor<?x3xf32>) -> tensor<i32>
  return %s, %n : tensor<2xi64>, tensor<i32>
}

// CHECK-LABEL: func.func @reshape
func.func @reshape(%x: tensor<?x3xf32>, %s: tensor<2xi64>) -> tensor<?x?xf32> {
  // CHECK: tensor.extract %{{.+}}[%{{.+}}] : tensor<2xi64>
  // CHECK: cf.assert %{{.+}}, "relay.dyn.reshape: newshape does not fit
  // CHECK: %[[F:.+]] = tensor.collapse_shape %{{.+}} {{\[\[}}0, 1]] : tensor<?x3xf32> into tensor<?xf32>
  // CHECK: tensor.expand_shape %[[F]] {{\[\[}}0, 1]] output_shape [%{{.+}}, %{{.+}}] : tensor<?xf32> into tensor<?x?xf32>
  %y = relay.dyn.reshape %x, %s : (tensor<?x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

// CHECK-LABEL: func.func @broadcast
func.func @broadcast(%x: tensor<?x1xf32>, %s: tensor<3xi32>) -> tensor<?x?x?xf32> {
  // CHECK: cf.assert %{{.+}}, "relay.dyn.broadcast_to: a dim of data is neither 1 nor the target size [at {{.+}}dynamic.mlir:{{[0-9]+}}:{{[0-9]+}}]"
  // CHECK: linalg.generic
  // CHECK: linalg.index 1
  // CHECK: tensor.extract
  %y = relay.dyn.broadcast_to %x, %s : (tensor<?x1xf32>, tensor<3xi32>) -> tensor<?x?x?xf32>
  return %y : tensor<?x?x?xf32>
}

// CHECK-LABEL: func.func @fills
func.func @fills(%s: tensor<2xi64>, %v: tensor<f32>) -> (tensor<?x?xi8>, tensor<?x?xf32>, tensor<?x?xf32>) {
  // CHECK: tensor.empty(%{{.+}}, %{{.+}}) : tensor<?x?xi8>
  // CHECK: linalg.fill
  %z = relay.dyn.zeros %s {dtype = i8} : (tensor<2xi64>) -> tensor<?x?xi8>
  // CHECK: linalg.fill
  %o = relay.dyn.ones %s {dtype = f32} : (tensor<2xi64>) -> tensor<?x?xf32>
  // CHECK: linalg.fill
  %f = relay.dyn.full %v, %s : (tensor<f32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %z, %o, %f : tensor<?x?xi8>, tensor<?x?xf32>, tensor<?x?xf32>
}

// A static result dim (from the shape's known entries) is a constant size,
// checked at run time against the entry; fills check for negative entries
// and more than 2^40 elements.
// CHECK-LABEL: func.func @static_dims
func.func @static_dims(%x: tensor<?x128xf32>, %s: tensor<3xi64>) -> (tensor<?x2x64xf32>, tensor<?x?x32xf32>) {
  // CHECK: cf.assert %{{.+}}, "relay.dyn.reshape: shape entry 1 is not 2, the size its type was given at compile time
  // CHECK: cf.assert %{{.+}}, "relay.dyn.reshape: shape entry 2 is not 64, the size its type was given at compile time
  // CHECK: tensor.expand_shape %{{.+}} {{\[\[}}0, 1, 2]] output_shape [%{{.+}}, 2, 64] : tensor<?xf32> into tensor<?x2x64xf32>
  %y = relay.dyn.reshape %x, %s : (tensor<?x128xf32>, tensor<3xi64>) -> tensor<?x2x64xf32>
  // CHECK: cf.assert %{{.+}}, "relay.dyn.zeros: a shape entry is negative or the shape has more than 2^40 elements
  // CHECK: cf.assert %{{.+}}, "relay.dyn.zeros: shape entry 2 is not 32
  // CHECK: tensor.empty(%{{.+}}, %{{.+}}) : tensor<?x?x32xf32>
  %z = relay.dyn.zeros %s {dtype = f32} : (tensor<3xi64>) -> tensor<?x?x32xf32>
  return %y, %z : tensor<?x2x64xf32>, tensor<?x?x32xf32>
}

// Shape values (small static integer vectors) stay scalars: take at constant
// indices, concatenate and reshape become tensor.extract + from_elements,
// which fold back to the tensor.dim they came from.
// CHECK-LABEL: func.func @shape_values
func.func @shape_values(%x: tensor<?x?x4xf32>) -> tensor<3xi64> {
  // CHECK-NOT: linalg.generic
  // CHECK-NOT: tensor.concat
  // CHECK: tensor.from_elements %{{.+}}, %{{.+}}, %{{.+}} : tensor<3xi64>
  %s = relay.shape_of %x {dtype = i64} : (tensor<?x?x4xf32>) -> tensor<3xi64>
  %i = relay.constant dense<[1, 0]> : tensor<2xi64>
  %t = relay.take %s, %i {axis = 0 : i64} : (tensor<3xi64>, tensor<2xi64>) -> tensor<2xi64>
  %j = relay.constant dense<2> : tensor<i64>
  %u = relay.take %s, %j {axis = 0 : i64} : (tensor<3xi64>, tensor<i64>) -> tensor<i64>
  %u1 = relay.reshape %u {newshape = array<i64: 1>} : (tensor<i64>) -> tensor<1xi64>
  %c = relay.concatenate %t, %u1 : (tensor<2xi64>, tensor<1xi64>) -> tensor<3xi64>
  return %c : tensor<3xi64>
}

// arange with run-time bounds: a step of 0 or too many elements is a
// run-time error (never a division by zero or a huge allocation).
// CHECK-LABEL: func.func @arange_checked
func.func @arange_checked(%n: tensor<i64>, %d: tensor<i64>) -> tensor<?xi64> {
  %z = relay.constant dense<0> : tensor<i64>
  // CHECK: cf.assert %{{.+}}, "relay.arange: the step is 0, a bound is not finite or the result has more than 2^40 elements
  // CHECK: arith.ceildivui
  %r = relay.arange %z, %n, %d {dtype = i64} : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  return %r : tensor<?xi64>
}

// arange(0, a dim, 1) (position ids from a shape): its length is the dim
// itself, so the add below has provably equal sizes (no run-time
// broadcast check, plain indexing maps).
// CHECK-LABEL: func.func @arange_of_a_size
// CHECK-SAME: (%[[X:.+]]: tensor<?xi64>)
// CHECK-NOT: cf.assert
// CHECK: %[[D:.+]] = tensor.dim %[[X]], %{{.+}} : tensor<?xi64>
// CHECK: tensor.empty(%[[D]]) : tensor<?xi64>
// CHECK-NOT: cf.assert
// CHECK: linalg.generic {indexing_maps = [#{{.+}}, #{{.+}}, #{{.+}}]
// CHECK: arith.addi
func.func @arange_of_a_size(%x: tensor<?xi64>) -> tensor<?xi64> {
  %z = relay.constant dense<0> : tensor<i64>
  %one = relay.constant dense<1> : tensor<i64>
  %s = relay.shape_of %x {dtype = i64} : (tensor<?xi64>) -> tensor<1xi64>
  %j = relay.constant dense<0> : tensor<i64>
  %n = relay.take %s, %j {axis = 0 : i64} : (tensor<1xi64>, tensor<i64>) -> tensor<i64>
  %r = relay.arange %z, %n, %one {dtype = i64} : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  %y = relay.add %x, %r : (tensor<?xi64>, tensor<?xi64>) -> tensor<?xi64>
  return %y : tensor<?xi64>
}

// -----

// Found by fuzz/mlir_mutate.py (seed 40): a declared shape_of result less
// precise than its rule's (`?` for the rank) made the lowering ask a dynamic
// type for its element count (assertion). The exact vector is cast.
// CHECK-LABEL: func.func @shape_of_declared_dynamic
// CHECK:         %[[S:.*]] = tensor.from_elements %{{.*}}, %{{.*}} : tensor<2xi64>
// CHECK:         tensor.cast %[[S]] : tensor<2xi64> to tensor<?xi64>
func.func @shape_of_declared_dynamic(%x: tensor<?x3xf32>) -> tensor<?xi64> {
  %s = relay.shape_of %x {dtype = i64} : (tensor<?x3xf32>) -> tensor<?xi64>
  return %s : tensor<?xi64>
}

// Small bool tensors are not shape values: IREE 3.13 stores i1 tensors as
// i8 and rejects a tensor.from_elements of i1 scalars into one
// (random-program fuzzer, seed 3 programs 168, 445, 636).
// CHECK-LABEL: func.func @bool_reshape
// CHECK-NOT: tensor.from_elements
// CHECK: return
func.func @bool_reshape(%x: tensor<i1>) -> tensor<1xi1> {
  %r = relay.reshape %x {newshape = array<i64: 1>} : (tensor<i1>) -> tensor<1xi1>
  return %r : tensor<1xi1>
}

// dyn.reshape of a `?` input to a result whose dims are all known: the
// flattened input is cast to the result's count before expanding (an
// expand_shape of `?` into static dims fails to verify; ONNX node test
// attention_4d_gqa_causal_nonpad_decode_expanded).
// CHECK-LABEL: func.func @dyn_reshape_to_static
// CHECK: tensor.cast %{{.*}} : tensor<?xf32> to tensor<64xf32>
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0, 1, 2]] output_shape [8, 1, 8] : tensor<64xf32> into tensor<8x1x8xf32>
func.func @dyn_reshape_to_static(%x: tensor<8x?x8xf32>) -> tensor<8x1x8xf32> {
  %s = relay.constant dense<[8, 1, 8]> : tensor<3xi64>
  %y = relay.dyn.reshape %x, %s : (tensor<8x?x8xf32>, tensor<3xi64>) -> tensor<8x1x8xf32>
  return %y : tensor<8x1x8xf32>
}

// dyn.strided_slice: begin/end/stride read on the host, clamped as the
// static op clamps, stride 0 refused at run time; one gather over the result.
// CHECK-LABEL: func.func @dyn_strided_slice
func.func @dyn_strided_slice(%x: tensor<4x5xf32>, %b: tensor<1xi64>, %s: tensor<1xi32>) -> tensor<?x5xf32> {
  // CHECK: cf.assert %{{.+}}, "relay.dyn.strided_slice: a stride is 0 [at {{.+}}dynamic.mlir:{{[0-9]+}}:{{[0-9]+}}]"
  // CHECK: arith.ceildivsi
  // CHECK: %[[E:.+]] = tensor.empty(%{{.+}}) : tensor<?x5xf32>
  // CHECK: linalg.generic {{.*}} outs(%[[E]] : tensor<?x5xf32>)
  // CHECK: tensor.extract %{{.+}}[%{{.+}}, %{{.+}}] : tensor<4x5xf32>
  %0 = relay.dyn.strided_slice %x, %b, %b, %s : (tensor<4x5xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi32>) -> tensor<?x5xf32>
  return %0 : tensor<?x5xf32>
}

// strided_set: the slice's bounds as dyn.strided_slice's, v's dims checked
// against them; constant positive strides: one tensor.insert_slice (in place
// in IREE where the data dies); run-time strides: a select per element.
// CHECK-LABEL: func.func @strided_set_unit_strides
func.func @strided_set_unit_strides(%x: tensor<?x5xf32>, %v: tensor<1x5xf32>, %b: tensor<1xi64>) -> tensor<?x5xf32> {
  // CHECK: cf.assert %{{.+}}, "relay.strided_set: v's dim 0 is not the size of the slice
  // CHECK: tensor.insert_slice %arg1 into %arg0[%{{.+}}, 0] [1, 5] [1, 1] : tensor<1x5xf32> into tensor<?x5xf32>
  // CHECK-NOT: linalg.generic
  %s = relay.constant dense<1> : tensor<1xi64>
  %0 = relay.strided_set %x, %v, %b, %b, %s : (tensor<?x5xf32>, tensor<1x5xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x5xf32>
  return %0 : tensor<?x5xf32>
}
// CHECK-LABEL: func.func @strided_set_runtime_strides
func.func @strided_set_runtime_strides(%x: tensor<4x5xf32>, %v: tensor<?x5xf32>, %b: tensor<1xi64>, %s: tensor<1xi32>) -> tensor<4x5xf32> {
  // CHECK: cf.assert %{{.+}}, "relay.strided_set: a stride is 0
  // CHECK: linalg.generic
  // CHECK: arith.divsi
  // CHECK: tensor.extract %arg1
  // CHECK: arith.select
  %0 = relay.strided_set %x, %v, %b, %b, %s : (tensor<4x5xf32>, tensor<?x5xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// dyn.tile: repeats checked, then a gather at i mod the data dim.
// CHECK-LABEL: func.func @dyn_tile
func.func @dyn_tile(%x: tensor<4x5xf32>, %r: tensor<2xi64>) -> tensor<?x?xf32> {
  // CHECK: cf.assert %{{.+}}, "relay.dyn.tile: a shape entry is negative or the shape has more than 2^40 elements
  // CHECK: linalg.generic
  // CHECK: arith.remui
  %0 = relay.dyn.tile %x, %r : (tensor<4x5xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// dyn.nn.pad "constant": negative widths crop (extract_slice), the rest is
// tensor.pad; "edge" is nn.pad's gather at clamped indices.
// CHECK-LABEL: func.func @dyn_pad
func.func @dyn_pad(%x: tensor<4x5xf32>, %w: tensor<2x2xi64>, %v: tensor<f32>) -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  // CHECK: cf.assert %{{.+}}, "relay.dyn.nn.pad: a shape entry is negative or the shape has more than 2^40 elements
  // CHECK: cf.assert %{{.+}}, "relay.dyn.nn.pad: negative pad widths crop more than the dim
  // CHECK: %[[C:.+]] = tensor.extract_slice %{{.+}}[%{{.+}}, %{{.+}}] [%{{.+}}, %{{.+}}] [1, 1] : tensor<4x5xf32> to tensor<?x?xf32>
  // CHECK: tensor.pad %[[C]] low[%{{.+}}, %{{.+}}] high[%{{.+}}, %{{.+}}]
  %0 = relay.dyn.nn.pad %x, %w, %v : (tensor<4x5xf32>, tensor<2x2xi64>, tensor<f32>) -> tensor<?x?xf32>
  // CHECK: cf.assert %{{.+}}, "relay.dyn.nn.pad: edge or reflect padding of an empty dim
  // CHECK: linalg.generic
  // CHECK: arith.minsi
  // CHECK: tensor.extract %{{.+}}[%{{.+}}, %{{.+}}] : tensor<4x5xf32>
  %1 = relay.dyn.nn.pad %x, %w, %v {pad_mode = "edge"} : (tensor<4x5xf32>, tensor<2x2xi64>, tensor<f32>) -> tensor<?x?xf32>
  return %0, %1 : tensor<?x?xf32>, tensor<?x?xf32>
}

// dyn.one_hot: one_hot's generic over a run-time depth.
// CHECK-LABEL: func.func @dyn_one_hot
func.func @dyn_one_hot(%i: tensor<3xi32>, %v: tensor<f32>, %d: tensor<i32>) -> tensor<3x?xf32> {
  // CHECK: %[[D:.+]] = arith.index_cast %{{.+}} : i32 to index
  // CHECK: cf.assert
  // CHECK: tensor.empty(%[[D]]) : tensor<3x?xf32>
  // CHECK: linalg.generic
  %0 = relay.dyn.one_hot %i, %v, %v, %d {dtype = f32} : (tensor<3xi32>, tensor<f32>, tensor<f32>, tensor<i32>) -> tensor<3x?xf32>
  return %0 : tensor<3x?xf32>
}

// dyn.squeeze / dyn.expand_dims: the new shape computed on the host, then a
// reshape through 1-d.
// CHECK-LABEL: func.func @dyn_squeeze_expand
func.func @dyn_squeeze_expand(%x: tensor<1x5xf32>, %a: tensor<1xi64>, %e: tensor<i64>) -> (tensor<?xf32>, tensor<?x?x?xf32>) {
  // CHECK: cf.assert %{{.+}}, "relay.dyn.squeeze: an axis is out of range
  // CHECK: cf.assert %{{.+}}, "relay.dyn.squeeze: an axis is given twice or a squeezed dim is not 1
  // CHECK: tensor.collapse_shape %{{.+}} {{\[\[}}0, 1]] : tensor<1x5xf32> into tensor<5xf32>
  %0 = relay.dyn.squeeze %x, %a : (tensor<1x5xf32>, tensor<1xi64>) -> tensor<?xf32>
  // CHECK: cf.assert %{{.+}}, "relay.dyn.expand_dims: axis is out of range
  // CHECK: tensor.expand_shape %{{.+}} {{\[\[}}0, 1, 2]] output_shape [%{{.+}}, %{{.+}}, %{{.+}}] : tensor<?xf32> into tensor<?x?x?xf32>
  %1 = relay.dyn.expand_dims %x, %e : (tensor<1x5xf32>, tensor<i64>) -> tensor<?x?x?xf32>
  return %0, %1 : tensor<?xf32>, tensor<?x?x?xf32>
}

// dyn.topk: k checked against the axis, then topk's ranks and a gather of
// the first k.
// CHECK-LABEL: func.func @dyn_topk
func.func @dyn_topk(%x: tensor<4x5xf32>, %k: tensor<i64>) -> tensor<4x?xi32> {
  // CHECK: %[[K:.+]] = arith.index_cast %{{.+}} : i64 to index
  // CHECK: cf.assert %{{.+}}, "relay.dyn.topk: k is not in [0, the axis size]
  // CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
  // CHECK: tensor.empty(%[[K]]) : tensor<4x?xi32>
  %0 = relay.dyn.topk %x, %k {ret_type = "indices"} : (tensor<4x5xf32>, tensor<i64>) -> tensor<4x?xi32>
  return %0 : tensor<4x?xi32>
}

// dyn.reshape to the same shape but for one dynamic dim (a recurrent
// state reshaped to the loop parameter's run-time shape, an ONNX input
// given another's size of the same dim name): after the count check that
// dim agrees too, so the data does not move: a same-type tensor.reshape
// to the requested sizes (marked relay.sizes_only), through which later ops
// prove their sizes equal (relay-drop-size-reshapes removes it once
// relay-unswitch-loops has read it; no trip through 1-D).
// CHECK-LABEL: func.func @dyn_reshape_same_shape
func.func @dyn_reshape_same_shape(%x: tensor<?x32xf32>, %s: tensor<2xi64>) -> tensor<?x32xf32> {
  // CHECK: cf.assert %{{.+}}, "relay.dyn.reshape: newshape does not fit
  // CHECK: %[[S:.+]] = tensor.from_elements %{{.+}}, %{{.+}} : tensor<2xindex>
  // CHECK-NEXT: %[[R:.+]] = tensor.reshape %arg0(%[[S]]) {relay.sizes_only} : (tensor<?x32xf32>, tensor<2xindex>) -> tensor<?x32xf32>
  // CHECK-NEXT: return %[[R]] : tensor<?x32xf32>
  %0 = relay.dyn.reshape %x, %s : (tensor<?x32xf32>, tensor<2xi64>) -> tensor<?x32xf32>
  return %0 : tensor<?x32xf32>
}

// Reshapes whose run-time sizes are products of the input's dims regroup
// dims (symbolic sizes, SymbolicSizes.h): [B, 2, S, 64] -> [-1, S, 64] is
// one collapse_shape (B * 2), and back [B, 2, S, 64] from those dims one
// expand_shape, never a trip through 1-D; the -1 is checked not to stand
// beside a 0 entry (then it would be ambiguous).
// CHECK-LABEL: func.func @dyn_reshape_symbolic
// CHECK-SAME: (%[[X:.+]]: tensor<?x2x?x64xf32>)
// CHECK: cf.assert %{{.+}}, "relay.dyn.reshape: newshape has -1 beside a 0 entry
// CHECK-NOT: into tensor<?xf32>
// CHECK: %[[C:.+]] = tensor.collapse_shape %[[X]] {{\[\[}}0, 1], [2], [3]] : tensor<?x2x?x64xf32> into tensor<?x?x64xf32>
// CHECK-NOT: into tensor<?xf32>
// CHECK: tensor.expand_shape %[[C]] {{\[\[}}0, 1], [2], [3]] output_shape [%{{.+}}, 2, %{{.+}}, 64] : tensor<?x?x64xf32> into tensor<?x2x?x64xf32>
func.func @dyn_reshape_symbolic(%arg0: tensor<?x2x?x64xf32>) -> tensor<?x2x?x64xf32> {
  %0 = relay.constant dense<-1> : tensor<1xi64>
  %1 = relay.shape_of %arg0 {dtype = i64} : (tensor<?x2x?x64xf32>) -> tensor<4xi64>
  %2 = relay.constant dense<2> : tensor<1xi32>
  %3 = relay.take %1, %2 : (tensor<4xi64>, tensor<1xi32>) -> tensor<1xi64>
  %4 = relay.constant dense<64> : tensor<1xi64>
  %5 = relay.concatenate %0, %3, %4 : (tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<3xi64>
  %6 = relay.dyn.reshape %arg0, %5 {allowzero = true} : (tensor<?x2x?x64xf32>, tensor<3xi64>) -> tensor<?x?x64xf32>
  %7 = relay.constant dense<0> : tensor<1xi32>
  %8 = relay.take %1, %7 : (tensor<4xi64>, tensor<1xi32>) -> tensor<1xi64>
  %9 = relay.constant dense<2> : tensor<1xi64>
  %10 = relay.concatenate %8, %9, %3, %4 : (tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<4xi64>
  %11 = relay.dyn.reshape %6, %10 {allowzero = true} : (tensor<?x?x64xf32>, tensor<4xi64>) -> tensor<?x2x?x64xf32>
  return %11 : tensor<?x2x?x64xf32>
}

// Sizes that are not products of the input's dims (here S and B swapped)
// still go through 1-D, with the element count checked.
// CHECK-LABEL: func.func @dyn_reshape_not_regrouped
// CHECK: cf.assert %{{.+}}, "relay.dyn.reshape: newshape does not fit
// CHECK: tensor.collapse_shape %{{.+}} {{\[\[}}0, 1]] : tensor<?x?xf32> into tensor<?xf32>
func.func @dyn_reshape_not_regrouped(%arg0: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %1 = relay.shape_of %arg0 {dtype = i64} : (tensor<?x?xf32>) -> tensor<2xi64>
  %2 = relay.constant dense<[1, 0]> : tensor<2xi32>
  %3 = relay.take %1, %2 : (tensor<2xi64>, tensor<2xi32>) -> tensor<2xi64>
  %4 = relay.dyn.reshape %arg0, %3 {allowzero = true} : (tensor<?x?xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %4 : tensor<?x?xf32>
}
