//===- QnnSimulated.cpp - fixed-point multiplies, simulated qnn -----------===//
//
// One parallel linalg.generic each, bit-exact with TVM 0.19's compiled code:
//   fixed_point_multiply           q_multiply_shift on int32 (or int64) in
//                                  int64 (wrapping), constant mantissa and
//                                  shifts, truncated to int32 (integers
//                                  only)
//   fixed_point_multiply_per_axis  the same with the mantissa and shifts
//                                  read at data's indices along `axes`
//                                  (the left shift only if
//                                  is_lshift_required)
//   qnn.simulated_quantize         the dtype code read at run time: per
//                                  code 1/2/3, clip(round(x / s) + zp) to
//                                  int8/uint8/int32's range in x's float
//                                  type (TVM's min/max selects: NaN gives
//                                  the maximum); another code passes x
//   qnn.simulated_dequantize       codes 1/2/3: (x - zp) * s; else x
// A scale or zero point is 0-d, 1-D of one entry (read at 0) or one entry
// per channel along `axis`.
//
//===----------------------------------------------------------------------===//
#include "QnnUtils.h"

#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;
using namespace mlir::relay::qnn_lowering;

namespace {

Value i64Const(OpBuilder &b, Location l, int64_t v) {
  return arith::ConstantIntOp::create(b, l, b.getI64Type(), v);
}

/// TVM's q_multiply_shift of an int32 or int64 `x` (i64 `mantissa`, `left`,
/// `right` = the total right shift): in int64, rounding half up, truncated
/// to int32, sign-extended back for int64 `x` (TVM's kernels compute int32
/// whatever the relay type says).
Value qMultiplyShift(OpBuilder &b, Location l, Value x, Value mantissa,
                     Value left, Value right) {
  Type i64 = b.getI64Type();
  Value wide = x.getType() == i64 ? x : arith::ExtSIOp::create(b, l, i64, x);
  wide = arith::MulIOp::create(b, l, arith::ShLIOp::create(b, l, wide, left),
                               mantissa);
  Value half = arith::ShLIOp::create(
      b, l, i64Const(b, l, 1),
      arith::SubIOp::create(b, l, right, i64Const(b, l, 1)));
  wide = arith::ShRSIOp::create(b, l, arith::AddIOp::create(b, l, wide, half),
                                right);
  Value narrow = arith::TruncIOp::create(b, l, b.getI32Type(), wide);
  if (x.getType() != i64)
    return narrow;
  return arith::ExtSIOp::create(b, l, i64, narrow);
}

struct FixedPointMultiplyPattern : OpConversionPattern<FixedPointMultiplyOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(FixedPointMultiplyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    int64_t shift = op.getShift();
    int64_t multiplier = op.getMultiplier();
    Location loc = op.getLoc();
    Value data = adaptor.getData();
    int64_t rank = cast<RankedTensorType>(data.getType()).getRank();
    Value result = buildMap(
        rewriter, loc, resultTensorType(op), dimSizes(rewriter, loc, data),
        {data}, {rewriter.getMultiDimIdentityMap(rank)},
        [&](OpBuilder &b, Location l, ValueRange a) -> Value {
          return qMultiplyShift(b, l, a[0], i64Const(b, l, multiplier),
                                i64Const(b, l, shift > 0 ? shift : 0),
                                i64Const(b, l, 31 + (shift > 0 ? 0 : -shift)));
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct FixedPointMultiplyPerAxisPattern
    : OpConversionPattern<FixedPointMultiplyPerAxisOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(FixedPointMultiplyPerAxisOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value data = adaptor.getData();
    int64_t rank = cast<RankedTensorType>(data.getType()).getRank();
    SmallVector<AffineExpr> along;
    for (int64_t axis : op.getAxes())
      along.push_back(rewriter.getAffineDimExpr(axis < 0 ? axis + rank : axis));
    AffineMap paramMap = AffineMap::get(rank, 0, along, op.getContext());
    bool lshift = op.getIsLshiftRequired();
    Value result = buildMap(
        rewriter, loc, resultTensorType(op), dimSizes(rewriter, loc, data),
        {data, adaptor.getFpMultiplier(), adaptor.getLeftShift(),
         adaptor.getRightShift()},
        {rewriter.getMultiDimIdentityMap(rank), paramMap, paramMap, paramMap},
        [&](OpBuilder &b, Location l, ValueRange a) -> Value {
          Type i64 = b.getI64Type();
          Value left = lshift ? arith::ExtSIOp::create(b, l, i64, a[2])
                              : i64Const(b, l, 0);
          Value right = arith::AddIOp::create(
              b, l, arith::ExtSIOp::create(b, l, i64, a[3]),
              i64Const(b, l, 31));
          return qMultiplyShift(
              b, l, a[0], arith::ExtSIOp::create(b, l, i64, a[1]), left, right);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// The map reading a simulated op's parameter: nothing for a 0-d one, index
/// 0 for one entry, the channel dim otherwise.
AffineMap simulatedParamMap(OpBuilder &b, Value param, int64_t rank,
                            int64_t axis) {
  auto t = cast<RankedTensorType>(param.getType());
  if (t.getRank() == 0)
    return AffineMap::get(rank, 0, b.getContext());
  if (t.getDimSize(0) == 1 || rank == 0)
    return AffineMap::get(rank, 0, b.getAffineConstantExpr(0));
  return AffineMap::get(rank, 0,
                        b.getAffineDimExpr(axis < 0 ? axis + rank : axis));
}

/// The generic of a simulated op: `body(b, l, x, code, scale, zp)` with the
/// scale and zero point already in x's float type.
template <typename OpT>
Value simulatedMap(OpBuilder &b, OpT op, Value data, Value code, Value scale,
                   Value zp,
                   const std::function<Value(OpBuilder &, Location, Value,
                                             Value, Value, Value)> &body) {
  Location loc = op.getLoc();
  int64_t rank = cast<RankedTensorType>(data.getType()).getRank();
  int64_t axis = op.getAxis();
  return buildMap(
      b, loc, resultTensorType(op), dimSizes(b, loc, data),
      {data, code, scale, zp},
      {b.getMultiDimIdentityMap(rank), AffineMap::get(rank, 0, b.getContext()),
       simulatedParamMap(b, scale, rank, axis),
       simulatedParamMap(b, zp, rank, axis)},
      [&](OpBuilder &bb, Location l, ValueRange a) -> Value {
        Type f = a[0].getType();
        Value s = a[2].getType() == f
                      ? a[2]
                      : arith::ExtFOp::create(bb, l, f, a[2]).getResult();
        Value z = arith::SIToFPOp::create(bb, l, f, a[3]);
        Value c = a[1].getType().isInteger(64)
                      ? a[1]
                      : arith::ExtSIOp::create(bb, l, bb.getI64Type(), a[1])
                            .getResult();
        return body(bb, l, a[0], c, s, z);
      });
}

Value codeIs(OpBuilder &b, Location l, Value code, int64_t value) {
  return arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, code,
                               i64Const(b, l, value));
}

/// TVM's `max(min(v, hi), lo)` as selects (`min(NaN, hi)` is hi).
Value clampAsTvm(OpBuilder &b, Location l, Value v, double lo, double hi) {
  Type f = v.getType();
  Value h = scalarConst(b, l, f, hi), o = scalarConst(b, l, f, lo);
  Value below = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, v, h);
  v = arith::SelectOp::create(b, l, below, v, h);
  Value above = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGT, v, o);
  return arith::SelectOp::create(b, l, above, v, o);
}

struct SimulatedQuantizePattern : OpConversionPattern<QnnSimulatedQuantizeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(QnnSimulatedQuantizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value result = simulatedMap(
        rewriter, op, adaptor.getData(), adaptor.getOutDtype(),
        adaptor.getOutputScale(), adaptor.getOutputZeroPoint(),
        [](OpBuilder &b, Location l, Value x, Value code, Value s,
           Value z) -> Value {
          Value q = arith::AddFOp::create(
              b, l,
              math::RoundOp::create(b, l, arith::DivFOp::create(b, l, x, s)),
              z);
          // codes 1, 2, 3: int8, uint8, int32 (TVM's SQNN codes)
          const std::pair<double, double> ranges[] = {
              {-128, 127}, {0, 255}, {-2147483648.0, 2147483647.0}};
          Value out = x;
          for (int64_t i = 0; i < 3; ++i)
            out = arith::SelectOp::create(
                b, l, codeIs(b, l, code, i + 1),
                clampAsTvm(b, l, q, ranges[i].first, ranges[i].second), out);
          return out;
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct SimulatedDequantizePattern
    : OpConversionPattern<QnnSimulatedDequantizeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(QnnSimulatedDequantizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value result =
        simulatedMap(rewriter, op, adaptor.getData(), adaptor.getInDtype(),
                     adaptor.getInputScale(), adaptor.getInputZeroPoint(),
                     [](OpBuilder &b, Location l, Value x, Value code, Value s,
                        Value z) -> Value {
                       Value y = arith::MulFOp::create(
                           b, l, arith::SubFOp::create(b, l, x, z), s);
                       Value integer = arith::OrIOp::create(
                           b, l, codeIs(b, l, code, 1),
                           arith::OrIOp::create(b, l, codeIs(b, l, code, 2),
                                                codeIs(b, l, code, 3)));
                       return arith::SelectOp::create(b, l, integer, y, x);
                     });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void relay::populateQnnSimulatedPatterns(const TypeConverter &tc,
                                         RewritePatternSet &patterns) {
  patterns.add<FixedPointMultiplyPattern, FixedPointMultiplyPerAxisPattern,
               SimulatedQuantizePattern, SimulatedDequantizePattern>(
      tc, patterns.getContext());
}
