//===- Gradient.cpp - relay-gradient
//---------------------------------------===//
//
// Expands `relay.grad`. The differentiated body is a copy of the function
// (a new `func.func @f$grad` for a module function, a new `relay.fn` for a
// closure) with its known calls inlined (gradient::inlineCalls) and the
// reverse sweep appended (gradient::differentiateBody). Gradient functions
// may contain `relay.grad` themselves (higher derivatives): the pass
// repeats until none is left.
//
//===----------------------------------------------------------------------===//
#include "relay/RelayGenerics.h"
#include "relay/RelayGradient.h"
#include "relay/RelayOps.h"
#include "relay/RelayPasses.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYGRADIENT
#include "relay/RelayPasses.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

namespace {

/// The parameters `grad` differentiates with respect to.
SmallVector<Value> wrtParams(GradOp grad, ValueRange params) {
  SmallVector<Value> wrt;
  if (auto positions = grad.getWrt()) {
    for (int64_t i : *positions)
      wrt.push_back(params[i]);
  } else {
    wrt.append(params.begin(), params.end());
  }
  return wrt;
}

/// A name for the gradient of `@name` under `grad`'s declarations.
std::string gradName(StringRef name, GradOp grad) {
  std::string out = (name + "$grad").str();
  if (auto positions = grad.getWrt()) {
    out += "$wrt";
    for (int64_t i : *positions)
      out += "_" + std::to_string(i);
  }
  if (!grad.getKeeping())
    out += "$nokeep";
  if (grad.getSeedable())
    out += "$seed";
  return out;
}

LogicalResult differentiate(Block &body, GradOp grad, ValueRange params) {
  gradient::GradSpec spec;
  spec.wrt = wrtParams(grad, params);
  spec.keeping = grad.getKeeping();
  if (grad.getSeedable()) {
    auto fnType = cast<FuncType>(grad.getFn().getType());
    spec.seed = body.addArgument(fnType.getResult(), grad.getLoc());
  }
  return gradient::differentiateBody(body, spec);
}

/// `relay.grad` of `relay.global_fn @f`: a new module function.
LogicalResult expandGlobal(GradOp grad, GlobalFnOp ref, SymbolTable &symbols,
                           llvm::StringMap<std::string> &done) {
  auto fn = symbols.lookup<func::FuncOp>(ref.getCallee());
  if (!fn || fn.isExternal())
    return grad.emitError()
           << "cannot differentiate @" << ref.getCallee() << ": it has no body";
  std::string name = gradName(fn.getSymName(), grad);
  auto resultType = cast<FuncType>(grad.getResult().getType());
  if (!done.count(name)) {
    func::FuncOp copy = fn.clone();
    copy.setSymName(name);
    copy->removeAttr("relay.type_params");
    symbols.insert(copy, std::next(Block::iterator(fn)));
    Block &body = copy.getBody().front();
    if (failed(gradient::inlineCalls(copy.getBody())) ||
        failed(differentiate(body, grad, body.getArguments())))
      return failure();
    copy.setFunctionType(FunctionType::get(
        grad.getContext(), resultType.getInputs(), {resultType.getResult()}));
    done[name] = copy.getSymName().str();
  }
  OpBuilder b(grad);
  auto replacement =
      GlobalFnOp::create(b, grad.getLoc(), resultType, done[name]);
  grad.getResult().replaceAllUsesWith(replacement);
  grad.erase();
  return success();
}

/// `relay.grad` of a `relay.fn`: a new `relay.fn` in place.
LogicalResult expandClosure(GradOp grad, FnOp fn) {
  if (fn.getRecursive())
    return grad.emitError() << "cannot differentiate a recursive closure yet";
  OpBuilder b(grad);
  auto resultType = cast<FuncType>(grad.getResult().getType());
  auto copy = FnOp::create(b, grad.getLoc(), resultType, UnitAttr());
  IRMapping mapping;
  fn.getBody().cloneInto(&copy.getBody(), mapping);
  Block &body = copy.getBody().front();
  if (failed(gradient::inlineCalls(copy.getBody())) ||
      failed(differentiate(body, grad, body.getArguments())))
    return failure();
  grad.getResult().replaceAllUsesWith(copy.getResult());
  grad.erase();
  return success();
}

struct GradientPass : relay::impl::RelayGradientBase<GradientPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    llvm::StringMap<std::string> done;
    // Gradient functions may hold `relay.grad` (higher derivatives).
    for (int round = 0; round < 16; ++round) {
      SmallVector<GradOp> grads;
      module.walk([&](GradOp g) { grads.push_back(g); });
      if (grads.empty()) {
        // Calls of the new gradient functions through `relay.global_fn`
        // become direct calls (no function value left to defunctionalize).
        rewriteDirectCalls(module);
        return;
      }
      for (GradOp grad : grads) {
        if (isa<IncompleteType>(grad.getResult().getType())) {
          grad.emitError() << "relay-gradient needs inferred types (run "
                              "relay-infer-type first)";
          return signalPassFailure();
        }
        Operation *def = grad.getFn().getDefiningOp();
        LogicalResult result = failure();
        if (auto ref = dyn_cast_if_present<GlobalFnOp>(def))
          result = expandGlobal(grad, ref, symbols, done);
        else if (auto fn = dyn_cast_if_present<FnOp>(def))
          result = expandClosure(grad, fn);
        else
          result = grad.emitError()
                   << "can only differentiate a function known at compile "
                      "time (a module function or a `relay.fn`), not a "
                      "function value computed at run time";
        if (failed(result))
          return signalPassFailure();
      }
    }
    module.emitError() << "relay-gradient: `relay.grad` nested more than 16 "
                          "levels deep";
    signalPassFailure();
  }
};

} // namespace
