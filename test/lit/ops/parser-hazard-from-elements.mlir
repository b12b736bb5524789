// RUN: not relay-mlir-opt %s 2>&1 | FileCheck %s

// `tensor.from_elements`'s parser makes one operand type per element of its
// result type and aborts on a huge count ("SmallVector unable to grow"; fuzz
// seed 42, mutant 22210). No valid text lists more operands than it has
// bytes, so relay-mlir-opt refuses such a count before parsing
// (relay/Utils/ParserHazards.h).

func.func @g(%a: i1) -> tensor<4611686018427387904xi1> {
  // CHECK: parser-hazard-from-elements.mlir:[[@LINE+1]]:38: error: tensor.from_elements of 4611686018427387904 elements cannot list that many operands (MLIR's parser would abort on it)
  %t = tensor.from_elements %a, %a : tensor<4611686018427387904xi1>
  return %t : tensor<4611686018427387904xi1>
}
// CHECK-NOT: LLVM ERROR
