//===- InferType.cpp - relay-infer-type -----------------------------------===//
#include "relay/RelayPasses.h"

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYINFERTYPE
#include "relay/RelayPasses.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

namespace {
struct InferTypePass : relay::impl::RelayInferTypeBase<InferTypePass> {
  void runOnOperation() override {}
};
} // namespace
