//===- InlineCalls.cpp - straight-line code for the reverse sweep ---------===//
//
// Before a body is differentiated, calls whose callee is known and not
// recursive are replaced by the callee's body: `func.call @f`, `relay.call`
// of `relay.global_fn @f`, and `relay.call` of a non-recursive `relay.fn`
// in scope (a let-bound closure). What is left (recursive callees, closures
// passed in as values) is reported by the sweep if it lies on a
// differentiated path.
//
//===----------------------------------------------------------------------===//
#include "Sweep.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::relay;

namespace {

/// The module functions `fn` refers to (calls and function values).
SmallVector<func::FuncOp> callees(func::FuncOp fn, SymbolTable &symbols) {
  SmallVector<func::FuncOp> out;
  fn.walk([&](Operation *op) {
    StringRef name;
    if (auto call = dyn_cast<func::CallOp>(op))
      name = call.getCallee();
    else if (auto ref = dyn_cast<GlobalFnOp>(op))
      name = ref.getCallee();
    else
      return;
    if (auto callee = symbols.lookup<func::FuncOp>(name))
      out.push_back(callee);
  });
  return out;
}

} // namespace

bool gradient::ad::isRecursiveFunction(func::FuncOp fn, SymbolTable &symbols) {
  llvm::DenseSet<Operation *> seen;
  SmallVector<func::FuncOp> work = callees(fn, symbols);
  while (!work.empty()) {
    func::FuncOp f = work.pop_back_val();
    if (f == fn)
      return true;
    if (!seen.insert(f).second)
      continue;
    llvm::append_range(work, callees(f, symbols));
  }
  return false;
}

namespace {

/// Replaces `call` (result `result`, arguments `args`) by a copy of
/// `body`'s single block with its first arguments mapped to `prefix` then
/// `args`.
void inlineBlock(Operation *call, Region &body, ValueRange prefix,
                 ValueRange args) {
  Block &src = body.front();
  IRMapping mapping;
  unsigned i = 0;
  for (Value v : prefix)
    mapping.map(src.getArgument(i++), v);
  for (Value v : args)
    mapping.map(src.getArgument(i++), v);
  OpBuilder b(call);
  for (Operation &op : src.without_terminator())
    b.clone(op, mapping);
  Value result = mapping.lookupOrDefault(src.getTerminator()->getOperand(0));
  call->getResult(0).replaceAllUsesWith(result);
  call->erase();
}

} // namespace

LogicalResult gradient::inlineCalls(Region &region) {
  auto module = region.getParentOp()->getParentOfType<ModuleOp>();
  SymbolTable symbols(module);
  llvm::DenseMap<Operation *, bool> recursive;
  auto isRecursiveFn = [&](func::FuncOp fn) {
    auto [it, inserted] = recursive.try_emplace(fn, false);
    if (inserted)
      it->second = ad::isRecursiveFunction(fn, symbols);
    return it->second;
  };
  // Each round inlines the calls it finds; inlined bodies may hold more.
  constexpr int kMaxInlined = 100000;
  int inlined = 0;
  while (true) {
    SmallVector<Operation *> calls;
    region.walk([&](Operation *op) {
      if (isa<func::CallOp, CallOp>(op))
        calls.push_back(op);
    });
    bool changed = false;
    for (Operation *op : calls) {
      if (auto call = dyn_cast<func::CallOp>(op)) {
        auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
        if (!callee || callee.isExternal() || isRecursiveFn(callee))
          continue;
        inlineBlock(call, callee.getBody(), {}, call.getOperands());
      } else {
        auto apply = cast<CallOp>(op);
        Operation *def = apply.getCallee().getDefiningOp();
        if (auto ref = dyn_cast_if_present<GlobalFnOp>(def)) {
          auto callee = symbols.lookup<func::FuncOp>(ref.getCallee());
          if (!callee || callee.isExternal() || isRecursiveFn(callee))
            continue;
          inlineBlock(apply, callee.getBody(), {}, apply.getArgs());
        } else if (auto fn = dyn_cast_if_present<FnOp>(def)) {
          if (fn.getRecursive())
            continue;
          inlineBlock(apply, fn.getBody(), {}, apply.getArgs());
        } else {
          continue;
        }
      }
      changed = true;
      if (++inlined > kMaxInlined)
        return region.getParentOp()->emitError()
               << "more than " << kMaxInlined
               << " calls inlined while preparing the gradient";
    }
    if (!changed)
      break;
  }
  // Closures and function references left without uses are dead now.
  SmallVector<Operation *> dead;
  region.walk([&](Operation *op) {
    if (isa<FnOp, GlobalFnOp>(op) && op->use_empty())
      dead.push_back(op);
  });
  for (Operation *op : dead) // post-order: inner closures first
    op->erase();
  return success();
}
