// RUN: not relay-mlir-opt %s 2>&1 | FileCheck %s

// A shaped type whose element count overflows int64: every use asks for the
// count, which asserts in MLIR (ShapedType::getNumElements), first while
// parsing a `dense<...>` of it (fuzz seed 43, mutants 46073 and 49564).
// relay-mlir-opt refuses such a type before parsing
// (relay/Utils/ParserHazards.h). Single dims up to 2^62 are fine here; the
// typing rules and the size checks deal with them.

func.func @f(%x: tensor<3xf32>) -> tensor<3xf32> {
  // CHECK: parser-hazard-element-count.mlir:[[@LINE+1]]:43: error: shaped type with more elements than int64 can count (MLIR would abort on it)
  %z = relay.constant dense<0.0> : tensor<2x4611686018427387904xf32>
  return %x : tensor<3xf32>
}
// CHECK-NOT: Assertion
