//===- ADT.cpp - the Construct relation -----------------------------------===//
#include "RelationUtils.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::rel;

LogicalResult rel::ConstructRel(Operation *op, TypeRange, SmallVectorImpl<Type> &) {
  return op->emitOpError() << "relation Construct is not implemented yet";
}
