//===- BranchEdges.h - the branches entering a block ------------*- C++ -*-===//
#ifndef RELAY_TRANSFORMS_BRANCHEDGES_H
#define RELAY_TRANSFORMS_BRANCHEDGES_H

#include "mlir/IR/Block.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"

namespace mlir::relay {

/// A branch into a block: the terminator and the successor index.
using BranchEdge = std::pair<BranchOpInterface, unsigned>;

/// The branches entering `block`, each once; failure if a predecessor's
/// terminator is not a BranchOpInterface (its operands cannot be rewritten).
inline FailureOr<SmallVector<BranchEdge>> enteringEdges(Block *block) {
  SmallVector<BranchEdge> edges;
  for (Block *pred : llvm::to_vector(block->getPredecessors())) {
    auto br = dyn_cast<BranchOpInterface>(pred->getTerminator());
    if (!br)
      return failure();
    for (unsigned s = 0; s < br->getNumSuccessors(); ++s)
      if (br->getSuccessor(s) == block &&
          !llvm::is_contained(edges, BranchEdge(br, s)))
        edges.push_back({br, s});
  }
  return edges;
}

} // namespace mlir::relay

#endif // RELAY_TRANSFORMS_BRANCHEDGES_H
