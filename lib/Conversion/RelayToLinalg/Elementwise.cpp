//===- Elementwise.cpp - unary and broadcasting binary operators ----------===//
//
// Each operator is one row of a table: its scalar body for float, signed
// and unsigned (or bool) operand element types. Binary operators broadcast
// (numpy) through the indexing maps of one linalg.generic. The operators
// with attributes or mixed dtypes (clip, cast, cast_like, where) have their
// own small patterns over the same broadcasting linalg.generic.
//
//===----------------------------------------------------------------------===//
#include "ElementwiseF64Math.h"
#include "Utils.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include <cmath>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

namespace {
using UnaryFn = Value (*)(OpBuilder &, Location, Value);
using BinaryFn = Value (*)(OpBuilder &, Location, Value, Value);

template <typename OpTy> Value un(OpBuilder &b, Location loc, Value x) {
  return OpTy::create(b, loc, x);
}
template <typename OpTy>
Value bin(OpBuilder &b, Location loc, Value x, Value y) {
  return OpTy::create(b, loc, x, y);
}

/// math op OpTy, or for f64 the expansion F64 (IREE's llvm-cpu cannot
/// compile these math ops on f64; see F64Math.h).
template <typename OpTy, UnaryFn F64>
Value unOrF64(OpBuilder &b, Location loc, Value x) {
  if (x.getType().isF64())
    return F64(b, loc, x);
  return OpTy::create(b, loc, x);
}

Value negInt(OpBuilder &b, Location loc, Value x) {
  return arith::SubIOp::create(b, loc, scalarConst(b, loc, x.getType(), 0), x);
}
Value sigmoid(OpBuilder &b, Location loc, Value x) {
  Value one = scalarConst(b, loc, x.getType(), 1.0);
  Value e = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, x));
  return arith::DivFOp::create(b, loc, one,
                               arith::AddFOp::create(b, loc, one, e));
}
template <typename MaxOp> Value relu(OpBuilder &b, Location loc, Value x) {
  return MaxOp::create(b, loc, x, scalarConst(b, loc, x.getType(), 0.0));
}
Value same(OpBuilder &, Location, Value x) { return x; }
Value allOnes(OpBuilder &b, Location loc, Type type) {
  return arith::ConstantOp::create(
      b, loc,
      b.getIntegerAttr(type, APInt::getAllOnes(type.getIntOrFloatBitWidth())));
}
Value notInt(OpBuilder &b, Location loc, Value x) {
  return arith::XOrIOp::create(b, loc, x, allOnes(b, loc, x.getType()));
}
Value absUnsigned(OpBuilder &, Location, Value x) { return x; }
/// sign: 1 for x > 0, -1 for x < 0, else x (keeps +-0 and NaN).
Value signF(OpBuilder &b, Location loc, Value x) {
  Type t = x.getType();
  Value gt = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x,
                                   scalarConst(b, loc, t, 0.0));
  Value lt = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, x,
                                   scalarConst(b, loc, t, 0.0));
  Value neg =
      arith::SelectOp::create(b, loc, lt, scalarConst(b, loc, t, -1.0), x);
  return arith::SelectOp::create(b, loc, gt, scalarConst(b, loc, t, 1.0), neg);
}
Value signS(OpBuilder &b, Location loc, Value x) {
  Type t = x.getType();
  Value zero = scalarConst(b, loc, t, 0);
  Value gt = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, x, zero);
  Value lt = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x, zero);
  Value neg = arith::SelectOp::create(b, loc, lt, allOnes(b, loc, t), zero);
  return arith::SelectOp::create(b, loc, gt, scalarConst(b, loc, t, 1), neg);
}
Value signU(OpBuilder &b, Location loc, Value x) {
  Value ne = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, x,
                                   scalarConst(b, loc, x.getType(), 0));
  return arith::ExtUIOp::create(b, loc, x.getType(), ne);
}
Value infOf(OpBuilder &b, Location loc, Type t) {
  auto ft = cast<FloatType>(t);
  return arith::ConstantOp::create(
      b, loc, b.getFloatAttr(ft, APFloat::getInf(ft.getFloatSemantics())));
}
Value isNan(OpBuilder &b, Location loc, Value x) {
  return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
}
Value isInf(OpBuilder &b, Location loc, Value x) {
  Value a = math::AbsFOp::create(b, loc, x);
  return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, a,
                               infOf(b, loc, x.getType()));
}
Value isFinite(OpBuilder &b, Location loc, Value x) {
  Value a = math::AbsFOp::create(b, loc, x);
  return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, a,
                               infOf(b, loc, x.getType()));
}

/// log10(x) = ln(x) / ln(10): math.log10 has no polynomial expansion and
/// would become a libm call (log10f) that IREE's llvm-cpu cannot link.
Value log10F(OpBuilder &b, Location loc, Value x) {
  Value ln = math::LogOp::create(b, loc, x);
  return arith::MulFOp::create(b, loc, ln,
                               scalarConst(b, loc, x.getType(), 1.0 / M_LN10));
}

/// log(1 + u), accurate for small u (Kahan: log(w) * u / (w - 1) with
/// w = 1 + u, u itself when w rounds to 1, w when it is +inf); only
/// math.log, which IREE expands for f32 and f64 alike.
Value log1pF(OpBuilder &b, Location loc, Value u) {
  Type t = u.getType();
  Value w = arith::AddFOp::create(b, loc, scalarConst(b, loc, t, 1.0), u);
  Value wm1 = arith::SubFOp::create(b, loc, w, scalarConst(b, loc, t, 1.0));
  Value r = arith::MulFOp::create(b, loc, math::LogOp::create(b, loc, w),
                                  arith::DivFOp::create(b, loc, u, wm1));
  Value isOne = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, w,
                                      scalarConst(b, loc, t, 1.0));
  Value isInf = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, w,
                                      infOf(b, loc, t));
  return arith::SelectOp::create(b, loc, isOne, u,
                                 arith::SelectOp::create(b, loc, isInf, w, r));
}
/// For a >= 1e8 (where a * a + 1 rounds to a * a in f32 and f64),
/// log(a + sqrt(a * a +- 1)) = log(a) + ln 2 without overflowing a * a.
Value selectLargeArg(OpBuilder &b, Location loc, Value a, Value small) {
  Type t = a.getType();
  Value big = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGE, a,
                                    scalarConst(b, loc, t, 1e8));
  Value logA = arith::AddFOp::create(b, loc, math::LogOp::create(b, loc, a),
                                     scalarConst(b, loc, t, M_LN2));
  return arith::SelectOp::create(b, loc, big, logA, small);
}
/// acosh(x) = log1p(t + sqrt(t * (x + 1))), t = x - 1 (NaN for x < 1).
Value acoshF(OpBuilder &b, Location loc, Value x) {
  Type ty = x.getType();
  Value t = arith::SubFOp::create(b, loc, x, scalarConst(b, loc, ty, 1.0));
  Value xp1 = arith::AddFOp::create(b, loc, x, scalarConst(b, loc, ty, 1.0));
  Value root =
      math::SqrtOp::create(b, loc, arith::MulFOp::create(b, loc, t, xp1));
  Value small = log1pF(b, loc, arith::AddFOp::create(b, loc, t, root));
  return selectLargeArg(b, loc, x, small);
}
/// asinh(x) = sign(x) * log1p(a + a^2 / (1 + sqrt(a^2 + 1))), a = |x|.
Value asinhF(OpBuilder &b, Location loc, Value x) {
  Type ty = x.getType();
  Value one = scalarConst(b, loc, ty, 1.0);
  Value a = math::AbsFOp::create(b, loc, x);
  Value a2 = arith::MulFOp::create(b, loc, a, a);
  Value root =
      math::SqrtOp::create(b, loc, arith::AddFOp::create(b, loc, a2, one));
  Value frac = arith::DivFOp::create(b, loc, a2,
                                     arith::AddFOp::create(b, loc, one, root));
  Value small = log1pF(b, loc, arith::AddFOp::create(b, loc, a, frac));
  return math::CopySignOp::create(b, loc, selectLargeArg(b, loc, a, small), x);
}
/// atanh(x) = sign(x) * 0.5 * log1p(2a / (1 - a)), a = |x| (1 - a is exact
/// near 1; +-inf at +-1, NaN beyond).
Value atanhF(OpBuilder &b, Location loc, Value x) {
  Type ty = x.getType();
  Value a = math::AbsFOp::create(b, loc, x);
  Value oneMinus =
      arith::SubFOp::create(b, loc, scalarConst(b, loc, ty, 1.0), a);
  Value twoA = arith::AddFOp::create(b, loc, a, a);
  Value l = log1pF(b, loc, arith::DivFOp::create(b, loc, twoA, oneMinus));
  Value half = arith::MulFOp::create(b, loc, l, scalarConst(b, loc, ty, 0.5));
  return math::CopySignOp::create(b, loc, half, x);
}

Value floorDivF(OpBuilder &b, Location loc, Value x, Value y) {
  return math::FloorOp::create(b, loc, arith::DivFOp::create(b, loc, x, y));
}
Value truncDivF(OpBuilder &b, Location loc, Value x, Value y) {
  return math::TruncOp::create(b, loc, arith::DivFOp::create(b, loc, x, y));
}
/// Relay's float floor_mod: x - floor(x / y) * y.
Value floorModF(OpBuilder &b, Location loc, Value x, Value y) {
  Value q = floorDivF(b, loc, x, y);
  return arith::SubFOp::create(b, loc, x, arith::MulFOp::create(b, loc, q, y));
}
/// Remainder with the sign of the divisor: r = x rem y; r + y if r != 0
/// and r, y differ in sign.
Value floorModS(OpBuilder &b, Location loc, Value x, Value y) {
  Value r = arith::RemSIOp::create(b, loc, x, y);
  Value zero = scalarConst(b, loc, x.getType(), 0);
  Value nonzero =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, r, zero);
  Value signsDiffer =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                            arith::XOrIOp::create(b, loc, r, y), zero);
  Value fix = arith::AndIOp::create(b, loc, nonzero, signsDiffer);
  return arith::SelectOp::create(b, loc, fix,
                                 arith::AddIOp::create(b, loc, r, y), r);
}
template <arith::CmpFPredicate P>
Value cmpF(OpBuilder &b, Location loc, Value x, Value y) {
  return arith::CmpFOp::create(b, loc, P, x, y);
}
template <arith::CmpIPredicate P>
Value cmpI(OpBuilder &b, Location loc, Value x, Value y) {
  return arith::CmpIOp::create(b, loc, P, x, y);
}

/// One operator: its name and scalar bodies for float, signed int and
/// unsigned int element types (null: no such form).
template <typename Fn> struct Row {
  StringLiteral name;
  Fn floatFn, signedFn, unsignedFn;

  Fn pick(Type element, bool isUnsigned) const {
    if (isa<FloatType>(element))
      return floatFn;
    return isUnsigned ? unsignedFn : signedFn;
  }
};

const Row<UnaryFn> kUnary[] = {
    {NegativeOp::getOperationName(), un<arith::NegFOp>, negInt, negInt},
    {ExpOp::getOperationName(), un<math::ExpOp>, nullptr, nullptr},
    {LogOp::getOperationName(), un<math::LogOp>, nullptr, nullptr},
    {SqrtOp::getOperationName(), un<math::SqrtOp>, nullptr, nullptr},
    {TanhOp::getOperationName(), unOrF64<math::TanhOp, tanhF64>, nullptr,
     nullptr},
    {SigmoidOp::getOperationName(), sigmoid, nullptr, nullptr},
    {ReluOp::getOperationName(), relu<arith::MaximumFOp>, relu<arith::MaxSIOp>,
     relu<arith::MaxUIOp>},
    {Log2Op::getOperationName(), unOrF64<math::Log2Op, log2F64>, nullptr,
     nullptr},
    {Log10Op::getOperationName(), log10F, nullptr, nullptr},
    {RsqrtOp::getOperationName(), un<math::RsqrtOp>, nullptr, nullptr},
    {SinOp::getOperationName(), unOrF64<math::SinOp, sinF64>, nullptr, nullptr},
    {CosOp::getOperationName(), unOrF64<math::CosOp, cosF64>, nullptr, nullptr},
    {TanOp::getOperationName(), unOrF64<math::TanOp, tanF64>, nullptr, nullptr},
    {AsinOp::getOperationName(), unOrF64<math::AsinOp, asinF64>, nullptr,
     nullptr},
    {AcosOp::getOperationName(), unOrF64<math::AcosOp, acosF64>, nullptr,
     nullptr},
    {AtanOp::getOperationName(), unOrF64<math::AtanOp, atanF64>, nullptr,
     nullptr},
    {SinhOp::getOperationName(), un<math::SinhOp>, nullptr, nullptr},
    {CoshOp::getOperationName(), un<math::CoshOp>, nullptr, nullptr},
    // Expanded to log/sqrt (IREE's llvm-cpu has no acosh/asinh/atanh).
    {AcoshOp::getOperationName(), acoshF, nullptr, nullptr},
    {AsinhOp::getOperationName(), asinhF, nullptr, nullptr},
    {AtanhOp::getOperationName(), atanhF, nullptr, nullptr},
    {ErfOp::getOperationName(), unOrF64<math::ErfOp, erfF64>, nullptr, nullptr},
    // The fast_* approximations are left to the backend's math lowering.
    {FastExpOp::getOperationName(), un<math::ExpOp>, nullptr, nullptr},
    {FastTanhOp::getOperationName(), unOrF64<math::TanhOp, tanhF64>, nullptr,
     nullptr},
    {FastErfOp::getOperationName(), unOrF64<math::ErfOp, erfF64>, nullptr,
     nullptr},
    // Rounding is the identity on integers (as in Relay/TIR). Relay's round
    // is TVM's: halves away from zero (C's round, math.round).
    {CeilOp::getOperationName(), un<math::CeilOp>, same, same},
    {FloorOp::getOperationName(), un<math::FloorOp>, same, same},
    {RoundOp::getOperationName(), un<math::RoundOp>, same, same},
    {TruncOp::getOperationName(), un<math::TruncOp>, same, same},
    {AbsOp::getOperationName(), un<math::AbsFOp>, un<math::AbsIOp>,
     absUnsigned},
    {SignOp::getOperationName(), signF, signS, signU},
    {IsNanOp::getOperationName(), isNan, nullptr, nullptr},
    {IsInfOp::getOperationName(), isInf, nullptr, nullptr},
    {IsFiniteOp::getOperationName(), isFinite, nullptr, nullptr},
    {LogicalNotOp::getOperationName(), nullptr, notInt, notInt},
    {BitwiseNotOp::getOperationName(), nullptr, notInt, notInt},
    {CopyOp::getOperationName(), same, same, same},
};

// Relay's integer `divide` truncates (C semantics), as arith.divsi does;
// `mod` (and TVM's `trunc_mod`) is the truncated remainder (fmod on
// floats), `floor_mod` the floored one; `trunc_divide` is `divide` with
// the float quotient truncated. Bool operands take the unsigned column.
const Row<BinaryFn> kBinary[] = {
    {AddOp::getOperationName(), bin<arith::AddFOp>, bin<arith::AddIOp>,
     bin<arith::AddIOp>},
    {SubtractOp::getOperationName(), bin<arith::SubFOp>, bin<arith::SubIOp>,
     bin<arith::SubIOp>},
    {MultiplyOp::getOperationName(), bin<arith::MulFOp>, bin<arith::MulIOp>,
     bin<arith::MulIOp>},
    {DivideOp::getOperationName(), bin<arith::DivFOp>, bin<arith::DivSIOp>,
     bin<arith::DivUIOp>},
    {MaximumOp::getOperationName(), bin<arith::MaximumFOp>, bin<arith::MaxSIOp>,
     bin<arith::MaxUIOp>},
    {MinimumOp::getOperationName(), bin<arith::MinimumFOp>, bin<arith::MinSIOp>,
     bin<arith::MinUIOp>},
    {FloorDivideOp::getOperationName(), floorDivF, bin<arith::FloorDivSIOp>,
     bin<arith::DivUIOp>},
    {TruncDivideOp::getOperationName(), truncDivF, bin<arith::DivSIOp>,
     bin<arith::DivUIOp>},
    {ModOp::getOperationName(), bin<arith::RemFOp>, bin<arith::RemSIOp>,
     bin<arith::RemUIOp>},
    {TruncModOp::getOperationName(), bin<arith::RemFOp>, bin<arith::RemSIOp>,
     bin<arith::RemUIOp>},
    {FloorModOp::getOperationName(), floorModF, floorModS, bin<arith::RemUIOp>},
    {PowerOp::getOperationName(), bin<math::PowFOp>, nullptr, nullptr},
    // not_equal is unordered (true for NaN), the others ordered (IEEE).
    {EqualOp::getOperationName(), cmpF<arith::CmpFPredicate::OEQ>,
     cmpI<arith::CmpIPredicate::eq>, cmpI<arith::CmpIPredicate::eq>},
    {NotEqualOp::getOperationName(), cmpF<arith::CmpFPredicate::UNE>,
     cmpI<arith::CmpIPredicate::ne>, cmpI<arith::CmpIPredicate::ne>},
    {LessOp::getOperationName(), cmpF<arith::CmpFPredicate::OLT>,
     cmpI<arith::CmpIPredicate::slt>, cmpI<arith::CmpIPredicate::ult>},
    {LessEqualOp::getOperationName(), cmpF<arith::CmpFPredicate::OLE>,
     cmpI<arith::CmpIPredicate::sle>, cmpI<arith::CmpIPredicate::ule>},
    {GreaterOp::getOperationName(), cmpF<arith::CmpFPredicate::OGT>,
     cmpI<arith::CmpIPredicate::sgt>, cmpI<arith::CmpIPredicate::ugt>},
    {GreaterEqualOp::getOperationName(), cmpF<arith::CmpFPredicate::OGE>,
     cmpI<arith::CmpIPredicate::sge>, cmpI<arith::CmpIPredicate::uge>},
    {LogicalAndOp::getOperationName(), nullptr, bin<arith::AndIOp>,
     bin<arith::AndIOp>},
    {LogicalOrOp::getOperationName(), nullptr, bin<arith::OrIOp>,
     bin<arith::OrIOp>},
    {LogicalXorOp::getOperationName(), nullptr, bin<arith::XOrIOp>,
     bin<arith::XOrIOp>},
    {BitwiseAndOp::getOperationName(), nullptr, bin<arith::AndIOp>,
     bin<arith::AndIOp>},
    {BitwiseOrOp::getOperationName(), nullptr, bin<arith::OrIOp>,
     bin<arith::OrIOp>},
    {BitwiseXorOp::getOperationName(), nullptr, bin<arith::XOrIOp>,
     bin<arith::XOrIOp>},
    {LeftShiftOp::getOperationName(), nullptr, bin<arith::ShLIOp>,
     bin<arith::ShLIOp>},
    {RightShiftOp::getOperationName(), nullptr, bin<arith::ShRSIOp>,
     bin<arith::ShRUIOp>},
};

/// Lowers the operator of one table row to a (broadcasting) linalg.generic.
template <typename Fn> struct ElementwisePattern : ConversionPattern {
  ElementwisePattern(const TypeConverter &tc, MLIRContext *ctx,
                     const Row<Fn> &row)
      : ConversionPattern(tc, row.name, /*benefit=*/1, ctx), row(row) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    auto relayType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!relayType)
      return rewriter.notifyMatchFailure(op, "result is not a ranked tensor");
    Type operandType = op->getOperand(0).getType();
    Fn fn = row.pick(elementTypeOf(operandType), isUnsignedInt(operandType));
    if (!fn)
      return rewriter.notifyMatchFailure(op, "no form for this dtype");
    Value result = buildBroadcastMap(
        rewriter, op->getLoc(), signlessTensorType(relayType), operands,
        [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
          if constexpr (std::is_same_v<Fn, UnaryFn>)
            return fn(b, loc, args[0]);
          else
            return fn(b, loc, args[0], args[1]);
        },
        op->getName().getStringRef());
    rewriter.replaceOp(op, result);
    return success();
  }

  Row<Fn> row;
};

/// Lowers a relay op to one broadcasting linalg.generic whose body is
/// `body(op, builder, loc, scalars)`.
template <typename OpTy> struct MapPattern : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using Adaptor = typename OpConversionPattern<OpTy>::OpAdaptor;

  virtual Value body(OpTy op, OpBuilder &b, Location loc,
                     ValueRange args) const = 0;

  LogicalResult
  matchAndRewrite(OpTy op, Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto relayType = dyn_cast<RankedTensorType>(op.getResult().getType());
    if (!relayType)
      return rewriter.notifyMatchFailure(op, "result is not a ranked tensor");
    Value result = buildBroadcastMap(
        rewriter, op.getLoc(), signlessTensorType(relayType),
        adaptor.getOperands(),
        [&](OpBuilder &b, Location loc, ValueRange args) {
          return body(op, b, loc, args);
        },
        op->getName().getStringRef());
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// `value` as a scalar constant of integer type `type`: truncated towards
/// zero and saturated to the type's range.
Value intBound(OpBuilder &b, Location loc, Type type, double value,
               bool isUnsigned) {
  unsigned width = type.getIntOrFloatBitWidth();
  APSInt bound(width, isUnsigned);
  bool exact = false;
  APFloat(value).convertToInteger(bound, APFloat::rmTowardZero, &exact);
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, bound));
}

/// clip: max(min(x, a_max), a_min), as in Relay.
struct ClipPattern : MapPattern<ClipOp> {
  using MapPattern::MapPattern;
  Value body(ClipOp op, OpBuilder &b, Location loc,
             ValueRange args) const override {
    Value x = args[0];
    Type t = x.getType();
    double lo = op.getAMin().convertToDouble();
    double hi = op.getAMax().convertToDouble();
    if (isa<FloatType>(t)) {
      Value upper =
          arith::MinimumFOp::create(b, loc, x, scalarConst(b, loc, t, hi));
      return arith::MaximumFOp::create(b, loc, upper,
                                       scalarConst(b, loc, t, lo));
    }
    bool isUnsigned = isUnsignedInt(op.getData().getType());
    Value hiC = intBound(b, loc, t, hi, isUnsigned);
    Value loC = intBound(b, loc, t, lo, isUnsigned);
    if (isUnsigned)
      return arith::MaxUIOp::create(
          b, loc, arith::MinUIOp::create(b, loc, x, hiC), loC);
    return arith::MaxSIOp::create(b, loc,
                                  arith::MinSIOp::create(b, loc, x, hiC), loC);
  }
};

struct CastPattern : MapPattern<CastOp> {
  using MapPattern::MapPattern;
  Value body(CastOp op, OpBuilder &b, Location loc,
             ValueRange args) const override {
    return castScalar(b, loc, args[0], elementTypeOf(op.getData().getType()),
                      elementTypeOf(op.getResult().getType()));
  }
};

/// reinterpret: the bits as the (signless) result type, of the same width.
struct ReinterpretPattern : MapPattern<ReinterpretOp> {
  using MapPattern::MapPattern;
  Value body(ReinterpretOp op, OpBuilder &b, Location loc,
             ValueRange args) const override {
    Type to = signlessTensorType(cast<RankedTensorType>(op.getType()))
                  .getElementType();
    if (args[0].getType() == to)
      return args[0];
    return arith::BitcastOp::create(b, loc, to, args[0]);
  }
};

/// cast_like reads only `data`: `dtype_like` gives just the dtype.
struct CastLikePattern : OpConversionPattern<CastLikeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CastLikeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto relayType = dyn_cast<RankedTensorType>(op.getResult().getType());
    if (!relayType)
      return rewriter.notifyMatchFailure(op, "result is not a ranked tensor");
    Type from = elementTypeOf(op.getData().getType());
    Type to = relayType.getElementType();
    Value result = buildBroadcastMap(
        rewriter, op.getLoc(), signlessTensorType(relayType),
        ValueRange{adaptor.getData()},
        [&](OpBuilder &b, Location loc, ValueRange args) {
          return castScalar(b, loc, args[0], from, to);
        },
        op->getName().getStringRef());
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// where: select(condition != 0, x, y) over the three-way broadcast.
struct WherePattern : MapPattern<WhereOp> {
  using MapPattern::MapPattern;
  Value body(WhereOp op, OpBuilder &b, Location loc,
             ValueRange args) const override {
    Value cond = args[0];
    Type t = cond.getType();
    if (isa<FloatType>(t))
      cond = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, cond,
                                   scalarConst(b, loc, t, 0.0));
    else if (!t.isInteger(1))
      cond = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, cond,
                                   scalarConst(b, loc, t, 0));
    return arith::SelectOp::create(b, loc, cond, args[1], args[2]);
  }
};
} // namespace

bool lowering::requiresFloat(Operation *op) {
  if (isa<SoftmaxOp>(op))
    return true;
  // Ops with a float dtype trait are checked by their relation already.
  if (operandDtypeClass(op) == DtypeClass::Float)
    return false;
  for (const Row<UnaryFn> &row : kUnary)
    if (op->getName().getStringRef() == row.name)
      return !row.signedFn;
  return false;
}

void relay::populateElementwiseToLinalgPatterns(const TypeConverter &tc,
                                                RewritePatternSet &patterns) {
  for (const Row<UnaryFn> &row : kUnary)
    patterns.add<ElementwisePattern<UnaryFn>>(tc, patterns.getContext(), row);
  for (const Row<BinaryFn> &row : kBinary)
    patterns.add<ElementwisePattern<BinaryFn>>(tc, patterns.getContext(), row);
  patterns.add<ClipPattern, CastPattern, ReinterpretPattern, CastLikePattern,
               WherePattern>(tc, patterns.getContext());
}
