//===- DropSizeReshapes.cpp - relay-drop-size-reshapes --------------------===//
//
// The relay-to-linalg lowering names a tensor's run-time sizes, where it knows
// them equal to other values, with a `tensor.reshape` to the same type
// (lowering::withSizes, marked `relay.sizes_only`): later lowerings prove
// sizes equal through it (no run-time broadcast), and relay-unswitch-loops
// sees a loop's branches on them as branches on its invariant arguments.
// Once those have run, the reshapes only stand in IREE's way (each is a
// dispatch boundary): each is replaced by its source.
//
//===----------------------------------------------------------------------===//
#include "relay/RelayPasses.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYDROPSIZERESHAPES
#include "relay/RelayPasses.h.inc"
} // namespace mlir::relay

using namespace mlir;

namespace {
struct DropSizeReshapesPass
    : relay::impl::RelayDropSizeReshapesBase<DropSizeReshapesPass> {
  void runOnOperation() override {
    SmallVector<tensor::ReshapeOp> reshapes;
    getOperation()->walk([&](tensor::ReshapeOp op) {
      if (op->hasAttr(relay::kSizesOnlyAttr) &&
          op.getSource().getType() == op.getType())
        reshapes.push_back(op);
    });
    for (tensor::ReshapeOp op : reshapes) {
      Value shape = op.getShape();
      op.replaceAllUsesWith(op.getSource());
      op.erase();
      if (Operation *def = shape.getDefiningOp(); def && def->use_empty())
        def->erase();
    }
  }
};
} // namespace
