//===- EliminateCommonSubexpr.cpp - relay-eliminate-common-subexpr --------===//
//
// Relay's EliminateCommonSubexpr. In each function, in evaluation order, an
// operator call is replaced by an earlier call of the same operator with the
// same attributes whose operands are the same values (or equal rank-0
// constants, as TVM's IsEqualScalar), and a `tuple_get_item` by an earlier
// one of the same tuple value and index. Only operators are merged (TVM
// merges calls of `Op`s, never calls of functions, constructors, reference
// reads or writes, and not its stateful `nn.dropout`); constants and tuples
// are not merged themselves. Ops marked `relay.cse_skip` (Python's `fskip`)
// are neither merged nor merged into.
//
// Relay's graph lets a node be shared between two `if` branches or a branch
// and the code after the `if`; TVM merges there too. In SSA the kept op must
// dominate its new uses, so it moves up to the block that holds both: where
// Relay evaluates a shared node.
//
//===----------------------------------------------------------------------===//
#include "relay/RelayOps.h"
#include "relay/RelayPasses.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYELIMINATECOMMONSUBEXPR
#include "relay/RelayPasses.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

namespace {

constexpr StringLiteral kSkipAttr = "relay.cse_skip";

/// An operator call TVM would consider merging: a relay operator (not a
/// language construct) with operands, free of effects, not stateful.
bool isMergeableOperator(Operation *op) {
  if (!isa_and_nonnull<RelayDialect>(op->getDialect()) ||
      op->getNumOperands() == 0 || op->getNumRegions() != 0 ||
      op->getNumResults() != 1 || !isMemoryEffectFree(op))
    return false;
  return !isa<ConstantOp, TupleOp, TupleGetItemOp, GradOp, GlobalFnOp,
              ClosureOp, CallOp, RefNewOp, RefReadOp, RefWriteOp, ConstructOp,
              DropoutOp>(op);
}

/// Both values are rank-0 constants of one type and value.
bool equalScalarConstants(Value a, Value b) {
  auto ca = a.getDefiningOp<ConstantOp>();
  auto cb = b.getDefiningOp<ConstantOp>();
  if (!ca || !cb || a.getType() != b.getType())
    return false;
  auto type = dyn_cast<RankedTensorType>(a.getType());
  return type && type.getRank() == 0 && ca.getValue() == cb.getValue();
}

/// An operand's hash consistent with the equality visit() uses (the value
/// itself, or a rank-0 constant's type and value: equalScalarConstants).
/// Hashing operands keeps the buckets small: with them ignored, every op of
/// one kind and attributes shared a bucket and the pass was quadratic (a
/// chain of 60k dense/add ops took 7 s, 37x the 10k chain's time).
llvm::hash_code hashOperand(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (auto constant = v.getDefiningOp<ConstantOp>();
      constant && type && type.getRank() == 0)
    return llvm::hash_combine(type, constant.getValue());
  return mlir::hash_value(v);
}

/// Whether `block` is `ancestor` or nested in one of its ops.
bool isWithin(Block *block, Block *ancestor) {
  for (; block; block = block->getParentOp() ? block->getParentOp()->getBlock()
                                             : nullptr)
    if (block == ancestor)
      return true;
  return false;
}

/// Makes `kept` (earlier in evaluation order than `later`) visible at
/// `later`: if it is in a branch or closure `later` is not in, it moves up
/// before the op holding that region in the block that holds both. Fails if
/// an operand would not be visible there (equal scalar constants defined in
/// the branch move up too).
LogicalResult makeVisible(Operation *kept, Operation *later) {
  Operation *anchor = kept;
  Block *target = kept->getBlock();
  while (!target->findAncestorOpInBlock(*later)) {
    anchor = target->getParentOp();
    if (!anchor || isa<func::FuncOp>(anchor) || !anchor->getBlock())
      return failure();
    target = anchor->getBlock();
  }
  if (anchor == kept)
    return success();
  SmallVector<Operation *> constants;
  for (Value v : kept->getOperands()) {
    if (isWithin(target, v.getParentBlock()))
      continue;
    auto constant = v.getDefiningOp<ConstantOp>();
    if (!constant)
      return failure();
    constants.push_back(constant);
  }
  for (Operation *constant : constants)
    constant->moveBefore(anchor);
  kept->moveBefore(anchor);
  return success();
}

class Eliminator {
public:
  /// Merges `op` into an earlier equal op if there is one; otherwise it
  /// becomes a candidate.
  void visit(Operation *op) {
    if (op->hasAttr(kSkipAttr))
      return;
    if (auto get = dyn_cast<TupleGetItemOp>(op))
      return visitGet(get);
    if (!isMergeableOperator(op))
      return;
    llvm::hash_code hash = OperationEquivalence::computeHash(
        op, hashOperand, OperationEquivalence::ignoreHashValue,
        OperationEquivalence::IgnoreLocations);
    SmallVector<Operation *> &bucket = operators[static_cast<size_t>(hash)];
    for (Operation *candidate : bucket) {
      bool equal = OperationEquivalence::isEquivalentTo(
          candidate, op,
          [](Value a, Value b) {
            return success(a == b || equalScalarConstants(a, b));
          },
          nullptr, OperationEquivalence::IgnoreLocations);
      if (equal && succeeded(replace(op, candidate)))
        return;
    }
    bucket.push_back(op);
  }

private:
  void visitGet(TupleGetItemOp get) {
    SmallVector<Operation *> &bucket = gets[get.getTuple()];
    for (Operation *candidate : bucket)
      if (cast<TupleGetItemOp>(candidate).getIndex() == get.getIndex() &&
          candidate->getResultTypes() == get->getResultTypes() &&
          succeeded(replace(get, candidate)))
        return;
    bucket.push_back(get);
  }

  LogicalResult replace(Operation *op, Operation *kept) {
    if (failed(makeVisible(kept, op)))
      return failure();
    SmallVector<Operation *> operands;
    for (Value v : op->getOperands())
      if (auto constant = v.getDefiningOp<ConstantOp>())
        operands.push_back(constant);
    op->replaceAllUsesWith(kept);
    op->erase();
    // An equal scalar constant only the merged op read goes with it.
    for (Operation *constant : operands)
      if (constant->use_empty())
        constant->erase();
    return success();
  }

  DenseMap<size_t, SmallVector<Operation *>> operators;
  DenseMap<Value, SmallVector<Operation *>> gets;
};

struct EliminateCommonSubexprPass
    : relay::impl::RelayEliminateCommonSubexprBase<EliminateCommonSubexprPass> {
  void runOnOperation() override {
    for (auto fn : getOperation().getOps<func::FuncOp>()) {
      if (fn.isExternal())
        continue;
      // Evaluation order: an op before the ops of its regions, regions and
      // blocks in order (Relay's post-order: an `if` visits its condition,
      // then each branch).
      SmallVector<Operation *> order;
      fn.getBody().walk<WalkOrder::PreOrder>(
          [&](Operation *op) { order.push_back(op); });
      Eliminator eliminator;
      for (Operation *op : order)
        eliminator.visit(op);
      fn.getBody().walk([](Operation *op) { op->removeAttr(kSkipAttr); });
    }
  }
};

} // namespace
