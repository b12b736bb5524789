// RUN: not relay-mlir-opt %s 2>&1 | FileCheck %s

// A negative static padding in tensor.pad: MLIR's verifier would abort while
// inferring the padded type (fuzz seed 14, mutant 139 of
// transforms/f32-kernels.mlir); relay-mlir-opt refuses the text first, at
// the number. An operand named like the keyword (%below) is not its list.
func.func @negative_high(%below: tensor<1x4x4x4xf32>) -> tensor<1x6x6x4xf32> {
  %one = arith.constant 1.0 : f32
  // CHECK: parser-hazard-pad-amounts.mlir:[[@LINE+1]]:47: error: tensor.pad's static paddings must be non-negative (MLIR's verifier would abort on them)
  %p = tensor.pad %below low[0, 1, 1, 0] high[-2, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %one : f32
  } : tensor<1x4x4x4xf32> to tensor<1x6x6x4xf32>
  return %p : tensor<1x6x6x4xf32>
}
