//===- VnniWeights.h - relay-vnni-matmul's weights, packed -*- C++ -*-===//
//
// The kernels read their constant weights in their own layout (the GEMM's
// 16-column panels of 4-row groups, the depthwise convolution's 16 channels
// x 4 taps per kernel row) and start their accumulators from -128·Σ_k B.
// Both are computed here when the weights are known now (a constant, or
// reshapes, transposes, pads and byte-wise maps of one): the program then
// holds the packed bytes as a constant, and iree-compile has nothing left
// to evaluate (its JitGlobals pass const-evaluated one pack per weight:
// about a third of a quantized CNN's compile time). Otherwise they are ops
// (pad, reshape, transpose, a reduction) that IREE folds or runs once.
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_TRANSFORMS_VNNIWEIGHTS_H
#define RELAY_TRANSFORMS_VNNIWEIGHTS_H

#include "VnniGemmKernel.h"

#include "mlir/IR/Builders.h"

#include "llvm/ADT/APInt.h"

#include <optional>

namespace mlir::relay::vnni {

/// A kernel's weights as its bindings take them: packed (i8, flat) and the
/// accumulators' initial row (i32 [N]).
struct PackedWeights {
  Value packed, correction;
};

/// B [K, N] (i8 or f32) packed for the GEMM kernel of `shape` (a batch:
/// [batch, K, N], a constant, each matrix packed in turn).
PackedWeights packGemmWeights(OpBuilder &b, Location loc, Value bKN,
                              const GemmShape &shape);

/// A B the kernel of `shape` reads in place (GemmShape::bInPlace: `flat`
/// as it is, f32) and the accumulators' zero rows.
PackedWeights unpackedGemmWeights(OpBuilder &b, Location loc, Value flat,
                                  const GemmShape &shape);

/// A depthwise filter [KH, KW, C] (i8) packed for the depthwise kernel.
PackedWeights packDepthwiseWeights(OpBuilder &b, Location loc, Value filter,
                                   const DepthwiseShape &shape);

/// `body`'s scalar function (a linalg.generic's body of one integer
/// argument: integer arith ops with constants) applied to `x`, if it is one.
std::optional<APInt> evaluateIntegerBody(Block &body, APInt x);

} // namespace mlir::relay::vnni

#endif // RELAY_TRANSFORMS_VNNIWEIGHTS_H
