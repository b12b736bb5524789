//===- RelayLanguageOps.cpp - constants, tuples, closures, if, refs -------===//
#include "relay/RelayGenerics.h"
#include "relay/RelayOps.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::relay;

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

OpFoldResult TupleGetItemOp::fold(FoldAdaptor) {
  if (auto tuple = getTuple().getDefiningOp<TupleOp>()) {
    int64_t index = getIndex();
    if (index >= 0 && index < (int64_t)tuple.getFields().size() &&
        tuple.getFields()[index].getType() == getType())
      return tuple.getFields()[index];
  }
  return {};
}

/// Checks that `region` ends with relay.yield (its type: the op's type
/// equations); `what` names the region. Op verifiers run before the
/// verifier checks the blocks of their regions, so the block may be empty
/// or end with an op that is not a terminator.
static LogicalResult verifyEndsWithYield(Operation *op, Region &region,
                                         StringRef what) {
  Block &block = region.front();
  if (block.empty() || !isa<YieldOp>(block.back()))
    return op->emitOpError() << what << " must end with relay.yield";
  return success();
}

LogicalResult IfOp::verify() {
  if (failed(verifyEndsWithYield(*this, getThenRegion(), "then branch")) ||
      failed(verifyEndsWithYield(*this, getElseRegion(), "else branch")))
    return failure();
  return checkTypeEquations(*this);
}

LogicalResult FnOp::verify() {
  if (failed(verifyEndsWithYield(*this, getBody(), "body")))
    return failure();
  return checkTypeEquations(*this);
}

FuncType mlir::relay::getRelayFnType(FunctionType type) {
  MLIRContext *ctx = type.getContext();
  Type result = type.getNumResults() == 1
                    ? type.getResult(0)
                    : TupleType::get(ctx, type.getResults());
  return FuncType::get(ctx, type.getInputs(), result);
}

LogicalResult GlobalFnOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return checkTypeEquations(*this, &symbolTable);
}

LogicalResult ClosureOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return checkTypeEquations(*this, &symbolTable);
}
