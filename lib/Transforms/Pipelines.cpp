//===- Pipelines.cpp - named pass pipelines -------------------------------===//
#include "relay/RelayPasses.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void mlir::relay::registerRelayPipelines() {
  PassPipelineRegistration<>(
      "relay-to-iree-input",
      "Infers types and lowers relay to linalg/tensor/arith/math/scf/func "
      "text that iree-compile accepts",
      [](OpPassManager &pm) {
        pm.addPass(createRelayInferType());
        pm.addPass(createCanonicalizerPass());
        pm.addPass(createConvertRelayToLinalg());
        pm.addPass(createCanonicalizerPass());
        pm.addPass(createCSEPass());
      });
}
