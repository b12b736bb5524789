//===- RelayCAPI.cpp - C API of the relay dialect -------------------------===//
#include "relay-c/Relay.h"
#include "relay/RelayPasses.h"
#include "relay/Utils/ParserHazards.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::relay;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Relay, relay, RelayDialect)

void relayRegisterAllPasses(void) {
  static bool once = [] {
    registerAllRelayPasses();
    registerTransformsPasses();
    // relay-to-iree-input runs it: registered so that the pipeline's passes
    // can each be run on their own (the worker names a crashed pass so).
    memref::registerResolveRankedShapeTypeResultDimsPass();
    return true;
  }();
  (void)once;
}

intptr_t relayFindParserHazard(MlirStringRef source,
                               MlirStringCallback callback, void *userData) {
  std::optional<ParserHazard> hazard = findParserHazard(unwrap(source));
  if (!hazard)
    return -1;
  callback(mlirStringRefCreate(hazard->message.data(), hazard->message.size()),
           userData);
  return hazard->offset;
}

void relayRegisterLoweringDialects(MlirDialectRegistry registry) {
  relay::registerLoweringDialects(*unwrap(registry));
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

static SmallVector<Type> unwrapTypes(intptr_t n, MlirType const *types) {
  SmallVector<Type> out;
  out.reserve(n);
  for (intptr_t i = 0; i < n; ++i)
    out.push_back(unwrap(types[i]));
  return out;
}

bool relayTypeIsIncomplete(MlirType type) {
  return isa<IncompleteType>(unwrap(type));
}
MlirType relayIncompleteTypeGet(MlirContext ctx) {
  return wrap(IncompleteType::get(unwrap(ctx), 0));
}
unsigned relayIncompleteTypeGetId(MlirType type) {
  return cast<IncompleteType>(unwrap(type)).getId();
}
MlirTypeID relayIncompleteTypeGetTypeID(void) {
  return wrap(IncompleteType::getTypeID());
}

bool relayTypeIsFn(MlirType type) { return isa<FuncType>(unwrap(type)); }
MlirType relayFnTypeGet(MlirContext ctx, intptr_t numInputs,
                        MlirType const *inputs, MlirType result) {
  return wrap(FuncType::get(unwrap(ctx), unwrapTypes(numInputs, inputs),
                            unwrap(result)));
}
intptr_t relayFnTypeGetNumInputs(MlirType type) {
  return cast<FuncType>(unwrap(type)).getInputs().size();
}
MlirType relayFnTypeGetInput(MlirType type, intptr_t pos) {
  return wrap(cast<FuncType>(unwrap(type)).getInputs()[pos]);
}
MlirType relayFnTypeGetResult(MlirType type) {
  return wrap(cast<FuncType>(unwrap(type)).getResult());
}
MlirTypeID relayFnTypeGetTypeID(void) { return wrap(FuncType::getTypeID()); }

bool relayTypeIsRef(MlirType type) { return isa<RefType>(unwrap(type)); }
MlirType relayRefTypeGet(MlirType element) {
  Type t = unwrap(element);
  return wrap(RefType::get(t.getContext(), t));
}
MlirType relayRefTypeGetElementType(MlirType type) {
  return wrap(cast<RefType>(unwrap(type)).getElementType());
}
MlirTypeID relayRefTypeGetTypeID(void) { return wrap(RefType::getTypeID()); }

bool relayTypeIsTypeVar(MlirType type) {
  return isa<TypeVarType>(unwrap(type));
}
MlirType relayTypeVarTypeGet(MlirContext ctx, MlirStringRef name) {
  return wrap(TypeVarType::get(unwrap(ctx), unwrap(name)));
}
MlirStringRef relayTypeVarTypeGetName(MlirType type) {
  return wrap(cast<TypeVarType>(unwrap(type)).getName());
}
MlirTypeID relayTypeVarTypeGetTypeID(void) {
  return wrap(TypeVarType::getTypeID());
}

bool relayTypeIsADT(MlirType type) { return isa<ADTType>(unwrap(type)); }
MlirType relayADTTypeGet(MlirContext ctx, MlirStringRef name, intptr_t numArgs,
                         MlirType const *args) {
  MLIRContext *c = unwrap(ctx);
  return wrap(ADTType::get(c, FlatSymbolRefAttr::get(c, unwrap(name)),
                           unwrapTypes(numArgs, args)));
}
MlirStringRef relayADTTypeGetName(MlirType type) {
  return wrap(cast<ADTType>(unwrap(type)).getName().getValue());
}
intptr_t relayADTTypeGetNumArgs(MlirType type) {
  return cast<ADTType>(unwrap(type)).getArgs().size();
}
MlirType relayADTTypeGetArg(MlirType type, intptr_t pos) {
  return wrap(cast<ADTType>(unwrap(type)).getArgs()[pos]);
}
MlirTypeID relayADTTypeGetTypeID(void) { return wrap(ADTType::getTypeID()); }
