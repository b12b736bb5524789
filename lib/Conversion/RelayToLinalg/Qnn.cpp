//===- Qnn.cpp - qnn.* operators to integer linalg ------------------------===//
//
// Each op is one parallel linalg.generic whose body is TVM 0.19's
// canonicalisation of the op (src/relay/qnn/op/*.cc), with the same integer
// widths so the results are bit-exact:
//   qnn.quantize    round(data / scale) + zp in float32 (half away from
//                   zero), clipped to out_dtype in float (an overflow
//                   saturates), then converted; one scale multiplies by
//                   its float32 reciprocal (what TVM's compiled code does
//                   with a constant scale), per-channel scales divide
//   qnn.dequantize  float32(int32(data) - zp) * scale (for float16, clipped
//                   to +-65504 and rounded)
//   qnn.requantize  int32(data) - zp_in; the fixed-point multiply of
//                   double(scale_in) / double(scale_out) (a Q31 mantissa and
//                   a shift, computed here from the constant scales) in
//                   int64 with UPWARD or TONEAREST rounding; int32 + zp_out;
//                   clipped to out_dtype unless it is int32
// Per-channel parameters are 1-D operands read at the channel index
// (`axis`); a 0-d parameter is read everywhere.
//
// The others become relay integer ops that this conversion lowers in turn:
//   qnn.dense / qnn.batch_matmul  TVM's form: the nn op of the raw integer
//                   operands (i8 x i8 -> i32, the shape IREE's kernels take)
//                   minus zb·Σa and za·Σb plus k·za·zb (no term for a zero
//                   point of zeros); uint8 x int8 with constant zero points
//                   both as int8 (uint8 - 128); with other mixed signedness
//                   or a dynamic k, the nn op of operands shifted by their
//                   zero points
//   qnn.conv2d      8-bit operands, kernel zero point 0 (after moving uint8
//                   down by 128), int32: nn.conv2d of int8 x int8 -> int32
//                   over the data padded with its zero point, minus z·Σw
//                   per output channel; otherwise nn.conv2d of the shifted
//                   operands (int32 or int64), whose zero padding is the
//                   zero point's padding
//   qnn.add / qnn.subtract  each operand requantized (UPWARD) to the output
//                   scale with zero point 0 in int32, combined, + zp_out,
//                   clipped and cast
//   qnn.mul         (lhs - zp)(rhs - zp) in int32, requantized from the scale
//                   float32(lhs_scale * rhs_scale), + zp_out, clipped, cast
//
//===----------------------------------------------------------------------===//
#include "QnnUtils.h"

#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

// Helpers shared with QnnComposite.cpp / QnnLookup.cpp (QnnUtils.h) and
// this file's patterns.
namespace mlir::relay::qnn_lowering {

/// The map reading a quantization parameter: nothing for a 0-d one, the
/// `axis` dim for a per-channel one.
AffineMap paramMap(OpBuilder &b, Value param, int64_t rank, int64_t axis) {
  if (cast<RankedTensorType>(param.getType()).getRank() == 0)
    return AffineMap::get(rank, 0, b.getContext());
  return AffineMap::get(rank, 0, b.getAffineDimExpr(axis));
}

/// The dim the parameters of an op on a rank-`rank` tensor run along.
int64_t channelAxis(int64_t axis, int64_t rank) {
  if (rank == 0)
    return 0;
  return axis < 0 ? axis + rank : axis;
}

/// The values a (relay) integer element type holds.
std::pair<int64_t, int64_t> rangeOf(Type relayElement) {
  auto it = cast<IntegerType>(relayElement);
  unsigned w = it.getWidth();
  if (it.isUnsigned())
    return {0, (int64_t(1) << w) - 1};
  return {-(int64_t(1) << (w - 1)), (int64_t(1) << (w - 1)) - 1};
}

/// An integer `x` of relay element type `from` widened or narrowed to the
/// signless `to` (zero-extended when `from` is unsigned).
Value resizeInt(OpBuilder &b, Location loc, Value x, Type from,
                IntegerType to) {
  unsigned w = cast<IntegerType>(x.getType()).getWidth();
  if (w == to.getWidth())
    return x;
  if (w > to.getWidth())
    return arith::TruncIOp::create(b, loc, to, x);
  if (isUnsignedInt(from))
    return arith::ExtUIOp::create(b, loc, to, x);
  return arith::ExtSIOp::create(b, loc, to, x);
}

/// A parallel linalg.generic over `op`'s result reading `data` and the
/// parameters `params` (0-d or along `axis`).
Value mapWithParams(OpBuilder &b, Operation *op, Value data,
                    ArrayRef<Value> params, int64_t axis,
                    const ScalarBody &body) {
  Location loc = op->getLoc();
  RankedTensorType type = resultTensorType(op);
  int64_t rank = type.getRank();
  int64_t channel = channelAxis(axis, rank);
  SmallVector<Value> inputs = {data};
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank)};
  for (Value p : params) {
    inputs.push_back(p);
    maps.push_back(paramMap(b, p, rank, channel));
  }
  return buildMap(b, loc, type, dimSizes(b, loc, data), inputs, maps, body);
}

//===----------------------------------------------------------------------===//
// qnn.quantize / qnn.dequantize
//===----------------------------------------------------------------------===//

struct QuantizePattern : OpConversionPattern<QnnQuantizeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(QnnQuantizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type out = elementTypeOf(op.getType());
    auto [lo, hi] = rangeOf(out);
    auto signless =
        IntegerType::get(op.getContext(), cast<IntegerType>(out).getWidth());
    bool perChannel =
        cast<RankedTensorType>(op.getOutputScale().getType()).getRank() == 1;
    Value result = mapWithParams(
        rewriter, op, adaptor.getData(),
        {adaptor.getOutputScale(), adaptor.getOutputZeroPoint()}, op.getAxis(),
        [&, lo = lo, hi = hi](OpBuilder &b, Location l, ValueRange a) -> Value {
          Type f32 = b.getF32Type();
          Value scaled =
              perChannel ? arith::DivFOp::create(b, l, a[0], a[1]).getResult()
                         : arith::MulFOp::create(
                               b, l, a[0],
                               arith::DivFOp::create(
                                   b, l, scalarConst(b, l, f32, 1.0), a[1]))
                               .getResult();
          Value zp = arith::SIToFPOp::create(b, l, f32, a[2]);
          Value r = arith::AddFOp::create(
              b, l, math::RoundOp::create(b, l, scaled), zp);
          // Clipped in float first (NaN becomes the lowest value), so the
          // conversion never overflows; then exactly in int64.
          r = arith::MaxNumFOp::create(b, l, r, scalarConst(b, l, f32, lo));
          r = arith::MinNumFOp::create(b, l, r, scalarConst(b, l, f32, hi));
          Type i64 = b.getI64Type();
          Value i = arith::FPToSIOp::create(b, l, i64, r);
          i = arith::MinSIOp::create(
              b, l, i, arith::ConstantIntOp::create(b, l, i64, hi));
          return arith::TruncIOp::create(b, l, signless, i);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct DequantizePattern : OpConversionPattern<QnnDequantizeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(QnnDequantizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type in = elementTypeOf(op.getData().getType());
    Type out = elementTypeOf(op.getType());
    Value result = mapWithParams(
        rewriter, op, adaptor.getData(),
        {adaptor.getInputScale(), adaptor.getInputZeroPoint()}, op.getAxis(),
        [&](OpBuilder &b, Location l, ValueRange a) -> Value {
          Value x = resizeInt(b, l, a[0], in, b.getI32Type());
          Value shifted = arith::SubIOp::create(b, l, x, a[2]);
          Value f = arith::SIToFPOp::create(b, l, b.getF32Type(), shifted);
          Value y = arith::MulFOp::create(b, l, f, a[1]);
          if (out.isF32())
            return y;
          // float16: clipped to its finite range first, as TVM does.
          Type f32 = b.getF32Type();
          y = arith::MaxNumFOp::create(b, l, y, scalarConst(b, l, f32, -65504));
          y = arith::MinNumFOp::create(b, l, y, scalarConst(b, l, f32, 65504));
          return arith::TruncFOp::create(b, l, out, y);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// qnn.requantize
//===----------------------------------------------------------------------===//

// FixedPoint (QnnUtils.h): a Q31 mantissa in [2^30, 2^31) (0 for 0) and a
// power-of-two shift, `m = mantissa * 2^(shift - 31)`.
FixedPoint fixedPointOf(double multiplier) {
  if (multiplier == 0)
    return {0, 0};
  int shift = 0;
  double significand = std::frexp(multiplier, &shift);
  // std::round: ties away from zero, as TVM's GetFixedPointMultiplierShift.
  auto q31 = static_cast<int64_t>(std::round(significand * (1ll << 31)));
  if (q31 == (1ll << 31)) {
    q31 /= 2;
    ++shift;
  }
  return {q31, shift};
}

/// The elements of a relay.constant whose value is an `AttrT`, each
/// converted, or nothing.
template <typename AttrT, typename Elem, typename T>
std::optional<SmallVector<T>> constantElements(Value v,
                                               T (*convert)(const Elem &)) {
  auto cst = v.getDefiningOp<ConstantOp>();
  auto dense = cst ? dyn_cast<AttrT>(cst.getValue()) : AttrT();
  if (!dense)
    return std::nullopt;
  return llvm::map_to_vector(dense.template getValues<Elem>(), convert);
}

/// The float32 values of a constant 0-d or 1-D scale, or nothing.
std::optional<SmallVector<float>> constantScales(Value scale) {
  return constantElements<DenseFPElementsAttr, APFloat, float>(
      scale, [](const APFloat &v) { return v.convertToFloat(); });
}

/// A 1-D i64 constant tensor.
Value i64Vector(OpBuilder &b, Location loc, ArrayRef<int64_t> values) {
  auto type = RankedTensorType::get({int64_t(values.size())}, b.getI64Type());
  return arith::ConstantOp::create(b, loc, type,
                                   DenseIntElementsAttr::get(type, values));
}

/// The per-channel (or single) fixed-point constants of a requantize:
/// mantissas, left shifts and total right shifts, as 1-D i64 tensors.
struct RequantizeConstants {
  Value mantissa, leftShift, rightShift;
};

RequantizeConstants requantizeConstants(OpBuilder &b, Location loc,
                                        ArrayRef<float> inScales,
                                        float outScale) {
  SmallVector<int64_t> mantissas, lefts, rights;
  for (float s : inScales) {
    FixedPoint fp =
        fixedPointOf(static_cast<double>(s) / static_cast<double>(outScale));
    mantissas.push_back(fp.mantissa);
    lefts.push_back(fp.shift > 0 ? fp.shift : 0);
    rights.push_back(31 + (fp.shift > 0 ? 0 : -fp.shift));
  }
  return {i64Vector(b, loc, mantissas), i64Vector(b, loc, lefts),
          i64Vector(b, loc, rights)};
}

/// ((x << left) * mantissa + rounding) >> right in int64, truncated to
/// int32: TVM's FixedPointMultiply. UPWARD adds 2^(right-1); TONEAREST
/// adds one less for negative products (ties away from zero).
Value fixedPointMultiply(OpBuilder &b, Location l, Value x32, Value mantissa,
                         Value left, Value right, bool upward) {
  Type i64 = b.getI64Type();
  Value one = arith::ConstantIntOp::create(b, l, i64, 1);
  Value x = arith::ExtSIOp::create(b, l, i64, x32);
  x = arith::ShLIOp::create(b, l, x, left);
  x = arith::MulIOp::create(b, l, x, mantissa);
  Value half =
      arith::ShLIOp::create(b, l, one, arith::SubIOp::create(b, l, right, one));
  Value rounding = half;
  if (!upward) {
    Value zero = arith::ConstantIntOp::create(b, l, i64, 0);
    Value negative =
        arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, x, zero);
    rounding = arith::SelectOp::create(
        b, l, negative, arith::SubIOp::create(b, l, half, one), half);
  }
  x = arith::ShRSIOp::create(b, l, arith::AddIOp::create(b, l, x, rounding),
                             right);
  return arith::TruncIOp::create(b, l, b.getI32Type(), x);
}

/// int32 `v` clipped to relay integer type `out`'s range and narrowed to
/// it (int32 is not clipped: TVM does not).
Value clipToDtype(OpBuilder &b, Location l, Value v, Type out) {
  unsigned w = cast<IntegerType>(out).getWidth();
  if (w == 32)
    return v;
  auto [lo, hi] = rangeOf(out);
  Type i32 = b.getI32Type();
  v = arith::MaxSIOp::create(b, l, v,
                             arith::ConstantIntOp::create(b, l, i32, lo));
  v = arith::MinSIOp::create(b, l, v,
                             arith::ConstantIntOp::create(b, l, i32, hi));
  return arith::TruncIOp::create(b, l, b.getIntegerType(w), v);
}

struct RequantizePattern : OpConversionPattern<QnnRequantizeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(QnnRequantizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StringRef compute = op.getComputeDtype();
    if (compute != "None" && compute != "int64")
      return op.emitOpError()
             << "compute_dtype \"" << compute
             << "\" is not supported (the int64 fixed-point form is: "
                "\"None\" or \"int64\")";
    std::optional<SmallVector<float>> inScales =
        constantScales(op.getInputScale());
    std::optional<SmallVector<float>> outScale =
        constantScales(op.getOutputScale());
    if (!inScales || !outScale)
      return op.emitOpError() << "needs constant input_scale and output_scale "
                                 "(the fixed-point multiplier is computed at "
                                 "compile time, as in TVM)";
    Location loc = op.getLoc();
    RequantizeConstants k =
        requantizeConstants(rewriter, loc, *inScales, (*outScale)[0]);
    Value data = adaptor.getData();
    int64_t rank = cast<RankedTensorType>(data.getType()).getRank();
    int64_t channel = channelAxis(op.getAxis(), rank);
    // A single multiplier is read at index 0 everywhere.
    AffineMap kMap = AffineMap::get(rank, 0,
                                    inScales->size() == 1
                                        ? rewriter.getAffineConstantExpr(0)
                                        : rewriter.getAffineDimExpr(channel));
    Type in = elementTypeOf(op.getData().getType());
    Type out = elementTypeOf(op.getType());
    bool upward = op.getRounding() != "TONEAREST";
    RankedTensorType type = resultTensorType(op);
    Value inZp = adaptor.getInputZeroPoint(),
          outZp = adaptor.getOutputZeroPoint();
    Value result = buildMap(
        rewriter, loc, type, dimSizes(rewriter, loc, data),
        {data, inZp, outZp, k.mantissa, k.leftShift, k.rightShift},
        {rewriter.getMultiDimIdentityMap(rank),
         paramMap(rewriter, inZp, rank, channel),
         paramMap(rewriter, outZp, rank, channel), kMap, kMap, kMap},
        [&](OpBuilder &b, Location l, ValueRange a) -> Value {
          Value x = resizeInt(b, l, a[0], in, b.getI32Type());
          x = arith::SubIOp::create(b, l, x, a[1]);
          Value scaled = fixedPointMultiply(b, l, x, a[3], a[4], a[5], upward);
          return clipToDtype(b, l, arith::AddIOp::create(b, l, scaled, a[2]),
                             out);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Ops written as relay integer ops (which this conversion then lowers): the
// contractions, add, subtract, mul. They read the original operands.
//===----------------------------------------------------------------------===//

/// A 0-d relay.constant.
Value relayScalar(OpBuilder &b, Location loc, Type element, Attribute value) {
  auto type = RankedTensorType::get({}, element);
  return ConstantOp::create(b, loc, DenseElementsAttr::get(type, value));
}

/// `param` (0-d, or 1-D along `axis`) shaped to broadcast against a
/// rank-`rank` tensor.
Value alongAxis(OpBuilder &b, Location loc, Value param, int64_t rank,
                int64_t axis) {
  auto t = cast<RankedTensorType>(param.getType());
  if (t.getRank() == 0)
    return param;
  SmallVector<int64_t> shape(rank, 1);
  shape[channelAxis(axis, rank)] = t.getDimSize(0);
  return ReshapeOp::create(b, loc, param, b.getDenseI64ArrayAttr(shape),
                           b.getBoolAttr(false));
}

/// `element`(x) - zp (zp 0-d or along `axis`), as relay ops.
Value shifted(OpBuilder &b, Location loc, Value x, Value zp, int64_t axis,
              Type element) {
  int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
  Value wide = CastOp::create(b, loc, x, TypeAttr::get(element));
  Value z = alongAxis(b, loc, zp, rank, axis);
  if (element != b.getI32Type())
    z = CastOp::create(b, loc, z, TypeAttr::get(element));
  return SubtractOp::create(b, loc, wide, z);
}

/// An int32 `v` clipped to relay integer dtype `out` (not int32) and cast.
Value clipCast(OpBuilder &b, Location loc, Value v, Type out) {
  if (out == b.getI32Type())
    return v;
  auto [lo, hi] = rangeOf(out);
  Value clipped = ClipOp::create(b, loc, v, b.getF64FloatAttr(double(lo)),
                                 b.getF64FloatAttr(double(hi)));
  return CastOp::create(b, loc, clipped, TypeAttr::get(out));
}

/// `q` requantized to `outScale` with zero point 0, in int32 (UPWARD).
Value rescaled(OpBuilder &b, Location loc, Value q, Value scale, Value zp,
               Value outScale, int64_t axis) {
  Type i32 = b.getI32Type();
  Value zero = relayScalar(b, loc, i32, b.getI32IntegerAttr(0));
  return QnnRequantizeOp::create(
      b, loc, q, scale, zp, outScale, zero, b.getI64IntegerAttr(axis),
      b.getStringAttr("UPWARD"), b.getStringAttr("None"), TypeAttr::get(i32));
}

/// The accumulator type of a contraction (its result element type).
Type accumulatorOf(Operation *op) {
  return cast<RankedTensorType>(op->getResult(0).getType()).getElementType();
}

/// True if two relay integer element types extend alike (both signed or
/// both unsigned), so one nn contraction of the raw operands can take them.
bool sameSignedness(Value a, Value b) {
  return isUnsignedInt(elementTypeOf(a.getType())) ==
         isUnsignedInt(elementTypeOf(b.getType()));
}

/// Σ over `axis` of `x` as `acc`.
Value sumAs(OpBuilder &b, Location loc, Value x, int64_t axis, bool keepdims,
            Type acc) {
  return SumOp::create(b, loc, CastOp::create(b, loc, x, TypeAttr::get(acc)),
                       b.getDenseI64ArrayAttr({axis}), keepdims);
}

/// A 0-d or 1-D int32 zero point as `acc`.
Value zeroPointAs(OpBuilder &b, Location loc, Value zp, Type acc) {
  if (acc == b.getI32Type())
    return zp;
  return CastOp::create(b, loc, zp, TypeAttr::get(acc));
}

/// The integer values of a relay.constant, if `v` is one.
std::optional<SmallVector<int64_t>> constantInts(Value v) {
  return constantElements<DenseIntElementsAttr, APInt, int64_t>(
      v, [](const APInt &i) { return i.getSExtValue(); });
}

/// An 8-bit operand as int8 and its constant zero points: uint8 values
/// and zero points moved down by 128 (the differences stay).
struct Signed8 {
  Value value;
  SmallVector<int64_t> zeroPoints;
};

std::optional<Signed8> asSigned8(OpBuilder &b, Location loc, Value x,
                                 Value zp) {
  auto element = dyn_cast<IntegerType>(elementTypeOf(x.getType()));
  std::optional<SmallVector<int64_t>> zps = constantInts(zp);
  if (!element || element.getWidth() != 8 || !zps)
    return std::nullopt;
  if (!element.isUnsigned())
    return Signed8{x, *zps};
  Type i32 = b.getI32Type();
  Value wide = CastOp::create(b, loc, x, TypeAttr::get(i32));
  Value down = SubtractOp::create(
      b, loc, wide, relayScalar(b, loc, i32, b.getI32IntegerAttr(128)));
  for (int64_t &z : *zps)
    z -= 128;
  return Signed8{CastOp::create(b, loc, down, TypeAttr::get(b.getI8Type())),
                 *zps};
}

/// Whether `zp` is a relay.constant of zeros.
bool isZeroConstant(Value zp) {
  std::optional<SmallVector<int64_t>> values = constantInts(zp);
  return values && llvm::all_of(*values, [](int64_t v) { return v == 0; });
}

/// A relay.constant of `like`'s type holding `values`.
Value intConstantLike(OpBuilder &b, Location loc, Value like,
                      ArrayRef<int64_t> values) {
  auto type = cast<RankedTensorType>(like.getType());
  auto element = cast<IntegerType>(type.getElementType());
  SmallVector<APInt> bits = llvm::map_to_vector(values, [&](int64_t v) {
    return APInt(element.getWidth(), v, /*isSigned=*/true);
  });
  return ConstantOp::create(b, loc, DenseElementsAttr::get(type, bits));
}

/// TVM's form of a quantized contraction over `k` terms (the raw integer
/// contraction keeps its i8 x i8 -> i32 shape for the CPU kernels):
///   Σ(a - za)(b - zb) = main - zb·Σa - za·Σb + k·za·zb
/// with `aSum()` and `zb` (`bSum()` and `za`) shaped to broadcast against
/// `main`; the terms of a constant zero point of zeros are left out.
Value withZeroPoints(OpBuilder &b, Location loc, Value main,
                     function_ref<Value()> aSum, function_ref<Value()> bSum,
                     Value za, Value zb, int64_t k, Type acc) {
  bool zaZero = isZeroConstant(za), zbZero = isZeroConstant(zb);
  za = zeroPointAs(b, loc, za, acc);
  zb = zeroPointAs(b, loc, zb, acc);
  Value r = main;
  if (!zbZero)
    r = SubtractOp::create(b, loc, r, MultiplyOp::create(b, loc, zb, aSum()));
  if (!zaZero)
    r = SubtractOp::create(b, loc, r, MultiplyOp::create(b, loc, za, bSum()));
  if (zaZero || zbZero)
    return r;
  Value kc = relayScalar(b, loc, acc, b.getIntegerAttr(acc, k));
  Value zz = MultiplyOp::create(b, loc, kc, MultiplyOp::create(b, loc, za, zb));
  return AddOp::create(b, loc, r, zz);
}

/// The reduction size of `x` along its last dim, if static.
std::optional<int64_t> staticLastDim(Value x) {
  auto t = cast<RankedTensorType>(x.getType());
  int64_t k = t.getDimSize(t.getRank() - 1);
  return ShapedType::isDynamic(k) ? std::nullopt : std::optional<int64_t>(k);
}

/// `contract(a, b)` (an nn contraction over the last dim of `a`, with
/// accumulator `acc`) of quantized operands: TVM's corrected form of the raw
/// operands when both extend alike (8-bit operands of mixed signedness with
/// constant zero points are both made int8 first: uint8 - 128) and k is
/// static (`bSum(b)` shapes Σb to broadcast against the result), else the
/// contraction of the operands shifted by their zero points (`zb` along dim
/// 0 of `b`).
Value quantizedContraction(OpBuilder &b, Location loc, Value x, Value w,
                           Value zx, Value zw, Type acc,
                           function_ref<Value(Value, Value)> contract,
                           function_ref<Value(Value)> wSum) {
  std::optional<int64_t> k = staticLastDim(x);
  if (k && !sameSignedness(x, w)) {
    std::optional<Signed8> xs = asSigned8(b, loc, x, zx);
    std::optional<Signed8> ws = asSigned8(b, loc, w, zw);
    if (xs && ws) {
      x = xs->value;
      zx = intConstantLike(b, loc, zx, xs->zeroPoints);
      w = ws->value;
      zw = intConstantLike(b, loc, zw, ws->zeroPoints);
    }
  }
  if (!sameSignedness(x, w) || !k)
    return contract(shifted(b, loc, x, zx, 0, acc),
                    shifted(b, loc, w, zw, 0, acc));
  int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
  return withZeroPoints(
      b, loc, contract(x, w),
      [&] { return sumAs(b, loc, x, rank - 1, true, acc); },
      [&] { return wSum(w); }, zx, zw, *k, acc);
}

/// qnn.dense (data [d..., k] · weight [n, k]ᵀ): Σweight is [n].
struct DenseQnnPattern : OpConversionPattern<QnnDenseOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(QnnDenseOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type acc = accumulatorOf(op);
    rewriter.replaceOp(
        op,
        quantizedContraction(
            rewriter, loc, op.getData(), op.getWeight(), op.getInputZeroPoint(),
            op.getKernelZeroPoint(), acc,
            [&](Value a, Value b) -> Value {
              return DenseOp::create(rewriter, loc, a, b, op.getUnitsAttr(),
                                     TypeAttr::get(acc));
            },
            [&](Value w) { return sumAs(rewriter, loc, w, 1, false, acc); }));
    return success();
  }
};

/// qnn.batch_matmul (x [b, m, k] · y [b, n, k]ᵀ): Σy reshaped to [b, 1, n].
struct BatchMatmulQnnPattern : OpConversionPattern<QnnBatchMatmulOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(QnnBatchMatmulOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type acc = accumulatorOf(op);
    rewriter.replaceOp(
        op, quantizedContraction(
                rewriter, loc, op.getX(), op.getY(), op.getXZeroPoint(),
                op.getYZeroPoint(), acc,
                [&](Value a, Value b) -> Value {
                  return BatchMatmulOp::create(
                      rewriter, loc, a, b, TypeAttr::get(acc),
                      rewriter.getBoolAttr(false), rewriter.getBoolAttr(true));
                },
                [&](Value y) -> Value {
                  return ReshapeOp::create(
                      rewriter, loc, sumAs(rewriter, loc, y, 2, true, acc),
                      rewriter.getDenseI64ArrayAttr({0, 1, -1}),
                      rewriter.getBoolAttr(false));
                }));
    return success();
  }
};

/// qnn.conv2d of 8-bit operands whose kernel zero point is 0 (after the
/// uint8 shift), an int32 result and a constant input zero point z, as TVM
/// computes it on x86 but with the padding made explicit:
///   Σ (x - z)·w = conv(pad(x, z), w) - z·Σw[o]
/// (a padded pixel is z: it adds z·w, which z·Σw takes out). The int8 x
/// int8 -> int32 convolution is the form the CPU kernels take (IREE's, or
/// relay-vnni-matmul's, which reads the padding in place); null otherwise.
Value int8Conv2D(ConversionPatternRewriter &b, Location loc, QnnConv2DOp op) {
  Type i32 = b.getI32Type();
  auto resultType = cast<RankedTensorType>(op.getType());
  auto weightType = cast<RankedTensorType>(op.getWeight().getType());
  StringRef dataLayout = op.getDataLayout();
  StringRef outLayout =
      op.getOutLayout().empty() ? dataLayout : op.getOutLayout();
  int64_t outAxis = op.getKernelLayout().find('O');
  int64_t resultC = outLayout.find('C');
  if (resultType.getElementType() != i32 || dataLayout.size() != 4 ||
      outLayout.size() != 4 || resultC == int64_t(StringRef::npos) ||
      weightType.getRank() != 4 || !weightType.hasStaticShape() ||
      weightType.getDimSize(outAxis) != resultType.getDimSize(resultC))
    return {};
  std::optional<Signed8> w =
      asSigned8(b, loc, op.getWeight(), op.getKernelZeroPoint());
  if (!w || llvm::any_of(w->zeroPoints, [](int64_t z) { return z != 0; }))
    return {};
  std::optional<Signed8> x =
      asSigned8(b, loc, op.getData(), op.getInputZeroPoint());
  FailureOr<SpatialPadding> pad = normalizePadding(op.getPadding(), 2);
  if (!x || x->zeroPoints.size() != 1 || failed(pad))
    return {};
  int64_t z = x->zeroPoints[0];
  Value data = x->value;
  DenseI64ArrayAttr padding = op.getPaddingAttr();
  if (z != 0 && !pad->isZero()) {
    SmallVector<int64_t> width(8, 0);
    for (auto [i, dim] : llvm::enumerate(StringRef("HW"))) {
      int64_t at = dataLayout.find(dim);
      width[2 * at] = pad->before[i];
      width[2 * at + 1] = pad->after[i];
    }
    Value value = relayScalar(b, loc, b.getI8Type(), b.getI8IntegerAttr(z));
    data = PadOp::create(b, loc, data, value, width, "constant");
    padding = b.getDenseI64ArrayAttr({0, 0, 0, 0});
  }
  Value conv = Conv2DOp::create(
      b, loc, data, w->value, op.getStridesAttr(), padding,
      op.getDilationAttr(), op.getGroupsAttr(), op.getChannelsAttr(),
      op.getKernelSizeAttr(), op.getDataLayoutAttr(), op.getKernelLayoutAttr(),
      op.getOutLayoutAttr(), TypeAttr::get(i32));
  if (z == 0)
    return conv;
  SmallVector<int64_t> taps;
  for (int64_t d = 0; d < 4; ++d)
    if (d != outAxis)
      taps.push_back(d);
  Value sums = SumOp::create(
      b, loc, CastOp::create(b, loc, w->value, TypeAttr::get(i32)),
      b.getDenseI64ArrayAttr(taps), false);
  SmallVector<int64_t> shape(4, 1);
  shape[resultC] = resultType.getDimSize(resultC);
  Value perChannel = ReshapeOp::create(
      b, loc,
      MultiplyOp::create(b, loc, sums,
                         relayScalar(b, loc, i32, b.getI32IntegerAttr(z))),
      b.getDenseI64ArrayAttr(shape), b.getBoolAttr(false));
  return SubtractOp::create(b, loc, conv, perChannel);
}

/// nn.conv2d of the shifted operands: its zero padding is the input zero
/// point's padding of the original data (unless int8Conv2D applies).
struct Conv2DQnnPattern : OpConversionPattern<QnnConv2DOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(QnnConv2DOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (Value conv = int8Conv2D(rewriter, loc, op)) {
      rewriter.replaceOp(op, conv);
      return success();
    }
    Type acc = accumulatorOf(op);
    Value x =
        shifted(rewriter, loc, op.getData(), op.getInputZeroPoint(), 0, acc);
    int64_t outAxis = op.getKernelLayout().find('O');
    Value w = shifted(rewriter, loc, op.getWeight(), op.getKernelZeroPoint(),
                      outAxis, acc);
    rewriter.replaceOp(
        op, Conv2DOp::create(rewriter, loc, x, w, op.getStridesAttr(),
                             op.getPaddingAttr(), op.getDilationAttr(),
                             op.getGroupsAttr(), op.getChannelsAttr(),
                             op.getKernelSizeAttr(), op.getDataLayoutAttr(),
                             op.getKernelLayoutAttr(), op.getOutLayoutAttr(),
                             TypeAttr::get(acc)));
    return success();
  }
};

/// qnn.add / qnn.subtract: each operand requantized to the output scale
/// (zero point 0, int32), combined, plus the output zero point, clipped.
template <typename QnnOp, typename CombineOp>
struct AddLikeQnnPattern : OpConversionPattern<QnnOp> {
  using OpConversionPattern<QnnOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(QnnOp op, typename OpConversionPattern<QnnOp>::OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value lhs =
        rescaled(rewriter, loc, op.getLhs(), op.getLhsScale(),
                 op.getLhsZeroPoint(), op.getOutputScale(), op.getLhsAxis());
    Value rhs =
        rescaled(rewriter, loc, op.getRhs(), op.getRhsScale(),
                 op.getRhsZeroPoint(), op.getOutputScale(), op.getRhsAxis());
    Value sum =
        AddOp::create(rewriter, loc, CombineOp::create(rewriter, loc, lhs, rhs),
                      op.getOutputZeroPoint());
    rewriter.replaceOp(
        op, clipCast(rewriter, loc, sum, elementTypeOf(op.getLhs().getType())));
    return success();
  }
};

/// qnn.mul: (lhs - zp)(rhs - zp) in int32 at the scale float32(lhs_scale *
/// rhs_scale), requantized to the output's.
struct MulQnnPattern : OpConversionPattern<QnnMulOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(QnnMulOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<SmallVector<float>> ls = constantScales(op.getLhsScale());
    std::optional<SmallVector<float>> rs = constantScales(op.getRhsScale());
    if (!ls || !rs || ls->size() != 1 || rs->size() != 1)
      return op.emitOpError() << "needs constant 0-d lhs_scale and rhs_scale "
                                 "(per-channel scales are not supported yet)";
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    Value lhs = shifted(rewriter, loc, op.getLhs(), op.getLhsZeroPoint(),
                        op.getLhsAxis(), i32);
    Value rhs = shifted(rewriter, loc, op.getRhs(), op.getRhsZeroPoint(),
                        op.getRhsAxis(), i32);
    Value product = MultiplyOp::create(rewriter, loc, lhs, rhs);
    float scale = (*ls)[0] * (*rs)[0]; // in float32, as TVM folds it
    Value productScale = relayScalar(rewriter, loc, rewriter.getF32Type(),
                                     rewriter.getF32FloatAttr(scale));
    Value zero = relayScalar(rewriter, loc, i32, rewriter.getI32IntegerAttr(0));
    Value r = rescaled(rewriter, loc, product, productScale, zero,
                       op.getOutputScale(), -1);
    Value sum = AddOp::create(rewriter, loc, r, op.getOutputZeroPoint());
    rewriter.replaceOp(
        op, clipCast(rewriter, loc, sum, elementTypeOf(op.getLhs().getType())));
    return success();
  }
};

} // namespace mlir::relay::qnn_lowering

using namespace mlir::relay::qnn_lowering;

void relay::populateQnnToLinalgPatterns(const TypeConverter &tc,
                                        RewritePatternSet &patterns) {
  patterns.add<QuantizePattern, DequantizePattern, RequantizePattern,
               DenseQnnPattern, BatchMatmulQnnPattern, Conv2DQnnPattern,
               AddLikeQnnPattern<QnnAddOp, AddOp>,
               AddLikeQnnPattern<QnnSubtractOp, SubtractOp>, MulQnnPattern>(
      tc, patterns.getContext());
  populateQnnCompositePatterns(tc, patterns);
  populateQnnLookupPatterns(tc, patterns);
  populateQnnSimulatedPatterns(tc, patterns);
}
