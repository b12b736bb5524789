//===- FlattenAtrousConv.cpp - relay-flatten-atrous-conv ------------------===//
//
// Relay's FlattenAtrousConv: TensorFlow writes an atrous (dilated)
// convolution of rate r as `nn.space_to_batch_nd` (block [r, r]), an
// undilated NHWC `nn.conv2d` and `nn.batch_to_space_nd`; TVM 0.19
// (src/relay/transforms/flatten_atrous_conv.cc) turns the three into one
// `nn.conv2d` of the data with `dilation = block_shape`. TVM gives the new
// conv SAME padding computed from the data's size whatever the paddings and
// crops were, which breaks a VALID atrous conv (its type checker rejects the
// result). Here the padding is what the three ops compute: before = paddings
// before - crops before, after = paddings after - crops after per spatial
// dim (TVM's for TensorFlow's SAME pattern). The three stay unless a dilated
// conv equals them: a 2-entry block_shape equal in both block moves,
// pad_value 0, a conv2d in NHWC with strides [1, 1], dilation [1, 1] and no
// padding of its own, and paddings at least the crops.
//
//===----------------------------------------------------------------------===//
#include "relay/RelayOps.h"
#include "relay/RelayPasses.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYFLATTENATROUSCONV
#include "relay/RelayPasses.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

namespace {

/// The conv2d padding [top, left, bottom, right] equal to `paddings` (of
/// space_to_batch_nd) minus `crops` (of batch_to_space_nd), both flattened
/// (before, after) per spatial dim, or nothing if a crop exceeds its
/// padding.
std::optional<SmallVector<int64_t>> paddingMinusCrops(ArrayRef<int64_t> pads,
                                                      ArrayRef<int64_t> crops) {
  if (pads.size() != 4 || crops.size() != 4)
    return std::nullopt;
  SmallVector<int64_t> padding = {pads[0] - crops[0], pads[2] - crops[2],
                                  pads[1] - crops[1], pads[3] - crops[3]};
  if (llvm::any_of(padding, [](int64_t p) { return p < 0; }))
    return std::nullopt;
  return padding;
}

/// batch_to_space_nd(conv2d(space_to_batch_nd(x), w)) -> conv2d(x, w) with
/// dilation = block_shape and padding = paddings - crops.
struct FlattenAtrousConv : OpRewritePattern<BatchToSpaceNDOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BatchToSpaceNDOp op,
                                PatternRewriter &rewriter) const override {
    auto conv = op.getData().getDefiningOp<Conv2DOp>();
    auto s2b = conv ? conv.getData().getDefiningOp<SpaceToBatchNDOp>()
                    : SpaceToBatchNDOp();
    if (!s2b)
      return rewriter.notifyMatchFailure(
          op, "data is not nn.conv2d of nn.space_to_batch_nd");
    ArrayRef<int64_t> block = s2b.getBlockShape();
    if (block.size() != 2 || op.getBlockShape() != block)
      return rewriter.notifyMatchFailure(
          op, "block_shape not of 2 entries equal in both block moves");
    if (!s2b.getPadValue().isZero())
      return rewriter.notifyMatchFailure(op, "pad_value is not 0");
    if (conv.getDataLayout() != "NHWC" ||
        conv.getStrides() != ArrayRef<int64_t>{1, 1} ||
        conv.getDilation() != ArrayRef<int64_t>{1, 1} ||
        llvm::any_of(conv.getPadding(), [](int64_t p) { return p != 0; }))
      return rewriter.notifyMatchFailure(
          op, "conv2d not NHWC with strides 1, dilation 1, no padding");
    std::optional<SmallVector<int64_t>> padding =
        paddingMinusCrops(s2b.getPaddings(), op.getCrops());
    if (!padding)
      return rewriter.notifyMatchFailure(op, "crops exceed the paddings");
    NamedAttrList attrs(conv->getAttrDictionary());
    attrs.set("padding", rewriter.getDenseI64ArrayAttr(*padding));
    attrs.set("dilation", rewriter.getDenseI64ArrayAttr(block));
    FailureOr<Operation *> dilated =
        createInferred(rewriter, op.getLoc(), conv->getName(),
                       ValueRange{s2b.getData(), conv.getWeight()},
                       attrs.getDictionary(rewriter.getContext()));
    if (failed(dilated))
      return rewriter.notifyMatchFailure(op, "typing rule refused the conv");
    if ((*dilated)->getResult(0).getType() != op.getType()) {
      rewriter.eraseOp(*dilated);
      return rewriter.notifyMatchFailure(op, "dilated conv of another type");
    }
    rewriter.replaceOp(op, (*dilated)->getResults());
    return success();
  }
};

struct FlattenAtrousConvPass
    : relay::impl::RelayFlattenAtrousConvBase<FlattenAtrousConvPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateFlattenAtrousConvPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void mlir::relay::populateFlattenAtrousConvPatterns(
    RewritePatternSet &patterns) {
  patterns.add<FlattenAtrousConv>(patterns.getContext());
}
