//===- TransformMasks.cpp - masks, diagonals, grids, index maps -----------===//
//
// TVM 0.19's trilu, sequence_mask, reverse_sequence, meshgrid,
// unravel_index, invert_permutation, matrix_set_diag, collapse_sum_to,
// contrib_reverse_reshape and sliding_window
// (src/relay/op/tensor/transform.cc); `?` dims propagate. Where TVM's
// relation accepts operands its compute cannot use (a 1-D trilu, float
// lengths, a diagonal of the wrong shape, a window larger than its dim)
// these rules reject them.
//
//===----------------------------------------------------------------------===//
#include "RelationUtils.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::rel;

/// `type` as an integer (not bool) tensor of rank `rank` (any if < 0),
/// named `what`.
static FailureOr<RankedTensorType> intTensor(ErrorSite site, Type type,
                                             StringRef what, int64_t rank) {
  FailureOr<RankedTensorType> t = tensorType(site, type, what);
  if (failed(t))
    return failure();
  auto intType = dyn_cast<IntegerType>(t->getElementType());
  if (!intType || intType.getWidth() == 1 ||
      (rank >= 0 && t->getRank() != rank))
    return site.emitError() << "operand '" << what << "' must be "
                            << (rank == 0   ? "a 0-d "
                                : rank == 1 ? "a 1-D "
                                            : "an ")
                            << "integer tensor, got " << *t;
  return t;
}

/// `type` as a tensor of rank >= 2, named `what`.
static FailureOr<RankedTensorType> matrixTensor(ErrorSite site, Type type,
                                                StringRef what) {
  FailureOr<RankedTensorType> t = tensorType(site, type, what);
  if (failed(t))
    return failure();
  if (t->getRank() < 2)
    return site.emitError()
           << "operand '" << what << "' must have rank >= 2, got " << *t;
  return t;
}

/// The farthest diagonal matrix_set_diag accepts.
constexpr int64_t kMaxDiagonal = int64_t(1) << 40;

/// Two dims of different operands that must agree.
static LogicalResult agree(ErrorSite site, int64_t a, int64_t b,
                           const Twine &what) {
  if (failed(unifyDim(a, b)))
    return site.emitError() << what << ": " << dimStr(a) << " ≠ " << dimStr(b);
  return success();
}

FailureOr<Type> relay::inferTrilu(ErrorSite site, Type dataType, Type kType) {
  FailureOr<RankedTensorType> data = matrixTensor(site, dataType, "data");
  if (failed(data) || failed(intTensor(site, kType, "k", 0)))
    return failure();
  return Type(*data);
}

FailureOr<Type> relay::inferSequenceMask(ErrorSite site, Type dataType,
                                         Type lengthType, int64_t axis) {
  FailureOr<RankedTensorType> data = matrixTensor(site, dataType, "data");
  if (failed(data))
    return failure();
  if (axis != 0 && axis != 1)
    return site.emitError() << "axis must be 0 or 1, got " << axis;
  FailureOr<RankedTensorType> length =
      intTensor(site, lengthType, "valid_length", 1);
  if (failed(length) ||
      failed(agree(site, length->getDimSize(0), data->getDimSize(1 - axis),
                   "valid_length size ≠ the batch dim " + Twine(1 - axis) +
                       " of data")))
    return failure();
  return Type(*data);
}

FailureOr<Type> relay::inferReverseSequence(ErrorSite site, Type dataType,
                                            Type lengthType, int64_t seqAxis,
                                            int64_t batchAxis) {
  FailureOr<RankedTensorType> data = tensorType(site, dataType, "data");
  if (failed(data))
    return failure();
  int64_t rank = data->getRank();
  FailureOr<int64_t> seq = normalizeAxis(site, seqAxis, rank, "seq_axis");
  FailureOr<int64_t> batch = normalizeAxis(site, batchAxis, rank, "batch_axis");
  if (failed(seq) || failed(batch))
    return failure();
  if (*seq == *batch)
    return site.emitError()
           << "seq_axis and batch_axis must differ, both are " << *seq;
  FailureOr<RankedTensorType> length =
      intTensor(site, lengthType, "seq_lengths", 1);
  if (failed(length) ||
      failed(agree(site, length->getDimSize(0), data->getDimSize(*batch),
                   "seq_lengths size ≠ the batch_axis dim " + Twine(*batch) +
                       " of data")))
    return failure();
  return Type(*data);
}

FailureOr<Type> relay::inferMeshgrid(ErrorSite site, TypeRange operands,
                                     StringRef indexing) {
  if (operands.empty())
    return site.emitError() << "expects at least one operand";
  SmallVector<int64_t> shape;
  Type dtype;
  for (auto [i, type] : llvm::enumerate(operands)) {
    FailureOr<RankedTensorType> t =
        tensorType(site, type, ("data[" + Twine(i) + "]").str());
    if (failed(t))
      return failure();
    if (t->getRank() > 1)
      return site.emitError()
             << "operand " << i << " must be 0-d or 1-D, got " << *t;
    if (dtype && t->getElementType() != dtype)
      return site.emitError()
             << "operand " << i << " dtype " << t->getElementType()
             << " ≠ operand 0 dtype " << dtype;
    dtype = t->getElementType();
    shape.push_back(t->getRank() ? t->getDimSize(0) : 1);
  }
  if (indexing == "xy" && shape.size() >= 2)
    std::swap(shape[0], shape[1]);
  SmallVector<Type> grids(operands.size(), RankedTensorType::get(shape, dtype));
  return Type(TupleType::get(dtype.getContext(), grids));
}

FailureOr<Type> relay::inferUnravelIndex(ErrorSite site, Type indicesType,
                                         Type shapeType) {
  FailureOr<RankedTensorType> indices =
      intTensor(site, indicesType, "indices", -1);
  FailureOr<RankedTensorType> shape = intTensor(site, shapeType, "shape", 1);
  if (failed(indices) || failed(shape))
    return failure();
  if (indices->getRank() > 1)
    return site.emitError()
           << "operand 'indices' must be 0-d or 1-D, got " << *indices;
  // (the lowering computes each coordinate from all the shape's entries)
  if (!isAny(shape->getDimSize(0)) && shape->getDimSize(0) > kMaxRank)
    return site.emitError()
           << "shape has " << shape->getDimSize(0) << " entries: at most "
           << kMaxRank << " dims supported";
  if (indices->getElementType() != shape->getElementType())
    return site.emitError() << "indices dtype " << indices->getElementType()
                            << " ≠ shape dtype " << shape->getElementType();
  SmallVector<int64_t> out = {shape->getDimSize(0)};
  if (indices->getRank() == 1)
    out.push_back(indices->getDimSize(0));
  return Type(RankedTensorType::get(out, indices->getElementType()));
}

FailureOr<Type> relay::inferInvertPermutation(ErrorSite site, Type dataType) {
  FailureOr<RankedTensorType> data = intTensor(site, dataType, "data", 1);
  if (failed(data))
    return failure();
  return Type(*data);
}

FailureOr<Type> relay::inferMatrixSetDiag(ErrorSite site, Type dataType,
                                          Type diagonalType, int64_t k1,
                                          int64_t k2) {
  FailureOr<RankedTensorType> data = matrixTensor(site, dataType, "data");
  FailureOr<RankedTensorType> diag = tensorType(site, diagonalType, "diagonal");
  if (failed(data) || failed(diag))
    return failure();
  if (k2 < k1)
    return site.emitError() << "k2 " << k2 << " must be >= k1 " << k1;
  // (k2 - k1 + 1 diagonals must be a dim; no matrix has more)
  if (k1 < -kMaxDiagonal || k2 > kMaxDiagonal)
    return site.emitError()
           << "diagonals " << k1 << " .. " << k2
           << " are out of range (|k| <= " << kMaxDiagonal << ")";
  if (diag->getElementType() != data->getElementType())
    return site.emitError() << "diagonal dtype " << diag->getElementType()
                            << " ≠ data dtype " << data->getElementType();
  int64_t rank = data->getRank();
  int64_t rows = data->getDimSize(rank - 2), cols = data->getDimSize(rank - 1);
  // Diagonal d has min(rows + min(d, 0), cols - max(d, 0)) elements.
  int64_t maxLen = ShapedType::kDynamic;
  if (!isAny(rows) && !isAny(cols)) {
    if (k1 <= -rows || k2 >= cols)
      return site.emitError()
             << "diagonals " << k1 << " .. " << k2 << " are not all inside a "
             << rows << "x" << cols << " matrix";
    maxLen = 0;
    for (int64_t d = k1; d <= k2; ++d)
      maxLen = std::max(maxLen, std::min(rows + std::min<int64_t>(d, 0),
                                         cols - std::max<int64_t>(d, 0)));
  }
  SmallVector<int64_t> want(data->getShape().drop_back(2));
  if (k1 != k2)
    want.push_back(k2 - k1 + 1);
  want.push_back(maxLen);
  bool ok = diag->getRank() == static_cast<int64_t>(want.size());
  for (int64_t i = 0; ok && i < diag->getRank(); ++i)
    ok = succeeded(unifyDim(diag->getDimSize(i), want[i]));
  if (!ok)
    return site.emitError()
           << "diagonal shape " << shapeStr(diag->getShape()) << " ≠ "
           << shapeStr(want) << " (diagonals " << k1 << " .. " << k2 << ")";
  return Type(*data);
}

FailureOr<Type> relay::inferCollapseSumTo(ErrorSite site, Type dataType,
                                          ArrayRef<int64_t> shape) {
  FailureOr<RankedTensorType> data = tensorType(site, dataType, "data");
  if (failed(data))
    return failure();
  int64_t offset = data->getRank() - static_cast<int64_t>(shape.size());
  bool ok = offset >= 0;
  for (int64_t i = 0; ok && i < static_cast<int64_t>(shape.size()); ++i) {
    int64_t s = shape[i], d = data->getDimSize(offset + i);
    if (s < 0)
      return site.emitError() << "shape entries must be >= 0, got " << s;
    ok = s == 1 || isAny(d) || s == d;
  }
  if (!ok)
    return site.emitError() << "shape " << shapeStr(shape)
                            << " does not broadcast to data shape "
                            << shapeStr(data->getShape());
  return Type(RankedTensorType::get(shape, data->getElementType()));
}

FailureOr<Type> relay::inferReverseReshape(ErrorSite site, Type dataType,
                                           ArrayRef<int64_t> newshape) {
  FailureOr<RankedTensorType> data = tensorType(site, dataType, "data");
  if (failed(data))
    return failure();
  // Relay's ReverseReshapeRel: reshape of the reversed shape by the
  // reversed newshape, reversed.
  SmallVector<int64_t> shape(llvm::reverse(data->getShape()));
  SmallVector<int64_t> codes(llvm::reverse(newshape));
  FailureOr<Type> reshaped = inferReshape(
      site, RankedTensorType::get(shape, data->getElementType()), codes,
      /*allowZero=*/false);
  if (failed(reshaped))
    return failure();
  auto out = cast<RankedTensorType>(*reshaped);
  SmallVector<int64_t> result(llvm::reverse(out.getShape()));
  return Type(RankedTensorType::get(result, data->getElementType()));
}

FailureOr<Type> relay::inferSlidingWindow(ErrorSite site, Type dataType,
                                          int64_t axis,
                                          ArrayRef<int64_t> window,
                                          ArrayRef<int64_t> strides) {
  FailureOr<RankedTensorType> data = tensorType(site, dataType, "data");
  if (failed(data))
    return failure();
  int64_t rank = data->getRank();
  if (axis < 0 || axis >= rank)
    return site.emitError() << "axis " << axis << " is out of range for rank "
                            << rank << " (it must be >= 0)";
  size_t n = rank - axis;
  if (failed(checkArray(site, "window_shape", window, n, 1)) ||
      failed(checkArray(site, "strides", strides, n, 1)))
    return failure();
  SmallVector<int64_t> shape(data->getShape().take_front(axis));
  for (size_t i = 0; i < n; ++i) {
    int64_t d = data->getDimSize(axis + i);
    if (isAny(d)) {
      shape.push_back(ShapedType::kDynamic);
      continue;
    }
    if (window[i] > d)
      return site.emitError()
             << "window_shape entry " << window[i] << " exceeds dim "
             << axis + i << " of data (" << d << ")";
    shape.push_back((d - window[i]) / strides[i] + 1);
  }
  shape.append(window.begin(), window.end());
  return Type(RankedTensorType::get(shape, data->getElementType()));
}
