//===- FoldConstants.cpp - relay-fold-constants ---------------------------===//
//
// Splat constants and algebraic identities, as rewrite patterns run by the
// greedy driver: `*_like` fills of static shapes become splats, shape ops
// carry splats through, and multiplying by one / adding zero disappear when
// the types allow. Only exact identities: no fold changes a value.
//
//===----------------------------------------------------------------------===//
#include "relay/RelayOps.h"
#include "relay/RelayPasses.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYFOLDCONSTANTS
#include "relay/RelayPasses.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

namespace {

/// The splat value of a constant, if `v` is a splat constant.
std::optional<Attribute> splatOf(Value v) {
  DenseElementsAttr attr;
  if (!matchPattern(v, m_Constant(&attr)) || !attr.isSplat())
    return std::nullopt;
  return attr.getSplatValue<Attribute>();
}

bool isSplatOf(Value v, double value) {
  std::optional<Attribute> splat = splatOf(v);
  if (!splat)
    return false;
  if (auto f = dyn_cast<FloatAttr>(*splat))
    return f.getValueAsDouble() == value;
  if (auto i = dyn_cast<IntegerAttr>(*splat))
    return i.getValue().getSExtValue() == static_cast<int64_t>(value) &&
           static_cast<double>(static_cast<int64_t>(value)) == value;
  return false;
}

Value splatConstant(PatternRewriter &rewriter, Location loc,
                    RankedTensorType type, Attribute element) {
  return ConstantOp::create(
      rewriter, loc, cast<ElementsAttr>(DenseElementsAttr::get(type, element)));
}

/// `zeros_like`, `ones_like`, `zeros`, `ones` of a static shape: a splat.
template <typename Op, int Value_>
struct FillLikeToSplat : OpRewritePattern<Op> {
  using OpRewritePattern<Op>::OpRewritePattern;
  LogicalResult matchAndRewrite(Op op,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getResult().getType());
    if (!type || !type.hasStaticShape())
      return failure();
    Type element = type.getElementType();
    Attribute value;
    if (auto f = dyn_cast<FloatType>(element))
      value = rewriter.getFloatAttr(f, Value_);
    else if (isa<IntegerType>(element))
      value = rewriter.getIntegerAttr(element, Value_);
    else
      return failure();
    rewriter.replaceOp(op, splatConstant(rewriter, op.getLoc(), type, value));
    return success();
  }
};

/// A shape op (one data operand first) of a splat: the splat of its type.
struct ShapeOpOfSplat : RewritePattern {
  ShapeOpOfSplat(MLIRContext *ctx)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    // Every element of their result is an element of their first operand.
    // (Also a workaround: IREE 3.13 miscomputes a reduction of a `take` of a
    // splat, lowered as a generic that ignores its index input.)
    if (!isa<ExpandDimsOp, ReshapeOp, SqueezeOp, BroadcastToOp,
             BroadcastToLikeOp, ReshapeLikeOp, TransposeOp, BatchFlattenOp,
             TakeOp, GatherOp, GatherNDOp, StridedSliceOp, TileOp, RepeatOp,
             ReverseOp>(op))
      return failure();
    std::optional<Attribute> splat = splatOf(op->getOperand(0));
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!splat || !type || !type.hasStaticShape())
      return failure();
    rewriter.replaceOp(op, splatConstant(rewriter, op->getLoc(), type, *splat));
    return success();
  }
};

/// `x op c` (or `c op x` when commutative) is `x` for the identity `c`.
template <typename Op, int Identity, bool Commutative>
struct DropIdentity : OpRewritePattern<Op> {
  using OpRewritePattern<Op>::OpRewritePattern;
  LogicalResult matchAndRewrite(Op op,
                                PatternRewriter &rewriter) const override {
    Value lhs = op->getOperand(0), rhs = op->getOperand(1);
    Type result = op->getResult(0).getType();
    if (isSplatOf(rhs, Identity) && lhs.getType() == result) {
      rewriter.replaceOp(op, lhs);
      return success();
    }
    if (Commutative && isSplatOf(lhs, Identity) && rhs.getType() == result) {
      rewriter.replaceOp(op, rhs);
      return success();
    }
    return failure();
  }
};

/// `collapse_sum_like` of a float constant: the summed constant.
struct CollapseSumOfConstant : OpRewritePattern<CollapseSumLikeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CollapseSumLikeOp op,
                                PatternRewriter &rewriter) const override {
    DenseElementsAttr data;
    if (!matchPattern(op.getData(), m_Constant(&data)))
      return failure();
    auto type = dyn_cast<RankedTensorType>(op.getResult().getType());
    auto floatType = dyn_cast<FloatType>(data.getElementType());
    if (!type || !type.hasStaticShape() || !floatType ||
        !data.getType().hasStaticShape())
      return failure();
    ArrayRef<int64_t> in = data.getType().getShape();
    ArrayRef<int64_t> out = type.getShape();
    int64_t offset = in.size() - out.size();
    SmallVector<double> sums(type.getNumElements(), 0.0);
    SmallVector<int64_t> index(in.size(), 0);
    for (const APFloat &value : data.getValues<APFloat>()) {
      // The result element this data element is summed into.
      int64_t flat = 0;
      for (int64_t d = 0, e = out.size(); d < e; ++d)
        flat = flat * out[d] + (out[d] == 1 ? 0 : index[offset + d]);
      sums[flat] += value.convertToDouble();
      for (int64_t d = in.size() - 1; d >= 0; --d) {
        if (++index[d] < in[d])
          break;
        index[d] = 0;
      }
    }
    SmallVector<Attribute> values;
    for (double v : sums)
      values.push_back(rewriter.getFloatAttr(floatType, v));
    rewriter.replaceOpWithNewOp<ConstantOp>(
        op, cast<ElementsAttr>(DenseElementsAttr::get(type, values)));
    return success();
  }
};

struct FoldConstantsPass
    : relay::impl::RelayFoldConstantsBase<FoldConstantsPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    patterns
        .add<FillLikeToSplat<ZerosLikeOp, 0>, FillLikeToSplat<OnesLikeOp, 1>,
             FillLikeToSplat<ZerosOp, 0>, FillLikeToSplat<OnesOp, 1>,
             ShapeOpOfSplat, DropIdentity<MultiplyOp, 1, true>,
             DropIdentity<DivideOp, 1, false>, DropIdentity<AddOp, 0, true>,
             DropIdentity<SubtractOp, 0, false>, CollapseSumOfConstant>(ctx);
    // Folders (tuple_get_item of a tuple, constants) run with the patterns.
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
