//===- GradientRules.cpp - the rule table and the rules' helpers ----------===//
#include "relay/RelayGradient.h"
#include "relay/RelayOps.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::gradient;

namespace {
const GradientRules &table() {
  static const GradientRules rules = [] {
    GradientRules r;
    addElementwiseGradients(r);
    addReduceGradients(r);
    addNNGradients(r);
    addConvGradients(r);
    addPoolGradients(r);
    addNormGradients(r);
    addTransformGradients(r);
    addIndexGradients(r);
    addImageGradients(r);
    addDynamicGradients(r);
    return r;
  }();
  return rules;
}
} // namespace

GradientRule gradient::lookupGradientRule(StringRef opName) {
  auto it = table().find(opName);
  return it == table().end() ? nullptr : it->second;
}

std::vector<std::string> gradient::gradientRuleNames() {
  std::vector<std::string> names;
  for (const auto &entry : table())
    names.push_back(entry.getKey().str());
  llvm::sort(names);
  return names;
}

//===----------------------------------------------------------------------===//
// RuleBuilder
//===----------------------------------------------------------------------===//

Value RuleBuilder::unbroadcast(Value grad, Value like) {
  if (grad.getType() == like.getType())
    return grad;
  return CollapseSumLikeOp::create(b, loc, grad, like);
}

Value RuleBuilder::scalar(double value, Value like) {
  Type element = cast<RankedTensorType>(like.getType()).getElementType();
  auto type = RankedTensorType::get({}, element);
  Attribute attr;
  if (auto f = dyn_cast<FloatType>(element))
    attr = DenseElementsAttr::get(type, b.getFloatAttr(f, value));
  else
    attr = DenseElementsAttr::get(
        type, b.getIntegerAttr(element, static_cast<int64_t>(value)));
  return ConstantOp::create(b, loc, cast<ElementsAttr>(attr));
}

Value RuleBuilder::zerosLike(Value like) {
  return ZerosLikeOp::create(b, loc, like);
}
Value RuleBuilder::onesLike(Value like) {
  return OnesLikeOp::create(b, loc, like);
}
Value RuleBuilder::add(Value a, Value c) { return AddOp::create(b, loc, a, c); }
Value RuleBuilder::sub(Value a, Value c) {
  return SubtractOp::create(b, loc, a, c);
}
Value RuleBuilder::mul(Value a, Value c) {
  return MultiplyOp::create(b, loc, a, c);
}
Value RuleBuilder::div(Value a, Value c) {
  return DivideOp::create(b, loc, a, c);
}
Value RuleBuilder::neg(Value a) { return NegativeOp::create(b, loc, a); }

Value RuleBuilder::select(Value cond, Value a) {
  return WhereOp::create(b, loc, cond, a, scalar(0.0, a));
}

Value RuleBuilder::sum(Value x, ArrayRef<int64_t> axes, bool keepdims) {
  return SumOp::create(b, loc, x, b.getDenseI64ArrayAttr(axes), keepdims);
}

Value RuleBuilder::unsqueezeAxes(Value x, ArrayRef<int64_t> axes) {
  for (int64_t axis : axes)
    x = ExpandDimsOp::create(b, loc, x, b.getI64IntegerAttr(axis),
                             b.getI64IntegerAttr(1));
  return x;
}

Value RuleBuilder::broadcastLike(Value x, Value like) {
  if (x.getType() == like.getType())
    return x;
  return BroadcastToLikeOp::create(b, loc, x, like);
}

Value RuleBuilder::reshapeLike(Value x, Value like) {
  if (x.getType() == like.getType())
    return x;
  return ReshapeLikeOp::create(b, loc, x, like, b.getI64IntegerAttr(0),
                               IntegerAttr(), b.getI64IntegerAttr(0),
                               IntegerAttr());
}

Value RuleBuilder::transpose(Value x, ArrayRef<int64_t> perm) {
  return TransposeOp::create(b, loc, x, b.getDenseI64ArrayAttr(perm));
}

Value RuleBuilder::separableAdjoint(Value g, Value rowsT, Value colsT,
                                    Value like) {
  ArrayRef<int64_t> gs = tensorTypeOf(g).getShape();
  auto reshape = [&](Value v, ArrayRef<int64_t> shape) -> Value {
    return ReshapeOp::create(b, loc, v, b.getDenseI64ArrayAttr(shape),
                             b.getBoolAttr(false));
  };
  auto batch = [&](Value v) -> Value {
    return ExpandDimsOp::create(b, loc, v, b.getI64IntegerAttr(0),
                                b.getI64IntegerAttr(1));
  };
  auto bmm = [&](Value l, Value r, bool tb) -> Value {
    return BatchMatmulOp::create(b, loc, l, r, TypeAttr(), b.getBoolAttr(false),
                                 b.getBoolAttr(tb));
  };
  Value images = reshape(g, {gs[0] * gs[1], gs[2], gs[3]});
  Value cols = bmm(images, batch(colsT), /*tb=*/true); // [NC, oh, w]
  Value rows = bmm(batch(rowsT), cols, /*tb=*/false);  // [NC, h, w]
  return reshapeLike(rows, like);
}

InFlightDiagnostic RuleBuilder::emitError() { return op->emitError(); }
