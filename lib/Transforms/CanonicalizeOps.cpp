//===- CanonicalizeOps.cpp - relay-canonicalize-ops -----------------------===//
//
// Relay's CanonicalizeOps: special operators as basic ones, so that later
// passes (FoldScaleAxis, the layout passes) see fewer kinds of op. TVM 0.19
// rewrites one operator (src/relay/transforms/canonicalize_ops.cc):
// `nn.bias_add(x, b, axis)` becomes `add(x, b')` with `b'` the bias given
// unit dims after `axis` by one `expand_dims` (none when `axis` is the last
// dim), so that it broadcasts along `axis`. Ops are built by their typed
// builders.
//
//===----------------------------------------------------------------------===//
#include "relay/RelayOps.h"
#include "relay/RelayPasses.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYCANONICALIZEOPS
#include "relay/RelayPasses.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

namespace {

/// nn.bias_add(x, b, axis) -> add(x, expand_dims(b, 1, rank - axis - 1)).
struct BiasAddAsAdd : OpRewritePattern<BiasAddOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BiasAddOp op,
                                PatternRewriter &rewriter) const override {
    auto data = dyn_cast<RankedTensorType>(op.getData().getType());
    auto bias = dyn_cast<RankedTensorType>(op.getBias().getType());
    if (!data || !bias || bias.getRank() != 1)
      return rewriter.notifyMatchFailure(op, "operands not typed");
    int64_t rank = data.getRank();
    int64_t axis = static_cast<int64_t>(op.getAxis());
    if (axis < 0)
      axis += rank;
    if (axis < 0 || axis >= rank)
      return rewriter.notifyMatchFailure(op, "axis out of range");
    // The add's type is the bias_add's unless the two sizes along the axis
    // are a ? and a static size (add would refine the ? to it, or make a
    // static 1 a ?): those stay.
    int64_t dataDim = data.getDimSize(axis), biasDim = bias.getDimSize(0);
    if (ShapedType::isDynamic(dataDim) != ShapedType::isDynamic(biasDim))
      return rewriter.notifyMatchFailure(op, "? against a static size along "
                                             "the axis");
    Value b = op.getBias();
    if (int64_t trailing = rank - axis - 1; trailing > 0)
      b = ExpandDimsOp::create(rewriter, op.getLoc(), b,
                               rewriter.getI64IntegerAttr(1),
                               rewriter.getI64IntegerAttr(trailing));
    rewriter.replaceOpWithNewOp<AddOp>(op, op.getData(), b);
    return success();
  }
};

struct CanonicalizeOpsPass
    : relay::impl::RelayCanonicalizeOpsBase<CanonicalizeOpsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateCanonicalizeOpsPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace

void mlir::relay::populateCanonicalizeOpsPatterns(RewritePatternSet &patterns) {
  patterns.add<BiasAddAsAdd>(patterns.getContext());
}
