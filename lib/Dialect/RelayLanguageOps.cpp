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

/// Checks that the terminator of `region` yields a value compatible with
/// `type`; `what` names the region in the message. Op verifiers run before
/// the verifier checks the blocks of their regions, so the block may be
/// empty or end with an op that is not a terminator.
static LogicalResult verifyYield(Operation *op, Region &region, Type type,
                                 StringRef what) {
  Block &block = region.front();
  auto yield = block.empty() ? YieldOp() : dyn_cast<YieldOp>(block.back());
  if (!yield)
    return op->emitOpError() << what << " must end with relay.yield";
  if (!areCompatible(yield.getValue().getType(), type))
    return op->emitOpError() << what << " yields " << yield.getValue().getType()
                             << " but the result type is " << type;
  return success();
}

LogicalResult IfOp::verify() {
  Type cond = getCond().getType();
  if (!isa<IncompleteType>(cond)) {
    auto tensor = dyn_cast<RankedTensorType>(cond);
    if (!tensor || tensor.getRank() != 0 ||
        !tensor.getElementType().isInteger(1))
      return emitOpError() << "condition must be a rank-0 i1 tensor "
                              "(tensor<i1>), got "
                           << cond;
  }
  if (failed(verifyYield(*this, getThenRegion(), getType(), "then branch")))
    return failure();
  return verifyYield(*this, getElseRegion(), getType(), "else branch");
}

LogicalResult FnOp::verify() {
  Type type = getType();
  Block &entry = getBody().front();
  if (getRecursive()) {
    if (entry.getNumArguments() == 0)
      return emitOpError() << "is recursive, so its first block argument "
                              "must be the closure itself, but it has none";
    Type self = entry.getArgument(0).getType();
    if (!areCompatible(self, type))
      return emitOpError() << "is recursive, so its first block argument "
                              "is the closure itself, of type "
                           << type << ", but it has type " << self;
  }
  if (isa<IncompleteType>(type))
    return verifyYield(*this, getBody(), type, "body");
  auto fnType = dyn_cast<FuncType>(type);
  if (!fnType)
    return emitOpError() << "result must be a !relay.fn type, got " << type;
  auto params = getParams();
  if (params.size() != fnType.getInputs().size())
    return emitOpError() << "has " << params.size()
                         << " parameters but its type has "
                         << fnType.getInputs().size();
  for (auto [i, pair] : llvm::enumerate(
           llvm::zip(TypeRange(ValueRange(params)), fnType.getInputs())))
    if (!areCompatible(std::get<0>(pair), std::get<1>(pair)))
      return emitOpError() << "parameter #" << i << " has type "
                           << std::get<0>(pair)
                           << " but the function type says "
                           << std::get<1>(pair);
  return verifyYield(*this, getBody(), fnType.getResult(), "body");
}

FuncType mlir::relay::getRelayFnType(FunctionType type) {
  MLIRContext *ctx = type.getContext();
  Type result = type.getNumResults() == 1
                    ? type.getResult(0)
                    : TupleType::get(ctx, type.getResults());
  return FuncType::get(ctx, type.getInputs(), result);
}

LogicalResult GlobalFnOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto fn =
      symbolTable.lookupNearestSymbolFrom<func::FuncOp>(*this, getCalleeAttr());
  if (!fn)
    return emitOpError() << "'@" << getCallee()
                         << "' does not name a func.func in this module";
  FuncType expected = getRelayFnType(fn.getFunctionType());
  // A generic function is used at an instance of its type: one type per
  // type parameter.
  if (ArrayAttr params = getTypeParams(fn)) {
    if (failed(matchTypeParams(expected, getType(), params)))
      return emitOpError() << "has type " << getType()
                           << ", which is not an instance of '@" << getCallee()
                           << "' : " << expected
                           << " (one type for each of its type parameters "
                           << params << ")";
    return success();
  }
  if (!areCompatible(expected, getType()))
    return emitOpError() << "has type " << getType() << " but '@" << getCallee()
                         << "' has type " << expected;
  return success();
}

LogicalResult ClosureOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto fn =
      symbolTable.lookupNearestSymbolFrom<func::FuncOp>(*this, getCalleeAttr());
  if (!fn)
    return emitOpError() << "'@" << getCallee()
                         << "' does not name a func.func in this module";
  Type type = getType();
  if (isa<IncompleteType>(type))
    return success();
  auto fnType = dyn_cast<FuncType>(type);
  if (!fnType)
    return emitOpError() << "result must be a !relay.fn type, got " << type;
  // The lifted function takes the captures, then the closure's parameters.
  SmallVector<Type> inputs(getCaptures().getTypes());
  llvm::append_range(inputs, fnType.getInputs());
  FunctionType expected =
      FunctionType::get(getContext(), inputs, TypeRange{fnType.getResult()});
  FunctionType actual = fn.getFunctionType();
  if (actual.getNumInputs() != expected.getNumInputs() ||
      actual.getNumResults() != 1 ||
      !areCompatible(actual.getInputs(), expected.getInputs()) ||
      !areCompatible(actual.getResult(0), fnType.getResult()))
    return emitOpError() << "needs '@" << getCallee() << "' of type "
                         << expected << " (captures, then parameters), but it "
                         << "has type " << actual;
  return success();
}

//===----------------------------------------------------------------------===//
// Typing rules (relay/RelayRelations.h)
//===----------------------------------------------------------------------===//

LogicalResult TupleOp::inferReturnTypes(MLIRContext *context,
                                        std::optional<Location>,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &results) {
  results.push_back(inferTuple(context, adaptor.getFields().getTypes()));
  return success();
}

LogicalResult TupleGetItemOp::inferReturnTypes(MLIRContext *,
                                               std::optional<Location> loc,
                                               Adaptor adaptor,
                                               SmallVectorImpl<Type> &results) {
  return addResult(results, inferTupleGetItem({loc, getOperationName()},
                                              adaptor.getTuple().getType(),
                                              adaptor.getIndex()));
}

LogicalResult CallOp::inferReturnTypes(MLIRContext *,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &results) {
  return addResult(results, inferCall({loc, getOperationName()},
                                      adaptor.getCallee().getType(),
                                      adaptor.getArgs().getTypes()));
}

LogicalResult RefNewOp::inferReturnTypes(MLIRContext *, std::optional<Location>,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &results) {
  results.push_back(inferRefNew(adaptor.getValue().getType()));
  return success();
}

LogicalResult RefReadOp::inferReturnTypes(MLIRContext *,
                                          std::optional<Location> loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &results) {
  return addResult(results, inferRefRead({loc, getOperationName()},
                                         adaptor.getRef().getType()));
}

LogicalResult RefWriteOp::inferReturnTypes(MLIRContext *,
                                           std::optional<Location> loc,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &results) {
  return addResult(results, inferRefWrite({loc, getOperationName()},
                                          adaptor.getRef().getType(),
                                          adaptor.getValue().getType()));
}

LogicalResult GradOp::inferReturnTypes(MLIRContext *,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &results) {
  return addResult(results,
                   inferGrad({loc, getOperationName()},
                             adaptor.getFn().getType(), adaptor.getWrt(),
                             adaptor.getKeeping(), adaptor.getSeedable()));
}
