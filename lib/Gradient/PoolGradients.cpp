//===- PoolGradients.cpp - pools ------------------------------------------===//
//
// Pools scatter their adjoint back through the transposed convolution of
// WindowAdjoints.cpp over one channel per image: avg pools with a kernel of
// ones (after dividing by each window's count), max pools with one input
// channel per window position, masked to the first maximum. Adaptive pools:
// avg is separable (row and column averaging matrices), max masks every
// (output cell, input position) pair to the cell's first maximum. Rules are
// written for the channel-first layouts; other orderings are transposed to
// them and back.
//
//===----------------------------------------------------------------------===//
//===----------------------------------------------------------------------===//
#include "SharedRules.h"
#include "WindowAdjoints.h"
#include "relay/RelayGradient.h"
#include "relay/RelayOps.h"

#include <limits>
#include <optional>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::gradient;
using namespace mlir::relay::gradient::window;

namespace {

template <typename PoolOp>
LogicalResult avgPool(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  auto op = cast<PoolOp>(rb.op);
  Value x = op.getData();
  int64_t nd = tensorTypeOf(x).getRank() - 2;
  std::pair<StringRef, StringRef> spec[] = {{"layout", channelFirst(nd)}};
  if (auto r = viaCanonicalLayout(rb, g, out, avgPool<PoolOp>, spec))
    return *r;
  if (failed(requireStatic(rb, {x, g})))
    return failure();
  ArrayRef<int64_t> k = op.getPoolSize();
  SmallVector<int64_t> pad = paddingFull(op.getPadding(), nd);
  Type element = tensorTypeOf(x).getElementType();
  int64_t window = 1;
  for (int64_t v : k)
    window *= v;
  // Each window's divisor (as the op counts): its positions inside the
  // input, or with count_include_pad inside the padded input (a ceil_mode
  // window can overhang both); a product over the dims.
  ArrayRef<int64_t> ys = tensorTypeOf(g).getShape();
  ArrayRef<int64_t> s = op.getStrides(), dil = op.getDilation();
  SmallVector<int64_t> cshape = {1, 1};
  cshape.append(ys.begin() + 2, ys.end());
  int64_t cells = 1;
  for (int64_t d = 0; d < nd; ++d)
    cells *= ys[2 + d];
  SmallVector<double> counts(cells, 1.0);
  bool includePad = op.getCountIncludePad();
  for (int64_t cell = 0; cell < cells; ++cell) {
    for (int64_t d = nd - 1, rest = cell; d >= 0; --d) {
      int64_t o = rest % ys[2 + d];
      rest /= ys[2 + d];
      int64_t in = tensorTypeOf(x).getShape()[2 + d], n = 0;
      for (int64_t j = 0; j < k[d]; ++j) {
        int64_t p = o * s[d] - pad[d] + j * dil[d];
        n += includePad ? p < in + pad[nd + d] : (p >= 0 && p < in);
      }
      counts[cell] *= static_cast<double>(std::max<int64_t>(n, 1));
    }
  }
  Value count = constantOf(rb, cshape, counts, element);
  Value scaled = perImage(rb, rb.div(g, count), /*hasK=*/false);
  SmallVector<int64_t> kshape = {1, 1};
  kshape.append(k.begin(), k.end());
  Value kernel =
      constantOf(rb, kshape, SmallVector<double>(window, 1.0), element);
  ArrayRef<int64_t> xs = tensorTypeOf(x).getShape();
  Value dx = scatterConv(rb, scaled, kernel, op.getStrides(), pad,
                         op.getDilation(), 1, xs.drop_front(2));
  out.push_back(rb.reshapeLike(dx, x));
  return success();
}

template <typename PoolOp>
LogicalResult maxPool(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  auto op = cast<PoolOp>(rb.op);
  Value x = op.getData(), y = op.getResult();
  int64_t nd = tensorTypeOf(x).getRank() - 2;
  std::pair<StringRef, StringRef> spec[] = {{"layout", channelFirst(nd)}};
  if (auto r = viaCanonicalLayout(rb, g, out, maxPool<PoolOp>, spec))
    return *r;
  if (failed(requireStatic(rb, {x, g})))
    return failure();
  ArrayRef<int64_t> k = op.getPoolSize(), s = op.getStrides(),
                    d = op.getDilation();
  SmallVector<int64_t> pad = paddingFull(op.getPadding(), nd);
  ArrayRef<int64_t> xs = tensorTypeOf(x).getShape();
  ArrayRef<int64_t> ys = tensorTypeOf(y).getShape();
  Type element = tensorTypeOf(x).getElementType();
  // Pad with -inf so every window position has an element to compare.
  SmallVector<int64_t> widths = {0, 0, 0, 0};
  for (int64_t dim = 0; dim < nd; ++dim) {
    int64_t reach = (ys[2 + dim] - 1) * s[dim] + d[dim] * (k[dim] - 1) + 1;
    int64_t have = xs[2 + dim] + pad[dim] + pad[nd + dim];
    widths.push_back(pad[dim]);
    widths.push_back(pad[nd + dim] + std::max<int64_t>(reach - have, 0));
  }
  Value xpad = PadOp::create(
      rb.b, rb.loc, x, rb.scalar(-std::numeric_limits<double>::infinity(), x),
      widths, "constant");
  // One masked adjoint per window position (row-major); ties go to the
  // first maximum.
  int64_t positions = 1;
  for (int64_t v : k)
    positions *= v;
  SmallVector<Value> masked;
  Value taken;
  Value zeros = rb.zerosLike(g);
  for (int64_t p = 0; p < positions; ++p) {
    SmallVector<int64_t> begin(nd), end(nd);
    for (int64_t dim = nd - 1, rest = p; dim >= 0; --dim) {
      begin[dim] = (rest % k[dim]) * d[dim];
      end[dim] = begin[dim] + (ys[2 + dim] - 1) * s[dim] + 1;
      rest /= k[dim];
    }
    Value window = sliceSpatial(rb, xpad, begin, end, s);
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
  Value stacked =
      StackOp::create(rb.b, rb.loc, masked, rb.b.getI64IntegerAttr(2));
  Value perWindow = perImage(rb, stacked, /*hasK=*/true); // [N*C, P, out...]
  SmallVector<double> onehot(positions * positions, 0.0);
  for (int64_t p = 0; p < positions; ++p)
    onehot[p * positions + p] = 1.0;
  SmallVector<int64_t> kshape = {positions, 1};
  kshape.append(k.begin(), k.end());
  Value kernel = constantOf(rb, kshape, onehot, element);
  Value dx = scatterConv(rb, perWindow, kernel, s, pad, d, 1, xs.drop_front(2));
  out.push_back(rb.reshapeLike(dx, x));
  return success();
}

LogicalResult globalAvgPool2d(RuleBuilder &rb, Value g,
                              SmallVectorImpl<Value> &out) {
  if (auto r = viaCanonicalLayout(rb, g, out, globalAvgPool2d, kNCHW))
    return *r;
  auto op = cast<GlobalAvgPool2DOp>(rb.op);
  Value x = op.getData();
  if (failed(requireStatic(rb, {x, g})))
    return failure();
  ArrayRef<int64_t> xs = tensorTypeOf(x).getShape();
  Value scaled = rb.div(g, rb.scalar(static_cast<double>(xs[2] * xs[3]), g));
  out.push_back(rb.broadcastLike(scaled, x));
  return success();
}

LogicalResult globalMaxPool2d(RuleBuilder &rb, Value g,
                              SmallVectorImpl<Value> &out) {
  if (auto r = viaCanonicalLayout(rb, g, out, globalMaxPool2d, kNCHW))
    return *r;
  auto op = cast<GlobalMaxPool2DOp>(rb.op);
  Value x = op.getData();
  if (failed(requireStatic(rb, {x, g})))
    return failure();
  Value hit = EqualOp::create(rb.b, rb.loc, x, op.getResult());
  Value hits =
      CastOp::create(rb.b, rb.loc, hit, tensorTypeOf(x).getElementType());
  Value ties = rb.sum(hits, {2, 3}, /*keepdims=*/true);
  out.push_back(rb.mul(hits, rb.div(g, ties)));
  return success();
}

/// Output cell `i` of an adaptive pool from `n` to `m` covers
/// [floor(i n / m), ceil((i + 1) n / m)).
std::pair<int64_t, int64_t> adaptiveWindow(int64_t i, int64_t n, int64_t m) {
  return {(i * n) / m, ((i + 1) * n + m - 1) / m};
}

/// adaptive_avg_pool2d is separable: y = A_h x A_wᵀ with A[i, a] =
/// 1/|window i| on the window; dx = A_hᵀ g A_w.
LogicalResult adaptiveAvgPool2d(RuleBuilder &rb, Value g,
                                SmallVectorImpl<Value> &out) {
  if (auto r = viaCanonicalLayout(rb, g, out, adaptiveAvgPool2d, kNCHW))
    return *r;
  Value x = rb.op->getOperand(0);
  if (failed(requireStatic(rb, {x, g})))
    return failure();
  ArrayRef<int64_t> xs = tensorTypeOf(x).getShape();
  ArrayRef<int64_t> ys = tensorTypeOf(g).getShape();
  Type element = tensorTypeOf(x).getElementType();
  auto averagingT = [&](int64_t n, int64_t m) {
    SmallVector<double> a(n * m, 0.0); // [n, m]
    for (int64_t i = 0; i < m; ++i) {
      auto [lo, hi] = adaptiveWindow(i, n, m);
      for (int64_t j = lo; j < hi; ++j)
        a[j * m + i] = 1.0 / static_cast<double>(hi - lo);
    }
    return constantOf(rb, {n, m}, a, element);
  };
  out.push_back(rb.separableAdjoint(g, averagingT(xs[2], ys[2]),
                                    averagingT(xs[3], ys[3]), x));
  return success();
}

/// adaptive_max_pool2d: every (output cell, input position) pair compared,
/// masked to the cell's window and to its first (row-major) maximum; the
/// adjoint is the mask contracted with `g`.
LogicalResult adaptiveMaxPool2d(RuleBuilder &rb, Value g,
                                SmallVectorImpl<Value> &out) {
  if (auto r = viaCanonicalLayout(rb, g, out, adaptiveMaxPool2d, kNCHW))
    return *r;
  Value x = rb.op->getOperand(0), y = rb.op->getResult(0);
  if (failed(requireStatic(rb, {x, g})))
    return failure();
  ArrayRef<int64_t> xs = tensorTypeOf(x).getShape();
  ArrayRef<int64_t> ys = tensorTypeOf(y).getShape();
  Type element = tensorTypeOf(x).getElementType();
  int64_t images = xs[0] * xs[1], cells = ys[2] * ys[3], inputs = xs[2] * xs[3];
  SmallVector<double> window(cells * inputs, 0.0);
  for (int64_t i = 0; i < ys[2]; ++i) {
    auto [h0, h1] = adaptiveWindow(i, xs[2], ys[2]);
    for (int64_t j = 0; j < ys[3]; ++j) {
      auto [w0, w1] = adaptiveWindow(j, xs[3], ys[3]);
      for (int64_t a = h0; a < h1; ++a)
        for (int64_t c = w0; c < w1; ++c)
          window[(i * ys[3] + j) * inputs + a * xs[3] + c] = 1.0;
    }
  }
  Value hit =
      EqualOp::create(rb.b, rb.loc, reshapeTo(rb, x, {images, 1, inputs}),
                      reshapeTo(rb, y, {images, cells, 1}));
  Value hits = rb.mul(CastOp::create(rb.b, rb.loc, hit, element),
                      constantOf(rb, {1, cells, inputs}, window, element));
  Value seen = CumsumOp::create(rb.b, rb.loc, hits, rb.b.getI64IntegerAttr(2),
                                TypeAttr(), rb.b.getBoolAttr(false));
  Value first = rb.select(
      EqualOp::create(rb.b, rb.loc, seen, rb.scalar(1.0, seen)), hits);
  Value dx = BatchMatmulOp::create(
      rb.b, rb.loc, reshapeTo(rb, g, {images, 1, cells}), first, TypeAttr(),
      rb.b.getBoolAttr(false), rb.b.getBoolAttr(false));
  out.push_back(rb.reshapeLike(dx, x));
  return success();
}

} // namespace

void gradient::addPoolGradients(GradientRules &rules) {
  rules["relay.nn.avg_pool1d"] = avgPool<AvgPool1DOp>;
  rules["relay.nn.avg_pool2d"] = avgPool<AvgPool2DOp>;
  rules["relay.nn.avg_pool3d"] = avgPool<AvgPool3DOp>;
  rules["relay.nn.max_pool1d"] = maxPool<MaxPool1DOp>;
  rules["relay.nn.max_pool2d"] = maxPool<MaxPool2DOp>;
  rules["relay.nn.max_pool3d"] = maxPool<MaxPool3DOp>;
  rules["relay.nn.global_avg_pool2d"] = globalAvgPool2d;
  rules["relay.nn.global_max_pool2d"] = globalMaxPool2d;
  rules["relay.nn.adaptive_avg_pool2d"] = adaptiveAvgPool2d;
  rules["relay.nn.adaptive_max_pool2d"] = adaptiveMaxPool2d;
}
