//===- CheckNoRecursion.cpp - relay-check-no-recursion --------------------===//
//
// Refuses a module whose call graph of func.func ops has a cycle.
// iree-compile (3.13) never returns on such a module, so until recursion is
// eliminated (loops, or a stack) the IREE lowering stops here with a located
// error instead of handing IREE a program it cannot compile.
//
// The graph: one node per func.func; an edge for every symbol reference
// from a function's body (nested regions included) that resolves to a
// func.func: `func.call` callees and `relay.global_fn` (a function used as
// a value may be called). One iterative depth-first search over it, so the
// check is linear in the size of the module and needs no stack depth.
//
//===----------------------------------------------------------------------===//
#include "relay/RelayOps.h"
#include "relay/RelayPasses.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYCHECKNORECURSION
#include "relay/RelayPasses.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

namespace {

/// `site` (a func.call, a relay.global_fn, ...) in the body of one function
/// refers to `callee`.
struct Edge {
  func::FuncOp callee;
  Operation *site;
};

/// A function on the search stack and the next of its edges to follow.
struct Frame {
  func::FuncOp fn;
  SmallVector<Edge> edges;
  unsigned next = 0;
};

StringRef nameOf(func::FuncOp fn) { return fn.getSymName(); }

/// "calls" for a call, "refers to" for any other use of a function.
StringRef verb(Operation *site) {
  return isa<CallOpInterface>(site) ? "calls" : "refers to";
}

struct CheckNoRecursionPass
    : relay::impl::RelayCheckNoRecursionBase<CheckNoRecursionPass> {
  /// The functions the body of `fn` refers to, in program order.
  static SmallVector<Edge> edgesOf(func::FuncOp fn,
                                   SymbolTableCollection &symbols) {
    SmallVector<Edge> edges;
    auto add = [&](Operation *site, SymbolRefAttr ref) {
      if (auto callee =
              symbols.lookupNearestSymbolFrom<func::FuncOp>(site, ref))
        edges.push_back({callee, site});
    };
    if (std::optional<SymbolTable::UseRange> uses =
            SymbolTable::getSymbolUses(&fn.getBody())) {
      for (const SymbolTable::SymbolUse &use : *uses)
        add(use.getUser(), use.getSymbolRef());
      return edges;
    }
    // Unregistered ops that may be symbol tables hide their uses from
    // getSymbolUses; the calls and function values are still edges.
    fn.getBody().walk([&](Operation *op) {
      if (auto call = dyn_cast<CallOpInterface>(op)) {
        if (auto ref = llvm::dyn_cast_if_present<SymbolRefAttr>(
                call.getCallableForCallee()))
          add(op, ref);
      } else if (auto global = dyn_cast<GlobalFnOp>(op)) {
        add(op, global.getCalleeAttr());
      }
    });
    return edges;
  }

  /// Reports the cycle closed by the current edge of the top of `stack`,
  /// which leads back to `stack[from]`.
  static void report(ArrayRef<Frame> stack, size_t from) {
    const Frame &top = stack.back();
    const Edge &back = top.edges[top.next - 1];
    StringRef callee = nameOf(back.callee);
    InFlightDiagnostic diag =
        back.site->emitError()
        << "recursion is not supported by the IREE lowering yet: @"
        << nameOf(top.fn) << " " << verb(back.site) << " ";
    if (from + 1 == stack.size()) {
      diag << "itself";
      return;
    }
    diag << "@" << callee << " (cycle";
    for (const Frame &frame : stack.drop_front(from))
      diag << " @" << nameOf(frame.fn) << " ->";
    diag << " @" << callee << ")";
    for (const Frame &frame : stack.drop_front(from).drop_back()) {
      const Edge &edge = frame.edges[frame.next - 1];
      diag.attachNote(edge.site->getLoc())
          << "@" << nameOf(frame.fn) << " " << verb(edge.site) << " @"
          << nameOf(edge.callee) << " here";
    }
  }

  void runOnOperation() override {
    enum class State { OnStack, Done };
    llvm::DenseMap<Operation *, State> state;
    // Position on the stack of each function in State::OnStack.
    llvm::DenseMap<Operation *, size_t> position;
    SmallVector<Frame> stack;
    SymbolTableCollection symbols;
    auto push = [&](func::FuncOp fn) {
      state[fn] = State::OnStack;
      position[fn] = stack.size();
      stack.push_back({fn, edgesOf(fn, symbols), 0});
    };

    WalkResult result = getOperation().walk([&](func::FuncOp root) {
      if (state.count(root))
        return WalkResult::advance();
      push(root);
      while (!stack.empty()) {
        Frame &frame = stack.back();
        if (frame.next == frame.edges.size()) {
          state[frame.fn] = State::Done;
          stack.pop_back();
          continue;
        }
        func::FuncOp callee = frame.edges[frame.next++].callee;
        auto it = state.find(callee);
        if (it == state.end()) {
          push(callee);
        } else if (it->second == State::OnStack) {
          report(stack, position[callee]);
          return WalkResult::interrupt();
        }
      }
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
