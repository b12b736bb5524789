//===- RelayDynamicOps.cpp - folders of shape_of and ndarray_size ---------===//
//
// A shape that is static is a constant: shape_of/ndarray_size of a tensor
// without `?` dims fold to relay.constant (the dialect's constant
// materializer), which relay-dynamic-to-static then propagates into the
// dyn.* ops that consume it.
//
//===----------------------------------------------------------------------===//
#include "relay/RelayOps.h"

#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace mlir::relay;

/// `values` as a constant of the (integer tensor) type `type`.
static Attribute intElements(Type type, ArrayRef<int64_t> values) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape())
    return {};
  auto elt = dyn_cast<IntegerType>(tensor.getElementType());
  if (!elt)
    return {};
  SmallVector<APInt> ints;
  for (int64_t v : values)
    ints.push_back(APInt(elt.getWidth(), v, /*isSigned=*/true));
  return DenseElementsAttr::get(tensor, ints);
}

OpFoldResult ShapeOfOp::fold(FoldAdaptor) {
  auto data = dyn_cast<RankedTensorType>(getData().getType());
  if (!data || !data.hasStaticShape())
    return {};
  return intElements(getType(), data.getShape());
}

OpFoldResult NdarraySizeOp::fold(FoldAdaptor) {
  auto data = dyn_cast<RankedTensorType>(getData().getType());
  if (!data || !data.hasStaticShape())
    return {};
  return intElements(getType(), {data.getNumElements()});
}
