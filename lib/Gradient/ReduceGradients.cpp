//===- ReduceGradients.cpp - sum, mean, max/min, prod, variance -----------===//
//
// A reduction's adjoint is broadcast back over the reduced axes (after
// reinserting them as size-1 dims when the op dropped them): sum passes it
// on, mean divides by the count, max/min route it to the elements equal
// to the extremum (shared evenly on ties), prod multiplies by y / x.
//
//===----------------------------------------------------------------------===//
#include "relay/RelayGradient.h"
#include "relay/RelayOps.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::gradient;

namespace {

/// The reduced axes (sorted, non-negative) of a reduction of a rank-`rank`
/// operand.
SmallVector<int64_t> reducedAxes(std::optional<ArrayRef<int64_t>> axis,
                                 bool exclude, int64_t rank) {
  // As the typing rule and the lowering: no axis, or an empty list, is every
  // axis (and `exclude` is then ignored).
  SmallVector<int64_t> axes;
  if (!axis || axis->empty()) {
    for (int64_t i = 0; i < rank; ++i)
      axes.push_back(i);
    return axes;
  }
  SmallVector<bool> reduced(rank, false);
  for (int64_t a : *axis)
    reduced[a < 0 ? a + rank : a] = true;
  for (int64_t i = 0; i < rank; ++i)
    if (reduced[i] != exclude)
      axes.push_back(i);
  return axes;
}

/// What the rules of one reduction share: its operand, the reduced axes,
/// and values of the result's shape with the reduced axes kept.
struct Reduction {
  Value x;
  SmallVector<int64_t> axes;
  bool keepdims;

  template <typename Op> static Reduction of(Op op) {
    int64_t rank = cast<RankedTensorType>(op.getData().getType()).getRank();
    return {op.getData(), reducedAxes(op.getAxis(), op.getExclude(), rank),
            op.getKeepdims()};
  }
  /// `v` (of the result's shape) with the reduced axes as size-1 dims.
  Value kept(RuleBuilder &rb, Value v) const {
    return keepdims ? v : rb.unsqueezeAxes(v, axes);
  }
  /// The number of elements reduced into each result element.
  Value count(RuleBuilder &rb, Value like) const {
    auto type = cast<RankedTensorType>(x.getType());
    int64_t n = 1;
    bool known = true;
    for (int64_t a : axes) {
      if (type.isDynamicDim(a))
        known = false;
      else
        n *= type.getDimSize(a);
    }
    if (known)
      return rb.scalar(static_cast<double>(n), like);
    // Run-time dims: size(x) / size(result).
    Type element = cast<RankedTensorType>(like.getType()).getElementType();
    auto size = [&](Value v) -> Value {
      Value s = NdarraySizeOp::create(rb.b, rb.loc, v, TypeAttr());
      return CastOp::create(rb.b, rb.loc, s, element);
    };
    return rb.div(size(x), size(rb.op->getResult(0)));
  }
};

template <typename Op>
LogicalResult sum(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  Reduction r = Reduction::of(cast<Op>(rb.op));
  out.push_back(rb.broadcastLike(r.kept(rb, g), r.x));
  return success();
}

LogicalResult mean(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  Reduction r = Reduction::of(cast<MeanOp>(rb.op));
  Value scaled = rb.div(g, r.count(rb, g));
  out.push_back(rb.broadcastLike(r.kept(rb, scaled), r.x));
  return success();
}

template <typename Op>
LogicalResult extremum(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  Reduction r = Reduction::of(cast<Op>(rb.op));
  if (r.axes.empty()) { // nothing reduced: the identity
    out.push_back(g);
    return success();
  }
  Value y = r.kept(rb, rb.op->getResult(0));
  Value hit = EqualOp::create(rb.b, rb.loc, r.x, y);
  Type element = cast<RankedTensorType>(g.getType()).getElementType();
  Value hits = CastOp::create(rb.b, rb.loc, hit, element);
  Value ties = rb.sum(hits, r.axes, /*keepdims=*/true);
  Value share = rb.div(r.kept(rb, g), ties);
  out.push_back(rb.mul(hits, share));
  return success();
}

LogicalResult prod(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  Reduction r = Reduction::of(cast<ProdOp>(rb.op));
  Value y = r.kept(rb, rb.op->getResult(0));
  out.push_back(rb.div(rb.mul(r.kept(rb, g), y), r.x));
  return success();
}

/// variance(x, m) = Σ (x - m)² / (N - unbiased) over the axes.
LogicalResult variance(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  auto op = cast<VarianceOp>(rb.op);
  Reduction r = Reduction::of(op);
  Value centered = rb.sub(r.x, op.getMean());
  Value n = r.count(rb, g);
  if (op.getUnbiased())
    n = rb.sub(n, rb.scalar(1.0, n));
  Value scale = rb.div(rb.mul(rb.scalar(2.0, g), r.kept(rb, g)), n);
  Value dx = rb.mul(centered, scale);
  out.push_back(dx);
  out.push_back(rb.unbroadcast(rb.neg(dx), op.getMean()));
  return success();
}

} // namespace

void gradient::addReduceGradients(GradientRules &rules) {
  rules["relay.sum"] = sum<SumOp>;
  rules["relay.mean"] = mean;
  rules["relay.max"] = extremum<MaxOp>;
  rules["relay.min"] = extremum<MinOp>;
  rules["relay.prod"] = prod;
  rules["relay.variance"] = variance;
}
