//===- RelayOps.h - relay operations --------------------------------------===//
#ifndef RELAY_RELAYOPS_H
#define RELAY_RELAYOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "relay/RelayDialect.h"
#include "relay/RelayDtypeTraits.h"
#include "relay/RelayLayoutTraits.h"
#include "relay/RelayTypeEquations.h"

namespace mlir {
class OpBuilder;
namespace relay {
/// Creates an op of kind `name` (a relay operator) with `operands` and
/// attributes `attrs`, its result types inferred by the op's typing rule.
/// Fails without creating or reporting anything if the rule rejects the
/// operands: for rewrites that copy an op onto new operands (use the typed
/// builders, `AddOp::create(b, loc, x, y)`, when the kind is known).
FailureOr<Operation *> createInferred(OpBuilder &builder, Location loc,
                                      OperationName name, ValueRange operands,
                                      DictionaryAttr attrs);
} // namespace relay
} // namespace mlir

#include "relay/RelayRelations.h"

#define GET_OP_CLASSES
#include "relay/RelayOps.h.inc"

#endif // RELAY_RELAYOPS_H
