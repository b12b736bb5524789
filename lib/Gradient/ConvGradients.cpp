//===- ConvPoolGradients.cpp - convolutions, pools, resampling ------------===//
//
// nn.conv1d/2d/3d: the data adjoint is the output adjoint scattered back
// through the weight (`nn.conv2d_transpose` for 2-d; for 1-d and 3-d, which
// have no transposed op, the adjoint dilated by the strides, padded and
// correlated with the flipped weight, channels transposed per group); the
// weight adjoint is a convolution of the data (batch as channels, grouped
// when the forward op is) with the output adjoint (batch as channels),
// strides and dilation swapped. Pools scatter their adjoint back through
// the same transposed convolution over one channel per image: avg pools
// with a kernel of ones (after dividing by each window's count), max pools
// with one input channel per window position, masked to the first maximum.
// Adaptive pools: avg is separable (row and column averaging matrices), max
// masks every (output cell, input position) pair to the cell's first
// maximum. image.resize2d and nn.upsampling: separable linear maps whose
// matrices the op itself computes from one-hot images. Rules are written
// for the channel-first layouts (NCHW, OIHW, ...); other orderings of the
// same letters (NHWC, HWIO, NDHWC, ...) are transposed to them and back
// (the ops accept no other layouts); anything else would be an error
// naming the op and the layout.
//
//===----------------------------------------------------------------------===//
#include "relay/RelayGradient.h"
#include "relay/RelayOps.h"

#include "mlir/Interfaces/InferTypeOpInterface.h"

#include <limits>
#include <optional>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::gradient;

namespace {

/// Relay's padding of an `nd`-d op (1, nd or 2*nd entries) as 2*nd
/// entries: [before..., after...].
SmallVector<int64_t> paddingFull(ArrayRef<int64_t> p, int64_t nd) {
  SmallVector<int64_t> out(2 * nd, 0);
  for (int64_t d = 0; d < nd; ++d) {
    if (p.empty())
      continue;
    if (p.size() == 1) {
      out[d] = out[nd + d] = p[0];
    } else if (static_cast<int64_t>(p.size()) == nd) {
      out[d] = out[nd + d] = p[d];
    } else {
      out[d] = p[d];
      out[nd + d] = p[nd + d];
    }
  }
  return out;
}

SmallVector<int64_t> iota(int64_t from, int64_t to) {
  SmallVector<int64_t> v;
  for (int64_t i = from; i < to; ++i)
    v.push_back(i);
  return v;
}

SmallVector<int64_t> inversePerm(ArrayRef<int64_t> perm) {
  SmallVector<int64_t> inv(perm.size());
  for (auto [i, p] : llvm::enumerate(perm))
    inv[p] = static_cast<int64_t>(i);
  return inv;
}

/// The permutation taking a tensor in `layout` to `canonical`
/// (`transpose(x, perm)`), when `layout` orders the same letters.
std::optional<SmallVector<int64_t>> layoutPerm(StringRef layout,
                                               StringRef canonical) {
  if (layout.size() != canonical.size())
    return std::nullopt;
  SmallVector<int64_t> perm;
  for (char c : canonical) {
    size_t i = layout.find(c);
    if (i == StringRef::npos)
      return std::nullopt;
    perm.push_back(static_cast<int64_t>(i));
  }
  return perm;
}

LogicalResult requireStatic(RuleBuilder &rb, ValueRange values) {
  for (Value v : values)
    if (!tensorTypeOf(v).hasStaticShape())
      return rb.emitError() << "the gradient of `" << rb.op->getName()
                            << "` needs static shapes";
  return success();
}

/// The op being differentiated rebuilt on `operands` with some attributes
/// replaced, its result type inferred again; null when that fails.
Operation *rebuild(RuleBuilder &rb, ValueRange operands,
                   ArrayRef<NamedAttribute> overrides) {
  Operation *clone = rb.b.clone(*rb.op);
  clone->setOperands(operands);
  for (NamedAttribute a : overrides)
    clone->setAttr(a.getName(), a.getValue());
  SmallVector<Type> types;
  if (failed(cast<InferTypeOpInterface>(clone).inferReturnTypes(
          clone->getContext(), clone->getLoc(), clone->getOperands(),
          clone->getRawDictionaryAttrs(), clone->getPropertiesStorage(),
          clone->getRegions(), types)) ||
      types.size() != clone->getNumResults()) {
    clone->erase();
    return nullptr;
  }
  for (auto [r, t] : llvm::zip(clone->getResults(), types))
    r.setType(t);
  return clone;
}

/// (attribute name, canonical layout) of each leading operand.
using LayoutSpecs = ArrayRef<std::pair<StringRef, StringRef>>;

/// A layout attribute of `op`; `otherwise` (the op's default, which is the
/// canonical layout) when unset.
StringRef layoutOf(Operation *op, StringRef name, StringRef otherwise) {
  auto attr = op->getAttrOfType<StringAttr>(name);
  return attr ? attr.getValue() : otherwise;
}

/// When the op's layouts are not the canonical ones, differentiates it in
/// them: operands and adjoint transposed, the op rebuilt with canonical
/// layouts, `rule` applied to it, the adjoints transposed back. None when
/// the layouts are canonical already (the rule goes on).
std::optional<LogicalResult> viaCanonicalLayout(RuleBuilder &rb, Value g,
                                                SmallVectorImpl<Value> &out,
                                                GradientRule rule,
                                                LayoutSpecs specs) {
  Operation *op = rb.op;
  auto outLayout = op->getAttrOfType<StringAttr>("out_layout");
  bool canonical = !outLayout || outLayout.getValue().empty() ||
                   outLayout.getValue() == specs.front().second;
  for (auto [attr, want] : specs)
    canonical &= layoutOf(op, attr, want) == want;
  if (canonical)
    return std::nullopt;
  SmallVector<Value> operands(op->getOperands());
  SmallVector<SmallVector<int64_t>> perms;
  SmallVector<NamedAttribute> overrides;
  for (auto [i, spec] : llvm::enumerate(specs)) {
    StringRef layout = layoutOf(op, spec.first, spec.second);
    auto perm = layoutPerm(layout, spec.second);
    if (!perm)
      return rb.emitError()
             << "the gradient of `" << op->getName()
             << "` is implemented for orderings of " << spec.second
             << " only, got " << spec.first << " = \"" << layout << "\"";
    perms.push_back(*perm);
    operands[i] = rb.transpose(operands[i], *perm);
    overrides.push_back(
        rb.b.getNamedAttr(spec.first, rb.b.getStringAttr(spec.second)));
  }
  SmallVector<int64_t> resultPerm = perms.front();
  if (outLayout && !outLayout.getValue().empty()) {
    auto perm = layoutPerm(outLayout.getValue(), specs.front().second);
    if (!perm)
      return rb.emitError()
             << "the gradient of `" << op->getName()
             << "` is implemented for orderings of " << specs.front().second
             << " only, got out_layout = \"" << outLayout.getValue() << "\"";
    resultPerm = *perm;
    overrides.push_back(
        rb.b.getNamedAttr("out_layout", rb.b.getStringAttr("")));
  }
  if (failed(requireStatic(rb, op->getOperands())))
    return failure();
  Operation *canon = rebuild(rb, operands, overrides);
  if (!canon)
    return rb.emitError() << "could not rebuild `" << op->getName()
                          << "` in canonical layouts for its gradient";
  RuleBuilder inner(rb.b, canon);
  SmallVector<Value> grads;
  if (failed(rule(inner, rb.transpose(g, resultPerm), grads)))
    return failure();
  for (auto [i, grad] : llvm::enumerate(grads))
    out.push_back(grad && i < perms.size()
                      ? rb.transpose(grad, inversePerm(perms[i]))
                      : grad);
  if (canon->use_empty())
    canon->erase();
  return success();
}

/// A channel-first convolution of `data` with `weight`; `pad` as
/// [before..., after...].
Value makeConv(RuleBuilder &rb, Value data, Value weight,
               ArrayRef<int64_t> strides, ArrayRef<int64_t> pad,
               ArrayRef<int64_t> dilation, int64_t groups) {
  int64_t nd = tensorTypeOf(data).getRank() - 2;
  if (nd == 1)
    return Conv1DOp::create(rb.b, rb.loc, data, weight, strides, pad, dilation,
                            groups, IntegerAttr(), DenseI64ArrayAttr(), "NCW",
                            "OIW", "", TypeAttr());
  if (nd == 2)
    return Conv2DOp::create(rb.b, rb.loc, data, weight, strides, pad, dilation,
                            groups, IntegerAttr(), DenseI64ArrayAttr(), "NCHW",
                            "OIHW", "", TypeAttr());
  return Conv3DOp::create(rb.b, rb.loc, data, weight, strides, pad, dilation,
                          groups, IntegerAttr(), DenseI64ArrayAttr(), "NCDHW",
                          "OIDHW", "", TypeAttr());
}

Value reshapeTo(RuleBuilder &rb, Value v, ArrayRef<int64_t> shape) {
  return ReshapeOp::create(rb.b, rb.loc, v, rb.b.getDenseI64ArrayAttr(shape),
                           rb.b.getBoolAttr(false));
}

Value sliceSpatial(RuleBuilder &rb, Value v, ArrayRef<int64_t> begin,
                   ArrayRef<int64_t> end, ArrayRef<int64_t> strides = {}) {
  int64_t nd = static_cast<int64_t>(begin.size());
  return StridedSliceOp::create(
      rb.b, rb.loc, v, begin, end,
      strides.empty() ? DenseI64ArrayAttr()
                      : rb.b.getDenseI64ArrayAttr(strides),
      rb.b.getDenseI64ArrayAttr(iota(2, 2 + nd)), "end");
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

/// The data adjoint of an n-d channel-first convolution (any n) as a
/// convolution: `g` [N, O, out...] dilated by the strides (zeros between),
/// padded or cropped so every input position sees the windows that read
/// it, correlated with `weight` [O, C/groups, k...] flipped and with its
/// channels transposed per group.
Value convDataGrad(RuleBuilder &rb, Value g, Value weight,
                   ArrayRef<int64_t> strides, ArrayRef<int64_t> pad,
                   ArrayRef<int64_t> dilation, int64_t groups,
                   ArrayRef<int64_t> size) {
  ArrayRef<int64_t> gs = tensorTypeOf(g).getShape();
  ArrayRef<int64_t> ks = tensorTypeOf(weight).getShape();
  int64_t nd = static_cast<int64_t>(gs.size()) - 2;
  Value gd = g;
  bool strided = llvm::any_of(strides, [](int64_t s) { return s > 1; });
  SmallVector<int64_t> extent(gs.drop_front(2));
  if (strided) {
    SmallVector<int64_t> split = {gs[0], gs[1]}, merged = {gs[0], gs[1]};
    SmallVector<int64_t> widths = {0, 0, 0, 0};
    for (int64_t d = 0; d < nd; ++d) {
      split.append({gs[2 + d], 1});
      merged.push_back(gs[2 + d] * strides[d]);
      extent[d] = gs[2 + d] * strides[d];
      widths.append({0, 0, 0, strides[d] - 1});
    }
    gd = PadOp::create(rb.b, rb.loc, reshapeTo(rb, g, split), rb.scalar(0.0, g),
                       widths, "constant");
    gd = reshapeTo(rb, gd, merged);
  }
  SmallVector<int64_t> begin(nd), end(nd), convPad(2 * nd);
  bool crop = false;
  for (int64_t d = 0; d < nd; ++d) {
    int64_t length = (gs[2 + d] - 1) * strides[d] + 1;
    int64_t before = (ks[2 + d] - 1) * dilation[d] - pad[d];
    int64_t after = size[d] + pad[d] - length;
    begin[d] = std::max<int64_t>(-before, 0);
    end[d] = length - std::max<int64_t>(-after, 0);
    convPad[d] = std::max<int64_t>(before, 0);
    convPad[nd + d] = std::max<int64_t>(after, 0);
    crop |= begin[d] != 0 || end[d] != extent[d];
  }
  if (crop)
    gd = sliceSpatial(rb, gd, begin, end);
  Value w = weight;
  for (int64_t d = 0; d < nd; ++d)
    w = ReverseOp::create(rb.b, rb.loc, w, rb.b.getI64IntegerAttr(2 + d));
  // [O, C/G, k...] -> [G, O/G, C/G, k...] -> [G, C/G, O/G, k...] -> [C, O/G,
  // k...]
  SmallVector<int64_t> grouped = {groups, ks[0] / groups, ks[1]};
  SmallVector<int64_t> perm = {0, 2, 1},
                       flat = {groups * ks[1], ks[0] / groups};
  for (int64_t d = 0; d < nd; ++d) {
    grouped.push_back(ks[2 + d]);
    perm.push_back(3 + d);
    flat.push_back(ks[2 + d]);
  }
  w = reshapeTo(rb, rb.transpose(reshapeTo(rb, w, grouped), perm), flat);
  return makeConv(rb, gd, w, SmallVector<int64_t>(nd, 1), convPad, dilation,
                  groups);
}

/// The adjoint of a channel-first convolution's data, through
/// `nn.conv2d_transpose` for 2-d and `convDataGrad` otherwise. `weight` is
/// [channels of g, channels of the data / groups, k...].
Value scatterConv(RuleBuilder &rb, Value g, Value weight,
                  ArrayRef<int64_t> strides, ArrayRef<int64_t> pad,
                  ArrayRef<int64_t> dilation, int64_t groups,
                  ArrayRef<int64_t> size) {
  if (tensorTypeOf(g).getRank() == 4)
    return transposedConv(rb, g, weight, strides, pad, dilation, groups, size);
  return convDataGrad(rb, g, weight, strides, pad, dilation, groups, size);
}

/// The weight adjoint of a channel-first convolution: the kernel-shaped
/// correlation of `data` [N, C, ...] with `adjoint` [N, O, ...] over the
/// batch, a convolution with the batch as channels (the forward strides
/// and dilation swapped); with groups, the data's channels within a group
/// become the batch and (group, N) the channels, so one grouped
/// convolution gives every group's [C/G, O/G] block. Cropped to `kernel`'s
/// extent and transposed to [O, C/G, k...].
Value weightGrad(RuleBuilder &rb, Value data, Value adjoint,
                 ArrayRef<int64_t> strides, ArrayRef<int64_t> pad,
                 ArrayRef<int64_t> dilation, int64_t groups, Value kernel) {
  ArrayRef<int64_t> xs = tensorTypeOf(data).getShape();
  ArrayRef<int64_t> ks = tensorTypeOf(kernel).getShape();
  int64_t nd = static_cast<int64_t>(xs.size()) - 2;
  SmallVector<int64_t> swap = {1, 0};
  swap.append(iota(2, 2 + nd));
  Value d;
  if (groups == 1) {
    d = rb.transpose(data, swap);
  } else {
    int64_t cg = xs[1] / groups;
    SmallVector<int64_t> split = {xs[0], groups, cg}, perm = {2, 1, 0},
                         flat = {cg, groups * xs[0]};
    for (int64_t i = 0; i < nd; ++i) {
      split.push_back(xs[2 + i]);
      perm.push_back(3 + i);
      flat.push_back(xs[2 + i]);
    }
    d = reshapeTo(rb, rb.transpose(reshapeTo(rb, data, split), perm), flat);
  }
  Value corr = makeConv(rb, d, rb.transpose(adjoint, swap), dilation, pad,
                        strides, groups);
  Value cropped =
      sliceSpatial(rb, corr, SmallVector<int64_t>(nd, 0), ks.drop_front(2));
  return rb.transpose(cropped, swap);
}

const std::pair<StringRef, StringRef> kConv1DLayouts[] = {
    {"data_layout", "NCW"}, {"kernel_layout", "OIW"}};
const std::pair<StringRef, StringRef> kConv2DLayouts[] = {
    {"data_layout", "NCHW"}, {"kernel_layout", "OIHW"}};
const std::pair<StringRef, StringRef> kConv3DLayouts[] = {
    {"data_layout", "NCDHW"}, {"kernel_layout", "OIDHW"}};

/// conv1d, conv2d, conv3d in channel-first layouts.
template <typename ConvOp>
LogicalResult conv(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  auto op = cast<ConvOp>(rb.op);
  Value x = op.getData(), w = op.getWeight();
  int64_t nd = tensorTypeOf(x).getRank() - 2;
  LayoutSpecs specs = nd == 1   ? LayoutSpecs(kConv1DLayouts)
                      : nd == 2 ? LayoutSpecs(kConv2DLayouts)
                                : LayoutSpecs(kConv3DLayouts);
  if (auto r = viaCanonicalLayout(rb, g, out, conv<ConvOp>, specs))
    return *r;
  if (failed(requireStatic(rb, {x, w, g})))
    return failure();
  SmallVector<int64_t> pad = paddingFull(op.getPadding(), nd);
  ArrayRef<int64_t> xs = tensorTypeOf(x).getShape();
  int64_t groups = static_cast<int64_t>(op.getGroups());
  out.push_back(scatterConv(rb, g, w, op.getStrides(), pad, op.getDilation(),
                            groups, xs.drop_front(2)));
  // dw[o, i] = Σ_n x[n, i] ⋆ g[n, o] (within o's group)
  out.push_back(
      weightGrad(rb, x, g, op.getStrides(), pad, op.getDilation(), groups, w));
  return success();
}

/// `v` [N, C, (K,) spatial...] as [N*C, K, spatial...] (K = 1 when
/// absent): one image per batch element and channel.
Value perImage(RuleBuilder &rb, Value v, bool hasK) {
  ArrayRef<int64_t> s = tensorTypeOf(v).getShape();
  SmallVector<int64_t> shape = {s[0] * s[1]};
  if (!hasK)
    shape.push_back(1);
  shape.append(s.begin() + 2, s.end());
  return reshapeTo(rb, v, shape);
}

Value constantOf(RuleBuilder &rb, ArrayRef<int64_t> shape,
                 ArrayRef<double> values, Type element) {
  auto type = RankedTensorType::get(shape, element);
  SmallVector<Attribute> attrs;
  for (double v : values)
    attrs.push_back(rb.b.getFloatAttr(element, v));
  return ConstantOp::create(
      rb.b, rb.loc, cast<ElementsAttr>(DenseElementsAttr::get(type, attrs)));
}

StringRef channelFirst(int64_t nd) {
  return nd == 1 ? "NCW" : nd == 2 ? "NCHW" : "NCDHW";
}

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

const std::pair<StringRef, StringRef> kNCHW[] = {{"layout", "NCHW"}};

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

/// conv2d_transpose is conv2d's data adjoint, so its data adjoint is a
/// conv2d with the same weight (read as OIHW); its weight adjoint is the
/// conv2d weight adjoint with data and output adjoint swapped.
LogicalResult conv2dTranspose(RuleBuilder &rb, Value g,
                              SmallVectorImpl<Value> &out) {
  const std::pair<StringRef, StringRef> specs[] = {{"data_layout", "NCHW"},
                                                   {"kernel_layout", "IOHW"}};
  if (auto r = viaCanonicalLayout(rb, g, out, conv2dTranspose, specs))
    return *r;
  auto op = cast<Conv2DTransposeOp>(rb.op);
  Value x = op.getData(), w = op.getWeight();
  if (failed(requireStatic(rb, {x, w, g})))
    return failure();
  int64_t groups = static_cast<int64_t>(op.getGroups());
  SmallVector<int64_t> pad = paddingFull(op.getPadding(), 2);
  out.push_back(
      makeConv(rb, g, w, op.getStrides(), pad, op.getDilation(), groups));
  // dw[i, o] = Σ_n g[n, o] ⋆ x[n, i] (o within i's group)
  out.push_back(
      weightGrad(rb, g, x, op.getStrides(), pad, op.getDilation(), groups, w));
  return success();
}

/// image.resize2d and nn.upsampling are linear in the data and separable
/// (every method: nearest, linear, cubic): y = A_h x A_wᵀ per image. The
/// matrices come from the op itself, applied to one-hot images: row c of
/// the [h, h, w] stack is 1 at height c (constant along the width, which
/// the width interpolation keeps), so its output's column 0 is A_h[:, c];
/// likewise for A_w. Then dx = A_hᵀ g A_w. (Assumes the width weights sum
/// to one, which tf_crop_and_resize's extrapolation breaks: refused.)
LogicalResult resample(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  if (auto r = viaCanonicalLayout(rb, g, out, resample, kNCHW))
    return *r;
  if (auto resize = dyn_cast<Resize2DOp>(rb.op)) {
    if (resize.getCoordinateTransformationMode() == "tf_crop_and_resize")
      return rb.emitError() << "the gradient of `image.resize2d` with "
                               "coordinate_transformation_mode "
                               "\"tf_crop_and_resize\" is not implemented yet";
  }
  Value x = rb.op->getOperand(0);
  if (failed(requireStatic(rb, {x, g})))
    return failure();
  ArrayRef<int64_t> xs = tensorTypeOf(x).getShape();
  ArrayRef<int64_t> ys = tensorTypeOf(g).getShape();
  int64_t h = xs[2], w = xs[3];
  Type element = tensorTypeOf(x).getElementType();
  SmallVector<double> oneHotRows(h * h * w), oneHotCols(w * h * w);
  for (int64_t c = 0; c < h; ++c)
    for (int64_t a = 0; a < h; ++a)
      for (int64_t b = 0; b < w; ++b)
        oneHotRows[(c * h + a) * w + b] = c == a ? 1.0 : 0.0;
  for (int64_t c = 0; c < w; ++c)
    for (int64_t a = 0; a < h; ++a)
      for (int64_t b = 0; b < w; ++b)
        oneHotCols[(c * h + a) * w + b] = c == b ? 1.0 : 0.0;
  Operation *rows =
      rebuild(rb, {constantOf(rb, {1, h, h, w}, oneHotRows, element)}, {});
  Operation *cols =
      rebuild(rb, {constantOf(rb, {1, w, h, w}, oneHotCols, element)}, {});
  if (!rows || !cols)
    return rb.emitError() << "could not rebuild `" << rb.op->getName() << "`";
  auto column = [&](Value v, int64_t axis, int64_t n, int64_t m) {
    Value slice = StridedSliceOp::create(
        rb.b, rb.loc, v, ArrayRef<int64_t>{0}, ArrayRef<int64_t>{1},
        DenseI64ArrayAttr(), rb.b.getDenseI64ArrayAttr({axis}), "end");
    return reshapeTo(rb, slice, {n, m});
  };
  Value rowsT = column(rows->getResult(0), 3, h, ys[2]); // [h, oh]
  Value colsT = column(cols->getResult(0), 2, w, ys[3]); // [w, ow]
  out.push_back(rb.separableAdjoint(g, rowsT, colsT, x));
  return success();
}

} // namespace

void gradient::addConvPoolGradients(GradientRules &rules) {
  rules["relay.nn.conv1d"] = conv<Conv1DOp>;
  rules["relay.nn.conv2d"] = conv<Conv2DOp>;
  rules["relay.nn.conv3d"] = conv<Conv3DOp>;
  rules["relay.nn.conv2d_transpose"] = conv2dTranspose;
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
  rules["relay.image.resize2d"] = resample;
  rules["relay.nn.upsampling"] = resample;
}
