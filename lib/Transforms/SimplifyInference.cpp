//===- SimplifyInference.cpp - relay-simplify-inference -------------------===//
//
// Relay's SimplifyInference: the normalisations as elementary arithmetic for
// inference. Field 0 of `nn.batch_norm` becomes `data * scale + shift` with
// scale and shift computed from the statistics; field 0 of `nn.dropout` is
// its data; layer, group and instance norm become mean, variance, subtract,
// sqrt, divide (then multiply by gamma, add beta); `nn.l2_normalize` becomes
// x / sqrt(max(sum(x * x), eps)). Ops are built by their typed builders, so
// every new result type comes from the op's typing rule.
//
//===----------------------------------------------------------------------===//
#include "relay/RelayOps.h"
#include "relay/RelayPasses.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYSIMPLIFYINFERENCE
#include "relay/RelayPasses.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

namespace {

/// The ranked float tensor type of `v`, or null.
RankedTensorType floatTensor(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type || !isa<FloatType>(type.getElementType()))
    return {};
  return type;
}

/// A 0-d constant `value` of the element type of `like`.
Value scalar(PatternRewriter &rewriter, Location loc, RankedTensorType like,
             double value) {
  auto type = RankedTensorType::get({}, like.getElementType());
  Attribute element = rewriter.getFloatAttr(like.getElementType(), value);
  return ConstantOp::create(
      rewriter, loc, cast<ElementsAttr>(DenseElementsAttr::get(type, element)));
}

/// A per-channel vector (dim `axis` of a rank-`rank` tensor) given unit dims
/// after it so that it broadcasts along `axis` (Relay's
/// ExpandBiasToMatchAxis).
Value alongAxis(PatternRewriter &rewriter, Location loc, Value v, int64_t rank,
                int64_t axis) {
  int64_t trailing = rank - axis - 1;
  if (trailing <= 0)
    return v;
  return ExpandDimsOp::create(rewriter, loc, v, rewriter.getI64IntegerAttr(1),
                              rewriter.getI64IntegerAttr(trailing));
}

/// `(data - mean) / sqrt(variance + eps)` over `axes`, keeping dims.
Value normalize(PatternRewriter &rewriter, Location loc, Value data,
                ArrayRef<int64_t> axes, double epsilon) {
  auto type = cast<RankedTensorType>(data.getType());
  DenseI64ArrayAttr axisAttr = rewriter.getDenseI64ArrayAttr(axes);
  BoolAttr keep = rewriter.getBoolAttr(true), no = rewriter.getBoolAttr(false);
  Value mean = MeanOp::create(rewriter, loc, data, axisAttr, keep, no);
  Value var =
      VarianceOp::create(rewriter, loc, data, axisAttr, keep, no, mean, no);
  Value denom = SqrtOp::create(
      rewriter, loc,
      AddOp::create(rewriter, loc, var, scalar(rewriter, loc, type, epsilon)));
  Value centered = SubtractOp::create(rewriter, loc, data, mean);
  return DivideOp::create(rewriter, loc, centered, denom);
}

/// `out * gamma + beta` (as `scale`/`center` ask), gamma and beta along
/// `axis`.
Value scaleAndCenter(PatternRewriter &rewriter, Location loc, Value out,
                     Value gamma, Value beta, int64_t rank, int64_t axis,
                     bool scale, bool center) {
  if (scale)
    out = MultiplyOp::create(rewriter, loc, out,
                             alongAxis(rewriter, loc, gamma, rank, axis));
  if (center)
    out = AddOp::create(rewriter, loc, out,
                        alongAxis(rewriter, loc, beta, rank, axis));
  return out;
}

/// `axis` in [0, rank), or nothing if out of range.
std::optional<int64_t> positiveAxis(int64_t axis, int64_t rank) {
  if (axis < 0)
    axis += rank;
  if (axis < 0 || axis >= rank)
    return std::nullopt;
  return axis;
}

/// Field 0 of `nn.batch_norm`: `data * scale + shift`, where
/// scale = gamma / sqrt(var + eps) and shift = beta - mean * scale (without
/// gamma or beta when `scale`/`center` are false). The other fields (the
/// statistics) keep the batch_norm if they are used.
struct BatchNormToArithmetic : OpRewritePattern<TupleGetItemOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TupleGetItemOp op,
                                PatternRewriter &rewriter) const override {
    auto bn = op.getTuple().getDefiningOp<BatchNormOp>();
    if (!bn || op.getIndex() != 0)
      return rewriter.notifyMatchFailure(op, "not field 0 of nn.batch_norm");
    RankedTensorType type = floatTensor(bn.getData());
    if (!type || !floatTensor(bn.getMovingVar()))
      return rewriter.notifyMatchFailure(op,
                                         "operands not typed float tensors");
    std::optional<int64_t> axis = positiveAxis(bn.getAxis(), type.getRank());
    if (!axis)
      return rewriter.notifyMatchFailure(op, "axis out of range");
    Location loc = bn.getLoc();
    Value eps = scalar(rewriter, loc, type, bn.getEpsilon().convertToDouble());
    Value sqrtVar = SqrtOp::create(
        rewriter, loc, AddOp::create(rewriter, loc, bn.getMovingVar(), eps));
    Value scale = DivideOp::create(rewriter, loc,
                                   scalar(rewriter, loc, type, 1), sqrtVar);
    if (bn.getScale())
      scale = MultiplyOp::create(rewriter, loc, scale, bn.getGamma());
    Value shift = MultiplyOp::create(
        rewriter, loc, NegativeOp::create(rewriter, loc, bn.getMovingMean()),
        scale);
    if (bn.getCenter())
      shift = AddOp::create(rewriter, loc, shift, bn.getBeta());
    int64_t rank = type.getRank();
    Value out =
        MultiplyOp::create(rewriter, loc, bn.getData(),
                           alongAxis(rewriter, loc, scale, rank, *axis));
    out = AddOp::create(rewriter, loc, out,
                        alongAxis(rewriter, loc, shift, rank, *axis));
    rewriter.replaceOp(op, out);
    return success();
  }
};

/// Field 0 of `nn.dropout` is its data at inference.
struct DropoutToIdentity : OpRewritePattern<TupleGetItemOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TupleGetItemOp op,
                                PatternRewriter &rewriter) const override {
    auto dropout = op.getTuple().getDefiningOp<DropoutOp>();
    if (!dropout || op.getIndex() != 0)
      return rewriter.notifyMatchFailure(op, "not field 0 of nn.dropout");
    if (dropout.getData().getType() != op.getResult().getType())
      return rewriter.notifyMatchFailure(op, "types differ");
    rewriter.replaceOp(op, dropout.getData());
    return success();
  }
};

/// `nn.layer_norm`: normalised over `axis`.
struct LayerNormToArithmetic : OpRewritePattern<LayerNormOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LayerNormOp op,
                                PatternRewriter &rewriter) const override {
    RankedTensorType type = floatTensor(op.getData());
    if (!type)
      return rewriter.notifyMatchFailure(op, "data not a typed float tensor");
    std::optional<int64_t> axis = positiveAxis(op.getAxis(), type.getRank());
    if (!axis)
      return rewriter.notifyMatchFailure(op, "axis out of range");
    Location loc = op.getLoc();
    Value out = normalize(rewriter, loc, op.getData(), {*axis},
                          op.getEpsilon().convertToDouble());
    rewriter.replaceOp(op, scaleAndCenter(rewriter, loc, out, op.getGamma(),
                                          op.getBeta(), type.getRank(), *axis,
                                          op.getScale(), op.getCenter()));
    return success();
  }
};

/// `nn.instance_norm`: normalised over every dim after the batch except
/// `axis`.
struct InstanceNormToArithmetic : OpRewritePattern<InstanceNormOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(InstanceNormOp op,
                                PatternRewriter &rewriter) const override {
    RankedTensorType type = floatTensor(op.getData());
    if (!type)
      return rewriter.notifyMatchFailure(op, "data not a typed float tensor");
    int64_t rank = type.getRank();
    std::optional<int64_t> axis = positiveAxis(op.getAxis(), rank);
    if (!axis)
      return rewriter.notifyMatchFailure(op, "axis out of range");
    SmallVector<int64_t> axes;
    for (int64_t d = 1; d < rank; ++d)
      if (d != *axis)
        axes.push_back(d);
    if (axes.empty())
      return rewriter.notifyMatchFailure(op, "nothing to normalise over");
    Location loc = op.getLoc();
    Value out = normalize(rewriter, loc, op.getData(), axes,
                          op.getEpsilon().convertToDouble());
    rewriter.replaceOp(op, scaleAndCenter(rewriter, loc, out, op.getGamma(),
                                          op.getBeta(), rank, *axis,
                                          op.getScale(), op.getCenter()));
    return success();
  }
};

/// `nn.group_norm`: the channels split into (num_groups, C / num_groups) by
/// a reshape, normalised over the group's channels and the dims after them,
/// reshaped back. Needs a static shape (the reshape spells it).
struct GroupNormToArithmetic : OpRewritePattern<GroupNormOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(GroupNormOp op,
                                PatternRewriter &rewriter) const override {
    RankedTensorType type = floatTensor(op.getData());
    if (!type || !type.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "data not a static float tensor");
    int64_t rank = type.getRank();
    std::optional<int64_t> axis = positiveAxis(op.getAxis(), rank);
    int64_t groups = op.getNumGroups();
    if (!axis || groups < 1 || type.getDimSize(*axis) % groups != 0)
      return rewriter.notifyMatchFailure(op, "bad axis or num_groups");
    SmallVector<int64_t> split, axes;
    for (int64_t d = 0; d < rank; ++d) {
      if (d == *axis) {
        split.push_back(groups);
        split.push_back(type.getDimSize(d) / groups);
      } else {
        split.push_back(type.getDimSize(d));
      }
      if (d >= *axis)
        axes.push_back(d + 1);
    }
    Location loc = op.getLoc();
    Value grouped = ReshapeOp::create(rewriter, loc, op.getData(),
                                      rewriter.getDenseI64ArrayAttr(split));
    Value out = normalize(rewriter, loc, grouped, axes,
                          op.getEpsilon().convertToDouble());
    out = ReshapeOp::create(rewriter, loc, out,
                            rewriter.getDenseI64ArrayAttr(type.getShape()));
    rewriter.replaceOp(op, scaleAndCenter(rewriter, loc, out, op.getGamma(),
                                          op.getBeta(), rank, *axis,
                                          op.getScale(), op.getCenter()));
    return success();
  }
};

/// `nn.l2_normalize`: x / sqrt(max(sum(x * x, axis, keepdims), eps)); an
/// empty `axis` sums over every dim. (TVM's eps constant is float32 whatever
/// the data's dtype; here it has the data's dtype.)
struct L2NormalizeToArithmetic : OpRewritePattern<L2NormalizeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(L2NormalizeOp op,
                                PatternRewriter &rewriter) const override {
    RankedTensorType type = floatTensor(op.getData());
    if (!type)
      return rewriter.notifyMatchFailure(op, "data not a typed float tensor");
    Location loc = op.getLoc();
    Value data = op.getData();
    DenseI64ArrayAttr axes =
        op.getAxis().empty() ? DenseI64ArrayAttr() : op.getAxisAttr();
    Value squares = MultiplyOp::create(rewriter, loc, data, data);
    Value sum =
        SumOp::create(rewriter, loc, squares, axes, rewriter.getBoolAttr(true),
                      rewriter.getBoolAttr(false));
    Value clamped = MaximumOp::create(
        rewriter, loc, sum,
        scalar(rewriter, loc, type, op.getEps().convertToDouble()));
    rewriter.replaceOpWithNewOp<DivideOp>(
        op, data, SqrtOp::create(rewriter, loc, clamped).getResult());
    return success();
  }
};

struct SimplifyInferencePass
    : relay::impl::RelaySimplifyInferenceBase<SimplifyInferencePass> {
  void runOnOperation() override {
    // The rewrites read operand types: the module must be typed.
    WalkResult untyped = getOperation().walk([](Operation *op) {
      if (!isa<BatchNormOp, DropoutOp, LayerNormOp, GroupNormOp, InstanceNormOp,
               L2NormalizeOp>(op))
        return WalkResult::advance();
      if (llvm::all_of(op->getOperandTypes(),
                       [](Type t) { return isa<RankedTensorType>(t); }))
        return WalkResult::advance();
      op->emitError() << "relay-simplify-inference: operands of '"
                      << op->getName()
                      << "' are not typed tensors; run relay-infer-type first";
      return WalkResult::interrupt();
    });
    if (untyped.wasInterrupted())
      return signalPassFailure();
    RewritePatternSet patterns(&getContext());
    populateSimplifyInferencePatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace

void mlir::relay::populateSimplifyInferencePatterns(
    RewritePatternSet &patterns) {
  patterns.add<BatchNormToArithmetic, DropoutToIdentity, LayerNormToArithmetic,
               InstanceNormToArithmetic, GroupNormToArithmetic,
               L2NormalizeToArithmetic>(patterns.getContext());
}
