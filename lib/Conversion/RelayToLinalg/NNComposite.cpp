//===- NNComposite.cpp - nn.mirror_pad, nn.upsampling3d -------------------===//
//
// Relay-level rewrites into operators that lower already:
//   nn.mirror_pad  REFLECT: nn.pad in "reflect" mode; SYMMETRIC: per padded
//                  dim, the first `before` elements reversed and the first
//                  `after` of the reversed data concatenated around it.
//   nn.upsampling3d  image.resize3d is separable: image.resize2d over (H, W)
//                  with C and D merged, then over (D, H*W) - an identity on
//                  the merged dim for the coordinate modes allowed - then
//                  [N, C, d, h, w]; NDHWC between transposes. Nearest and
//                  linear interpolation both factor per dim.
//
//===----------------------------------------------------------------------===//
#include "Utils.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

namespace {

struct MirrorPadPattern : OpConversionPattern<MirrorPadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MirrorPadOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = op.getData();
    ArrayRef<int64_t> width = op.getPadWidth();
    if (op.getMode() == "REFLECT") {
      Type elem = elementTypeOf(x.getType());
      Value zero = ConstantOp::create(
          rewriter, loc,
          DenseElementsAttr::get(RankedTensorType::get({}, elem),
                                 rewriter.getZeroAttr(elem)));
      rewriter.replaceOpWithNewOp<PadOp>(op, x, zero, width, "reflect");
      return success();
    }
    // The first `size` elements along `axis` (begin 0: `?` dims need no
    // run-time offset).
    auto head = [&](Value v, int64_t axis, int64_t size) -> Value {
      return StridedSliceOp::create(
          rewriter, loc, v, rewriter.getDenseI64ArrayAttr({0}),
          rewriter.getDenseI64ArrayAttr({size}), DenseI64ArrayAttr(),
          rewriter.getDenseI64ArrayAttr({axis}), "size");
    };
    auto reverse = [&](Value v, int64_t axis) -> Value {
      return ReverseOp::create(rewriter, loc, v,
                               rewriter.getI64IntegerAttr(axis));
    };
    for (int64_t d = 0, rank = width.size() / 2; d < rank; ++d) {
      int64_t before = width[2 * d], after = width[2 * d + 1];
      if (!before && !after)
        continue;
      // [reverse(x[:before]), x, reverse(x)[:after]]
      SmallVector<Value> parts;
      if (before)
        parts.push_back(reverse(head(x, d, before), d));
      parts.push_back(x);
      if (after)
        parts.push_back(head(reverse(x, d), d, after));
      x = ConcatenateOp::create(rewriter, loc, parts,
                                rewriter.getI64IntegerAttr(d));
    }
    rewriter.replaceOp(op, x);
    return success();
  }
};

struct UpSampling3DPattern : OpConversionPattern<UpSampling3DOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(UpSampling3DOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StringRef layout = op.getLayout();
    if (layout != "NCDHW" && layout != "NDHWC")
      return op.emitError()
             << "not supported yet: " << op->getName() << " with layout "
             << layout << " (NCDHW and NDHWC are)";
    bool cf = layout == "NCDHW";
    Value data = op.getData();
    auto dataType = cast<RankedTensorType>(data.getType());
    if (llvm::any_of(dataType.getShape().slice(cf ? 2 : 1, 3),
                     ShapedType::isDynamic))
      return op.emitError() << "not supported yet: " << op->getName()
                            << " with a `?` spatial dim";
    Location loc = op.getLoc();
    StringRef method =
        op.getMethod() == "trilinear" ? "linear" : "nearest_neighbor";
    StringRef mode = op.getCoordinateTransformationMode();
    auto resize = [&](Value x, ArrayRef<int64_t> size) -> Value {
      return Resize2DOp::create(
          rewriter, loc, x, rewriter.getDenseI64ArrayAttr(size),
          DenseF64ArrayAttr(), rewriter.getStringAttr("NCHW"),
          rewriter.getStringAttr(method), rewriter.getStringAttr(mode),
          rewriter.getStringAttr(""), rewriter.getF64FloatAttr(-0.5),
          rewriter.getI64IntegerAttr(0), rewriter.getF64FloatAttr(0.0),
          TypeAttr());
    };
    rewriter.replaceOp(op, separable3DAs2D(rewriter, loc, data, cf,
                                           cast<RankedTensorType>(op.getType()),
                                           resize));
    return success();
  }
};

} // namespace

void lowering::populateNNCompositePatterns(const TypeConverter &tc,
                                           RewritePatternSet &patterns) {
  patterns.add<MirrorPadPattern, UpSampling3DPattern>(tc,
                                                      patterns.getContext());
}
