//===- Reduce.cpp - the reduction relations -------------------------------===//
//
// One shape rule, Relay's (src/relay/op/tensor/reduce.cc), shared by every
// reduction:
// - `axis` absent or empty reduces every dim (`exclude` is then ignored);
// - negative axes count from the end; an out-of-range or repeated axis is
//   an error;
// - `exclude` reduces every dim *not* listed;
// - `keepdims` keeps reduced dims as size 1, otherwise they are dropped (a
//   full reduction gives a rank-0 tensor).
// The relations differ in their dtype rule:
// - Reduce (sum, mean, max, min, prod): the dtype of `data`;
// - LogicalReduce (all, any): `data` must be bool;
// - ArgReduce (argmax, argmin): int32; `data` must have rank >= 1;
// - Variance: operands (data, mean); `mean` has the rank of `data` and
//   broadcasts to it, with the same dtype.
//
//===----------------------------------------------------------------------===//
#include "RelationUtils.h"

#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::rel;

/// The result shape of reducing `data` as `op`'s attributes say.
static FailureOr<SmallVector<int64_t>> reducedShape(Operation *op,
                                                    RankedTensorType data) {
  int64_t rank = data.getRank();
  llvm::SmallBitVector reduced(rank, true);
  std::optional<ArrayRef<int64_t>> axes = attrI64Array(op, "axis");
  if (axes && !axes->empty()) {
    llvm::SmallBitVector listed(rank, false);
    for (int64_t axis : *axes) {
      FailureOr<int64_t> normalized = normalizeAxis(op, axis, rank);
      if (failed(normalized))
        return failure();
      if (listed.test(*normalized))
        return op->emitOpError() << "axis lists dim " << *normalized
                                 << " more than once";
      listed.set(*normalized);
    }
    reduced = attrBool(op, "exclude") ? listed.flip() : listed;
  }

  bool keepDims = attrBool(op, "keepdims");
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    if (!reduced.test(d))
      shape.push_back(data.getDimSize(d));
    else if (keepDims)
      shape.push_back(1);
  }
  return shape;
}

LogicalResult rel::ReduceRel(Operation *op, TypeRange operands,
                             SmallVectorImpl<Type> &results) {
  if (failed(expectOperands(op, operands, 1)))
    return failure();
  FailureOr<RankedTensorType> data = tensorOperand(op, operands, 0, "data");
  if (failed(data))
    return failure();
  FailureOr<SmallVector<int64_t>> shape = reducedShape(op, *data);
  if (failed(shape))
    return failure();
  results.push_back(RankedTensorType::get(*shape, data->getElementType()));
  return success();
}

LogicalResult rel::LogicalReduceRel(Operation *op, TypeRange operands,
                                    SmallVectorImpl<Type> &results) {
  if (failed(expectOperands(op, operands, 1)))
    return failure();
  FailureOr<RankedTensorType> data = tensorOperand(op, operands, 0, "data");
  if (failed(data))
    return failure();
  if (!data->getElementType().isInteger(1))
    return op->emitOpError()
           << "operand 'data' must be a bool tensor (a logical reduction), got "
           << *data;
  FailureOr<SmallVector<int64_t>> shape = reducedShape(op, *data);
  if (failed(shape))
    return failure();
  results.push_back(RankedTensorType::get(*shape, data->getElementType()));
  return success();
}

LogicalResult rel::ArgReduceRel(Operation *op, TypeRange operands,
                                SmallVectorImpl<Type> &results) {
  if (failed(expectOperands(op, operands, 1)))
    return failure();
  FailureOr<RankedTensorType> data = tensorOperand(op, operands, 0, "data");
  if (failed(data))
    return failure();
  if (data->getRank() == 0)
    return op->emitOpError()
           << "operand 'data' must have rank >= 1 (an index reduction), got "
           << *data;
  FailureOr<SmallVector<int64_t>> shape = reducedShape(op, *data);
  if (failed(shape))
    return failure();
  results.push_back(
      RankedTensorType::get(*shape, IntegerType::get(op->getContext(), 32)));
  return success();
}

LogicalResult rel::VarianceRel(Operation *op, TypeRange operands,
                               SmallVectorImpl<Type> &results) {
  if (failed(expectOperands(op, operands, 2)))
    return failure();
  FailureOr<RankedTensorType> data = tensorOperand(op, operands, 0, "data");
  if (failed(data))
    return failure();
  FailureOr<RankedTensorType> mean =
      tensorOperandOfRank(op, operands, 1, "mean", data->getRank());
  if (failed(mean))
    return failure();
  if (mean->getElementType() != data->getElementType())
    return op->emitOpError() << "operand 'mean' must have the dtype of 'data' ("
                             << data->getElementType() << "), got "
                             << mean->getElementType();
  for (int64_t d = 0; d < data->getRank(); ++d) {
    int64_t m = mean->getDimSize(d);
    if (m != 1 && failed(unifyDim(m, data->getDimSize(d))))
      return op->emitOpError()
             << "operand 'mean' must broadcast to 'data': dim " << d << " is "
             << m << ", expected 1 or " << dimStr(data->getDimSize(d));
  }
  FailureOr<SmallVector<int64_t>> shape = reducedShape(op, *data);
  if (failed(shape))
    return failure();
  results.push_back(RankedTensorType::get(*shape, data->getElementType()));
  return success();
}
