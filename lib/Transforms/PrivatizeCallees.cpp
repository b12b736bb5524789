//===- PrivatizeCallees.cpp - relay-privatize-callees ---------------------===//
//
// A Relay module's global functions are all public entry points, and some
// are also called: by other functions, or by themselves (a global loop,
// `def @loop(%i, ...) { if (...) { @loop(...) } else {...} }`). The passes
// that specialise a function to its callers (relay-host-scalars keeps a
// loop's counters and flags on the host, sccp propagates constant
// arguments, relay-unswitch-loops) only touch private functions, whose
// every caller they can see. So each public function that is called gets a
// private twin holding its body (`@loop$body`); every call goes to the
// twin, and the public function only calls it. A global loop then compiles
// like a let-bound one, and IREE no longer sees an exported function called
// from inside the module.
//
//===----------------------------------------------------------------------===//
#include "relay/RelayPasses.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYPRIVATIZECALLEES
#include "relay/RelayPasses.h.inc"
} // namespace mlir::relay

using namespace mlir;

namespace {

struct PrivatizeCalleesPass
    : relay::impl::RelayPrivatizeCalleesBase<PrivatizeCalleesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    llvm::SetVector<func::FuncOp> called;
    module.walk([&](func::CallOp call) {
      auto fn = symbols.lookup<func::FuncOp>(call.getCallee());
      if (fn && fn.isPublic() && !fn.isExternal())
        called.insert(fn);
    });
    for (func::FuncOp fn : called) {
      OpBuilder b(fn);
      b.setInsertionPointAfter(fn);
      auto twin = func::FuncOp::create(
          b, fn.getLoc(), (fn.getName() + "$body").str(), fn.getFunctionType());
      twin.setPrivate();
      symbols.insert(twin);
      twin.getBody().takeBody(fn.getBody());
      Block *entry = fn.addEntryBlock();
      OpBuilder eb = OpBuilder::atBlockEnd(entry);
      auto call =
          func::CallOp::create(eb, fn.getLoc(), twin, entry->getArguments());
      func::ReturnOp::create(eb, fn.getLoc(), call.getResults());
      // every other call of `fn` calls the twin
      module.walk([&](func::CallOp c) {
        if (c != call && c.getCallee() == fn.getName())
          c.setCallee(twin.getName());
      });
    }
  }
};

} // namespace
