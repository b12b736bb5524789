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
//  1. block arguments no result depends on are removed (region DCE), so
//     that dead loop state is not boxed and kept alive;
//  2. a 0-d tensor argument that every branch builds with
//     `tensor.from_elements` from a scalar takes the scalar instead (built
//     again at the block's start): host values stay on the host;
//  3. a block entered by two branches or more that takes two tensors or
//     more, or one with a dynamic dim, takes them as `!hal.buffer_view`s:
//     each branch exports its tensors behind an optimization barrier (so
//     that IREE cannot fold an export of an imported view to that view), one
//     named export per argument (two arguments given one tensor get two
//     views), and the block imports them at its start.
//
//===----------------------------------------------------------------------===//
#include "../Conversion/RelayToLinalg/IREEOps.h"
#include "BranchEdges.h"
#include "relay/RelayPasses.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
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

/// Step 2: 0-d tensor arguments every branch builds from a scalar take the
/// scalar.
void passScalarsInsteadOfTensors(Block &block, ArrayRef<BranchEdge> edges) {
  OpBuilder b = OpBuilder::atBlockBegin(&block);
  for (BlockArgument arg : block.getArguments()) {
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    if (!type || type.getRank() != 0)
      continue;
    unsigned i = arg.getArgNumber();
    bool fromScalars = llvm::all_of(edges, [&](BranchEdge e) {
      Value passed = e.first.getSuccessorOperands(e.second)[i];
      return isa_and_nonnull<tensor::FromElementsOp>(passed.getDefiningOp());
    });
    if (!fromScalars)
      continue;
    for (auto [br, s] : edges) {
      MutableOperandRange operands =
          br.getSuccessorOperands(s).getMutableForwardedOperands();
      auto built = operands[i].get().getDefiningOp<tensor::FromElementsOp>();
      operands[i].set(built.getElements().front());
      if (built->use_empty())
        built->erase();
    }
    SmallVector<OpOperand *> uses =
        llvm::map_to_vector(arg.getUses(), [](OpOperand &u) { return &u; });
    arg.setType(type.getElementType());
    Value tensor =
        tensor::FromElementsOp::create(b, arg.getLoc(), type, ValueRange{arg});
    for (OpOperand *use : uses)
      use->set(tensor);
  }
}

/// Step 3: the tensors of a join taking two or more (or a dynamic one) are
/// passed boxed.
void boxTensors(Block &block, ArrayRef<BranchEdge> edges) {
  auto tensors = llvm::make_filter_range(block.getArgumentTypes(), isTensor);
  if (llvm::range_size(tensors) < 2 && llvm::all_of(tensors, [](Type t) {
        return cast<RankedTensorType>(t).hasStaticShape();
      }))
    return;
  SmallVector<unsigned> boxed;
  for (BlockArgument arg : block.getArguments())
    if (isTensor(arg.getType()))
      boxed.push_back(arg.getArgNumber());
  for (auto [br, s] : edges) {
    MutableOperandRange operands =
        br.getSuccessorOperands(s).getMutableForwardedOperands();
    OpBuilder b(br);
    for (unsigned i : boxed) {
      Value v = io::boxTensorBehindBarrier(b, br->getLoc(), operands[i].get());
      v.getDefiningOp()->setAttr(
          "name", b.getStringAttr("block_arg" + std::to_string(i)));
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
}

struct BoxJoinTensorsPass
    : relay::impl::RelayBoxJoinTensorsBase<BoxJoinTensorsPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    for (auto fn : getOperation().getOps<func::FuncOp>()) {
      if (fn.isExternal() || fn.getBody().hasOneBlock())
        continue;
      (void)eraseUnreachableBlocks(rewriter, fn.getBody());
      (void)runRegionDCE(rewriter, fn.getBody());
      for (Block &block : llvm::drop_begin(fn.getBody())) {
        if (llvm::none_of(block.getArgumentTypes(), isTensor))
          continue;
        auto edges = enteringEdges(&block);
        if (failed(edges) || edges->empty())
          continue;
        passScalarsInsteadOfTensors(block, *edges);
        if (edges->size() > 1)
          boxTensors(block, *edges);
      }
    }
  }
};

} // namespace
