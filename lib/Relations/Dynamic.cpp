//===- Dynamic.cpp - shapes as values, dyn.* operators --------------------===//
//
// Relay's semantics (src/relay/op/dyn/): a shape argument is a 1-d integer
// tensor whose length (the result rank) must be static; the result dims it
// gives are `?` (relay-dynamic-to-static makes them static again when the
// shape is a constant).
//
//===----------------------------------------------------------------------===//
#include "RelationUtils.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::rel;

/// The result dtype of shape_of/ndarray_size: an integer type (default i32).
static FailureOr<Type> indexDtype(ErrorSite site, std::optional<Type> dtype,
                                  MLIRContext *context) {
  FailureOr<Type> t = dtypeOr(site, dtype, IntegerType::get(context, 32));
  if (failed(t))
    return failure();
  auto it = dyn_cast<IntegerType>(*t);
  if (!it || it.getWidth() < 8)
    return site.emitError() << "dtype must be an integer type of 8 bits or "
                               "more, got "
                            << *t;
  return *t;
}

/// A value about `dataType`'s shape: an integer tensor of `dtype` (default
/// int32), 1-d with one entry per dim (`perDim`) or 0-d.
static FailureOr<Type> shapeValue(ErrorSite site, Type dataType,
                                  std::optional<Type> dtype, bool perDim) {
  FailureOr<RankedTensorType> data = tensorType(site, dataType, "data");
  FailureOr<Type> elt = indexDtype(site, dtype, dataType.getContext());
  if (failed(data) || failed(elt))
    return failure();
  SmallVector<int64_t> shape;
  if (perDim)
    shape.push_back(data->getRank());
  return Type(RankedTensorType::get(shape, *elt));
}

FailureOr<Type> relay::inferShapeOf(ErrorSite site, Type dataType,
                                    std::optional<Type> dtype) {
  return shapeValue(site, dataType, dtype, /*perDim=*/true);
}

FailureOr<Type> relay::inferNdarraySize(ErrorSite site, Type dataType,
                                        std::optional<Type> dtype) {
  return shapeValue(site, dataType, dtype, /*perDim=*/false);
}

/// The length of a 1-d integer shape tensor `what`, which must be static.
static FailureOr<int64_t> shapeLength(ErrorSite site, Type type,
                                      StringRef what) {
  FailureOr<RankedTensorType> t = tensorTypeOfRank(site, type, what, 1);
  if (failed(t))
    return failure();
  auto elt = dyn_cast<IntegerType>(t->getElementType());
  if (!elt || elt.getWidth() == 1)
    return site.emitError() << what << " must be an integer tensor, got " << *t;
  if (t->isDynamicDim(0))
    return site.emitError()
           << "the length of " << what
           << " (the rank of the result) must be known, got " << *t;
  if (t->getDimSize(0) > kMaxRank)
    return site.emitError() << what << " has " << t->getDimSize(0)
                            << " entries: a result of that rank is more "
                               "than the "
                            << kMaxRank << " dims supported";
  return t->getDimSize(0);
}

//===----------------------------------------------------------------------===//
// Known entries of shape values
//===----------------------------------------------------------------------===//

/// Shape values are small; longer tensors are not looked into.
static constexpr int64_t kMaxShapeEntries = 64;

static std::optional<SmallVector<int64_t>> entriesOf(Value v, int depth);

/// `n` unknown entries.
static SmallVector<int64_t> unknownEntries(int64_t n) {
  return SmallVector<int64_t>(n, kAny);
}

/// An elementwise integer op on two entry lists (numpy broadcasting of
/// lengths 1 and n); an entry is known when both operands' are.
template <typename Fn>
static std::optional<SmallVector<int64_t>>
combine(std::optional<SmallVector<int64_t>> a,
        std::optional<SmallVector<int64_t>> b, int64_t n, Fn fn) {
  if (!a || !b)
    return std::nullopt;
  auto at = [](const SmallVector<int64_t> &e, int64_t i) {
    return e.size() == 1 ? e[0] : e[i];
  };
  if ((a->size() != 1 && (int64_t)a->size() != n) ||
      (b->size() != 1 && (int64_t)b->size() != n))
    return unknownEntries(n);
  SmallVector<int64_t> out;
  for (int64_t i = 0; i < n; ++i) {
    int64_t x = at(*a, i), y = at(*b, i);
    std::optional<int64_t> r;
    if (!isAny(x) && !isAny(y))
      r = fn(x, y);
    out.push_back(r ? *r : kAny);
  }
  return out;
}

static std::optional<SmallVector<int64_t>> entriesOf(Value v, int depth) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type || type.getRank() > 1 || !type.hasStaticShape() ||
      type.getNumElements() > kMaxShapeEntries)
    return std::nullopt;
  auto elt = dyn_cast<IntegerType>(type.getElementType());
  if (!elt || elt.getWidth() == 1)
    return std::nullopt;
  int64_t n = type.getNumElements();
  Operation *def = v.getDefiningOp();
  if (!def || depth > 32)
    return unknownEntries(n);
  if (auto cst = dyn_cast<ConstantOp>(def)) {
    auto dense = dyn_cast<DenseIntElementsAttr>(cst.getValue());
    if (!dense || dense.getNumElements() != n)
      return unknownEntries(n);
    SmallVector<int64_t> out;
    for (const APInt &x : dense.getValues<APInt>())
      out.push_back(elt.isUnsigned() ? (int64_t)x.getZExtValue()
                                     : x.getSExtValue());
    return out;
  }
  if (auto shapeOf = dyn_cast<ShapeOfOp>(def)) {
    auto data = dyn_cast<RankedTensorType>(shapeOf.getData().getType());
    if (!data || data.getRank() != n)
      return unknownEntries(n);
    return SmallVector<int64_t>(data.getShape());
  }
  if (isa<CastOp, ReshapeOp, ExpandDimsOp, SqueezeOp, DynReshapeOp>(def)) {
    // same elements in the same order (casts between integer types of shape
    // values do not change them)
    if (auto in = entriesOf(def->getOperand(0), depth + 1))
      if ((int64_t)in->size() == n)
        return in;
    return unknownEntries(n);
  }
  if (auto concat = dyn_cast<ConcatenateOp>(def)) {
    SmallVector<int64_t> out;
    for (Value piece : concat.getData()) {
      auto pt = dyn_cast<RankedTensorType>(piece.getType());
      // (a piece longer than the result: a type the op's verifier refuses,
      // not yet run when inference reads it)
      if (!pt || pt.getRank() != 1 || pt.isDynamicDim(0) ||
          pt.getDimSize(0) > n - static_cast<int64_t>(out.size()))
        return unknownEntries(n);
      std::optional<SmallVector<int64_t>> e = entriesOf(piece, depth + 1);
      if (e && (int64_t)e->size() == pt.getDimSize(0))
        out.append(*e);
      else
        out.append(unknownEntries(pt.getDimSize(0)));
    }
    if ((int64_t)out.size() != n)
      return unknownEntries(n);
    return out;
  }
  if (auto take = dyn_cast<TakeOp>(def)) {
    auto data = dyn_cast<RankedTensorType>(take.getData().getType());
    if (!data || data.getRank() != 1 || take.getBatchDims() != 0)
      return unknownEntries(n);
    std::optional<SmallVector<int64_t>> in =
        entriesOf(take.getData(), depth + 1);
    DenseIntElementsAttr idx;
    auto idxCst = take.getIndices().getDefiningOp<ConstantOp>();
    if (!in || !idxCst ||
        !(idx = dyn_cast<DenseIntElementsAttr>(idxCst.getValue())) ||
        idx.getNumElements() != n)
      return unknownEntries(n);
    int64_t len = in->size();
    StringRef mode = take.getMode();
    SmallVector<int64_t> out;
    for (const APInt &x : idx.getValues<APInt>()) {
      int64_t i = x.getSExtValue();
      if (mode == "wrap")
        i = len ? ((i % len) + len) % len : i;
      else if (mode == "clip")
        i = std::clamp<int64_t>(i, 0, len - 1);
      out.push_back(i >= 0 && i < len ? (*in)[i] : kAny);
    }
    return out;
  }
  auto binary = [&](auto fn) {
    return combine(entriesOf(def->getOperand(0), depth + 1),
                   entriesOf(def->getOperand(1), depth + 1), n, fn)
        .value_or(unknownEntries(n));
  };
  if (isa<AddOp>(def))
    return binary(
        [](int64_t x, int64_t y) -> std::optional<int64_t> { return x + y; });
  if (isa<SubtractOp>(def))
    return binary(
        [](int64_t x, int64_t y) -> std::optional<int64_t> { return x - y; });
  if (isa<MultiplyOp>(def))
    return binary(
        [](int64_t x, int64_t y) -> std::optional<int64_t> { return x * y; });
  return unknownEntries(n);
}

std::optional<SmallVector<int64_t>> relay::knownShapeEntries(Value v) {
  if (!v)
    return std::nullopt;
  return entriesOf(v, 0);
}

/// The known entry `i` of `entries` (of length `n`), or `?`.
static int64_t entryAt(const std::optional<SmallVector<int64_t>> &entries,
                       int64_t n, int64_t i) {
  if (!entries || (int64_t)entries->size() != n)
    return kAny;
  return (*entries)[i];
}

FailureOr<Type>
relay::inferDynReshape(ErrorSite site, Type dataType, Type newshapeType,
                       bool allowzero,
                       std::optional<SmallVector<int64_t>> entries) {
  FailureOr<RankedTensorType> data = tensorType(site, dataType, "data");
  FailureOr<int64_t> rank = shapeLength(site, newshapeType, "newshape");
  if (failed(data) || failed(rank))
    return failure();
  SmallVector<int64_t> dims(*rank, kAny);
  int64_t wildcard = -1;
  for (int64_t i = 0; i < *rank; ++i) {
    int64_t e = entryAt(entries, *rank, i);
    if (isAny(e))
      continue;
    if (e > 0 || (e == 0 && allowzero))
      dims[i] = e;
    else if (e == 0 && i < data->getRank())
      dims[i] = data->getDimSize(i);
    else if (e == -1 && wildcard < 0)
      wildcard = i;
    else if (e < -1 || e == -1)
      return site.emitError()
             << "newshape entry " << i << " is " << e
             << " (only one -1 and no other negative value is allowed)";
  }
  if (wildcard >= 0 && data->hasStaticShape() &&
      llvm::none_of(llvm::enumerate(dims), [&](auto d) {
        return (int64_t)d.index() != wildcard && isAny(d.value());
      })) {
    int64_t known = 1;
    for (auto [i, d] : llvm::enumerate(dims))
      if ((int64_t)i != wildcard)
        known *= d;
    if (known > 0 && data->getNumElements() % known == 0)
      dims[wildcard] = data->getNumElements() / known;
  }
  if (data->hasStaticShape() && llvm::none_of(dims, isAny)) {
    int64_t count = 1;
    for (int64_t d : dims)
      count *= d;
    if (count != data->getNumElements())
      return site.emitError()
             << "cannot reshape " << *data << " (" << data->getNumElements()
             << " elements) to a shape with " << count << " elements";
  }
  return Type(RankedTensorType::get(dims, data->getElementType()));
}

FailureOr<Type>
relay::inferDynBroadcastTo(ErrorSite site, Type dataType, Type shapeType,
                           std::optional<SmallVector<int64_t>> entries) {
  FailureOr<RankedTensorType> data = tensorType(site, dataType, "data");
  FailureOr<int64_t> rank = shapeLength(site, shapeType, "shape");
  if (failed(data) || failed(rank))
    return failure();
  if (*rank < data->getRank())
    return site.emitError() << "cannot broadcast a rank-" << data->getRank()
                            << " tensor to rank " << *rank;
  int64_t offset = *rank - data->getRank();
  SmallVector<int64_t> dims(*rank, kAny);
  for (int64_t i = 0; i < *rank; ++i) {
    int64_t e = entryAt(entries, *rank, i);
    int64_t d = i >= offset ? data->getDimSize(i - offset) : 1;
    if (!isAny(e) && e < 0)
      return site.emitError()
             << "shape entry " << i << " is negative (" << e << ")";
    if (!isAny(e) && !isAny(d) && d != 1 && d != e)
      return site.emitError() << "cannot broadcast " << *data
                              << " to a shape with entry " << i << " = " << e;
    dims[i] = !isAny(e) ? e : (!isAny(d) && d != 1 ? d : kAny);
  }
  return Type(RankedTensorType::get(dims, data->getElementType()));
}

FailureOr<Type>
relay::inferDynFull(ErrorSite site, std::optional<Type> fillValue,
                    Type shapeType, std::optional<Type> dtype,
                    std::optional<SmallVector<int64_t>> entries) {
  Type fallback;
  if (fillValue) {
    FailureOr<RankedTensorType> fill =
        scalarTensor(site, *fillValue, "fill_value");
    if (failed(fill))
      return failure();
    fallback = fill->getElementType();
  }
  FailureOr<int64_t> rank = shapeLength(site, shapeType, "shape");
  FailureOr<Type> elt = dtypeOr(site, dtype, fallback);
  if (failed(rank) || failed(elt))
    return failure();
  if (!*elt)
    return site.emitError() << "requires attribute 'dtype'";
  SmallVector<int64_t> dims(*rank, kAny);
  for (int64_t i = 0; i < *rank; ++i) {
    int64_t e = entryAt(entries, *rank, i);
    if (!isAny(e) && e < 0)
      return site.emitError()
             << "shape entry " << i << " is negative (" << e << ")";
    dims[i] = e;
  }
  return Type(RankedTensorType::get(dims, *elt));
}

//===----------------------------------------------------------------------===//
// The dyn forms of slicing, padding, tiling and index operators: the static
// op's rule with the run-time size replaced by `?`
//===----------------------------------------------------------------------===//

/// An integer tensor of one element (0-d or 1-d of length 1) named `what`.
static LogicalResult oneIntegerElement(ErrorSite site, Type type,
                                       StringRef what) {
  FailureOr<RankedTensorType> t = tensorType(site, type, what);
  if (failed(t))
    return failure();
  auto elt = dyn_cast<IntegerType>(t->getElementType());
  if (!elt || elt.getWidth() == 1 || t->getRank() > 1 ||
      (t->getRank() == 1 && t->getDimSize(0) != 1))
    return site.emitError() << what
                            << " must be an integer tensor of one element "
                               "(0-d or 1-d), got "
                            << *t;
  return success();
}

/// `type` (a ranked tensor or a tuple of them) with dim `axis` of each
/// tensor set to `size`.
static Type withDim(Type type, int64_t axis, int64_t size) {
  auto set = [&](Type t) -> Type {
    auto rt = cast<RankedTensorType>(t);
    SmallVector<int64_t> shape(rt.getShape());
    shape[axis] = size;
    return RankedTensorType::get(shape, rt.getElementType());
  };
  if (auto tuple = dyn_cast<TupleType>(type)) {
    SmallVector<Type> fields;
    for (Type f : tuple.getTypes())
      fields.push_back(set(f));
    return TupleType::get(type.getContext(), fields);
  }
  return set(type);
}

FailureOr<Type> relay::inferDynStridedSlice(ErrorSite site, Type dataType,
                                            Type beginType, Type endType,
                                            Type stridesType) {
  FailureOr<RankedTensorType> data = tensorType(site, dataType, "data");
  FailureOr<int64_t> nBegin = shapeLength(site, beginType, "begin");
  FailureOr<int64_t> nEnd = shapeLength(site, endType, "end");
  FailureOr<int64_t> nStrides = shapeLength(site, stridesType, "strides");
  if (failed(data) || failed(nBegin) || failed(nEnd) || failed(nStrides))
    return failure();
  if (*nBegin != *nEnd)
    return site.emitError() << "begin and end must have the same length (got "
                            << *nBegin << " and " << *nEnd << ")";
  if (*nBegin > data->getRank())
    return site.emitError() << "begin has " << *nBegin << " entries for a rank-"
                            << data->getRank() << " tensor";
  if (*nStrides != 1 && *nStrides != *nBegin)
    return site.emitError() << "strides must have 1 or " << *nBegin
                            << " entries, got " << *nStrides;
  SmallVector<int64_t> shape(data->getShape());
  for (int64_t i = 0; i < *nBegin; ++i)
    shape[i] = kAny;
  return Type(RankedTensorType::get(shape, data->getElementType()));
}

FailureOr<Type> relay::inferStridedSet(ErrorSite site, Type dataType,
                                       Type vType, Type beginType, Type endType,
                                       Type stridesType) {
  FailureOr<Type> slice =
      inferDynStridedSlice(site, dataType, beginType, endType, stridesType);
  FailureOr<RankedTensorType> v = tensorType(site, vType, "v");
  if (failed(slice) || failed(v))
    return failure();
  auto data = cast<RankedTensorType>(dataType);
  if (v->getElementType() != data.getElementType())
    return site.emitError() << "v has element type " << v->getElementType()
                            << ", data " << data.getElementType();
  if (v->getRank() != data.getRank())
    return site.emitError()
           << "v has rank " << v->getRank() << ", data " << data.getRank();
  int64_t k = cast<RankedTensorType>(beginType).getDimSize(0);
  for (int64_t i = k; i < data.getRank(); ++i)
    if (!isAny(v->getDimSize(i)) && !isAny(data.getDimSize(i)) &&
        v->getDimSize(i) != data.getDimSize(i))
      return site.emitError()
             << "v's dim " << i << " is " << v->getDimSize(i)
             << " where the slice takes all " << data.getDimSize(i);
  return Type(data);
}

FailureOr<Type>
relay::inferDynTile(ErrorSite site, Type dataType, Type repsType,
                    std::optional<SmallVector<int64_t>> entries) {
  FailureOr<RankedTensorType> data = tensorType(site, dataType, "data");
  FailureOr<int64_t> k = shapeLength(site, repsType, "reps");
  if (failed(data) || failed(k))
    return failure();
  int64_t rank = std::max<int64_t>(data->getRank(), *k);
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t di = d - (rank - data->getRank()), ri = d - (rank - *k);
    int64_t in = di < 0 ? 1 : data->getDimSize(di);
    int64_t r = ri < 0 ? 1 : entryAt(entries, *k, ri);
    if (!isAny(r) && r < 0)
      return site.emitError()
             << "reps entry " << ri << " is negative (" << r << ")";
    if (isAny(in) || isAny(r)) {
      shape.push_back(in == 0 || r == 0 ? 0 : kAny);
      continue;
    }
    FailureOr<int64_t> out = mulDims(site, in, r, "output dim");
    if (failed(out))
      return failure();
    shape.push_back(*out);
  }
  return Type(RankedTensorType::get(shape, data->getElementType()));
}

FailureOr<Type> relay::inferDynPad(ErrorSite site, Type dataType,
                                   Type padWidthType, Type padValueType,
                                   StringRef padMode) {
  FailureOr<RankedTensorType> data = tensorType(site, dataType, "data");
  FailureOr<RankedTensorType> width =
      tensorTypeOfRank(site, padWidthType, "pad_width", 2);
  if (failed(data) || failed(width))
    return failure();
  auto elt = dyn_cast<IntegerType>(width->getElementType());
  if (!elt || elt.getWidth() == 1 || width->getDimSize(1) != 2 ||
      width->getDimSize(0) != data->getRank())
    return site.emitError() << "pad_width must be a (" << data->getRank()
                            << ", 2) integer tensor, got " << *width;
  SmallVector<int64_t> zeros(2 * data->getRank(), 0);
  FailureOr<Type> same = inferPad(site, dataType, padValueType, zeros, padMode);
  if (failed(same))
    return failure();
  SmallVector<int64_t> shape(data->getRank(), kAny);
  return Type(RankedTensorType::get(shape, data->getElementType()));
}

FailureOr<Type>
relay::inferDynOneHot(ErrorSite site, Type indices, Type onValue, Type offValue,
                      Type depthType, int64_t axis, Type dtype,
                      std::optional<SmallVector<int64_t>> entries) {
  if (failed(oneIntegerElement(site, depthType, "depth")))
    return failure();
  FailureOr<Type> t =
      inferOneHot(site, indices, onValue, offValue, 1, axis, dtype);
  if (failed(t))
    return failure();
  int64_t rank = cast<RankedTensorType>(*t).getRank();
  int64_t a = axis < 0 ? axis + rank : axis;
  int64_t depth = entryAt(entries, 1, 0);
  if (!isAny(depth) && depth < 0)
    return site.emitError() << "depth is negative (" << depth << ")";
  return withDim(*t, a, depth);
}

FailureOr<Type> relay::inferDynSqueeze(ErrorSite site, Type dataType,
                                       Type axisType) {
  FailureOr<RankedTensorType> data = tensorType(site, dataType, "data");
  FailureOr<int64_t> k = shapeLength(site, axisType, "axis");
  if (failed(data) || failed(k))
    return failure();
  if (*k > data->getRank())
    return site.emitError() << "axis has " << *k << " entries for a rank-"
                            << data->getRank() << " tensor";
  SmallVector<int64_t> shape(data->getRank() - *k, kAny);
  return Type(RankedTensorType::get(shape, data->getElementType()));
}

FailureOr<Type> relay::inferDynExpandDims(ErrorSite site, Type dataType,
                                          Type axisType, int64_t numNewaxis) {
  FailureOr<RankedTensorType> data = tensorType(site, dataType, "data");
  if (failed(data) || failed(oneIntegerElement(site, axisType, "axis")))
    return failure();
  if (numNewaxis < 0 || data->getRank() + numNewaxis > kMaxRank)
    return site.emitError()
           << "num_newaxis must be in [0, " << kMaxRank - data->getRank()
           << "], got " << numNewaxis;
  SmallVector<int64_t> shape(data->getRank() + numNewaxis, kAny);
  return Type(RankedTensorType::get(shape, data->getElementType()));
}

FailureOr<Type> relay::inferDynTopK(ErrorSite site, Type dataType, Type kType,
                                    int64_t axis, StringRef retType,
                                    std::optional<Type> dtype) {
  if (failed(oneIntegerElement(site, kType, "k")))
    return failure();
  FailureOr<Type> t = inferTopK(site, dataType, 0, axis, retType, dtype);
  if (failed(t))
    return failure();
  int64_t rank = cast<RankedTensorType>(dataType).getRank();
  return withDim(*t, axis < 0 ? axis + rank : axis, kAny);
}
