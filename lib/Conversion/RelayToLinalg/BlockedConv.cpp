//===- BlockedConv.cpp - nn.contrib_conv2d_NCHWc and its depthwise form ---===//
//
// TVM's blocked convolutions (data NCHW{n}c, kernel OIHW{n}i{m}o, result
// out_layout) are rewritten at the relay level into what they compute:
//   layout_transform(data -> NCHW), layout_transform(kernel -> OIHW),
//   nn.conv2d (the op's attributes), layout_transform(NCHW -> out_layout),
// which this conversion then lowers. Why not one linalg.generic contraction
// over the blocked operands: nn.conv2d already has every strategy (im2col +
// matmul, the named depthwise and grouped ops IREE tunes, the generic
// fallback), and the layout_transforms are expand_shape / transpose /
// collapse_shape that IREE fuses into the conv's producers and consumers (a
// constant kernel's is folded), so the blocked form would only add a less
// tuned contraction computing the same values.
//
//===----------------------------------------------------------------------===//
#include "Utils.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

namespace {

template <typename OpTy>
struct BlockedConv2DDecomposition : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op, typename OpConversionPattern<OpTy>::OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto str = [&](StringRef s) { return rewriter.getStringAttr(s); };
    StringRef outLayout =
        op.getOutLayout().empty() ? op.getDataLayout() : op.getOutLayout();
    // The relay operands (their signedness is the relay op's), not the
    // converted ones: the new relay ops are lowered by this conversion.
    Value x = LayoutTransformOp::create(rewriter, loc, op.getData(),
                                        op.getDataLayoutAttr(), str("NCHW"));
    Value w = LayoutTransformOp::create(rewriter, loc, op.getWeight(),
                                        op.getKernelLayoutAttr(), str("OIHW"));
    Value y = Conv2DOp::create(rewriter, loc, x, w, op.getStridesAttr(),
                               op.getPaddingAttr(), op.getDilationAttr(),
                               op.getGroupsAttr(), op.getChannelsAttr(),
                               op.getKernelSizeAttr(), str("NCHW"), str("OIHW"),
                               str(""), op.getOutDtypeAttr());
    rewriter.replaceOp(op, LayoutTransformOp::create(
                               rewriter, loc, y, str("NCHW"), str(outLayout)));
    return success();
  }
};

} // namespace

void lowering::populateBlockedConvPatterns(const TypeConverter &tc,
                                           RewritePatternSet &patterns) {
  patterns.add<BlockedConv2DDecomposition<Conv2DNCHWcOp>,
               BlockedConv2DDecomposition<DepthwiseConv2DNCHWcOp>>(
      tc, patterns.getContext());
}
