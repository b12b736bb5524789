//===- ImageGradients.cpp - image.resize2d --------------------------------===//
//
// image.resize2d (and nn.upsampling, whose rule this is too): separable
// linear maps whose matrices the op itself computes from one-hot images.
//
//===----------------------------------------------------------------------===//
//===----------------------------------------------------------------------===//
#include "SharedRules.h"
#include "WindowAdjoints.h"
#include "relay/RelayGradient.h"
#include "relay/RelayOps.h"

#include "mlir/Interfaces/InferTypeOpInterface.h"

#include <limits>
#include <optional>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::gradient;
using namespace mlir::relay::gradient::window;

/// image.resize2d and nn.upsampling are linear in the data and separable
/// (every method: nearest, linear, cubic): y = A_h x A_wᵀ per image. The
/// matrices come from the op itself, applied to one-hot images: row c of
/// the [h, h, w] stack is 1 at height c (constant along the width, which
/// the width interpolation keeps), so its output's column 0 is A_h[:, c];
/// likewise for A_w. Then dx = A_hᵀ g A_w. (Assumes the width weights sum
/// to one, which tf_crop_and_resize's extrapolation breaks: refused.)
LogicalResult gradient::resample(RuleBuilder &rb, Value g,
                                 SmallVectorImpl<Value> &out) {
  if (auto r = viaCanonicalLayout(rb, g, out, resample, kNCHW))
    return *r;
  if (auto resize = dyn_cast<Resize2DOp>(rb.op)) {
    if (resize.getCoordinateTransformationMode() == "tf_crop_and_resize")
      return rb.emitError() << "the gradient of `image.resize2d` with "
                               "coordinate_transformation_mode "
                               "\"tf_crop_and_resize\" is not implemented yet";
  }
  Value x = rb.op->getOperand(0);
  if (failed(requireStatic(rb, {x, g})))
    return failure();
  ArrayRef<int64_t> xs = tensorTypeOf(x).getShape();
  ArrayRef<int64_t> ys = tensorTypeOf(g).getShape();
  int64_t h = xs[2], w = xs[3];
  Type element = tensorTypeOf(x).getElementType();
  SmallVector<double> oneHotRows(h * h * w), oneHotCols(w * h * w);
  for (int64_t c = 0; c < h; ++c)
    for (int64_t a = 0; a < h; ++a)
      for (int64_t b = 0; b < w; ++b)
        oneHotRows[(c * h + a) * w + b] = c == a ? 1.0 : 0.0;
  for (int64_t c = 0; c < w; ++c)
    for (int64_t a = 0; a < h; ++a)
      for (int64_t b = 0; b < w; ++b)
        oneHotCols[(c * h + a) * w + b] = c == b ? 1.0 : 0.0;
  Operation *rows =
      rebuild(rb, {constantOf(rb, {1, h, h, w}, oneHotRows, element)}, {});
  Operation *cols =
      rebuild(rb, {constantOf(rb, {1, w, h, w}, oneHotCols, element)}, {});
  if (!rows || !cols)
    return rb.emitError() << "could not rebuild `" << rb.op->getName() << "`";
  auto column = [&](Value v, int64_t axis, int64_t n, int64_t m) {
    Value slice = StridedSliceOp::create(
        rb.b, rb.loc, v, ArrayRef<int64_t>{0}, ArrayRef<int64_t>{1},
        DenseI64ArrayAttr(), rb.b.getDenseI64ArrayAttr({axis}), "end");
    return reshapeTo(rb, slice, {n, m});
  };
  Value rowsT = column(rows->getResult(0), 3, h, ys[2]); // [h, oh]
  Value colsT = column(cols->getResult(0), 2, w, ys[3]); // [w, ow]
  out.push_back(rb.separableAdjoint(g, rowsT, colsT, x));
  return success();
}

void gradient::addImageGradients(GradientRules &rules) {
  rules["relay.image.resize2d"] = resample;
}
