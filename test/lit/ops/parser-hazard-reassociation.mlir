// RUN: not relay-mlir-opt %s 2>&1 | FileCheck %s

// A negative index in a collapse_shape/expand_shape reassociation makes the
// parser build an affine map of a negative dim, which asserts
// (AffineMap::get; fuzz seed 13, mutant 36). relay-mlir-opt refuses it before
// parsing (relay/Utils/ParserHazards.h); an index past the rank is the
// verifier's own error. (The scan reports the first hazard of a file.)

func.func @collapse(%x: tensor<2x1x192xf32>) -> tensor<2x192xf32> {
  // CHECK: parser-hazard-reassociation.mlir:[[@LINE+1]]:40: error: reassociation indices must be non-negative (MLIR's parser would abort on them)
  %y = tensor.collapse_shape %x [[0], [-1, 2]] : tensor<2x1x192xf32> into tensor<2x192xf32>
  return %y : tensor<2x192xf32>
}
// CHECK-NOT: LLVM ERROR
