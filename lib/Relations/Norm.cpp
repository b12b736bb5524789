//===- Norm.cpp - typing rules of the normalisations ----------------------===//
//
// BatchNorm, Norm (layer_norm, instance_norm), GroupNorm and L2Normalize,
// with Relay's semantics (src/relay/op/nn/nn.cc); `?` dims propagate.
// softmax, log_softmax and lrn are typed by inferAxisIdentity
// (Elementwise.cpp).
//
//===----------------------------------------------------------------------===//
#include "NNUtils.h"

#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::rel;

/// Checks that each of `params` (named `names`) is 1-D of size `size` (data
/// dim `axis`) and has `data`'s dtype; returns the size, unified.
static FailureOr<int64_t>
checkChannelParams(ErrorSite site, RankedTensorType data, int64_t axis,
                   ArrayRef<Type> params, ArrayRef<StringRef> names) {
  int64_t size = data.getDimSize(axis);
  for (auto [type, name] : llvm::zip_equal(params, names)) {
    FailureOr<RankedTensorType> param = tensorTypeOfRank(site, type, name, 1);
    if (failed(param))
      return failure();
    FailureOr<int64_t> unified = unifyDim(size, param->getDimSize(0));
    if (failed(unified))
      return site.emitError()
             << "operand '" << name << "' size " << param->getDimSize(0)
             << " ≠ data dim " << axis << " (axis) " << size;
    size = *unified;
    if (param->getElementType() != data.getElementType())
      return site.emitError()
             << "operand '" << name << "' dtype " << param->getElementType()
             << " ≠ data dtype " << data.getElementType();
  }
  return size;
}

//===----------------------------------------------------------------------===//
// BatchNorm: (data, gamma, beta, moving_mean, moving_var)
//            -> (data type, [C], [C]) with C = data dim `axis`
//===----------------------------------------------------------------------===//

FailureOr<Type> relay::inferBatchNorm(ErrorSite site, Type dataType, Type gamma,
                                      Type beta, Type movingMean,
                                      Type movingVar, int64_t axis) {
  FailureOr<RankedTensorType> data = tensorType(site, dataType, "data");
  if (failed(data))
    return failure();
  int64_t rank = data->getRank();
  // As in Relay, -1 (the last dim) is the only negative axis accepted.
  if (axis < -1 || axis >= rank)
    return site.emitError()
           << "axis " << axis << " is out of range for rank " << rank
           << " (expected -1 <= axis < " << rank << ")";
  if (axis == -1)
    axis = rank - 1;
  FailureOr<int64_t> size = checkChannelParams(
      site, *data, axis, {gamma, beta, movingMean, movingVar},
      {"gamma", "beta", "moving_mean", "moving_var"});
  if (failed(size))
    return failure();
  auto stat = RankedTensorType::get({*size}, data->getElementType());
  return Type(TupleType::get(dataType.getContext(), {*data, stat, stat}));
}

//===----------------------------------------------------------------------===//
// Norm, GroupNorm: (data, gamma, beta) -> data, gamma and beta of size
// data[axis]
//===----------------------------------------------------------------------===//

/// layer/group/instance norm; `numGroups` for group_norm.
static FailureOr<Type> norm(ErrorSite site, Type dataType, Type gamma,
                            Type beta, int64_t axis,
                            std::optional<int64_t> numGroups) {
  FailureOr<RankedTensorType> data = tensorType(site, dataType, "data");
  if (failed(data))
    return failure();
  if (!isa<FloatType>(data->getElementType()))
    return site.emitError() << "operand 'data' must have a float dtype, got "
                            << data->getElementType();
  FailureOr<int64_t> dim = normalizeAxis(site, axis, data->getRank());
  if (failed(dim))
    return failure();
  int64_t size = data->getDimSize(*dim);
  if (numGroups) {
    if (*numGroups < 1)
      return site.emitError() << "num_groups must be >= 1, got " << *numGroups;
    if (!isAny(size) && size % *numGroups != 0)
      return site.emitError()
             << "channels " << size << " (data dim " << *dim
             << ") are not divisible by num_groups " << *numGroups;
  }
  if (failed(checkChannelParams(site, *data, *dim, {gamma, beta},
                                {"gamma", "beta"})))
    return failure();
  return Type(*data);
}

FailureOr<Type> relay::inferNorm(ErrorSite site, Type data, Type gamma,
                                 Type beta, int64_t axis) {
  return norm(site, data, gamma, beta, axis, std::nullopt);
}

FailureOr<Type> relay::inferGroupNorm(ErrorSite site, Type data, Type gamma,
                                      Type beta, int64_t numGroups,
                                      int64_t axis) {
  return norm(site, data, gamma, beta, axis, numGroups);
}

//===----------------------------------------------------------------------===//
// L2Normalize: data with a list of distinct axes in range
//===----------------------------------------------------------------------===//

FailureOr<Type> relay::inferL2Normalize(ErrorSite site, Type dataType,
                                        ArrayRef<int64_t> axes) {
  FailureOr<RankedTensorType> data = tensorType(site, dataType, "data");
  if (failed(data))
    return failure();
  llvm::SmallBitVector seen(data->getRank());
  for (int64_t axis : axes) {
    FailureOr<int64_t> a = rel::normalizeAxis(site, axis, data->getRank());
    if (failed(a))
      return failure();
    if (seen.test(*a))
      return site.emitError() << "axis " << axis << " is repeated";
    seen.set(*a);
  }
  return Type(*data);
}
