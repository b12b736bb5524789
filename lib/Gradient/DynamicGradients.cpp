//===- DynamicGradients.cpp - dyn.* ops -----------------------------------===//
//
// The dyn.* ops take a shape as run-time data: their rules are the static
// twins' (TransformGradients.cpp); dyn.full's fill value gets the sum of
// the adjoint, its shape none.
//
//===----------------------------------------------------------------------===//
#include "SharedRules.h"
#include "relay/RelayGradient.h"
#include "relay/RelayOps.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::gradient;

namespace {

/// dyn.full(fill_value, shape): the shape is run-time data.
LogicalResult dynFill(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  out.push_back(fillAdjoint(rb, g, rb.op->getOperand(0)));
  out.push_back(Value());
  return success();
}

} // namespace

void gradient::addDynamicGradients(GradientRules &rules) {
  for (StringRef name :
       {"relay.dyn.reshape", "relay.dyn.squeeze", "relay.dyn.expand_dims"})
    rules[name] = reshapeRule;
  rules["relay.dyn.broadcast_to"] = broadcastRule;
  rules["relay.dyn.full"] = dynFill;
}
