//===- QnnLookup.cpp - the unary qnn ops as lookup tables -----------------===//
//
// TVM 0.19 legalizes qnn.abs/exp/log/sigmoid/tanh/erf/sqrt/rsqrt/hardswish
// into a table lookup (qnn/op/canonicalizations.py,
// create_integer_lookup_op): every bit pattern of the 8-bit input is
// dequantized (float32((int32)q - zp) * scale), the float32 function applied
// (numpy's formulas: sigmoid 1 / (1 + e^-x), rsqrt 1 / sqrt(x), hardswish
// x * clip(x + 3, 0, 6) / 6, erf in double) and the result quantized
// (round half away from zero of x times the float32 reciprocal of the output
// scale, + zp, clipped; NaN becomes the highest value, as measured). The table
// is computed here from the constant parameters; the op is one linalg.generic
// reading it at each input's bit pattern.
//
//===----------------------------------------------------------------------===//
#include "QnnUtils.h"

#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;
using namespace mlir::relay::qnn_lowering;

namespace {

using FloatFn = float (*)(float);

float hardswish(float x) {
  float clipped = std::fmin(std::fmax(x + 3.0f, 0.0f), 6.0f);
  return x * clipped / 6.0f;
}

/// The float32 function of each unary qnn op (numpy's, as TVM registers).
FloatFn functionOf(Operation *op) {
  return llvm::TypeSwitch<Operation *, FloatFn>(op)
      .Case<QnnAbsOp>([](auto) { return [](float x) { return std::fabs(x); }; })
      .Case<QnnExpOp>([](auto) { return [](float x) { return std::exp(x); }; })
      .Case<QnnLogOp>([](auto) { return [](float x) { return std::log(x); }; })
      .Case<QnnSigmoidOp>([](auto) {
        return [](float x) { return 1.0f / (1.0f + std::exp(-x)); };
      })
      .Case<QnnTanhOp>(
          [](auto) { return [](float x) { return std::tanh(x); }; })
      .Case<QnnErfOp>([](auto) {
        return [](float x) { return float(std::erf(double(x))); };
      })
      .Case<QnnSqrtOp>(
          [](auto) { return [](float x) { return std::sqrt(x); }; })
      .Case<QnnRsqrtOp>(
          [](auto) { return [](float x) { return 1.0f / std::sqrt(x); }; })
      .Case<QnnHardswishOp>([](auto) { return &hardswish; })
      .Default([](auto) { return FloatFn(nullptr); });
}

/// TVM's compiled quantize of one float32 value (0-d parameters).
int64_t quantizeOne(float x, float scale, int64_t zp, int64_t lo, int64_t hi) {
  float r = std::round(x * (1.0f / scale)) + float(zp);
  if (std::isnan(r))
    return hi;
  return static_cast<int64_t>(std::fmin(std::fmax(r, float(lo)), float(hi)));
}

/// The 0-d int32 constant's value, if `v` is one.
std::optional<int64_t> constantZeroPoint(Value v) {
  auto cst = v.getDefiningOp<ConstantOp>();
  auto dense = cst ? dyn_cast<DenseIntElementsAttr>(cst.getValue())
                   : DenseIntElementsAttr();
  if (!dense || dense.getNumElements() != 1)
    return std::nullopt;
  return (*dense.getValues<APInt>().begin()).getSExtValue();
}

template <typename QnnOp> struct LookupQnnPattern : OpConversionPattern<QnnOp> {
  using OpConversionPattern<QnnOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(QnnOp op, typename OpConversionPattern<QnnOp>::OpAdaptor a,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<SmallVector<float>> s = constantScales(op.getScale());
    std::optional<SmallVector<float>> so = constantScales(op.getOutputScale());
    std::optional<int64_t> z = constantZeroPoint(op.getZeroPoint());
    std::optional<int64_t> zo = constantZeroPoint(op.getOutputZeroPoint());
    if (!s || !so || !z || !zo)
      return op.emitOpError() << "needs constant scales and zero points (its "
                                 "lookup table is computed at compile time, "
                                 "as in TVM)";
    Type dtype = elementTypeOf(op.getX().getType());
    auto [lo, hi] = rangeOf(dtype);
    unsigned bits = cast<IntegerType>(dtype).getWidth();
    FloatFn f = functionOf(op);
    SmallVector<APInt> table;
    for (int64_t pattern = 0; pattern < (int64_t(1) << bits); ++pattern) {
      int64_t q = isUnsignedInt(dtype) || pattern <= hi
                      ? pattern
                      : pattern - (int64_t(1) << bits);
      float x = float(int32_t(q - *z)) * (*s)[0];
      // The bit pattern of the quantized value (two's complement for signed).
      uint64_t value =
          static_cast<uint64_t>(quantizeOne(f(x), (*so)[0], *zo, lo, hi)) &
          ((uint64_t(1) << bits) - 1);
      table.push_back(APInt(bits, value));
    }
    Location loc = op.getLoc();
    auto signless = rewriter.getIntegerType(bits);
    auto tableType = RankedTensorType::get({int64_t(table.size())}, signless);
    Value tableValue = arith::ConstantOp::create(
        rewriter, loc, tableType, DenseIntElementsAttr::get(tableType, table));
    RankedTensorType type = resultTensorType(op);
    Value result =
        buildMap(rewriter, loc, type, dimSizes(rewriter, loc, a.getX()),
                 {a.getX()}, {rewriter.getMultiDimIdentityMap(type.getRank())},
                 [&](OpBuilder &b, Location l, ValueRange v) -> Value {
                   Value index = arith::IndexCastUIOp::create(
                       b, l, b.getIndexType(),
                       arith::ExtUIOp::create(b, l, b.getI32Type(), v[0]));
                   return tensor::ExtractOp::create(b, l, tableValue, index);
                 });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void relay::populateQnnLookupPatterns(const TypeConverter &tc,
                                      RewritePatternSet &patterns) {
  patterns.add<LookupQnnPattern<QnnAbsOp>, LookupQnnPattern<QnnExpOp>,
               LookupQnnPattern<QnnLogOp>, LookupQnnPattern<QnnSigmoidOp>,
               LookupQnnPattern<QnnTanhOp>, LookupQnnPattern<QnnErfOp>,
               LookupQnnPattern<QnnSqrtOp>, LookupQnnPattern<QnnRsqrtOp>,
               LookupQnnPattern<QnnHardswishOp>>(tc, patterns.getContext());
}
