//===- SimplifyClip.cpp - clip and the casts after it ---------------------===//
//
// TVM 0.19's SimplifyClip and SimplifyClipAndConsecutiveCast
// (src/relay/transforms/simplify_expr.cc), shared by relay-simplify-expr and
// relay-simplify-expr-post-alter-op:
//
// - a clip whose bounds hold every value of its dtype is its data;
// - in cast(...cast(clip(x))), a cast that keeps every value the clip lets
//   through is dropped (the last dtype restored by one cast at the end), and
//   a truncation to an integer type followed by a cast to a wider integer
//   type is one truncation to the latter; not when a cast inside the chain
//   has other readers (TVM rewrites each reader's expression, recomputing
//   the chain from the clip: a quantized tensor read both as int8 and as
//   float32 would then be stored as the float32 clip, 4 bytes a value).
//
// TVM decides both by the bounds against each dtype's range alone, which
// changes results in two places; here the answer is exact:
// - a float clip is dropped only for bounds -inf..+inf (TVM: the dtype's
//   largest finite values, so clip(x, -FLT_MAX, FLT_MAX) is dropped and an
//   infinite x stays infinite);
// - a cast is dropped only if it keeps every value: a float -> integer
//   cast truncates, so clip(x, 0, 255) -> uint8 -> float32 keeps both casts
//   (TVM drops them: 3.7 stays 3.7 instead of 3), and an integer ->
//   float cast only up to the float's exact integers (2^24 for float32).
//
//===----------------------------------------------------------------------===//
#include "CastValues.h"
#include "relay/RelayOps.h"
#include "relay/RelayPasses.h"

#include "mlir/IR/PatternMatch.h"

#include <cmath>

using namespace mlir;
using namespace mlir::relay;

namespace {

/// The values a clip or a cast chain can hold: a dtype and closed bounds.
struct Values {
  Type dtype;
  double lo, hi;
};

/// The range of integer type `t` (signless is signed; i1 is 0..1).
std::pair<double, double> intRange(IntegerType t) {
  unsigned w = t.getWidth();
  if (t.isUnsigned() || w == 1)
    return {0, std::ldexp(1.0, w) - 1};
  return {-std::ldexp(1.0, w - 1), std::ldexp(1.0, w - 1) - 1};
}

/// The largest integer up to which float type `t` holds every integer.
double exactIntegers(FloatType t) {
  return std::ldexp(1.0, t.getFPMantissaWidth());
}

/// The values clip(x : dtype, lo, hi) returns: integer clips convert their
/// bounds to the dtype (truncated towards zero, saturated).
Values clipValues(Type dtype, double lo, double hi) {
  if (auto i = dyn_cast<IntegerType>(dtype)) {
    auto [min, max] = intRange(i);
    auto conv = [&](double b) { return std::clamp(std::trunc(b), min, max); };
    return {dtype, conv(lo), conv(hi)};
  }
  return {dtype, lo, hi};
}

/// The values of cast(v, to) when the cast changes some (bounds rounded
/// outwards where the conversion is not monotone-exact).
Values afterCast(const Values &v, Type to) {
  if (auto toFloat = dyn_cast<FloatType>(to)) {
    auto round = [&](double b) {
      APFloat f(b);
      bool lost;
      f.convert(toFloat.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                &lost);
      return f.convertToDouble();
    };
    return {to, round(v.lo), round(v.hi)};
  }
  auto toInt = cast<IntegerType>(to);
  if (toInt.getWidth() == 1)
    return {to, 0, 1}; // x != 0
  if (isa<FloatType>(v.dtype))
    return clipValues(to, v.lo, v.hi); // truncated (outside: undefined)
  auto [min, max] = intRange(toInt);   // wraps around
  return {to, min, max};
}

/// cast to `to` keeps each of `v`'s values.
bool castIsExact(const Values &v, Type to) {
  if (v.dtype == to)
    return true;
  auto fromFloat = dyn_cast<FloatType>(v.dtype);
  auto toFloat = dyn_cast<FloatType>(to);
  if (fromFloat && toFloat) // wider in both exponent and mantissa
    return APFloat::isRepresentableAsNormalIn(fromFloat.getFloatSemantics(),
                                              toFloat.getFloatSemantics());
  if (fromFloat)
    return false; // float -> integer truncates
  auto toInt = dyn_cast<IntegerType>(to);
  if (toInt) {
    auto [min, max] = intRange(toInt);
    return v.lo >= min && v.hi <= max;
  }
  if (toFloat)
    return std::max(std::fabs(v.lo), std::fabs(v.hi)) <= exactIntegers(toFloat);
  return false;
}

/// clip(x) whose bounds hold every value of x's dtype -> x.
struct ClipNoOp : OpRewritePattern<ClipOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ClipOp op,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getData().getType());
    if (!type || type != op.getResult().getType())
      return rewriter.notifyMatchFailure(op, "not typed");
    // TVM: a clip of qnn.requantize / qnn.add stays (its DNNL legalization).
    if (op.getData().getDefiningOp<QnnRequantizeOp>() ||
        op.getData().getDefiningOp<QnnAddOp>())
      return rewriter.notifyMatchFailure(op, "clips a qnn result");
    double lo = op.getAMin().convertToDouble();
    double hi = op.getAMax().convertToDouble();
    Type element = type.getElementType();
    bool noOp = false;
    if (auto i = dyn_cast<IntegerType>(element)) {
      auto [min, max] = intRange(i);
      noOp = lo <= min && hi >= max;
    } else if (isa<FloatType>(element)) {
      noOp = std::isinf(lo) && lo < 0 && std::isinf(hi) && hi > 0;
    }
    if (!noOp)
      return rewriter.notifyMatchFailure(op, "the bounds clip some value");
    rewriter.replaceOp(op, op.getData());
    return success();
  }
};

/// cast(...cast(clip(x))) without the casts that change no value.
struct ClipThenCasts : OpRewritePattern<CastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CastOp op,
                                PatternRewriter &rewriter) const override {
    SmallVector<CastOp> chain; // outermost first
    Value v = op.getResult();
    while (auto cast = v.getDefiningOp<CastOp>()) {
      chain.push_back(cast);
      v = cast.getData();
    }
    auto clip = v.getDefiningOp<ClipOp>();
    auto clipType = dyn_cast<RankedTensorType>(v.getType());
    auto resultType = dyn_cast<RankedTensorType>(op.getResult().getType());
    if (!clip || !clipType || !resultType)
      return rewriter.notifyMatchFailure(op, "not a cast chain after a clip");
    // A cast inside the chain that other ops read stays for them: the new
    // chain would recompute it from the clip, whose value (often wider:
    // float32 before a uint8 cast) then has one more reader.
    if (llvm::any_of(ArrayRef<CastOp>(chain).drop_front(),
                     [](CastOp c) { return !c->hasOneUse(); }))
      return rewriter.notifyMatchFailure(
          op, "a cast of the chain has other readers");
    auto isNumber = [](Type t) { return isa<IntegerType, FloatType>(t); };
    if (!isNumber(clipType.getElementType()) ||
        !llvm::all_of(chain, [&](CastOp c) { return isNumber(c.getDtype()); }))
      return rewriter.notifyMatchFailure(op, "not a number type");
    Values values =
        clipValues(clipType.getElementType(), clip.getAMin().convertToDouble(),
                   clip.getAMax().convertToDouble());
    // The casts kept, innermost first, and whether each truncates a float.
    SmallVector<std::pair<Type, bool>> kept;
    for (CastOp cast : llvm::reverse(chain)) {
      Type to = cast.getDtype();
      if (castIsExact(values, to)) {
        // trunc to an integer type, then a cast that holds the result: one
        // trunc to the wider type (the values are the same integers).
        // (not to bool: that is x != 0, not a truncation)
        if (!kept.empty() && kept.back().second && isa<IntegerType>(to) &&
            to.getIntOrFloatBitWidth() > 1) {
          kept.back().first = to;
          values.dtype = to;
        }
        continue;
      }
      // a float -> integer cast that holds the truncated values
      Values next = afterCast(values, to);
      bool truncates = isa<FloatType>(values.dtype) && isa<IntegerType>(to) &&
                       to.getIntOrFloatBitWidth() > 1 &&
                       next.lo == std::trunc(values.lo) &&
                       next.hi == std::trunc(values.hi);
      values = next;
      kept.push_back({to, truncates});
    }
    Type want = resultType.getElementType();
    bool restore = values.dtype != want;
    if (kept.size() + (restore ? 1 : 0) >= chain.size())
      return rewriter.notifyMatchFailure(op, "every cast changes a value");
    Value out = clip.getResult();
    for (auto [to, truncates] : kept)
      out = CastOp::create(rewriter, op.getLoc(), out, TypeAttr::get(to));
    if (restore)
      out = CastOp::create(rewriter, op.getLoc(), out, TypeAttr::get(want));
    rewriter.replaceOp(op, out);
    return success();
  }
};

} // namespace

bool mlir::relay::castKeepsEveryValue(Type from, Type to) {
  if (auto i = dyn_cast<IntegerType>(from)) {
    auto [min, max] = intRange(i);
    return castIsExact({from, min, max}, to);
  }
  return isa<FloatType>(from) && castIsExact({from, 0, 0}, to);
}

void mlir::relay::populateSimplifyClipPatterns(RewritePatternSet &patterns) {
  patterns.add<ClipNoOp, ClipThenCasts>(patterns.getContext());
}
