//===- DivToMul.cpp - relay-div-to-mul ------------------------------------===//
//
// Relay's DivToMul: `divide(x, c)` with `c` a float16/32/64 constant becomes
// `multiply(x, 1 / c)`, the reciprocal computed element by element at compile
// time (TVM 0.19 computes only element 0 of a non-scalar constant and leaves
// the others unset; here every element is inverted). A constant with a zero
// element, an integer or bfloat16 constant, and a divisor that is not a
// constant are left alone (FoldConstant runs first in a Sequential).
//
//===----------------------------------------------------------------------===//
#include "relay/RelayOps.h"
#include "relay/RelayPasses.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYDIVTOMUL
#include "relay/RelayPasses.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

namespace {

/// `divide(x, c)` -> `multiply(x, 1 / c)` for a float constant `c` without
/// zeros.
struct DivideByConstantToMultiply : OpRewritePattern<DivideOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(DivideOp op,
                                PatternRewriter &rewriter) const override {
    auto constant = op.getRhs().getDefiningOp<ConstantOp>();
    if (!constant)
      return rewriter.notifyMatchFailure(op, "divisor not a constant");
    auto value = dyn_cast<DenseElementsAttr>(constant.getValue());
    if (!value)
      return rewriter.notifyMatchFailure(op, "divisor not dense elements");
    Type element = value.getElementType();
    if (!element.isF16() && !element.isF32() && !element.isF64())
      return rewriter.notifyMatchFailure(op, "divisor not float16/32/64");
    if (llvm::any_of(value.getValues<APFloat>(),
                     [](const APFloat &v) { return v.isZero(); }))
      return rewriter.notifyMatchFailure(op, "divisor has a zero");
    DenseElementsAttr inverse = value.mapValues(element, [](const APFloat &v) {
      APFloat one(v.getSemantics(), 1);
      one.divide(v, APFloat::rmNearestTiesToEven);
      return one.bitcastToAPInt();
    });
    Value reciprocal = ConstantOp::create(rewriter, constant.getLoc(),
                                          cast<ElementsAttr>(inverse));
    rewriter.replaceOpWithNewOp<MultiplyOp>(op, op.getLhs(), reciprocal);
    return success();
  }
};

struct DivToMulPass : relay::impl::RelayDivToMulBase<DivToMulPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateDivToMulPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace

void mlir::relay::populateDivToMulPatterns(RewritePatternSet &patterns) {
  patterns.add<DivideByConstantToMultiply>(patterns.getContext());
}
