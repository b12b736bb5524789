// RUN: not relay-mlir-opt %s 2>&1 | FileCheck %s

// `tensor.concat`'s verifier indexes the result type with its dim, and a
// negative dim makes ShapedType::getDimSize assert (fuzz seed 14, mutant
// 129 of the int mutator). relay-mlir-opt refuses it before parsing
// (relay/Utils/ParserHazards.h); a dim past the rank is the verifier's own
// error.

func.func @f(%a: tensor<2x4xf32>, %b: tensor<2x4xf32>) -> tensor<2x8xf32> {
  // CHECK: parser-hazard-concat-dim.mlir:[[@LINE+1]]:26: error: tensor.concat's dim must be non-negative (MLIR's verifier would abort on it)
  %c = tensor.concat dim(-1) %a, %b : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x8xf32>
  return %c : tensor<2x8xf32>
}
// CHECK-NOT: LLVM ERROR
