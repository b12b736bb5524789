//===- IndexGradients.cpp - gather, scatter, scans, sorting ---------------===//
//
// Indexing ops read elements at indices: the adjoint scatters back with
// `add` (gather, take, gather_nd, sort and topk through their indices),
// scatters gather their updates' adjoint; one_hot's on/off values get the
// sums over the hot and cold positions; the scans' adjoints are reverse
// scans.
//
//===----------------------------------------------------------------------===//
#include "SharedRules.h"
#include "relay/RelayGradient.h"
#include "relay/RelayOps.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::gradient;

namespace {

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
  if (failed(requireStaticShape(rb, x)) ||
      failed(requireStaticShape(rb, indices)))
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

/// gather_nd reads slices of the data: its adjoint adds them back with
/// `scatter_nd` (mode add). With batch_dims b the indices [M, B1..Bb, Y...]
/// get the batch coordinates prepended ([b + M, B1..Bb, Y...]), which makes
/// the scatter an ordinary one over the whole data.
LogicalResult gatherNd(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  auto op = cast<GatherNDOp>(rb.op);
  Value indices = op.getIndices();
  int64_t batch = static_cast<int64_t>(op.getBatchDims());
  if (batch > 0) {
    if (failed(requireStaticShape(rb, indices)))
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

/// cumsum: each input element reaches every later output (and itself unless
/// exclusive), so its adjoint is the reversed scan of the reversed adjoint.
LogicalResult cumsum(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  auto op = cast<CumsumOp>(rb.op);
  // Without an axis the scan runs over the flattened data (g is 1-d).
  int64_t axisValue = op.getAxis() ? static_cast<int64_t>(*op.getAxis()) : 0;
  auto axis = rb.b.getI64IntegerAttr(axisValue);
  Value reversed = ReverseOp::create(rb.b, rb.loc, g, axis);
  Value scan = CumsumOp::create(rb.b, rb.loc, reversed, axis, TypeAttr(),
                                rb.b.getBoolAttr(op.getExclusive()));
  out.push_back(rb.reshapeLike(ReverseOp::create(rb.b, rb.loc, scan, axis),
                               op.getData()));
  return success();
}

/// cumprod: y_j = Π_{k ≤ j} x_k (k < j when exclusive), so
/// dy_j/dx_i = Π_{k ≤ j, k ≠ i} x_k for i ≤ j (i < j). Built without
/// dividing by x (exact at zeros): an [n, n] copy of the scanned axis per
/// element with x_i replaced by 1 in row i, scanned, masked to j ≥ i
/// (j > i) and contracted with the adjoint. O(n²) in the scanned length.
LogicalResult cumprod(RuleBuilder &rb, Value g, SmallVectorImpl<Value> &out) {
  auto op = cast<CumprodOp>(rb.op);
  Value x = op.getData();
  auto type = cast<RankedTensorType>(x.getType());
  if (!type.hasStaticShape())
    return rb.emitError() << "the gradient of `cumprod` needs static shapes";
  Value data = x;
  int64_t axis = 0;
  if (auto a = op.getAxis())
    axis = normalizeAxis(static_cast<int64_t>(*a), type.getRank());
  else
    data = rb.reshapeLike(x, g); // flattened
  auto dtype = cast<RankedTensorType>(data.getType());
  int64_t rank = dtype.getRank(), n = dtype.getShape()[axis];
  SmallVector<int64_t> perm;
  for (int64_t i = 0; i < rank; ++i)
    if (i != axis)
      perm.push_back(i);
  perm.push_back(axis);
  SmallVector<int64_t> inverse(rank);
  for (int64_t i = 0; i < rank; ++i)
    inverse[perm[i]] = i;
  Type element = dtype.getElementType();
  auto constant = [&](auto entry) -> Value {
    SmallVector<Attribute> values;
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j)
        values.push_back(rb.b.getFloatAttr(element, entry(i, j) ? 1.0 : 0.0));
    auto t = RankedTensorType::get({n, n}, element);
    return ConstantOp::create(
        rb.b, rb.loc, cast<ElementsAttr>(DenseElementsAttr::get(t, values)));
  };
  bool exclusive = op.getExclusive();
  Value eye = constant([](int64_t i, int64_t j) { return i == j; });
  Value offEye = constant([](int64_t i, int64_t j) { return i != j; });
  Value reach = constant(
      [&](int64_t i, int64_t j) { return exclusive ? j > i : j >= i; });
  auto rows = [&](Value v) -> Value { // [..., n] -> [..., 1, n]
    return ExpandDimsOp::create(rb.b, rb.loc, rb.transpose(v, perm),
                                rb.b.getI64IntegerAttr(rank - 1),
                                rb.b.getI64IntegerAttr(1));
  };
  Value lifted = rb.add(rb.mul(rows(data), offEye), eye); // [..., i, j]
  Value scanned =
      CumprodOp::create(rb.b, rb.loc, lifted, rb.b.getI64IntegerAttr(rank),
                        TypeAttr(), rb.b.getBoolAttr(exclusive));
  Value terms = rb.mul(rb.mul(scanned, reach), rows(g));
  Value dx = rb.transpose(rb.sum(terms, {rank}, /*keepdims=*/false), inverse);
  out.push_back(rb.reshapeLike(dx, x));
  return success();
}

} // namespace

void gradient::addIndexGradients(GradientRules &rules) {
  rules["relay.gather"] = gather;
  rules["relay.take"] = take;
  rules["relay.scatter_elements"] = scatterElements;
  rules["relay.gather_nd"] = gatherNd;
  rules["relay.scatter_nd"] = scatterNd;
  rules["relay.sort"] = sortRule;
  rules["relay.topk"] = topk;
  rules["relay.one_hot"] = oneHot;
  rules["relay.cumsum"] = cumsum;
  rules["relay.cumprod"] = cumprod;
}
