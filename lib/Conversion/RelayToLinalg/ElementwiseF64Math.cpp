//===- ElementwiseF64Math.cpp - float64 expansions of math functions ------===//
//
// Polynomial coefficients are near-minimax (Chebyshev) fits computed with
// mpmath (50 digits) for the stated intervals and rounded to double; each
// was checked to be within ~1 ulp of the function there (evaluated with
// Horner in double). Arguments are reduced so those intervals are small:
//
//   sin/cos/tan  x = k*pi/2 + r, |r| <= ~pi/4, pi/2 split in four parts
//                (33, 33, 33, 53 bits: k*P1..k*P3 are exact for |k| < 2^20,
//                i.e. |x| < ~1.6e6; measured within 5e-16 up to 1e15 on
//                random points); |x| >= 2^50 gives NaN
//   atan         |x| > 1: pi/2 - atan(1/|x|); > tan(pi/8): pi/4 +
//                atan((y-1)/(y+1)); then |z| <= tan(pi/8)
//   asin/acos    through atan: x / sqrt((1-x)(1+x)), sqrt((1-x)/(1+x))
//   tanh         |x| < 0.3 polynomial, else (1-t)/(1+t), t = exp(-2|x|)
//   erf          |x| < 1 polynomial x*P(x^2); 1 <= |x| <= 6:
//                1 - exp(-x^2) * erfcx(|x|) with erfcx fitted on [1, 2.5]
//                and [2.5, 6]; |x| > 6 rounds to +-1
//   log2         log(x) / ln 2
//
//===----------------------------------------------------------------------===//
#include "ElementwiseF64Math.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include <iterator>
#include <limits>

using namespace mlir;

namespace {
// sin(r) = r + r^3 * P(r^2), |r| <= 1.02 * pi/4.
constexpr double kSin[] = {
    -7.5842639960341665e-13, 1.6058489509558741e-10,  -2.5052105961377001e-08,
    2.7557319218542833e-06,  -0.00019841269841264019, 0.0083333333333333315,
    -0.16666666666666666,
};
// cos(r) = 1 - r^2/2 + r^4 * P(r^2), |r| <= 1.02 * pi/4.
constexpr double kCos[] = {
    4.7445191096480046e-14, -1.1470437475266499e-11, 2.0876755640369132e-09,
    -2.755731922096008e-07, 2.4801587301584066e-05,  -0.0013888888888888887,
    0.041666666666666664,
};
// atan(z) = z + z^3 * P(z^2), |z| <= 1.001 * tan(pi/8).
constexpr double kAtan[] = {
    -0.019147248964611768, 0.039207433212611963,  -0.05084610357631765,
    0.058579883502457623,  -0.066644929458062635, 0.076921818760368452,
    -0.090909045214716905, 0.11111111013860688,   -0.14285714284649173,
    0.19999999999995438,   -0.33333333333333331,
};
// tanh(x) = x + x^3 * P(x^2), |x| <= 0.3.
constexpr double kTanh[] = {
    0.0005109249704674158,  -0.0014445898532447449, 0.0035912834611108225,
    -0.0088632001771425748, 0.021869487730074903,   -0.053968253959211114,
    0.13333333333329464,    -0.33333333333333331,
};
// erf(x) = x * P(x^2), |x| <= 1.
constexpr double kErfSmall[] = {
    -7.7958988270021425e-10, 1.3720064546777686e-08,  -1.6208483801871705e-07,
    1.6447424703317362e-06,  -1.4924736907419661e-05, 0.00012055294904839707,
    -0.00085483259753896918, 0.0052239776071164225,   -0.02686617064323777,
    0.11283791670945006,     -0.37612638903183543,    1.1283791670955126,
};
// erfcx(x) = exp(x^2) erfc(x) = P((x - 1.75) / 0.75) on [1, 2.5] ...
constexpr double kErfcxLo[] = {
    -3.0799769645152264e-13, 1.7051380174858025e-12,  -7.7270357630616521e-12,
    4.0876553213917352e-11,  -2.1504717703907724e-10, 1.0915022683779807e-09,
    -5.4109334783813525e-09, 2.6200043639098591e-08,  -1.2366189968116115e-07,
    5.6801680342509955e-07,  -2.5345102496943881e-06, 1.0962893583738538e-05,
    -4.5856167240290616e-05, 0.00018495607834432556,  -0.00071689144560174375,
    0.0026591791241932059,   -0.0093909354924607037,  0.031367041923986608,
    -0.098232259135863906,   0.28497223473743638,
};
// ... and P((x - 4.25) / 1.75) on [2.5, 6].
constexpr double kErfcxHi[] = {
    -1.8530182592923917e-10, 6.3290857903645176e-10,  -1.2121141224193404e-09,
    3.9826123406224872e-09,  -1.489159469435947e-08,  4.8115694792577041e-08,
    -1.512054146159279e-07,  4.7560425694946372e-07,  -1.4774220529530982e-06,
    4.5207852992586128e-06,  -1.3631758818512305e-05, 4.0486221751943229e-05,
    -0.0001183541816153721,  0.00034031162216463024,  -0.00096173298035928537,
    0.0026690037164087874,   -0.0072669543174543978,  0.019391340463755766,
    -0.050652579975576803,   0.12934527478598781,
};
static_assert(sizeof(kErfcxLo) == sizeof(kErfcxHi));

// pi/2 = kPio2[0] + ... + kPio2[3] (to ~2^-160); the first three have 33
// significant bits.
constexpr double kPio2Split[] = {1.5707963267341256, 6.077100506303966e-11,
                                 2.0222662487111665e-21, 8.4784276603689e-32};
constexpr double kPio2Hi = 1.5707963267948966, kPio2Lo = 6.123233995736766e-17;
constexpr double kPio4Hi = 0.7853981633974483, kPio4Lo = 3.061616997868383e-17;
constexpr double kTwoOverPi = 0.63661977236758138;
constexpr double kTanPi8 = 0.41421356237309503;
constexpr double kInvLn2 = 1.4426950408889634;
// Adding and subtracting 1.5 * 2^52 rounds a double of magnitude < 2^51 to
// the nearest integer (ties to even) without a libm call.
constexpr double kRoundMagic = 6755399441055744.0;

/// Shorthands for building f64 scalar arithmetic.
struct F {
  OpBuilder &b;
  Location loc;

  Value c(double v) {
    return arith::ConstantOp::create(b, loc, b.getF64FloatAttr(v));
  }
  Value add(Value x, Value y) { return arith::AddFOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubFOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  Value div(Value x, Value y) { return arith::DivFOp::create(b, loc, x, y); }
  Value neg(Value x) { return arith::NegFOp::create(b, loc, x); }
  Value abs(Value x) { return math::AbsFOp::create(b, loc, x); }
  Value copysign(Value x, Value s) {
    return math::CopySignOp::create(b, loc, x, s);
  }
  Value cmp(arith::CmpFPredicate p, Value x, Value y) {
    return arith::CmpFOp::create(b, loc, p, x, y);
  }
  Value sel(Value cond, Value x, Value y) {
    return arith::SelectOp::create(b, loc, cond, x, y);
  }
  Value orI(Value x, Value y) { return arith::OrIOp::create(b, loc, x, y); }
  /// Horner: coeffs[0] * z^(n-1) + ... + coeffs[n-1].
  template <size_t N> Value poly(const double (&coeffs)[N], Value z) {
    Value r = c(coeffs[0]);
    for (size_t i = 1; i < N; ++i)
      r = add(mul(r, z), c(coeffs[i]));
    return r;
  }
  /// x + x^3 * P(x^2) for odd functions with f'(0) = 1; +-0 stays +-0
  /// (the sum alone would turn -0 into +0).
  template <size_t N> Value oddPoly(const double (&coeffs)[N], Value x) {
    Value z = mul(x, x);
    Value p = add(x, mul(mul(x, z), poly(coeffs, z)));
    return sel(cmp(arith::CmpFPredicate::OEQ, x, c(0.0)), x, p);
  }
  Value roundInt(Value x) {
    return sub(add(x, c(kRoundMagic)), c(kRoundMagic));
  }
};

/// atan(|x|) for the reductions above (NaN stays NaN, inf gives pi/2).
Value atanAbs(F &f, Value x) {
  Value a = f.abs(x);
  Value big = f.cmp(arith::CmpFPredicate::OGT, a, f.c(1.0));
  Value y = f.sel(big, f.div(f.c(1.0), a), a);
  Value mid = f.cmp(arith::CmpFPredicate::OGT, y, f.c(kTanPi8));
  Value z = f.sel(mid, f.div(f.sub(y, f.c(1.0)), f.add(y, f.c(1.0))), y);
  Value p = f.oddPoly(kAtan, z);
  Value r = f.sel(mid, f.add(f.add(p, f.c(kPio4Lo)), f.c(kPio4Hi)), p);
  Value flipped = f.add(f.sub(f.c(kPio2Hi), r), f.c(kPio2Lo));
  return f.sel(big, flipped, r);
}

enum class Trig { Sin, Cos, Tan };

Value trig(OpBuilder &b, Location loc, Value x, Trig which) {
  F f{b, loc};
  Value k = f.roundInt(f.mul(x, f.c(kTwoOverPi)));
  Value r = x;
  for (double part : kPio2Split)
    r = f.sub(r, f.mul(k, f.c(part)));
  // q = k mod 4 in {-2, -1, 0, 1, 2}.
  Value q = f.sub(k, f.mul(f.c(4.0), f.roundInt(f.mul(k, f.c(0.25)))));
  auto qIs = [&](double v) {
    return f.cmp(arith::CmpFPredicate::OEQ, q, f.c(v));
  };
  Value odd = f.orI(qIs(1.0), qIs(-1.0));
  Value z = f.mul(r, r);
  Value s = f.oddPoly(kSin, r);
  Value c = f.add(f.sub(f.c(1.0), f.mul(z, f.c(0.5))),
                  f.mul(f.mul(z, z), f.poly(kCos, z)));
  Value v;
  switch (which) {
  case Trig::Sin: {
    Value negative = f.orI(f.orI(qIs(2.0), qIs(-2.0)), qIs(-1.0));
    v = f.sel(odd, c, s);
    v = f.sel(negative, f.neg(v), v);
    break;
  }
  case Trig::Cos: {
    Value negative = f.orI(f.orI(qIs(2.0), qIs(-2.0)), qIs(1.0));
    v = f.sel(odd, s, c);
    v = f.sel(negative, f.neg(v), v);
    break;
  }
  case Trig::Tan:
    v = f.sel(odd, f.neg(f.div(c, s)), f.div(s, c));
    break;
  }
  // No reduction beyond 2^50 (the rounding trick needs |x*2/pi| < 2^51):
  // NaN rather than a wrong finite value.
  Value tooBig = f.cmp(arith::CmpFPredicate::OGE, f.abs(x), f.c(0x1p50));
  return f.sel(tooBig, f.c(std::numeric_limits<double>::quiet_NaN()), v);
}
} // namespace

namespace mlir::relay::lowering {

Value tanhF64(OpBuilder &b, Location loc, Value x) {
  F f{b, loc};
  Value a = f.abs(x);
  Value t = math::ExpOp::create(b, loc, f.mul(a, f.c(-2.0)));
  Value large = f.copysign(f.div(f.sub(f.c(1.0), t), f.add(f.c(1.0), t)), x);
  Value small = f.cmp(arith::CmpFPredicate::OLT, a, f.c(0.3));
  return f.sel(small, f.oddPoly(kTanh, x), large);
}

Value sinF64(OpBuilder &b, Location loc, Value x) {
  return trig(b, loc, x, Trig::Sin);
}
Value cosF64(OpBuilder &b, Location loc, Value x) {
  return trig(b, loc, x, Trig::Cos);
}
Value tanF64(OpBuilder &b, Location loc, Value x) {
  return trig(b, loc, x, Trig::Tan);
}

Value atanF64(OpBuilder &b, Location loc, Value x) {
  F f{b, loc};
  return f.copysign(atanAbs(f, x), x);
}

Value asinF64(OpBuilder &b, Location loc, Value x) {
  F f{b, loc};
  Value one = f.c(1.0);
  Value w = f.div(
      x, math::SqrtOp::create(b, loc, f.mul(f.sub(one, x), f.add(one, x))));
  return f.copysign(atanAbs(f, w), x);
}

Value acosF64(OpBuilder &b, Location loc, Value x) {
  F f{b, loc};
  Value one = f.c(1.0);
  Value w = math::SqrtOp::create(b, loc, f.div(f.sub(one, x), f.add(one, x)));
  return f.mul(f.c(2.0), atanAbs(f, w));
}

Value log2F64(OpBuilder &b, Location loc, Value x) {
  F f{b, loc};
  return f.mul(math::LogOp::create(b, loc, x), f.c(kInvLn2));
}

Value erfF64(OpBuilder &b, Location loc, Value x) {
  F f{b, loc};
  Value a = f.abs(x);
  Value small = f.mul(x, f.poly(kErfSmall, f.mul(x, x)));
  // Clamp to 6 (NaN stays NaN): erf(6) rounds to 1.
  Value ac = f.sel(f.cmp(arith::CmpFPredicate::ULT, a, f.c(6.0)), a, f.c(6.0));
  Value lo = f.cmp(arith::CmpFPredicate::OLT, ac, f.c(2.5));
  Value t = f.sel(lo, f.div(f.sub(ac, f.c(1.75)), f.c(0.75)),
                  f.div(f.sub(ac, f.c(4.25)), f.c(1.75)));
  Value h = f.sel(lo, f.c(kErfcxLo[0]), f.c(kErfcxHi[0]));
  for (size_t i = 1; i < std::size(kErfcxLo); ++i)
    h = f.add(f.mul(h, t), f.sel(lo, f.c(kErfcxLo[i]), f.c(kErfcxHi[i])));
  Value e = math::ExpOp::create(b, loc, f.neg(f.mul(ac, ac)));
  Value large = f.copysign(f.sub(f.c(1.0), f.mul(e, h)), x);
  return f.sel(f.cmp(arith::CmpFPredicate::OLT, a, f.c(1.0)), small, large);
}

} // namespace mlir::relay::lowering
