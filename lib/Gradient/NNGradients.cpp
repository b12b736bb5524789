//===- NNGradients.cpp - dense, matmul, bias_add, activations -------------===//
//
// dense / matmul / batch_matmul (products: each operand's adjoint is the
// other times the output adjoint), bias_add, prelu, gelu, leaky_relu,
// dropout, and the ops of the nn family that only move elements (pad,
// depth_to_space, space_to_depth, batch_flatten) or resample
// (upsampling, whose rule is image.resize2d's).
//
//===----------------------------------------------------------------------===//
#include "SharedRules.h"
#include "relay/RelayGradient.h"
#include "relay/RelayOps.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::gradient;

int64_t gradient::rankOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getRank();
}

/// Sums over every axis but `axis`.
Value gradient::sumExcept(RuleBuilder &rb, Value x, int64_t axis) {
  return SumOp::create(rb.b, rb.loc, x, rb.b.getDenseI64ArrayAttr({axis}),
                       /*keepdims=*/false, /*exclude=*/true);
}

/// A per-channel vector `[C]` shaped to broadcast against a rank-`rank`
/// tensor whose channel axis is `axis`.
Value gradient::channelwise(RuleBuilder &rb, Value v, int64_t axis,
                            int64_t rank) {
  int64_t trailing = rank - 1 - axis;
  if (trailing == 0)
    return v;
  return ExpandDimsOp::create(rb.b, rb.loc, v, rb.b.getI64IntegerAttr(1),
                              rb.b.getI64IntegerAttr(trailing));
}

namespace {

/// `x` as a matrix `[-1, last dim]`.
Value flatten2d(RuleBuilder &rb, Value x) {
  if (rankOf(x) == 2)
    return x;
  int64_t last = cast<RankedTensorType>(x.getType()).getShape().back();
  return ReshapeOp::create(rb.b, rb.loc, x,
                           rb.b.getDenseI64ArrayAttr({-1, last}),
                           rb.b.getBoolAttr(false));
}

Value matmul(RuleBuilder &rb, Value a, Value c, bool ta, bool tb) {
  return MatmulOp::create(rb.b, rb.loc, a, c, IntegerAttr(), TypeAttr(),
                          rb.b.getBoolAttr(ta), rb.b.getBoolAttr(tb));
}

/// The adjoints of `op(a) · op(c)` (op = transpose when flagged), built with
/// `mm(lhs, rhs, transposeLhs, transposeRhs)`.
template <typename MM>
void productGrads(Value g, Value a, Value c, bool ta, bool tb, MM mm, Value &da,
                  Value &dc) {
  if (!ta && !tb) {
    da = mm(g, c, false, true);
    dc = mm(a, g, true, false);
  } else if (!ta && tb) {
    da = mm(g, c, false, false);
    dc = mm(g, a, true, false);
  } else if (ta && !tb) {
    da = mm(c, g, false, true);
    dc = mm(a, g, false, false);
  } else {
    da = mm(c, g, true, true);
    dc = mm(g, a, true, true);
  }
}

LogicalResult dense(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  auto op = cast<DenseOp>(rb.op);
  Value x = op.getData(), w = op.getWeight();
  // y = x wᵀ: dx = g w, dw = gᵀ x (batch dims flattened).
  Value dx = matmul(rb, g, w, false, false);
  Value dw = matmul(rb, flatten2d(rb, g), flatten2d(rb, x), true, false);
  out.push_back(rb.reshapeLike(dx, x));
  out.push_back(dw);
  return success();
}

LogicalResult matmulRule(RuleBuilder &rb, Value g,
                         SmallVectorImpl<Value> &out) {
  auto op = cast<MatmulOp>(rb.op);
  Value a = op.getTensorA(), c = op.getTensorB();
  if (rankOf(a) != 2 || rankOf(c) != 2)
    return rb.emitError() << "the gradient of `nn.matmul` is implemented for "
                             "2-d operands only";
  Value da, dc;
  productGrads(
      g, a, c, op.getTransposeA(), op.getTransposeB(),
      [&](Value l, Value r, bool tl, bool tr) {
        return matmul(rb, l, r, tl, tr);
      },
      da, dc);
  out.push_back(da);
  out.push_back(dc);
  return success();
}

LogicalResult batchMatmul(RuleBuilder &rb, Value g,
                          SmallVectorImpl<Value> &out) {
  auto op = cast<BatchMatmulOp>(rb.op);
  Value a = op.getX(), c = op.getY();
  Value da, dc;
  productGrads(
      g, a, c, op.getTransposeA(), op.getTransposeB(),
      [&](Value l, Value r, bool tl, bool tr) -> Value {
        return BatchMatmulOp::create(rb.b, rb.loc, l, r, TypeAttr(),
                                     rb.b.getBoolAttr(tl),
                                     rb.b.getBoolAttr(tr));
      },
      da, dc);
  // A batch of one broadcast against the other operand's batch.
  out.push_back(rb.unbroadcast(da, a));
  out.push_back(rb.unbroadcast(dc, c));
  return success();
}

LogicalResult biasAdd(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  auto op = cast<BiasAddOp>(rb.op);
  int64_t axis = normalizeAxis(static_cast<int64_t>(op.getAxis()), rankOf(g));
  out.push_back(g);
  out.push_back(sumExcept(rb, g, axis));
  return success();
}

LogicalResult prelu(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  auto op = cast<PReluOp>(rb.op);
  Value x = op.getData();
  int64_t rank = rankOf(x);
  int64_t axis = normalizeAxis(static_cast<int64_t>(op.getAxis()), rank);
  Value alpha = channelwise(rb, op.getAlpha(), axis, rank);
  Value positive = GreaterOp::create(rb.b, rb.loc, x, rb.scalar(0.0, x));
  Value zeros = rb.zerosLike(g);
  out.push_back(WhereOp::create(rb.b, rb.loc, positive, g, rb.mul(g, alpha)));
  out.push_back(sumExcept(
      rb, WhereOp::create(rb.b, rb.loc, positive, zeros, rb.mul(g, x)), axis));
  return success();
}

LogicalResult dropout(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  // Compiled for inference: the output is the data.
  out.push_back(TupleGetItemOp::create(rb.b, rb.loc, g, 0));
  return success();
}

/// gelu: dx = g (Φ(x) + x φ(x)).
Value dGelu(RuleBuilder &rb, Value x) {
  // Φ(x) + x φ(x) with Φ(x) = (1 + erf(x/√2))/2, φ(x) = exp(-x²/2)/√(2π).
  Value erf = ErfOp::create(rb.b, rb.loc, rb.mul(x, rb.scalar(M_SQRT1_2, x)));
  Value cdf = rb.mul(rb.scalar(0.5, x), rb.add(rb.scalar(1.0, x), erf));
  Value pdf = rb.mul(
      rb.scalar(1.0 / std::sqrt(2.0 * M_PI), x),
      ExpOp::create(rb.b, rb.loc, rb.mul(rb.scalar(-0.5, x), rb.mul(x, x))));
  return rb.add(cdf, rb.mul(x, pdf));
}

LogicalResult gelu(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  out.push_back(rb.mul(g, dGelu(rb, rb.op->getOperand(0))));
  return success();
}

LogicalResult leakyRelu(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  auto op = cast<LeakyReluOp>(rb.op);
  Value x = op.getData();
  Value positive = GreaterOp::create(rb.b, rb.loc, x, rb.scalar(0.0, x));
  Value alpha = rb.scalar(op.getAlpha().convertToDouble(), x);
  out.push_back(WhereOp::create(rb.b, rb.loc, positive, g, rb.mul(g, alpha)));
  return success();
}

LogicalResult pad(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  auto op = cast<PadOp>(rb.op);
  if (op.getPadMode() != "constant")
    return rb.emitError() << "the gradient of `nn.pad` is implemented for "
                             "pad_mode=\"constant\" only, got \""
                          << op.getPadMode() << "\"";
  Value x = op.getData();
  if (failed(requireStaticShape(rb, x)))
    return failure();
  ArrayRef<int64_t> widths = op.getPadWidth();
  ArrayRef<int64_t> shape = tensorTypeOf(x).getShape();
  SmallVector<int64_t> begin, end;
  for (int64_t i = 0, e = shape.size(); i < e; ++i) {
    if (widths[2 * i] < 0 || widths[2 * i + 1] < 0)
      return rb.emitError() << "the gradient of `nn.pad` with negative "
                               "widths is not implemented yet";
    begin.push_back(widths[2 * i]);
    end.push_back(widths[2 * i] + shape[i]);
  }
  Value dx =
      StridedSliceOp::create(rb.b, rb.loc, g, begin, end, DenseI64ArrayAttr(),
                             DenseI64ArrayAttr(), "end");
  out.push_back(dx);
  // The pad value fills everything the data does not.
  out.push_back(rb.sub(
      SumOp::create(rb.b, rb.loc, g, DenseI64ArrayAttr(), false, false),
      SumOp::create(rb.b, rb.loc, dx, DenseI64ArrayAttr(), false, false)));
  return success();
}

/// The NCHW shape of an NCHW or NHWC `v`, and the permutation to NCHW.
LogicalResult toNCHW(RuleBuilder &rb, StringRef layout,
                     SmallVectorImpl<int64_t> &perm) {
  if (layout == "NCHW")
    perm.assign({0, 1, 2, 3});
  else if (layout == "NHWC")
    perm.assign({0, 3, 1, 2});
  else
    return rb.emitError() << "the gradient of `" << rb.op->getName()
                          << "` is implemented for the NCHW and NHWC layouts "
                             "only, got \""
                          << layout << "\"";
  return success();
}

/// depth_to_space and space_to_depth permute elements: the adjoint is the
/// inverse permutation, `g` reshaped to the 6-d view the op transposed,
/// transposed back and reshaped to the data.
LogicalResult blockShuffle(RuleBuilder &rb, Value g,
                           SmallVectorImpl<Value> &out, int64_t block,
                           StringRef layout, bool toSpace, bool dcr) {
  Value x = rb.op->getOperand(0);
  if (failed(requireStaticShape(rb, x)))
    return failure();
  SmallVector<int64_t> perm;
  if (failed(toNCHW(rb, layout, perm)))
    return failure();
  SmallVector<int64_t> inverse(4);
  for (int64_t i = 0; i < 4; ++i)
    inverse[perm[i]] = i;
  Value gc = rb.transpose(g, perm);
  ArrayRef<int64_t> xs0 = tensorTypeOf(x).getShape();
  int64_t n = xs0[perm[0]], c = xs0[perm[1]], h = xs0[perm[2]],
          w = xs0[perm[3]], b = block;
  SmallVector<int64_t> view, fwd, xshape = {n, c, h, w};
  if (toSpace && dcr) { // x [n, b, b, c/b², h, w] -> [n, c/b², h, b, w, b]
    view = {n, c / (b * b), h, b, w, b};
    fwd = {0, 3, 4, 1, 5, 2};
  } else if (toSpace) { // CRD: x [n, c/b², b, b, h, w]
    view = {n, c / (b * b), h, b, w, b};
    fwd = {0, 1, 4, 2, 5, 3};
  } else { // space_to_depth: x [n, c, h/b, b, w/b, b] -> [n, b, b, c, h/b, w/b]
    view = {n, b, b, c, h / b, w / b};
    fwd = {0, 3, 5, 1, 2, 4};
  }
  SmallVector<int64_t> back(6);
  for (int64_t i = 0; i < 6; ++i)
    back[fwd[i]] = i;
  Value v = ReshapeOp::create(rb.b, rb.loc, gc, rb.b.getDenseI64ArrayAttr(view),
                              rb.b.getBoolAttr(false));
  Value dx = ReshapeOp::create(rb.b, rb.loc, rb.transpose(v, back),
                               rb.b.getDenseI64ArrayAttr(xshape),
                               rb.b.getBoolAttr(false));
  out.push_back(rb.transpose(dx, inverse));
  return success();
}

LogicalResult depthToSpace(RuleBuilder &rb, Value g,
                           SmallVectorImpl<Value> &out) {
  auto op = cast<DepthToSpaceOp>(rb.op);
  return blockShuffle(rb, g, out, static_cast<int64_t>(op.getBlockSize()),
                      op.getLayout(), /*toSpace=*/true, op.getMode() == "DCR");
}

LogicalResult spaceToDepth(RuleBuilder &rb, Value g,
                           SmallVectorImpl<Value> &out) {
  auto op = cast<SpaceToDepthOp>(rb.op);
  return blockShuffle(rb, g, out, static_cast<int64_t>(op.getBlockSize()),
                      op.getLayout(), /*toSpace=*/false, /*dcr=*/false);
}

/// nn.cross_entropy (TVM's rule): with b the batch, dx = -g y / x / b,
/// dy = -g log(x) / b; b is divided out as the column sums of ones (a
/// [classes] vector of b), which also serves a `?` batch.
LogicalResult crossEntropy(RuleBuilder &rb, Value g,
                           SmallVectorImpl<Value> &out) {
  Value x = rb.op->getOperand(0), y = rb.op->getOperand(1);
  Value batch = rb.sum(rb.onesLike(x), {0}, /*keepdims=*/false);
  Value scaled = rb.neg(g);
  out.push_back(rb.div(rb.div(rb.mul(scaled, y), x), batch));
  out.push_back(rb.div(rb.mul(scaled, LogOp::create(rb.b, rb.loc, x)), batch));
  return success();
}

/// nn.cross_entropy_with_logits: dx = -g y / b, dy = -g x / b.
LogicalResult crossEntropyWithLogits(RuleBuilder &rb, Value g,
                                     SmallVectorImpl<Value> &out) {
  Value x = rb.op->getOperand(0), y = rb.op->getOperand(1);
  Value batch = rb.sum(rb.onesLike(x), {0}, /*keepdims=*/false);
  Value scaled = rb.neg(g);
  out.push_back(rb.div(rb.mul(scaled, y), batch));
  out.push_back(rb.div(rb.mul(scaled, x), batch));
  return success();
}

} // namespace

void gradient::addNNGradients(GradientRules &rules) {
  rules["relay.nn.dense"] = dense;
  rules["relay.nn.matmul"] = matmulRule;
  rules["relay.nn.batch_matmul"] = batchMatmul;
  rules["relay.nn.bias_add"] = biasAdd;
  rules["relay.nn.prelu"] = prelu;
  rules["relay.nn.dropout"] = dropout;
  rules["relay.nn.pad"] = pad;
  rules["relay.nn.depth_to_space"] = depthToSpace;
  rules["relay.nn.space_to_depth"] = spaceToDepth;
  rules["relay.nn.batch_flatten"] = reshapeRule;
  rules["relay.nn.upsampling"] = resample;
  rules["relay.nn.gelu"] = gelu;
  rules["relay.nn.leaky_relu"] = leakyRelu;
  rules["relay.nn.cross_entropy"] = crossEntropy;
  rules["relay.nn.cross_entropy_with_logits"] = crossEntropyWithLogits;
}
