//===- Image.cpp - image.resize2d -----------------------------------------===//
//
// One parallel linalg.generic over the result; the body maps the output
// pixel to input coordinates (Relay's topi/image/resize.py formulas,
// computed in f32), reads the 1 (nearest), 2x2 (linear) or 4x4 (cubic)
// neighbours with tensor.extract at clamped indices and interpolates. One
// pattern per method (the op's `method` is one of the three), sharing the
// coordinate mapping and the reads (ResizeSampler).
//
//===----------------------------------------------------------------------===//
#include "Utils.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

namespace {

/// Builds, inside the linalg.generic body of one output pixel, its input
/// coordinates (`inY`, `inX`, f32) and reads of the input at integer
/// positions, clamped to the image, as f32.
class ResizeSampler {
public:
  ResizeSampler(OpBuilder &b, Location l, Resize2DOp op, Value data, Value inH,
                Value inW)
      : b(b), l(l), op(op), data(data), inH(inH), inW(inW),
        nhwc(op.getLayout() == "NHWC") {
    n = linalg::IndexOp::create(b, l, 0);
    c = linalg::IndexOp::create(b, l, nhwc ? 3 : 1);
    SmallVector<double, 4> roi(4, 0.0);
    if (auto r = op.getRoi())
      roi.assign(r->begin(), r->end());
    Value y = linalg::IndexOp::create(b, l, nhwc ? 1 : 2);
    Value x = linalg::IndexOp::create(b, l, nhwc ? 2 : 3);
    inY = inCoord(y, inH, op.getSize()[0], roi[0], roi[2]);
    inX = inCoord(x, inW, op.getSize()[1], roi[1], roi[3]);
  }

  Value cf(double v) {
    return arith::ConstantOp::create(b, l, b.getF32FloatAttr(v));
  }
  Value ci(int64_t v) { return arith::ConstantIndexOp::create(b, l, v); }
  Value toF(Value index) {
    Value i64 = arith::IndexCastOp::create(b, l, b.getI64Type(), index);
    return arith::SIToFPOp::create(b, l, b.getF32Type(), i64);
  }
  Value add(Value x, Value y) { return arith::AddFOp::create(b, l, x, y); }
  Value sub(Value x, Value y) { return arith::SubFOp::create(b, l, x, y); }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, l, x, y); }
  Value div(Value x, Value y) { return arith::DivFOp::create(b, l, x, y); }
  /// `i + d` on indices.
  Value plus(Value i, int64_t d) {
    return d == 0 ? i : arith::AddIOp::create(b, l, i, ci(d));
  }
  /// The f32 `v` rounded by `r` (a math op) as an index.
  template <typename RoundOp> Value roundToIndex(Value v) {
    Value r = RoundOp::create(b, l, v);
    Value i = arith::FPToSIOp::create(b, l, b.getI64Type(), r);
    return arith::IndexCastOp::create(b, l, b.getIndexType(), i);
  }
  /// `v - floor(v)`.
  Value fraction(Value v) { return sub(v, math::FloorOp::create(b, l, v)); }

  /// The input pixel at integer (iy, ix), clamped, as f32.
  Value pixel(Value iy, Value ix) {
    iy = clampIndex(iy, inH);
    ix = clampIndex(ix, inW);
    SmallVector<Value> at = nhwc ? SmallVector<Value>{n, iy, ix, c}
                                 : SmallVector<Value>{n, c, iy, ix};
    Value v = tensor::ExtractOp::create(b, l, data, at);
    Type f32 = b.getF32Type(), inElt = v.getType();
    if (isa<FloatType>(inElt))
      return inElt == f32 ? v : arith::ExtFOp::create(b, l, f32, v).getResult();
    return isUnsignedInt(op.getData().getType())
               ? arith::UIToFPOp::create(b, l, f32, v).getResult()
               : arith::SIToFPOp::create(b, l, f32, v).getResult();
  }

  /// tf_crop_and_resize: `extrapolation_value` where the coordinates fall
  /// outside the image; `value` otherwise (and for every other mode).
  Value extrapolate(Value value) {
    if (op.getCoordinateTransformationMode() != "tf_crop_and_resize")
      return value;
    auto outside = [&](Value v, Value size) -> Value {
      Value lo =
          arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, v, cf(0.0));
      Value hi = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGT, v,
                                       sub(toF(size), cf(1.0)));
      return arith::OrIOp::create(b, l, lo, hi);
    };
    Value out =
        arith::OrIOp::create(b, l, outside(inY, inH), outside(inX, inW));
    double fill = op.getExtrapolationValue().convertToDouble();
    return arith::SelectOp::create(b, l, out, cf(fill), value);
  }

  /// The f32 `value` cast to the result dtype (truncating to integers).
  Value toResult(Value value, Type outElt) {
    if (outElt == b.getF32Type())
      return value;
    if (isa<FloatType>(outElt))
      return arith::TruncFOp::create(b, l, outElt, value);
    return isUnsignedInt(op.getType())
               ? arith::FPToUIOp::create(b, l, outElt, value).getResult()
               : arith::FPToSIOp::create(b, l, outElt, value).getResult();
  }

  OpBuilder &b;
  Location l;
  Resize2DOp op;
  Value data, inH, inW;
  Value inY, inX;

private:
  /// Input coordinate of output coordinate `o` (topi get_inx).
  Value inCoord(Value o, Value inSize, int64_t outSize, double start,
                double end) {
    StringRef mode = op.getCoordinateTransformationMode();
    Value x = toF(o), in = toF(inSize), out = cf(outSize);
    Value scale = div(in, out);
    Value inMinus1 = sub(in, cf(1.0));
    if (mode == "half_pixel")
      return sub(mul(add(x, cf(0.5)), scale), cf(0.5));
    if (mode == "align_corners")
      return outSize > 1 ? mul(div(inMinus1, cf(outSize - 1)), x) : cf(0.0);
    if (mode == "asymmetric")
      return mul(scale, x);
    if (mode == "pytorch_half_pixel")
      return outSize > 1 ? sub(mul(add(x, cf(0.5)), scale), cf(0.5)) : cf(0.0);
    if (mode == "tf_half_pixel_for_nn")
      return mul(add(x, cf(0.5)), scale);
    // tf_crop_and_resize
    if (outSize > 1)
      return add(mul(cf(start), inMinus1),
                 div(mul(mul(x, cf(end - start)), inMinus1), cf(outSize - 1)));
    return mul(cf(0.5 * (start + end)), inMinus1);
  }

  Value clampIndex(Value i, Value size) {
    Value hi = arith::SubIOp::create(b, l, size, ci(1));
    return arith::MaxSIOp::create(b, l, arith::MinSIOp::create(b, l, i, hi),
                                  ci(0));
  }

  bool nhwc;
  Value n, c;
};

/// nearest_neighbor: the pixel at the coordinates rounded by
/// `rounding_method` (default: round for align_corners, floor otherwise).
Value nearest(ResizeSampler &s) {
  StringRef rounding = s.op.getRoundingMethod();
  if (rounding.empty())
    rounding = s.op.getCoordinateTransformationMode() == "align_corners"
                   ? "round"
                   : "floor";
  auto toIndex = [&](Value v) -> Value {
    if (rounding == "round") // TVM's round: halves away from zero
      return s.roundToIndex<math::RoundOp>(v);
    if (rounding == "round_prefer_floor")
      return s.roundToIndex<math::CeilOp>(s.sub(v, s.cf(0.5)));
    if (rounding == "round_prefer_ceil")
      return s.roundToIndex<math::FloorOp>(s.add(v, s.cf(0.5)));
    if (rounding == "floor")
      return s.roundToIndex<math::FloorOp>(s.add(v, s.cf(1e-5)));
    return s.roundToIndex<math::CeilOp>(s.sub(v, s.cf(1e-5))); // ceil
  };
  return s.pixel(toIndex(s.inY), toIndex(s.inX));
}

/// linear: the 2x2 neighbours interpolated along x, then y.
Value linear(ResizeSampler &s) {
  Value y0 = s.roundToIndex<math::FloorOp>(s.inY);
  Value x0 = s.roundToIndex<math::FloorOp>(s.inX);
  Value ly = s.fraction(s.inY), lx = s.fraction(s.inX);
  auto lerp = [&](Value a, Value b, Value t) -> Value {
    return s.add(s.mul(a, s.sub(s.cf(1.0), t)), s.mul(b, t));
  };
  Value y1 = s.plus(y0, 1), x1 = s.plus(x0, 1);
  Value top = lerp(s.pixel(y0, x0), s.pixel(y0, x1), lx);
  Value bottom = lerp(s.pixel(y1, x0), s.pixel(y1, x1), lx);
  return lerp(top, bottom, ly);
}

/// The 4 cubic-convolution weights (Keys, `cubic_alpha`) of fraction `t`
/// for neighbours i0-1 .. i0+2; with `cubic_exclude`, those outside the
/// image (Relay: i0 - 1 + k < 0 or i0 + k > size) dropped and the rest
/// renormalised.
SmallVector<Value, 4> cubicWeights(ResizeSampler &s, Value t, Value i0,
                                   Value size) {
  double alpha = s.op.getCubicAlpha().convertToDouble();
  Value t2 = s.mul(t, t), t3 = s.mul(t2, t);
  Value a = s.cf(alpha);
  SmallVector<Value, 4> w{
      s.mul(a, s.add(s.sub(t3, s.mul(s.cf(2.0), t2)), t)),
      s.add(s.sub(s.mul(s.cf(alpha + 2), t3), s.mul(s.cf(alpha + 3), t2)),
            s.cf(1.0)),
      s.sub(
          s.add(s.mul(s.cf(-(alpha + 2)), t3), s.mul(s.cf(3 + 2 * alpha), t2)),
          s.mul(a, t)),
      s.add(s.mul(s.cf(-alpha), t3), s.mul(a, t2))};
  if (s.op.getCubicExclude() == 0)
    return w;
  OpBuilder &b = s.b;
  Value sum = s.cf(0.0);
  for (int64_t k = 0; k < 4; ++k) {
    Value lo = arith::CmpIOp::create(b, s.l, arith::CmpIPredicate::slt,
                                     s.plus(i0, k - 1), s.ci(0));
    Value hi = arith::CmpIOp::create(b, s.l, arith::CmpIPredicate::sgt,
                                     s.plus(i0, k), size);
    Value out = arith::OrIOp::create(b, s.l, lo, hi);
    w[k] = arith::SelectOp::create(b, s.l, out, s.cf(0.0), w[k]);
    sum = s.add(sum, w[k]);
  }
  for (Value &wk : w)
    wk = s.div(wk, sum);
  return w;
}

/// cubic: the 4x4 neighbours weighted by cubicWeights along x and y.
Value cubic(ResizeSampler &s) {
  Value y0 = s.roundToIndex<math::FloorOp>(s.inY);
  Value x0 = s.roundToIndex<math::FloorOp>(s.inX);
  SmallVector<Value, 4> wy = cubicWeights(s, s.fraction(s.inY), y0, s.inH);
  SmallVector<Value, 4> wx = cubicWeights(s, s.fraction(s.inX), x0, s.inW);
  Value value = s.cf(0.0);
  for (int64_t j = 0; j < 4; ++j) {
    Value row = s.cf(0.0);
    for (int64_t i = 0; i < 4; ++i)
      row = s.add(row,
                  s.mul(s.pixel(s.plus(y0, j - 1), s.plus(x0, i - 1)), wx[i]));
    value = s.add(value, s.mul(row, wy[j]));
  }
  return value;
}

/// image.resize2d with one `method`: a linalg.generic over the result whose
/// body is `interpolate`'s value of each output pixel.
struct Resize2DPattern : OpConversionPattern<Resize2DOp> {
  using Interpolation = Value (*)(ResizeSampler &);
  Resize2DPattern(const TypeConverter &tc, MLIRContext *ctx, StringRef method,
                  Interpolation interpolate)
      : OpConversionPattern(tc, ctx), method(method), interpolate(interpolate) {
  }

  LogicalResult
  matchAndRewrite(Resize2DOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.getMethod() != method)
      return failure();
    Location loc = op.getLoc();
    Value data = adaptor.getData();
    auto resultType = signlessTensorType(cast<RankedTensorType>(op.getType()));
    int64_t hDim = op.getLayout() == "NHWC" ? 1 : 2, wDim = hDim + 1;
    SmallVector<OpFoldResult> inSizes = dimSizes(rewriter, loc, data);
    Value inH = getValueOrCreateConstantIndexOp(rewriter, loc, inSizes[hDim]);
    Value inW = getValueOrCreateConstantIndexOp(rewriter, loc, inSizes[wDim]);
    SmallVector<OpFoldResult> sizes = inSizes;
    sizes[hDim] = rewriter.getIndexAttr(op.getSize()[0]);
    sizes[wDim] = rewriter.getIndexAttr(op.getSize()[1]);
    Value result =
        buildMap(rewriter, loc, resultType, sizes, ValueRange{}, {},
                 [&](OpBuilder &b, Location l, ValueRange) -> Value {
                   ResizeSampler s(b, l, op, data, inH, inW);
                   Value value = s.extrapolate(interpolate(s));
                   return s.toResult(value, resultType.getElementType());
                 });
    rewriter.replaceOp(op, result);
    return success();
  }

private:
  StringRef method;
  Interpolation interpolate;
};
} // namespace

void relay::populateImageToLinalgPatterns(const TypeConverter &tc,
                                          RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<Resize2DPattern>(tc, ctx, "nearest_neighbor", nearest);
  patterns.add<Resize2DPattern>(tc, ctx, "linear", linear);
  patterns.add<Resize2DPattern>(tc, ctx, "cubic", cubic);
}
