//===- ElementwiseGradients.cpp - unary and broadcasting binary ops -------===//
//
// d/dx of each elementwise op, written with the result `y` where that is
// cheaper (exp, sqrt, tanh, sigmoid). Binary ops sum their adjoints back
// over broadcast dims (RuleBuilder::unbroadcast). Piecewise-constant ops
// (sign, floor, round, ...) have zero gradient; comparisons and integer ops
// never carry adjoints.
//
//===----------------------------------------------------------------------===//
#include "relay/RelayGradient.h"
#include "relay/RelayOps.h"

#include <cmath>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::gradient;

namespace {

Value x0(RuleBuilder &rb) { return rb.op->getOperand(0); }
Value y0(RuleBuilder &rb) { return rb.op->getResult(0); }

/// A unary rule `dx = g * f(x, y)`.
template <Value (*Derivative)(RuleBuilder &, Value x, Value y)>
LogicalResult unary(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  out.push_back(rb.mul(g, Derivative(rb, x0(rb), y0(rb))));
  return success();
}

LogicalResult zero(RuleBuilder &, Value, SmallVectorImpl<Value> &out) {
  out.push_back(Value());
  return success();
}

LogicalResult identity(RuleBuilder &, Value g, SmallVectorImpl<Value> &out) {
  out.push_back(g);
  return success();
}

LogicalResult negative(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  out.push_back(rb.neg(g));
  return success();
}

Value dExp(RuleBuilder &, Value, Value y) { return y; }
Value dLog(RuleBuilder &rb, Value x, Value) {
  return rb.div(rb.scalar(1.0, x), x);
}
Value dLog2(RuleBuilder &rb, Value x, Value) {
  return rb.div(rb.scalar(1.0 / std::log(2.0), x), x);
}
Value dLog10(RuleBuilder &rb, Value x, Value) {
  return rb.div(rb.scalar(1.0 / std::log(10.0), x), x);
}
Value dSqrt(RuleBuilder &rb, Value, Value y) {
  return rb.div(rb.scalar(0.5, y), y);
}
Value dRsqrt(RuleBuilder &rb, Value x, Value y) {
  return rb.mul(rb.scalar(-0.5, y), rb.div(y, x));
}
Value dTanh(RuleBuilder &rb, Value, Value y) {
  return rb.sub(rb.scalar(1.0, y), rb.mul(y, y));
}
Value dSigmoid(RuleBuilder &rb, Value, Value y) {
  return rb.mul(y, rb.sub(rb.scalar(1.0, y), y));
}
Value dSin(RuleBuilder &rb, Value x, Value) {
  return CosOp::create(rb.b, rb.loc, x);
}
Value dCos(RuleBuilder &rb, Value x, Value) {
  return rb.neg(SinOp::create(rb.b, rb.loc, x));
}
Value dTan(RuleBuilder &rb, Value, Value y) {
  return rb.add(rb.scalar(1.0, y), rb.mul(y, y));
}
Value oneMinusSquare(RuleBuilder &rb, Value x) {
  return rb.sub(rb.scalar(1.0, x), rb.mul(x, x));
}
Value dAsin(RuleBuilder &rb, Value x, Value) {
  return RsqrtOp::create(rb.b, rb.loc, oneMinusSquare(rb, x));
}
Value dAcos(RuleBuilder &rb, Value x, Value) {
  return rb.neg(RsqrtOp::create(rb.b, rb.loc, oneMinusSquare(rb, x)));
}
Value dAtan(RuleBuilder &rb, Value x, Value) {
  return rb.div(rb.scalar(1.0, x), rb.add(rb.scalar(1.0, x), rb.mul(x, x)));
}
Value dSinh(RuleBuilder &rb, Value x, Value) {
  return CoshOp::create(rb.b, rb.loc, x);
}
Value dCosh(RuleBuilder &rb, Value x, Value) {
  return SinhOp::create(rb.b, rb.loc, x);
}
/// acosh' = 1 / sqrt(x^2 - 1), asinh' = 1 / sqrt(x^2 + 1),
/// atanh' = 1 / (1 - x^2).
Value dAcosh(RuleBuilder &rb, Value x, Value) {
  return RsqrtOp::create(rb.b, rb.loc, rb.sub(rb.mul(x, x), rb.scalar(1.0, x)));
}
Value dAsinh(RuleBuilder &rb, Value x, Value) {
  return RsqrtOp::create(rb.b, rb.loc, rb.add(rb.mul(x, x), rb.scalar(1.0, x)));
}
Value dAtanh(RuleBuilder &rb, Value x, Value) {
  return rb.div(rb.scalar(1.0, x), oneMinusSquare(rb, x));
}
Value dErf(RuleBuilder &rb, Value x, Value) {
  Value e = ExpOp::create(rb.b, rb.loc, rb.neg(rb.mul(x, x)));
  return rb.mul(rb.scalar(2.0 / std::sqrt(M_PI), x), e);
}
Value dAbs(RuleBuilder &rb, Value x, Value) {
  return SignOp::create(rb.b, rb.loc, x);
}
LogicalResult relu(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  Value x = x0(rb);
  Value positive = GreaterOp::create(rb.b, rb.loc, x, rb.scalar(0.0, x));
  out.push_back(rb.select(positive, g));
  return success();
}

LogicalResult clip(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  auto op = cast<ClipOp>(rb.op);
  Value x = op.getData();
  Value lo = GreaterEqualOp::create(
      rb.b, rb.loc, x, rb.scalar(op.getAMin().convertToDouble(), x));
  Value hi = LessEqualOp::create(rb.b, rb.loc, x,
                                 rb.scalar(op.getAMax().convertToDouble(), x));
  out.push_back(rb.select(LogicalAndOp::create(rb.b, rb.loc, lo, hi), g));
  return success();
}

LogicalResult castRule(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  Value x = x0(rb);
  Type element = cast<RankedTensorType>(x.getType()).getElementType();
  out.push_back(isa<FloatType>(element)
                    ? Value(CastOp::create(rb.b, rb.loc, g, element))
                    : Value());
  out.push_back(Value()); // cast_like's second operand
  return success();
}

//===----------------------------------------------------------------------===//
// Binary
//===----------------------------------------------------------------------===//

Value lhs(RuleBuilder &rb) { return rb.op->getOperand(0); }
Value rhs(RuleBuilder &rb) { return rb.op->getOperand(1); }

LogicalResult addRule(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  out.push_back(rb.unbroadcast(g, lhs(rb)));
  out.push_back(rb.unbroadcast(g, rhs(rb)));
  return success();
}

LogicalResult subtractRule(RuleBuilder &rb, Value g,
                           SmallVectorImpl<Value> &out) {
  out.push_back(rb.unbroadcast(g, lhs(rb)));
  out.push_back(rb.unbroadcast(rb.neg(g), rhs(rb)));
  return success();
}

LogicalResult multiplyRule(RuleBuilder &rb, Value g,
                           SmallVectorImpl<Value> &out) {
  out.push_back(rb.unbroadcast(rb.mul(g, rhs(rb)), lhs(rb)));
  out.push_back(rb.unbroadcast(rb.mul(g, lhs(rb)), rhs(rb)));
  return success();
}

LogicalResult divideRule(RuleBuilder &rb, Value g,
                         SmallVectorImpl<Value> &out) {
  Value a = lhs(rb), c = rhs(rb), y = y0(rb);
  out.push_back(rb.unbroadcast(rb.div(g, c), a));
  out.push_back(rb.unbroadcast(rb.neg(rb.div(rb.mul(g, y), c)), c));
  return success();
}

LogicalResult powerRule(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  // d(a^c)/da = c a^(c-1); d(a^c)/dc = log(a) a^c.
  Value a = lhs(rb), c = rhs(rb), y = y0(rb);
  Value cMinus1 = rb.sub(c, rb.scalar(1.0, c));
  Value da = rb.mul(c, PowerOp::create(rb.b, rb.loc, a, cMinus1));
  out.push_back(rb.unbroadcast(rb.mul(g, da), a));
  Value dc = rb.mul(LogOp::create(rb.b, rb.loc, a), y);
  out.push_back(rb.unbroadcast(rb.mul(g, dc), c));
  return success();
}

/// maximum/minimum: the adjoint goes to the operand that was chosen (the
/// left one on ties).
template <bool IsMax>
LogicalResult extremum(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  Value a = lhs(rb), c = rhs(rb);
  Value pickLeft = IsMax ? Value(GreaterEqualOp::create(rb.b, rb.loc, a, c))
                         : Value(LessEqualOp::create(rb.b, rb.loc, a, c));
  Value zeros = rb.zerosLike(g);
  out.push_back(
      rb.unbroadcast(WhereOp::create(rb.b, rb.loc, pickLeft, g, zeros), a));
  out.push_back(
      rb.unbroadcast(WhereOp::create(rb.b, rb.loc, pickLeft, zeros, g), c));
  return success();
}

/// floor_mod / mod: a - q c with q = floor(a / c) (trunc for mod).
template <bool Floor>
LogicalResult remainder(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  Value a = lhs(rb), c = rhs(rb);
  Value ratio = rb.div(a, c);
  Value q = Floor ? Value(FloorOp::create(rb.b, rb.loc, ratio))
                  : Value(TruncOp::create(rb.b, rb.loc, ratio));
  out.push_back(rb.unbroadcast(g, a));
  out.push_back(rb.unbroadcast(rb.neg(rb.mul(g, q)), c));
  return success();
}

LogicalResult whereRule(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  auto op = cast<WhereOp>(rb.op);
  Value zeros = rb.zerosLike(g);
  out.push_back(Value());
  out.push_back(rb.unbroadcast(
      WhereOp::create(rb.b, rb.loc, op.getCondition(), g, zeros), op.getX()));
  out.push_back(rb.unbroadcast(
      WhereOp::create(rb.b, rb.loc, op.getCondition(), zeros, g), op.getY()));
  return success();
}

} // namespace

void gradient::addElementwiseGradients(GradientRules &rules) {
  auto reg = [&](StringRef name, GradientRule rule) {
    rules[(Twine("relay.") + name).str()] = rule;
  };
  reg("negative", negative);
  reg("copy", identity);
  reg("exp", unary<dExp>);
  reg("fast_exp", unary<dExp>);
  reg("log", unary<dLog>);
  reg("log2", unary<dLog2>);
  reg("log10", unary<dLog10>);
  reg("sqrt", unary<dSqrt>);
  reg("rsqrt", unary<dRsqrt>);
  reg("tanh", unary<dTanh>);
  reg("fast_tanh", unary<dTanh>);
  reg("sigmoid", unary<dSigmoid>);
  reg("sin", unary<dSin>);
  reg("cos", unary<dCos>);
  reg("tan", unary<dTan>);
  reg("asin", unary<dAsin>);
  reg("acos", unary<dAcos>);
  reg("atan", unary<dAtan>);
  reg("sinh", unary<dSinh>);
  reg("cosh", unary<dCosh>);
  reg("acosh", unary<dAcosh>);
  reg("asinh", unary<dAsinh>);
  reg("atanh", unary<dAtanh>);
  reg("erf", unary<dErf>);
  reg("fast_erf", unary<dErf>);
  reg("abs", unary<dAbs>);
  reg("nn.relu", relu);
  reg("clip", clip);
  reg("cast", castRule);
  reg("cast_like", castRule);
  // Piecewise constant: zero almost everywhere.
  for (StringRef name : {"sign", "ceil", "floor", "round", "trunc",
                         "floor_divide", "trunc_divide"})
    reg(name, zero);
  reg("add", addRule);
  reg("subtract", subtractRule);
  reg("multiply", multiplyRule);
  reg("divide", divideRule);
  reg("power", powerRule);
  reg("maximum", extremum<true>);
  reg("minimum", extremum<false>);
  reg("floor_mod", remainder<true>);
  reg("mod", remainder<false>);
  reg("trunc_mod", remainder<false>);
  reg("where", whereRule);
}
