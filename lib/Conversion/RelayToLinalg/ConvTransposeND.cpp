//===- ConvTransposeND.cpp - nn.conv1d_transpose, nn.conv3d_transpose -----===//
//
// Relay-level rewrites:
//   nn.conv1d_transpose  nn.conv2d_transpose on a unit H (an H inserted
//                        before W in every layout), then squeezed: any
//                        layout, groups, out_dtype and `?` data dims the
//                        2-D lowering takes.
//   nn.conv3d_transpose  the data adjoint of the nn.conv3d whose weight it
//                        takes, which the gradient rules already build
//                        (WindowAdjoints' scatterConv): the input dilated by
//                        the strides, padded (or cropped), correlated with
//                        the kernel flipped and its channels transposed per
//                        group. Layouts other than NCDHW/IODHW are
//                        transposed to them and back; `out_dtype` casts both
//                        operands first (the convolution accumulates in its
//                        operands' dtype). Shapes must be static.
//
//===----------------------------------------------------------------------===//
#include "../../Gradient/WindowAdjoints.h"
#include "Utils.h"

#include "relay/Utils/LayoutUtils.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

namespace {

/// `layout` with an H inserted before its W ("NCW" -> "NCHW").
std::string withUnitH(StringRef layout) {
  size_t w = layout.find('W');
  return (layout.take_front(w) + "H" + layout.drop_front(w)).str();
}

struct ConvTranspose1DAsConv2DPattern : OpConversionPattern<Conv1DTransposeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Conv1DTransposeOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // The typing rule has checked the layouts: each holds one W.
    int64_t dataW = op.getDataLayout().find('W');
    int64_t kernelW = op.getKernelLayout().find('W');
    StringRef outLayout =
        op.getOutLayout().empty() ? op.getDataLayout() : op.getOutLayout();
    int64_t outW = outLayout.find('W');
    auto unitAt = [&](Value v, int64_t axis) -> Value {
      return ExpandDimsOp::create(rewriter, loc, v,
                                  rewriter.getI64IntegerAttr(axis),
                                  rewriter.getI64IntegerAttr(1));
    };
    SmallVector<int64_t> pad =
        gradient::window::paddingFull(op.getPadding(), 1);
    auto withOne = [&](ArrayRef<int64_t> v) {
      return rewriter.getDenseI64ArrayAttr({1, v[0]});
    };
    DenseI64ArrayAttr kernelSize;
    if (auto k = op.getKernelSize())
      kernelSize = withOne(*k);
    Value y = Conv2DTransposeOp::create(
        rewriter, loc, unitAt(op.getData(), dataW),
        unitAt(op.getWeight(), kernelW), withOne(op.getStrides()),
        rewriter.getDenseI64ArrayAttr({0, pad[0], 0, pad[1]}),
        withOne(op.getDilation()), op.getGroupsAttr(), op.getChannelsAttr(),
        kernelSize, rewriter.getStringAttr(withUnitH(op.getDataLayout())),
        rewriter.getStringAttr(withUnitH(op.getKernelLayout())),
        rewriter.getStringAttr(withUnitH(outLayout)),
        rewriter.getDenseI64ArrayAttr({0, op.getOutputPadding()[0]}),
        op.getOutDtypeAttr());
    rewriter.replaceOpWithNewOp<SqueezeOp>(
        op, y, rewriter.getDenseI64ArrayAttr({outW}));
    return success();
  }
};

struct ConvTranspose3DAsConvPattern : OpConversionPattern<Conv3DTransposeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Conv3DTransposeOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    constexpr int N = 3;
    std::string sp = "DHW";
    StringRef outLayout =
        op.getOutLayout().empty() ? op.getDataLayout() : op.getOutLayout();
    auto dl = getLayoutPermutation(op.getDataLayout(), "NC" + sp);
    auto kl = getLayoutPermutation(op.getKernelLayout(), "IO" + sp);
    auto ol = getLayoutPermutation("NC" + sp, outLayout);
    if (failed(dl) || failed(kl) || failed(ol))
      return op.emitError()
             << "not supported yet: " << op->getName() << " with layouts "
             << op.getDataLayout() << "/" << op.getKernelLayout();
    // Relay operands: the rewrite builds relay ops, which keep signedness.
    Value data = op.getData(), weight = op.getWeight();
    auto resultType = cast<RankedTensorType>(op.getType());
    if (!cast<RankedTensorType>(data.getType()).hasStaticShape() ||
        !cast<RankedTensorType>(weight.getType()).hasStaticShape() ||
        !resultType.hasStaticShape())
      return op.emitError()
             << "not supported yet: " << op->getName() << " with `?` dims";
    Location loc = op.getLoc();
    Value x = relayTranspose(rewriter, loc, data, *dl),
          w = relayTranspose(rewriter, loc, weight, *kl);
    // out_dtype (the result's dtype, by the typing rule) as the operands'.
    Type acc = resultType.getElementType();
    if (elementTypeOf(x.getType()) != acc) {
      x = CastOp::create(rewriter, loc, x, acc);
      w = CastOp::create(rewriter, loc, w, acc);
    }
    // The result's spatial sizes in canonical order.
    SmallVector<int64_t> size;
    SmallVector<int64_t> toCanon = *getLayoutPermutation(outLayout, "NC" + sp);
    for (int d = 0; d < N; ++d)
      size.push_back(resultType.getDimSize(toCanon[2 + d]));
    gradient::RuleBuilder rb(rewriter, op);
    Value y = gradient::window::scatterConv(
        rb, x, w, op.getStrides(),
        gradient::window::paddingFull(op.getPadding(), N), op.getDilation(),
        op.getGroups(), size);
    rewriter.replaceOp(op, relayTranspose(rewriter, loc, y, *ol));
    return success();
  }
};

} // namespace

void lowering::populateConvTransposeNDPatterns(const TypeConverter &tc,
                                               RewritePatternSet &patterns) {
  patterns.add<ConvTranspose1DAsConv2DPattern, ConvTranspose3DAsConvPattern>(
      tc, patterns.getContext());
}
