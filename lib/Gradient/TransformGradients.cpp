//===- TransformGradients.cpp - shape, layout and indexing ops
//-------------===//
//
// Ops that move elements: the adjoint moves them back. Reshapes reshape
// the adjoint to the operand, transposes apply the inverse permutation,
// broadcasts sum (`collapse_sum_like`), slices and pads swap with each
// other, concatenate and split swap, indexing scatters with `add`.
//
//===----------------------------------------------------------------------===//
#include "relay/RelayGradient.h"
#include "relay/RelayOps.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::gradient;

namespace {

LogicalResult requireStatic(RuleBuilder &rb, Value v) {
  if (tensorTypeOf(v).hasStaticShape())
    return success();
  return rb.emitError() << "the gradient of `" << rb.op->getName()
                        << "` needs static shapes, got " << v.getType();
}

/// Reshape-like ops: the adjoint takes the operand's shape.
LogicalResult reshape(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  out.push_back(rb.reshapeLike(g, rb.op->getOperand(0)));
  return success();
}

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

LogicalResult broadcast(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  out.push_back(rb.unbroadcast(g, rb.op->getOperand(0)));
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

/// Zero-pads `g` by `before`/`after` per dim.
Value zeroPad(RuleBuilder &rb, Value g, ArrayRef<int64_t> before,
              ArrayRef<int64_t> after) {
  SmallVector<int64_t> widths;
  for (auto [lo, hi] : llvm::zip(before, after)) {
    widths.push_back(lo);
    widths.push_back(hi);
  }
  return PadOp::create(rb.b, rb.loc, g, rb.scalar(0.0, g), widths, "constant");
}

LogicalResult stridedSlice(RuleBuilder &rb, Value g,
                           SmallVectorImpl<Value> &out) {
  auto op = cast<StridedSliceOp>(rb.op);
  Value x = op.getData();
  if (failed(requireStatic(rb, x)) || failed(requireStatic(rb, g)))
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
    if (stride < 1)
      return rb.emitError() << "the gradient of `strided_slice` with stride "
                            << stride << " is not implemented yet";
    int64_t begin = op.getBegin()[k];
    if (begin < 0)
      begin += shape[axis];
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

LogicalResult pad(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  auto op = cast<PadOp>(rb.op);
  if (op.getPadMode() != "constant")
    return rb.emitError() << "the gradient of `nn.pad` is implemented for "
                             "pad_mode=\"constant\" only, got \""
                          << op.getPadMode() << "\"";
  Value x = op.getData();
  if (failed(requireStatic(rb, x)))
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

LogicalResult reverse(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  auto op = cast<ReverseOp>(rb.op);
  out.push_back(
      ReverseOp::create(rb.b, rb.loc, g, rb.b.getI64IntegerAttr(op.getAxis())));
  return success();
}

LogicalResult tile(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  auto op = cast<TileOp>(rb.op);
  Value x = op.getData();
  if (failed(requireStatic(rb, x)))
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
  if (failed(requireStatic(rb, x)))
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

/// Scatters `updates` with `add` into zeros like `x` along `axis` at
/// `indices` (of `updates`' shape).
Value scatterAdd(RuleBuilder &rb, Value x, Value indices, Value updates,
                 int64_t axis) {
  return ScatterElementsOp::create(rb.b, rb.loc, rb.zerosLike(x), indices,
                                   updates, rb.b.getI64IntegerAttr(axis),
                                   rb.b.getStringAttr("add"));
}

LogicalResult gather(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  auto op = cast<GatherOp>(rb.op);
  int64_t axis = normalizeAxis(static_cast<int64_t>(op.getAxis()),
                               tensorTypeOf(g).getRank());
  out.push_back(scatterAdd(rb, op.getData(), op.getIndices(), g, axis));
  out.push_back(Value());
  return success();
}

/// scatter_elements: `add` passes the adjoint to the data and gathers it for
/// the updates; `update` also zeroes the overwritten positions of the data's
/// adjoint (indices assumed distinct, as the op's result is otherwise
/// order-dependent).
LogicalResult scatterElements(RuleBuilder &rb, Value g,
                              SmallVectorImpl<Value> &out) {
  auto op = cast<ScatterElementsOp>(rb.op);
  StringRef reduction = op.getReduction();
  if (reduction != "add" && reduction != "update")
    return rb.emitError() << "the gradient of `scatter_elements` with "
                             "reduction \""
                          << reduction << "\" is not implemented yet";
  auto axis = rb.b.getI64IntegerAttr(static_cast<int64_t>(op.getAxis()));
  Value updates = op.getUpdates(), indices = op.getIndices();
  out.push_back(reduction == "add"
                    ? g
                    : Value(ScatterElementsOp::create(
                          rb.b, rb.loc, g, indices, rb.zerosLike(updates), axis,
                          rb.b.getStringAttr("update"))));
  out.push_back(Value());
  out.push_back(GatherOp::create(rb.b, rb.loc, g, indices, axis));
  return success();
}

LogicalResult take(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  auto op = cast<TakeOp>(rb.op);
  Value x = op.getData(), indices = op.getIndices();
  if (op.getBatchDims() != 0)
    return rb.emitError()
           << "the gradient of `take` with batch_dims != 0 is not "
              "implemented yet";
  if (failed(requireStatic(rb, x)) || failed(requireStatic(rb, indices)))
    return failure();
  Value data = x;
  int64_t axis = 0;
  if (auto a = op.getAxis()) {
    axis = normalizeAxis(static_cast<int64_t>(*a), tensorTypeOf(x).getRank());
  } else {
    data = ReshapeOp::create(rb.b, rb.loc, x, rb.b.getDenseI64ArrayAttr({-1}),
                             rb.b.getBoolAttr(false));
  }
  ArrayRef<int64_t> shape = tensorTypeOf(data).getShape();
  int64_t dim = shape[axis];
  // The positions really read (as the op's `mode` resolves them).
  Value idx = indices;
  Value dimValue = rb.scalar(static_cast<double>(dim), idx);
  if (op.getMode() == "wrap") {
    idx = FloorModOp::create(rb.b, rb.loc, idx, dimValue);
  } else { // "clip" (and "fast", whose indices must be in range)
    idx = MinimumOp::create(
        rb.b, rb.loc, MaximumOp::create(rb.b, rb.loc, idx, rb.scalar(0, idx)),
        rb.scalar(static_cast<double>(dim - 1), idx));
  }
  // g is shape[:axis] + indices + shape[axis+1:]: flatten the indices.
  int64_t n = tensorTypeOf(indices).getNumElements();
  SmallVector<int64_t> flat(shape.begin(), shape.end());
  flat[axis] = n;
  Value updates =
      ReshapeOp::create(rb.b, rb.loc, g, rb.b.getDenseI64ArrayAttr(flat),
                        rb.b.getBoolAttr(false));
  SmallVector<int64_t> idxShape(shape.size(), 1);
  idxShape[axis] = n;
  Value positions =
      ReshapeOp::create(rb.b, rb.loc, idx, rb.b.getDenseI64ArrayAttr(idxShape),
                        rb.b.getBoolAttr(false));
  positions = BroadcastToOp::create(rb.b, rb.loc, positions,
                                    rb.b.getDenseI64ArrayAttr(flat));
  Value dx = scatterAdd(rb, data, positions, updates, axis);
  out.push_back(rb.reshapeLike(dx, x));
  out.push_back(Value());
  return success();
}

/// full / full_like: the fill value reaches every element.
LogicalResult fill(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  Value fillValue = rb.op->getOperands().back();
  if (isa<FullLikeOp>(rb.op))
    out.push_back(Value()); // the shape operand
  Value total =
      SumOp::create(rb.b, rb.loc, g, DenseI64ArrayAttr(), false, false);
  Type element = tensorTypeOf(fillValue).getElementType();
  out.push_back(
      total.getType() == fillValue.getType()
          ? total
          : rb.reshapeLike(CastOp::create(rb.b, rb.loc, total, element),
                           fillValue));
  return success();
}

} // namespace

void gradient::addTransformGradients(GradientRules &rules) {
  for (StringRef name :
       {"relay.reshape", "relay.reshape_like", "relay.squeeze",
        "relay.expand_dims", "relay.nn.batch_flatten", "relay.dyn.reshape"})
    rules[name] = reshape;
  rules["relay.transpose"] = transpose;
  rules["relay.broadcast_to"] = broadcast;
  rules["relay.broadcast_to_like"] = broadcast;
  rules["relay.dyn.broadcast_to"] = broadcast;
  rules["relay.collapse_sum_like"] = collapseSum;
  rules["relay.concatenate"] = concatenate;
  rules["relay.split"] = split;
  rules["relay.stack"] = stack;
  rules["relay.strided_slice"] = stridedSlice;
  rules["relay.nn.pad"] = pad;
  rules["relay.reverse"] = reverse;
  rules["relay.tile"] = tile;
  rules["relay.repeat"] = repeat;
  rules["relay.gather"] = gather;
  rules["relay.take"] = take;
  rules["relay.scatter_elements"] = scatterElements;
  rules["relay.full"] = fill;
  rules["relay.full_like"] = fill;
}
