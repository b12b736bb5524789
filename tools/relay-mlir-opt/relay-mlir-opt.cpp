//===- relay-mlir-opt.cpp - the relay optimizer driver --------------------===//
//
// MlirOptMain with the relay dialect, every relay pass and pipeline, the
// dialects relay lowers to, and the upstream general-purpose passes.
//
//===----------------------------------------------------------------------===//
#include "relay/RelayPasses.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::registerTransformsPasses();
  mlir::registerLinalgPasses();
  mlir::relay::registerAllRelayPasses();

  mlir::DialectRegistry registry;
  registry.insert<mlir::relay::RelayDialect, mlir::func::FuncDialect,
                  mlir::arith::ArithDialect, mlir::linalg::LinalgDialect,
                  mlir::math::MathDialect, mlir::scf::SCFDialect,
                  mlir::tensor::TensorDialect,
                  mlir::bufferization::BufferizationDialect,
                  mlir::cf::ControlFlowDialect>();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "relay-mlir optimizer driver\n", registry));
}
