//===- RelayToLinalg.cpp - the convert-relay-to-linalg pass ---------------===//
//
// Checks that the module is lowerable (complete types, no closures), then
// runs one partial dialect conversion with the pattern sets of every op
// family (relay/RelayToLinalg.h) and the 1:N tuple-flattening type
// converter, erases the ADT definitions (relay.adt), which the ADT
// patterns looked constructors up in, and finally rewrites the pads IREE
// 3.13 cannot fuse into their consumers (PadsForIREE.h).
//
//===----------------------------------------------------------------------===//
#include "PadsForIREE.h"
#include "Utils.h"
#include "relay/RelayPasses.h"

#include "mlir/Dialect/Affine/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/ValueBoundsOpInterfaceImpl.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::relay {
#define GEN_PASS_DEF_CONVERTRELAYTOLINALG
#include "relay/RelayPasses.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

void relay::populateRelayToLinalgPatterns(const TypeConverter &typeConverter,
                                          RewritePatternSet &patterns,
                                          const LoweringOptions &options) {
  populateElementwiseToLinalgPatterns(typeConverter, patterns);
  populateNNToLinalgPatterns(typeConverter, patterns);
  populateConvToLinalgPatterns(typeConverter, patterns, options);
  populatePoolToLinalgPatterns(typeConverter, patterns);
  populateQnnToLinalgPatterns(typeConverter, patterns);
  populateNormToLinalgPatterns(typeConverter, patterns);
  populateReduceToLinalgPatterns(typeConverter, patterns);
  populateTransformToLinalgPatterns(typeConverter, patterns);
  populateIndexToLinalgPatterns(typeConverter, patterns);
  populateImageToLinalgPatterns(typeConverter, patterns);
  populateDynamicToLinalgPatterns(typeConverter, patterns);
  populateLanguageToLinalgPatterns(typeConverter, patterns);
  populateADTToLinalgPatterns(typeConverter, patterns);
  populateRefToLinalgPatterns(typeConverter, patterns);
}

void relay::configureRelayToLinalgTarget(ConversionTarget &target,
                                         const TypeConverter &typeConverter) {
  target.addIllegalDialect<RelayDialect>();
  target.addLegalOp<ADTOp, ConstructorOp>();
  target.addLegalDialect<linalg::LinalgDialect, tensor::TensorDialect,
                         arith::ArithDialect, math::MathDialect,
                         scf::SCFDialect, cf::ControlFlowDialect>();
  target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp op) {
    return typeConverter.isSignatureLegal(op.getFunctionType()) &&
           typeConverter.isLegal(&op.getBody());
  });
  target.addDynamicallyLegalOp<func::CallOp, func::ReturnOp>(
      [&](Operation *op) { return typeConverter.isLegal(op); });
  target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
}

namespace {
struct ConvertRelayToLinalgPass
    : relay::impl::ConvertRelayToLinalgBase<ConvertRelayToLinalgPass> {
  using ConvertRelayToLinalgBase::ConvertRelayToLinalgBase;
  void getDependentDialects(DialectRegistry &registry) const override {
    ConvertRelayToLinalgBase::getDependentDialects(registry);
    // (the lowering proves run-time sizes equal with ValueBoundsOpInterface:
    // SymbolicSizes.h)
    affine::registerValueBoundsOpInterfaceExternalModels(registry);
    arith::registerValueBoundsOpInterfaceExternalModels(registry);
    linalg::registerValueBoundsOpInterfaceExternalModels(registry);
    tensor::registerValueBoundsOpInterfaceExternalModels(registry);
  }
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(checkLowerable(module)))
      return signalPassFailure();

    MLIRContext *ctx = &getContext();
    RelayToLinalgTypeConverter typeConverter;
    RewritePatternSet patterns(ctx);
    LoweringOptions options;
    options.int8MatmulKernel = int8MatmulKernel;
    options.f32MatmulKernel = f32MatmulKernel;
    populateRelayToLinalgPatterns(typeConverter, patterns, options);
    ConversionTarget target(*ctx);
    configureRelayToLinalgTarget(target, typeConverter);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();
    for (auto adt : llvm::make_early_inc_range(module.getOps<ADTOp>()))
      adt.erase();
    decomposePadsFedToElementwise(module);
  }
};
} // namespace
