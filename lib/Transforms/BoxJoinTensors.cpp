//===- BoxJoinTensors.cpp - relay-box-join-tensors ------------------------===//
//
// iree-compile 3.13 mishandles tensors that reach a block through the
// arguments of branches from several places (a loop header, the join after
// an `if` in CFG form, a recursion dispatcher's return block): it packs the
// tensors one dispatch region produces into one buffer, and a branch that
// passes two of them to two block arguments, or passes one value twice,
// loses one. At run time: "indirect buffer reference slot 0 is out of range
// of the declared binding capacity", "binding table slot requires a buffer
// but none was provided", "ref is null" — static shapes as well as dynamic
// ones (the Relay paper's loop over three int32 scalars failed so; so did
// the loop fuzzer's joins of three one-element tensors). What we hand IREE
// therefore never passes such tensors through a join:
//
//  0. a call passing one tensor to several parameters of a function with
//     joins passes each further occurrence reboxed: exported, the view
//     behind an optimization barrier, imported (inlined, the parameters
//     were one value and two loop arguments boxed from it failed: "ref is
//     null", the loop fuzzer's 315:7; a bare barrier's result had sizes
//     IREE could not resolve); a function returning tensors from several
//     places returns them from one block the others branch to (IREE's
//     inliner would otherwise make that join itself, unboxed: an
//     unswitched loop's dispatch tree lost a buffer so, 303:30);
//  1. block arguments no result depends on are removed (region DCE), so
//     that dead loop state is not boxed and kept alive;
//  2. a 0-d tensor argument that every branch builds from a scalar
//     (`tensor.from_elements`, a boolean's `linalg.fill`) or passes as a
//     constant takes the scalar instead (built again at the block's
//     start): host values stay on the host;
//  3. a block entered by two branches or more takes its tensors as
//     `!hal.buffer_view`s (a loop over one tensor entered with a constant
//     failed too: "type mismatch for bb argument" in IREE's
//     iree-stream-refine-usage, 302:32): each branch exports its tensors
//     behind an optimization barrier (so that IREE cannot fold an export of
//     an imported view to that view), one export per argument (two
//     arguments given one tensor get two views), and the block imports
//     them at its start. Every edge's exports carry their own names
//     ("edge<n>_arg<i>"): MLIR's region simplification merges blocks that
//     differ in operands only, adding block arguments for them, and the
//     boxing tails of several loop exits so became one block taking the
//     tensors unboxed again (a dynamic-axes LSTM's unswitched dispatch
//     tree: "'tensor.dim' op unexpected during shape cleanup").
//  4. the scalars a loop's back edges pass go behind optimization barriers.
//     When IREE proves a loop unreachable (its range analysis after
//     inlining and global optimization decides the branch into it), MLIR's
//     canonicalizer replaces the header's arguments by what the back edge
//     passes: a counter `x + 1` becomes `x = x + 1`, which it rewrites to
//     `x + 2`, `x + 4`, ... and never returns (issue 29's 305:38, 319:16,
//     321:25). Every cycle through the loop now crosses a barrier, which no
//     pattern folds through; IREE drops the barriers after its flow-level
//     canonicalizations, so the loop runs as before.
//
//===----------------------------------------------------------------------===//
#include "../Conversion/RelayToLinalg/IREEOps.h"
#include "BranchEdges.h"
#include "relay/RelayPasses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYBOXJOINTENSORS
#include "relay/RelayPasses.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;
namespace io = mlir::relay::iree;

namespace {

bool isTensor(Type t) { return isa<RankedTensorType>(t); }

/// The scalar a 0-d tensor is built from (`tensor.from_elements`, or the
/// `linalg.fill` relay-host-scalars builds booleans with), or null.
Value scalarOf(Value tensor) {
  if (auto built = tensor.getDefiningOp<tensor::FromElementsOp>())
    return built.getElements().front();
  if (auto fill = tensor.getDefiningOp<linalg::FillOp>())
    if (fill.getOutputs().front().getDefiningOp<tensor::EmptyOp>())
      return fill.getInputs().front();
  return nullptr;
}

/// A 0-d `type` tensor holding `scalar`; booleans by `linalg.fill`
/// (iree-compile 3.13 fails on a `tensor.from_elements` of i1 in a dispatch).
Value tensorOf(OpBuilder &b, Location loc, RankedTensorType type,
               Value scalar) {
  if (!type.getElementType().isInteger(1))
    return tensor::FromElementsOp::create(b, loc, type, ValueRange{scalar});
  Value empty = tensor::EmptyOp::create(b, loc, type, ValueRange{});
  return linalg::FillOp::create(b, loc, scalar, empty).getResult(0);
}

/// Step 2: 0-d tensor arguments every branch builds from a scalar or passes
/// as a constant take the scalar.
void passScalarsInsteadOfTensors(Block &block, ArrayRef<BranchEdge> edges) {
  OpBuilder b = OpBuilder::atBlockBegin(&block);
  for (BlockArgument arg : block.getArguments()) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type || type.getRank() != 0)
      continue;
    unsigned i = arg.getArgNumber();
    bool fromScalars = llvm::all_of(edges, [&](BranchEdge e) {
      Value passed = e.first.getSuccessorOperands(e.second)[i];
      DenseElementsAttr value;
      return scalarOf(passed) || matchPattern(passed, m_Constant(&value));
    });
    if (!fromScalars)
      continue;
    for (auto [br, s] : edges) {
      MutableOperandRange operands =
          br.getSuccessorOperands(s).getMutableForwardedOperands();
      Value passed = operands[i].get();
      if (Value scalar = scalarOf(passed)) {
        operands[i].set(scalar);
        if (passed.use_empty())
          passed.getDefiningOp()->erase();
        continue;
      }
      DenseElementsAttr value;
      matchPattern(passed, m_Constant(&value));
      OpBuilder at(br);
      operands[i].set(arith::ConstantOp::create(
          at, br->getLoc(), cast<TypedAttr>(value.getSplatValue<Attribute>())));
    }
    SmallVector<OpOperand *> uses =
        llvm::map_to_vector(arg.getUses(), [](OpOperand &u) { return &u; });
    arg.setType(type.getElementType());
    Value tensor = tensorOf(b, arg.getLoc(), type, arg);
    for (OpOperand *use : uses)
      use->set(tensor);
  }
}

/// Whether IREE's ops can be made here (else a located error).
bool canBuildIREEOps(MLIRContext *ctx, Location loc) {
  return io::canBuildOps(ctx, loc, "relay-box-join-tensors",
                         "boxes the tensors this join passes");
}

/// Step 3: the tensors of a join are passed boxed; `edgeCount` numbers the
/// edges boxed so far in the module (the exports' names).
LogicalResult boxTensors(Block &block, ArrayRef<BranchEdge> edges,
                         unsigned &edgeCount) {
  if (!canBuildIREEOps(block.getParent()->getContext(),
                       block.getParentOp()->getLoc()))
    return failure();
  SmallVector<unsigned> boxed;
  for (BlockArgument arg : block.getArguments())
    if (isTensor(arg.getType()))
      boxed.push_back(arg.getArgNumber());
  for (auto [br, s] : edges) {
    MutableOperandRange operands =
        br.getSuccessorOperands(s).getMutableForwardedOperands();
    OpBuilder b(br);
    std::string edge = "edge" + std::to_string(edgeCount++) + "_arg";
    for (unsigned i : boxed) {
      Value v = io::boxTensorBehindBarrier(b, br->getLoc(), operands[i].get());
      v.getDefiningOp()->setAttr("name",
                                 b.getStringAttr(edge + std::to_string(i)));
      operands[i].set(v);
    }
  }
  Type view = io::getBufferViewType(block.getParent()->getContext());
  OpBuilder b = OpBuilder::atBlockBegin(&block);
  for (unsigned i : boxed) {
    BlockArgument arg = block.getArgument(i);
    auto type = cast<RankedTensorType>(arg.getType());
    SmallVector<OpOperand *> uses =
        llvm::map_to_vector(arg.getUses(), [](OpOperand &u) { return &u; });
    arg.setType(view);
    Value tensor = io::unboxTensor(b, arg.getLoc(), arg, type);
    for (OpOperand *use : uses)
      use->set(tensor);
  }
  return success();
}

/// Step 4: the integer, index and float values the back edges into `block`
/// (branches from blocks it dominates) pass go behind barriers.
LogicalResult guardBackEdgeScalars(Block &block, ArrayRef<BranchEdge> edges,
                                   DominanceInfo &dominance) {
  for (auto [br, s] : edges) {
    if (!dominance.dominates(&block, br->getBlock()))
      continue; // entering the loop, not going round it
    MutableOperandRange operands =
        br.getSuccessorOperands(s).getMutableForwardedOperands();
    OpBuilder b(br);
    for (OpOperand &operand : operands) {
      if (!operand.get().getType().isIntOrIndexOrFloat())
        continue;
      if (!canBuildIREEOps(br->getContext(), br->getLoc()))
        return failure();
      operand.set(io::optimizationBarrier(b, br->getLoc(), operand.get()));
    }
  }
  return success();
}

/// Step 0: the returns of `fn`, if several return a tensor, become branches
/// to one return block.
void returnFromOneBlock(func::FuncOp fn) {
  SmallVector<func::ReturnOp> all;
  for (Block &block : fn.getBody())
    if (auto r = dyn_cast<func::ReturnOp>(block.getTerminator()))
      all.push_back(r);
  if (all.size() < 2 || llvm::none_of(fn.getResultTypes(), isTensor))
    return;
  Block *exit = new Block();
  fn.getBody().push_back(exit);
  SmallVector<Location> locs(fn.getNumResults(), fn.getLoc());
  exit->addArguments(fn.getResultTypes(), locs);
  for (func::ReturnOp r : all) {
    OpBuilder b(r);
    cf::BranchOp::create(b, r.getLoc(), exit, r.getOperands());
    r.erase();
  }
  OpBuilder b = OpBuilder::atBlockEnd(exit);
  func::ReturnOp::create(b, fn.getLoc(), exit->getArguments());
}

/// Step 0: a call passing one tensor to several parameters of a function
/// with joins passes each further occurrence reboxed (a bare barrier's
/// result has sizes IREE cannot resolve once the callee is inlined).
LogicalResult distinctTensorOperands(func::CallOp call, SymbolTable &symbols) {
  auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
  if (!callee || callee.isExternal() || callee.getBody().hasOneBlock())
    return success(); // no join inside for the values to reach
  SmallPtrSet<Value, 8> seen;
  OpBuilder b(call);
  for (OpOperand &operand : call->getOpOperands()) {
    Value v = operand.get();
    if (!isTensor(v.getType()) || seen.insert(v).second)
      continue;
    if (!canBuildIREEOps(call.getContext(), call.getLoc()))
      return failure();
    operand.set(io::reboxTensor(b, call.getLoc(), v));
  }
  return success();
}

struct BoxJoinTensorsPass
    : relay::impl::RelayBoxJoinTensorsBase<BoxJoinTensorsPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SymbolTable symbols(getOperation());
    WalkResult calls = getOperation().walk([&](func::CallOp call) {
      return failed(distinctTensorOperands(call, symbols))
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    });
    if (calls.wasInterrupted())
      return signalPassFailure();
    unsigned edgeCount = 0;
    for (auto fn : getOperation().getOps<func::FuncOp>()) {
      if (fn.isExternal() || fn.getBody().hasOneBlock())
        continue;
      returnFromOneBlock(fn);
      (void)eraseUnreachableBlocks(rewriter, fn.getBody());
      (void)runRegionDCE(rewriter, fn.getBody());
      DominanceInfo dominance(fn);
      for (Block &block : llvm::drop_begin(fn.getBody())) {
        if (block.args_empty())
          continue;
        auto edges = enteringEdges(&block);
        if (failed(edges) || edges->empty())
          continue;
        if (llvm::any_of(block.getArgumentTypes(), isTensor)) {
          passScalarsInsteadOfTensors(block, *edges);
          if (edges->size() > 1 && failed(boxTensors(block, *edges, edgeCount)))
            return signalPassFailure();
        }
        if (failed(guardBackEdgeScalars(block, *edges, dominance)))
          return signalPassFailure();
      }
    }
  }
};

} // namespace
