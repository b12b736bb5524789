//===- RelayToLinalg.cpp - the convert-relay-to-linalg pass ---------------===//
#include "relay/RelayPasses.h"

#include "mlir/Transforms/DialectConversion.h"

namespace mlir::relay {
#define GEN_PASS_DEF_CONVERTRELAYTOLINALG
#include "relay/RelayPasses.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

namespace {
struct ConvertRelayToLinalgPass
    : relay::impl::ConvertRelayToLinalgBase<ConvertRelayToLinalgPass> {
  void runOnOperation() override {}
};
} // namespace
