//===- FailEndlessLoops.cpp - relay-fail-endless-loops --------------------===//
//
// A Relay program may loop forever: a recursion whose base case can never
// be reached again once some branch is taken (`%loop(%i) = if (%i > 33) {
// %loop(%i) } else ...`). Once recursion is a loop (relay-eliminate-
// recursion) and branches known from constants are decided (sccp,
// relay-unswitch-loops' versions), such a path is a block from which no
// return can be reached. iree-compile 3.13 cannot compile a function whose
// results have no producer on a path (its stream passes fail with "'util.
// call' op function type mismatch"), and a program that got there would
// spin forever: the block is replaced by a run-time error that names the
// loop instead ("this loop never exits"). Paths that can still return are
// left alone, so terminating programs run exactly as before.
//
//===----------------------------------------------------------------------===//
#include "../Conversion/RelayToLinalg/IREEOps.h"
#include "../Conversion/RelayToLinalg/Utils.h"
#include "relay/RelayPasses.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYFAILENDLESSLOOPS
#include "relay/RelayPasses.h.inc"
} // namespace mlir::relay

using namespace mlir;

namespace {

/// The blocks of `region` from which a block ending in a return can be
/// reached (the returning blocks included).
llvm::SmallPtrSet<Block *, 16> blocksReachingReturn(Region &region) {
  llvm::SmallPtrSet<Block *, 16> reaching;
  SmallVector<Block *> work;
  for (Block &block : region)
    if (block.mightHaveTerminator() &&
        block.getTerminator()->hasTrait<OpTrait::ReturnLike>() &&
        reaching.insert(&block).second)
      work.push_back(&block);
  while (!work.empty())
    for (Block *pred : work.pop_back_val()->getPredecessors())
      if (reaching.insert(pred).second)
        work.push_back(pred);
  return reaching;
}

/// Replaces the body of `block` by a run-time failure followed by a return
/// of placeholder results; false (and `block` unchanged) if a result type
/// has no placeholder.
bool replaceByFailure(Block &block, func::FuncOp fn) {
  Location loc = block.mightHaveTerminator() ? block.getTerminator()->getLoc()
                                             : fn.getLoc();
  Operation *oldEnd = block.empty() ? nullptr : &block.back();
  OpBuilder b = OpBuilder::atBlockEnd(&block);
  relay::iree::emitRuntimeFailure(
      b, loc,
      "relay-mlir: this program never terminates: it entered a loop that "
      "never exits" +
          relay::lowering::sourceSuffix(loc));
  SmallVector<Value> results;
  for (Type t : fn.getResultTypes()) {
    FailureOr<Value> p = relay::iree::placeholder(b, loc, t);
    if (failed(p)) {
      while (!block.empty() && &block.back() != oldEnd)
        block.back().erase();
      return false;
    }
    results.push_back(*p);
  }
  func::ReturnOp::create(b, loc, results);
  // the old body: everything before what was just built
  SmallVector<Operation *> old;
  if (oldEnd)
    for (Operation &op : block) {
      old.push_back(&op);
      if (&op == oldEnd)
        break;
    }
  for (Operation *op : llvm::reverse(old)) {
    op->dropAllUses();
    op->dropAllReferences();
  }
  for (Operation *op : llvm::reverse(old))
    op->erase();
  return true;
}

struct FailEndlessLoopsPass
    : relay::impl::RelayFailEndlessLoopsBase<FailEndlessLoopsPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    for (auto fn : getOperation().getOps<func::FuncOp>()) {
      if (fn.isExternal())
        continue;
      Region &body = fn.getBody();
      (void)eraseUnreachableBlocks(rewriter, body);
      auto reaching = blocksReachingReturn(body);
      if (reaching.size() == body.getBlocks().size())
        continue;
      // Blocks entered from a block that can still return (or the entry)
      // fail; the rest of the endless part is then unreachable.
      SmallVector<Block *> entered;
      for (Block &block : body) {
        if (reaching.contains(&block))
          continue;
        bool fromOutside = block.isEntryBlock() ||
                           llvm::any_of(block.getPredecessors(), [&](Block *p) {
                             return reaching.contains(p);
                           });
        if (fromOutside)
          entered.push_back(&block);
      }
      // every value used in the endless part is defined there or before it
      // (a use dominated by a definition reaches no return either)
      if (!entered.empty() &&
          !relay::iree::canBuildOps(&getContext(), fn.getLoc(),
                                    "relay-fail-endless-loops",
                                    "turns a loop of this function that never "
                                    "exits into a run-time error"))
        return signalPassFailure();
      for (Block *block : entered)
        if (!replaceByFailure(*block, fn)) {
          fn.emitWarning("relay-fail-endless-loops: a loop of this function "
                         "never exits, and a result type has no placeholder; "
                         "left as it is");
          break;
        }
      (void)eraseUnreachableBlocks(rewriter, body);
    }
  }
};

} // namespace
