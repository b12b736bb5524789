//===- RelationUtils.cpp - helpers shared by the type relations -----------===//
#include "RelationUtils.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::rel;

FailureOr<RankedTensorType> rel::tensorOperand(Operation *op,
                                               TypeRange operands,
                                               unsigned index, StringRef what) {
  if (index >= operands.size())
    return op->emitOpError() << "is missing operand '" << what << "'";
  auto tensor = dyn_cast<RankedTensorType>(operands[index]);
  if (!tensor)
    return op->emitOpError() << "operand '" << what
                             << "' must be a ranked tensor, got "
                             << operands[index];
  return tensor;
}

FailureOr<RankedTensorType> rel::tensorOperandOfRank(Operation *op,
                                                     TypeRange operands,
                                                     unsigned index,
                                                     StringRef what,
                                                     int64_t rank) {
  FailureOr<RankedTensorType> tensor = tensorOperand(op, operands, index, what);
  if (failed(tensor))
    return failure();
  if (tensor->getRank() != rank)
    return op->emitOpError() << "operand '" << what << "' must have rank "
                             << rank << ", got " << *tensor;
  return tensor;
}

FailureOr<int64_t> rel::normalizeAxis(Operation *op, int64_t axis,
                                      int64_t rank, StringRef what) {
  int64_t normalized = axis < 0 ? axis + rank : axis;
  if (normalized < 0 || normalized >= rank)
    return op->emitOpError() << what << " " << axis
                             << " is out of range for rank " << rank;
  return normalized;
}

LogicalResult rel::expectOperands(Operation *op, TypeRange operands,
                                  unsigned n) {
  if (operands.size() != n)
    return op->emitOpError() << "expects " << n << " operands, got "
                             << operands.size();
  return success();
}

FailureOr<int64_t> rel::unifyDim(int64_t a, int64_t b) {
  if (isAny(a))
    return b;
  if (isAny(b) || a == b)
    return a;
  return failure();
}

std::string rel::dimStr(int64_t dim) {
  return isAny(dim) ? std::string("?") : std::to_string(dim);
}

int64_t rel::windowOutput(int64_t in, int64_t kernel, int64_t stride,
                          int64_t dilation, int64_t padBefore,
                          int64_t padAfter, bool ceilMode) {
  if (isAny(in))
    return kAny;
  int64_t span = dilation * (kernel - 1) + 1;
  int64_t extent = in + padBefore + padAfter - span;
  if (extent < 0)
    return -1;
  int64_t out = extent / stride + 1;
  if (ceilMode && extent % stride != 0) {
    // Relay/PyTorch: the last window must start inside the input or the
    // leading padding.
    if ((out) * stride < in + padBefore)
      ++out;
  }
  return out;
}

FailureOr<SmallVector<int64_t, 4>> rel::padding2D(Operation *op,
                                                  ArrayRef<int64_t> padding) {
  switch (padding.size()) {
  case 1:
    return SmallVector<int64_t, 4>{padding[0], padding[0], padding[0],
                                   padding[0]};
  case 2:
    return SmallVector<int64_t, 4>{padding[0], padding[1], padding[0],
                                   padding[1]};
  case 4:
    return SmallVector<int64_t, 4>(padding.begin(), padding.end());
  default:
    return op->emitOpError() << "padding must have 1, 2 or 4 entries, got "
                             << padding.size();
  }
}

FailureOr<Layout2D> rel::parseLayout2D(Operation *op, StringRef layout,
                                       StringRef what) {
  if (layout.size() != 4 || layout.count('N') != 1 || layout.count('C') != 1 ||
      layout.count('H') != 1 || layout.count('W') != 1)
    return op->emitOpError() << what << " \"" << layout
                             << "\" is not supported (expected a permutation "
                                "of NCHW such as NCHW or NHWC)";
  return Layout2D{(int64_t)layout.find('N'), (int64_t)layout.find('C'),
                  (int64_t)layout.find('H'), (int64_t)layout.find('W')};
}
