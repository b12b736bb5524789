//===- PromoteRefs.cpp - references that never escape become values -------===//
//
// Before a body is differentiated, a reference created in a block and only
// read and written by ops of that same block (not inside a nested region,
// not passed to a call, a closure, a tuple or returned) is replaced by the
// values written to it: each `ref_read` becomes the last value written
// before it (the initial value first), each `ref_write` the empty tuple it
// yields. This is Relay's refs as local mutable variables (a counter, an
// accumulator); what is left, references that escape or are used across
// regions, is reported by the sweep if it lies on a differentiated path.
//
//===----------------------------------------------------------------------===//
#include "Sweep.h"

using namespace mlir;
using namespace mlir::relay;

/// Whether every use of `ref` is a read or write of it by an op of its own
/// block.
static bool isLocal(RefNewOp ref) {
  Block *block = ref->getBlock();
  for (OpOperand &use : ref.getResult().getUses()) {
    Operation *user = use.getOwner();
    if (user->getBlock() != block)
      return false;
    if (isa<RefReadOp>(user))
      continue;
    if (isa<RefWriteOp>(user) && use.getOperandNumber() == 0)
      continue;
    return false;
  }
  return true;
}

void gradient::ad::promoteLocalRefs(Region &region) {
  SmallVector<RefNewOp> refs;
  region.walk([&](RefNewOp ref) {
    if (isLocal(ref))
      refs.push_back(ref);
  });
  for (RefNewOp ref : refs) {
    Value current = ref.getValue();
    Value cell = ref.getResult();
    for (Operation *op = ref->getNextNode(); op && !cell.use_empty();) {
      Operation *next = op->getNextNode();
      if (auto read = dyn_cast<RefReadOp>(op); read && read.getRef() == cell) {
        read.getResult().replaceAllUsesWith(current);
        read.erase();
      } else if (auto write = dyn_cast<RefWriteOp>(op);
                 write && write.getRef() == cell) {
        current = write.getValue();
        if (!write.getResult().use_empty()) {
          OpBuilder b(write);
          write.getResult().replaceAllUsesWith(
              TupleOp::create(b, write.getLoc(), ValueRange{}));
        }
        write.erase();
      }
      op = next;
    }
    ref.erase();
  }
}
