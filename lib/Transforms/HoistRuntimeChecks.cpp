//===- HoistRuntimeChecks.cpp - relay-hoist-runtime-checks ----------------===//
//
// The lowering checks run-time shape values where an op uses them
// (`cf.assert` on a reshape's element count, an arange's length, ...). Each
// such assert between two dispatches splits IREE's stream: the work before
// it is submitted and waited for before the host can check and go on, so a
// dynamic-shape model with a dozen checks pays a dozen host round trips
// (bert-tiny with dynamic axes: ~2x the time with the asserts in place).
//
// Most checks depend only on the function's input dims: after
// `resolve-ranked-shaped-type-result-dims` every `tensor.dim` of an
// intermediate is rewritten into arithmetic on the arguments' dims. This
// pass moves such an assert, with the arithmetic it depends on, to the
// start of its block, in their original order: in the entry block all of
// them run on the host before the first dispatch; in a loop's body (a block
// of the CFG relay-eliminate-recursion makes), before the iteration's
// first dispatch. What may move: arith, affine.apply, the dims of values
// available at the block's start (its arguments, values from other
// blocks; IREE's `hal.buffer_view.dim` of a boxed loop value too). An
// assert depending on anything else (a value read from a tensor, a dim of
// a tensor the block computes) stays where it is.
//
// Moving is sound: what moves is side-effect free arithmetic (arith ops and
// `tensor.dim` of the function's arguments) and the asserts in their
// relative order; a failing check now fires before work it did not depend
// on instead of after it. Divisions (which the lowering guards with selects)
// move only while no assert before them stayed, since that one might be what
// keeps their divisor non-zero.
//
//===----------------------------------------------------------------------===//
#include "relay/RelayPasses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYHOISTRUNTIMECHECKS
#include "relay/RelayPasses.h.inc"
} // namespace mlir::relay

using namespace mlir;

namespace {

/// Whether `v` is available at the start of `block`: a block argument or
/// a value from another block (which dominates `block`: it is used there).
bool availableAtStart(Value v, Block &block) {
  Operation *def = v.getDefiningOp();
  return !def || def->getBlock() != &block;
}

/// Host arithmetic on sizes available at the start of `block`: what may
/// move. With `speculatableOnly`, not a division or anything else that may
/// be undefined on some operands: an assert that stays may be what guards it.
bool isMovable(Operation *op, Block &block, bool speculatableOnly) {
  if (op->getBlock() != &block || op->getNumRegions() != 0)
    return false;
  if (auto dim = dyn_cast<tensor::DimOp>(op))
    return availableAtStart(dim.getSource(), block);
  // (IREE's dim of a boxed loop-carried tensor, in generic form)
  if (op->getName().getStringRef() == "hal.buffer_view.dim")
    return llvm::all_of(op->getOperands(),
                        [&](Value v) { return availableAtStart(v, block); });
  // (affine.apply: the dims of collapsed intermediates, `d0 * d1`, as
  // resolve-ranked-shaped-type-result-dims writes them)
  if (!isa<arith::ArithDialect>(op->getDialect()) &&
      op->getName().getStringRef() != "affine.apply")
    return false;
  return speculatableOnly ? isPure(op) : isMemoryEffectFree(op);
}

/// The ops `assertOp`'s condition is computed by, in block order, if all of
/// them may move (the search stops at values available at the block's
/// start; anything else computed in the block makes the assert stay).
FailureOr<SmallVector<Operation *>>
checkSlice(cf::AssertOp assertOp, Block &block, bool speculatableOnly) {
  llvm::SetVector<Operation *> slice;
  SmallVector<Value> worklist = {assertOp.getArg()};
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (availableAtStart(v, block))
      continue;
    Operation *def = v.getDefiningOp();
    if (!isMovable(def, block, speculatableOnly))
      return failure();
    if (slice.insert(def))
      llvm::append_range(worklist, def->getOperands());
  }
  SmallVector<Operation *> ordered(slice.begin(), slice.end());
  llvm::sort(ordered,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return ordered;
}

/// Moves the asserts of `block` that may move, with their slices, to its
/// start (in order, before the first op that stays).
void hoistInBlock(Block &block) {
  SmallVector<cf::AssertOp> asserts(block.getOps<cf::AssertOp>());
  if (asserts.empty())
    return;
  Operation *firstStaying = &block.front();
  llvm::DenseSet<Operation *> hoisted;
  auto hoist = [&](Operation *op) {
    if (!hoisted.insert(op).second)
      return;
    if (op == firstStaying) {
      firstStaying = op->getNextNode();
      return;
    }
    op->moveBefore(firstStaying);
  };
  // Once an assert stays, later ones may only move arithmetic defined on
  // every operand past it.
  bool anyStayed = false;
  llvm::DenseSet<Value> checked;
  for (cf::AssertOp assertOp : asserts) {
    // the same condition checked again (equal checks of two reshapes,
    // merged by CSE) cannot fail where the first passed
    if (checked.contains(assertOp.getArg())) {
      if (assertOp == firstStaying)
        firstStaying = assertOp->getNextNode();
      assertOp->erase();
      continue;
    }
    FailureOr<SmallVector<Operation *>> slice =
        checkSlice(assertOp, block, /*speculatableOnly=*/anyStayed);
    if (failed(slice)) {
      anyStayed = true;
      continue;
    }
    for (Operation *op : *slice)
      hoist(op);
    hoist(assertOp);
    checked.insert(assertOp.getArg());
  }
}

struct HoistRuntimeChecksPass
    : relay::impl::RelayHoistRuntimeChecksBase<HoistRuntimeChecksPass> {
  void runOnOperation() override {
    auto fn = dyn_cast<FunctionOpInterface>(getOperation());
    if (!fn || fn.isExternal())
      return;
    for (Block &block : fn.getFunctionBody())
      hoistInBlock(block);
  }
};

} // namespace
