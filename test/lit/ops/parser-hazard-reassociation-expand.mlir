// RUN: not relay-mlir-opt %s 2>&1 | FileCheck %s

// The expand_shape form of parser-hazard-reassociation.mlir.

func.func @expand(%x: tensor<2x192xf32>) -> tensor<2x1x192xf32> {
  // CHECK: parser-hazard-reassociation-expand.mlir:[[@LINE+1]]:41: error: reassociation indices must be non-negative (MLIR's parser would abort on them)
  %y = tensor.expand_shape %x [[0], [1, -2]] output_shape [2, 1, 192] : tensor<2x192xf32> into tensor<2x1x192xf32>
  return %y : tensor<2x1x192xf32>
}
// CHECK-NOT: LLVM ERROR
