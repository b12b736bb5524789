//===- PartialEval.cpp - relay-partial-eval
//--------------------------------===//
//
// Inlines known calls and closures (gradient::inlineCalls, the same inliner
// relay-gradient uses) in every function, then folds `relay.if`s whose
// condition is a constant into the chosen branch.
//
//===----------------------------------------------------------------------===//
#include "relay/RelayGradient.h"
#include "relay/RelayOps.h"
#include "relay/RelayPasses.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYPARTIALEVAL
#include "relay/RelayPasses.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

namespace {

/// `relay.if` of a constant condition: the chosen branch, inlined.
struct ConstantIf : OpRewritePattern<IfOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(IfOp op,
                                PatternRewriter &rewriter) const override {
    DenseElementsAttr cond;
    if (!matchPattern(op.getCond(), m_Constant(&cond)) || !cond.isSplat())
      return failure();
    Region &chosen =
        cond.getSplatValue<bool>() ? op.getThenRegion() : op.getElseRegion();
    Block &block = chosen.front();
    auto yield = cast<YieldOp>(block.getTerminator());
    Value result = yield.getValue();
    rewriter.eraseOp(yield);
    rewriter.inlineBlockBefore(&block, op);
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct PartialEvalPass : relay::impl::RelayPartialEvalBase<PartialEvalPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> functions(module.getOps<func::FuncOp>());
    for (func::FuncOp fn : functions)
      if (!fn.isExternal() && failed(gradient::inlineCalls(fn.getBody())))
        return signalPassFailure();
    RewritePatternSet patterns(&getContext());
    patterns.add<ConstantIf>(&getContext());
    if (failed(applyPatternsGreedily(module, std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
