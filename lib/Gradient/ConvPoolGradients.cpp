//===- ConvPoolGradients.cpp - convolutions and pools (NCHW) --------------===//
//
// nn.conv2d: the data adjoint is `nn.conv2d_transpose` of the output
// adjoint with the same weight; the weight adjoint is a convolution of the
// data (batch as channels) with the output adjoint (batch as channels),
// strides and dilation swapped. Pools scatter their adjoint back through a
// `nn.conv2d_transpose` over one channel per image: avg pools with a
// kernel of ones (after dividing by each window's count), max pools with
// one input channel per window position, masked to the first maximum.
// Layouts are Relay's defaults (NCHW, OIHW); `relay-gradient` runs before
// `relay-convert-layout`.
//
//===----------------------------------------------------------------------===//
#include "relay/RelayGradient.h"
#include "relay/RelayOps.h"

#include <limits>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::gradient;

namespace {

/// Relay's 1-, 2- or 4-entry 2-D padding as [top, left, bottom, right].
SmallVector<int64_t> padding4(ArrayRef<int64_t> p) {
  if (p.size() == 1)
    return {p[0], p[0], p[0], p[0]};
  if (p.size() == 2)
    return {p[0], p[1], p[0], p[1]};
  return {p[0], p[1], p[2], p[3]};
}

LogicalResult requireNCHW(RuleBuilder &rb, Value x, Value g, StringRef layout) {
  if (layout != "NCHW")
    return rb.emitError() << "the gradient of `" << rb.op->getName()
                          << "` is implemented for the NCHW layout only, got "
                          << layout;
  if (!tensorTypeOf(x).hasStaticShape() || !tensorTypeOf(g).hasStaticShape())
    return rb.emitError() << "the gradient of `" << rb.op->getName()
                          << "` needs static shapes";
  return success();
}

/// `nn.conv2d_transpose` of `g` [N, K, oh, ow] with `weight` [K, O, kh, kw]
/// to spatial size `size`: output_padding (or extra bottom/right padding
/// when the forward windows overhang) makes the sizes meet.
Value transposedConv(RuleBuilder &rb, Value g, Value weight,
                     ArrayRef<int64_t> strides, ArrayRef<int64_t> pad,
                     ArrayRef<int64_t> dilation, int64_t groups,
                     ArrayRef<int64_t> size) {
  ArrayRef<int64_t> in = tensorTypeOf(g).getShape();
  ArrayRef<int64_t> k = tensorTypeOf(weight).getShape();
  SmallVector<int64_t> p(pad), outputPadding(2);
  for (int d = 0; d < 2; ++d) {
    int64_t natural = (in[2 + d] - 1) * strides[d] - p[d] - p[d + 2] +
                      dilation[d] * (k[2 + d] - 1) + 1;
    int64_t extra = size[d] - natural;
    if (extra >= 0)
      outputPadding[d] = extra;
    else
      p[d + 2] -= extra; // crop what the forward windows overhung
  }
  return Conv2DTransposeOp::create(
      rb.b, rb.loc, g, weight, strides, p, dilation, groups, IntegerAttr(),
      DenseI64ArrayAttr(), "NCHW", "IOHW", "", outputPadding, TypeAttr());
}

/// The kernel-shaped correlation of `data` [N, A, ...] with `adjoint`
/// [N, B, ...] over the batch: conv2d with the batch as channels (strides
/// and dilation of the forward op swapped), cropped to `kernel`'s spatial
/// extent; [B, A, kh, kw] transposed to [A, B, kh, kw].
Value batchCorrelation(RuleBuilder &rb, Value data, Value adjoint,
                       ArrayRef<int64_t> strides, ArrayRef<int64_t> pad,
                       ArrayRef<int64_t> dilation, Value kernel) {
  ArrayRef<int64_t> ks = tensorTypeOf(kernel).getShape();
  Value corr = Conv2DOp::create(
      rb.b, rb.loc, rb.transpose(data, {1, 0, 2, 3}),
      rb.transpose(adjoint, {1, 0, 2, 3}), dilation, pad, strides, 1,
      IntegerAttr(), DenseI64ArrayAttr(), "NCHW", "OIHW", "", TypeAttr());
  Value cropped = StridedSliceOp::create(
      rb.b, rb.loc, corr, ArrayRef<int64_t>{0, 0},
      ArrayRef<int64_t>{ks[2], ks[3]}, DenseI64ArrayAttr(),
      rb.b.getDenseI64ArrayAttr({2, 3}), "end");
  return rb.transpose(cropped, {1, 0, 2, 3});
}

LogicalResult conv2d(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  auto op = cast<Conv2DOp>(rb.op);
  Value x = op.getData(), w = op.getWeight();
  if (failed(requireNCHW(rb, x, g, op.getDataLayout())))
    return failure();
  if (op.getKernelLayout() != "OIHW")
    return rb.emitError() << "the gradient of `nn.conv2d` is implemented for "
                             "the OIHW kernel layout only, got "
                          << op.getKernelLayout();
  SmallVector<int64_t> pad = padding4(op.getPadding());
  ArrayRef<int64_t> xs = tensorTypeOf(x).getShape();
  int64_t groups = static_cast<int64_t>(op.getGroups());
  out.push_back(transposedConv(rb, g, w, op.getStrides(), pad, op.getDilation(),
                               groups, xs.drop_front(2)));
  if (groups != 1)
    return rb.emitError() << "the weight gradient of `nn.conv2d` with groups "
                          << groups << " is not implemented yet";
  // dw[o, i] = Σ_n x[n, i] ⋆ g[n, o]
  out.push_back(
      batchCorrelation(rb, x, g, op.getStrides(), pad, op.getDilation(), w));
  return success();
}

/// `v` [N, C, (K,) h, w] as [N*C, K, h, w] (K = 1 when absent): one image
/// per batch element and channel.
Value perImage(RuleBuilder &rb, Value v) {
  ArrayRef<int64_t> s = tensorTypeOf(v).getShape();
  SmallVector<int64_t> shape = {s[0] * s[1]};
  if (s.size() == 4)
    shape.push_back(1);
  shape.append(s.begin() + 2, s.end());
  return ReshapeOp::create(rb.b, rb.loc, v, rb.b.getDenseI64ArrayAttr(shape),
                           rb.b.getBoolAttr(false));
}

Value constantOf(RuleBuilder &rb, ArrayRef<int64_t> shape,
                 ArrayRef<float> values, Type element) {
  auto type = RankedTensorType::get(shape, element);
  SmallVector<Attribute> attrs;
  for (float v : values)
    attrs.push_back(rb.b.getFloatAttr(element, v));
  return ConstantOp::create(
      rb.b, rb.loc, cast<ElementsAttr>(DenseElementsAttr::get(type, attrs)));
}

LogicalResult avgPool2d(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  auto op = cast<AvgPool2DOp>(rb.op);
  Value x = op.getData();
  if (failed(requireNCHW(rb, x, g, op.getLayout())))
    return failure();
  ArrayRef<int64_t> k = op.getPoolSize();
  SmallVector<int64_t> pad = padding4(op.getPadding());
  Type element = tensorTypeOf(x).getElementType();
  // Each window's divisor: its size, or its in-bounds part.
  Value count;
  if (op.getCountIncludePad()) {
    count = rb.scalar(static_cast<double>(k[0] * k[1]), g);
  } else {
    Value ones = rb.onesLike(x);
    Value frac = AvgPool2DOp::create(
        rb.b, rb.loc, ones, op.getPoolSizeAttr(), op.getStridesAttr(),
        op.getDilationAttr(), op.getPaddingAttr(), op.getLayoutAttr(),
        op.getOutLayoutAttr(), op.getCeilModeAttr(), rb.b.getBoolAttr(true));
    count = rb.mul(frac, rb.scalar(static_cast<double>(k[0] * k[1]), g));
  }
  Value scaled = perImage(rb, rb.div(g, count));
  SmallVector<float> ones(k[0] * k[1], 1.0f);
  Value kernel = constantOf(rb, {1, 1, k[0], k[1]}, ones, element);
  ArrayRef<int64_t> xs = tensorTypeOf(x).getShape();
  Value dx = transposedConv(rb, scaled, kernel, op.getStrides(), pad,
                            op.getDilation(), 1, xs.drop_front(2));
  out.push_back(rb.reshapeLike(dx, x));
  return success();
}

LogicalResult maxPool2d(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  auto op = cast<MaxPool2DOp>(rb.op);
  Value x = op.getData(), y = op.getResult();
  if (failed(requireNCHW(rb, x, g, op.getLayout())))
    return failure();
  ArrayRef<int64_t> k = op.getPoolSize(), s = op.getStrides(),
                    d = op.getDilation();
  SmallVector<int64_t> pad = padding4(op.getPadding());
  ArrayRef<int64_t> xs = tensorTypeOf(x).getShape();
  ArrayRef<int64_t> ys = tensorTypeOf(y).getShape();
  Type element = tensorTypeOf(x).getElementType();
  // Pad with -inf so every window position has an element to compare.
  SmallVector<int64_t> before = {0, 0, pad[0], pad[1]};
  SmallVector<int64_t> after = {0, 0, pad[2], pad[3]};
  for (int dim = 0; dim < 2; ++dim) {
    int64_t reach = (ys[2 + dim] - 1) * s[dim] + d[dim] * (k[dim] - 1) + 1;
    int64_t have = xs[2 + dim] + pad[dim] + pad[dim + 2];
    if (reach > have)
      after[2 + dim] += reach - have;
  }
  SmallVector<int64_t> widths;
  for (int dim = 0; dim < 4; ++dim) {
    widths.push_back(before[dim]);
    widths.push_back(after[dim]);
  }
  Value xpad = PadOp::create(
      rb.b, rb.loc, x, rb.scalar(-std::numeric_limits<double>::infinity(), x),
      widths, "constant");
  // One masked adjoint per window position; ties go to the first maximum.
  SmallVector<Value> masked;
  Value taken;
  Value zeros = rb.zerosLike(g);
  for (int64_t i = 0; i < k[0]; ++i) {
    for (int64_t j = 0; j < k[1]; ++j) {
      SmallVector<int64_t> begin = {i * d[0], j * d[1]};
      SmallVector<int64_t> end = {begin[0] + (ys[2] - 1) * s[0] + 1,
                                  begin[1] + (ys[3] - 1) * s[1] + 1};
      Value window = StridedSliceOp::create(
          rb.b, rb.loc, xpad, begin, end, rb.b.getDenseI64ArrayAttr(s),
          rb.b.getDenseI64ArrayAttr({2, 3}), "end");
      Value hit = EqualOp::create(rb.b, rb.loc, window, y);
      Value first = hit;
      if (taken) {
        Value again = LogicalAndOp::create(rb.b, rb.loc, hit, taken);
        first = LogicalXorOp::create(rb.b, rb.loc, hit, again);
        taken = LogicalOrOp::create(rb.b, rb.loc, taken, hit);
      } else {
        taken = hit;
      }
      masked.push_back(WhereOp::create(rb.b, rb.loc, first, g, zeros));
    }
  }
  int64_t positions = k[0] * k[1];
  Value stacked =
      StackOp::create(rb.b, rb.loc, masked, rb.b.getI64IntegerAttr(2));
  Value perWindow = perImage(rb, stacked); // [N*C, K, oh, ow]
  SmallVector<float> onehot(positions * positions, 0.0f);
  for (int64_t p = 0; p < positions; ++p)
    onehot[p * positions + p] = 1.0f;
  Value kernel = constantOf(rb, {positions, 1, k[0], k[1]}, onehot, element);
  Value dx =
      transposedConv(rb, perWindow, kernel, s, pad, d, 1, xs.drop_front(2));
  out.push_back(rb.reshapeLike(dx, x));
  return success();
}

LogicalResult globalAvgPool2d(RuleBuilder &rb, Value g,
                              SmallVectorImpl<Value> &out) {
  auto op = cast<GlobalAvgPool2DOp>(rb.op);
  Value x = op.getData();
  if (failed(requireNCHW(rb, x, g, op.getLayout())))
    return failure();
  ArrayRef<int64_t> xs = tensorTypeOf(x).getShape();
  Value scaled = rb.div(g, rb.scalar(static_cast<double>(xs[2] * xs[3]), g));
  out.push_back(rb.broadcastLike(scaled, x));
  return success();
}

/// conv2d_transpose is conv2d's data adjoint, so its data adjoint is a
/// conv2d with the same weight (read as OIHW); its weight adjoint is the
/// conv2d weight adjoint with data and output adjoint swapped.
LogicalResult conv2dTranspose(RuleBuilder &rb, Value g,
                              SmallVectorImpl<Value> &out) {
  auto op = cast<Conv2DTransposeOp>(rb.op);
  Value x = op.getData(), w = op.getWeight();
  if (failed(requireNCHW(rb, x, g, op.getDataLayout())))
    return failure();
  if (op.getKernelLayout() != "IOHW" || op.getGroups() != 1)
    return rb.emitError() << "the gradient of `nn.conv2d_transpose` is "
                             "implemented for the IOHW kernel layout and "
                             "groups = 1 only";
  SmallVector<int64_t> pad = padding4(op.getPadding());
  out.push_back(Conv2DOp::create(
      rb.b, rb.loc, g, w, op.getStrides(), pad, op.getDilation(), 1,
      IntegerAttr(), DenseI64ArrayAttr(), "NCHW", "OIHW", "", TypeAttr()));
  // dw[i, o] = Σ_n g[n, o] ⋆ x[n, i]
  out.push_back(
      batchCorrelation(rb, g, x, op.getStrides(), pad, op.getDilation(), w));
  return success();
}

/// conv1d as a conv2d of height 1: the conv2d rule on unsqueezed values.
LogicalResult conv1d(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  auto op = cast<Conv1DOp>(rb.op);
  if (op.getDataLayout() != "NCW" || op.getKernelLayout() != "OIW")
    return rb.emitError() << "the gradient of `nn.conv1d` is implemented for "
                             "the NCW/OIW layouts only";
  auto unsqueeze = [&](Value v) -> Value {
    return ExpandDimsOp::create(rb.b, rb.loc, v, rb.b.getI64IntegerAttr(2),
                                rb.b.getI64IntegerAttr(1));
  };
  ArrayRef<int64_t> p = op.getPadding();
  int64_t before = p[0], after = p.size() > 1 ? p[1] : p[0];
  auto conv = Conv2DOp::create(
      rb.b, rb.loc, unsqueeze(op.getData()), unsqueeze(op.getWeight()),
      ArrayRef<int64_t>{1, op.getStrides()[0]},
      ArrayRef<int64_t>{0, before, 0, after},
      ArrayRef<int64_t>{1, op.getDilation()[0]}, op.getGroups(), IntegerAttr(),
      DenseI64ArrayAttr(), "NCHW", "OIHW", "", TypeAttr());
  RuleBuilder inner(rb.b, conv);
  SmallVector<Value> grads;
  if (failed(conv2d(inner, unsqueeze(g), grads)))
    return failure();
  for (auto [grad, like] : llvm::zip(grads, op->getOperands()))
    out.push_back(grad ? rb.reshapeLike(grad, like) : Value());
  return success();
}

LogicalResult globalMaxPool2d(RuleBuilder &rb, Value g,
                              SmallVectorImpl<Value> &out) {
  auto op = cast<GlobalMaxPool2DOp>(rb.op);
  Value x = op.getData();
  if (failed(requireNCHW(rb, x, g, op.getLayout())))
    return failure();
  Value hit = EqualOp::create(rb.b, rb.loc, x, op.getResult());
  Value hits =
      CastOp::create(rb.b, rb.loc, hit, tensorTypeOf(x).getElementType());
  Value ties = rb.sum(hits, {2, 3}, /*keepdims=*/true);
  out.push_back(rb.mul(hits, rb.div(g, ties)));
  return success();
}

} // namespace

void gradient::addConvPoolGradients(GradientRules &rules) {
  rules["relay.nn.conv2d"] = conv2d;
  rules["relay.nn.avg_pool2d"] = avgPool2d;
  rules["relay.nn.max_pool2d"] = maxPool2d;
  rules["relay.nn.global_avg_pool2d"] = globalAvgPool2d;
  rules["relay.nn.global_max_pool2d"] = globalMaxPool2d;
  rules["relay.nn.conv1d"] = conv1d;
  rules["relay.nn.conv2d_transpose"] = conv2dTranspose;
}
