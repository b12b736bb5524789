//===- LayoutUtils.h - layout strings as permutations -----------*- C++ -*-===//
//
// Relay names dim orders with letter strings ("NCHW", "HWIO", ...). These
// turn two such strings into the permutation between them. Applying,
// inverting and testing permutations is upstream's job
// (mlir/Dialect/Utils/IndexingUtils.h: applyPermutation,
// invertPermutationVector, isIdentityPermutation, isPermutationVector),
// re-exported here for convenience. No diagnostics: callers report.
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_UTILS_LAYOUTUTILS_H
#define RELAY_UTILS_LAYOUTUTILS_H

#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::relay {

/// The permutation `perm` such that transposing a tensor laid out as
/// `from` by `perm` (result dim i = dim perm[i]) lays it out as `to`:
/// perm[i] is the position in `from` of letter `to[i]`. For example
/// ("NHWC", "NCHW") → [0, 3, 1, 2]. Failure unless `from` and `to` are
/// arrangements of the same distinct letters.
FailureOr<SmallVector<int64_t>> getLayoutPermutation(StringRef from,
                                                     StringRef to);

/// Positions in `layout` of each letter of `letters` (e.g. layout "NHWC",
/// letters "HW" → [1, 2]); failure if a letter is missing or repeated in
/// `layout`.
FailureOr<SmallVector<int64_t>> findLayoutDims(StringRef layout,
                                               StringRef letters);

} // namespace mlir::relay

#endif // RELAY_UTILS_LAYOUTUTILS_H
