//===- Image.cpp - the image.resize2d relation ----------------------------===//
//
// Relay's Resize2DRel: 4-D `data` in `layout` (NCHW or NHWC); the result
// keeps N and C, H and W become `size`; dtype `out_dtype` or that of
// `data`. `method`, `coordinate_transformation_mode` and `rounding_method`
// must be values Relay knows.
//
//===----------------------------------------------------------------------===//
#include "RelationUtils.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::rel;

static LogicalResult oneOf(Operation *op, StringRef name,
                           ArrayRef<StringRef> allowed) {
  StringRef value = attrStr(op, name);
  if (llvm::is_contained(allowed, value))
    return success();
  auto diag = op->emitOpError() << name << " \"" << value
                                << "\" is not supported (expected one of";
  for (StringRef a : allowed)
    diag << " \"" << a << "\"";
  return diag << ")";
}

LogicalResult rel::Resize2DRel(Operation *op, TypeRange operands,
                               SmallVectorImpl<Type> &results) {
  if (failed(expectOperands(op, operands, 1)))
    return failure();
  FailureOr<RankedTensorType> data =
      tensorOperandOfRank(op, operands, 0, "data", 4);
  if (failed(data))
    return failure();
  StringRef layout = attrStr(op, "layout");
  if (layout != "NCHW" && layout != "NHWC")
    return op->emitOpError() << "layout \"" << layout
                             << "\" is not supported (expected NCHW or NHWC)";
  FailureOr<Layout2D> l = parseLayout2D(op, layout, "layout");
  FailureOr<ArrayRef<int64_t>> size = attrI64ArrayOfSize(op, "size", 2);
  if (failed(l) || failed(size) ||
      failed(oneOf(op, "method", {"nearest_neighbor", "linear", "cubic"})) ||
      failed(oneOf(op, "coordinate_transformation_mode",
                   {"half_pixel", "align_corners", "asymmetric",
                    "pytorch_half_pixel", "tf_half_pixel_for_nn",
                    "tf_crop_and_resize"})) ||
      failed(oneOf(op, "rounding_method",
                   {"", "round", "floor", "ceil", "round_prefer_floor",
                    "round_prefer_ceil"})))
    return failure();
  if (auto roi = op->getAttrOfType<DenseF64ArrayAttr>("roi");
      roi && roi.size() != 4)
    return op->emitOpError() << "roi must have 4 entries, got " << roi.size();
  FailureOr<Type> dtype = outDtype(op, data->getElementType());
  if (failed(dtype))
    return failure();
  SmallVector<int64_t> shape(data->getShape());
  shape[l->h] = (*size)[0];
  shape[l->w] = (*size)[1];
  results.push_back(RankedTensorType::get(shape, *dtype));
  return success();
}
