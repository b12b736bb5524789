//===- Image.cpp - image.resize2d -----------------------------------------===//
//
// One parallel linalg.generic over the result; the body maps the output
// pixel to input coordinates (Relay's topi/image/resize.py formulas,
// computed in f32), reads the 1 (nearest), 2x2 (linear) or 4x4 (cubic)
// neighbours with tensor.extract at clamped indices and interpolates.
//
//===----------------------------------------------------------------------===//
#include "Utils.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

namespace {

struct Resize2DPattern : OpConversionPattern<Resize2DOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(Resize2DOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value data = adaptor.getData();
    auto dataType = cast<RankedTensorType>(data.getType());
    auto resultType = signlessTensorType(cast<RankedTensorType>(op.getType()));
    bool isUnsigned = isUnsignedInt(op.getData().getType());
    bool nhwc = op.getLayout() == "NHWC";
    int64_t hDim = nhwc ? 1 : 2, wDim = nhwc ? 2 : 3;
    StringRef method = op.getMethod();
    StringRef mode = op.getCoordinateTransformationMode();
    StringRef rounding = op.getRoundingMethod();
    if (rounding.empty())
      rounding = mode == "align_corners" ? "round" : "floor";
    SmallVector<double, 4> roi(4, 0.0);
    if (auto r = op.getRoi())
      roi.assign(r->begin(), r->end());
    int64_t outH = op.getSize()[0], outW = op.getSize()[1];
    double alpha = op.getCubicAlpha().convertToDouble();
    bool exclude = op.getCubicExclude() != 0;
    double extrapolation = op.getExtrapolationValue().convertToDouble();

    Type f32 = rewriter.getF32Type();
    Type inElt = dataType.getElementType(),
         outElt = resultType.getElementType();
    SmallVector<OpFoldResult> sizes = dimSizes(rewriter, loc, data);
    sizes[hDim] = rewriter.getIndexAttr(outH);
    sizes[wDim] = rewriter.getIndexAttr(outW);
    Value inH = getValueOrCreateConstantIndexOp(
        rewriter, loc, dimSizes(rewriter, loc, data)[hDim]);
    Value inW = getValueOrCreateConstantIndexOp(
        rewriter, loc, dimSizes(rewriter, loc, data)[wDim]);

    Value result = buildMap(
        rewriter, loc, resultType, sizes, ValueRange{}, {},
        [&](OpBuilder &b, Location l, ValueRange) -> Value {
          auto cf = [&](double v) -> Value {
            return arith::ConstantOp::create(b, l, b.getF32FloatAttr(v));
          };
          auto ci = [&](int64_t v) -> Value {
            return arith::ConstantIndexOp::create(b, l, v);
          };
          auto toF = [&](Value index) -> Value {
            Value i64 = arith::IndexCastOp::create(b, l, b.getI64Type(), index);
            return arith::SIToFPOp::create(b, l, f32, i64);
          };
          auto add = [&](Value x, Value y) -> Value {
            return arith::AddFOp::create(b, l, x, y);
          };
          auto sub = [&](Value x, Value y) -> Value {
            return arith::SubFOp::create(b, l, x, y);
          };
          auto mul = [&](Value x, Value y) -> Value {
            return arith::MulFOp::create(b, l, x, y);
          };
          auto div = [&](Value x, Value y) -> Value {
            return arith::DivFOp::create(b, l, x, y);
          };
          // Input coordinate of output coordinate `o` (topi get_inx).
          auto inCoord = [&](Value o, Value inSize, int64_t outSize,
                             double start, double end) -> Value {
            Value x = toF(o), in = toF(inSize), out = cf(outSize);
            Value scale = div(in, out);
            Value inMinus1 = sub(in, cf(1.0));
            if (mode == "half_pixel")
              return sub(mul(add(x, cf(0.5)), scale), cf(0.5));
            if (mode == "align_corners")
              return outSize > 1 ? mul(div(inMinus1, cf(outSize - 1)), x)
                                 : cf(0.0);
            if (mode == "asymmetric")
              return mul(scale, x);
            if (mode == "pytorch_half_pixel")
              return outSize > 1 ? sub(mul(add(x, cf(0.5)), scale), cf(0.5))
                                 : cf(0.0);
            if (mode == "tf_half_pixel_for_nn")
              return mul(add(x, cf(0.5)), scale);
            // tf_crop_and_resize
            if (outSize > 1)
              return add(
                  mul(cf(start), inMinus1),
                  div(mul(mul(x, cf(end - start)), inMinus1), cf(outSize - 1)));
            return mul(cf(0.5 * (start + end)), inMinus1);
          };
          auto floorToIndex = [&](Value v) -> Value {
            Value i = arith::FPToSIOp::create(b, l, b.getI64Type(),
                                              math::FloorOp::create(b, l, v));
            return arith::IndexCastOp::create(b, l, b.getIndexType(), i);
          };
          auto clampIndex = [&](Value i, Value size) -> Value {
            Value hi = arith::SubIOp::create(b, l, size, ci(1));
            return arith::MaxSIOp::create(
                b, l, arith::MinSIOp::create(b, l, i, hi), ci(0));
          };
          Value n = linalg::IndexOp::create(b, l, 0);
          Value c = linalg::IndexOp::create(b, l, nhwc ? 3 : 1);
          Value y = linalg::IndexOp::create(b, l, hDim);
          Value x = linalg::IndexOp::create(b, l, wDim);
          Value inY = inCoord(y, inH, outH, roi[0], roi[2]);
          Value inX = inCoord(x, inW, outW, roi[1], roi[3]);
          // Pixel at integer (iy, ix), clamped, as f32.
          auto pixel = [&](Value iy, Value ix) -> Value {
            iy = clampIndex(iy, inH);
            ix = clampIndex(ix, inW);
            SmallVector<Value> at = nhwc ? SmallVector<Value>{n, iy, ix, c}
                                         : SmallVector<Value>{n, c, iy, ix};
            Value v = tensor::ExtractOp::create(b, l, data, at);
            if (isa<FloatType>(inElt))
              return inElt == f32
                         ? v
                         : arith::ExtFOp::create(b, l, f32, v).getResult();
            return isUnsigned
                       ? arith::UIToFPOp::create(b, l, f32, v).getResult()
                       : arith::SIToFPOp::create(b, l, f32, v).getResult();
          };
          auto plus = [&](Value i, int64_t d) -> Value {
            return d == 0 ? i : arith::AddIOp::create(b, l, i, ci(d));
          };

          Value value;
          if (method == "nearest_neighbor") {
            auto nearest = [&](Value v) -> Value {
              Value r;
              if (rounding == "round") // TVM's round: halves away from zero
                r = math::RoundOp::create(b, l, v);
              else if (rounding == "round_prefer_floor")
                r = math::CeilOp::create(b, l, sub(v, cf(0.5)));
              else if (rounding == "round_prefer_ceil")
                r = math::FloorOp::create(b, l, add(v, cf(0.5)));
              else if (rounding == "floor")
                r = math::FloorOp::create(b, l, add(v, cf(1e-5)));
              else // ceil
                r = math::CeilOp::create(b, l, sub(v, cf(1e-5)));
              Value i = arith::FPToSIOp::create(b, l, b.getI64Type(), r);
              return arith::IndexCastOp::create(b, l, b.getIndexType(), i);
            };
            value = pixel(nearest(inY), nearest(inX));
          } else if (method == "linear") {
            Value y0 = floorToIndex(inY), x0 = floorToIndex(inX);
            Value ly = sub(inY, math::FloorOp::create(b, l, inY));
            Value lx = sub(inX, math::FloorOp::create(b, l, inX));
            auto lerp = [&](Value a, Value bb, Value t) -> Value {
              return add(mul(a, sub(cf(1.0), t)), mul(bb, t));
            };
            Value top = lerp(pixel(y0, x0), pixel(y0, plus(x0, 1)), lx);
            Value bottom = lerp(pixel(plus(y0, 1), x0),
                                pixel(plus(y0, 1), plus(x0, 1)), lx);
            value = lerp(top, bottom, ly);
          } else { // cubic
            Value y0 = floorToIndex(inY), x0 = floorToIndex(inX);
            Value fy = sub(inY, math::FloorOp::create(b, l, inY));
            Value fx = sub(inX, math::FloorOp::create(b, l, inX));
            auto weights = [&](Value t, Value i0,
                               Value size) -> SmallVector<Value, 4> {
              Value t2 = mul(t, t), t3 = mul(t2, t);
              Value a = cf(alpha);
              SmallVector<Value, 4> w{
                  mul(a, add(sub(t3, mul(cf(2.0), t2)), t)),
                  add(sub(mul(cf(alpha + 2), t3), mul(cf(alpha + 3), t2)),
                      cf(1.0)),
                  sub(add(mul(cf(-(alpha + 2)), t3),
                          mul(cf(3 + 2 * alpha), t2)),
                      mul(a, t)),
                  add(mul(cf(-alpha), t3), mul(a, t2))};
              if (!exclude)
                return w;
              Value sum = cf(0.0);
              for (int64_t k = 0; k < 4; ++k) {
                // Relay: drop when i0 - 1 + k < 0 or i0 + k > size.
                Value lo = arith::CmpIOp::create(
                    b, l, arith::CmpIPredicate::slt, plus(i0, k - 1), ci(0));
                Value hi = arith::CmpIOp::create(
                    b, l, arith::CmpIPredicate::sgt, plus(i0, k), size);
                Value out = arith::OrIOp::create(b, l, lo, hi);
                w[k] = arith::SelectOp::create(b, l, out, cf(0.0), w[k]);
                sum = add(sum, w[k]);
              }
              for (Value &wk : w)
                wk = div(wk, sum);
              return w;
            };
            SmallVector<Value, 4> wy = weights(fy, y0, inH);
            SmallVector<Value, 4> wx = weights(fx, x0, inW);
            value = cf(0.0);
            for (int64_t j = 0; j < 4; ++j) {
              Value row = cf(0.0);
              for (int64_t i = 0; i < 4; ++i)
                row = add(row,
                          mul(pixel(plus(y0, j - 1), plus(x0, i - 1)), wx[i]));
              value = add(value, mul(row, wy[j]));
            }
          }
          if (mode == "tf_crop_and_resize") {
            auto outside = [&](Value v, Value size) -> Value {
              Value lo = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT,
                                               v, cf(0.0));
              Value hi = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGT,
                                               v, sub(toF(size), cf(1.0)));
              return arith::OrIOp::create(b, l, lo, hi);
            };
            Value out = arith::OrIOp::create(b, l, outside(inY, inH),
                                             outside(inX, inW));
            value =
                arith::SelectOp::create(b, l, out, cf(extrapolation), value);
          }
          // Cast f32 to the result dtype (truncating to integers).
          if (outElt == f32)
            return value;
          if (isa<FloatType>(outElt))
            return arith::TruncFOp::create(b, l, outElt, value);
          return isUnsignedInt(op.getType())
                     ? arith::FPToUIOp::create(b, l, outElt, value).getResult()
                     : arith::FPToSIOp::create(b, l, outElt, value).getResult();
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};
} // namespace

void relay::populateImageToLinalgPatterns(const TypeConverter &tc,
                                          RewritePatternSet &patterns) {
  patterns.add<Resize2DPattern>(tc, patterns.getContext());
}
