//===- CanonicalizeCast.cpp - relay-canonicalize-cast ---------------------===//
//
// Relay's CanonicalizeCast: a widening `cast` (fewer bits to more) read by
// several elementwise or broadcast operators gets one copy per such use, so
// that each consumer can be fused with its own cast and the wide tensor is
// never stored (TVM 0.19's CastCanonicalizer). The first use in evaluation
// order keeps the original, which other consumers (reshape, dense, tuples,
// ...) keep sharing. Elementwise and broadcast are TVM 0.19's TOpPattern
// kElemWise and kBroadcast.
//
//===----------------------------------------------------------------------===//
#include "relay/RelayOps.h"
#include "relay/RelayPasses.h"

#include "TvmOpPattern.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYCANONICALIZECAST
#include "relay/RelayPasses.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

namespace {

unsigned bitWidth(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor ? tensor.getElementType().getIntOrFloatBitWidth() : 0;
}

/// The uses of `value` by elementwise/broadcast operators, in evaluation
/// order (an op before the ops of its regions; operands left to right).
SmallVector<OpOperand *> elementwiseUses(Value value) {
  SmallVector<OpOperand *> uses;
  bool sameBlock = true;
  Block *block = value.getParentBlock();
  for (OpOperand &use : value.getUses()) {
    if (!isElementwiseOrBroadcast(use.getOwner()))
      continue;
    uses.push_back(&use);
    sameBlock &= use.getOwner()->getBlock() == block;
  }
  DenseMap<Operation *, unsigned> rank;
  if (!sameBlock) {
    Operation *scope = block->getParentOp();
    unsigned i = 0;
    scope->walk<WalkOrder::PreOrder>([&](Operation *op) { rank[op] = i++; });
  }
  llvm::stable_sort(uses, [&](OpOperand *a, OpOperand *b) {
    Operation *x = a->getOwner(), *y = b->getOwner();
    if (x == y)
      return a->getOperandNumber() < b->getOperandNumber();
    return sameBlock ? x->isBeforeInBlock(y) : rank[x] < rank[y];
  });
  return uses;
}

/// A widening cast read by several elementwise/broadcast ops: every such use
/// after the first reads its own copy, made just before it.
struct DuplicateWideningCast : OpRewritePattern<CastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CastOp op,
                                PatternRewriter &rewriter) const override {
    unsigned from = bitWidth(op.getData().getType());
    unsigned to = bitWidth(op.getType());
    if (!from || !to || from >= to)
      return rewriter.notifyMatchFailure(op, "not a widening cast");
    SmallVector<OpOperand *> uses = elementwiseUses(op.getResult());
    if (uses.size() < 2)
      return rewriter.notifyMatchFailure(op, "fewer than two elementwise uses");
    for (OpOperand *use : llvm::drop_begin(uses)) {
      Operation *user = use->getOwner();
      rewriter.setInsertionPoint(user);
      Operation *copy = rewriter.clone(*op);
      rewriter.modifyOpInPlace(user, [&] { use->set(copy->getResult(0)); });
    }
    return success();
  }
};

struct CanonicalizeCastPass
    : relay::impl::RelayCanonicalizeCastBase<CanonicalizeCastPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateCanonicalizeCastPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace

void mlir::relay::populateCanonicalizeCastPatterns(
    RewritePatternSet &patterns) {
  patterns.add<DuplicateWideningCast>(patterns.getContext());
}
