//===- RelayRelations.h - Relay's type relations --------------------------===//
//
// A relation maps operand types (all complete) and an op's attributes to
// its result types, or emits an error naming the rule that is broken.
// Each relation is shared by the ops that `Relay_RelOp<..., "Name">`
// declares with its name. Definitions live in lib/Relations/<family>.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_RELAYRELATIONS_H
#define RELAY_RELAYRELATIONS_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/TypeRange.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::relay::rel {

#define RELAY_RELATION(NAME)                                                   \
  LogicalResult NAME##Rel(Operation *op, TypeRange operands,                   \
                          SmallVectorImpl<Type> &results);
#include "relay/RelayRelations.def"
#undef RELAY_RELATION

} // namespace mlir::relay::rel

#endif // RELAY_RELAYRELATIONS_H
