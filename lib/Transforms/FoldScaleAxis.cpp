//===- FoldScaleAxis.cpp - relay-{backward,forward}-fold-scale-axis -------===//
//
// Relay's FoldScaleAxis (TVM 0.19's src/relay/transforms/fold_scale_axis.cc,
// written anew as rewrite patterns): a per-channel (or scalar) `multiply`
// is folded into the weight of the `nn.conv2d` / `nn.conv3d` / `nn.dense`
// it follows (backward) or feeds (forward), through the operators TVM
// propagates a scale through.
//
//  - Backward, rooted at `multiply(y, s)`: `y` is made by a conv/dense
//    through `nn.relu`, `nn.leaky_relu` (then `s` must be a non-negative
//    constant), `add`/`subtract` (the other operand broadcasting along the
//    channel, which is multiplied by `s`, or two such producers of one
//    shape, both scaled) and `nn.bias_add` on the channel axis (the bias is
//    multiplied by `s`), every value on the way used once. The conv's weight
//    is multiplied along O (the dense's along its units), `s` disappears.
//  - Forward, rooted at `multiply(x, s)`: every use of the product (and of
//    the relu/leaky_relu/add/subtract results it flows through) ends at the
//    data of a conv/dense; the convs' weights are multiplied along I (O for
//    a depthwise conv), the other operand of an add/subtract is divided by
//    `s` (floats only; a constant `s` without zeros).
//
// A scale runs along one axis: the channel axis of the conv's layout (C; its
// weight's I/O letters), the last axis of a dense. It must broadcast along
// that axis only (TVM's MatchBroadcastToLeftAxes). Convs are taken with
// groups 1 or depthwise (groups = weight O, weight I 1), as TVM. A weight
// and a scale that are constants give a new constant computed here (TVM
// leaves `multiply(w, expand_dims(squeeze(s)))` for FoldConstant); otherwise
// those ops are built. Repeated scales fold one after the other (TVM folds
// one per pass run).
//
//===----------------------------------------------------------------------===//
#include "relay/RelayOps.h"
#include "relay/RelayPasses.h"
#include "relay/Utils/LayoutUtils.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>
#include <limits>
#include <type_traits>

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYBACKWARDFOLDSCALEAXIS
#define GEN_PASS_DEF_RELAYFORWARDFOLDSCALEAXIS
#include "relay/RelayPasses.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

namespace {

/// What the ops around a value can take (TVM's Message, with one axis: the
/// layouts here have no blocked c axis): a scale along `axis`, which must be
/// a non-negative constant if `positive` (a relu is on the way) and has no
/// zero if `divides` (forward: an add/subtract operand is divided by it).
struct Demand {
  int64_t axis;
  bool positive = false;
  bool divides = false;
};

RankedTensorType rankedType(Value v) {
  return dyn_cast<RankedTensorType>(v.getType());
}

/// TVM's MatchBroadcastToLeftAxes for one axis: `rhs` broadcasts into `lhs`
/// along `axis` only (its dims aligned with lhs's last ones are 1, except at
/// `axis`: lhs's static size there), so `lhs op rhs` has lhs's shape. With
/// `scalar`, a rank-0 `rhs` matches too (a scale).
bool broadcastsAlong(Value lhs, Value rhs, int64_t axis, bool scalar) {
  RankedTensorType l = rankedType(lhs), r = rankedType(rhs);
  if (!l || !r || l.getRank() < r.getRank() || axis >= l.getRank())
    return false;
  if (r.getRank() == 0)
    return scalar;
  int64_t base = l.getRank() - r.getRank();
  if (axis < base)
    return false;
  for (int64_t i = base; i < l.getRank(); ++i) {
    int64_t d = r.getDimSize(i - base);
    if (i == axis ? ShapedType::isDynamic(d) || d != l.getDimSize(i) : d != 1)
      return false;
  }
  return true;
}

/// `v`'s size at `axis` is static and `size`.
bool hasSize(Value v, int64_t axis, int64_t size) {
  RankedTensorType t = rankedType(v);
  return t && axis >= 0 && axis < t.getRank() && t.getDimSize(axis) == size &&
         !ShapedType::isDynamic(size);
}

/// A scale: `value` is rank 0 (`dim` -1), or holds the channels at `dim`
/// and size-1 dims elsewhere.
struct Scale {
  Value value;
  int64_t dim;
};

/// The scale `s` that multiplies `x` along `axis` (broadcastsAlong holds).
Scale scaleOf(Value x, Value s, int64_t axis) {
  int64_t rank = rankedType(s).getRank();
  return {s, rank == 0 ? -1 : axis - (rankedType(x).getRank() - rank)};
}

DenseElementsAttr denseConstant(Value v) {
  auto constant = v.getDefiningOp<ConstantOp>();
  return constant ? dyn_cast<DenseElementsAttr>(constant.getValue())
                  : DenseElementsAttr();
}

/// TVM's IsAllPositiveConstant: a constant without negative elements, maybe
/// through expand_dims, reshape, transpose, squeeze or repeat.
bool isNonNegativeConstant(Value v) {
  while (Operation *op = v.getDefiningOp()) {
    if (!isa<ExpandDimsOp, ReshapeOp, TransposeOp, SqueezeOp, RepeatOp>(op))
      break;
    v = op->getOperand(0);
  }
  DenseElementsAttr c = denseConstant(v);
  if (!c)
    return false;
  if (isa<FloatType>(c.getElementType()))
    return llvm::none_of(c.getValues<APFloat>(), [](const APFloat &x) {
      return x.compare(APFloat::getZero(x.getSemantics())) ==
             APFloat::cmpLessThan;
    });
  auto integer = dyn_cast<IntegerType>(c.getElementType());
  if (!integer)
    return false;
  return integer.isUnsigned() ||
         llvm::none_of(c.getValues<APInt>(),
                       [](const APInt &x) { return x.isNegative(); });
}

/// A constant scale with a zero element (dividing by it is not a fold).
bool hasZero(Value s) {
  DenseElementsAttr c = denseConstant(s);
  if (!c)
    return false;
  if (isa<FloatType>(c.getElementType()))
    return llvm::any_of(c.getValues<APFloat>(),
                        [](const APFloat &x) { return x.isZero(); });
  return llvm::any_of(c.getValues<APInt>(),
                      [](const APInt &x) { return x.isZero(); });
}

/// `v` times (or divided by) `f` as APFloat computes it (round to nearest,
/// ties to even).
APFloat scaledElement(APFloat v, const APFloat &f, bool divide) {
  if (divide)
    v.divide(f, APFloat::rmNearestTiesToEven);
  else
    v.multiply(f, APFloat::rmNearestTiesToEven);
  return v;
}

/// scaledConstant for a float type the host computes in: `T` (float,
/// double) is its IEEE format, whose `*` and `/` round to nearest, ties to
/// even, so every element has APFloat's bits; a NaN operand goes through
/// APFloat (its payload rules). A model's weights are millions of elements:
/// APFloat's software arithmetic made this pass most of relay.build's
/// optimizer time on ResNet.
template <typename T>
DenseElementsAttr scaledHostFloats(DenseElementsAttr x, DenseElementsAttr s,
                                   function_ref<int64_t(int64_t)> channel,
                                   bool divide) {
  static_assert(std::numeric_limits<T>::is_iec559, "IEEE arithmetic");
  SmallVector<T> factors(s.getValues<T>());
  SmallVector<T> out;
  out.reserve(x.getNumElements());
  int64_t i = 0;
  for (T v : x.getValues<T>()) {
    T f = factors[channel(i++)];
    if (std::isnan(v) || std::isnan(f)) {
      APFloat r = scaledElement(APFloat(v), APFloat(f), divide);
      if constexpr (std::is_same_v<T, float>)
        out.push_back(r.convertToFloat());
      else
        out.push_back(r.convertToDouble());
    } else
      out.push_back(divide ? v / f : v * f);
  }
  return DenseElementsAttr::get(cast<ShapedType>(x.getType()),
                                ArrayRef<T>(out));
}

/// The constant `x` times (or divided by) the constant scale `s` whose
/// channels run along `axis` of `x`.
DenseElementsAttr scaledConstant(DenseElementsAttr x, DenseElementsAttr s,
                                 int64_t axis, bool divide) {
  auto type = cast<RankedTensorType>(x.getType());
  int64_t stride = 1;
  for (int64_t i = axis + 1; i < type.getRank(); ++i)
    stride *= type.getDimSize(i);
  int64_t size = type.getDimSize(axis);
  bool single = s.getNumElements() == 1;
  auto channel = [&](int64_t i) { return single ? 0 : (i / stride) % size; };
  Type element = type.getElementType();
  if (element.isF32() && s.getElementType() == element)
    return scaledHostFloats<float>(x, s, channel, divide);
  if (element.isF64() && s.getElementType() == element)
    return scaledHostFloats<double>(x, s, channel, divide);
  int64_t i = 0;
  if (isa<FloatType>(element)) {
    SmallVector<APFloat> factors(s.getValues<APFloat>());
    SmallVector<APFloat> out;
    out.reserve(x.getNumElements());
    for (const APFloat &v : x.getValues<APFloat>())
      out.push_back(scaledElement(v, factors[channel(i++)], divide));
    return DenseElementsAttr::get(type, out);
  }
  SmallVector<APInt> factors(s.getValues<APInt>());
  SmallVector<APInt> out;
  out.reserve(x.getNumElements());
  for (APInt v : x.getValues<APInt>())
    out.push_back(v * factors[channel(i++)]); // never divides: floats only
  return DenseElementsAttr::get(type, out);
}

/// `operand` times (or divided by) `scale`, the channels along `axis` of
/// `operand` (whose size there is the scale's): a new constant if both are
/// constants; else the scale as [C, 1, ...] (a reshaped constant, or
/// squeeze + expand_dims) and a multiply/divide.
Value applyScale(PatternRewriter &rewriter, Location loc, Value operand,
                 Scale scale, int64_t axis, bool divide) {
  auto type = cast<RankedTensorType>(operand.getType());
  DenseElementsAttr x = denseConstant(operand), s = denseConstant(scale.value);
  if (x && s)
    return ConstantOp::create(
        rewriter, loc, cast<ElementsAttr>(scaledConstant(x, s, axis, divide)));
  Value factor = scale.value;
  auto scaleType = cast<RankedTensorType>(factor.getType());
  if (scaleType.getRank() > 0) {
    int64_t trailing = type.getRank() - axis - 1;
    if (s) {
      SmallVector<int64_t> shape(trailing + 1, 1);
      shape[0] = scaleType.getDimSize(scale.dim);
      factor =
          ConstantOp::create(rewriter, loc,
                             cast<ElementsAttr>(s.reshape(RankedTensorType::get(
                                 shape, scaleType.getElementType()))));
    } else {
      if (scaleType.getRank() > 1) {
        SmallVector<int64_t> units;
        for (int64_t d = 0; d < scaleType.getRank(); ++d)
          if (d != scale.dim)
            units.push_back(d);
        factor = SqueezeOp::create(rewriter, loc, factor,
                                   rewriter.getDenseI64ArrayAttr(units));
      }
      if (trailing > 0)
        factor = ExpandDimsOp::create(rewriter, loc, factor,
                                      rewriter.getI64IntegerAttr(1),
                                      rewriter.getI64IntegerAttr(trailing));
    }
  }
  if (divide)
    return DivideOp::create(rewriter, loc, operand, factor);
  return MultiplyOp::create(rewriter, loc, operand, factor);
}

/// A clone of `op` (at the insertion point) with operand i replaced by v for
/// each (i, v): by position, as a value may be two operands (dense(x, x)).
Operation *cloneWith(PatternRewriter &rewriter, Operation *op,
                     ArrayRef<std::pair<unsigned, Value>> replace) {
  Operation *clone = rewriter.clone(*op);
  for (auto [i, v] : replace)
    clone->setOperand(i, v);
  return clone;
}

//===----------------------------------------------------------------------===//
// Which convolutions and dense ops take a scale
//===----------------------------------------------------------------------===//

/// The axes of a conv2d/conv3d a scale is folded along (TVM's
/// ConvForwardPrep/ConvBackwardPrep): C of its data and of its result, I and
/// O of its weight; groups 1, or depthwise (groups = weight O, weight I 1:
/// channel c of the data makes channel c of the result). None for other
/// groupings or layouts.
struct ConvAxes {
  int64_t dataC, outC, weightI, weightO;
  bool depthwise;
};

template <typename Conv> std::optional<ConvAxes> convAxes(Conv op) {
  StringRef outLayout =
      op.getOutLayout().empty() ? op.getDataLayout() : op.getOutLayout();
  FailureOr<SmallVector<int64_t>> c = findLayoutDims(op.getDataLayout(), "C");
  FailureOr<SmallVector<int64_t>> oc = findLayoutDims(outLayout, "C");
  FailureOr<SmallVector<int64_t>> io =
      findLayoutDims(op.getKernelLayout(), "IO");
  RankedTensorType weight = rankedType(op.getWeight());
  if (failed(c) || failed(oc) || failed(io) || !weight)
    return std::nullopt;
  ConvAxes axes{(*c)[0], (*oc)[0], (*io)[0], (*io)[1], false};
  auto groups = static_cast<int64_t>(op.getGroups());
  if (groups != 1) {
    if (weight.getDimSize(axes.weightO) != groups ||
        weight.getDimSize(axes.weightI) != 1)
      return std::nullopt;
    axes.depthwise = true;
  }
  return axes;
}

/// Same element type.
bool sameElement(Value a, Value b) {
  return getElementTypeOrSelf(a.getType()) == getElementTypeOrSelf(b.getType());
}

/// The demand a conv sends its data (forward): its C axis; the weight must
/// have the data's static channel count along I (O when depthwise) and its
/// element type.
template <typename Conv> std::optional<Demand> convDataDemand(Conv op) {
  std::optional<ConvAxes> axes = convAxes(op);
  if (!axes)
    return std::nullopt;
  RankedTensorType data = rankedType(op.getData());
  int64_t weightAxis = axes->depthwise ? axes->weightO : axes->weightI;
  if (!data || !sameElement(op.getData(), op.getWeight()) ||
      !hasSize(op.getWeight(), weightAxis, data.getDimSize(axes->dataC)))
    return std::nullopt;
  return Demand{axes->dataC};
}

/// The demand a conv's result can take (backward): its C axis; the weight
/// must have the result's static channel count along O and its element
/// type (no out_dtype change).
template <typename Conv> std::optional<Demand> convResultDemand(Conv op) {
  std::optional<ConvAxes> axes = convAxes(op);
  if (!axes)
    return std::nullopt;
  RankedTensorType out = rankedType(op.getResult());
  if (!out || !sameElement(op.getResult(), op.getWeight()) ||
      !hasSize(op.getWeight(), axes->weightO, out.getDimSize(axes->outC)))
    return std::nullopt;
  return Demand{axes->outC};
}

/// nn.dense: a rank-2 weight [units, k] whose sizes are static and match
/// the data's last dim (forward) or the result's (backward), same element
/// type. Its last axis (TVM says axis 1, which is the last only for rank-2
/// data).
std::optional<Demand> denseDemand(DenseOp op, bool forward) {
  Value v = forward ? op.getData() : op.getResult();
  RankedTensorType t = rankedType(v), w = rankedType(op.getWeight());
  if (!t || !w || w.getRank() != 2 || t.getRank() < 1 ||
      !sameElement(v, op.getWeight()) ||
      !hasSize(op.getWeight(), forward ? 1 : 0, t.getDimSize(t.getRank() - 1)))
    return std::nullopt;
  return Demand{t.getRank() - 1};
}

int64_t biasAxis(BiasAddOp op) {
  auto axis = static_cast<int64_t>(op.getAxis());
  RankedTensorType t = rankedType(op.getData());
  return axis < 0 && t ? axis + t.getRank() : axis;
}

//===----------------------------------------------------------------------===//
// Backward: a multiply after a conv/dense
//===----------------------------------------------------------------------===//

/// TVM's BackwardPrep message of `v`: the axis along which a scale of `v`
/// can be pushed into the conv/dense ops that make it, every value on the
/// way used once.
std::optional<Demand> backwardDemand(Value v) {
  Operation *op = v.getDefiningOp();
  if (!op || !v.hasOneUse())
    return std::nullopt;
  if (auto conv = dyn_cast<Conv2DOp>(op))
    return convResultDemand(conv);
  if (auto conv = dyn_cast<Conv3DOp>(op))
    return convResultDemand(conv);
  if (auto dense = dyn_cast<DenseOp>(op))
    return denseDemand(dense, /*forward=*/false);
  if (isa<ReluOp, LeakyReluOp>(op)) {
    std::optional<Demand> d = backwardDemand(op->getOperand(0));
    if (d)
      d->positive = true;
    return d;
  }
  if (auto bias = dyn_cast<BiasAddOp>(op)) {
    std::optional<Demand> d = backwardDemand(bias.getData());
    if (d && d->axis == biasAxis(bias))
      return d;
    return std::nullopt;
  }
  if (isa<AddOp, SubtractOp>(op)) {
    Value lhs = op->getOperand(0), rhs = op->getOperand(1);
    std::optional<Demand> l = backwardDemand(lhs), r = backwardDemand(rhs);
    if (l && broadcastsAlong(lhs, rhs, l->axis, false))
      return l;
    if (r && broadcastsAlong(rhs, lhs, r->axis, false))
      return r;
    if (l && r && l->axis == r->axis && lhs.getType() == rhs.getType())
      return Demand{l->axis, l->positive || r->positive};
  }
  return std::nullopt;
}

/// `v` (backwardDemand holds, along `axis`) times `scale`, built by scaling
/// the weights of its conv/dense ops (TVM's FScaleAxisBackwardTransform),
/// at the insertion point (the multiply: the scale may be defined after the
/// conv). The replaced ops go to `dead`, users first.
Value pushScale(PatternRewriter &rewriter, Value v, Scale scale, int64_t axis,
                SmallVectorImpl<Operation *> &dead) {
  Operation *op = v.getDefiningOp();
  dead.push_back(op);
  Location loc = op->getLoc();
  auto scaleWeight = [&](Value weight, int64_t weightAxis) {
    Value w = applyScale(rewriter, loc, weight, scale, weightAxis, false);
    return cloneWith(rewriter, op, {{1, w}})->getResult(0);
  };
  if (auto conv = dyn_cast<Conv2DOp>(op))
    return scaleWeight(conv.getWeight(), convAxes(conv)->weightO);
  if (auto conv = dyn_cast<Conv3DOp>(op))
    return scaleWeight(conv.getWeight(), convAxes(conv)->weightO);
  if (auto dense = dyn_cast<DenseOp>(op))
    return scaleWeight(dense.getWeight(), 0);
  if (isa<ReluOp, LeakyReluOp>(op)) {
    Value in = pushScale(rewriter, op->getOperand(0), scale, axis, dead);
    return cloneWith(rewriter, op, {{0, in}})->getResult(0);
  }
  if (auto bias = dyn_cast<BiasAddOp>(op)) {
    Value data = pushScale(rewriter, bias.getData(), scale, axis, dead);
    Value b = applyScale(rewriter, loc, bias.getBias(), scale, 0, false);
    return cloneWith(rewriter, op, {{0, data}, {1, b}})->getResult(0);
  }
  // add/subtract, the cases of backwardDemand in its order.
  Value lhs = op->getOperand(0), rhs = op->getOperand(1);
  std::optional<Demand> l = backwardDemand(lhs), r = backwardDemand(rhs);
  bool pushLhs = l && broadcastsAlong(lhs, rhs, l->axis, false);
  bool pushRhs = !pushLhs && r && broadcastsAlong(rhs, lhs, r->axis, false);
  bool both = !pushLhs && !pushRhs;
  auto side = [&](Value x, Value other, bool push) {
    if (push || both)
      return pushScale(rewriter, x, scale, axis, dead);
    int64_t base = rankedType(other).getRank() - rankedType(x).getRank();
    return applyScale(rewriter, loc, x, scale, axis - base, false);
  };
  Value newLhs = side(lhs, rhs, pushLhs);
  Value newRhs = side(rhs, lhs, pushRhs);
  return cloneWith(rewriter, op, {{0, newLhs}, {1, newRhs}})->getResult(0);
}

/// multiply(y, s) with y made by conv/dense through single-use relu/add/
/// bias_add... -> y with s folded into the weights.
struct BackwardFoldScale : OpRewritePattern<MultiplyOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MultiplyOp op,
                                PatternRewriter &rewriter) const override {
    // As TVM: the lhs if it can take a scale, else the rhs.
    Value x = op.getLhs(), s = op.getRhs();
    std::optional<Demand> d = backwardDemand(x);
    if (!d) {
      std::swap(x, s);
      d = backwardDemand(x);
    }
    if (!d)
      return rewriter.notifyMatchFailure(op, "no single-use conv/dense chain "
                                             "to take the scale");
    if (!broadcastsAlong(x, s, d->axis, /*scalar=*/true))
      return rewriter.notifyMatchFailure(op, "scale not along the channel "
                                             "axis alone");
    if (d->positive && !isNonNegativeConstant(s))
      return rewriter.notifyMatchFailure(op, "a relu needs a non-negative "
                                             "constant scale");
    if (x.getType() != op.getResult().getType())
      return rewriter.notifyMatchFailure(op, "the product has another type");
    SmallVector<Operation *> dead;
    rewriter.setInsertionPoint(op);
    Value y = pushScale(rewriter, x, scaleOf(x, s, d->axis), d->axis, dead);
    rewriter.replaceOp(op, y);
    for (Operation *o : dead)
      rewriter.eraseOp(o);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Forward: a multiply before a conv/dense
//===----------------------------------------------------------------------===//

std::optional<Demand> forwardDemand(Value v);

/// The demand one use sends back (TVM's FScaleAxisForwardPrep).
std::optional<Demand> forwardUseDemand(OpOperand &use) {
  Operation *user = use.getOwner();
  unsigned k = use.getOperandNumber();
  if (auto conv = dyn_cast<Conv2DOp>(user))
    return k == 0 ? convDataDemand(conv) : std::nullopt;
  if (auto conv = dyn_cast<Conv3DOp>(user))
    return k == 0 ? convDataDemand(conv) : std::nullopt;
  if (auto dense = dyn_cast<DenseOp>(user))
    return k == 0 ? denseDemand(dense, /*forward=*/true) : std::nullopt;
  if (isa<ReluOp, LeakyReluOp>(user)) {
    std::optional<Demand> d = forwardDemand(user->getResult(0));
    if (d)
      d->positive = true;
    return d;
  }
  if (isa<AddOp, SubtractOp>(user)) {
    std::optional<Demand> d = forwardDemand(user->getResult(0));
    if (!d || !isa<FloatType>(getElementTypeOrSelf(user->getResult(0))))
      return std::nullopt;
    Value lhs = user->getOperand(0), rhs = user->getOperand(1);
    bool left = broadcastsAlong(lhs, rhs, d->axis, false);
    if (k == 0 ? left : !left && broadcastsAlong(rhs, lhs, d->axis, false)) {
      d->divides = true;
      return d;
    }
  }
  return std::nullopt;
}

/// TVM's ForwardPrep message of `v`: the axis along which all its uses can
/// take a scale of `v` (none if one cannot or they disagree).
std::optional<Demand> forwardDemand(Value v) {
  std::optional<Demand> all;
  for (OpOperand &use : v.getUses()) {
    std::optional<Demand> d = forwardUseDemand(use);
    if (!d || (all && all->axis != d->axis))
      return std::nullopt;
    if (all) {
      all->positive |= d->positive;
      all->divides |= d->divides;
    } else {
      all = d;
    }
  }
  return all;
}

/// Every use of `old` (= `unscaled` times `scale` along `axis`) rewritten to
/// read `unscaled` (TVM's FScaleAxisForwardRewrite): conv/dense weights
/// take the scale, relu/leaky_relu/add/subtract are rebuilt on `unscaled`
/// and their uses rewritten in turn (an add's other operand divided by the
/// scale).
void pullScale(PatternRewriter &rewriter, Value old, Value unscaled,
               Scale scale, int64_t axis) {
  for (OpOperand &use : llvm::make_early_inc_range(old.getUses())) {
    Operation *user = use.getOwner();
    Location loc = user->getLoc();
    unsigned k = use.getOperandNumber();
    rewriter.setInsertionPoint(user);
    auto scaleWeight = [&](Value weight, int64_t weightAxis) {
      Value w = applyScale(rewriter, loc, weight, scale, weightAxis, false);
      Operation *c = cloneWith(rewriter, user, {{k, unscaled}, {1, w}});
      rewriter.replaceOp(user, c->getResults());
    };
    if (auto conv = dyn_cast<Conv2DOp>(user)) {
      ConvAxes a = *convAxes(conv);
      scaleWeight(conv.getWeight(), a.depthwise ? a.weightO : a.weightI);
    } else if (auto conv = dyn_cast<Conv3DOp>(user)) {
      ConvAxes a = *convAxes(conv);
      scaleWeight(conv.getWeight(), a.depthwise ? a.weightO : a.weightI);
    } else if (auto dense = dyn_cast<DenseOp>(user)) {
      scaleWeight(dense.getWeight(), 1);
    } else if (isa<ReluOp, LeakyReluOp>(user)) {
      Operation *c = cloneWith(rewriter, user, {{k, unscaled}});
      pullScale(rewriter, user->getResult(0), c->getResult(0), scale, axis);
      rewriter.eraseOp(user);
    } else { // add/subtract
      Value other = user->getOperand(1 - k);
      int64_t base = rankedType(old).getRank() - rankedType(other).getRank();
      Value divided = applyScale(rewriter, loc, other, scale, axis - base,
                                 /*divide=*/true);
      Operation *c =
          cloneWith(rewriter, user, {{k, unscaled}, {1 - k, divided}});
      pullScale(rewriter, user->getResult(0), c->getResult(0), scale, axis);
      rewriter.eraseOp(user);
    }
  }
}

/// multiply(x, s) whose uses all end at the data of conv/dense ops -> x,
/// with s folded into their weights.
struct ForwardFoldScale : OpRewritePattern<MultiplyOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MultiplyOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<Demand> d = forwardDemand(op.getResult());
    if (!d)
      return rewriter.notifyMatchFailure(op, "a use does not end at the data "
                                             "of a conv/dense");
    // As TVM: the rhs as the scale if it fits, else the lhs.
    Value x = op.getLhs(), s = op.getRhs();
    auto fits = [&](Value x, Value s) {
      return broadcastsAlong(x, s, d->axis, /*scalar=*/true) &&
             (!d->positive || isNonNegativeConstant(s));
    };
    if (!fits(x, s))
      std::swap(x, s);
    if (!fits(x, s))
      return rewriter.notifyMatchFailure(op, "no operand is a scale along "
                                             "the channel axis (non-negative "
                                             "constant under a relu)");
    if (d->divides && hasZero(s))
      return rewriter.notifyMatchFailure(op, "an add would be divided by a "
                                             "zero of the scale");
    if (x.getType() != op.getResult().getType())
      return rewriter.notifyMatchFailure(op, "the product has another type");
    pullScale(rewriter, op.getResult(), x, scaleOf(x, s, d->axis), d->axis);
    rewriter.eraseOp(op);
    return success();
  }
};

struct BackwardFoldScaleAxisPass
    : relay::impl::RelayBackwardFoldScaleAxisBase<BackwardFoldScaleAxisPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateBackwardFoldScaleAxisPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

struct ForwardFoldScaleAxisPass
    : relay::impl::RelayForwardFoldScaleAxisBase<ForwardFoldScaleAxisPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateForwardFoldScaleAxisPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace

void mlir::relay::populateBackwardFoldScaleAxisPatterns(
    RewritePatternSet &patterns) {
  patterns.add<BackwardFoldScale>(patterns.getContext());
}

void mlir::relay::populateForwardFoldScaleAxisPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ForwardFoldScale>(patterns.getContext());
}
