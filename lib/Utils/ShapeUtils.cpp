//===- ShapeUtils.cpp - axis, padding and window rules --------------------===//
#include "relay/Utils/ShapeUtils.h"

#include "mlir/IR/BuiltinTypeInterfaces.h"

using namespace mlir;
using namespace mlir::relay;

FailureOr<int64_t> relay::normalizeAxis(int64_t axis, int64_t rank) {
  int64_t normalized = axis < 0 ? axis + rank : axis;
  if (normalized < 0 || normalized >= rank)
    return failure();
  return normalized;
}

FailureOr<SmallVector<int64_t>> relay::normalizeAxes(ArrayRef<int64_t> axes,
                                                     int64_t rank) {
  SmallVector<int64_t> result;
  for (int64_t axis : axes) {
    FailureOr<int64_t> normalized = normalizeAxis(axis, rank);
    if (failed(normalized))
      return failure();
    result.push_back(*normalized);
  }
  return result;
}

bool SpatialPadding::isZero() const {
  return llvm::all_of(before, [](int64_t p) { return p == 0; }) &&
         llvm::all_of(after, [](int64_t p) { return p == 0; });
}

FailureOr<SpatialPadding> relay::normalizePadding(ArrayRef<int64_t> padding,
                                                  unsigned n) {
  if (llvm::any_of(padding, [](int64_t p) { return p < 0; }))
    return failure();
  SpatialPadding result;
  if (padding.size() == 1) {
    result.before.assign(n, padding[0]);
    result.after.assign(n, padding[0]);
  } else if (padding.size() == n) {
    result.before.assign(padding.begin(), padding.end());
    result.after.assign(padding.begin(), padding.end());
  } else if (padding.size() == 2 * n) {
    result.before.assign(padding.begin(), padding.begin() + n);
    result.after.assign(padding.begin() + n, padding.end());
  } else {
    return failure();
  }
  return result;
}

int64_t relay::dilatedWindowSize(int64_t kernel, int64_t dilation) {
  return dilation * (kernel - 1) + 1;
}

/// Division rounding towards negative infinity (Relay's indexdiv).
static int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

int64_t relay::windowOutputSize(int64_t in, int64_t kernel, int64_t stride,
                                int64_t dilation, int64_t padBefore,
                                int64_t padAfter, bool ceilMode) {
  if (ShapedType::isDynamic(in) || ShapedType::isDynamic(kernel))
    return ShapedType::kDynamic;
  int64_t numerator =
      in + padBefore + padAfter - dilatedWindowSize(kernel, dilation);
  if (ceilMode)
    numerator += stride - 1;
  return floorDiv(numerator, stride) + 1;
}

int64_t relay::windowInputExtent(int64_t in, int64_t kernel, int64_t stride,
                                 int64_t dilation) {
  if (ShapedType::isDynamic(in) || ShapedType::isDynamic(kernel))
    return in;
  int64_t span = dilatedWindowSize(kernel, dilation);
  if (in < span)
    return in;
  return (windowOutputSize(in, kernel, stride, dilation) - 1) * stride + span;
}
