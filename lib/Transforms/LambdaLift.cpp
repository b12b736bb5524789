//===- LambdaLift.cpp - relay-lambda-lift ---------------------------------===//
//
// Every `relay.fn` becomes a private module function taking its captures
// and then its parameters; a `relay.closure` of the captured values takes
// its place. Closures are lifted innermost first, so an inner closure's
// captures are operands of a `relay.closure` inside the outer one when the
// outer one is lifted, and it captures them in turn.
//
//===----------------------------------------------------------------------===//
#include "relay/RelayOps.h"
#include "relay/RelayPasses.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYLAMBDALIFT
#include "relay/RelayPasses.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

namespace {

class LambdaLifter {
public:
  explicit LambdaLifter(ModuleOp module) : module(module), symbols(module) {}

  LogicalResult run() {
    // A relay.fn outside any func.func has no function to be named after.
    WalkResult outside = module.walk([&](FnOp fn) {
      if (fn->getParentOfType<func::FuncOp>())
        return WalkResult::advance();
      fn.emitError() << "relay-lambda-lift: closure outside a func.func";
      return WalkResult::interrupt();
    });
    if (outside.wasInterrupted())
      return failure();
    SmallVector<func::FuncOp> functions(module.getOps<func::FuncOp>());
    for (func::FuncOp parent : functions) {
      // Post-order: inner closures come before the closures containing them.
      SmallVector<FnOp> closures;
      parent.walk<WalkOrder::PostOrder>(
          [&](FnOp fn) { closures.push_back(fn); });
      Operation *insertAfter = parent;
      unsigned counter = 0;
      for (FnOp fn : closures) {
        func::FuncOp lifted = lift(fn, parent, insertAfter, counter);
        if (!lifted)
          return failure();
        insertAfter = lifted;
      }
    }
    return success();
  }

private:
  /// A name `@<parent>$fn<N>` not taken yet, N counting up from `counter`.
  std::string freshName(func::FuncOp parent, unsigned &counter) {
    while (true) {
      std::string name = (parent.getSymName() + "$fn" + Twine(counter++)).str();
      if (!symbols.lookup(name))
        return name;
    }
  }

  /// The lifted function's type: captures, then the closure's parameters,
  /// to the closure's result; null (with an error at `fn`) when the
  /// closure's types are not what its function type says.
  FunctionType liftedType(FnOp fn, ArrayRef<Value> captures) {
    auto fnType = dyn_cast<FuncType>(fn.getType());
    if (!fnType || !isComplete(fnType)) {
      fn.emitError() << "relay-lambda-lift: the closure's type " << fn.getType()
                     << " is not inferred; run relay-infer-type first";
      return {};
    }
    SmallVector<Type> inputs;
    for (Value capture : captures) {
      if (!isComplete(capture.getType())) {
        fn.emitError() << "relay-lambda-lift: a captured value has type "
                       << capture.getType()
                       << ", which is not inferred; run relay-infer-type "
                          "first";
        return {};
      }
      inputs.push_back(capture.getType());
    }
    // The lifted function and the closure type must agree exactly (func.func
    // and func.call compare types for equality).
    for (auto [i, pair] : llvm::enumerate(llvm::zip(
             ValueRange(fn.getParams()).getTypes(), fnType.getInputs()))) {
      auto [param, declared] = pair;
      if (param != declared) {
        fn.emitError() << "relay-lambda-lift: closure parameter #" << i
                       << " has type " << param
                       << " but the closure's type says " << declared
                       << "; lifting needs them equal";
        return {};
      }
    }
    auto yield = cast<YieldOp>(fn.getBody().front().getTerminator());
    if (yield.getValue().getType() != fnType.getResult()) {
      fn.emitError() << "relay-lambda-lift: the closure's body yields "
                     << yield.getValue().getType()
                     << " but the closure's type says it returns "
                     << fnType.getResult() << "; lifting needs them equal";
      return {};
    }
    llvm::append_range(inputs, fnType.getInputs());
    return FunctionType::get(module.getContext(), inputs,
                             TypeRange{fnType.getResult()});
  }

  /// Constants `body` uses from outside (canonicalization hoists them out
  /// of closures, which are not isolated from above) are copied in rather
  /// than captured: a capture would box a constant into the closure's
  /// data at run time.
  static void copyConstantsIn(Region &body) {
    llvm::SetVector<Value> used;
    getUsedValuesDefinedAbove(body, used);
    OpBuilder b = OpBuilder::atBlockBegin(&body.front());
    for (Value v : used) {
      Operation *def = v.getDefiningOp();
      if (!def || !matchPattern(def, m_Constant()))
        continue;
      Operation *copy = b.clone(*def);
      replaceAllUsesInRegionWith(v, copy->getResult(0), body);
    }
  }

  /// Lifts `fn` (found in `parent`) into a new function placed after
  /// `insertAfter`; returns it, or null after reporting an error.
  func::FuncOp lift(FnOp fn, func::FuncOp parent, Operation *insertAfter,
                    unsigned &counter) {
    Region &body = fn.getBody();
    copyConstantsIn(body);
    llvm::SetVector<Value> captureSet;
    getUsedValuesDefinedAbove(body, captureSet);
    ArrayRef<Value> captures = captureSet.getArrayRef();
    FunctionType type = liftedType(fn, captures);
    if (!type)
      return {};

    MLIRContext *ctx = module.getContext();
    OpBuilder builder(ctx); // no insertion point: the symbol table places it
    auto lifted = func::FuncOp::create(builder, fn.getLoc(),
                                       freshName(parent, counter), type);
    lifted.setPrivate();
    symbols.insert(lifted, std::next(Block::iterator(insertAfter)));
    auto callee = FlatSymbolRefAttr::get(lifted.getSymNameAttr());

    Region &dst = lifted.getBody();
    dst.takeBody(body);
    Block &entry = dst.front();
    // Captured values become the leading parameters.
    SmallVector<Value> captureArgs;
    for (auto [i, capture] : llvm::enumerate(captures)) {
      BlockArgument arg =
          entry.insertArgument(i, capture.getType(), capture.getLoc());
      replaceAllUsesInRegionWith(capture, arg, dst);
      captureArgs.push_back(arg);
    }
    // The self reference of a recursive closure is the closure rebuilt
    // from the lifted function's own captures.
    if (fn.getRecursive()) {
      BlockArgument self = entry.getArgument(captures.size());
      if (!self.use_empty()) {
        builder.setInsertionPointToStart(&entry);
        auto closure = ClosureOp::create(builder, fn.getLoc(), fn.getType(),
                                         callee, captureArgs);
        self.replaceAllUsesWith(closure);
      }
      entry.eraseArgument(captures.size());
    }
    auto yield = cast<YieldOp>(entry.getTerminator());
    builder.setInsertionPoint(yield);
    func::ReturnOp::create(builder, yield.getLoc(), yield.getValue());
    yield.erase();

    builder.setInsertionPoint(fn);
    auto closure =
        ClosureOp::create(builder, fn.getLoc(), fn.getType(), callee, captures);
    fn.replaceAllUsesWith(closure.getResult());
    fn.erase();
    return lifted;
  }

  ModuleOp module;
  SymbolTable symbols;
};

struct LambdaLiftPass : relay::impl::RelayLambdaLiftBase<LambdaLiftPass> {
  void runOnOperation() override {
    if (failed(LambdaLifter(getOperation()).run()))
      signalPassFailure();
  }
};
} // namespace
