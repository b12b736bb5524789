//===- NormGradients.cpp - norms, softmax, lrn ----------------------------===//
//
// The normalisations' adjoints (batch/layer/instance/group norm through one
// helper, l2_normalize, lrn) and softmax / log_softmax's.
//
//===----------------------------------------------------------------------===//
#include "SharedRules.h"
#include "relay/RelayGradient.h"
#include "relay/RelayOps.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::gradient;

namespace {

LogicalResult softmax(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  auto op = cast<SoftmaxOp>(rb.op);
  Value y = op.getResult();
  int64_t axis = static_cast<int64_t>(op.getAxis());
  Value dot = rb.sum(rb.mul(g, y), {axis}, /*keepdims=*/true);
  out.push_back(rb.mul(y, rb.sub(g, dot)));
  return success();
}

LogicalResult logSoftmax(RuleBuilder &rb, Value g,
                         SmallVectorImpl<Value> &out) {
  auto op = cast<LogSoftmaxOp>(rb.op);
  Value y = op.getResult();
  int64_t axis = static_cast<int64_t>(op.getAxis());
  Value total = rb.sum(g, {axis}, /*keepdims=*/true);
  out.push_back(rb.sub(g, rb.mul(ExpOp::create(rb.b, rb.loc, y), total)));
  return success();
}

/// The adjoints of a normalisation over `axes` (mean and variance per
/// remaining index) with a per-channel scale/shift along `channel`:
/// y = (x - mean) rstd * gamma + beta.
void normGrads(RuleBuilder &rb, Value g, Value x, Value gamma, bool scale,
               bool center, ArrayRef<int64_t> axes, int64_t channel,
               double epsilon, SmallVectorImpl<Value> &out) {
  int64_t rank = rankOf(x);
  auto axesAttr = rb.b.getDenseI64ArrayAttr(axes);
  Value mean = MeanOp::create(rb.b, rb.loc, x, axesAttr, /*keepdims=*/true);
  Value var = VarianceOp::create(rb.b, rb.loc, x, axesAttr, /*keepdims=*/true,
                                 /*exclude=*/false, mean, /*unbiased=*/false);
  Value rstd =
      RsqrtOp::create(rb.b, rb.loc, rb.add(var, rb.scalar(epsilon, var)));
  Value xhat = rb.mul(rb.sub(x, mean), rstd);
  Value gx = scale ? rb.mul(g, channelwise(rb, gamma, channel, rank)) : g;
  Value meanG = MeanOp::create(rb.b, rb.loc, gx, axesAttr, true);
  Value meanGX = MeanOp::create(rb.b, rb.loc, rb.mul(gx, xhat), axesAttr, true);
  out.push_back(rb.mul(rstd, rb.sub(rb.sub(gx, meanG), rb.mul(xhat, meanGX))));
  out.push_back(scale ? sumExcept(rb, rb.mul(g, xhat), channel) : Value());
  out.push_back(center ? sumExcept(rb, g, channel) : Value());
}

LogicalResult layerNorm(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  auto op = cast<LayerNormOp>(rb.op);
  int64_t axis =
      normalizeAxis(static_cast<int64_t>(op.getAxis()), rankOf(op.getData()));
  normGrads(rb, g, op.getData(), op.getGamma(), op.getScale(), op.getCenter(),
            {axis}, axis, op.getEpsilon().convertToDouble(), out);
  return success();
}

/// Instance norm: statistics over every axis but the batch (0) and channels.
LogicalResult instanceNorm(RuleBuilder &rb, Value g,
                           SmallVectorImpl<Value> &out) {
  auto op = cast<InstanceNormOp>(rb.op);
  int64_t rank = rankOf(op.getData());
  int64_t axis = normalizeAxis(static_cast<int64_t>(op.getAxis()), rank);
  SmallVector<int64_t> axes;
  for (int64_t i = 1; i < rank; ++i)
    if (i != axis)
      axes.push_back(i);
  normGrads(rb, g, op.getData(), op.getGamma(), op.getScale(), op.getCenter(),
            axes, axis, op.getEpsilon().convertToDouble(), out);
  return success();
}

/// Inference-form batch norm: y = (x - m) γ / √(v + ε) + β with the
/// moving statistics as operands; fields 1, 2 of the result pass m, v on.
LogicalResult batchNorm(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  auto op = cast<BatchNormOp>(rb.op);
  Value x = op.getData();
  int64_t rank = rankOf(x);
  int64_t axis = normalizeAxis(static_cast<int64_t>(op.getAxis()), rank);
  Value gy = TupleGetItemOp::create(rb.b, rb.loc, g, 0);
  Value gMean = TupleGetItemOp::create(rb.b, rb.loc, g, 1);
  Value gVar = TupleGetItemOp::create(rb.b, rb.loc, g, 2);
  Value var = op.getMovingVar();
  Value rstd = RsqrtOp::create(
      rb.b, rb.loc,
      rb.add(var, rb.scalar(op.getEpsilon().convertToDouble(), var)));
  Value gamma = op.getScale() ? op.getGamma() : rb.onesLike(rstd);
  Value scale = rb.mul(gamma, rstd); // [C]
  Value centered = rb.sub(x, channelwise(rb, op.getMovingMean(), axis, rank));
  Value sumG = sumExcept(rb, gy, axis);
  Value sumGC = sumExcept(rb, rb.mul(gy, centered), axis);
  out.push_back(rb.mul(gy, channelwise(rb, scale, axis, rank)));
  out.push_back(op.getScale() ? rb.mul(sumGC, rstd) : Value());
  out.push_back(op.getCenter() ? sumG : Value());
  out.push_back(rb.sub(gMean, rb.mul(sumG, scale)));
  Value rstd3 = rb.mul(rstd, rb.mul(rstd, rstd));
  out.push_back(rb.add(
      gVar, rb.mul(rb.mul(sumGC, gamma), rb.mul(rb.scalar(-0.5, var), rstd3))));
  return success();
}

/// Group norm: statistics per (batch, group) over the group's channels and
/// the trailing dims, seen as [outer, groups, rest] (contiguous).
LogicalResult groupNorm(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  auto op = cast<GroupNormOp>(rb.op);
  Value x = op.getData();
  auto type = cast<RankedTensorType>(x.getType());
  if (!type.hasStaticShape())
    return rb.emitError() << "the gradient of `nn.group_norm` needs static "
                             "shapes";
  int64_t rank = type.getRank();
  int64_t axis = normalizeAxis(static_cast<int64_t>(op.getAxis()), rank);
  int64_t groups = static_cast<int64_t>(op.getNumGroups());
  int64_t outer = 1, rest = 1;
  for (int64_t i = 0; i < rank; ++i)
    (i < axis ? outer : rest) *= type.getShape()[i];
  SmallVector<int64_t> grouped = {outer, groups, rest / groups};
  auto reshape = [&](Value v) -> Value {
    return ReshapeOp::create(rb.b, rb.loc, v,
                             rb.b.getDenseI64ArrayAttr(grouped),
                             rb.b.getBoolAttr(false));
  };
  Value xr = reshape(x);
  auto axes = rb.b.getDenseI64ArrayAttr({2});
  Value mean = MeanOp::create(rb.b, rb.loc, xr, axes, /*keepdims=*/true);
  Value var = VarianceOp::create(rb.b, rb.loc, xr, axes, /*keepdims=*/true,
                                 /*exclude=*/false, mean, /*unbiased=*/false);
  Value rstd = RsqrtOp::create(
      rb.b, rb.loc,
      rb.add(var, rb.scalar(op.getEpsilon().convertToDouble(), var)));
  Value xhat = rb.mul(rb.sub(xr, mean), rstd);
  Value gx =
      op.getScale() ? rb.mul(g, channelwise(rb, op.getGamma(), axis, rank)) : g;
  Value gr = reshape(gx);
  Value meanG = MeanOp::create(rb.b, rb.loc, gr, axes, true);
  Value meanGX = MeanOp::create(rb.b, rb.loc, rb.mul(gr, xhat), axes, true);
  Value dx = rb.mul(rstd, rb.sub(rb.sub(gr, meanG), rb.mul(xhat, meanGX)));
  out.push_back(rb.reshapeLike(dx, x));
  out.push_back(op.getScale()
                    ? sumExcept(rb, rb.mul(g, rb.reshapeLike(xhat, x)), axis)
                    : Value());
  out.push_back(op.getCenter() ? sumExcept(rb, g, axis) : Value());
  return success();
}

/// y = x / √max(Σ x², ε) over `axis` (all axes when empty): where the sum
/// exceeds ε, dx = (g - y Σ g y) / norm; elsewhere the norm is the
/// constant √ε and dx = g / √ε.
LogicalResult l2Normalize(RuleBuilder &rb, Value g,
                          SmallVectorImpl<Value> &out) {
  auto op = cast<L2NormalizeOp>(rb.op);
  Value x = op.getData(), y = op.getResult();
  int64_t rank = rankOf(x);
  SmallVector<int64_t> axes;
  for (int64_t a : op.getAxis())
    axes.push_back(normalizeAxis(a, rank));
  if (axes.empty())
    for (int64_t i = 0; i < rank; ++i)
      axes.push_back(i);
  double eps = op.getEps().convertToDouble();
  Value squares = rb.sum(rb.mul(x, x), axes, /*keepdims=*/true);
  Value rnorm = RsqrtOp::create(
      rb.b, rb.loc,
      MaximumOp::create(rb.b, rb.loc, squares, rb.scalar(eps, x)));
  Value above = GreaterOp::create(rb.b, rb.loc, squares, rb.scalar(eps, x));
  Value dot = rb.sum(rb.mul(g, y), axes, /*keepdims=*/true);
  Value radial = rb.select(above, rb.mul(y, dot));
  out.push_back(rb.mul(rb.sub(g, radial), rnorm));
  return success();
}

/// Σ_{j=lo..hi} v[c + j] along `axis` (zero outside): `v` padded and
/// sliced once per offset.
Value windowSum(RuleBuilder &rb, Value v, int64_t axis, int64_t lo,
                int64_t hi) {
  ArrayRef<int64_t> shape = cast<RankedTensorType>(v.getType()).getShape();
  int64_t rank = static_cast<int64_t>(shape.size()), n = shape[axis];
  int64_t before = std::max<int64_t>(-lo, 0), after = std::max<int64_t>(hi, 0);
  SmallVector<int64_t> widths(2 * rank, 0);
  widths[2 * axis] = before;
  widths[2 * axis + 1] = after;
  Value padded =
      PadOp::create(rb.b, rb.loc, v, rb.scalar(0.0, v), widths, "constant");
  Value total;
  for (int64_t j = lo; j <= hi; ++j) {
    int64_t begin = j + before;
    Value slice = StridedSliceOp::create(
        rb.b, rb.loc, padded, ArrayRef<int64_t>{begin},
        ArrayRef<int64_t>{begin + n}, DenseI64ArrayAttr(),
        rb.b.getDenseI64ArrayAttr({axis}), "end");
    total = total ? rb.add(total, slice) : slice;
  }
  return total;
}

/// lrn: y = x d^-β, d = bias + α/size Σ_window x² (the window of channel
/// c is [c - size/2, c - size/2 + size)); dx = g d^-β - 2αβ/size x
/// Σ_window' (g x d^(-β-1)), window' the mirrored window.
LogicalResult lrn(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  auto op = cast<LRNOp>(rb.op);
  Value x = op.getData();
  if (!cast<RankedTensorType>(x.getType()).hasStaticShape())
    return rb.emitError() << "the gradient of `nn.lrn` needs static shapes";
  int64_t axis = normalizeAxis(static_cast<int64_t>(op.getAxis()), rankOf(x));
  int64_t size = static_cast<int64_t>(op.getSize());
  double bias = op.getBias().convertToDouble();
  double alpha = op.getAlpha().convertToDouble() / static_cast<double>(size);
  double beta = op.getBeta().convertToDouble();
  int64_t lo = -(size / 2), hi = size - size / 2 - 1;
  Value d = rb.add(
      rb.scalar(bias, x),
      rb.mul(rb.scalar(alpha, x), windowSum(rb, rb.mul(x, x), axis, lo, hi)));
  Value dPow = PowerOp::create(rb.b, rb.loc, d, rb.scalar(-beta, x));
  Value inner = rb.mul(rb.mul(g, x), rb.div(dPow, d));
  Value spread = windowSum(rb, inner, axis, -hi, -lo);
  out.push_back(rb.sub(rb.mul(g, dPow), rb.mul(rb.scalar(2.0 * alpha * beta, x),
                                               rb.mul(x, spread))));
  return success();
}

} // namespace

void gradient::addNormGradients(GradientRules &rules) {
  rules["relay.nn.softmax"] = softmax;
  rules["relay.nn.log_softmax"] = logSoftmax;
  rules["relay.nn.layer_norm"] = layerNorm;
  rules["relay.nn.instance_norm"] = instanceNorm;
  rules["relay.nn.batch_norm"] = batchNorm;
  rules["relay.nn.group_norm"] = groupNorm;
  rules["relay.nn.l2_normalize"] = l2Normalize;
  rules["relay.nn.lrn"] = lrn;
}
