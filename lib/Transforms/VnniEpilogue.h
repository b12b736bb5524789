//===- VnniEpilogue.h - the consumers relay-vnni-matmul's kernel absorbs --===//
//
// A quantized model's contraction is followed by elementwise ops: the bias,
// the requantization (to float, scale, round, add the zero point, clamp,
// narrow to 8 bits), an activation. Left as their own dispatch they read
// the i32 products back from memory (4 bytes per result, written and read
// again); the kernel applies them to each vector of products in registers
// and stores the narrow result instead (vnni::Epilogue).
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_TRANSFORMS_VNNIEPILOGUE_H
#define RELAY_TRANSFORMS_VNNIEPILOGUE_H

#include "VnniGemmKernel.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::relay::vnni {

/// The epilogue a contraction's kernel applies: the ops it replaces (in
/// order, each the only user of the one before, in one block: elementwise
/// generics and the reshapes between them; the last a generic) and the
/// values of the epilogue's operands.
struct EpilogueChain {
  SmallVector<Operation *> ops;
  Epilogue epilogue;
  SmallVector<Value> operandValues;
};

/// The chain from `product`, the contraction's [M, N] result (or a
/// convolution's [batch, OH, OW, N]), through every elementwise consumer
/// that can follow it (and reshapes that keep the N columns as the last
/// dim: the results' order in memory stays); empty when there is none.
EpilogueChain collectEpilogue(Value product, int64_t columns);

} // namespace mlir::relay::vnni

#endif // RELAY_TRANSFORMS_VNNIEPILOGUE_H
