//===- UnswitchLoops.cpp - relay-unswitch-loops ---------------------------===//
//
// Relay's loops are self-tail-recursive functions (relay-eliminate-recursion
// turns them into CFG loops afterwards). A loop body that branches on its
// arguments' sizes (the few-row dense's `scf.if` on a `?` row count: one row,
// at most 8, more) decides the same thing at every iteration, and each such
// host branch splits the iteration's IREE command buffer in pieces. This pass
// decides it once, before the loop: classic loop unswitching, done on the
// function.
//
// A condition is decidable from the arguments if the side-effect free,
// speculatable scalar arithmetic computing it reads only
//   * constants,
//   * scalar arguments that every self call passes on unchanged
//     (invariant), and
//   * `tensor.dim` of tensor arguments at constant indices.
// Such conditions of `scf.if` ops in a self-recursive function are versioned
// on, one at a time, outermost first: the function is cloned once per
// outcome with the condition (and every structurally equal one) replaced by
// the constant and canonicalized, and the next condition is looked for in
// each clone, up to `max-versions` clones. The original function keeps its
// name and signature and becomes the dispatcher: it evaluates the conditions
// on its arguments and calls the clone of their outcome. Each clone's self
// calls stay self calls (a loop of its own after relay-eliminate-recursion).
//
// A size may change from one iteration to the next (a loop growing a
// tensor), so when a clone's conditions read a `tensor.dim` of an argument
// that a self call may pass another size in (not the argument itself, nor a
// tensor whose size is provably the same, SymbolicSizes.h), that self call
// is guarded: it re-evaluates the conditions on its operands and calls the
// clone itself if they still hold, else a copy of the unversioned function
// (`<name>__any`). Conditions only on invariant arguments need no guard.
//
// Only functions with no calls but their self calls are versioned (a larger
// recursive component stays as it is).
//
//===----------------------------------------------------------------------===//
#include "../Conversion/RelayToLinalg/SymbolicSizes.h"
#include "relay/RelayPasses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYUNSWITCHLOOPS
#include "relay/RelayPasses.h.inc"
} // namespace mlir::relay

using namespace mlir;

namespace {

/// Ops in a condition's computation, at most (beyond it: not worth it).
constexpr unsigned kMaxConditionOps = 64;

bool isScalar(Type t) { return isa<IntegerType, IndexType, FloatType>(t); }

SmallVector<func::CallOp> selfCalls(func::FuncOp fn) {
  SmallVector<func::CallOp> calls;
  fn.walk([&](func::CallOp call) {
    if (call.getCallee() == fn.getSymName())
      calls.push_back(call);
  });
  return calls;
}

/// A function calling itself and nothing else.
bool isSimpleLoop(func::FuncOp fn) {
  if (fn.isExternal())
    return false;
  bool self = false, other = false;
  fn.walk([&](CallOpInterface call) {
    auto direct = dyn_cast<func::CallOp>(call.getOperation());
    if (direct && direct.getCallee() == fn.getSymName())
      self = true;
    else
      other = true;
  });
  return self && !other;
}

/// What no iteration changes: the arguments every self call passes on
/// unchanged, and the `?` dims of the others that every self call passes a
/// tensor of provably the same size in (SymbolicSizes.h: e.g. an RNN state
/// whose next value has the sizes of the current one).
struct Invariants {
  llvm::BitVector args;
  llvm::DenseSet<std::pair<unsigned, int64_t>> dims;

  bool dim(unsigned arg, int64_t d) const {
    return args.test(arg) || dims.contains({arg, d});
  }
};

Invariants invariants(func::FuncOp fn) {
  Invariants inv{llvm::BitVector(fn.getNumArguments(), true), {}};
  SmallVector<func::CallOp> calls = selfCalls(fn);
  for (func::CallOp call : calls)
    for (auto [i, operand] : llvm::enumerate(call.getOperands()))
      if (operand != fn.getArgument(i))
        inv.args.reset(i);
  for (BlockArgument arg : fn.getArguments()) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type || inv.args.test(arg.getArgNumber()))
      continue;
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (type.isDynamicDim(d) && llvm::all_of(calls, [&](func::CallOp call) {
            return relay::lowering::provablyEqualDims(
                call.getOperand(arg.getArgNumber()), d, arg, d);
          }))
        inv.dims.insert({arg.getArgNumber(), d});
  }
  return inv;
}

/// A condition decidable from the function's arguments: its computation
/// (topologically ordered) and whether it reads a `?` size of an argument a
/// self call may change (then self calls are guarded).
struct Condition {
  Value value;
  SmallVector<Operation *> ops;
  bool needsGuard = false;
};

std::optional<Condition> decidable(Value cond, func::FuncOp fn,
                                   const Invariants &invariant) {
  Condition c{cond, {}, false};
  bool readsArgument = false;
  llvm::SetVector<Operation *> seen;
  // post-order DFS: an op after the ops computing its operands
  std::function<bool(Value)> visit = [&](Value v) -> bool {
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner() != &fn.getBody().front() || !isScalar(arg.getType()))
        return false;
      readsArgument = true;
      return invariant.args.test(arg.getArgNumber());
    }
    Operation *op = v.getDefiningOp();
    if (seen.contains(op))
      return true;
    if (seen.size() >= kMaxConditionOps || op->getNumRegions() != 0 ||
        !isPure(op) || !llvm::all_of(op->getResultTypes(), isScalar))
      return false;
    if (auto dim = dyn_cast<tensor::DimOp>(op)) {
      auto arg = dyn_cast<BlockArgument>(dim.getSource());
      if (!arg || arg.getOwner() != &fn.getBody().front() ||
          !dim.getConstantIndex() || !visit(dim.getIndex()))
        return false;
      readsArgument = true;
      if (!invariant.dim(arg.getArgNumber(), *dim.getConstantIndex()))
        c.needsGuard = true;
    } else if (!llvm::all_of(op->getOperands(), visit)) {
      return false;
    }
    seen.insert(op);
    return true;
  };
  if (!visit(cond) || !readsArgument)
    return std::nullopt;
  c.ops = seen.takeVector();
  return c;
}

/// Whether `a` and `b` compute the same thing from the same arguments
/// (both decidable conditions of one function).
bool sameComputation(Value a, Value b) {
  if (a == b)
    return true;
  if (a.getType() != b.getType())
    return false;
  auto argA = dyn_cast<BlockArgument>(a), argB = dyn_cast<BlockArgument>(b);
  if (argA || argB)
    return argA && argB && argA.getOwner() == argB.getOwner() &&
           argA.getArgNumber() == argB.getArgNumber();
  Operation *x = a.getDefiningOp(), *y = b.getDefiningOp();
  if (x->getName() != y->getName() ||
      x->getAttrDictionary() != y->getAttrDictionary() ||
      x->getNumOperands() != y->getNumOperands() ||
      cast<OpResult>(a).getResultNumber() !=
          cast<OpResult>(b).getResultNumber())
    return false;
  return llvm::all_of(
      llvm::zip(x->getOperands(), y->getOperands()),
      [](auto p) { return sameComputation(std::get<0>(p), std::get<1>(p)); });
}

/// The first (outermost, in program order) decidable `scf.if` condition.
std::optional<Condition> firstDecidable(func::FuncOp fn) {
  Invariants invariant = invariants(fn);
  std::optional<Condition> found;
  fn.walk<WalkOrder::PreOrder>([&](scf::IfOp ifOp) {
    found = decidable(ifOp.getCondition(), fn, invariant);
    return found ? WalkResult::interrupt() : WalkResult::advance();
  });
  return found;
}

/// Whether `fn` casts a tensor to a static size other than the static size
/// it has (looking through tensor.cast and the lowering's size-naming
/// reshapes, `relay.sizes_only`): code for an outcome that arguments with
/// those static sizes never take (a state of static batch 3 cast to the
/// 1-row kernel's 1 in the version for one row).
bool castsBetweenStaticSizes(func::FuncOp fn) {
  auto origin = [](Value v) {
    while (Operation *def = v.getDefiningOp()) {
      if (auto cast = dyn_cast<tensor::CastOp>(def))
        v = cast.getSource();
      else if (isa<tensor::ReshapeOp>(def) &&
               def->hasAttr(relay::kSizesOnlyAttr))
        v = def->getOperand(0);
      else
        break;
    }
    return v;
  };
  return fn
      .walk([&](tensor::CastOp cast) {
        auto from =
            dyn_cast<RankedTensorType>(origin(cast.getSource()).getType());
        auto to = dyn_cast<RankedTensorType>(cast.getType());
        if (!from || !to || from.getRank() != to.getRank())
          return WalkResult::advance();
        for (int64_t d = 0; d < to.getRank(); ++d)
          if (!from.isDynamicDim(d) && !to.isDynamicDim(d) &&
              from.getDimSize(d) != to.getDimSize(d))
            return WalkResult::interrupt();
        return WalkResult::advance();
      })
      .wasInterrupted();
}

/// `cond`'s computation cloned at `b`, reading `args` for the function's.
Value recompute(OpBuilder &b, const Condition &cond, func::FuncOp fn,
                ValueRange args) {
  IRMapping map;
  map.map(fn.getArguments(), args);
  for (Operation *op : cond.ops)
    b.clone(*op, map);
  return map.lookup(cond.value);
}

/// One outcome: the function assuming some conditions.
struct Version {
  func::FuncOp fn;
  /// (condition as computed in `fn`'s ancestor where it was chosen, that
  /// ancestor, outcome)
  SmallVector<std::tuple<Condition, func::FuncOp, bool>> assumed;
};

struct UnswitchLoopsPass
    : relay::impl::RelayUnswitchLoopsBase<UnswitchLoopsPass> {
  using RelayUnswitchLoopsBase::RelayUnswitchLoopsBase;

  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet set(context);
    for (Dialect *dialect : context->getLoadedDialects())
      dialect->getCanonicalizationPatterns(set);
    for (RegisteredOperationName op : context->getRegisteredOperations())
      op.getCanonicalizationPatterns(set, context);
    patterns = FrozenRewritePatternSet(std::move(set));
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // A `tensor.dim` of a constant index past the rank passes the verifier
    // (undefined at run time), but the size analysis the invariants use
    // (ValueBoundsOpInterface) asserts on it: a located error instead.
    WalkResult bad = module.walk([](tensor::DimOp dim) {
      std::optional<int64_t> index = dim.getConstantIndex();
      auto type = dyn_cast<RankedTensorType>(dim.getSource().getType());
      if (!index || !type || (*index >= 0 && *index < type.getRank()))
        return WalkResult::advance();
      dim.emitError() << "relay-unswitch-loops: dim index " << *index
                      << " is out of range for " << type;
      return WalkResult::interrupt();
    });
    if (bad.wasInterrupted())
      return signalPassFailure();
    for (auto fn : llvm::to_vector(module.getOps<func::FuncOp>()))
      if (isSimpleLoop(fn))
        unswitch(fn);
  }

private:
  void unswitch(func::FuncOp fn);
  void guardSelfCalls(Version &leaf, func::FuncOp any);
  func::FuncOp cloneAs(func::FuncOp source, const Twine &name, IRMapping &map);
  SmallVector<Block *> buildDispatch(Block *entry, func::FuncOp fn,
                                     ArrayRef<Version> leaves, Location loc);

  FrozenRewritePatternSet patterns;
};

/// A private copy of `source` named `name` (or a free variant of it) whose
/// self calls call the copy; `map` maps `source`'s values to the copy's.
func::FuncOp UnswitchLoopsPass::cloneAs(func::FuncOp source, const Twine &name,
                                        IRMapping &map) {
  func::FuncOp copy = source.clone(map);
  copy.setPrivate();
  copy.setSymName(name.str());
  SymbolTable(source->getParentOfType<ModuleOp>())
      .insert(copy, source->getIterator());
  copy.walk([&](func::CallOp call) {
    if (call.getCallee() == source.getSymName())
      call.setCallee(copy.getSymName());
  });
  return copy;
}

void UnswitchLoopsPass::unswitch(func::FuncOp fn) {
  // the decision tree, breadth first: each expanded version becomes two
  SmallVector<Version> leaves{{fn, {}}};
  SmallVector<func::FuncOp> inner; // expanded versions (erased at the end)
  bool anyGuard = false;
  unsigned numbered = 0;
  for (unsigned i = 0; i < leaves.size() && leaves.size() < maxVersions;) {
    std::optional<Condition> cond = firstDecidable(leaves[i].fn);
    if (!cond) {
      ++i;
      continue;
    }
    Version parent = leaves[i];
    SmallVector<Version, 2> children;
    for (bool outcome : {true, false}) {
      IRMapping map;
      func::FuncOp child =
          cloneAs(parent.fn, fn.getSymName() + "__t" + Twine(++numbered), map);
      Block &body = child.getBody().front();
      OpBuilder b = OpBuilder::atBlockBegin(&body);
      Value known =
          arith::ConstantOp::create(b, child.getLoc(), b.getBoolAttr(outcome));
      Value mine = map.lookup(cond->value);
      SmallVector<Value> same;
      child.walk([&](scf::IfOp ifOp) {
        if (sameComputation(ifOp.getCondition(), mine))
          same.push_back(ifOp.getCondition());
      });
      same.push_back(mine);
      for (Value v : same)
        v.replaceAllUsesWith(known);
      (void)applyPatternsGreedily(child, patterns);
      Version v{child, parent.assumed};
      v.assumed.push_back({*cond, parent.fn, outcome});
      children.push_back(v);
    }
    if (llvm::any_of(children, [](const Version &v) {
          return castsBetweenStaticSizes(v.fn);
        })) {
      // an outcome no argument of these static sizes can have: left as a
      // branch (iree-compile 3.13 rejects the version's dead code)
      for (Version &v : children)
        v.fn.erase();
      ++i;
      continue;
    }
    anyGuard |= cond->needsGuard;
    if (parent.fn != fn)
      inner.push_back(parent.fn);
    leaves.erase(leaves.begin() + i);
    leaves.insert(leaves.begin() + i, children.begin(), children.end());
  }
  if (leaves.size() == 1)
    return;
  // the versions numbered in dispatch order: <name>__v1, __v2, ...
  SymbolTable symbols(fn->getParentOfType<ModuleOp>());
  for (auto [k, leaf] : llvm::enumerate(leaves)) {
    if (failed(symbols.rename(leaf.fn,
                              (fn.getSymName() + "__v" + Twine(k + 1)).str())))
      return signalPassFailure();
    leaf.fn->moveBefore(fn);
  }

  IRMapping unused;
  func::FuncOp any = anyGuard ? cloneAs(fn, fn.getSymName() + "__any", unused)
                              : func::FuncOp();
  // guarded self calls: still the same outcomes, or the unversioned loop
  for (Version &leaf : leaves)
    guardSelfCalls(leaf, any);

  // the original function decides once and calls its version (the
  // conditions are computed from the old body's ops: built first)
  Location loc = fn.getLoc();
  auto *entry = new Block();
  for (BlockArgument arg : fn.getArguments())
    entry->addArgument(arg.getType(), arg.getLoc());
  SmallVector<Block *> blocks = buildDispatch(entry, fn, leaves, loc);
  fn.getBody().getBlocks().clear();
  for (Block *block : blocks)
    fn.getBody().push_back(block);
  for (func::FuncOp f : inner)
    f.erase();
}

/// Each self call of `leaf` whose assumptions need a guard (a condition that
/// may change between iterations) calls `leaf` again only while they still
/// hold, else `any` (the unversioned loop).
void UnswitchLoopsPass::guardSelfCalls(Version &leaf, func::FuncOp any) {
  bool guarded = llvm::any_of(
      leaf.assumed, [](auto &a) { return std::get<0>(a).needsGuard; });
  if (!guarded)
    return;
  for (func::CallOp call : selfCalls(leaf.fn)) {
    OpBuilder b(call);
    Location loc = call.getLoc();
    Value ok;
    for (auto &[cond, where, outcome] : leaf.assumed) {
      Value now = recompute(b, cond, where, call.getOperands());
      if (!outcome)
        now = arith::XOrIOp::create(
            b, loc, now,
            arith::ConstantOp::create(b, loc, b.getBoolAttr(true)));
      ok = ok ? arith::AndIOp::create(b, loc, ok, now).getResult() : now;
    }
    auto ifOp = scf::IfOp::create(b, loc, call.getResultTypes(), ok,
                                  /*withElseRegion=*/true);
    for (auto [region, callee] : {std::pair{&ifOp.getThenRegion(), leaf.fn},
                                  std::pair{&ifOp.getElseRegion(), any}}) {
      OpBuilder inner = OpBuilder::atBlockBegin(&region->front());
      auto again = func::CallOp::create(inner, loc, callee, call.getOperands());
      scf::YieldOp::create(inner, loc, again.getResults());
    }
    call.replaceAllUsesWith(ifOp.getResults());
    call.erase();
  }
}

/// The blocks of a body that calls the version of `leaves` whose
/// assumptions hold, `entry` first: a tree of `cf.cond_br`s on the
/// assumptions, each leaf block calling its version and returning. (Blocks,
/// not `scf.if`s: iree-compile 3.13 cannot inline a multi-block callee into
/// an `scf.if` region, and it miscompiles the calls it keeps, "'util.call'
/// op function type mismatch".)
SmallVector<Block *> UnswitchLoopsPass::buildDispatch(Block *entry,
                                                      func::FuncOp fn,
                                                      ArrayRef<Version> leaves,
                                                      Location loc) {
  SmallVector<Block *> blocks{entry};
  ValueRange args = entry->getArguments();
  std::function<void(Block *, ArrayRef<Version>, unsigned)> build =
      [&](Block *block, ArrayRef<Version> group, unsigned d) {
        OpBuilder b(fn.getContext()); // (the blocks have no region yet)
        b.setInsertionPointToEnd(block);
        if (group.size() == 1) {
          auto call = func::CallOp::create(b, loc, group.front().fn, args);
          func::ReturnOp::create(b, loc, call.getResults());
          return;
        }
        // the group splits on its d-th assumption: the `true` ones first
        auto &[cond, where, outcome] = group.front().assumed[d];
        auto split = llvm::find_if(group, [&](const Version &v) {
          return !std::get<2>(v.assumed[d]);
        });
        ArrayRef<Version> yes(group.begin(), split), no(split, group.end());
        Value c = recompute(b, cond, where, args);
        auto *yesBlock = new Block(), *noBlock = new Block();
        blocks.append({yesBlock, noBlock});
        cf::CondBranchOp::create(b, loc, c, yesBlock, ValueRange{}, noBlock,
                                 ValueRange{});
        build(yesBlock, yes, d + 1);
        build(noBlock, no, d + 1);
      };
  build(entry, leaves, 0);
  return blocks;
}

} // namespace
