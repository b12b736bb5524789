//===- TransformGradients.cpp - shape and layout ops ----------------------===//
//
// Ops that move elements: the adjoint moves them back. Reshapes reshape
// the adjoint to the operand, transposes apply the inverse permutation,
// broadcasts sum (`collapse_sum_like`), slices and pads swap with each
// other, concatenate and split swap. The indexing ops' rules are in
// IndexGradients.cpp, nn.pad's and the block shuffles' in NNGradients.cpp,
// the dyn.* ops' in DynamicGradients.cpp.
//
//===----------------------------------------------------------------------===//
#include "SharedRules.h"
#include "relay/RelayGradient.h"
#include "relay/RelayOps.h"

#include <map>
#include <set>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::gradient;

LogicalResult gradient::requireStaticShape(RuleBuilder &rb, Value v) {
  if (tensorTypeOf(v).hasStaticShape())
    return success();
  return rb.emitError() << "the gradient of `" << rb.op->getName()
                        << "` needs static shapes, got " << v.getType();
}

/// Reshape-like ops: the adjoint takes the operand's shape.
LogicalResult gradient::reshapeRule(RuleBuilder &rb, Value g,
                                    SmallVectorImpl<Value> &out) {
  out.push_back(rb.reshapeLike(g, rb.op->getOperand(0)));
  return success();
}

LogicalResult gradient::broadcastRule(RuleBuilder &rb, Value g,
                                      SmallVectorImpl<Value> &out) {
  out.push_back(rb.unbroadcast(g, rb.op->getOperand(0)));
  return success();
}

/// The adjoint of a fill value broadcast everywhere: the sum of `g`.
Value gradient::fillAdjoint(RuleBuilder &rb, Value g, Value fillValue) {
  Value total =
      SumOp::create(rb.b, rb.loc, g, DenseI64ArrayAttr(), false, false);
  Type element = tensorTypeOf(fillValue).getElementType();
  return total.getType() == fillValue.getType()
             ? total
             : rb.reshapeLike(CastOp::create(rb.b, rb.loc, total, element),
                              fillValue);
}

/// Zero-pads `g` by `before`/`after` per dim.
Value gradient::zeroPad(RuleBuilder &rb, Value g, ArrayRef<int64_t> before,
                        ArrayRef<int64_t> after) {
  SmallVector<int64_t> widths;
  for (auto [lo, hi] : llvm::zip(before, after)) {
    widths.push_back(lo);
    widths.push_back(hi);
  }
  return PadOp::create(rb.b, rb.loc, g, rb.scalar(0.0, g), widths, "constant");
}

namespace {

LogicalResult transpose(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  auto op = cast<TransposeOp>(rb.op);
  int64_t rank = tensorTypeOf(g).getRank();
  SmallVector<int64_t> perm;
  if (auto axes = op.getAxes(); axes && !axes->empty()) {
    for (int64_t a : *axes)
      perm.push_back(normalizeAxis(a, rank));
  } else {
    for (int64_t i = rank - 1; i >= 0; --i)
      perm.push_back(i);
  }
  SmallVector<int64_t> inverse(rank);
  for (int64_t i = 0; i < rank; ++i)
    inverse[perm[i]] = i;
  out.push_back(rb.transpose(g, inverse));
  return success();
}

LogicalResult collapseSum(RuleBuilder &rb, Value g,
                          SmallVectorImpl<Value> &out) {
  out.push_back(rb.broadcastLike(g, rb.op->getOperand(0)));
  return success();
}

Value sliceAxis(RuleBuilder &rb, Value x, int64_t axis, int64_t begin,
                int64_t end) {
  return StridedSliceOp::create(rb.b, rb.loc, x, ArrayRef<int64_t>{begin},
                                ArrayRef<int64_t>{end}, DenseI64ArrayAttr(),
                                rb.b.getDenseI64ArrayAttr({axis}), "end");
}

LogicalResult concatenate(RuleBuilder &rb, Value g,
                          SmallVectorImpl<Value> &out) {
  auto op = cast<ConcatenateOp>(rb.op);
  int64_t axis = normalizeAxis(static_cast<int64_t>(op.getAxis()),
                               tensorTypeOf(g).getRank());
  int64_t offset = 0;
  for (Value part : op.getData()) {
    int64_t size = tensorTypeOf(part).getDimSize(axis);
    if (ShapedType::isDynamic(size))
      return rb.emitError() << "the gradient of `concatenate` needs static "
                               "sizes along the axis";
    out.push_back(sliceAxis(rb, g, axis, offset, offset + size));
    offset += size;
  }
  return success();
}

LogicalResult split(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  auto op = cast<SplitOp>(rb.op);
  auto tuple = cast<TupleType>(g.getType());
  SmallVector<Value> parts;
  for (int64_t i = 0, e = tuple.size(); i < e; ++i)
    parts.push_back(TupleGetItemOp::create(rb.b, rb.loc, g, i));
  out.push_back(ConcatenateOp::create(rb.b, rb.loc, parts,
                                      rb.b.getI64IntegerAttr(op.getAxis())));
  return success();
}

LogicalResult stack(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  auto op = cast<StackOp>(rb.op);
  int64_t axis = normalizeAxis(static_cast<int64_t>(op.getAxis()),
                               tensorTypeOf(g).getRank());
  for (auto [i, part] : llvm::enumerate(op.getData())) {
    int64_t k = static_cast<int64_t>(i);
    Value slice = sliceAxis(rb, g, axis, k, k + 1);
    out.push_back(SqueezeOp::create(rb.b, rb.loc, slice,
                                    rb.b.getDenseI64ArrayAttr({axis})));
  }
  return success();
}

LogicalResult stridedSlice(RuleBuilder &rb, Value g,
                           SmallVectorImpl<Value> &out) {
  auto op = cast<StridedSliceOp>(rb.op);
  Value x = op.getData();
  if (failed(requireStaticShape(rb, x)) || failed(requireStaticShape(rb, g)))
    return failure();
  ArrayRef<int64_t> shape = tensorTypeOf(x).getShape();
  ArrayRef<int64_t> outShape = tensorTypeOf(g).getShape();
  int64_t rank = shape.size();
  SmallVector<int64_t> axes;
  if (auto a = op.getAxes()) {
    for (int64_t v : *a)
      axes.push_back(normalizeAxis(v, rank));
  } else {
    for (int64_t i = 0, e = op.getBegin().size(); i < e; ++i)
      axes.push_back(i);
  }
  SmallVector<int64_t> before(rank, 0), after(rank, 0);
  SmallVector<int64_t> extent(outShape.begin(), outShape.end());
  for (auto [k, axis] : llvm::enumerate(axes)) {
    int64_t stride = 1;
    if (auto s = op.getStrides();
        s && !s->empty() && op.getSliceMode() != "size")
      stride = (*s)[s->size() == 1 ? 0 : k];
    if (stride == 0)
      return rb.emitError() << "the gradient of `strided_slice` with stride 0 "
                               "is not defined";
    int64_t begin = op.getBegin()[k];
    if (begin < 0)
      begin += shape[axis];
    if (stride < 0) {
      // Output j reads begin - j|s|: the reversed adjoint is the slice from
      // the last position read with stride |s|.
      begin = std::clamp<int64_t>(begin, 0, shape[axis] - 1);
      stride = -stride;
      g = ReverseOp::create(rb.b, rb.loc, g, rb.b.getI64IntegerAttr(axis));
      begin -= (outShape[axis] - 1) * stride;
    }
    begin = std::clamp<int64_t>(begin, 0, shape[axis]);
    if (stride > 1) {
      // Put stride - 1 zeros after each element: [.., m, ..] -> [.., m*s, ..]
      // (expand, pad the new axis, merge), then keep what fits.
      int64_t m = outShape[axis];
      Value e = ExpandDimsOp::create(rb.b, rb.loc, g,
                                     rb.b.getI64IntegerAttr(axis + 1),
                                     rb.b.getI64IntegerAttr(1));
      SmallVector<int64_t> lo(rank + 1, 0), hi(rank + 1, 0);
      hi[axis + 1] = stride - 1;
      Value spread = zeroPad(rb, e, lo, hi);
      SmallVector<int64_t> merged(extent.begin(), extent.end());
      merged[axis] = m * stride;
      g = ReshapeOp::create(rb.b, rb.loc, spread,
                            rb.b.getDenseI64ArrayAttr(merged),
                            rb.b.getBoolAttr(false));
      int64_t keep = std::min(m * stride, shape[axis] - begin);
      g = sliceAxis(rb, g, axis, 0, keep);
      extent[axis] = keep;
    }
    before[axis] = begin;
    after[axis] = shape[axis] - begin - extent[axis];
  }
  out.push_back(zeroPad(rb, g, before, after));
  return success();
}

LogicalResult reverse(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  auto op = cast<ReverseOp>(rb.op);
  out.push_back(
      ReverseOp::create(rb.b, rb.loc, g, rb.b.getI64IntegerAttr(op.getAxis())));
  return success();
}

LogicalResult tile(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  auto op = cast<TileOp>(rb.op);
  Value x = op.getData();
  if (failed(requireStaticShape(rb, x)))
    return failure();
  ArrayRef<int64_t> reps = op.getReps();
  ArrayRef<int64_t> shape = tensorTypeOf(x).getShape();
  int64_t rank = std::max<int64_t>(reps.size(), shape.size());
  // [r0, d0, r1, d1, ...], summed over the r axes.
  SmallVector<int64_t> split, repAxes;
  for (int64_t i = 0; i < rank; ++i) {
    int64_t r = i - (rank - static_cast<int64_t>(reps.size()));
    int64_t d = i - (rank - static_cast<int64_t>(shape.size()));
    repAxes.push_back(split.size());
    split.push_back(r >= 0 ? reps[r] : 1);
    split.push_back(d >= 0 ? shape[d] : 1);
  }
  Value blocks =
      ReshapeOp::create(rb.b, rb.loc, g, rb.b.getDenseI64ArrayAttr(split),
                        rb.b.getBoolAttr(false));
  out.push_back(rb.reshapeLike(rb.sum(blocks, repAxes, false), x));
  return success();
}

LogicalResult repeat(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  auto op = cast<RepeatOp>(rb.op);
  Value x = op.getData();
  if (failed(requireStaticShape(rb, x)))
    return failure();
  ArrayRef<int64_t> shape = tensorTypeOf(x).getShape();
  int64_t axis =
      normalizeAxis(static_cast<int64_t>(op.getAxis()), shape.size());
  SmallVector<int64_t> split(shape.begin(), shape.end());
  split.insert(split.begin() + axis + 1, static_cast<int64_t>(op.getRepeats()));
  Value blocks =
      ReshapeOp::create(rb.b, rb.loc, g, rb.b.getDenseI64ArrayAttr(split),
                        rb.b.getBoolAttr(false));
  out.push_back(rb.sum(blocks, {axis + 1}, false));
  return success();
}

/// full / full_like: the fill value reaches every element.
LogicalResult fill(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  if (isa<FullLikeOp>(rb.op))
    out.push_back(Value()); // the shape operand
  out.push_back(fillAdjoint(rb, g, rb.op->getOperands().back()));
  return success();
}

/// layout_transform only moves elements: the inverse transform.
LogicalResult layoutTransform(RuleBuilder &rb, Value g,
                              SmallVectorImpl<Value> &out) {
  auto op = cast<LayoutTransformOp>(rb.op);
  out.push_back(LayoutTransformOp::create(
      rb.b, rb.loc, g, op.getDstLayoutAttr(), op.getSrcLayoutAttr()));
  return success();
}

/// An einsum's equation spelled out: every operand's subscripts with the
/// ellipsis replaced by fresh capital letters (aligned from the right
/// across operands, as numpy broadcasts them), the result's (implicit
/// results: the ellipsis' letters, then the letters used once, sorted), and
/// the size of every letter.
struct EinsumSubscripts {
  SmallVector<std::string> inputs;
  std::string result;
  std::map<char, int64_t> sizes;
};

/// The subscripts of `op`; an error for what the rule does not implement
/// (dims an ellipsis broadcasts from size 1, a letter repeated within one
/// operand) or a rank the subscripts do not match.
FailureOr<EinsumSubscripts> spellOut(RuleBuilder &rb, EinsumOp op) {
  EinsumSubscripts s;
  StringRef equation = op.getEquation();
  std::string eq;
  for (char ch : equation)
    if (ch != ' ')
      eq.push_back(ch);
  StringRef lhs = eq;
  std::string &result = s.result;
  size_t arrow = StringRef(eq).find("->");
  if (arrow != StringRef::npos) {
    lhs = StringRef(eq).substr(0, arrow);
    result = StringRef(eq).substr(arrow + 2).str();
  }
  SmallVector<StringRef> pieces;
  lhs.split(pieces, ',');
  ValueRange data = op.getData();
  if (pieces.size() != data.size())
    return rb.emitError() << "einsum equation \"" << equation << "\" names "
                          << pieces.size() << " operands, got " << data.size();
  // An ellipsis becomes fresh capital letters, aligned from the right
  // across operands (as numpy broadcasts them); dims it broadcasts from
  // size 1 are not supported.
  std::set<char> used(eq.begin(), eq.end());
  std::string fresh;
  for (char ch = 'A'; ch <= 'Z'; ++ch)
    if (!used.count(ch))
      fresh.push_back(ch);
  SmallVector<std::string> &inputs = s.inputs;
  SmallVector<int64_t> ellipsisSizes; // from the right
  for (auto [subs, v] : llvm::zip(pieces, data)) {
    if (failed(requireStaticShape(rb, v)))
      return failure();
    ArrayRef<int64_t> shape = tensorTypeOf(v).getShape();
    size_t dots = subs.find("...");
    if (dots == StringRef::npos) {
      inputs.push_back(subs.str());
      continue;
    }
    int64_t n = static_cast<int64_t>(shape.size()) -
                static_cast<int64_t>(subs.size() - 3);
    if (n < 0 || n > static_cast<int64_t>(fresh.size()))
      return rb.emitError() << "einsum subscripts \"" << subs
                            << "\" do not match rank " << shape.size();
    for (int64_t i = 0; i < n; ++i) {
      int64_t dim = shape[dots + n - 1 - i];
      if (static_cast<int64_t>(ellipsisSizes.size()) <= i)
        ellipsisSizes.push_back(dim);
      else if (ellipsisSizes[i] != dim)
        return rb.emitError() << "the gradient of `einsum` with an ellipsis "
                                 "that broadcasts is not implemented yet";
    }
    std::string letters = fresh.substr(fresh.size() - n);
    inputs.push_back(subs.substr(0, dots).str() + letters +
                     subs.substr(dots + 3).str());
  }
  std::string allEllipsis = fresh.substr(fresh.size() - ellipsisSizes.size());
  if (size_t dots = result.find("..."); dots != std::string::npos)
    result.replace(dots, 3, allEllipsis);
  std::map<char, int64_t> &sizes = s.sizes;
  std::map<char, int64_t> counts;
  for (auto [subs, v] : llvm::zip(inputs, data)) {
    ArrayRef<int64_t> shape = tensorTypeOf(v).getShape();
    if (subs.size() != shape.size())
      return rb.emitError() << "einsum subscripts \"" << subs
                            << "\" do not match rank " << shape.size();
    std::set<char> seen;
    for (auto [ch, dim] : llvm::zip(subs, shape)) {
      if (!seen.insert(ch).second)
        return rb.emitError() << "the gradient of `einsum` with a repeated "
                                 "subscript in one operand (\""
                              << subs << "\") is not implemented yet";
      sizes[ch] = dim;
      ++counts[ch];
    }
  }
  if (arrow == StringRef::npos) {
    // The ellipsis' letters first, then the letters used once, sorted.
    result = allEllipsis;
    for (auto [ch, count] : counts)
      if (count == 1 && allEllipsis.find(ch) == std::string::npos)
        result.push_back(ch);
  }
  return s;
}

/// Operand k's adjoint: the terms g, the other operands, ones for k's
/// letters found only in k, contracted pairwise left to right (each step
/// keeps the letters later terms or k need), which IREE compiles where one
/// n-ary einsum can fail to vectorize.
Value einsumAdjoint(RuleBuilder &rb, const EinsumSubscripts &s, ValueRange data,
                    Value g, size_t k) {
  const SmallVector<std::string> &inputs = s.inputs;
  const std::string &result = s.result;
  Type element = tensorTypeOf(g).getElementType();
  SmallVector<std::pair<std::string, Value>> terms = {{result, g}};
  std::set<char> present(result.begin(), result.end());
  for (size_t j = 0; j < inputs.size(); ++j) {
    if (j == k)
      continue;
    terms.push_back({inputs[j], data[j]});
    present.insert(inputs[j].begin(), inputs[j].end());
  }
  std::string missing;
  SmallVector<int64_t> missingShape;
  for (char ch : inputs[k])
    if (!present.count(ch)) {
      missing.push_back(ch);
      missingShape.push_back(s.sizes.find(ch)->second);
    }
  if (!missing.empty()) {
    auto type = RankedTensorType::get(missingShape, element);
    terms.push_back(
        {missing,
         ConstantOp::create(rb.b, rb.loc,
                            cast<ElementsAttr>(DenseElementsAttr::get(
                                type, rb.b.getFloatAttr(element, 1.0))))});
  }
  std::string target = inputs[k];
  std::string subs = terms.front().first;
  Value acc = terms.front().second;
  for (size_t t = 1; t < terms.size(); ++t) {
    std::set<char> needed(target.begin(), target.end());
    for (size_t u = t + 1; u < terms.size(); ++u)
      needed.insert(terms[u].first.begin(), terms[u].first.end());
    std::string kept;
    for (char ch : subs + terms[t].first)
      if (needed.count(ch) && kept.find(ch) == std::string::npos)
        kept.push_back(ch);
    acc = EinsumOp::create(
        rb.b, rb.loc, ValueRange{acc, terms[t].second},
        rb.b.getStringAttr(subs + "," + terms[t].first + "->" + kept));
    subs = kept;
  }
  if (subs != target)
    acc = EinsumOp::create(rb.b, rb.loc, ValueRange{acc},
                           rb.b.getStringAttr(subs + "->" + target));
  return acc;
}

/// einsum is linear in each operand: operand k's adjoint is the einsum of
/// the output adjoint with the other operands, written to k's subscripts.
/// Letters of k found nowhere else (summed over k alone) enter as a tensor
/// of ones. The terms are contracted pairwise. An ellipsis is spelled out
/// in fresh letters; repeated letters within an operand (diagonals) and
/// ellipses that broadcast are not implemented.
LogicalResult einsum(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  auto op = cast<EinsumOp>(rb.op);
  FailureOr<EinsumSubscripts> s = spellOut(rb, op);
  if (failed(s))
    return failure();
  for (size_t k = 0; k < s->inputs.size(); ++k)
    out.push_back(einsumAdjoint(rb, *s, op.getData(), g, k));
  return success();
}

/// arange(start, stop, step): y_i = start + i step, so start gets Σ g and
/// step Σ i g (i counted by an exclusive cumsum of ones, so run-time
/// lengths work); stop only sets the length (piecewise constant).
LogicalResult arange(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  auto op = cast<ArangeOp>(rb.op);
  Value index =
      CumsumOp::create(rb.b, rb.loc, rb.onesLike(g), rb.b.getI64IntegerAttr(0),
                       TypeAttr(), rb.b.getBoolAttr(true));
  out.push_back(fillAdjoint(rb, g, op.getStart()));
  out.push_back(Value());
  out.push_back(fillAdjoint(rb, rb.mul(g, index), op.getStep()));
  return success();
}

/// No adjoint flows back (the result depends on the operand's shape only).
LogicalResult noGradient(RuleBuilder &, Value, SmallVectorImpl<Value> &out) {
  out.push_back(Value());
  return success();
}

/// collapse_sum_to (TVM's rule): the adjoint broadcast back to the data.
LogicalResult collapseSumTo(RuleBuilder &rb, Value g,
                            SmallVectorImpl<Value> &out) {
  out.push_back(rb.broadcastLike(g, rb.op->getOperand(0)));
  return success();
}

} // namespace

void gradient::addTransformGradients(GradientRules &rules) {
  for (StringRef name : {"relay.reshape", "relay.reshape_like", "relay.squeeze",
                         "relay.expand_dims", "relay.contrib_reverse_reshape"})
    rules[name] = reshapeRule;
  rules["relay.transpose"] = transpose;
  rules["relay.broadcast_to"] = broadcastRule;
  rules["relay.broadcast_to_like"] = broadcastRule;
  rules["relay.collapse_sum_like"] = collapseSum;
  rules["relay.collapse_sum_to"] = collapseSumTo;
  rules["relay.concatenate"] = concatenate;
  rules["relay.split"] = split;
  rules["relay.stack"] = stack;
  rules["relay.strided_slice"] = stridedSlice;
  rules["relay.reverse"] = reverse;
  rules["relay.tile"] = tile;
  rules["relay.repeat"] = repeat;
  rules["relay.layout_transform"] = layoutTransform;
  rules["relay.einsum"] = einsum;
  rules["relay.full"] = fill;
  rules["relay.arange"] = arange;
  rules["relay.full_like"] = fill;
  // Only the shape reaches the result: nothing flows back.
  rules["relay.zeros_like"] = noGradient;
  rules["relay.ones_like"] = noGradient;
}
