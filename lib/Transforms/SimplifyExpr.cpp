//===- SimplifyExpr.cpp - relay-simplify-expr -----------------------------===//
//
// Relay's SimplifyExpr: local algebraic and data-movement simplifications,
// one rewrite pattern per TVM 0.19 sub-rewrite (src/relay/transforms/
// simplify_expr.cc names in brackets): consecutive reshapes
// [SimplifyReshape], consecutive transposes [SimplifyTranspose], identity
// transposes [SimplifyNoOpTranspose], casts to the same dtype
// [SimplifySameCast], a widening cast followed by a cast [SimplifyConsecutive
// Cast], x + 0, x * 1, x - 0, x / 1 [EliminateIdentityRewrite], x / sqrt(y)
// [SimplifyRSqrt], x + x [SimplifyAdd], zeros_like/ones_like/cast_like of a
// static type [ConcretizeZerosLike/OnesLike/CastLike], a fill operand of a
// broadcast op as a scalar [FullElementwise]; a clip that clips nothing and
// the casts after a clip that change no value [SimplifyClip, SimplifyClip
// AndConsecutiveCast: SimplifyClip.cpp]. relay-simplify-expr-post-alter-op
// is TVM's SimplifyExprPostAlterOp: the identity, reshape, cast and clip
// rewrites only. Ops are built by their typed builders.
//
//===----------------------------------------------------------------------===//
#include "CastValues.h"
#include "relay/RelayOps.h"
#include "relay/RelayPasses.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYSIMPLIFYEXPR
#define GEN_PASS_DEF_RELAYSIMPLIFYEXPRPOSTALTEROP
#include "relay/RelayPasses.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

namespace {

RankedTensorType tensorType(Value v) {
  return dyn_cast<RankedTensorType>(v.getType());
}

/// A 0-d constant `value` of element type `element`.
Value scalar(PatternRewriter &rewriter, Location loc, Type element,
             double value) {
  auto type = RankedTensorType::get({}, element);
  Attribute attr;
  if (isa<FloatType>(element))
    attr = rewriter.getFloatAttr(element, value);
  else if (isa<IntegerType>(element))
    attr = rewriter.getIntegerAttr(element, static_cast<int64_t>(value));
  else
    return {};
  return ConstantOp::create(
      rewriter, loc, cast<ElementsAttr>(DenseElementsAttr::get(type, attr)));
}

/// `v` is a rank-0 constant equal to `value` (TVM's IsScalar + value test).
bool isScalarConstant(Value v, double value) {
  auto constant = v.getDefiningOp<ConstantOp>();
  if (!constant)
    return false;
  auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
  if (!dense || dense.getType().getRank() != 0)
    return false;
  Type element = dense.getElementType();
  if (isa<FloatType>(element))
    return dense.getSplatValue<APFloat>().convertToDouble() == value;
  if (auto integer = dyn_cast<IntegerType>(element)) {
    APInt bits = dense.getSplatValue<APInt>();
    double got = integer.isUnsigned() || integer.getWidth() == 1
                     ? static_cast<double>(bits.getZExtValue())
                     : static_cast<double>(bits.getSExtValue());
    return got == value;
  }
  return false;
}

/// `v` is `zeros`/`zeros_like` (fill 0) or `ones`/`ones_like` (fill 1).
bool isFill(Value v, double value) {
  Operation *def = v.getDefiningOp();
  if (!def)
    return false;
  if (value == 0)
    return isa<ZerosOp, ZerosLikeOp>(def);
  return value == 1 && isa<OnesOp, OnesLikeOp>(def);
}

/// reshape(reshape(x)) -> one reshape of x to the (static) result shape.
struct ConsecutiveReshapes : OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getData().getDefiningOp<ReshapeOp>();
    RankedTensorType type = tensorType(op.getResult());
    if (!inner || !type || !type.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "not reshape of a reshape with a "
                                             "static result");
    rewriter.replaceOpWithNewOp<ReshapeOp>(
        op, inner.getData(), rewriter.getDenseI64ArrayAttr(type.getShape()),
        rewriter.getBoolAttr(false));
    return success();
  }
};

/// The permutation of a transpose of rank `rank` (reversed dims if none).
SmallVector<int64_t> permutation(TransposeOp op, int64_t rank) {
  SmallVector<int64_t> axes;
  std::optional<ArrayRef<int64_t>> given = op.getAxes();
  if (!given || given->empty()) {
    for (int64_t i = rank - 1; i >= 0; --i)
      axes.push_back(i);
    return axes;
  }
  for (int64_t a : *given)
    axes.push_back(a < 0 ? a + rank : a);
  return axes;
}

/// transpose(transpose(x, p), q) -> transpose(x, p[q[i]]).
struct ConsecutiveTransposes : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getData().getDefiningOp<TransposeOp>();
    RankedTensorType type = tensorType(op.getResult());
    if (!inner || !type)
      return rewriter.notifyMatchFailure(op, "not transpose of a transpose");
    int64_t rank = type.getRank();
    SmallVector<int64_t> p = permutation(inner, rank);
    SmallVector<int64_t> q = permutation(op, rank);
    if (static_cast<int64_t>(p.size()) != rank ||
        static_cast<int64_t>(q.size()) != rank)
      return rewriter.notifyMatchFailure(op, "axes do not fit the rank");
    SmallVector<int64_t> axes;
    for (int64_t i = 0; i < rank; ++i)
      axes.push_back(p[q[i]]);
    rewriter.replaceOpWithNewOp<TransposeOp>(
        op, inner.getData(), rewriter.getDenseI64ArrayAttr(axes));
    return success();
  }
};

/// A transpose that keeps every axis in place is its input.
struct NoOpTranspose : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    RankedTensorType type = tensorType(op.getResult());
    if (!type || op.getData().getType() != type)
      return rewriter.notifyMatchFailure(op, "not typed");
    SmallVector<int64_t> axes = permutation(op, type.getRank());
    for (auto [i, a] : llvm::enumerate(axes))
      if (a != static_cast<int64_t>(i))
        return rewriter.notifyMatchFailure(op, "moves an axis");
    rewriter.replaceOp(op, op.getData());
    return success();
  }
};

/// cast / cast_like to the dtype the data already has is the data.
template <typename Cast> struct SameCast : OpRewritePattern<Cast> {
  using OpRewritePattern<Cast>::OpRewritePattern;
  LogicalResult matchAndRewrite(Cast op,
                                PatternRewriter &rewriter) const override {
    if (op.getData().getType() != op.getResult().getType())
      return rewriter.notifyMatchFailure(op, "changes the dtype");
    rewriter.replaceOp(op, op.getData());
    return success();
  }
};

/// cast(cast(x, t1), t2) -> cast(x, t2) when the first cast loses nothing
/// (either cast may be a cast_like; castKeepsEveryValue: exact where TVM's
/// IsWidenCast is not).
template <typename Cast> struct ConsecutiveCasts : OpRewritePattern<Cast> {
  using OpRewritePattern<Cast>::OpRewritePattern;
  LogicalResult matchAndRewrite(Cast op,
                                PatternRewriter &rewriter) const override {
    Operation *inner = op.getData().getDefiningOp();
    if (!isa_and_nonnull<CastOp, CastLikeOp>(inner))
      return rewriter.notifyMatchFailure(op, "not cast of a cast");
    Value data = inner->getOperand(0);
    RankedTensorType from = tensorType(data);
    RankedTensorType mid = tensorType(inner->getResult(0));
    RankedTensorType to = tensorType(op.getResult());
    if (!from || !mid || !to ||
        !castKeepsEveryValue(from.getElementType(), mid.getElementType()))
      return rewriter.notifyMatchFailure(op, "the first cast narrows");
    rewriter.replaceOpWithNewOp<CastOp>(op, data,
                                        TypeAttr::get(to.getElementType()));
    return success();
  }
};

/// x + 0, 0 + x, x * 1, 1 * x, x - 0, x / 1 -> x, where 0 / 1 is
/// zeros/ones(_like) or a scalar constant, and x has the result's type.
template <typename Binary, int Identity, bool Commutes>
struct EliminateIdentity : OpRewritePattern<Binary> {
  using OpRewritePattern<Binary>::OpRewritePattern;
  LogicalResult matchAndRewrite(Binary op,
                                PatternRewriter &rewriter) const override {
    auto neutral = [](Value v) {
      return isFill(v, Identity) || isScalarConstant(v, Identity);
    };
    Type type = op.getResult().getType();
    if (neutral(op.getRhs()) && op.getLhs().getType() == type) {
      rewriter.replaceOp(op, op.getLhs());
      return success();
    }
    if (Commutes && neutral(op.getLhs()) && op.getRhs().getType() == type) {
      rewriter.replaceOp(op, op.getRhs());
      return success();
    }
    return rewriter.notifyMatchFailure(op, "no identity operand");
  }
};

/// x / sqrt(y) -> x * rsqrt(y).
struct DivideBySqrt : OpRewritePattern<DivideOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(DivideOp op,
                                PatternRewriter &rewriter) const override {
    auto sqrt = op.getRhs().getDefiningOp<SqrtOp>();
    if (!sqrt)
      return rewriter.notifyMatchFailure(op, "divisor not a sqrt");
    Value r = RsqrtOp::create(rewriter, sqrt.getLoc(), sqrt.getData());
    rewriter.replaceOpWithNewOp<MultiplyOp>(op, op.getLhs(), r);
    return success();
  }
};

/// x + x -> x * 2.
struct AddSelf : OpRewritePattern<AddOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AddOp op,
                                PatternRewriter &rewriter) const override {
    RankedTensorType type = tensorType(op.getResult());
    if (op.getLhs() != op.getRhs() || !type)
      return rewriter.notifyMatchFailure(op, "not x + x");
    Value two = scalar(rewriter, op.getLoc(), type.getElementType(), 2);
    if (!two)
      return rewriter.notifyMatchFailure(op, "not a number type");
    rewriter.replaceOpWithNewOp<MultiplyOp>(op, op.getLhs(), two);
    return success();
  }
};

/// zeros_like / ones_like of a static type -> zeros / ones of its shape.
template <typename Like, typename Fill>
struct ConcretizeFillLike : OpRewritePattern<Like> {
  using OpRewritePattern<Like>::OpRewritePattern;
  LogicalResult matchAndRewrite(Like op,
                                PatternRewriter &rewriter) const override {
    RankedTensorType type = tensorType(op.getResult());
    if (!type || !type.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "shape not static");
    rewriter.replaceOpWithNewOp<Fill>(
        op, rewriter.getDenseI64ArrayAttr(type.getShape()),
        TypeAttr::get(type.getElementType()));
    return success();
  }
};

/// cast_like(x, y) -> cast(x, dtype of y).
struct ConcretizeCastLike : OpRewritePattern<CastLikeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(CastLikeOp op,
                                PatternRewriter &rewriter) const override {
    RankedTensorType type = tensorType(op.getResult());
    if (!type)
      return rewriter.notifyMatchFailure(op, "not typed");
    rewriter.replaceOpWithNewOp<CastOp>(op, op.getData(),
                                        TypeAttr::get(type.getElementType()));
    return success();
  }
};

/// A broadcast binary op with a zeros/ones(_like) operand, whose other
/// operand has the result's type: the fill becomes a scalar constant.
template <typename Binary>
struct FillOperandAsScalar : OpRewritePattern<Binary> {
  using OpRewritePattern<Binary>::OpRewritePattern;
  LogicalResult matchAndRewrite(Binary op,
                                PatternRewriter &rewriter) const override {
    RankedTensorType type = tensorType(op.getResult());
    if (!type)
      return rewriter.notifyMatchFailure(op, "not typed");
    for (unsigned i = 0; i < 2; ++i) {
      Value fill = op->getOperand(i), other = op->getOperand(1 - i);
      if (other.getType() != type)
        continue;
      double value = isFill(fill, 0) ? 0 : isFill(fill, 1) ? 1 : -1;
      if (value < 0)
        continue;
      Value c = scalar(rewriter, op.getLoc(), type.getElementType(), value);
      if (!c)
        continue;
      rewriter.modifyOpInPlace(op, [&] { op->setOperand(i, c); });
      return success();
    }
    return rewriter.notifyMatchFailure(op, "no fill operand");
  }
};

/// Applies `populate`'s patterns greedily to the module.
template <typename Base, void (*populate)(RewritePatternSet &)>
struct GreedyPass : Base {
  void runOnOperation() override {
    RewritePatternSet patterns(&this->getContext());
    populate(patterns);
    if (failed(
            applyPatternsGreedily(this->getOperation(), std::move(patterns))))
      return this->signalPassFailure();
  }
};

struct SimplifyExprPass
    : GreedyPass<relay::impl::RelaySimplifyExprBase<SimplifyExprPass>,
                 populateSimplifyExprPatterns> {};

struct SimplifyExprPostAlterOpPass
    : GreedyPass<relay::impl::RelaySimplifyExprPostAlterOpBase<
                     SimplifyExprPostAlterOpPass>,
                 populateSimplifyExprPostAlterOpPatterns> {};

/// The identities (benefit 2: before the other rewrites, as TVM) and the
/// reshape and cast rewrites, shared by both passes.
void populateIdentityReshapeCastPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<EliminateIdentity<AddOp, 0, true>,
               EliminateIdentity<MultiplyOp, 1, true>,
               EliminateIdentity<SubtractOp, 0, false>,
               EliminateIdentity<DivideOp, 1, false>>(ctx, /*benefit=*/2);
  patterns.add<ConsecutiveReshapes, SameCast<CastOp>, SameCast<CastLikeOp>,
               ConsecutiveCasts<CastOp>, ConsecutiveCasts<CastLikeOp>>(ctx);
  populateSimplifyClipPatterns(patterns);
}

} // namespace

void mlir::relay::populateSimplifyExprPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  // Identities first: TVM runs EliminateIdentity before FullElementwise, so
  // x * ones(..) is x, not x * 1.
  populateIdentityReshapeCastPatterns(patterns);
  patterns.add<ConsecutiveTransposes, NoOpTranspose, DivideBySqrt, AddSelf,
               ConcretizeFillLike<ZerosLikeOp, ZerosOp>,
               ConcretizeFillLike<OnesLikeOp, OnesOp>, ConcretizeCastLike,
               FillOperandAsScalar<AddOp>, FillOperandAsScalar<SubtractOp>,
               FillOperandAsScalar<MultiplyOp>, FillOperandAsScalar<DivideOp>,
               FillOperandAsScalar<MaximumOp>, FillOperandAsScalar<MinimumOp>,
               FillOperandAsScalar<PowerOp>>(ctx);
}

void mlir::relay::populateSimplifyExprPostAlterOpPatterns(
    RewritePatternSet &patterns) {
  populateIdentityReshapeCastPatterns(patterns);
}
