//===- WindowAdjoints.cpp - shared by conv, pool, image rules -------------===//
//
// The building blocks of the window ops' gradient rules: Relay's padding
// spelled out, the op rebuilt in canonical (channel-first) layouts, and
// the adjoints of a convolution's data (scattered back through the weight:
// `nn.conv2d_transpose` for 2-d; for 1-d and 3-d, which have no transposed
// op, the adjoint dilated by the strides, padded and correlated with the
// flipped weight, channels transposed per group) and of its weight (a
// convolution of the data with the output adjoint, batch as channels,
// strides and dilation swapped). Other orderings of the canonical layout's
// letters (NHWC, HWIO, NDHWC, ...) are transposed to it and back; anything
// else is an error naming the op and the layout.
//
//===----------------------------------------------------------------------===//
//===----------------------------------------------------------------------===//
#include "WindowAdjoints.h"
#include "relay/RelayGradient.h"
#include "relay/RelayOps.h"

#include "mlir/Interfaces/InferTypeOpInterface.h"

#include <limits>
#include <optional>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::gradient;

namespace mlir::relay::gradient::window {

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
    if (!llvm::all_of(layout, llvm::isUpper)) // NCHW4c (AlterOpLayout's)
      return rb.emitError() << "the gradient of `" << op->getName()
                            << "` is not implemented for blocked layouts, got "
                            << spec.first << " = \"" << layout << "\"";
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
                   ArrayRef<int64_t> end, ArrayRef<int64_t> strides) {
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

const std::pair<StringRef, StringRef> kNCHW[1] = {{"layout", "NCHW"}};

} // namespace mlir::relay::gradient::window
