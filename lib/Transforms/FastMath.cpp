//===- FastMath.cpp - relay-fast-math -------------------------------------===//
//
// Relay's FastMath: `exp`, `tanh` and `erf` become `fast_exp`, `fast_tanh`
// and `fast_erf`, operators that allow an approximation (TVM 0.19's pass;
// it also makes `nn.softmax` an `nn.fast_softmax`, an operator the relay
// dialect does not have, so softmax stays). The fast operators lower to the
// same math ops as the exact ones here (docs/passes.md has their measured
// errors next to TVM's approximations).
//
//===----------------------------------------------------------------------===//
#include "relay/RelayOps.h"
#include "relay/RelayPasses.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYFASTMATH
#include "relay/RelayPasses.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

namespace {

/// `Exact(x)` -> `Fast(x)`: the same operand, the inferred (same) type.
template <typename Exact, typename Fast>
struct ToFastOp : OpRewritePattern<Exact> {
  using OpRewritePattern<Exact>::OpRewritePattern;
  LogicalResult matchAndRewrite(Exact op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<Fast>(op, op.getData());
    return success();
  }
};

struct FastMathPass : relay::impl::RelayFastMathBase<FastMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateFastMathPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace

void mlir::relay::populateFastMathPatterns(RewritePatternSet &patterns) {
  patterns.add<ToFastOp<ExpOp, FastExpOp>, ToFastOp<TanhOp, FastTanhOp>,
               ToFastOp<ErfOp, FastErfOp>>(patterns.getContext());
}
