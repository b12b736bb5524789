//===- ShapeUtils.h - axis, padding and window rules ------------*- C++ -*-===//
//
// Relay's shape rules shared by the type relations (lib/Relations) and the
// lowering (lib/Conversion). Pure integer arithmetic: no IR, no
// diagnostics. A function that can fail returns failure() and its caller
// reports the broken rule in its own words.
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_UTILS_SHAPEUTILS_H
#define RELAY_UTILS_SHAPEUTILS_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::relay {

//===----------------------------------------------------------------------===//
// Axes
//===----------------------------------------------------------------------===//

/// `axis` in [-rank, rank) as a dim in [0, rank) (negative axes count from
/// the end); failure if it is out of range.
FailureOr<int64_t> normalizeAxis(int64_t axis, int64_t rank);

/// Every entry of `axes` normalised by normalizeAxis, in order (duplicates
/// are kept); failure if any is out of range.
FailureOr<SmallVector<int64_t>> normalizeAxes(ArrayRef<int64_t> axes,
                                              int64_t rank);

//===----------------------------------------------------------------------===//
// Padding
//===----------------------------------------------------------------------===//

/// Padding of `n` spatial dims as amounts before and after each dim.
struct SpatialPadding {
  SmallVector<int64_t, 3> before, after;

  /// True if no side is padded.
  bool isZero() const;
};

/// Relay's padding attribute of an op with `n` spatial dims: 1 entry (every
/// side), `n` entries (both sides of each dim) or 2`n` entries (the
/// befores, then the afters). For n = 2 this is conv2d's (pad), (pad_h,
/// pad_w) and (top, left, bottom, right). Failure for another entry count
/// or a negative entry.
FailureOr<SpatialPadding> normalizePadding(ArrayRef<int64_t> padding,
                                           unsigned n);

//===----------------------------------------------------------------------===//
// Sliding windows (convolutions, pools)
//===----------------------------------------------------------------------===//

/// Extent of a window of `kernel` elements `dilation` apart:
/// dilation * (kernel - 1) + 1.
int64_t dilatedWindowSize(int64_t kernel, int64_t dilation);

/// Number of window positions (Relay's output extent) along one dim of
/// extent `in`: floor((in + padBefore + padAfter - dilated window
/// [+ stride - 1 with ceilMode]) / stride) + 1. `?` (ShapedType::kDynamic)
/// if `in` or `kernel` is `?`. A result < 1 means no window fits; callers
/// decide whether that is an error.
int64_t windowOutputSize(int64_t in, int64_t kernel, int64_t stride,
                         int64_t dilation, int64_t padBefore = 0,
                         int64_t padAfter = 0, bool ceilMode = false);

/// Elements of an (already padded) extent `in` that some window reads:
/// (windowOutputSize(in) - 1) * stride + dilated window. `in` itself if
/// `in` or `kernel` is `?` or no window fits.
int64_t windowInputExtent(int64_t in, int64_t kernel, int64_t stride,
                          int64_t dilation);

} // namespace mlir::relay

#endif // RELAY_UTILS_SHAPEUTILS_H
