//===- Dynamic.cpp - shapes as values, dyn.* operators --------------------===//
//
// Relay's semantics (src/relay/op/dyn/): a shape argument is a 1-d integer
// tensor whose length (the result rank) must be static; the result dims it
// gives are `?` (relay-dynamic-to-static makes them static again when the
// shape is a constant).
//
//===----------------------------------------------------------------------===//
#include "RelationUtils.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::rel;

/// The result dtype of shape_of/ndarray_size: an integer type (default i32).
static FailureOr<Type> indexDtype(ErrorSite site, std::optional<Type> dtype,
                                  MLIRContext *context) {
  FailureOr<Type> t = dtypeOr(site, dtype, IntegerType::get(context, 32));
  if (failed(t))
    return failure();
  auto it = dyn_cast<IntegerType>(*t);
  if (!it || it.getWidth() < 8)
    return site.emitError() << "dtype must be an integer type of 8 bits or "
                               "more, got "
                            << *t;
  return *t;
}

/// A value about `dataType`'s shape: an integer tensor of `dtype` (default
/// int32), 1-d with one entry per dim (`perDim`) or 0-d.
static FailureOr<Type> shapeValue(ErrorSite site, Type dataType,
                                  std::optional<Type> dtype, bool perDim) {
  FailureOr<RankedTensorType> data = tensorType(site, dataType, "data");
  FailureOr<Type> elt = indexDtype(site, dtype, dataType.getContext());
  if (failed(data) || failed(elt))
    return failure();
  SmallVector<int64_t> shape;
  if (perDim)
    shape.push_back(data->getRank());
  return Type(RankedTensorType::get(shape, *elt));
}

FailureOr<Type> relay::inferShapeOf(ErrorSite site, Type dataType,
                                    std::optional<Type> dtype) {
  return shapeValue(site, dataType, dtype, /*perDim=*/true);
}

FailureOr<Type> relay::inferNdarraySize(ErrorSite site, Type dataType,
                                        std::optional<Type> dtype) {
  return shapeValue(site, dataType, dtype, /*perDim=*/false);
}

/// The length of a 1-d integer shape tensor `what`, which must be static.
static FailureOr<int64_t> shapeLength(ErrorSite site, Type type,
                                      StringRef what) {
  FailureOr<RankedTensorType> t = tensorTypeOfRank(site, type, what, 1);
  if (failed(t))
    return failure();
  auto elt = dyn_cast<IntegerType>(t->getElementType());
  if (!elt || elt.getWidth() == 1)
    return site.emitError() << what << " must be an integer tensor, got " << *t;
  if (t->isDynamicDim(0))
    return site.emitError()
           << "the length of " << what
           << " (the rank of the result) must be known, got " << *t;
  return t->getDimSize(0);
}

FailureOr<Type> relay::inferDynReshape(ErrorSite site, Type dataType,
                                       Type newshapeType) {
  FailureOr<RankedTensorType> data = tensorType(site, dataType, "data");
  FailureOr<int64_t> rank = shapeLength(site, newshapeType, "newshape");
  if (failed(data) || failed(rank))
    return failure();
  SmallVector<int64_t> dims(*rank, kAny);
  return Type(RankedTensorType::get(dims, data->getElementType()));
}

FailureOr<Type> relay::inferDynBroadcastTo(ErrorSite site, Type dataType,
                                           Type shapeType) {
  FailureOr<RankedTensorType> data = tensorType(site, dataType, "data");
  FailureOr<int64_t> rank = shapeLength(site, shapeType, "shape");
  if (failed(data) || failed(rank))
    return failure();
  if (*rank < data->getRank())
    return site.emitError() << "cannot broadcast a rank-" << data->getRank()
                            << " tensor to rank " << *rank;
  SmallVector<int64_t> dims(*rank, kAny);
  return Type(RankedTensorType::get(dims, data->getElementType()));
}

FailureOr<Type> relay::inferDynFull(ErrorSite site,
                                    std::optional<Type> fillValue,
                                    Type shapeType, std::optional<Type> dtype) {
  Type fallback;
  if (fillValue) {
    FailureOr<RankedTensorType> fill =
        scalarTensor(site, *fillValue, "fill_value");
    if (failed(fill))
      return failure();
    fallback = fill->getElementType();
  }
  FailureOr<int64_t> rank = shapeLength(site, shapeType, "shape");
  FailureOr<Type> elt = dtypeOr(site, dtype, fallback);
  if (failed(rank) || failed(elt))
    return failure();
  if (!*elt)
    return site.emitError() << "requires attribute 'dtype'";
  SmallVector<int64_t> dims(*rank, kAny);
  return Type(RankedTensorType::get(dims, *elt));
}
