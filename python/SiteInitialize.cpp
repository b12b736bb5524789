//===- SiteInitialize.cpp - register relay in every relay_mlir Context ----===//
//
// MLIR's Python package calls `register_dialects(registry)` of each
// `_site_initialize_<i>` module when it creates its global registry, and
// `context_init_hook(context)` for every new Context.
//
//===----------------------------------------------------------------------===//
#include "relay-c/Relay.h"

#include "mlir-c/IR.h"
#include "mlir/Bindings/Python/Nanobind.h"
#include "mlir/Bindings/Python/NanobindAdaptors.h"

NB_MODULE(_site_initialize_0, m) {
  m.doc() = "Registers the relay dialect, its lowering dialects and passes.";
  m.def("register_dialects", [](MlirDialectRegistry registry) {
    mlirDialectHandleInsertDialect(mlirGetDialectHandle__relay__(), registry);
    relayRegisterLoweringDialects(registry);
    relayRegisterAllPasses();
  });
}
