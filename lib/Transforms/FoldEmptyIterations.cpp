//===- FoldEmptyIterations.cpp - relay-fold-empty-iterations --------------===//
//
// Relay's operators are defined on tensors with size-0 dims: a `dense` with
// no contraction elements is all zeros, a `sum` over an empty axis its
// identity, a `softmax` of an empty tensor an empty tensor. Their lowerings
// build linalg ops as for any other size; an op that iterates over nothing
// leaves its inits as they are, so that is its value:
//   * a structured linalg op with a static loop range of 0 never runs its
//     body: each result is the init it would have updated (the filled
//     accumulator of a contraction, a reduction's identity);
//   * any other destination-style op on tensors (linalg.softmax, ...) whose
//     results all have no elements is its inits (there is nothing to write).
// iree-compile 3.13 dies of SIGFPE (in AnnotateDispatchesPass) on dispatches
// over an empty iteration space, so none may reach it.
//
//===----------------------------------------------------------------------===//
#include "relay/RelayPasses.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYFOLDEMPTYITERATIONS
#include "relay/RelayPasses.h.inc"
} // namespace mlir::relay

using namespace mlir;

namespace {

/// A tensor type with a static size-0 dim.
bool hasNoElements(Type type) {
  auto t = dyn_cast<RankedTensorType>(type);
  return t && llvm::is_contained(t.getShape(), 0);
}

/// A structured op whose iteration space is empty: its results are its inits.
struct FoldEmptyIterationSpace : OpInterfaceRewritePattern<linalg::LinalgOp> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;
  LogicalResult matchAndRewrite(linalg::LinalgOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() ||
        !llvm::is_contained(op.getStaticLoopRanges(), 0))
      return failure();
    rewriter.replaceOp(op, op.getDpsInits());
    return success();
  }
};

/// A destination-style op on tensors with no side effects whose results have
/// no elements: its results are its inits.
struct FoldEmptyResults
    : OpInterfaceRewritePattern<DestinationStyleOpInterface> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;
  LogicalResult matchAndRewrite(DestinationStyleOpInterface op,
                                PatternRewriter &rewriter) const override {
    if (isa<linalg::LinalgOp>(op.getOperation()) ||
        !op.hasPureTensorSemantics() || op->getNumResults() == 0 ||
        !isMemoryEffectFree(op) ||
        !llvm::all_of(op->getResultTypes(), hasNoElements))
      return failure();
    rewriter.replaceOp(op, op.getDpsInits());
    return success();
  }
};

struct FoldEmptyIterationsPass
    : relay::impl::RelayFoldEmptyIterationsBase<FoldEmptyIterationsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FoldEmptyIterationSpace, FoldEmptyResults>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
