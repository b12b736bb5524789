//===- TransformUtils.h - shape-transform rules shared with the lowering --===//
#ifndef RELAY_LIB_RELATIONS_TRANSFORMUTILS_H
#define RELAY_LIB_RELATIONS_TRANSFORMUTILS_H

#include "mlir/Support/LLVM.h"
#include "relay/RelayRelations.h"
#include "llvm/ADT/SmallVector.h"
#include <algorithm>

namespace mlir::relay::rel {

/// Relay's index canonicalisation for strided_slice: a negative index counts
/// from the end, then the index is clamped to [0, extent] (stride > 0) or
/// [-1, extent - 1] (stride < 0).
inline int64_t canonicalSliceIndex(int64_t index, int64_t extent,
                                   int64_t stride) {
  int64_t lo = stride < 0 ? -1 : 0;
  int64_t hi = stride < 0 ? extent - 1 : extent;
  if (index < 0)
    index += extent;
  return std::min(std::max(index, lo), hi);
}

/// One sliced dim of a strided_slice: `begin`/`end` as written (slice_mode
/// "size" already turned into an end), `size` the static result size or `?`.
struct SliceDim {
  int64_t axis, begin, end, stride, size;
};

/// The sliced dims of a strided_slice of a tensor of shape `shape` with
/// attributes `begin`, `end`, `strides`, `axes` and `sliceMode` ("end" or
/// "size"; Relay's padding of begin/end/strides applied), or a diagnostic at
/// `site`.
FailureOr<SmallVector<SliceDim>>
stridedSliceDims(ErrorSite site, ArrayRef<int64_t> shape,
                 ArrayRef<int64_t> begin, ArrayRef<int64_t> end,
                 std::optional<ArrayRef<int64_t>> strides,
                 std::optional<ArrayRef<int64_t>> axes, StringRef sliceMode);

/// One axis of a (possibly blocked) layout such as NCHW16c: `primal` is the
/// upper-case letter; `factor` is 0 for a primal axis and the block size of
/// a sub-axis (`16c`: primal 'C', factor 16).
struct LayoutAxis {
  char primal;
  int64_t factor;
  bool isSub() const { return factor != 0; }
};

/// Parses a (blocked) layout string; `what` names it in the diagnostic.
FailureOr<SmallVector<LayoutAxis>>
parseBlockedLayout(ErrorSite site, StringRef layout, StringRef what);

} // namespace mlir::relay::rel

#endif // RELAY_LIB_RELATIONS_TRANSFORMUTILS_H
