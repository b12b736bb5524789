//===- PadsForIREE.h - pads IREE 3.13 can compile -------------*- C++ -*-===//
//
// Private to convert-relay-to-linalg: the last step of the pass.
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_LIB_CONVERSION_RELAYTOLINALG_PADSFORIREE_H
#define RELAY_LIB_CONVERSION_RELAYTOLINALG_PADSFORIREE_H

#include "mlir/IR/Operation.h"

namespace mlir::relay::lowering {

/// Rewrites each constant `tensor.pad` under `root` whose result reaches an
/// elementwise-like linalg op (all loops parallel, the pad read through a
/// projected permutation: a map, a transpose, a broadcast), directly or
/// through reshapes, as `linalg.fill` + `tensor.insert_slice`. With
/// `--iree-dispatch-creation-enable-fuse-padding-into-linalg-consumer-ops`
/// (relay-mlir's llvm-cpu speed flags) IREE 3.13 fuses such a pad into its
/// consumer's dispatch and then fails to compile it ("failed to run
/// translation of source executable") at most sizes (1x3x224x224 padded
/// by 1 into a transpose: a quantized model's zero-point pad before its
/// layout change), and compile() fell back to slower flags. Pads read by
/// convolutions, pools, window gathers, matmuls and reductions are left to
/// IREE's fusion (depthwise convolutions read their windows from the
/// unpadded input).
void decomposePadsFedToElementwise(Operation *root);

} // namespace mlir::relay::lowering

#endif // RELAY_LIB_CONVERSION_RELAYTOLINALG_PADSFORIREE_H
