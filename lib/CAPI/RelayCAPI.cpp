//===- RelayCAPI.cpp - C API of the relay dialect -------------------------===//
#include "relay-c/Relay.h"
#include "relay/RelayPasses.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::relay;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Relay, relay, RelayDialect)

void relayRegisterAllPasses(void) {
  static bool once = [] {
    registerAllRelayPasses();
    registerTransformsPasses();
    return true;
  }();
  (void)once;
}

void relayRegisterLoweringDialects(MlirDialectRegistry registry) {
  unwrap(registry)->insert<arith::ArithDialect, linalg::LinalgDialect,
                           math::MathDialect, scf::SCFDialect,
                           tensor::TensorDialect, func::FuncDialect>();
}

bool relayTypeIsIncomplete(MlirType type) {
  return isa<IncompleteType>(unwrap(type));
}
MlirType relayIncompleteTypeGet(MlirContext ctx) {
  return wrap(IncompleteType::get(unwrap(ctx), 0));
}
bool relayTypeIsFn(MlirType type) { return isa<FuncType>(unwrap(type)); }
MlirType relayFnTypeGet(MlirContext ctx, intptr_t numInputs,
                        MlirType const *inputs, MlirType result) {
  SmallVector<Type> ins;
  for (intptr_t i = 0; i < numInputs; ++i)
    ins.push_back(unwrap(inputs[i]));
  return wrap(FuncType::get(unwrap(ctx), ins, unwrap(result)));
}
bool relayTypeIsRef(MlirType type) { return isa<RefType>(unwrap(type)); }
MlirType relayRefTypeGet(MlirType element) {
  Type t = unwrap(element);
  return wrap(RefType::get(t.getContext(), t));
}
