// RUN: relay-mlir-opt %s -split-input-file -relay-reshape-before-slice | FileCheck %s

// Attention's query/key/value sliced from one projection and split into
// heads: the split moves above the slice (offsets in whole heads).
// CHECK-LABEL: func.func @split_heads
// CHECK: %[[E:.*]] = tensor.expand_shape %arg0 {{\[\[}}0], [1, 2]] output_shape [197, 9, 64] : tensor<197x576xf32> into tensor<197x9x64xf32>
// CHECK: %[[S:.*]] = tensor.extract_slice %[[E]][0, 3, 0] [197, 3, 64] [1, 1, 1] : tensor<197x9x64xf32> to tensor<197x3x64xf32>
// CHECK: return %[[S]]
func.func @split_heads(%arg0: tensor<197x576xf32>) -> tensor<197x3x64xf32> {
  %0 = tensor.extract_slice %arg0[0, 192] [197, 192] [1, 1] : tensor<197x576xf32> to tensor<197x192xf32>
  %1 = tensor.expand_shape %0 [[0], [1, 2]] output_shape [197, 3, 64] : tensor<197x192xf32> into tensor<197x3x64xf32>
  return %1 : tensor<197x3x64xf32>
}

// -----

// A class token taken and flattened: the inner dim is whole, so the merge
// moves above the slice.
// CHECK-LABEL: func.func @first_token
// CHECK: %[[C:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0], [1, 2]] : tensor<2x197x192xf32> into tensor<2x37824xf32>
// CHECK: tensor.extract_slice %[[C]][0, 0] [2, 192] [1, 1] : tensor<2x37824xf32> to tensor<2x192xf32>
func.func @first_token(%arg0: tensor<2x197x192xf32>) -> tensor<2x192xf32> {
  %0 = tensor.extract_slice %arg0[0, 0, 0] [2, 1, 192] [1, 1, 1] : tensor<2x197x192xf32> to tensor<2x1x192xf32>
  %1 = tensor.collapse_shape %0 [[0], [1, 2]] : tensor<2x1x192xf32> into tensor<2x192xf32>
  return %1 : tensor<2x192xf32>
}

// -----

// Left alone: a split whose offset is not a whole number of inner rows, a
// merge whose inner dim is cut, a strided slice, and run-time sizes.
// CHECK-LABEL: func.func @unchanged
// CHECK-COUNT-4: tensor.extract_slice %arg
// CHECK-NOT: tensor.extract_slice %expanded
// CHECK-NOT: tensor.extract_slice %collapsed
func.func @unchanged(%a: tensor<8x12xf32>, %b: tensor<4x6xf32>, %c: tensor<8xf32>, %d: tensor<?x8xf32>, %n: index)
    -> (tensor<8x2x2xf32>, tensor<8xf32>, tensor<2x2xf32>, tensor<?x2x2xf32>) {
  %0 = tensor.extract_slice %a[0, 1] [8, 4] [1, 1] : tensor<8x12xf32> to tensor<8x4xf32>
  %1 = tensor.expand_shape %0 [[0], [1, 2]] output_shape [8, 2, 2] : tensor<8x4xf32> into tensor<8x2x2xf32>
  %2 = tensor.extract_slice %b[0, 1] [4, 2] [1, 1] : tensor<4x6xf32> to tensor<4x2xf32>
  %3 = tensor.collapse_shape %2 [[0, 1]] : tensor<4x2xf32> into tensor<8xf32>
  %4 = tensor.extract_slice %c[0] [4] [2] : tensor<8xf32> to tensor<4xf32>
  %5 = tensor.expand_shape %4 [[0, 1]] output_shape [2, 2] : tensor<4xf32> into tensor<2x2xf32>
  %6 = tensor.extract_slice %d[0, 0] [%n, 4] [1, 1] : tensor<?x8xf32> to tensor<?x4xf32>
  %7 = tensor.expand_shape %6 [[0], [1, 2]] output_shape [%n, 2, 2] : tensor<?x4xf32> into tensor<?x2x2xf32>
  return %1, %3, %5, %7 : tensor<8x2x2xf32>, tensor<8xf32>, tensor<2x2xf32>, tensor<?x2x2xf32>
}

// -----

// Left alone: a slice collapsed to rank 0 (no groups carry its offset) and
// a rank-0 slice expanded (it folds away; fuzz program 13:5's gradient made
// the first).
// CHECK-LABEL: func.func @rank_zero
// CHECK: %[[S:.*]] = tensor.extract_slice %arg0[1] [1] [1]
// CHECK: tensor.collapse_shape %[[S]] [] : tensor<1xf32> into tensor<f32>
// CHECK: tensor.expand_shape %arg1 []
func.func @rank_zero(%a: tensor<2xf32>, %b: tensor<f32>) -> (tensor<f32>, tensor<1x1xf32>) {
  %0 = tensor.extract_slice %a[1] [1] [1] : tensor<2xf32> to tensor<1xf32>
  %1 = tensor.collapse_shape %0 [] : tensor<1xf32> into tensor<f32>
  %2 = tensor.extract_slice %b[] [] [] : tensor<f32> to tensor<f32>
  %3 = tensor.expand_shape %2 [] output_shape [1, 1] : tensor<f32> into tensor<1x1xf32>
  return %1, %3 : tensor<f32>, tensor<1x1xf32>
}
