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
// - ArgReduce (argmax, argmin): int32; `data` must have rank >= 1 and no
//   reduced dim of size 0 (numpy: "attempt to get argmax of an empty
//   sequence"; a ? dim that is 0 at run time is a run-time error);
// - Variance: operands (data, mean); `mean` has the rank of `data` and
//   broadcasts to it, with the same dtype.
//
//===----------------------------------------------------------------------===//
#include "RelationUtils.h"

#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::rel;

/// Relay's reduce attributes, as every reduction carries them.
struct ReduceAttrs {
  std::optional<ArrayRef<int64_t>> axis;
  bool keepdims, exclude;
};

/// The dims of `data` that `attrs` reduce.
static FailureOr<llvm::SmallBitVector>
reducedDims(ErrorSite site, RankedTensorType data, const ReduceAttrs &attrs) {
  int64_t rank = data.getRank();
  llvm::SmallBitVector reduced(rank, true);
  if (!attrs.axis || attrs.axis->empty())
    return reduced;
  llvm::SmallBitVector listed(rank, false);
  for (int64_t axis : *attrs.axis) {
    FailureOr<int64_t> normalized = normalizeAxis(site, axis, rank);
    if (failed(normalized))
      return failure();
    if (listed.test(*normalized))
      return site.emitError()
             << "axis lists dim " << *normalized << " more than once";
    listed.set(*normalized);
  }
  return attrs.exclude ? listed.flip() : listed;
}

/// The result shape of reducing `data` as `attrs` say.
static FailureOr<SmallVector<int64_t>>
reducedShape(ErrorSite site, RankedTensorType data, const ReduceAttrs &attrs) {
  FailureOr<llvm::SmallBitVector> reduced = reducedDims(site, data, attrs);
  if (failed(reduced))
    return failure();
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < data.getRank(); ++d) {
    if (!reduced->test(d))
      shape.push_back(data.getDimSize(d));
    else if (attrs.keepdims)
      shape.push_back(1);
  }
  return shape;
}

/// `data` reduced as `attrs` say, with element type `element` (default:
/// `data`'s).
static FailureOr<Type> reduce(ErrorSite site, RankedTensorType data,
                              const ReduceAttrs &attrs, Type element = {}) {
  FailureOr<SmallVector<int64_t>> shape = reducedShape(site, data, attrs);
  if (failed(shape))
    return failure();
  return Type(
      RankedTensorType::get(*shape, element ? element : data.getElementType()));
}

FailureOr<Type> relay::inferReduce(ErrorSite site, Type data,
                                   std::optional<ArrayRef<int64_t>> axis,
                                   bool keepdims, bool exclude) {
  FailureOr<RankedTensorType> tensor = tensorType(site, data, "data");
  if (failed(tensor))
    return failure();
  return reduce(site, *tensor, {axis, keepdims, exclude});
}

FailureOr<Type> relay::inferLogicalReduce(ErrorSite site, Type data,
                                          std::optional<ArrayRef<int64_t>> axis,
                                          bool keepdims, bool exclude) {
  FailureOr<RankedTensorType> tensor = tensorType(site, data, "data");
  if (failed(tensor))
    return failure();
  if (!tensor->getElementType().isInteger(1))
    return site.emitError()
           << "operand 'data' must be a bool tensor (a logical reduction), got "
           << *tensor;
  return reduce(site, *tensor, {axis, keepdims, exclude});
}

FailureOr<Type> relay::inferArgReduce(ErrorSite site, Type data,
                                      std::optional<ArrayRef<int64_t>> axis,
                                      bool keepdims, bool exclude) {
  FailureOr<RankedTensorType> tensor = tensorType(site, data, "data");
  if (failed(tensor))
    return failure();
  if (tensor->getRank() == 0)
    return site.emitError()
           << "operand 'data' must have rank >= 1 (an index reduction), got "
           << *tensor;
  ReduceAttrs attrs{axis, keepdims, exclude};
  FailureOr<llvm::SmallBitVector> reduced = reducedDims(site, *tensor, attrs);
  if (failed(reduced))
    return failure();
  for (int64_t d : reduced->set_bits())
    if (tensor->getDimSize(d) == 0)
      return site.emitError() << "cannot take the index of an extreme over "
                                 "an empty axis: dim "
                              << d << " of " << *tensor << " has size 0";
  return reduce(site, *tensor, attrs, IntegerType::get(data.getContext(), 32));
}

FailureOr<Type> relay::inferVariance(ErrorSite site, Type data, Type mean,
                                     std::optional<ArrayRef<int64_t>> axis,
                                     bool keepdims, bool exclude) {
  FailureOr<RankedTensorType> tensor = tensorType(site, data, "data");
  if (failed(tensor))
    return failure();
  FailureOr<RankedTensorType> meanTensor =
      tensorTypeOfRank(site, mean, "mean", tensor->getRank());
  if (failed(meanTensor))
    return failure();
  if (meanTensor->getElementType() != tensor->getElementType())
    return site.emitError() << "operand 'mean' must have the dtype of 'data' ("
                            << tensor->getElementType() << "), got "
                            << meanTensor->getElementType();
  for (int64_t d = 0; d < tensor->getRank(); ++d) {
    int64_t m = meanTensor->getDimSize(d);
    if (m != 1 && failed(unifyDim(m, tensor->getDimSize(d))))
      return site.emitError()
             << "operand 'mean' must broadcast to 'data': dim " << d << " is "
             << m << ", expected 1 or " << dimStr(tensor->getDimSize(d));
  }
  return reduce(site, *tensor, {axis, keepdims, exclude});
}
