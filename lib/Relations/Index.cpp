//===- Index.cpp - indexing, scan and sorting typing rules ----------------===//
//
// Relay's rules (src/relay/op/tensor/transform.cc, algorithm/*.cc):
// - Take: `data[:axis] + indices[batch_dims:] + data[axis+1:]` (no axis:
//   the shape of `indices`).
// - Gather: `indices` has the rank of `data`; result shape of `indices`.
// - GatherND: `indices` `[M, Y...]`, result `Y... + data[batch_dims+M:]`.
// - ScatterElements: `indices` and `updates` have one shape, the rank of
//   `data`; result type of `data`.
// - ScatterND: `updates` is `indices[1:] + data[M:]`; result type of `data`.
// - OneHot: `indices` with `depth` inserted at `axis`, of `dtype`;
//   `on_value`/`off_value` scalars of `dtype`.
// - Scan (cumsum, cumprod): shape of `data` (flattened without `axis`),
//   `dtype` or that of `data`.
// - Sort (sort, argsort): shape of `data`; `dtype` (argsort's attribute,
//   default int32) or that of `data` (sort).
// - TopK: `data` with dim `axis` = `k` (`k < 1`: all), a (values, indices)
//   tuple or one of them as `ret_type` says.
// Index operands must be integer tensors. The enum-like attributes (take's
// `mode`, scatter's `reduction`/`mode`, topk's `ret_type`) are constrained
// in ODS (RelayAttrConstraints.td).
//
//===----------------------------------------------------------------------===//
#include "RelationUtils.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::rel;

/// `type` as an integer (not bool) tensor, named `what`.
static FailureOr<RankedTensorType> indexTensor(ErrorSite site, Type type,
                                               StringRef what) {
  FailureOr<RankedTensorType> t = tensorType(site, type, what);
  if (failed(t))
    return failure();
  auto intType = dyn_cast<IntegerType>(t->getElementType());
  if (!intType || intType.getWidth() == 1)
    return site.emitError()
           << "operand '" << what << "' must be an integer tensor, got " << *t;
  return t;
}

/// Two dims of different operands that must agree.
static LogicalResult agree(ErrorSite site, int64_t a, int64_t b,
                           const Twine &what) {
  if (succeeded(unifyDim(a, b)))
    return success();
  return site.emitError() << what << " must agree, got " << a << " and " << b;
}

FailureOr<Type> relay::inferTake(ErrorSite site, Type dataType,
                                 Type indicesType,
                                 std::optional<int64_t> axisAttr,
                                 int64_t batchDimsAttr) {
  FailureOr<RankedTensorType> data = tensorType(site, dataType, "data");
  if (failed(data))
    return failure();
  FailureOr<RankedTensorType> indices =
      indexTensor(site, indicesType, "indices");
  if (failed(indices))
    return failure();
  if (!axisAttr)
    return Type(
        RankedTensorType::get(indices->getShape(), data->getElementType()));
  if (data->getRank() == 0)
    return site.emitError() << "operand 'data' must have rank >= 1 to take "
                               "along an axis";
  FailureOr<int64_t> axis = normalizeAxis(site, *axisAttr, data->getRank());
  if (failed(axis))
    return failure();
  int64_t batchDims = batchDimsAttr;
  if (batchDims < 0)
    batchDims += indices->getRank();
  if (batchDims < 0 || batchDims > indices->getRank() || batchDims > *axis)
    return site.emitError()
           << "batch_dims " << batchDimsAttr
           << " must be in [0, min(axis, rank of 'indices')] = [0, "
           << std::min<int64_t>(*axis, indices->getRank()) << "]";
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < *axis; ++d) {
    int64_t dim = data->getDimSize(d);
    if (d < batchDims) {
      FailureOr<int64_t> u = unifyDim(dim, indices->getDimSize(d));
      if (failed(u))
        return site.emitError() << "batch dim " << d << " of 'data' (" << dim
                                << ") and 'indices' (" << indices->getDimSize(d)
                                << ") must agree";
      dim = *u;
    }
    shape.push_back(dim);
  }
  for (int64_t d = batchDims; d < indices->getRank(); ++d)
    shape.push_back(indices->getDimSize(d));
  for (int64_t d = *axis + 1; d < data->getRank(); ++d)
    shape.push_back(data->getDimSize(d));
  return Type(RankedTensorType::get(shape, data->getElementType()));
}

FailureOr<Type> relay::inferGather(ErrorSite site, Type dataType,
                                   Type indicesType, int64_t axis) {
  FailureOr<RankedTensorType> data = tensorType(site, dataType, "data");
  if (failed(data))
    return failure();
  FailureOr<RankedTensorType> indices =
      indexTensor(site, indicesType, "indices");
  if (failed(indices))
    return failure();
  if (indices->getRank() != data->getRank())
    return site.emitError() << "operand 'indices' must have the rank of "
                               "'data' ("
                            << data->getRank() << "), got " << *indices;
  if (data->getRank() == 0)
    return site.emitError() << "operand 'data' must have rank >= 1";
  if (failed(normalizeAxis(site, axis, data->getRank())))
    return failure();
  return Type(
      RankedTensorType::get(indices->getShape(), data->getElementType()));
}

FailureOr<Type> relay::inferGatherND(ErrorSite site, Type dataType,
                                     Type indicesType, int64_t batchDims,
                                     std::optional<int64_t> indexRank) {
  FailureOr<RankedTensorType> data = tensorType(site, dataType, "data");
  if (failed(data))
    return failure();
  FailureOr<RankedTensorType> indices =
      indexTensor(site, indicesType, "indices");
  if (failed(indices))
    return failure();
  if (indices->getRank() < 1)
    return site.emitError() << "operand 'indices' must have rank >= 1";
  int64_t m = indices->getDimSize(0);
  if (indexRank) {
    if (failed(agree(site, m, *indexRank, "index_rank and dim 0 of 'indices'")))
      return failure();
    m = *indexRank;
  }
  if (isAny(m))
    return site.emitError() << "dim 0 of 'indices' (the index tuple size) "
                               "must be static or given by index_rank";
  if (batchDims < 0 || batchDims >= indices->getRank())
    return site.emitError() << "batch_dims " << batchDims
                            << " must be in [0, rank of 'indices' - 1]";
  if (m + batchDims > data->getRank())
    return site.emitError()
           << "dim 0 of 'indices' (" << m << ") + batch_dims (" << batchDims
           << ") must be <= rank of 'data' (" << data->getRank() << ")";
  SmallVector<int64_t> shape;
  for (int64_t d = 1; d < indices->getRank(); ++d) {
    int64_t dim = indices->getDimSize(d);
    if (d - 1 < batchDims) {
      FailureOr<int64_t> u = unifyDim(dim, data->getDimSize(d - 1));
      if (failed(u))
        return site.emitError() << "batch dim " << d - 1 << " of 'data' ("
                                << data->getDimSize(d - 1) << ") and dim " << d
                                << " of 'indices' (" << dim << ") must agree";
      dim = *u;
    }
    shape.push_back(dim);
  }
  for (int64_t d = m + batchDims; d < data->getRank(); ++d)
    shape.push_back(data->getDimSize(d));
  return Type(RankedTensorType::get(shape, data->getElementType()));
}

/// `updates` must have the dtype of `data`.
static LogicalResult sameDtype(ErrorSite site, RankedTensorType data,
                               RankedTensorType updates) {
  if (updates.getElementType() == data.getElementType())
    return success();
  return site.emitError() << "operand 'updates' must have the dtype of "
                             "'data' ("
                          << data.getElementType() << "), got "
                          << updates.getElementType();
}

FailureOr<Type> relay::inferScatterElements(ErrorSite site, Type dataType,
                                            Type indicesType, Type updatesType,
                                            int64_t axis) {
  FailureOr<RankedTensorType> data = tensorType(site, dataType, "data");
  if (failed(data))
    return failure();
  FailureOr<RankedTensorType> indices =
      indexTensor(site, indicesType, "indices");
  if (failed(indices))
    return failure();
  FailureOr<RankedTensorType> updates =
      tensorTypeOfRank(site, updatesType, "updates", indices->getRank());
  if (failed(updates) || failed(sameDtype(site, *data, *updates)))
    return failure();
  if (indices->getRank() != data->getRank())
    return site.emitError() << "operand 'indices' must have the rank of "
                               "'data' ("
                            << data->getRank() << "), got " << *indices;
  if (data->getRank() == 0)
    return site.emitError() << "operand 'data' must have rank >= 1";
  if (failed(normalizeAxis(site, axis, data->getRank())))
    return failure();
  for (int64_t d = 0; d < data->getRank(); ++d)
    if (failed(unifyDim(indices->getDimSize(d), updates->getDimSize(d))))
      return site.emitError() << "operands 'indices' and 'updates' must "
                                 "have one shape, got "
                              << *indices << " and " << *updates;
  return Type(*data);
}

FailureOr<Type> relay::inferScatterND(ErrorSite site, Type dataType,
                                      Type indicesType, Type updatesType) {
  FailureOr<RankedTensorType> data = tensorType(site, dataType, "data");
  if (failed(data))
    return failure();
  FailureOr<RankedTensorType> indices =
      indexTensor(site, indicesType, "indices");
  if (failed(indices))
    return failure();
  FailureOr<RankedTensorType> updates =
      tensorType(site, updatesType, "updates");
  if (failed(updates) || failed(sameDtype(site, *data, *updates)))
    return failure();
  if (indices->getRank() < 1)
    return site.emitError() << "operand 'indices' must have rank >= 1";
  int64_t m = indices->getDimSize(0);
  if (isAny(m))
    return site.emitError()
           << "dim 0 of 'indices' (the index tuple size) must be static";
  if (m > data->getRank())
    return site.emitError()
           << "dim 0 of 'indices' (" << m << ") must be <= rank of 'data' ("
           << data->getRank() << ")";
  SmallVector<int64_t> expected(indices->getShape().drop_front());
  llvm::append_range(expected, data->getShape().drop_front(m));
  bool ok = updates->getRank() == static_cast<int64_t>(expected.size());
  for (int64_t d = 0; ok && d < updates->getRank(); ++d)
    ok = succeeded(unifyDim(updates->getDimSize(d), expected[d]));
  if (!ok)
    return site.emitError()
           << "operand 'updates' must have shape indices.shape[1:] + "
              "data.shape[M:] = "
           << shapeStr(expected) << ", got " << *updates;
  return Type(*data);
}

FailureOr<Type> relay::inferOneHot(ErrorSite site, Type indicesType,
                                   Type onValue, Type offValue, int64_t depth,
                                   int64_t axis, Type dtypeAttr) {
  FailureOr<RankedTensorType> indices =
      indexTensor(site, indicesType, "indices");
  if (failed(indices))
    return failure();
  FailureOr<Type> dtype = dtypeOr(site, dtypeAttr, Type());
  if (failed(dtype))
    return failure();
  if (!*dtype)
    return site.emitError() << "requires attribute 'dtype'";
  std::pair<Type, StringRef> values[] = {{onValue, "on_value"},
                                         {offValue, "off_value"}};
  for (auto [type, what] : values) {
    FailureOr<RankedTensorType> v = tensorTypeOfRank(site, type, what, 0);
    if (failed(v))
      return failure();
    if (v->getElementType() != *dtype)
      return site.emitError() << "operand '" << what << "' must have dtype "
                              << *dtype << ", got " << v->getElementType();
  }
  if (depth < 1)
    return site.emitError() << "depth must be >= 1, got " << depth;
  int64_t rank = indices->getRank();
  if (axis < -1 || axis > rank)
    return site.emitError()
           << "axis " << axis << " is out of range [-1, " << rank << "]";
  if (axis == -1)
    axis = rank;
  SmallVector<int64_t> shape(indices->getShape());
  shape.insert(shape.begin() + axis, depth);
  return Type(RankedTensorType::get(shape, *dtype));
}

FailureOr<Type> relay::inferScan(ErrorSite site, Type dataType,
                                 std::optional<int64_t> axis,
                                 std::optional<Type> dtypeAttr) {
  FailureOr<RankedTensorType> data = tensorType(site, dataType, "data");
  if (failed(data))
    return failure();
  FailureOr<Type> dtype = dtypeOr(site, dtypeAttr, data->getElementType());
  if (failed(dtype))
    return failure();
  if (axis) {
    if (failed(normalizeAxis(site, *axis, data->getRank())))
      return failure();
    return Type(RankedTensorType::get(data->getShape(), *dtype));
  }
  return Type(RankedTensorType::get({productOfDims(data->getShape())}, *dtype));
}

FailureOr<Type> relay::inferSort(ErrorSite site, Type dataType, int64_t axis) {
  FailureOr<RankedTensorType> data = tensorType(site, dataType, "data");
  if (failed(data) || failed(normalizeAxis(site, axis, data->getRank())))
    return failure();
  return Type(*data);
}

FailureOr<Type> relay::inferArgsort(ErrorSite site, Type dataType, int64_t axis,
                                    std::optional<Type> dtypeAttr) {
  FailureOr<RankedTensorType> data = tensorType(site, dataType, "data");
  if (failed(data) || failed(normalizeAxis(site, axis, data->getRank())))
    return failure();
  // Indices of `dtype`, int32 unless set, as Relay's.
  FailureOr<Type> dtype =
      dtypeOr(site, dtypeAttr, IntegerType::get(dataType.getContext(), 32));
  if (failed(dtype))
    return failure();
  return Type(RankedTensorType::get(data->getShape(), *dtype));
}

FailureOr<Type> relay::inferSparseToDense(ErrorSite site, Type indicesType,
                                          Type valuesType, Type defaultType,
                                          ArrayRef<int64_t> outputShape) {
  FailureOr<RankedTensorType> indices =
      indexTensor(site, indicesType, "sparse_indices");
  FailureOr<RankedTensorType> values =
      tensorType(site, valuesType, "sparse_values");
  FailureOr<RankedTensorType> fill =
      tensorTypeOfRank(site, defaultType, "default_value", 0);
  if (failed(indices) || failed(values) || failed(fill))
    return failure();
  for (int64_t d : outputShape)
    if (d < 0)
      return site.emitError() << "output_shape entries must be >= 0, got " << d;
  int64_t rank = outputShape.size(), n = 1;
  // [N, rank], [N] (rank 1) or 0-d (one index of a rank-1 output).
  if (indices->getRank() > 2 ||
      (indices->getRank() < 2 && rank != 1 && !outputShape.empty()))
    return site.emitError()
           << "sparse_indices must be [N, " << rank << "]"
           << (rank == 1 ? ", [N] or 0-d" : "") << ", got " << *indices;
  if (indices->getRank() == 2 &&
      failed(agree(site, indices->getDimSize(1), rank,
                   "sparse_indices dim 1 and the output rank")))
    return failure();
  if (indices->getRank() >= 1)
    n = indices->getDimSize(0);
  if (values->getRank() > 1 ||
      (values->getRank() == 1 && failed(unifyDim(values->getDimSize(0), n))))
    return site.emitError() << "sparse_values must be 0-d or [" << dimStr(n)
                            << "] (one per index), got " << *values;
  if (fill->getElementType() != values->getElementType())
    return site.emitError()
           << "default_value dtype " << fill->getElementType()
           << " ≠ sparse_values dtype " << values->getElementType();
  return Type(RankedTensorType::get(outputShape, values->getElementType()));
}

FailureOr<Type> relay::inferSearchSorted(ErrorSite site, Type sortedType,
                                         Type valuesType,
                                         std::optional<Type> dtypeAttr) {
  FailureOr<RankedTensorType> sorted =
      tensorType(site, sortedType, "sorted_sequence");
  FailureOr<RankedTensorType> values = tensorType(site, valuesType, "values");
  if (failed(sorted) || failed(values))
    return failure();
  if (sorted->getRank() < 1 || values->getRank() < 1)
    return site.emitError()
           << "sorted_sequence and values must have rank >= 1, got " << *sorted
           << " and " << *values;
  if (sorted->getElementType() != values->getElementType())
    return site.emitError()
           << "values dtype " << values->getElementType()
           << " ≠ sorted_sequence dtype " << sorted->getElementType();
  int64_t rank = sorted->getRank();
  if (rank > 1) {
    if (values->getRank() != rank)
      return site.emitError()
             << "values must have the rank of a multi-dimensional "
                "sorted_sequence ("
             << rank << "), got " << *values;
    for (int64_t d = 0; d + 1 < rank; ++d)
      if (failed(agree(site, sorted->getDimSize(d), values->getDimSize(d),
                       "dim " + Twine(d) + " of sorted_sequence and values")))
        return failure();
  }
  MLIRContext *ctx = sortedType.getContext();
  FailureOr<Type> dtype = dtypeOr(site, dtypeAttr, IntegerType::get(ctx, 32));
  if (failed(dtype))
    return failure();
  auto intType = dyn_cast<IntegerType>(*dtype);
  if (!intType || intType.getWidth() == 1)
    return site.emitError() << "dtype must be an integer type, got " << *dtype;
  return Type(RankedTensorType::get(values->getShape(), *dtype));
}

FailureOr<Type> relay::inferTopK(ErrorSite site, Type dataType, int64_t k,
                                 int64_t axisAttr, StringRef retType,
                                 std::optional<Type> dtypeAttr) {
  FailureOr<RankedTensorType> data = tensorType(site, dataType, "data");
  if (failed(data))
    return failure();
  FailureOr<int64_t> axis = normalizeAxis(site, axisAttr, data->getRank());
  if (failed(axis))
    return failure();
  MLIRContext *ctx = dataType.getContext();
  FailureOr<Type> dtype = dtypeOr(site, dtypeAttr, IntegerType::get(ctx, 32));
  if (failed(dtype))
    return failure();
  if (!isa<IntegerType>(*dtype))
    return site.emitError() << "dtype must be an integer type, got " << *dtype;
  int64_t n = data->getDimSize(*axis);
  if (k >= 1 && !isAny(n) && k > n)
    return site.emitError() << "k " << k << " must be <= dim " << *axis
                            << " of 'data' (" << n << ")";
  SmallVector<int64_t> shape(data->getShape());
  shape[*axis] = k >= 1 ? k : n;
  auto values = RankedTensorType::get(shape, data->getElementType());
  auto indices = RankedTensorType::get(shape, *dtype);
  // `retType` is "both", "values" or "indices" (an ODS constraint).
  if (retType == "values")
    return Type(values);
  if (retType == "indices")
    return Type(indices);
  return Type(TupleType::get(ctx, {values, indices}));
}
