//===- Image.cpp - the image.resize2d typing rule -------------------------===//
//
// Relay's Resize2DRel: 4-D `data` in `layout` (NCHW or NHWC); the result
// keeps N and C, H and W become `size`; dtype `out_dtype` or that of
// `data`. The enum-like attributes (`layout`, `method`,
// `coordinate_transformation_mode`, `rounding_method`) are constrained in
// ODS (RelayAttrConstraints.td).
//
//===----------------------------------------------------------------------===//
#include "RelationUtils.h"
#include "relay/Utils/LayoutUtils.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::rel;

FailureOr<Type> relay::inferResize2D(ErrorSite site, Type dataType,
                                     ArrayRef<int64_t> size,
                                     std::optional<ArrayRef<double>> roi,
                                     StringRef layout,
                                     std::optional<Type> outDtype) {
  FailureOr<RankedTensorType> data =
      tensorTypeOfRank(site, dataType, "data", 4);
  if (failed(data))
    return failure();
  // `layout` is NCHW or NHWC (an ODS constraint).
  FailureOr<SmallVector<int64_t>> hw = findLayoutDims(layout, "HW");
  if (failed(hw))
    return site.emitError() << "layout \"" << layout
                            << "\" is not supported (expected NCHW or NHWC)";
  if (failed(checkArray(site, "size", size, 2)))
    return failure();
  if (roi && roi->size() != 4)
    return site.emitError() << "roi must have 4 entries, got " << roi->size();
  FailureOr<Type> dtype = resultDtype(site, outDtype, data->getElementType());
  if (failed(dtype))
    return failure();
  SmallVector<int64_t> shape(data->getShape());
  shape[(*hw)[0]] = size[0];
  shape[(*hw)[1]] = size[1];
  return Type(RankedTensorType::get(shape, *dtype));
}
