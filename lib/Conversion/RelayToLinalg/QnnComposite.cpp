//===- QnnComposite.cpp - qnn ops written as relay integer ops ------------===//
//
// TVM 0.19's canonical forms (src/relay/qnn/op/*.cc, qnn/op/legalizations.py)
// of these qnn ops, built from relay integer ops (and qnn.requantize) that
// this conversion then lowers, so no integer work goes through float:
//   qnn.concatenate       inputs whose constant (scale, zero point) differ
//                         from the output's requantized to them, then
//                         concatenate
//   qnn.avg_pool2d        requantize to the output's parameters in int32 (a
//                         cast when they are equal), nn.avg_pool2d in int32
//                         (truncating division), clip and cast
//   qnn.conv2d_transpose  nn.conv2d_transpose of the operands minus their
//                         zero points
//   qnn.softmax           the shift-based integer exponential and the
//                         2^30 / Σ normalisation, requantized from 1/128
// and qnn.leaky_relu, one linalg.generic of TVM's fixed-point form.
//
//===----------------------------------------------------------------------===//
#include "QnnUtils.h"

#include <cmath>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;
using namespace mlir::relay::qnn_lowering;

namespace {

/// True if `a` and `b` are constants of equal value (TVM's IsEqualScalar).
bool equalConstants(Value a, Value b) {
  auto ca = a.getDefiningOp<ConstantOp>(), cb = b.getDefiningOp<ConstantOp>();
  return ca && cb && ca.getValue() == cb.getValue();
}

/// TVM's RequantizeOrUpcast: `x` widened to int32 when its parameters equal
/// the output's, else requantized to them with an int32 result.
Value requantizeOrUpcast(OpBuilder &b, Location loc, Value x, Value scale,
                         Value zp, Value outScale, Value outZp) {
  Type i32 = b.getI32Type();
  if (equalConstants(scale, outScale) && equalConstants(zp, outZp))
    return CastOp::create(b, loc, x, TypeAttr::get(i32));
  return QnnRequantizeOp::create(
      b, loc, x, scale, zp, outScale, outZp, b.getI64IntegerAttr(-1),
      b.getStringAttr("None"), b.getStringAttr("None"), TypeAttr::get(i32));
}

struct ConcatenateQnnPattern : OpConversionPattern<QnnConcatenateOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(QnnConcatenateOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    OperandRange in = op.getInputs();
    size_t n = (in.size() - 2) / 3;
    Value outScale = in[3 * n], outZp = in[3 * n + 1];
    SmallVector<Value> fields;
    for (size_t i = 0; i < n; ++i) {
      Value x = in[i], scale = in[n + i], zp = in[2 * n + i];
      if (!equalConstants(scale, outScale) || !equalConstants(zp, outZp))
        x = QnnRequantizeOp::create(rewriter, loc, x, scale, zp, outScale,
                                    outZp, rewriter.getI64IntegerAttr(-1),
                                    rewriter.getStringAttr("None"),
                                    rewriter.getStringAttr("None"),
                                    TypeAttr::get(elementTypeOf(x.getType())));
      fields.push_back(x);
    }
    rewriter.replaceOp(
        op, ConcatenateOp::create(rewriter, loc, fields, op.getAxisAttr()));
    return success();
  }
};

struct AvgPool2DQnnPattern : OpConversionPattern<QnnAvgPool2DOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(QnnAvgPool2DOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value x = requantizeOrUpcast(rewriter, loc, op.getData(),
                                 op.getInputScale(), op.getInputZeroPoint(),
                                 op.getOutputScale(), op.getOutputZeroPoint());
    Value pooled = AvgPool2DOp::create(
        rewriter, loc, x, op.getPoolSizeAttr(), op.getStridesAttr(),
        op.getDilationAttr(), op.getPaddingAttr(), op.getLayoutAttr(),
        op.getOutLayoutAttr(), op.getCeilModeAttr(),
        op.getCountIncludePadAttr());
    rewriter.replaceOp(op, clipCast(rewriter, loc, pooled,
                                    elementTypeOf(op.getData().getType())));
    return success();
  }
};

struct Conv2DTransposeQnnPattern : OpConversionPattern<QnnConv2DTransposeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(QnnConv2DTransposeOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type acc = elementTypeOf(op.getType());
    Type i32 = rewriter.getI32Type();
    Value x =
        shifted(rewriter, loc, op.getData(), op.getInputZeroPoint(), 0, i32);
    Value w =
        shifted(rewriter, loc, op.getWeight(), op.getKernelZeroPoint(), 0, i32);
    rewriter.replaceOp(op, Conv2DTransposeOp::create(
                               rewriter, loc, x, w, op.getStridesAttr(),
                               op.getPaddingAttr(), op.getDilationAttr(),
                               op.getGroupsAttr(), op.getChannelsAttr(),
                               op.getKernelSizeAttr(), op.getDataLayoutAttr(),
                               op.getKernelLayoutAttr(), op.getOutLayoutAttr(),
                               op.getOutputPaddingAttr(), TypeAttr::get(acc)));
    return success();
  }
};

/// The constant 0-d scales of a unary-style qnn op, or an error.
LogicalResult constantInOut(Operation *op, Value scale, Value outScale,
                            float &in, float &out) {
  std::optional<SmallVector<float>> s = constantScales(scale);
  std::optional<SmallVector<float>> o = constantScales(outScale);
  if (!s || !o)
    return op->emitOpError()
           << "needs constant scale and output_scale (its integer form is "
              "computed at compile time, as in TVM)";
  in = (*s)[0];
  out = (*o)[0];
  return success();
}

/// An i64 arith constant.
Value i64Const(OpBuilder &b, Location l, int64_t v) {
  return arith::ConstantIntOp::create(b, l, b.getI64Type(), v);
}

/// `x32` times the double `m` in TVM's fixed point (UPWARD).
Value timesDouble(OpBuilder &b, Location l, Value x32, double m) {
  FixedPoint fp = fixedPointOf(m);
  return fixedPointMultiply(b, l, x32, i64Const(b, l, fp.mantissa),
                            i64Const(b, l, fp.shift > 0 ? fp.shift : 0),
                            i64Const(b, l, 31 + (fp.shift > 0 ? 0 : -fp.shift)),
                            /*upward=*/true);
}

/// qnn.leaky_relu (TVM 0.19's QnnLeakyReluCanonicalize): q' = x requantized
/// to the output's parameters in int32 (x itself when they are equal);
/// x < zp_in ? alpha·q' + (1 - alpha)·zp_out : q', clipped to the dtype and
/// cast (measured: TVM 0.19 saturates).
struct LeakyReluQnnPattern : OpConversionPattern<QnnLeakyReluOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(QnnLeakyReluOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    float in = 0, out = 0;
    if (failed(constantInOut(op, op.getScale(), op.getOutputScale(), in, out)))
      return failure();
    bool same = equalConstants(op.getScale(), op.getOutputScale()) &&
                equalConstants(op.getZeroPoint(), op.getOutputZeroPoint());
    double multiplier = double(in) / double(out);
    double alpha = op.getAlpha().convertToDouble();
    Type dtype = elementTypeOf(op.getX().getType());
    RankedTensorType type = resultTensorType(op);
    int64_t rank = type.getRank();
    AffineMap scalar = AffineMap::get(rank, 0, rewriter.getContext());
    Location loc = op.getLoc();
    Value result = buildMap(
        rewriter, loc, type, dimSizes(rewriter, loc, adaptor.getX()),
        {adaptor.getX(), adaptor.getZeroPoint(), adaptor.getOutputZeroPoint()},
        {rewriter.getMultiDimIdentityMap(rank), scalar, scalar},
        [&](OpBuilder &b, Location l, ValueRange a) -> Value {
          Value x = resizeInt(b, l, a[0], dtype, b.getI32Type());
          Value q =
              same ? x
                   : arith::AddIOp::create(
                         b, l,
                         timesDouble(b, l, arith::SubIOp::create(b, l, x, a[1]),
                                     multiplier),
                         a[2]);
          Value below =
              arith::AddIOp::create(b, l, timesDouble(b, l, q, alpha),
                                    timesDouble(b, l, a[2], 1 - alpha));
          Value less =
              arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, x, a[1]);
          return clipToDtype(
              b, l, arith::SelectOp::create(b, l, less, below, q), dtype);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// qnn.softmax: TVM 0.19's QnnSoftmaxCanonicalize (arXiv 2207.01405,
/// Algorithm 1, m = 30, 8 bits) in relay int32 ops: the quotients
/// clipped to [0, 20] and each exponential shifted by the row's largest
/// quotient minus its own (an input scale above 1 is an error, as TVM's
/// check).
struct SoftmaxQnnPattern : OpConversionPattern<QnnSoftmaxOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(QnnSoftmaxOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    float in = 0, out = 0;
    if (failed(constantInOut(op, op.getScale(), op.getOutputScale(), in, out)))
      return failure();
    if (!(in > 0.0f && in <= 1.0f))
      return op.emitOpError() << "needs an input scale in (0, 1] (TVM's "
                                 "integer softmax), got "
                              << in;
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    Type i32 = b.getI32Type();
    auto c = [&](int64_t v) {
      return relayScalar(b, loc, i32, b.getI32IntegerAttr(int32_t(v)));
    };
    // x_0 = int32(round(1 / scale)) in float32, half away from zero.
    int64_t x0 = static_cast<int64_t>(std::round(1.0f / in));
    DenseI64ArrayAttr axis = b.getDenseI64ArrayAttr({op.getAxis()});
    BoolAttr keep = b.getBoolAttr(true);
    Value q = shifted(b, loc, op.getX(), op.getZeroPoint(), -1, i32);
    Value x =
        SubtractOp::create(b, loc, q, MaxOp::create(b, loc, q, axis, keep));
    Value xp = SubtractOp::create(
        b, loc, AddOp::create(b, loc, x, RightShiftOp::create(b, loc, x, c(1))),
        RightShiftOp::create(b, loc, x, c(4)));
    Value quotient =
        ClipOp::create(b, loc, DivideOp::create(b, loc, xp, c(-x0)),
                       b.getF64FloatAttr(0), b.getF64FloatAttr(20));
    Value r = SubtractOp::create(b, loc, xp,
                                 MultiplyOp::create(b, loc, quotient, c(-x0)));
    Value xb =
        AddOp::create(b, loc, RightShiftOp::create(b, loc, r, c(1)), c(x0));
    Value exps = LeftShiftOp::create(
        b, loc, xb,
        SubtractOp::create(b, loc, MaxOp::create(b, loc, quotient, axis, keep),
                           quotient));
    // Exponentials clipped at quotient 20 can be negative: a row whose sum
    // cancels to 0 divides by 1 (TVM's integer division by 0 is undefined;
    // on x86 it traps).
    Value sums = SumOp::create(b, loc, exps, axis, keep);
    Value divisor = WhereOp::create(b, loc, EqualOp::create(b, loc, sums, c(0)),
                                    c(1), sums);
    Value normalised = RightShiftOp::create(
        b, loc,
        MultiplyOp::create(b, loc,
                           DivideOp::create(b, loc, c(1 << 30), divisor), exps),
        c(30 - 7));
    Value result = QnnRequantizeOp::create(
        b, loc, normalised,
        relayScalar(b, loc, b.getF32Type(), b.getF32FloatAttr(1.0f / 128)),
        c(0), op.getOutputScale(), op.getOutputZeroPoint(),
        b.getI64IntegerAttr(0), b.getStringAttr("None"),
        b.getStringAttr("None"), TypeAttr::get(b.getIntegerType(8)));
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void relay::populateQnnCompositePatterns(const TypeConverter &tc,
                                         RewritePatternSet &patterns) {
  patterns
      .add<ConcatenateQnnPattern, AvgPool2DQnnPattern,
           Conv2DTransposeQnnPattern, LeakyReluQnnPattern, SoftmaxQnnPattern>(
          tc, patterns.getContext());
}
