//===- Reduce.cpp - the Reduce relation -----------------------------------===//
//
// Shared by the reductions (sum, mean, max, min, prod, ...), with Relay's
// semantics (src/relay/op/tensor/reduce.cc):
// - `axis` absent or empty reduces every dim (`exclude` is then ignored);
// - negative axes count from the end; an out-of-range or repeated axis is
//   an error;
// - `exclude` reduces every dim *not* listed;
// - `keepdims` keeps reduced dims as size 1, otherwise they are dropped (a
//   full reduction gives a rank-0 tensor).
//
//===----------------------------------------------------------------------===//
#include "RelationUtils.h"

#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::rel;

LogicalResult rel::ReduceRel(Operation *op, TypeRange operands,
                             SmallVectorImpl<Type> &results) {
  if (failed(expectOperands(op, operands, 1)))
    return failure();
  FailureOr<RankedTensorType> data = tensorOperand(op, operands, 0, "data");
  if (failed(data))
    return failure();
  int64_t rank = data->getRank();

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
      shape.push_back(data->getDimSize(d));
    else if (keepDims)
      shape.push_back(1);
  }
  results.push_back(RankedTensorType::get(shape, data->getElementType()));
  return success();
}
