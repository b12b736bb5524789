//===- RelayToLinalg.cpp - the convert-relay-to-linalg pass ---------------===//
//
// Checks that the module is lowerable (complete types, no closures/ADTs/
// references), then runs one partial dialect conversion with the pattern
// sets of every op family (see Patterns.h) and the 1:N tuple-flattening
// type converter.
//
//===----------------------------------------------------------------------===//
#include "Patterns.h"
#include "relay/RelayPasses.h"

#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::relay {
#define GEN_PASS_DEF_CONVERTRELAYTOLINALG
#include "relay/RelayPasses.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

namespace {
struct ConvertRelayToLinalgPass
    : relay::impl::ConvertRelayToLinalgBase<ConvertRelayToLinalgPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(checkLowerable(module)))
      return signalPassFailure();

    MLIRContext *ctx = &getContext();
    RelayTypeConverter typeConverter;
    RewritePatternSet patterns(ctx);
    populateElementwisePatterns(typeConverter, patterns);
    populateNNPatterns(typeConverter, patterns);
    populateReducePatterns(typeConverter, patterns);
    populateIndexPatterns(typeConverter, patterns);
    populateSortPatterns(typeConverter, patterns);
    populateImagePatterns(typeConverter, patterns);
    populateTransformPatterns(typeConverter, patterns);
    populateLanguagePatterns(typeConverter, patterns);

    ConversionTarget target(*ctx);
    target.addIllegalDialect<RelayDialect>();
    target.addLegalDialect<linalg::LinalgDialect, tensor::TensorDialect,
                           arith::ArithDialect, math::MathDialect,
                           scf::SCFDialect>();
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp op) {
      return typeConverter.isSignatureLegal(op.getFunctionType()) &&
             typeConverter.isLegal(&op.getBody());
    });
    target.addDynamicallyLegalOp<func::CallOp, func::ReturnOp>(
        [&](Operation *op) { return typeConverter.isLegal(op); });
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });

    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
