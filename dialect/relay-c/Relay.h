/*===- relay-c/Relay.h - C API of the relay dialect ------------------------===*/
#ifndef RELAY_C_RELAY_H
#define RELAY_C_RELAY_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Relay, relay);

/// Registers every relay pass and named pipeline with the global registry
/// (so PassManager.parse("builtin.module(relay-infer-type)") finds them),
/// and the upstream passes the pipelines use.
MLIR_CAPI_EXPORTED void relayRegisterAllPasses(void);

/// Registers the dialects that relay lowers to (linalg, tensor, arith, math,
/// scf, func) in `registry`.
MLIR_CAPI_EXPORTED void relayRegisterLoweringDialects(MlirDialectRegistry registry);

/* Types. */
MLIR_CAPI_EXPORTED bool relayTypeIsIncomplete(MlirType type);
MLIR_CAPI_EXPORTED MlirType relayIncompleteTypeGet(MlirContext ctx);
MLIR_CAPI_EXPORTED bool relayTypeIsFn(MlirType type);
MLIR_CAPI_EXPORTED MlirType relayFnTypeGet(MlirContext ctx, intptr_t numInputs,
                                           MlirType const *inputs,
                                           MlirType result);
MLIR_CAPI_EXPORTED bool relayTypeIsRef(MlirType type);
MLIR_CAPI_EXPORTED MlirType relayRefTypeGet(MlirType element);

#ifdef __cplusplus
}
#endif

#endif /* RELAY_C_RELAY_H */
