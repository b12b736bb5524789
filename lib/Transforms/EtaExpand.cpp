//===- EtaExpand.cpp - relay-eta-expand -----------------------------------===//
//
// Relay's EtaExpand(expand_global_var): a module function used as a value
// (`relay.global_fn @g` other than as the callee of a `relay.call`) becomes
// `fn (params) { @g(params) }` at those uses. Constructors used as values
// are such closures already in the relay dialect (the builder writes them
// so), which is what EtaExpand(expand_constructor) makes of them in TVM.
//
//===----------------------------------------------------------------------===//
#include "relay/RelayOps.h"
#include "relay/RelayPasses.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYETAEXPAND
#include "relay/RelayPasses.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

namespace {

/// Whether `use` applies the function (the callee of a relay.call).
bool isCallee(OpOperand &use) {
  auto call = dyn_cast<relay::CallOp>(use.getOwner());
  return call && use.getOperandNumber() == 0;
}

/// `relay.global_fn @g` used as a value -> `relay.fn { @g(params) }` there.
struct ExpandGlobalFn : OpRewritePattern<GlobalFnOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(GlobalFnOp op,
                                PatternRewriter &rewriter) const override {
    if (llvm::all_of(op->getUses(), isCallee))
      return rewriter.notifyMatchFailure(op, "only applied");
    auto type = dyn_cast<FuncType>(op.getType());
    if (!type)
      return rewriter.notifyMatchFailure(op, "type not a function type");
    Location loc = op.getLoc();
    auto fn = FnOp::create(rewriter, loc, type, UnitAttr());
    Block *body = rewriter.createBlock(
        &fn.getBody(), {}, type.getInputs(),
        SmallVector<Location>(type.getInputs().size(), loc));
    auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        op, op.getCalleeAttr());
    Value result;
    if (callee &&
        callee.getFunctionType() ==
            rewriter.getFunctionType(type.getInputs(), type.getResult())) {
      result = func::CallOp::create(rewriter, loc, callee, body->getArguments())
                   .getResult(0);
    } else { // a generic function at an instance of its type
      Value g = GlobalFnOp::create(rewriter, loc, type, op.getCalleeAttr());
      result = relay::CallOp::create(rewriter, loc, type.getResult(), g,
                                     body->getArguments())
                   .getResult();
    }
    YieldOp::create(rewriter, loc, result);
    rewriter.setInsertionPointAfter(fn);
    rewriter.modifyOpInPlace(op, [&] {
      op.getResult().replaceUsesWithIf(
          fn.getResult(), [](OpOperand &use) { return !isCallee(use); });
    });
    return success();
  }
};

struct EtaExpandPass : relay::impl::RelayEtaExpandBase<EtaExpandPass> {
  using RelayEtaExpandBase::RelayEtaExpandBase;

  void runOnOperation() override {
    if (!expandConstructor && !expandGlobalVar) {
      getOperation().emitError()
          << "relay-eta-expand: expand at least one of constructors "
             "(expand-constructor) and global functions (expand-global-var)";
      return signalPassFailure();
    }
    if (!expandGlobalVar)
      return; // constructors used as values are closures already
    RewritePatternSet patterns(&getContext());
    populateEtaExpandPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void mlir::relay::populateEtaExpandPatterns(RewritePatternSet &patterns) {
  patterns.add<ExpandGlobalFn>(patterns.getContext());
}
