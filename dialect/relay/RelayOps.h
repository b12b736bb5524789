//===- RelayOps.h - relay operations --------------------------------------===//
#ifndef RELAY_RELAYOPS_H
#define RELAY_RELAYOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "relay/RelayDialect.h"
#include "relay/RelayDtypeTraits.h"

namespace mlir::relay {
/// The shared verifier of every op typed by a relation: once all operand
/// types are complete, the relation's results must be compatible with the
/// declared result types.
LogicalResult verifyTypeRelation(Operation *op);
} // namespace mlir::relay

#include "relay/RelayInterfaces.h.inc"
#include "relay/RelayRelations.h"

#define GET_OP_CLASSES
#include "relay/RelayOps.h.inc"

#endif // RELAY_RELAYOPS_H
