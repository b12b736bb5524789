//===- Elementwise.cpp - Identity, AxisIdentity and Broadcast -------------===//
#include "RelationUtils.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::rel;

LogicalResult rel::IdentityRel(Operation *op, TypeRange operands,
                               SmallVectorImpl<Type> &results) {
  FailureOr<RankedTensorType> data = tensorOperand(op, operands, 0, "data");
  if (failed(data))
    return failure();
  results.push_back(*data);
  return success();
}

LogicalResult rel::AxisIdentityRel(Operation *op, TypeRange operands,
                                   SmallVectorImpl<Type> &results) {
  FailureOr<RankedTensorType> data = tensorOperand(op, operands, 0, "data");
  if (failed(data) ||
      failed(normalizeAxis(op, *attrI64(op, "axis"), data->getRank())))
    return failure();
  results.push_back(*data);
  return success();
}

/// numpy broadcasting of two shapes, aligned at the right; `?` broadcasts
/// against 1 as `?` and against a static n > 1 as n.
static FailureOr<SmallVector<int64_t>>
broadcastShapes(Operation *op, ArrayRef<int64_t> lhs, ArrayRef<int64_t> rhs) {
  size_t rank = std::max(lhs.size(), rhs.size());
  SmallVector<int64_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t a = i < rank - lhs.size() ? 1 : lhs[i - (rank - lhs.size())];
    int64_t b = i < rank - rhs.size() ? 1 : rhs[i - (rank - rhs.size())];
    if (a == 1)
      out[i] = b;
    else if (b == 1)
      out[i] = a;
    else if (isAny(a))
      out[i] = b;
    else if (isAny(b) || a == b)
      out[i] = a;
    else
      return op->emitOpError()
             << "operands are not broadcastable: dim " << i << " of the result "
             << "would need " << a << " = " << b;
  }
  return out;
}

LogicalResult rel::BroadcastRel(Operation *op, TypeRange operands,
                                SmallVectorImpl<Type> &results) {
  FailureOr<RankedTensorType> lhs = tensorOperand(op, operands, 0, "lhs");
  FailureOr<RankedTensorType> rhs = tensorOperand(op, operands, 1, "rhs");
  if (failed(lhs) || failed(rhs))
    return failure();
  if (lhs->getElementType() != rhs->getElementType())
    return op->emitOpError() << "operand dtypes differ: lhs is "
                             << lhs->getElementType() << ", rhs is "
                             << rhs->getElementType();
  FailureOr<SmallVector<int64_t>> shape =
      broadcastShapes(op, lhs->getShape(), rhs->getShape());
  if (failed(shape))
    return failure();
  results.push_back(RankedTensorType::get(*shape, lhs->getElementType()));
  return success();
}
