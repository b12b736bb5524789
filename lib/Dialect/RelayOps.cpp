//===- RelayOps.cpp - op definitions and the relation verifier ------------===//
#include "relay/RelayOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::relay;

#include "relay/RelayInterfaces.cpp.inc"

#define GET_OP_CLASSES
#include "relay/RelayOps.cpp.inc"

LogicalResult mlir::relay::verifyTypeRelation(Operation *op) {
  SmallVector<Type> operandTypes(op->getOperandTypes());
  if (!llvm::all_of(operandTypes, isComplete))
    return success(); // Nothing to check until inference fills them in.
  SmallVector<Type> inferred;
  if (failed(cast<TypeRelationOpInterface>(op).inferRelayTypes(operandTypes,
                                                               inferred)))
    return failure();
  if (inferred.size() != op->getNumResults())
    return op->emitOpError() << "relation produced " << inferred.size()
                             << " result types for " << op->getNumResults()
                             << " results";
  for (auto [i, pair] : llvm::enumerate(llvm::zip(inferred, op->getResultTypes()))) {
    auto [expected, declared] = pair;
    if (!areCompatible(expected, declared))
      return op->emitOpError()
             << "result #" << i << " has type " << declared
             << " but its type relation "
             << cast<TypeRelationOpInterface>(op).getRelationName()
             << " gives " << expected;
  }
  return success();
}
