//===- NNUtils.h - layout and window checks of the nn.* rules -------------===//
//
// Shared by the NN, Conv, Pool and Norm typing rules: Relay's layout
// strings, padding and output layouts, checked with a diagnostic. The
// arithmetic is the shared library's (relay/Utils/{Layout,Shape}Utils.h),
// which the lowering uses too; these add the messages.
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_LIB_RELATIONS_NNUTILS_H
#define RELAY_LIB_RELATIONS_NNUTILS_H

#include "RelationUtils.h"

#include "relay/Utils/LayoutUtils.h"
#include "relay/Utils/ShapeUtils.h"

namespace mlir::relay::rel {

/// Letters of the spatial dims of an N-d layout (N = 1, 2 or 3).
inline StringRef spatialLetters(unsigned n) {
  return n == 1 ? "W" : n == 2 ? "HW" : "DHW";
}

/// The position in `layout` of each letter of `canonical` (e.g. NHWC for
/// canonical NCHW: [0, 3, 1, 2]); `layout` must be an arrangement of the
/// letters of `canonical`. `what` names the attribute.
inline FailureOr<SmallVector<int64_t>> layoutDims(ErrorSite site,
                                                  StringRef layout,
                                                  StringRef canonical,
                                                  StringRef what) {
  FailureOr<SmallVector<int64_t>> dims =
      getLayoutPermutation(layout, canonical);
  if (failed(dims))
    return site.emitError() << what << " \"" << layout
                            << "\" is not supported (expected a permutation "
                               "of "
                            << canonical << ")";
  return dims;
}

/// Relay's padding attribute over `n` spatial dims (1, n or 2n entries, all
/// >= 0) as before/after amounts.
inline FailureOr<SpatialPadding>
spatialPadding(ErrorSite site, ArrayRef<int64_t> padding, unsigned n) {
  for (int64_t pad : padding)
    if (pad < 0)
      return site.emitError() << "padding entries must be >= 0, got " << pad;
  FailureOr<SpatialPadding> result = normalizePadding(padding, n);
  if (failed(result))
    return site.emitError() << "padding must have 1, " << n << " or " << 2 * n
                            << " entries, got " << padding.size();
  return result;
}

/// A pool's `out_layout`: empty or equal to `layout`, as Relay requires.
inline LogicalResult checkPoolOutLayout(ErrorSite site, StringRef layout,
                                        StringRef outLayout) {
  if (!outLayout.empty() && outLayout != layout)
    return site.emitError()
           << "out_layout \"" << outLayout
           << "\" must be empty or equal to layout \"" << layout << "\"";
  return success();
}

/// Reports that a window (`what`: "kernel" or "pool") does not fit spatial
/// dim `d` of `n`: the output extent `out` would be < 1. 2-D windows say
/// "height"/"width"; the others "size along D/H/W".
inline LogicalResult windowDoesNotFit(ErrorSite site, unsigned n, unsigned d,
                                      int64_t in, int64_t out, int64_t padding,
                                      StringRef what, int64_t dilatedWindow) {
  std::string dim = n == 2 ? (d == 0 ? "height" : "width") : "size";
  std::string along =
      n == 2 ? "" : (" along " + spatialLetters(n).substr(d, 1)).str();
  return site.emitError() << "output " << dim << along << " would be " << out
                          << ": input " << dim << " " << in << " + padding "
                          << padding << " is smaller than the dilated " << what
                          << " " << dim << " " << dilatedWindow;
}

} // namespace mlir::relay::rel

#endif // RELAY_LIB_RELATIONS_NNUTILS_H
