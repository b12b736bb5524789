//===- FoldConstants.cpp - relay-fold-constants ---------------------------===//
//
// Relay's FoldConstant, as rewrite patterns run by the greedy driver:
// - EvaluateConstantOp: an operator whose operands are all constants is
//   evaluated by its entry in one table of small evaluators (op name ->
//   evaluator) into a new constant, with the reference interpreter's values
//   (interpreter_ops.py); results above kMaxFoldedElements stay ops.
// - Splats and identities: `*_like` fills of static shapes become splats,
//   shape ops carry splats through, and multiplying by one / adding zero
//   disappear when the types allow.
// No fold changes a value.
//
//===----------------------------------------------------------------------===//
#include "../Relations/TransformUtils.h"
#include "relay/RelayOps.h"
#include "relay/RelayPasses.h"
#include "relay/RelayRewritePatterns.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/StringMap.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYFOLDCONSTANTS
#include "relay/RelayPasses.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

namespace {

/// No folded result may have more elements than this (all results of an op
/// together; TVM 0.19 has no limit): a broadcast of a scalar to 1e8 elements
/// stays an op instead of a 400 MB constant.
constexpr int64_t kMaxFoldedElements = int64_t(1) << 22;
/// Nor may one evaluation take more multiply-adds than this (dense,
/// batch_matmul, conv2d).
constexpr int64_t kMaxFoldedWork = int64_t(1) << 28;

/// The splat value of a constant, if `v` is a splat constant.
std::optional<Attribute> splatOf(Value v) {
  DenseElementsAttr attr;
  if (!matchPattern(v, m_Constant(&attr)) || !attr.isSplat())
    return std::nullopt;
  return attr.getSplatValue<Attribute>();
}

bool isSplatOf(Value v, double value) {
  std::optional<Attribute> splat = splatOf(v);
  if (!splat)
    return false;
  if (auto f = dyn_cast<FloatAttr>(*splat))
    return f.getValueAsDouble() == value;
  if (auto i = dyn_cast<IntegerAttr>(*splat))
    return i.getValue().getSExtValue() == static_cast<int64_t>(value) &&
           static_cast<double>(static_cast<int64_t>(value)) == value;
  return false;
}

Value splatConstant(PatternRewriter &rewriter, Location loc,
                    RankedTensorType type, Attribute element) {
  return ConstantOp::create(
      rewriter, loc, cast<ElementsAttr>(DenseElementsAttr::get(type, element)));
}

/// `zeros_like`, `ones_like`, `zeros`, `ones` of a static shape: a splat.
template <typename Op, int Value_>
struct FillLikeToSplat : OpRewritePattern<Op> {
  using OpRewritePattern<Op>::OpRewritePattern;
  LogicalResult matchAndRewrite(Op op,
                                PatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getResult().getType());
    if (!type || !type.hasStaticShape() ||
        type.getNumElements() > kMaxFoldedElements)
      return failure();
    Type element = type.getElementType();
    Attribute value;
    if (auto f = dyn_cast<FloatType>(element))
      value = rewriter.getFloatAttr(f, Value_);
    else if (isa<IntegerType>(element))
      value = rewriter.getIntegerAttr(element, Value_);
    else
      return failure();
    rewriter.replaceOp(op, splatConstant(rewriter, op.getLoc(), type, value));
    return success();
  }
};

/// A shape op (one data operand first) of a splat: the splat of its type.
struct ShapeOpOfSplat : RewritePattern {
  ShapeOpOfSplat(MLIRContext *ctx)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    // Every element of their result is an element of their first operand.
    // (Also a workaround: IREE 3.13 miscomputes a reduction of a `take` of a
    // splat, lowered as a generic that ignores its index input.)
    if (!isa<ExpandDimsOp, ReshapeOp, SqueezeOp, BroadcastToOp,
             BroadcastToLikeOp, ReshapeLikeOp, TransposeOp, BatchFlattenOp,
             TakeOp, GatherOp, GatherNDOp, StridedSliceOp, TileOp, RepeatOp,
             ReverseOp>(op))
      return failure();
    std::optional<Attribute> splat = splatOf(op->getOperand(0));
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!splat || !type || !type.hasStaticShape() ||
        type.getNumElements() > kMaxFoldedElements)
      return failure();
    rewriter.replaceOp(op, splatConstant(rewriter, op->getLoc(), type, *splat));
    return success();
  }
};

/// `x op c` (or `c op x` when commutative) is `x` for the identity `c`.
template <typename Op, int Identity, bool Commutative>
struct DropIdentity : OpRewritePattern<Op> {
  using OpRewritePattern<Op>::OpRewritePattern;
  LogicalResult matchAndRewrite(Op op,
                                PatternRewriter &rewriter) const override {
    Value lhs = op->getOperand(0), rhs = op->getOperand(1);
    Type result = op->getResult(0).getType();
    if (isSplatOf(rhs, Identity) && lhs.getType() == result) {
      rewriter.replaceOp(op, lhs);
      return success();
    }
    if (Commutative && isSplatOf(lhs, Identity) && rhs.getType() == result) {
      rewriter.replaceOp(op, rhs);
      return success();
    }
    return failure();
  }
};

/// `collapse_sum_like` of a float constant: the summed constant.
struct CollapseSumOfConstant : OpRewritePattern<CollapseSumLikeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CollapseSumLikeOp op,
                                PatternRewriter &rewriter) const override {
    DenseElementsAttr data;
    if (!matchPattern(op.getData(), m_Constant(&data)))
      return failure();
    auto type = dyn_cast<RankedTensorType>(op.getResult().getType());
    auto floatType = dyn_cast<FloatType>(data.getElementType());
    if (!type || !type.hasStaticShape() || !floatType ||
        !data.getType().hasStaticShape())
      return failure();
    ArrayRef<int64_t> in = data.getType().getShape();
    ArrayRef<int64_t> out = type.getShape();
    int64_t offset = in.size() - out.size();
    SmallVector<double> sums(type.getNumElements(), 0.0);
    SmallVector<int64_t> index(in.size(), 0);
    for (const APFloat &value : data.getValues<APFloat>()) {
      // The result element this data element is summed into.
      int64_t flat = 0;
      for (int64_t d = 0, e = out.size(); d < e; ++d)
        flat = flat * out[d] + (out[d] == 1 ? 0 : index[offset + d]);
      sums[flat] += value.convertToDouble();
      for (int64_t d = in.size() - 1; d >= 0; --d) {
        if (++index[d] < in[d])
          break;
        index[d] = 0;
      }
    }
    SmallVector<Attribute> values;
    for (double v : sums)
      values.push_back(rewriter.getFloatAttr(floatType, v));
    rewriter.replaceOpWithNewOp<ConstantOp>(
        op, cast<ElementsAttr>(DenseElementsAttr::get(type, values)));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Constant evaluation: an op whose operands are all constants becomes the
// constant of its result. One table maps op names to small evaluators; each
// computes what the reference interpreter's kernel (interpreter_ops.py)
// computes: integers bit-exact (numpy's wrap-around per dtype, Relay's
// division rules), float arithmetic step by step in the dtype's precision,
// float transcendentals and accumulations in double rounded once.
//===----------------------------------------------------------------------===//

int64_t product(ArrayRef<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

bool isUnsignedInt(Type t) {
  auto i = dyn_cast<IntegerType>(t);
  return i && (i.isUnsigned() || i.getWidth() == 1);
}

bool isBool(Type t) { return t.isInteger(1); }

bool isSupportedElement(Type t) {
  if (auto f = dyn_cast<FloatType>(t))
    return f.isF16() || f.isBF16() || f.isF32() || f.isF64();
  if (auto i = dyn_cast<IntegerType>(t))
    return i.getWidth() <= 64;
  return false;
}

/// A constant's values: floats as doubles (exact for f16, bf16, f32, f64),
/// integers as int64 (sign- or zero-extended by signedness; bool 0/1).
/// A type-only operand (`reshape_like`'s shape operand) has no values.
struct Values {
  SmallVector<int64_t> shape;
  Type element;
  std::vector<double> f;
  std::vector<int64_t> i;
  bool isFloat() const { return isa<FloatType>(element); }
  int64_t size() const { return product(shape); }
};

Values makeValues(RankedTensorType type) {
  Values v;
  v.shape.assign(type.getShape().begin(), type.getShape().end());
  v.element = type.getElementType();
  if (v.isFloat())
    v.f.resize(v.size());
  else
    v.i.resize(v.size());
  return v;
}

/// `v` rounded to the float type `t` (to nearest, ties to even).
double roundTo(Type t, double v) {
  if (t.isF64())
    return v;
  if (t.isF32())
    return static_cast<double>(static_cast<float>(v));
  bool lost;
  APFloat a(v);
  a.convert(cast<FloatType>(t).getFloatSemantics(),
            APFloat::rmNearestTiesToEven, &lost);
  a.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
  return a.convertToDouble();
}

/// `v` wrapped to the integer type `t` (numpy's wrap-around).
int64_t wrapTo(Type t, int64_t v) {
  unsigned w = cast<IntegerType>(t).getWidth();
  if (w == 64)
    return v;
  uint64_t u = static_cast<uint64_t>(v) & ((uint64_t(1) << w) - 1);
  if (isUnsignedInt(t))
    return static_cast<int64_t>(u);
  return static_cast<int64_t>(u << (64 - w)) >> (64 - w);
}

std::optional<Values> readValues(DenseElementsAttr attr) {
  auto type = dyn_cast<RankedTensorType>(attr.getType());
  if (!type || !type.hasStaticShape() ||
      !isSupportedElement(type.getElementType()))
    return std::nullopt;
  Values v;
  v.shape.assign(type.getShape().begin(), type.getShape().end());
  v.element = type.getElementType();
  int64_t n = type.getNumElements();
  if (auto ft = dyn_cast<FloatType>(v.element)) {
    v.f.reserve(n);
    if (ft.isF32()) {
      for (float x : attr.getValues<float>())
        v.f.push_back(x);
    } else if (ft.isF64()) {
      for (double x : attr.getValues<double>())
        v.f.push_back(x);
    } else {
      for (APFloat x : attr.getValues<APFloat>()) {
        bool lost;
        x.convert(APFloat::IEEEdouble(), APFloat::rmNearestTiesToEven, &lost);
        v.f.push_back(x.convertToDouble());
      }
    }
    return v;
  }
  bool isUnsigned = isUnsignedInt(v.element);
  v.i.reserve(n);
  for (const APInt &x : attr.getValues<APInt>())
    v.i.push_back(isUnsigned ? static_cast<int64_t>(x.getZExtValue())
                             : x.getSExtValue());
  return v;
}

DenseElementsAttr writeValues(RankedTensorType type, const Values &v) {
  Type element = type.getElementType();
  if (auto ft = dyn_cast<FloatType>(element)) {
    if (ft.isF64())
      return DenseElementsAttr::get(type, ArrayRef<double>(v.f));
    if (ft.isF32()) {
      std::vector<float> out(v.f.begin(), v.f.end());
      return DenseElementsAttr::get(type, ArrayRef<float>(out));
    }
    SmallVector<APFloat> out;
    out.reserve(v.f.size());
    for (double d : v.f) {
      bool lost;
      APFloat a(d);
      a.convert(ft.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
      out.push_back(a);
    }
    return DenseElementsAttr::get(type, out);
  }
  unsigned w = cast<IntegerType>(element).getWidth();
  if (w == 1) {
    SmallVector<bool> out;
    for (int64_t x : v.i)
      out.push_back(x != 0);
    return DenseElementsAttr::get(type, out);
  }
  SmallVector<APInt> out;
  out.reserve(v.i.size());
  for (int64_t x : v.i)
    out.push_back(APInt(64, static_cast<uint64_t>(x)).trunc(w));
  return DenseElementsAttr::get(type, out);
}

SmallVector<int64_t> stridesOf(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

/// For every element of a tensor of shape `out` (row-major), the flat index
/// `base + sum(index[d] * steps[d])`.
std::vector<int64_t> affineMap(ArrayRef<int64_t> out, ArrayRef<int64_t> steps,
                               int64_t base = 0) {
  int64_t n = product(out);
  int64_t rank = out.size();
  std::vector<int64_t> map(n);
  SmallVector<int64_t> index(rank, 0);
  int64_t current = base;
  for (int64_t k = 0; k < n; ++k) {
    map[k] = current;
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < out[d]) {
        current += steps[d];
        break;
      }
      current -= steps[d] * (out[d] - 1);
      index[d] = 0;
    }
  }
  return map;
}

/// The element of `in` each element of `out` reads when `in` is
/// numpy-broadcast to `out`.
std::vector<int64_t> broadcastMap(ArrayRef<int64_t> in, ArrayRef<int64_t> out) {
  SmallVector<int64_t> steps(out.size(), 0);
  SmallVector<int64_t> inStrides = stridesOf(in);
  int64_t offset = out.size() - in.size();
  for (int64_t d = 0, e = in.size(); d < e; ++d)
    steps[offset + d] = in[d] == 1 ? 0 : inStrides[d];
  return affineMap(out, steps);
}

/// `src`'s elements at `map`, as a tensor of `type`.
Values gatherValues(const Values &src, RankedTensorType type,
                    const std::vector<int64_t> &map) {
  Values out = makeValues(type);
  for (size_t k = 0, e = map.size(); k < e; ++k) {
    if (src.isFloat())
      out.f[k] = src.f[map[k]];
    else
      out.i[k] = src.i[map[k]];
  }
  return out;
}

/// Copies `count` elements from `src` at `from` to `dst` at `to`.
void copyRange(const Values &src, int64_t from, Values &dst, int64_t to,
               int64_t count) {
  if (src.isFloat())
    std::copy_n(src.f.begin() + from, count, dst.f.begin() + to);
  else
    std::copy_n(src.i.begin() + from, count, dst.i.begin() + to);
}

int64_t intAttr(Operation *op, StringRef name, int64_t otherwise) {
  if (auto a = op->getAttrOfType<IntegerAttr>(name))
    return a.getInt();
  return otherwise;
}

double floatAttr(Operation *op, StringRef name, double otherwise) {
  if (auto a = op->getAttrOfType<FloatAttr>(name))
    return a.getValueAsDouble();
  return otherwise;
}

std::optional<SmallVector<int64_t>> arrayAttr(Operation *op, StringRef name) {
  if (auto a = op->getAttrOfType<DenseI64ArrayAttr>(name))
    return SmallVector<int64_t>(a.asArrayRef());
  return std::nullopt;
}

StringRef stringAttr(Operation *op, StringRef name, StringRef otherwise) {
  if (auto a = op->getAttrOfType<StringAttr>(name))
    return a.getValue();
  return otherwise;
}

bool boolAttr(Operation *op, StringRef name, bool otherwise) {
  if (auto a = op->getAttrOfType<BoolAttr>(name))
    return a.getValue();
  return otherwise;
}

int64_t normalizeAxis(int64_t axis, int64_t rank) {
  return axis < 0 ? axis + rank : axis;
}

/// What an evaluator sees: the op, its operands' values (type-only operands
/// without values) and its result types (tuples flattened).
struct EvalContext {
  Operation *op;
  ArrayRef<Values> args;
  ArrayRef<RankedTensorType> results;
};
using Evaluator =
    std::function<FailureOr<SmallVector<Values>>(const EvalContext &)>;
using Result = FailureOr<SmallVector<Values>>;

Result one(Values v) {
  SmallVector<Values> out;
  out.push_back(std::move(v));
  return out;
}

//===--- elementwise --------------------------------------------------===//

using FloatFn = double (*)(double);

/// A unary float function computed in double and rounded once (as the
/// interpreter's `wide` kernels).
Evaluator floatUnary(FloatFn fn) {
  return [fn](const EvalContext &c) -> Result {
    const Values &x = c.args[0];
    if (!x.isFloat())
      return failure();
    Values out = makeValues(c.results[0]);
    for (size_t k = 0; k < x.f.size(); ++k)
      out.f[k] = roundTo(out.element, fn(x.f[k]));
    return one(std::move(out));
  };
}

/// A unary op on any number type: `onFloat` in the dtype's precision,
/// `onInt(value, type)` on integers (wrapped to the type after).
Evaluator numericUnary(FloatFn onFloat, int64_t (*onInt)(int64_t, Type),
                       bool boolOk = false) {
  return [=](const EvalContext &c) -> Result {
    const Values &x = c.args[0];
    Values out = makeValues(c.results[0]);
    if (x.isFloat()) {
      if (!onFloat)
        return failure();
      for (size_t k = 0; k < x.f.size(); ++k)
        out.f[k] = roundTo(out.element, onFloat(x.f[k]));
    } else {
      if (!onInt || (isBool(x.element) && !boolOk) || out.isFloat())
        return failure();
      for (size_t k = 0; k < x.i.size(); ++k)
        out.i[k] = wrapTo(out.element, onInt(x.i[k], x.element));
    }
    return one(std::move(out));
  };
}

/// A float test (isnan, ...): a bool per element.
Evaluator floatTest(bool (*test)(double)) {
  return [test](const EvalContext &c) -> Result {
    const Values &x = c.args[0];
    if (!x.isFloat())
      return failure();
    Values out = makeValues(c.results[0]);
    for (size_t k = 0; k < x.f.size(); ++k)
      out.i[k] = test(x.f[k]);
    return one(std::move(out));
  };
}

/// The binary ops' element functions. A float one gets the element type to
/// round every step to; an integer one gets the operand type (signedness,
/// width) and reports failure for an operation it will not fold.
using FloatBinFn = double (*)(double, double, Type);
using IntBinFn = std::optional<int64_t> (*)(int64_t, int64_t, Type);

/// An elementwise binary op with numpy broadcasting. `resultBool`: the
/// result is a bool of the operation's value (comparisons, logical ops).
Evaluator binary(FloatBinFn onFloat, IntBinFn onInt, bool boolOk = false) {
  return [=](const EvalContext &c) -> Result {
    const Values &a = c.args[0], &b = c.args[1];
    if (a.element != b.element)
      return failure();
    RankedTensorType type = c.results[0];
    Values out = makeValues(type);
    std::vector<int64_t> ma = broadcastMap(a.shape, type.getShape());
    std::vector<int64_t> mb = broadcastMap(b.shape, type.getShape());
    int64_t n = out.size();
    if (a.isFloat()) {
      if (!onFloat)
        return failure();
      for (int64_t k = 0; k < n; ++k) {
        double r = onFloat(a.f[ma[k]], b.f[mb[k]], a.element);
        if (out.isFloat())
          out.f[k] = roundTo(out.element, r);
        else
          out.i[k] = r != 0.0;
      }
      return one(std::move(out));
    }
    if (!onInt || (isBool(a.element) && !boolOk))
      return failure();
    for (int64_t k = 0; k < n; ++k) {
      std::optional<int64_t> r = onInt(a.i[ma[k]], b.i[mb[k]], a.element);
      if (!r)
        return failure();
      out.i[k] = wrapTo(out.element, *r);
    }
    return one(std::move(out));
  };
}

// Integer arithmetic wraps: compute in uint64 (no signed overflow).
int64_t wrapAdd(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) +
                              static_cast<uint64_t>(b));
}
int64_t wrapSub(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) -
                              static_cast<uint64_t>(b));
}
int64_t wrapMul(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) *
                              static_cast<uint64_t>(b));
}
bool intLess(int64_t a, int64_t b, Type t) {
  return isUnsignedInt(t) ? static_cast<uint64_t>(a) < static_cast<uint64_t>(b)
                          : a < b;
}

/// Truncating division and remainder; Relay's x / 0 = 0 and x % 0 = 0.
std::optional<int64_t> intTruncDiv(int64_t a, int64_t b, Type t) {
  if (b == 0)
    return 0;
  if (isUnsignedInt(t))
    return static_cast<int64_t>(static_cast<uint64_t>(a) /
                                static_cast<uint64_t>(b));
  if (b == -1)
    return wrapSub(0, a);
  return a / b;
}
std::optional<int64_t> intTruncMod(int64_t a, int64_t b, Type t) {
  if (b == 0)
    return 0;
  if (isUnsignedInt(t))
    return static_cast<int64_t>(static_cast<uint64_t>(a) %
                                static_cast<uint64_t>(b));
  if (b == -1)
    return 0;
  return a % b;
}
std::optional<int64_t> intFloorDiv(int64_t a, int64_t b, Type t) {
  if (b == 0 || isUnsignedInt(t))
    return intTruncDiv(a, b, t);
  if (b == -1)
    return wrapSub(0, a);
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0)))
    --q;
  return q;
}
std::optional<int64_t> intFloorMod(int64_t a, int64_t b, Type t) {
  if (b == 0 || isUnsignedInt(t))
    return intTruncMod(a, b, t);
  if (b == -1)
    return 0;
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0)))
    r += b;
  return r;
}
/// numpy's shifts: a shift by a negative amount or by the width or more
/// gives 0 (left) or the sign fill (right).
std::optional<int64_t> intShiftLeft(int64_t a, int64_t b, Type t) {
  unsigned w = cast<IntegerType>(t).getWidth();
  if (b < 0 || b >= static_cast<int64_t>(w))
    return 0;
  return static_cast<int64_t>(static_cast<uint64_t>(a) << b);
}
std::optional<int64_t> intShiftRight(int64_t a, int64_t b, Type t) {
  unsigned w = cast<IntegerType>(t).getWidth();
  bool isUnsigned = isUnsignedInt(t);
  if (b < 0 || b >= static_cast<int64_t>(w))
    return isUnsigned || a >= 0 ? 0 : -1;
  if (isUnsigned)
    return static_cast<int64_t>(static_cast<uint64_t>(a) >> b);
  return a >> b;
}

double floatMax(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::nan("");
  return a > b ? a : b;
}
double floatMin(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::nan("");
  return a < b ? a : b;
}

double erfFn(double x) { return std::erf(x); }
double rsqrtFn(double x) { return 1.0 / std::sqrt(x); }
double sigmoidFn(double x) { return 1.0 / (1.0 + std::exp(-x)); }
double signFn(double x) {
  if (std::isnan(x))
    return x;
  return x > 0 ? 1.0 : (x < 0 ? -1.0 : 0.0);
}
double roundHalfAway(double x) { return std::round(x); }
double identityFn(double x) { return x; }
double negateFn(double x) { return -x; }
double reluFn(double x) { return floatMax(x, 0.0); }

/// Transcendental unaries: floats only, computed in double and rounded to the
/// dtype.
void addFloatUnaryEvaluators(llvm::StringMap<Evaluator> &t) {
  auto exact = [](double (*fn)(double)) { return floatUnary(fn); };
  t["relay.exp"] = exact([](double x) { return std::exp(x); });
  t["relay.fast_exp"] = t["relay.exp"];
  t["relay.log"] = exact([](double x) { return std::log(x); });
  t["relay.log2"] = exact([](double x) { return std::log2(x); });
  t["relay.log10"] = exact([](double x) { return std::log10(x); });
  t["relay.sqrt"] = exact([](double x) { return std::sqrt(x); });
  t["relay.rsqrt"] = exact(rsqrtFn);
  t["relay.tanh"] = exact([](double x) { return std::tanh(x); });
  t["relay.fast_tanh"] = t["relay.tanh"];
  t["relay.sigmoid"] = exact(sigmoidFn);
  t["relay.sin"] = exact([](double x) { return std::sin(x); });
  t["relay.cos"] = exact([](double x) { return std::cos(x); });
  t["relay.tan"] = exact([](double x) { return std::tan(x); });
  t["relay.asin"] = exact([](double x) { return std::asin(x); });
  t["relay.acos"] = exact([](double x) { return std::acos(x); });
  t["relay.atan"] = exact([](double x) { return std::atan(x); });
  t["relay.sinh"] = exact([](double x) { return std::sinh(x); });
  t["relay.cosh"] = exact([](double x) { return std::cosh(x); });
  t["relay.acosh"] = exact([](double x) { return std::acosh(x); });
  t["relay.asinh"] = exact([](double x) { return std::asinh(x); });
  t["relay.atanh"] = exact([](double x) { return std::atanh(x); });
  t["relay.erf"] = exact(erfFn);
  t["relay.fast_erf"] = t["relay.erf"];
}

/// Unaries on floats and integers (integers wrap), and the float tests.
void addNumericUnaryEvaluators(llvm::StringMap<Evaluator> &t) {
  auto keepInt = [](int64_t x, Type) { return x; };
  t["relay.negative"] =
      numericUnary(negateFn, [](int64_t x, Type) { return wrapSub(0, x); });
  t["relay.abs"] =
      numericUnary([](double x) { return std::fabs(x); },
                   [](int64_t x, Type ty) {
                     return isUnsignedInt(ty) || x >= 0 ? x : wrapSub(0, x);
                   });
  t["relay.sign"] = numericUnary(signFn, [](int64_t x, Type ty) -> int64_t {
    if (isUnsignedInt(ty))
      return x != 0;
    return x > 0 ? 1 : (x < 0 ? -1 : 0);
  });
  t["relay.ceil"] =
      numericUnary([](double x) { return std::ceil(x); }, keepInt);
  t["relay.floor"] =
      numericUnary([](double x) { return std::floor(x); }, keepInt);
  t["relay.round"] = numericUnary(roundHalfAway, keepInt);
  t["relay.trunc"] =
      numericUnary([](double x) { return std::trunc(x); }, keepInt);
  t["relay.copy"] = numericUnary(identityFn, keepInt, /*boolOk=*/true);
  t["relay.nn.relu"] = numericUnary(reluFn, [](int64_t x, Type ty) {
    return isUnsignedInt(ty) || x > 0 ? x : int64_t(0);
  });
  t["relay.bitwise_not"] = numericUnary(
      nullptr, [](int64_t x, Type) { return ~x; }, /*boolOk=*/true);
  t["relay.logical_not"] = numericUnary(
      nullptr, [](int64_t x, Type) -> int64_t { return x == 0; },
      /*boolOk=*/true);
  t["relay.isnan"] = floatTest([](double x) { return std::isnan(x); });
  t["relay.isinf"] = floatTest([](double x) { return std::isinf(x); });
  t["relay.isfinite"] = floatTest([](double x) { return std::isfinite(x); });
}

/// add, subtract, multiply, divide, floor_divide, trunc_divide, mod,
/// trunc_mod, floor_mod, power.
void addArithmeticEvaluators(llvm::StringMap<Evaluator> &t) {
  // Float binaries: every step rounded to the dtype (numpy computes
  // `a - floor(a / b) * b` in float32 for float32 operands).
  t["relay.add"] = binary([](double a, double b, Type) { return a + b; },
                          [](int64_t a, int64_t b, Type) {
                            return std::optional<int64_t>(wrapAdd(a, b));
                          });
  t["relay.subtract"] = binary([](double a, double b, Type) { return a - b; },
                               [](int64_t a, int64_t b, Type) {
                                 return std::optional<int64_t>(wrapSub(a, b));
                               });
  t["relay.multiply"] = binary([](double a, double b, Type) { return a * b; },
                               [](int64_t a, int64_t b, Type) {
                                 return std::optional<int64_t>(wrapMul(a, b));
                               });
  t["relay.divide"] =
      binary([](double a, double b, Type) { return a / b; }, intTruncDiv);
  t["relay.floor_divide"] =
      binary([](double a, double b,
                Type ty) { return std::floor(roundTo(ty, a / b)); },
             intFloorDiv);
  t["relay.trunc_divide"] =
      binary([](double a, double b,
                Type ty) { return std::trunc(roundTo(ty, a / b)); },
             intTruncDiv);
  t["relay.mod"] = binary(
      [](double a, double b, Type) { return std::fmod(a, b); }, intTruncMod);
  t["relay.trunc_mod"] = t["relay.mod"];
  t["relay.floor_mod"] = binary(
      [](double a, double b, Type ty) {
        double q = std::floor(roundTo(ty, a / b));
        return a - roundTo(ty, q * b);
      },
      intFloorMod);
  t["relay.power"] = binary(
      [](double a, double b, Type ty) {
        // numpy: powf for float32 (and float16/bfloat16, via float32).
        if (ty.isF64())
          return std::pow(a, b);
        return static_cast<double>(
            std::pow(static_cast<float>(a), static_cast<float>(b)));
      },
      nullptr);
}

/// maximum, minimum and the comparisons (bool results).
void addComparisonEvaluators(llvm::StringMap<Evaluator> &t) {
  t["relay.maximum"] =
      binary([](double a, double b, Type) { return floatMax(a, b); },
             [](int64_t a, int64_t b, Type ty) {
               return std::optional<int64_t>(intLess(a, b, ty) ? b : a);
             },
             /*boolOk=*/true);
  t["relay.minimum"] =
      binary([](double a, double b, Type) { return floatMin(a, b); },
             [](int64_t a, int64_t b, Type ty) {
               return std::optional<int64_t>(intLess(a, b, ty) ? a : b);
             },
             /*boolOk=*/true);
  t["relay.equal"] =
      binary([](double a, double b, Type) -> double { return a == b; },
             [](int64_t a, int64_t b, Type) -> std::optional<int64_t> {
               return a == b;
             },
             true);
  t["relay.not_equal"] =
      binary([](double a, double b, Type) -> double { return a != b; },
             [](int64_t a, int64_t b, Type) -> std::optional<int64_t> {
               return a != b;
             },
             true);
  t["relay.less"] =
      binary([](double a, double b, Type) -> double { return a < b; },
             [](int64_t a, int64_t b, Type ty) -> std::optional<int64_t> {
               return intLess(a, b, ty);
             },
             true);
  t["relay.less_equal"] =
      binary([](double a, double b, Type) -> double { return a <= b; },
             [](int64_t a, int64_t b, Type ty) -> std::optional<int64_t> {
               return !intLess(b, a, ty);
             },
             true);
  t["relay.greater"] =
      binary([](double a, double b, Type) -> double { return a > b; },
             [](int64_t a, int64_t b, Type ty) -> std::optional<int64_t> {
               return intLess(b, a, ty);
             },
             true);
  t["relay.greater_equal"] =
      binary([](double a, double b, Type) -> double { return a >= b; },
             [](int64_t a, int64_t b, Type ty) -> std::optional<int64_t> {
               return !intLess(a, b, ty);
             },
             true);
}

/// The logical and bitwise binaries and the shifts.
void addLogicalEvaluators(llvm::StringMap<Evaluator> &t) {
  t["relay.logical_and"] =
      binary([](double a, double b, Type) -> double { return a && b; },
             [](int64_t a, int64_t b, Type) -> std::optional<int64_t> {
               return a && b;
             },
             true);
  t["relay.logical_or"] =
      binary([](double a, double b, Type) -> double { return a || b; },
             [](int64_t a, int64_t b, Type) -> std::optional<int64_t> {
               return a || b;
             },
             true);
  t["relay.logical_xor"] = binary(
      [](double a, double b, Type) -> double { return (a != 0) != (b != 0); },
      [](int64_t a, int64_t b, Type) -> std::optional<int64_t> {
        return (a != 0) != (b != 0);
      },
      true);
  t["relay.bitwise_and"] = binary(
      nullptr,
      [](int64_t a, int64_t b, Type) -> std::optional<int64_t> {
        return a & b;
      },
      true);
  t["relay.bitwise_or"] = binary(
      nullptr,
      [](int64_t a, int64_t b, Type) -> std::optional<int64_t> {
        return a | b;
      },
      true);
  t["relay.bitwise_xor"] = binary(
      nullptr,
      [](int64_t a, int64_t b, Type) -> std::optional<int64_t> {
        return a ^ b;
      },
      true);
  t["relay.left_shift"] = binary(nullptr, intShiftLeft);
  t["relay.right_shift"] = binary(nullptr, intShiftRight);
}

const llvm::StringMap<Evaluator> &elementwiseEvaluators() {
  static const llvm::StringMap<Evaluator> table = [] {
    llvm::StringMap<Evaluator> t;
    addFloatUnaryEvaluators(t);
    addNumericUnaryEvaluators(t);
    addArithmeticEvaluators(t);
    addComparisonEvaluators(t);
    addLogicalEvaluators(t);
    return t;
  }();
  return table;
}

//===--- casts, selection ---------------------------------------------===//

/// `v` (of type `from`) as an element of `to`, as the interpreter's cast:
/// floats to integers truncate (NaN/out-of-range values are not folded),
/// to bool is `!= 0`, integers wrap. Sets `ok` false when not folded.
void castElement(const Values &from, int64_t k, Values &to, int64_t at,
                 bool &ok) {
  Type dst = to.element;
  if (from.isFloat()) {
    double x = from.f[k];
    if (to.isFloat()) {
      to.f[at] = roundTo(dst, x);
      return;
    }
    if (isBool(dst)) {
      to.i[at] = x != 0.0;
      return;
    }
    double t = std::trunc(x);
    unsigned w = cast<IntegerType>(dst).getWidth();
    bool isUnsigned = isUnsignedInt(dst);
    double lo = isUnsigned ? 0.0 : -std::ldexp(1.0, w - 1);
    double hi = isUnsigned ? std::ldexp(1.0, w) : std::ldexp(1.0, w - 1);
    if (!(t >= lo && t < hi)) {
      ok = false;
      return;
    }
    to.i[at] = isUnsigned ? static_cast<int64_t>(static_cast<uint64_t>(t))
                          : static_cast<int64_t>(t);
    return;
  }
  int64_t x = from.i[k];
  if (to.isFloat()) {
    bool isUnsigned = isUnsignedInt(from.element);
    double d = isUnsigned ? static_cast<double>(static_cast<uint64_t>(x))
                          : static_cast<double>(x);
    // int64 -> double -> float32 could round twice: not folded.
    if (!dst.isF64() && std::fabs(d) >= std::ldexp(1.0, 53)) {
      ok = false;
      return;
    }
    to.f[at] = roundTo(dst, d);
    return;
  }
  to.i[at] = isBool(dst) ? (x != 0) : wrapTo(dst, x);
}

Result castValues(const Values &x, RankedTensorType type) {
  Values out = makeValues(type);
  bool ok = true;
  for (int64_t k = 0, n = x.size(); k < n && ok; ++k)
    castElement(x, k, out, k, ok);
  if (!ok)
    return failure();
  return one(std::move(out));
}

Result evalCast(const EvalContext &c) {
  return castValues(c.args[0], c.results[0]);
}

Result evalClip(const EvalContext &c) {
  const Values &x = c.args[0];
  double lo = floatAttr(c.op, "a_min", -INFINITY);
  double hi = floatAttr(c.op, "a_max", INFINITY);
  Values out = makeValues(c.results[0]);
  if (x.isFloat()) {
    for (size_t k = 0; k < x.f.size(); ++k)
      out.f[k] = roundTo(out.element, floatMin(floatMax(x.f[k], lo), hi));
    return one(std::move(out));
  }
  if (isBool(x.element) ||
      isUnsignedInt(x.element) && cast<IntegerType>(x.element).getWidth() == 64)
    return failure();
  unsigned w = cast<IntegerType>(x.element).getWidth();
  bool isUnsigned = isUnsignedInt(x.element);
  double tmin = isUnsigned ? 0.0 : -std::ldexp(1.0, w - 1);
  double tmax =
      isUnsigned ? std::ldexp(1.0, w) - 1 : std::ldexp(1.0, w - 1) - 1;
  double l = std::isfinite(lo) ? std::trunc(lo) : lo;
  double h = std::isfinite(hi) ? std::trunc(hi) : hi;
  l = std::max(l, tmin);
  h = std::min(h, tmax);
  if (std::isnan(l) || std::isnan(h))
    return failure();
  for (size_t k = 0; k < x.i.size(); ++k) {
    double v = static_cast<double>(x.i[k]);
    if (std::fabs(v) >= std::ldexp(1.0, 53)) // doubles compare inexactly
      return failure();
    int64_t r = x.i[k];
    if (v < l)
      r = static_cast<int64_t>(l);
    if (static_cast<double>(r) > h)
      r = static_cast<int64_t>(h);
    out.i[k] = r;
  }
  return one(std::move(out));
}

/// fixed_point_multiply: TVM's q_multiply_shift in wrapping int64, truncated
/// to int32 (sign-extended for int64 data), as its lowering computes it.
Result evalFixedPointMultiply(const EvalContext &c) {
  const Values &x = c.args[0];
  int64_t multiplier = intAttr(c.op, "multiplier", 0);
  int64_t shift = intAttr(c.op, "shift", 0);
  int64_t left = shift > 0 ? shift : 0, right = 31 + (shift > 0 ? 0 : -shift);
  if (x.isFloat() || right > 63)
    return failure();
  Values out = makeValues(c.results[0]);
  for (size_t k = 0; k < x.i.size(); ++k) {
    uint64_t v = (static_cast<uint64_t>(x.i[k]) << left) *
                     static_cast<uint64_t>(multiplier) +
                 (uint64_t(1) << (right - 1));
    int64_t r = static_cast<int64_t>(v) >> right;
    out.i[k] = static_cast<int32_t>(static_cast<uint32_t>(r));
  }
  return one(std::move(out));
}

Result evalWhere(const EvalContext &c) {
  const Values &cond = c.args[0], &x = c.args[1], &y = c.args[2];
  if (x.element != y.element)
    return failure();
  RankedTensorType type = c.results[0];
  Values out = makeValues(type);
  std::vector<int64_t> mc = broadcastMap(cond.shape, type.getShape());
  std::vector<int64_t> mx = broadcastMap(x.shape, type.getShape());
  std::vector<int64_t> my = broadcastMap(y.shape, type.getShape());
  for (int64_t k = 0, n = out.size(); k < n; ++k) {
    bool take = cond.isFloat() ? cond.f[mc[k]] != 0.0 : cond.i[mc[k]] != 0;
    if (out.isFloat())
      out.f[k] = take ? x.f[mx[k]] : y.f[my[k]];
    else
      out.i[k] = take ? x.i[mx[k]] : y.i[my[k]];
  }
  return one(std::move(out));
}

Result evalLeakyRelu(const EvalContext &c) {
  const Values &x = c.args[0];
  if (!x.isFloat())
    return failure();
  double alpha = floatAttr(c.op, "alpha", 0.01);
  Values out = makeValues(c.results[0]);
  for (size_t k = 0; k < x.f.size(); ++k)
    out.f[k] = roundTo(out.element, x.f[k] > 0 ? x.f[k] : x.f[k] * alpha);
  return one(std::move(out));
}

Result evalBiasAdd(const EvalContext &c) {
  const Values &x = c.args[0], &b = c.args[1];
  if (x.element != b.element || b.shape.size() != 1 || isBool(x.element))
    return failure();
  int64_t axis = normalizeAxis(intAttr(c.op, "axis", 1), x.shape.size());
  SmallVector<int64_t> steps(x.shape.size(), 0);
  steps[axis] = 1;
  std::vector<int64_t> mb = affineMap(x.shape, steps);
  Values out = makeValues(c.results[0]);
  for (int64_t k = 0, n = out.size(); k < n; ++k) {
    if (out.isFloat())
      out.f[k] = roundTo(out.element, x.f[k] + b.f[mb[k]]);
    else
      out.i[k] = wrapTo(out.element, wrapAdd(x.i[k], b.i[mb[k]]));
  }
  return one(std::move(out));
}

//===--- data movement ------------------------------------------------===//

/// reshape, reshape_like, squeeze, expand_dims, batch_flatten: the same
/// elements in the same order.
Result evalSameElements(const EvalContext &c) {
  Values out = c.args[0];
  RankedTensorType type = c.results[0];
  if (type.getElementType() != out.element ||
      type.getNumElements() != out.size())
    return failure();
  out.shape.assign(type.getShape().begin(), type.getShape().end());
  return one(std::move(out));
}

Result evalTranspose(const EvalContext &c) {
  const Values &x = c.args[0];
  int64_t rank = x.shape.size();
  SmallVector<int64_t> perm;
  if (auto axes = arrayAttr(c.op, "axes"); axes && !axes->empty())
    for (int64_t a : *axes)
      perm.push_back(normalizeAxis(a, rank));
  else
    for (int64_t d = rank - 1; d >= 0; --d)
      perm.push_back(d);
  SmallVector<int64_t> strides = stridesOf(x.shape), steps;
  for (int64_t p : perm)
    steps.push_back(strides[p]);
  return one(
      gatherValues(x, c.results[0], affineMap(c.results[0].getShape(), steps)));
}

/// layout_transform (e.g. OIHW -> OIHW4i4o, AlterOpLayout's weights): each
/// output element's whole index per primal axis (outer * block + inner in
/// dst), split again by the src blocks, is its input element.
Result evalLayoutTransform(const EvalContext &c) {
  auto src = rel::parseBlockedLayout(c.op, stringAttr(c.op, "src_layout", ""),
                                     "src_layout");
  auto dst = rel::parseBlockedLayout(c.op, stringAttr(c.op, "dst_layout", ""),
                                     "dst_layout");
  if (failed(src) || failed(dst))
    return failure();
  auto block = [](ArrayRef<rel::LayoutAxis> axes, char primal) -> int64_t {
    for (const rel::LayoutAxis &a : axes)
      if (a.primal == primal && a.isSub())
        return a.factor;
    return 1;
  };
  const Values &x = c.args[0];
  ArrayRef<int64_t> out = c.results[0].getShape();
  SmallVector<int64_t> inStrides = stridesOf(x.shape), index(out.size(), 0);
  std::vector<int64_t> map(product(out));
  for (int64_t &from : map) {
    int64_t whole[26] = {};
    for (auto [d, a] : llvm::enumerate(*dst))
      whole[a.primal - 'A'] +=
          a.isSub() ? index[d] : index[d] * block(*dst, a.primal);
    from = 0;
    for (auto [d, a] : llvm::enumerate(*src)) {
      int64_t w = whole[a.primal - 'A'], b = block(*src, a.primal);
      from += (a.isSub() ? w % b : w / b) * inStrides[d];
    }
    for (int64_t d = static_cast<int64_t>(out.size()) - 1; d >= 0; --d) {
      if (++index[d] < out[d])
        break;
      index[d] = 0;
    }
  }
  return one(gatherValues(x, c.results[0], map));
}

Result evalBroadcastTo(const EvalContext &c) {
  return one(
      gatherValues(c.args[0], c.results[0],
                   broadcastMap(c.args[0].shape, c.results[0].getShape())));
}

Result evalReverse(const EvalContext &c) {
  const Values &x = c.args[0];
  int64_t axis = normalizeAxis(intAttr(c.op, "axis", 0), x.shape.size());
  SmallVector<int64_t> steps = stridesOf(x.shape);
  int64_t base = (x.shape[axis] - 1) * steps[axis];
  steps[axis] = -steps[axis];
  return one(gatherValues(x, c.results[0], affineMap(x.shape, steps, base)));
}

Result evalTile(const EvalContext &c) {
  const Values &x = c.args[0];
  RankedTensorType type = c.results[0];
  ArrayRef<int64_t> out = type.getShape();
  int64_t rank = out.size(), offset = rank - x.shape.size();
  SmallVector<int64_t> in(rank, 1);
  for (int64_t d = 0, e = x.shape.size(); d < e; ++d)
    in[offset + d] = x.shape[d];
  SmallVector<int64_t> strides = stridesOf(in), index(rank, 0);
  std::vector<int64_t> map(type.getNumElements());
  for (size_t k = 0; k < map.size(); ++k) {
    int64_t flat = 0;
    for (int64_t d = 0; d < rank; ++d)
      flat += (index[d] % in[d]) * strides[d];
    map[k] = flat;
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < out[d])
        break;
      index[d] = 0;
    }
  }
  return one(gatherValues(x, type, map));
}

Result evalRepeat(const EvalContext &c) {
  const Values &x = c.args[0];
  int64_t axis = normalizeAxis(intAttr(c.op, "axis", 0), x.shape.size());
  int64_t repeats = intAttr(c.op, "repeats", 1);
  RankedTensorType type = c.results[0];
  SmallVector<int64_t> strides = stridesOf(x.shape);
  ArrayRef<int64_t> out = type.getShape();
  int64_t rank = out.size();
  SmallVector<int64_t> index(rank, 0);
  std::vector<int64_t> map(type.getNumElements());
  for (size_t k = 0; k < map.size(); ++k) {
    int64_t flat = 0;
    for (int64_t d = 0; d < rank; ++d)
      flat += (d == axis ? index[d] / repeats : index[d]) * strides[d];
    map[k] = flat;
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < out[d])
        break;
      index[d] = 0;
    }
  }
  return one(gatherValues(x, type, map));
}

/// concatenate (`stacked` false) or stack (true) along `axis`.
Result joinValues(const EvalContext &c, bool stacked) {
  RankedTensorType type = c.results[0];
  int64_t rank = type.getRank();
  int64_t axis = normalizeAxis(intAttr(c.op, "axis", 0), rank);
  for (const Values &a : c.args)
    if (a.element != type.getElementType())
      return failure();
  int64_t outer = product(type.getShape().take_front(axis));
  int64_t inner = product(type.getShape().drop_front(axis + 1));
  Values out = makeValues(type);
  int64_t at = 0;
  for (int64_t o = 0; o < outer; ++o)
    for (const Values &a : c.args) {
      int64_t len = (stacked ? 1 : a.shape[axis]) * inner;
      copyRange(a, o * len, out, at, len);
      at += len;
    }
  return one(std::move(out));
}

Result evalSplit(const EvalContext &c) {
  const Values &x = c.args[0];
  int64_t axis = normalizeAxis(intAttr(c.op, "axis", 0), x.shape.size());
  int64_t outer = product(ArrayRef<int64_t>(x.shape).take_front(axis));
  int64_t row = product(ArrayRef<int64_t>(x.shape).drop_front(axis));
  int64_t inner = product(ArrayRef<int64_t>(x.shape).drop_front(axis + 1));
  SmallVector<Values> outs;
  int64_t start = 0;
  for (RankedTensorType type : c.results) {
    if (type.getRank() != static_cast<int64_t>(x.shape.size()))
      return failure();
    Values out = makeValues(type);
    int64_t len = type.getDimSize(axis) * inner;
    for (int64_t o = 0; o < outer; ++o)
      copyRange(x, o * row + start, out, o * len, len);
    start += len;
    outs.push_back(std::move(out));
  }
  if (start != row)
    return failure();
  return outs;
}

/// strided_slice with Relay's clamping (interpreter_ops._strided_slice).
Result evalStridedSlice(const EvalContext &c) {
  const Values &x = c.args[0];
  int64_t rank = x.shape.size();
  SmallVector<int64_t> begin = *arrayAttr(c.op, "begin");
  SmallVector<int64_t> end = *arrayAttr(c.op, "end");
  SmallVector<int64_t> strides =
      arrayAttr(c.op, "strides").value_or(SmallVector<int64_t>{1});
  if (strides.empty())
    strides.push_back(1);
  std::optional<SmallVector<int64_t>> givenAxes = arrayAttr(c.op, "axes");
  bool sizeMode = stringAttr(c.op, "slice_mode", "end") == "size";
  SmallVector<int64_t> axes;
  if (givenAxes)
    for (int64_t a : *givenAxes)
      axes.push_back(normalizeAxis(a, rank));
  else
    for (int64_t k = 0, e = begin.size(); k < e; ++k)
      axes.push_back(k);
  SmallVector<int64_t> first(rank, 0), step(rank, 1);
  for (int64_t k = 0, e = axes.size(); k < e; ++k) {
    int64_t ax = axes[k], n = x.shape[ax];
    int64_t st = 1;
    if (!sizeMode) {
      if (k < static_cast<int64_t>(strides.size()))
        st = strides[k];
      else if (givenAxes && strides.size() == 1)
        st = strides[0];
    }
    if (st == 0)
      return failure();
    int64_t b = begin[k] < 0 ? begin[k] + n : begin[k];
    b = st > 0 ? std::clamp<int64_t>(b, 0, n)
               : std::clamp<int64_t>(b, -1, n - 1);
    first[ax] = b;
    step[ax] = st;
  }
  SmallVector<int64_t> strideIn = stridesOf(x.shape), steps(rank);
  int64_t base = 0;
  RankedTensorType type = c.results[0];
  for (int64_t d = 0; d < rank; ++d) {
    // Each dim's slice must stay inside the data (the result type agrees).
    int64_t len = type.getDimSize(d);
    if (len > 0 && (first[d] < 0 || first[d] >= x.shape[d] ||
                    first[d] + (len - 1) * step[d] < 0 ||
                    first[d] + (len - 1) * step[d] >= x.shape[d]))
      return failure();
    base += first[d] * strideIn[d];
    steps[d] = step[d] * strideIn[d];
  }
  return one(gatherValues(x, type, affineMap(type.getShape(), steps, base)));
}

/// take with batch_dims 0: clip/wrap/fast(in range)/nan(float) indices.
Result evalTake(const EvalContext &c) {
  const Values &x = c.args[0], &indices = c.args[1];
  if (indices.isFloat() || intAttr(c.op, "batch_dims", 0) != 0)
    return failure();
  StringRef mode = stringAttr(c.op, "mode", "clip");
  std::optional<int64_t> axisAttr;
  if (auto a = c.op->getAttrOfType<IntegerAttr>("axis"))
    axisAttr = a.getInt();
  SmallVector<int64_t> shape = x.shape;
  int64_t axis = 0;
  if (axisAttr)
    axis = normalizeAxis(*axisAttr, shape.size());
  else
    shape = {x.size()};
  int64_t n = shape[axis];
  int64_t outer = product(ArrayRef<int64_t>(shape).take_front(axis));
  int64_t inner = product(ArrayRef<int64_t>(shape).drop_front(axis + 1));
  RankedTensorType type = c.results[0];
  Values out = makeValues(type);
  int64_t count = indices.size(), at = 0;
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t j = 0; j < count; ++j, at += inner) {
      int64_t i = indices.i[j];
      bool inRange = i >= 0 && i < n;
      if (mode == "wrap") {
        if (n == 0)
          return failure();
        i = ((i % n) + n) % n;
      } else if (mode == "fast" && !inRange) {
        return failure();
      } else if (mode == "nan" && !inRange) {
        if (!out.isFloat())
          return failure();
        std::fill_n(out.f.begin() + at, inner, std::nan(""));
        continue;
      } else {
        i = std::clamp<int64_t>(i, 0, n - 1);
      }
      if (n == 0)
        return failure();
      copyRange(x, (o * n + i) * inner, out, at, inner);
    }
  return one(std::move(out));
}

/// full(fill_value) and full_like(data, fill_value): the fill value cast
/// to the result dtype, everywhere.
Result evalFull(const EvalContext &c, unsigned fillOperand) {
  const Values &fill = c.args[fillOperand];
  if (fill.size() != 1)
    return failure();
  Values one1 =
      makeValues(RankedTensorType::get({}, c.results[0].getElementType()));
  bool ok = true;
  castElement(fill, 0, one1, 0, ok);
  if (!ok)
    return failure();
  Values out = makeValues(c.results[0]);
  if (out.isFloat())
    std::fill(out.f.begin(), out.f.end(), one1.f[0]);
  else
    std::fill(out.i.begin(), out.i.end(), one1.i[0]);
  return one(std::move(out));
}

//===--- reductions ---------------------------------------------------===//

/// For each element of data of `shape`, the flat index of the reduction
/// result it goes into (axes as the reduce ops' `axis`/`exclude`); `count`
/// is the number of results.
LogicalResult reductionMap(Operation *op, ArrayRef<int64_t> shape,
                           std::vector<int64_t> &into, int64_t &count) {
  int64_t rank = shape.size();
  SmallVector<bool> reduced(rank, false);
  std::optional<SmallVector<int64_t>> axes = arrayAttr(op, "axis");
  if (!axes || axes->empty()) {
    reduced.assign(rank, true);
  } else {
    for (int64_t a : *axes) {
      int64_t d = normalizeAxis(a, rank);
      if (d < 0 || d >= rank)
        return failure();
      reduced[d] = true;
    }
    if (boolAttr(op, "exclude", false))
      for (int64_t d = 0; d < rank; ++d)
        reduced[d] = !reduced[d];
  }
  SmallVector<int64_t> kept;
  for (int64_t d = 0; d < rank; ++d)
    if (!reduced[d])
      kept.push_back(shape[d]);
  SmallVector<int64_t> keptStrides = stridesOf(kept), steps(rank, 0);
  for (int64_t d = 0, j = 0; d < rank; ++d)
    if (!reduced[d])
      steps[d] = keptStrides[j++];
  into = affineMap(shape, steps);
  count = product(kept);
  return success();
}

/// sum/mean/max/min/prod/all/any over `axis` (none or empty: all; with
/// `exclude` the other axes). Floats accumulate in double, rounded once.
Result evalReduce(const EvalContext &c, StringRef kind) {
  const Values &x = c.args[0];
  std::vector<int64_t> into;
  int64_t kept = 0;
  if (failed(reductionMap(c.op, x.shape, into, kept)))
    return failure();
  RankedTensorType type = c.results[0];
  int64_t n = type.getNumElements();
  if (n != kept || type.getElementType() != x.element)
    return failure();
  int64_t count = n == 0 ? 0 : x.size() / n;
  Values out = makeValues(type);
  if (x.isFloat()) {
    std::vector<double> acc(n, kind == "prod"  ? 1.0
                               : kind == "max" ? -INFINITY
                               : kind == "min" ? INFINITY
                                               : 0.0);
    for (int64_t k = 0, e = x.size(); k < e; ++k) {
      double &a = acc[into[k]];
      double v = x.f[k];
      if (kind == "sum" || kind == "mean")
        a += v;
      else if (kind == "prod")
        a *= v;
      else if (kind == "max")
        a = floatMax(a, v);
      else if (kind == "min")
        a = floatMin(a, v);
      else
        return failure();
    }
    for (int64_t k = 0; k < n; ++k)
      out.f[k] = roundTo(out.element, kind == "mean"
                                          ? acc[k] / static_cast<double>(count)
                                          : acc[k]);
    return one(std::move(out));
  }
  Type t = x.element;
  bool boolData = isBool(t);
  if (boolData != (kind == "all" || kind == "any"))
    return failure();
  int64_t init = 0;
  if (kind == "prod" || kind == "all")
    init = 1;
  std::vector<int64_t> acc(n, init);
  std::vector<bool> seen(n, false);
  for (int64_t k = 0, e = x.size(); k < e; ++k) {
    int64_t &a = acc[into[k]];
    int64_t v = x.i[k];
    if (kind == "sum" || kind == "mean")
      a = wrapAdd(a, v);
    else if (kind == "prod")
      a = wrapMul(a, v);
    else if (kind == "all")
      a = a && v;
    else if (kind == "any")
      a = a || v;
    else if (!seen[into[k]] ||
             (kind == "max" ? intLess(a, v, t) : intLess(v, a, t)))
      a = v;
    seen[into[k]] = true;
  }
  for (int64_t k = 0; k < n; ++k) {
    if ((kind == "max" || kind == "min") && !seen[k])
      return failure();
    int64_t r = acc[k];
    if (kind == "mean") {
      // The sum is an int64 (uint64) in the interpreter, divided there.
      Type wide = IntegerType::get(t.getContext(), 64,
                                   isUnsignedInt(t) ? IntegerType::Unsigned
                                                    : IntegerType::Signless);
      r = *intTruncDiv(r, count, wide);
    }
    out.i[k] = wrapTo(t, r);
  }
  return one(std::move(out));
}

/// argmax/argmin (int32): the first extreme along the reduced axes (their
/// row-major order), the last with `select_last_index`; NaN is the extreme
/// (numpy's). An empty reduction is a run-time error: not folded.
Result evalArgReduce(const EvalContext &c, bool largest) {
  const Values &x = c.args[0];
  std::vector<int64_t> into;
  int64_t n = 0;
  if (failed(reductionMap(c.op, x.shape, into, n)) ||
      c.results[0].getNumElements() != n)
    return failure();
  if (n == 0 || x.size() % n != 0 || x.size() == 0)
    return failure();
  bool last = boolAttr(c.op, "select_last_index", false);
  std::vector<int64_t> best(n, -1), seen(n, 0);
  std::vector<double> bestF(n, 0.0);
  std::vector<int64_t> bestI(n, 0);
  for (int64_t k = 0, e = x.size(); k < e; ++k) {
    int64_t o = into[k], pos = seen[o]++;
    bool take;
    if (best[o] < 0) {
      take = true;
    } else if (x.isFloat()) {
      double v = x.f[k], b = bestF[o];
      if (std::isnan(b))
        take = last && std::isnan(v);
      else if (std::isnan(v))
        take = true;
      else
        take = largest ? (last ? v >= b : v > b) : (last ? v <= b : v < b);
    } else {
      int64_t v = x.i[k], b = bestI[o];
      bool less = intLess(v, b, x.element), more = intLess(b, v, x.element);
      take = largest ? (last ? !less : more) : (last ? !more : less);
    }
    if (take) {
      best[o] = pos;
      if (x.isFloat())
        bestF[o] = x.f[k];
      else
        bestI[o] = x.i[k];
    }
  }
  Values out = makeValues(c.results[0]);
  if (out.isFloat())
    return failure();
  for (int64_t o = 0; o < n; ++o)
    out.i[o] = wrapTo(out.element, best[o]);
  return one(std::move(out));
}

//===--- products ----------------------------------------------------===//

/// out[b, m, n] = sum_k x[b, m, k] * y[b, k, n] from element maps, in double
/// (floats, rounded once) or int64 (wrapped to the result dtype).
Result matmulValues(const Values &x, const Values &y, RankedTensorType type,
                    int64_t batch, int64_t rows, int64_t cols, int64_t depth,
                    function_ref<int64_t(int64_t, int64_t, int64_t)> xAt,
                    function_ref<int64_t(int64_t, int64_t, int64_t)> yAt) {
  if (batch * rows * cols * std::max<int64_t>(depth, 1) > kMaxFoldedWork)
    return failure();
  if (x.element != y.element || isBool(x.element))
    return failure();
  Values out = makeValues(type);
  bool floats = x.isFloat();
  if (!floats && out.isFloat())
    return failure();
  int64_t at = 0;
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t m = 0; m < rows; ++m)
      for (int64_t n = 0; n < cols; ++n, ++at) {
        if (floats) {
          double s = 0;
          for (int64_t k = 0; k < depth; ++k)
            s += x.f[xAt(b, m, k)] * y.f[yAt(b, k, n)];
          if (out.isFloat())
            out.f[at] = roundTo(out.element, s);
          else
            return failure();
        } else {
          int64_t s = 0;
          for (int64_t k = 0; k < depth; ++k)
            s = wrapAdd(s, wrapMul(x.i[xAt(b, m, k)], y.i[yAt(b, k, n)]));
          out.i[at] = wrapTo(out.element, s);
        }
      }
  return one(std::move(out));
}

Result evalDense(const EvalContext &c) {
  const Values &x = c.args[0], &w = c.args[1];
  if (x.shape.empty() || w.shape.size() != 2 || x.shape.back() != w.shape[1])
    return failure();
  int64_t depth = w.shape[1], units = w.shape[0];
  int64_t rows = x.size() / std::max<int64_t>(depth, 1);
  if (depth == 0)
    rows = c.results[0].getNumElements() / std::max<int64_t>(units, 1);
  return matmulValues(
      x, w, c.results[0], 1, rows, units, depth,
      [&](int64_t, int64_t m, int64_t k) { return m * depth + k; },
      [&](int64_t, int64_t k, int64_t n) { return n * depth + k; });
}

Result evalBatchMatmul(const EvalContext &c) {
  const Values &x = c.args[0], &y = c.args[1];
  if (x.shape.size() != 3 || y.shape.size() != 3)
    return failure();
  bool ta = boolAttr(c.op, "transpose_a", false);
  bool tb = boolAttr(c.op, "transpose_b", true);
  int64_t bx = x.shape[0], by = y.shape[0];
  int64_t rows = ta ? x.shape[2] : x.shape[1];
  int64_t depth = ta ? x.shape[1] : x.shape[2];
  int64_t cols = tb ? y.shape[1] : y.shape[2];
  if ((tb ? y.shape[2] : y.shape[1]) != depth ||
      (bx != by && bx != 1 && by != 1))
    return failure();
  int64_t batch = std::max(bx, by);
  int64_t x1 = x.shape[1], x2 = x.shape[2], y1 = y.shape[1], y2 = y.shape[2];
  return matmulValues(
      x, y, c.results[0], batch, rows, cols, depth,
      [&](int64_t b, int64_t m, int64_t k) {
        int64_t base = (bx == 1 ? 0 : b) * x1 * x2;
        return base + (ta ? k * x2 + m : m * x2 + k);
      },
      [&](int64_t b, int64_t k, int64_t n) {
        int64_t base = (by == 1 ? 0 : b) * y1 * y2;
        return base + (tb ? n * y2 + k : k * y2 + n);
      });
}

/// `x` with its dims permuted: dim d of the result is dim `perm[d]` of `x`.
Values permuteValues(const Values &x, ArrayRef<int64_t> perm) {
  SmallVector<int64_t> strides = stridesOf(x.shape), steps, shape;
  for (int64_t p : perm) {
    steps.push_back(strides[p]);
    shape.push_back(x.shape[p]);
  }
  std::vector<int64_t> map = affineMap(shape, steps);
  Values out;
  out.shape = shape;
  out.element = x.element;
  for (int64_t k : map) {
    if (x.isFloat())
      out.f.push_back(x.f[k]);
    else
      out.i.push_back(x.i[k]);
  }
  return out;
}

/// The permutation taking `layout` to `canonical` (the same letters), if any.
std::optional<SmallVector<int64_t>> layoutPerm(StringRef layout,
                                               StringRef canonical) {
  if (layout.size() != canonical.size())
    return std::nullopt;
  SmallVector<int64_t> perm;
  for (char ch : canonical) {
    size_t at = layout.find(ch);
    if (at == StringRef::npos)
      return std::nullopt;
    perm.push_back(at);
  }
  return perm;
}

/// nn.conv2d in any permutation of NCHW/OIHW (the interpreter's _conv_nd):
/// floats accumulated in double and rounded once, integers in int64.
Result evalConv2D(const EvalContext &c) {
  const Values &x = c.args[0], &w = c.args[1];
  if (x.element != w.element || isBool(x.element) || x.shape.size() != 4 ||
      w.shape.size() != 4)
    return failure();
  StringRef dl = stringAttr(c.op, "data_layout", "NCHW");
  StringRef kl = stringAttr(c.op, "kernel_layout", "OIHW");
  StringRef ol = stringAttr(c.op, "out_layout", "");
  if (ol.empty())
    ol = dl;
  auto px = layoutPerm(dl, "NCHW"), pw = layoutPerm(kl, "OIHW");
  auto po = layoutPerm("NCHW", ol);
  if (!px || !pw || !po)
    return failure();
  Values xc = permuteValues(x, *px), wc = permuteValues(w, *pw);
  SmallVector<int64_t> strides =
      arrayAttr(c.op, "strides").value_or(SmallVector<int64_t>{1, 1});
  SmallVector<int64_t> dilation =
      arrayAttr(c.op, "dilation").value_or(SmallVector<int64_t>{1, 1});
  SmallVector<int64_t> pad =
      arrayAttr(c.op, "padding").value_or(SmallVector<int64_t>{0, 0});
  if (pad.size() == 1)
    pad.assign(4, pad[0]);
  else if (pad.size() == 2)
    pad = {pad[0], pad[1], pad[0], pad[1]};
  if (pad.size() != 4 || strides.size() != 2 || dilation.size() != 2)
    return failure();
  int64_t groups = intAttr(c.op, "groups", 1);
  int64_t n = xc.shape[0], ch = xc.shape[1], h = xc.shape[2], wd = xc.shape[3];
  int64_t o = wc.shape[0], cg = wc.shape[1], kh = wc.shape[2], kw = wc.shape[3];
  if (groups < 1 || ch != cg * groups || o % groups != 0)
    return failure();
  int64_t oh =
      (h + pad[0] + pad[2] - dilation[0] * (kh - 1) - 1) / strides[0] + 1;
  int64_t ow =
      (wd + pad[1] + pad[3] - dilation[1] * (kw - 1) - 1) / strides[1] + 1;
  if (oh < 0 || ow < 0 ||
      n * o * oh * ow * std::max<int64_t>(cg * kh * kw, 1) > kMaxFoldedWork)
    return failure();
  Type outElement = c.results[0].getElementType();
  bool floats = xc.isFloat();
  if (!floats && isa<FloatType>(outElement))
    return failure();
  if (floats && !isa<FloatType>(outElement))
    return failure();
  Values out;
  out.shape = {n, o, oh, ow};
  out.element = outElement;
  int64_t total = n * o * oh * ow;
  if (floats)
    out.f.assign(total, 0.0);
  else
    out.i.assign(total, 0);
  int64_t og = o / groups, at = 0;
  for (int64_t b = 0; b < n; ++b)
    for (int64_t oc = 0; oc < o; ++oc) {
      int64_t g = oc / og;
      for (int64_t y = 0; y < oh; ++y)
        for (int64_t z = 0; z < ow; ++z, ++at) {
          double fs = 0;
          int64_t is = 0;
          for (int64_t ic = 0; ic < cg; ++ic)
            for (int64_t ky = 0; ky < kh; ++ky) {
              int64_t iy = y * strides[0] + ky * dilation[0] - pad[0];
              if (iy < 0 || iy >= h)
                continue;
              for (int64_t kx = 0; kx < kw; ++kx) {
                int64_t ix = z * strides[1] + kx * dilation[1] - pad[1];
                if (ix < 0 || ix >= wd)
                  continue;
                int64_t xi = ((b * ch + g * cg + ic) * h + iy) * wd + ix;
                int64_t wi = ((oc * cg + ic) * kh + ky) * kw + kx;
                if (floats)
                  fs += xc.f[xi] * wc.f[wi];
                else
                  is = wrapAdd(is, wrapMul(xc.i[xi], wc.i[wi]));
              }
            }
          if (floats)
            out.f[at] = roundTo(outElement, fs);
          else
            out.i[at] = wrapTo(outElement, is);
        }
    }
  Values result = permuteValues(out, *po);
  if (ArrayRef<int64_t>(result.shape) != c.results[0].getShape())
    return failure();
  return one(std::move(result));
}

/// nn.pad: "constant" (the pad value cast to the dtype), "edge", "reflect"
/// (numpy's modes).
Result evalPad(const EvalContext &c) {
  const Values &x = c.args[0], &value = c.args[1];
  SmallVector<int64_t> width = *arrayAttr(c.op, "pad_width");
  StringRef mode = stringAttr(c.op, "pad_mode", "constant");
  int64_t rank = x.shape.size();
  if (static_cast<int64_t>(width.size()) != 2 * rank || value.size() != 1)
    return failure();
  for (int64_t w : width)
    if (w < 0)
      return failure();
  RankedTensorType type = c.results[0];
  Values fill = makeValues(RankedTensorType::get({}, x.element));
  bool ok = true;
  castElement(value, 0, fill, 0, ok);
  if (!ok)
    return failure();
  Values out = makeValues(type);
  SmallVector<int64_t> strides = stridesOf(x.shape), index(rank, 0);
  ArrayRef<int64_t> shape = type.getShape();
  for (int64_t k = 0, n = out.size(); k < n; ++k) {
    int64_t flat = 0;
    bool inside = true;
    for (int64_t d = 0; d < rank; ++d) {
      int64_t i = index[d] - width[2 * d], len = x.shape[d];
      if (i < 0 || i >= len) {
        if (mode == "constant" || len == 0) {
          inside = false;
          break;
        }
        if (mode == "edge") {
          i = std::clamp<int64_t>(i, 0, len - 1);
        } else if (len == 1) {
          i = 0;
        } else { // reflect: a triangle wave of period 2 (len - 1)
          int64_t period = 2 * (len - 1);
          i = ((i % period) + period) % period;
          if (i >= len)
            i = period - i;
        }
      }
      flat += i * strides[d];
    }
    if (!inside && mode != "constant")
      return failure();
    if (out.isFloat())
      out.f[k] = inside ? x.f[flat] : fill.f[0];
    else
      out.i[k] = inside ? x.i[flat] : fill.i[0];
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
  }
  return one(std::move(out));
}

/// nn.softmax / nn.log_softmax along `axis`, in double, rounded once.
Result evalSoftmax(const EvalContext &c, bool log) {
  const Values &x = c.args[0];
  if (!x.isFloat() || x.shape.empty())
    return failure();
  int64_t axis = normalizeAxis(intAttr(c.op, "axis", -1), x.shape.size());
  int64_t outer = product(ArrayRef<int64_t>(x.shape).take_front(axis));
  int64_t len = x.shape[axis];
  int64_t inner = product(ArrayRef<int64_t>(x.shape).drop_front(axis + 1));
  Values out = makeValues(c.results[0]);
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t in = 0; in < inner; ++in) {
      auto at = [&](int64_t j) { return (o * len + j) * inner + in; };
      double m = -INFINITY;
      for (int64_t j = 0; j < len; ++j)
        m = floatMax(m, x.f[at(j)]);
      double s = 0;
      for (int64_t j = 0; j < len; ++j)
        s += std::exp(x.f[at(j)] - m);
      for (int64_t j = 0; j < len; ++j) {
        double y = x.f[at(j)] - m;
        out.f[at(j)] =
            roundTo(out.element, log ? y - std::log(s) : std::exp(y) / s);
      }
    }
  return one(std::move(out));
}

/// arange(start, stop, step) when its result type is static.
Result evalArange(const EvalContext &c) {
  const Values &start = c.args[0], &stop = c.args[1], &step = c.args[2];
  if (start.size() != 1 || stop.size() != 1 || step.size() != 1)
    return failure();
  auto get = [](const Values &v) {
    return v.isFloat() ? v.f[0] : static_cast<double>(v.i[0]);
  };
  double a = get(start), b = get(stop), s = get(step);
  if (s == 0 || !start.isFloat() && std::fabs(a) >= std::ldexp(1.0, 53))
    return failure();
  Values out = makeValues(c.results[0]);
  if (static_cast<double>(out.size()) != std::max(std::ceil((b - a) / s), 0.0))
    return failure();
  for (int64_t k = 0, n = out.size(); k < n; ++k) {
    if (out.isFloat()) {
      out.f[k] = roundTo(out.element, a + static_cast<double>(k) * s);
    } else {
      if (start.isFloat() || step.isFloat())
        return failure();
      out.i[k] =
          wrapTo(out.element, wrapAdd(start.i[0], wrapMul(k, step.i[0])));
    }
  }
  return one(std::move(out));
}

Result evalMatmul(const EvalContext &c) {
  const Values &a = c.args[0], &b = c.args[1];
  bool ta = boolAttr(c.op, "transpose_a", false);
  bool tb = boolAttr(c.op, "transpose_b", false);
  if (b.shape.size() != 2 || a.shape.size() < (ta ? 2u : 1u))
    return failure();
  int64_t rank = a.shape.size();
  int64_t depth = ta ? a.shape[rank - 2] : a.shape[rank - 1];
  int64_t units = tb ? b.shape[0] : b.shape[1];
  if ((tb ? b.shape[1] : b.shape[0]) != depth || depth == 0)
    return failure();
  int64_t m = ta ? a.shape[rank - 1] : 1;
  int64_t batch = a.size() / (depth * m);
  if (!ta) {
    m = batch;
    batch = 1;
  }
  return matmulValues(
      a, b, c.results[0], batch, m, units, depth,
      [&](int64_t bi, int64_t r, int64_t k) {
        return ta ? (bi * depth + k) * m + r : r * depth + k;
      },
      [&](int64_t, int64_t k, int64_t n) {
        return tb ? n * depth + k : k * units + n;
      });
}

Result evalPRelu(const EvalContext &c) {
  const Values &x = c.args[0], &alpha = c.args[1];
  if (!x.isFloat() || x.element != alpha.element || alpha.shape.size() != 1 ||
      x.shape.empty())
    return failure();
  int64_t axis = normalizeAxis(intAttr(c.op, "axis", 1), x.shape.size());
  SmallVector<int64_t> steps(x.shape.size(), 0);
  steps[axis] = 1;
  std::vector<int64_t> ma = affineMap(x.shape, steps);
  Values out = makeValues(c.results[0]);
  for (int64_t k = 0, n = out.size(); k < n; ++k)
    out.f[k] =
        roundTo(out.element, x.f[k] > 0 ? x.f[k] : x.f[k] * alpha.f[ma[k]]);
  return one(std::move(out));
}

double geluFn(double x) {
  return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0)));
}

//===--- the table -----------------------------------------------------===//

struct EvalEntry {
  Evaluator eval;
  /// Operands of which only the type is read (`reshape_like`'s second).
  unsigned typeOnlyMask = 0;
};

const llvm::StringMap<EvalEntry> &evaluators() {
  static const llvm::StringMap<EvalEntry> table = [] {
    llvm::StringMap<EvalEntry> t;
    for (const auto &entry : elementwiseEvaluators())
      t[entry.getKey()] = {entry.getValue()};
    t["relay.cast"] = {evalCast};
    t["relay.cast_like"] = {evalCast, 0b10};
    t["relay.clip"] = {evalClip};
    t["relay.fixed_point_multiply"] = {evalFixedPointMultiply};
    t["relay.where"] = {evalWhere};
    t["relay.nn.leaky_relu"] = {evalLeakyRelu};
    t["relay.nn.bias_add"] = {evalBiasAdd};
    for (StringRef name : {"relay.reshape", "relay.squeeze",
                           "relay.expand_dims", "relay.nn.batch_flatten"})
      t[name] = {evalSameElements};
    t["relay.reshape_like"] = {evalSameElements, 0b10};
    t["relay.transpose"] = {evalTranspose};
    t["relay.layout_transform"] = {evalLayoutTransform};
    t["relay.broadcast_to"] = {evalBroadcastTo};
    t["relay.broadcast_to_like"] = {evalBroadcastTo, 0b10};
    t["relay.reverse"] = {evalReverse};
    t["relay.tile"] = {evalTile};
    t["relay.repeat"] = {evalRepeat};
    t["relay.concatenate"] = {
        [](const EvalContext &c) { return joinValues(c, false); }};
    t["relay.stack"] = {
        [](const EvalContext &c) { return joinValues(c, true); }};
    t["relay.split"] = {evalSplit};
    t["relay.strided_slice"] = {evalStridedSlice};
    t["relay.take"] = {evalTake};
    t["relay.full"] = {[](const EvalContext &c) { return evalFull(c, 0); }};
    t["relay.full_like"] = {[](const EvalContext &c) { return evalFull(c, 1); },
                            0b01};
    for (StringRef kind : {"sum", "mean", "max", "min", "prod", "all", "any"})
      t[("relay." + kind).str()] = {
          [kind](const EvalContext &c) { return evalReduce(c, kind); }};
    t["relay.argmax"] = {
        [](const EvalContext &c) { return evalArgReduce(c, true); }};
    t["relay.argmin"] = {
        [](const EvalContext &c) { return evalArgReduce(c, false); }};
    t["relay.nn.dense"] = {evalDense};
    t["relay.nn.matmul"] = {evalMatmul};
    t["relay.nn.prelu"] = {evalPRelu};
    t["relay.nn.gelu"] = {floatUnary(geluFn)};
    t["relay.nn.batch_matmul"] = {evalBatchMatmul};
    t["relay.nn.conv2d"] = {evalConv2D};
    t["relay.nn.pad"] = {evalPad};
    t["relay.nn.softmax"] = {
        [](const EvalContext &c) { return evalSoftmax(c, false); }};
    t["relay.nn.log_softmax"] = {
        [](const EvalContext &c) { return evalSoftmax(c, true); }};
    t["relay.arange"] = {evalArange};
    return t;
  }();
  return table;
}

/// An op in the table whose value operands are all constants (of static
/// shapes and supported dtypes) and whose results are static tensors (or a
/// tuple of them) of at most kMaxFoldedElements elements in all: its value
/// as constants (a `relay.tuple` of them for a tuple result).
struct EvaluateConstantOp : RewritePattern {
  EvaluateConstantOp(MLIRContext *ctx)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}
  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    const auto &table = evaluators();
    auto it = table.find(op->getName().getStringRef());
    if (it == table.end() || op->getNumResults() != 1 ||
        op->getNumRegions() != 0)
      return failure();
    const EvalEntry &entry = it->getValue();
    Type resultType = op->getResult(0).getType();
    SmallVector<RankedTensorType> results;
    auto tuple = dyn_cast<TupleType>(resultType);
    for (Type t : tuple ? tuple.getTypes() : TypeRange(resultType)) {
      auto ranked = dyn_cast<RankedTensorType>(t);
      if (!ranked || !ranked.hasStaticShape() ||
          !isSupportedElement(ranked.getElementType()))
        return rewriter.notifyMatchFailure(op, "result not a static tensor");
      results.push_back(ranked);
    }
    int64_t total = 0;
    for (RankedTensorType t : results)
      total += t.getNumElements();
    if (total > kMaxFoldedElements)
      return rewriter.notifyMatchFailure(op, "result too large to fold");
    SmallVector<Values> args;
    for (auto [index, operand] : llvm::enumerate(op->getOperands())) {
      if (entry.typeOnlyMask & (1u << index)) {
        auto ranked = dyn_cast<RankedTensorType>(operand.getType());
        if (!ranked || !ranked.hasStaticShape())
          return failure();
        Values v;
        v.shape.assign(ranked.getShape().begin(), ranked.getShape().end());
        v.element = ranked.getElementType();
        args.push_back(std::move(v));
        continue;
      }
      DenseElementsAttr attr;
      if (!matchPattern(operand, m_Constant(&attr)))
        return rewriter.notifyMatchFailure(op, "operand not a constant");
      std::optional<Values> v = readValues(attr);
      if (!v)
        return rewriter.notifyMatchFailure(op, "unsupported constant");
      args.push_back(std::move(*v));
    }
    FailureOr<SmallVector<Values>> values =
        entry.eval(EvalContext{op, args, results});
    if (failed(values) || values->size() != results.size())
      return rewriter.notifyMatchFailure(op, "not evaluated");
    SmallVector<Value> constants;
    for (auto [type, v] : llvm::zip(results, *values))
      constants.push_back(ConstantOp::create(
          rewriter, op->getLoc(), cast<ElementsAttr>(writeValues(type, v))));
    if (!tuple) {
      rewriter.replaceOp(op, constants.front());
      return success();
    }
    rewriter.replaceOpWithNewOp<TupleOp>(op, TypeRange{resultType},
                                         ValueRange(constants));
    return success();
  }
};

struct FoldConstantsPass
    : relay::impl::RelayFoldConstantsBase<FoldConstantsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateFoldConstantsPatterns(patterns);
    // Folders (tuple_get_item of a tuple, constants) run with the patterns.
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace

void mlir::relay::populateFoldConstantsPatterns(RewritePatternSet &patterns) {
  patterns.add<FillLikeToSplat<ZerosLikeOp, 0>, FillLikeToSplat<OnesLikeOp, 1>,
               FillLikeToSplat<ZerosOp, 0>, FillLikeToSplat<OnesOp, 1>,
               ShapeOpOfSplat, DropIdentity<MultiplyOp, 1, true>,
               DropIdentity<DivideOp, 1, false>, DropIdentity<AddOp, 0, true>,
               DropIdentity<SubtractOp, 0, false>, CollapseSumOfConstant,
               EvaluateConstantOp>(patterns.getContext());
}
