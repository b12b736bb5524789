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

#include <map>
#include <set>

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
  int64_t batch = normalizeAxis(static_cast<int64_t>(op.getBatchDims()),
                                tensorTypeOf(indices).getRank());
  if (batch != 0 && !op.getAxis())
    return rb.emitError() << "the gradient of `take` with batch_dims and no "
                             "axis is not implemented yet";
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
  // g is shape[:axis] + indices[batch:] + shape[axis+1:] (the first
  // `batch` dims shared by data and indices): flatten the indices' own
  // dims; each batch element scatters at its own indices.
  int64_t n = tensorTypeOf(indices).getNumElements();
  for (int64_t d = 0; d < batch; ++d)
    n /= shape[d];
  SmallVector<int64_t> flat(shape.begin(), shape.end());
  flat[axis] = n;
  Value updates =
      ReshapeOp::create(rb.b, rb.loc, g, rb.b.getDenseI64ArrayAttr(flat),
                        rb.b.getBoolAttr(false));
  SmallVector<int64_t> idxShape(shape.size(), 1);
  for (int64_t d = 0; d < batch; ++d)
    idxShape[d] = shape[d];
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
/// The adjoint of a fill value broadcast everywhere: the sum of `g`.
Value fillAdjoint(RuleBuilder &rb, Value g, Value fillValue) {
  Value total =
      SumOp::create(rb.b, rb.loc, g, DenseI64ArrayAttr(), false, false);
  Type element = tensorTypeOf(fillValue).getElementType();
  return total.getType() == fillValue.getType()
             ? total
             : rb.reshapeLike(CastOp::create(rb.b, rb.loc, total, element),
                              fillValue);
}

LogicalResult fill(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  if (isa<FullLikeOp>(rb.op))
    out.push_back(Value()); // the shape operand
  out.push_back(fillAdjoint(rb, g, rb.op->getOperands().back()));
  return success();
}

/// dyn.full(fill_value, shape): the shape is run-time data.
LogicalResult dynFill(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  out.push_back(fillAdjoint(rb, g, rb.op->getOperand(0)));
  out.push_back(Value());
  return success();
}

/// gather_nd reads slices of the data: its adjoint adds them back with
/// `scatter_nd` (mode add). With batch_dims b the indices [M, B1..Bb, Y...]
/// get the batch coordinates prepended ([b + M, B1..Bb, Y...]), which makes
/// the scatter an ordinary one over the whole data.
LogicalResult gatherNd(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  auto op = cast<GatherNDOp>(rb.op);
  Value indices = op.getIndices();
  int64_t batch = static_cast<int64_t>(op.getBatchDims());
  if (batch > 0) {
    if (failed(requireStatic(rb, indices)))
      return failure();
    auto itype = tensorTypeOf(indices);
    ArrayRef<int64_t> is = itype.getShape();
    SmallVector<int64_t> shape(is.begin(), is.end());
    shape[0] = batch;
    int64_t cells = 1;
    for (int64_t d : ArrayRef<int64_t>(shape).drop_front())
      cells *= d;
    SmallVector<APInt> coords;
    unsigned width = itype.getElementType().getIntOrFloatBitWidth();
    for (int64_t t = 0; t < batch; ++t) {
      for (int64_t cell = 0; cell < cells; ++cell) {
        // the coordinate along batch dim t (axis 1 + t) of this cell
        int64_t inner = 1;
        for (int64_t d = 2 + t; d < static_cast<int64_t>(shape.size()); ++d)
          inner *= shape[d];
        coords.push_back(APInt(width, (cell / inner) % shape[1 + t]));
      }
    }
    auto ctype = RankedTensorType::get(shape, itype.getElementType());
    Value batchCoords = ConstantOp::create(
        rb.b, rb.loc,
        cast<ElementsAttr>(DenseElementsAttr::get(ctype, coords)));
    indices =
        ConcatenateOp::create(rb.b, rb.loc, ValueRange{batchCoords, indices},
                              rb.b.getI64IntegerAttr(0));
  }
  out.push_back(ScatterNDOp::create(rb.b, rb.loc, rb.zerosLike(op.getData()),
                                    indices, g, rb.b.getStringAttr("add")));
  out.push_back(Value());
  return success();
}

/// scatter_nd: as scatter_elements, with gather_nd reading the updates'
/// adjoint (`update` assumes distinct indices).
LogicalResult scatterNd(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  auto op = cast<ScatterNDOp>(rb.op);
  StringRef mode = op.getMode();
  if (mode != "add" && mode != "update")
    return rb.emitError() << "the gradient of `scatter_nd` with mode \"" << mode
                          << "\" is not implemented yet";
  Value indices = op.getIndices();
  out.push_back(mode == "add"
                    ? g
                    : Value(ScatterNDOp::create(rb.b, rb.loc, g, indices,
                                                rb.zerosLike(op.getUpdates()),
                                                rb.b.getStringAttr("update"))));
  out.push_back(Value());
  out.push_back(GatherNDOp::create(rb.b, rb.loc, g, indices,
                                   rb.b.getI64IntegerAttr(0), IntegerAttr()));
  return success();
}

/// sort's values are the data gathered at argsort (both stable): the
/// adjoint goes back to those positions.
LogicalResult sortRule(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  auto op = cast<SortOp>(rb.op);
  Value x = op.getData();
  int64_t axis = normalizeAxis(static_cast<int64_t>(op.getAxis()),
                               tensorTypeOf(x).getRank());
  Value order = ArgsortOp::create(rb.b, rb.loc, x, op.getAxisAttr(),
                                  op.getIsAscendAttr(), TypeAttr());
  out.push_back(scatterAdd(rb, x, order, g, axis));
  return success();
}

/// topk's values are the data gathered at its indices.
LogicalResult topk(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  auto op = cast<TopKOp>(rb.op);
  Value x = op.getData();
  StringRef ret = op.getRetType();
  if (ret == "indices") { // an integer result: no adjoint to pass on
    out.push_back(Value());
    return success();
  }
  int64_t axis = normalizeAxis(static_cast<int64_t>(op.getAxis()),
                               tensorTypeOf(x).getRank());
  Value values =
      ret == "both" ? Value(TupleGetItemOp::create(rb.b, rb.loc, g, 0)) : g;
  Value indices =
      ret == "both"
          ? Value(TupleGetItemOp::create(rb.b, rb.loc, op.getResult(), 1))
          : Value(TopKOp::create(rb.b, rb.loc, x, op.getKAttr(),
                                 op.getAxisAttr(),
                                 rb.b.getStringAttr("indices"),
                                 op.getIsAscendAttr(), op.getDtypeAttr()));
  out.push_back(scatterAdd(rb, x, indices, values, axis));
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
  if (failed(requireStatic(rb, x)))
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

/// layout_transform only moves elements: the inverse transform.
LogicalResult layoutTransform(RuleBuilder &rb, Value g,
                              SmallVectorImpl<Value> &out) {
  auto op = cast<LayoutTransformOp>(rb.op);
  out.push_back(LayoutTransformOp::create(
      rb.b, rb.loc, g, op.getDstLayoutAttr(), op.getSrcLayoutAttr()));
  return success();
}

/// einsum is linear in each operand: operand k's adjoint is the einsum of
/// the output adjoint with the other operands, written to k's subscripts.
/// Letters of k found nowhere else (summed over k alone) enter as a tensor
/// of ones. The terms are contracted pairwise. An ellipsis is spelled out
/// in fresh letters; repeated letters within an operand (diagonals) and
/// ellipses that broadcast are not implemented.
LogicalResult einsum(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  auto op = cast<EinsumOp>(rb.op);
  StringRef equation = op.getEquation();
  std::string eq;
  for (char ch : equation)
    if (ch != ' ')
      eq.push_back(ch);
  StringRef lhs = eq;
  std::string result;
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
  SmallVector<std::string> inputs;
  SmallVector<int64_t> ellipsisSizes; // from the right
  for (auto [subs, v] : llvm::zip(pieces, data)) {
    if (failed(requireStatic(rb, v)))
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
  std::map<char, int64_t> sizes, counts;
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
  Type element = tensorTypeOf(g).getElementType();
  for (size_t k = 0; k < inputs.size(); ++k) {
    // The terms: g, the other operands, ones for k's letters found only in
    // k; contracted pairwise left to right (each step keeps the letters
    // later terms or k need), which IREE compiles where one n-ary einsum
    // can fail to vectorize.
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
        missingShape.push_back(sizes[ch]);
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
    out.push_back(acc);
  }
  return success();
}

/// one_hot(indices, on, off): every output element is `on` or `off`, so
/// their adjoints are the sums of `g` over the hot and the cold positions.
LogicalResult oneHot(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  auto op = cast<OneHotOp>(rb.op);
  Value on = op.getOnValue(), off = op.getOffValue();
  Value hot = OneHotOp::create(rb.b, rb.loc, op.getIndices(), rb.scalar(1.0, g),
                               rb.scalar(0.0, g), op.getDepthAttr(),
                               op.getAxisAttr(), op.getDtypeAttr());
  Value dOn = fillAdjoint(rb, rb.mul(g, hot), on);
  out.push_back(Value());
  out.push_back(dOn);
  out.push_back(rb.sub(fillAdjoint(rb, g, off), rb.reshapeLike(dOn, off)));
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

} // namespace

void gradient::addTransformGradients(GradientRules &rules) {
  for (StringRef name :
       {"relay.reshape", "relay.reshape_like", "relay.squeeze",
        "relay.expand_dims", "relay.nn.batch_flatten", "relay.dyn.reshape",
        "relay.dyn.squeeze", "relay.dyn.expand_dims"})
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
  rules["relay.gather_nd"] = gatherNd;
  rules["relay.scatter_nd"] = scatterNd;
  rules["relay.sort"] = sortRule;
  rules["relay.topk"] = topk;
  rules["relay.nn.depth_to_space"] = depthToSpace;
  rules["relay.nn.space_to_depth"] = spaceToDepth;
  rules["relay.layout_transform"] = layoutTransform;
  rules["relay.einsum"] = einsum;
  rules["relay.full"] = fill;
  rules["relay.dyn.full"] = dynFill;
  rules["relay.one_hot"] = oneHot;
  rules["relay.arange"] = arange;
  rules["relay.full_like"] = fill;
}
