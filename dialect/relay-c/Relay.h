/*===- relay-c/Relay.h - C API of the relay dialect
 * ------------------------===*/
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
MLIR_CAPI_EXPORTED void
relayRegisterLoweringDialects(MlirDialectRegistry registry);

/// Looks in `source` for text MLIR's parser would abort on instead of
/// reporting an error (relay/Utils/ParserHazards.h); call it before parsing
/// untrusted text. Returns the byte offset of the first hazard and passes
/// its message to `callback`, or returns -1.
MLIR_CAPI_EXPORTED intptr_t relayFindParserHazard(MlirStringRef source,
                                                  MlirStringCallback callback,
                                                  void *userData);

/* Types: `isa`, `get`, accessors and TypeIDs (the TypeIDs let the Python
 * bindings return these types as their own classes, see
 * python/RelayTypes.cpp). */

/* !relay.incomplete / !relay.incomplete<N> */
MLIR_CAPI_EXPORTED bool relayTypeIsIncomplete(MlirType type);
MLIR_CAPI_EXPORTED MlirType relayIncompleteTypeGet(MlirContext ctx);
MLIR_CAPI_EXPORTED unsigned relayIncompleteTypeGetId(MlirType type);
MLIR_CAPI_EXPORTED MlirTypeID relayIncompleteTypeGetTypeID(void);

/* !relay.fn<(inputs...) -> result> */
MLIR_CAPI_EXPORTED bool relayTypeIsFn(MlirType type);
MLIR_CAPI_EXPORTED MlirType relayFnTypeGet(MlirContext ctx, intptr_t numInputs,
                                           MlirType const *inputs,
                                           MlirType result);
MLIR_CAPI_EXPORTED intptr_t relayFnTypeGetNumInputs(MlirType type);
MLIR_CAPI_EXPORTED MlirType relayFnTypeGetInput(MlirType type, intptr_t pos);
MLIR_CAPI_EXPORTED MlirType relayFnTypeGetResult(MlirType type);
MLIR_CAPI_EXPORTED MlirTypeID relayFnTypeGetTypeID(void);

/* !relay.ref<element> */
MLIR_CAPI_EXPORTED bool relayTypeIsRef(MlirType type);
MLIR_CAPI_EXPORTED MlirType relayRefTypeGet(MlirType element);
MLIR_CAPI_EXPORTED MlirType relayRefTypeGetElementType(MlirType type);
MLIR_CAPI_EXPORTED MlirTypeID relayRefTypeGetTypeID(void);

/* !relay.tvar<"name"> */
MLIR_CAPI_EXPORTED bool relayTypeIsTypeVar(MlirType type);
MLIR_CAPI_EXPORTED MlirType relayTypeVarTypeGet(MlirContext ctx,
                                                MlirStringRef name);
MLIR_CAPI_EXPORTED MlirStringRef relayTypeVarTypeGetName(MlirType type);
MLIR_CAPI_EXPORTED MlirTypeID relayTypeVarTypeGetTypeID(void);

/* !relay.adt<@name, args...> */
MLIR_CAPI_EXPORTED bool relayTypeIsADT(MlirType type);
MLIR_CAPI_EXPORTED MlirType relayADTTypeGet(MlirContext ctx, MlirStringRef name,
                                            intptr_t numArgs,
                                            MlirType const *args);
MLIR_CAPI_EXPORTED MlirStringRef relayADTTypeGetName(MlirType type);
MLIR_CAPI_EXPORTED intptr_t relayADTTypeGetNumArgs(MlirType type);
MLIR_CAPI_EXPORTED MlirType relayADTTypeGetArg(MlirType type, intptr_t pos);
MLIR_CAPI_EXPORTED MlirTypeID relayADTTypeGetTypeID(void);

#ifdef __cplusplus
}
#endif

#endif /* RELAY_C_RELAY_H */
