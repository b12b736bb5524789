// RUN: not relay-mlir-opt %s 2>&1 | FileCheck %s

// A reassociation index beyond any rank the input spells (a fuzz mutant of
// vnni-matmul.mlir: 2^63 - 1) is refused before MLIR's parser, which would
// abort building its affine map; an index just past the rank is the
// verifier's error (parser-hazard-ok.mlir's neighbours).

func.func @expand(%r: tensor<4x16xi32>) -> tensor<1x2x2x16xi32> {
  // CHECK: parser-hazard-reassociation-index.mlir:[[@LINE+1]]:44: error: reassociation index 9223372036854775807 is beyond any rank of this input (MLIR's parser would abort on it)
  %x = tensor.expand_shape %r [[0, 1, 2], [9223372036854775807]] output_shape [1, 2, 2, 16] : tensor<4x16xi32> into tensor<1x2x2x16xi32>
  return %x : tensor<1x2x2x16xi32>
}
// CHECK-NOT: LLVM ERROR
