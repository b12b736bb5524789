//===- WidenHostIntegers.cpp - relay-widen-host-integers ------------------===//
//
// IREE 3.13's VM keeps 64-bit integers in pairs of 32-bit registers, and its
// branches and internal calls move a mix of 32-bit and 64-bit values wrongly:
// a loop carrying (i32, i64, i64, i32) host scalars read the high word of its
// third value from its fourth; (i32, i32, i64, i64) and (i64, i32, i32, i64,
// i64) failed too, while all-i32 and all-i64 lists ran right. Loops over host
// scalars (relay-host-scalars: counters, bounds, the Relay paper's loop)
// carry such mixes.
//
// So where the arguments of a block or the parameters of a private function
// called only directly mix 64-bit integers (i64, index) with narrower ones,
// the narrower ones become i64: each predecessor (caller) sign-extends what
// it passes (zero-extends an i1), and the block truncates it back at its
// start.
//
//===----------------------------------------------------------------------===//
#include "relay/RelayPasses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYWIDENHOSTINTEGERS
#include "relay/RelayPasses.h.inc"
} // namespace mlir::relay

using namespace mlir;

namespace {

bool isWide(Type type) { return type.isIndex() || type.isInteger(64); }

bool isNarrow(Type type) {
  auto integer = dyn_cast<IntegerType>(type);
  return integer && integer.getWidth() < 64;
}

/// The arguments of `block` to widen: its narrow integers, if it also has a
/// 64-bit one.
SmallVector<BlockArgument> narrowBesideWide(Block &block) {
  SmallVector<BlockArgument> narrow;
  if (llvm::none_of(block.getArgumentTypes(), isWide))
    return narrow;
  for (BlockArgument arg : block.getArguments())
    if (isNarrow(arg.getType()))
      narrow.push_back(arg);
  return narrow;
}

/// `v` extended to i64 before `before`.
Value widen(OpBuilder &b, Operation *before, Value v) {
  b.setInsertionPoint(before);
  Type i64 = b.getI64Type();
  if (v.getType().isInteger(1))
    return arith::ExtUIOp::create(b, v.getLoc(), i64, v);
  return arith::ExtSIOp::create(b, v.getLoc(), i64, v);
}

/// Retypes `args` (of one block) to i64; their uses see a truncation.
void retype(OpBuilder &b, ArrayRef<BlockArgument> args) {
  for (BlockArgument arg : args) {
    Type narrow = arg.getType();
    arg.setType(b.getI64Type());
    b.setInsertionPointToStart(arg.getOwner());
    auto back = arith::TruncIOp::create(b, arg.getLoc(), narrow, arg);
    arg.replaceAllUsesExcept(back, back);
  }
}

struct WidenHostIntegersPass
    : relay::impl::RelayWidenHostIntegersBase<WidenHostIntegersPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    OpBuilder b(&getContext());
    for (auto fn : module.getOps<func::FuncOp>()) {
      if (fn.isExternal())
        continue;
      // blocks other than the entry: their predecessors' branches
      for (Block &block : llvm::drop_begin(fn.getBody())) {
        SmallVector<BlockArgument> args = narrowBesideWide(block);
        if (args.empty())
          continue;
        for (Block *pred : block.getPredecessors()) {
          auto br = dyn_cast<BranchOpInterface>(pred->getTerminator());
          if (!br) {
            args.clear(); // (a branch we cannot rewrite: leave the block)
            break;
          }
        }
        for (Block *pred : llvm::to_vector(block.getPredecessors())) {
          auto br = cast<BranchOpInterface>(pred->getTerminator());
          for (unsigned s = 0; s < br->getNumSuccessors(); ++s) {
            if (br->getSuccessor(s) != &block)
              continue;
            SuccessorOperands ops = br.getSuccessorOperands(s);
            MutableOperandRange forwarded = ops.getMutableForwardedOperands();
            for (BlockArgument arg : args) {
              unsigned i = arg.getArgNumber();
              if (i < ops.getProducedOperandCount())
                continue; // (never: our branches produce nothing)
              OpOperand &operand = forwarded[i - ops.getProducedOperandCount()];
              operand.set(widen(b, br, operand.get()));
            }
          }
        }
        retype(b, args);
      }
      // the entry block of a private function called only directly
      if (!fn.isPrivate())
        continue;
      std::optional<SymbolTable::UseRange> uses =
          SymbolTable::getSymbolUses(fn, module);
      if (!uses || llvm::any_of(*uses, [](const SymbolTable::SymbolUse &u) {
            return !isa<func::CallOp>(u.getUser());
          }))
        continue;
      SmallVector<BlockArgument> args = narrowBesideWide(fn.getBody().front());
      if (args.empty())
        continue;
      for (const SymbolTable::SymbolUse &use : *uses) {
        auto call = cast<func::CallOp>(use.getUser());
        for (BlockArgument arg : args) {
          OpOperand &operand = call->getOpOperand(arg.getArgNumber());
          operand.set(widen(b, call, operand.get()));
        }
      }
      retype(b, args);
      fn.setType(FunctionType::get(&getContext(),
                                   fn.getBody().front().getArgumentTypes(),
                                   fn.getResultTypes()));
    }
  }
};

} // namespace
