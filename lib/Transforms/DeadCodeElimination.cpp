//===- DeadCodeElimination.cpp - relay-dead-code-elimination --------------===//
//
// Relay's DeadCodeElimination. A Relay `let` is an SSA value here, so a dead
// let is an op whose results are unused: it is erased if evaluating it is
// pure (or with ignore-impurity, always). Purity is TVM 0.19's: operators,
// constants, tuples, closures and `ref_new` are pure; `ref_read` and
// `ref_write` are not; a call is pure if the callee's body is (module
// functions and `relay.fn`s known at the call; a function value from a
// parameter, a tuple or a reference is assumed impure); `if` and `match` are
// pure if their regions are. With inline-once, a pure value used once inside
// a branch of an `if` or a clause of a `match` (not inside a closure, which
// may run many times) moves to its use, as TVM inlines a let used once.
//
//===----------------------------------------------------------------------===//
#include "relay/RelayOps.h"
#include "relay/RelayPasses.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYDEADCODEELIMINATION
#include "relay/RelayPasses.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

namespace {

/// Which ops are pure to evaluate (TVM's PurityVisitor, on SSA).
class Purity {
public:
  explicit Purity(ModuleOp module) : module(module) {}

  /// Evaluating `op` has no effect.
  bool evalPure(Operation *op) {
    if (isa<RefReadOp, RefWriteOp>(op))
      return false;
    if (isa<FnOp, RefNewOp>(op))
      return true; // a closure value; an allocation nobody sees unless read
    if (auto call = dyn_cast<func::CallOp>(op))
      return functionPure(call.getCallee());
    if (auto call = dyn_cast<CallOp>(op))
      return callPure(call.getCallee());
    if (isa<IfOp, MatchOp>(op))
      return llvm::all_of(op->getRegions(),
                          [&](Region &r) { return regionPure(r); });
    return op->getNumRegions() == 0 && isMemoryEffectFree(op);
  }

private:
  /// Every op of `region` (terminators included) is pure.
  bool regionPure(Region &region) {
    for (Block &block : region)
      for (Operation &op : block)
        if (!evalPure(&op))
          return false;
    return true;
  }

  /// Calling a value of function type is pure.
  bool callPure(Value callee) {
    if (auto fn = callee.getDefiningOp<FnOp>())
      return fnPure(fn);
    if (auto global = callee.getDefiningOp<GlobalFnOp>())
      return functionPure(global.getCallee());
    if (auto closure = callee.getDefiningOp<ClosureOp>())
      return functionPure(closure.getCallee());
    // A recursive closure's reference to itself: its entry block's first
    // argument.
    if (auto arg = dyn_cast<BlockArgument>(callee))
      if (auto fn = dyn_cast<FnOp>(arg.getOwner()->getParentOp()))
        if (fn.getRecursive() && arg.getArgNumber() == 0 &&
            arg.getOwner()->isEntryBlock())
          return fnPure(fn);
    return false; // from a parameter, a tuple, a reference, a branch...
  }

  /// Whether the body of `fn` (a function or closure op) is pure, memoized.
  bool bodyPure(Operation *fn, Region &body) {
    auto [it, fresh] = memo.try_emplace(fn, true); // recursion: assume pure
    if (!fresh)
      return it->second;
    bool pure = regionPure(body);
    memo[fn] = pure;
    return pure;
  }

  bool fnPure(FnOp fn) { return bodyPure(fn, fn.getBody()); }

  bool functionPure(StringRef name) {
    auto fn = module.lookupSymbol<func::FuncOp>(name);
    if (!fn || fn.isExternal())
      return false;
    return bodyPure(fn, fn.getBody());
  }

  ModuleOp module;
  DenseMap<Operation *, bool> memo;
};

/// The op holding `region`s chain from `use` up to `block`, if each is an
/// `if` or `match` (a use there is evaluated at most once per evaluation of
/// `block`); false for a use inside a closure or in `block` itself.
bool usedOnceInBranch(Operation *user, Block *block) {
  Operation *parent = user->getParentOp();
  if (user->getBlock() == block)
    return false;
  while (parent && parent->getBlock() != block) {
    if (!isa<IfOp, MatchOp>(parent))
      return false;
    parent = parent->getParentOp();
  }
  return parent && isa<IfOp, MatchOp>(parent);
}

/// Erases the ops of `fn` whose results are unused and which `removable`
/// accepts, users before producers (a chain of dead lets goes at once).
template <typename Removable>
void eraseDeadOps(func::FuncOp fn, Removable removable) {
  SmallVector<Operation *> work;
  fn.getBody().walk([&](Operation *op) { work.push_back(op); });
  DenseSet<Operation *> gone;
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    if (gone.contains(op) || op->getNumResults() == 0 || !op->use_empty() ||
        !removable(op))
      continue;
    SmallVector<Operation *> producers;
    op->walk([&](Operation *inner) {
      gone.insert(inner);
      for (Value operand : inner->getOperands())
        if (Operation *def = operand.getDefiningOp())
          producers.push_back(def);
    });
    op->erase();
    for (Operation *def : producers)
      if (!gone.contains(def))
        work.push_back(def);
  }
}

struct DeadCodeEliminationPass
    : relay::impl::RelayDeadCodeEliminationBase<DeadCodeEliminationPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    Purity purity(module);
    auto removable = [&](Operation *op) {
      return ignoreImpurity || purity.evalPure(op);
    };
    for (auto fn : module.getOps<func::FuncOp>()) {
      if (fn.isExternal())
        continue;
      eraseDeadOps(fn, removable);
      if (!inlineOnce)
        continue;
      bool changed = true;
      while (changed) {
        changed = false;
        fn.getBody().walk([&](Operation *op) {
          if (op->getNumResults() != 1 || !op->getResult(0).hasOneUse() ||
              isa<ConstantOp>(op))
            return;
          Operation *user = *op->getResult(0).user_begin();
          if (!usedOnceInBranch(user, op->getBlock()) || !removable(op))
            return;
          op->moveBefore(user);
          changed = true;
        });
      }
    }
  }
};

} // namespace
