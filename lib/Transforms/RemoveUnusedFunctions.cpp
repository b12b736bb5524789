//===- RemoveUnusedFunctions.cpp - relay-remove-unused-functions ----------===//
//
// Relay's RemoveUnusedFunctions(entry_functions): the entry functions (main
// by default) and every function they reach through symbol uses stay; the
// other module functions are erased (with public-entries, the public
// functions are entries too). Type definitions stay.
//
//===----------------------------------------------------------------------===//
#include "relay/RelayPasses.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYREMOVEUNUSEDFUNCTIONS
#include "relay/RelayPasses.h.inc"
} // namespace mlir::relay

using namespace mlir;

namespace {

/// The functions of `module` in order, joined by ", " (for the error).
std::string functionNames(ModuleOp module) {
  std::string names;
  for (auto fn : module.getOps<func::FuncOp>())
    names += (names.empty() ? "" : ", ") + fn.getName().str();
  return names;
}

struct RemoveUnusedFunctionsPass
    : relay::impl::RelayRemoveUnusedFunctionsBase<RemoveUnusedFunctionsPass> {
  using RelayRemoveUnusedFunctionsBase::RelayRemoveUnusedFunctionsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<std::string> entries(entryFunctions.begin(),
                                     entryFunctions.end());
    if (!entryFunctions.hasValue() && !publicEntries)
      entries = {"main"};
    llvm::SetVector<func::FuncOp> reached;
    for (const std::string &name : entries) {
      auto fn = symbols.lookup<func::FuncOp>(name);
      if (!fn) {
        module.emitError() << "relay-remove-unused-functions: entry function '"
                           << name << "' is not in the module (functions: "
                           << functionNames(module) << ")";
        return signalPassFailure();
      }
      reached.insert(fn);
    }
    if (publicEntries)
      for (auto fn : module.getOps<func::FuncOp>())
        if (fn.isPublic())
          reached.insert(fn);
    // the worklist grows as functions are reached
    for (size_t i = 0; i < reached.size(); ++i) {
      auto uses = SymbolTable::getSymbolUses(reached[i]);
      if (!uses)
        continue;
      for (const SymbolTable::SymbolUse &use : *uses)
        if (auto callee = symbols.lookup<func::FuncOp>(
                use.getSymbolRef().getRootReference()))
          reached.insert(callee);
    }
    for (auto fn : llvm::make_early_inc_range(module.getOps<func::FuncOp>()))
      if (!reached.contains(fn))
        fn.erase();
  }
};

} // namespace
