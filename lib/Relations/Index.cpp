//===- Index.cpp - indexing, scan and sorting relations -------------------===//
//
// Relay's rules (src/relay/op/tensor/transform.cc, algorithm/*.cc):
// - Take: `data[:axis] + indices[batch_dims:] + data[axis+1:]` (no axis:
//   the shape of `indices`); `mode` clip/wrap/fast/nan.
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
// Index operands must be integer tensors.
//
//===----------------------------------------------------------------------===//
#include "RelationUtils.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::rel;

/// Operand `index` as an integer (not bool) tensor.
static FailureOr<RankedTensorType> indexOperand(Operation *op,
                                                TypeRange operands,
                                                unsigned index,
                                                StringRef what) {
  FailureOr<RankedTensorType> t = tensorOperand(op, operands, index, what);
  if (failed(t))
    return failure();
  auto intType = dyn_cast<IntegerType>(t->getElementType());
  if (!intType || intType.getWidth() == 1)
    return op->emitOpError() << "operand '" << what
                             << "' must be an integer tensor, got " << *t;
  return t;
}

/// Checks that string attribute `name` is one of `allowed`.
static LogicalResult oneOf(Operation *op, StringRef name,
                           ArrayRef<StringRef> allowed) {
  StringRef value = attrStr(op, name);
  if (llvm::is_contained(allowed, value))
    return success();
  auto diag = op->emitOpError() << name << " \"" << value
                                << "\" is not supported (expected one of";
  for (StringRef a : allowed)
    diag << " \"" << a << "\"";
  return diag << ")";
}

/// The type attribute `name` or `fallback`; a scalar element type.
static FailureOr<Type> dtypeAttr(Operation *op, StringRef name,
                                 Type fallback) {
  std::optional<Type> dtype = attrType(op, name);
  if (!dtype)
    return fallback;
  if (isa<ShapedType>(*dtype) || !TensorType::isValidElementType(*dtype))
    return op->emitOpError() << name << " must be a scalar element type, got "
                             << *dtype;
  return *dtype;
}

/// True when `op`'s definition declares the attribute `name` (set or not).
static bool declaresAttr(Operation *op, StringRef name) {
  std::optional<RegisteredOperationName> info = op->getRegisteredInfo();
  return info && llvm::is_contained(info->getAttributeNames(),
                                    StringAttr::get(op->getContext(), name));
}

/// Two dims of different operands that must agree.
static LogicalResult agree(Operation *op, int64_t a, int64_t b,
                           const Twine &what) {
  if (succeeded(unifyDim(a, b)))
    return success();
  return op->emitOpError() << what << " must agree, got " << a << " and " << b;
}

LogicalResult rel::TakeRel(Operation *op, TypeRange operands,
                           SmallVectorImpl<Type> &results) {
  if (failed(expectOperands(op, operands, 2)))
    return failure();
  FailureOr<RankedTensorType> data = tensorOperand(op, operands, 0, "data");
  if (failed(data))
    return failure();
  FailureOr<RankedTensorType> indices = indexOperand(op, operands, 1, "indices");
  if (failed(indices) ||
      failed(oneOf(op, "mode", {"clip", "wrap", "fast", "nan"})))
    return failure();
  std::optional<int64_t> axisAttr = attrI64(op, "axis");
  if (!axisAttr) {
    results.push_back(
        RankedTensorType::get(indices->getShape(), data->getElementType()));
    return success();
  }
  if (data->getRank() == 0)
    return op->emitOpError() << "operand 'data' must have rank >= 1 to take "
                                "along an axis";
  FailureOr<int64_t> axis = normalizeAxis(op, *axisAttr, data->getRank());
  if (failed(axis))
    return failure();
  int64_t batchDims = *attrI64(op, "batch_dims");
  if (batchDims < 0)
    batchDims += indices->getRank();
  if (batchDims < 0 || batchDims > indices->getRank() || batchDims > *axis)
    return op->emitOpError()
           << "batch_dims " << *attrI64(op, "batch_dims")
           << " must be in [0, min(axis, rank of 'indices')] = [0, "
           << std::min<int64_t>(*axis, indices->getRank()) << "]";
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < *axis; ++d) {
    int64_t dim = data->getDimSize(d);
    if (d < batchDims) {
      FailureOr<int64_t> u = unifyDim(dim, indices->getDimSize(d));
      if (failed(u))
        return op->emitOpError() << "batch dim " << d << " of 'data' ("
                                 << dim << ") and 'indices' ("
                                 << indices->getDimSize(d) << ") must agree";
      dim = *u;
    }
    shape.push_back(dim);
  }
  for (int64_t d = batchDims; d < indices->getRank(); ++d)
    shape.push_back(indices->getDimSize(d));
  for (int64_t d = *axis + 1; d < data->getRank(); ++d)
    shape.push_back(data->getDimSize(d));
  results.push_back(RankedTensorType::get(shape, data->getElementType()));
  return success();
}

LogicalResult rel::GatherRel(Operation *op, TypeRange operands,
                             SmallVectorImpl<Type> &results) {
  if (failed(expectOperands(op, operands, 2)))
    return failure();
  FailureOr<RankedTensorType> data = tensorOperand(op, operands, 0, "data");
  if (failed(data))
    return failure();
  FailureOr<RankedTensorType> indices = indexOperand(op, operands, 1, "indices");
  if (failed(indices))
    return failure();
  if (indices->getRank() != data->getRank())
    return op->emitOpError() << "operand 'indices' must have the rank of "
                                "'data' ("
                             << data->getRank() << "), got " << *indices;
  if (data->getRank() == 0)
    return op->emitOpError() << "operand 'data' must have rank >= 1";
  if (failed(normalizeAxis(op, *attrI64(op, "axis"), data->getRank())))
    return failure();
  results.push_back(
      RankedTensorType::get(indices->getShape(), data->getElementType()));
  return success();
}

LogicalResult rel::GatherNDRel(Operation *op, TypeRange operands,
                               SmallVectorImpl<Type> &results) {
  if (failed(expectOperands(op, operands, 2)))
    return failure();
  FailureOr<RankedTensorType> data = tensorOperand(op, operands, 0, "data");
  if (failed(data))
    return failure();
  FailureOr<RankedTensorType> indices = indexOperand(op, operands, 1, "indices");
  if (failed(indices))
    return failure();
  if (indices->getRank() < 1)
    return op->emitOpError() << "operand 'indices' must have rank >= 1";
  int64_t m = indices->getDimSize(0);
  if (std::optional<int64_t> indexRank = attrI64(op, "index_rank")) {
    if (failed(agree(op, m, *indexRank, "index_rank and dim 0 of 'indices'")))
      return failure();
    m = *indexRank;
  }
  if (isAny(m))
    return op->emitOpError() << "dim 0 of 'indices' (the index tuple size) "
                                "must be static or given by index_rank";
  int64_t batchDims = *attrI64(op, "batch_dims");
  if (batchDims < 0 || batchDims >= indices->getRank())
    return op->emitOpError() << "batch_dims " << batchDims
                             << " must be in [0, rank of 'indices' - 1]";
  if (m + batchDims > data->getRank())
    return op->emitOpError()
           << "dim 0 of 'indices' (" << m << ") + batch_dims (" << batchDims
           << ") must be <= rank of 'data' (" << data->getRank() << ")";
  SmallVector<int64_t> shape;
  for (int64_t d = 1; d < indices->getRank(); ++d) {
    int64_t dim = indices->getDimSize(d);
    if (d - 1 < batchDims) {
      FailureOr<int64_t> u = unifyDim(dim, data->getDimSize(d - 1));
      if (failed(u))
        return op->emitOpError() << "batch dim " << d - 1 << " of 'data' ("
                                 << data->getDimSize(d - 1)
                                 << ") and dim " << d << " of 'indices' ("
                                 << dim << ") must agree";
      dim = *u;
    }
    shape.push_back(dim);
  }
  for (int64_t d = m + batchDims; d < data->getRank(); ++d)
    shape.push_back(data->getDimSize(d));
  results.push_back(RankedTensorType::get(shape, data->getElementType()));
  return success();
}

/// `updates` must have the dtype of `data`.
static LogicalResult sameDtype(Operation *op, RankedTensorType data,
                               RankedTensorType updates) {
  if (updates.getElementType() == data.getElementType())
    return success();
  return op->emitOpError() << "operand 'updates' must have the dtype of "
                              "'data' ("
                           << data.getElementType() << "), got "
                           << updates.getElementType();
}

LogicalResult rel::ScatterElementsRel(Operation *op, TypeRange operands,
                                      SmallVectorImpl<Type> &results) {
  if (failed(expectOperands(op, operands, 3)))
    return failure();
  FailureOr<RankedTensorType> data = tensorOperand(op, operands, 0, "data");
  if (failed(data))
    return failure();
  FailureOr<RankedTensorType> indices = indexOperand(op, operands, 1, "indices");
  if (failed(indices))
    return failure();
  FailureOr<RankedTensorType> updates =
      tensorOperandOfRank(op, operands, 2, "updates", indices->getRank());
  if (failed(updates) || failed(sameDtype(op, *data, *updates)) ||
      failed(oneOf(op, "reduction",
                   {"update", "add", "mul", "mean", "min", "max"})))
    return failure();
  if (indices->getRank() != data->getRank())
    return op->emitOpError() << "operand 'indices' must have the rank of "
                                "'data' ("
                             << data->getRank() << "), got " << *indices;
  if (data->getRank() == 0)
    return op->emitOpError() << "operand 'data' must have rank >= 1";
  if (failed(normalizeAxis(op, *attrI64(op, "axis"), data->getRank())))
    return failure();
  for (int64_t d = 0; d < data->getRank(); ++d)
    if (failed(unifyDim(indices->getDimSize(d), updates->getDimSize(d))))
      return op->emitOpError() << "operands 'indices' and 'updates' must "
                                  "have one shape, got "
                               << *indices << " and " << *updates;
  results.push_back(*data);
  return success();
}

LogicalResult rel::ScatterNDRel(Operation *op, TypeRange operands,
                                SmallVectorImpl<Type> &results) {
  if (failed(expectOperands(op, operands, 3)))
    return failure();
  FailureOr<RankedTensorType> data = tensorOperand(op, operands, 0, "data");
  if (failed(data))
    return failure();
  FailureOr<RankedTensorType> indices = indexOperand(op, operands, 1, "indices");
  if (failed(indices))
    return failure();
  FailureOr<RankedTensorType> updates =
      tensorOperand(op, operands, 2, "updates");
  if (failed(updates) || failed(sameDtype(op, *data, *updates)) ||
      failed(oneOf(op, "mode", {"update", "add", "mul", "min", "max"})))
    return failure();
  if (indices->getRank() < 1)
    return op->emitOpError() << "operand 'indices' must have rank >= 1";
  int64_t m = indices->getDimSize(0);
  if (isAny(m))
    return op->emitOpError()
           << "dim 0 of 'indices' (the index tuple size) must be static";
  if (m > data->getRank())
    return op->emitOpError() << "dim 0 of 'indices' (" << m
                             << ") must be <= rank of 'data' ("
                             << data->getRank() << ")";
  SmallVector<int64_t> expected(indices->getShape().drop_front());
  llvm::append_range(expected, data->getShape().drop_front(m));
  bool ok = updates->getRank() == static_cast<int64_t>(expected.size());
  for (int64_t d = 0; ok && d < updates->getRank(); ++d)
    ok = succeeded(unifyDim(updates->getDimSize(d), expected[d]));
  if (!ok)
    return op->emitOpError()
           << "operand 'updates' must have shape indices.shape[1:] + "
              "data.shape[M:] = "
           << shapeStr(expected) << ", got " << *updates;
  results.push_back(*data);
  return success();
}

LogicalResult rel::OneHotRel(Operation *op, TypeRange operands,
                             SmallVectorImpl<Type> &results) {
  if (failed(expectOperands(op, operands, 3)))
    return failure();
  FailureOr<RankedTensorType> indices = indexOperand(op, operands, 0, "indices");
  if (failed(indices))
    return failure();
  FailureOr<Type> dtype = dtypeAttr(op, "dtype", Type());
  if (failed(dtype))
    return failure();
  if (!*dtype)
    return op->emitOpError() << "requires attribute 'dtype'";
  static constexpr StringLiteral names[] = {"on_value", "off_value"};
  for (auto [i, what] : llvm::enumerate(names)) {
    FailureOr<RankedTensorType> v =
        tensorOperandOfRank(op, operands, i + 1, what, 0);
    if (failed(v))
      return failure();
    if (v->getElementType() != *dtype)
      return op->emitOpError() << "operand '" << what << "' must have dtype "
                               << *dtype << ", got " << v->getElementType();
  }
  int64_t depth = *attrI64(op, "depth");
  if (depth < 1)
    return op->emitOpError() << "depth must be >= 1, got " << depth;
  int64_t rank = indices->getRank();
  int64_t axis = *attrI64(op, "axis");
  if (axis < -1 || axis > rank)
    return op->emitOpError() << "axis " << axis << " is out of range [-1, "
                             << rank << "]";
  if (axis == -1)
    axis = rank;
  SmallVector<int64_t> shape(indices->getShape());
  shape.insert(shape.begin() + axis, depth);
  results.push_back(RankedTensorType::get(shape, *dtype));
  return success();
}

LogicalResult rel::ScanRel(Operation *op, TypeRange operands,
                           SmallVectorImpl<Type> &results) {
  if (failed(expectOperands(op, operands, 1)))
    return failure();
  FailureOr<RankedTensorType> data = tensorOperand(op, operands, 0, "data");
  if (failed(data))
    return failure();
  FailureOr<Type> dtype = dtypeAttr(op, "dtype", data->getElementType());
  if (failed(dtype))
    return failure();
  if (std::optional<int64_t> axis = attrI64(op, "axis")) {
    if (failed(normalizeAxis(op, *axis, data->getRank())))
      return failure();
    results.push_back(RankedTensorType::get(data->getShape(), *dtype));
    return success();
  }
  results.push_back(
      RankedTensorType::get({productOfDims(data->getShape())}, *dtype));
  return success();
}

LogicalResult rel::SortRel(Operation *op, TypeRange operands,
                           SmallVectorImpl<Type> &results) {
  if (failed(expectOperands(op, operands, 1)))
    return failure();
  FailureOr<RankedTensorType> data = tensorOperand(op, operands, 0, "data");
  if (failed(data))
    return failure();
  if (failed(normalizeAxis(op, *attrI64(op, "axis"), data->getRank())))
    return failure();
  // An op with a `dtype` attribute (argsort) gives indices of that dtype,
  // int32 unless set, as Relay's; without one (sort) the values keep their
  // dtype, whatever other attributes the op carries.
  FailureOr<Type> dtype = data->getElementType();
  if (declaresAttr(op, "dtype"))
    dtype = dtypeAttr(op, "dtype", IntegerType::get(op->getContext(), 32));
  if (failed(dtype))
    return failure();
  results.push_back(RankedTensorType::get(data->getShape(), *dtype));
  return success();
}

LogicalResult rel::TopKRel(Operation *op, TypeRange operands,
                           SmallVectorImpl<Type> &results) {
  if (failed(expectOperands(op, operands, 1)))
    return failure();
  FailureOr<RankedTensorType> data = tensorOperand(op, operands, 0, "data");
  if (failed(data))
    return failure();
  FailureOr<int64_t> axis =
      normalizeAxis(op, *attrI64(op, "axis"), data->getRank());
  if (failed(axis) || failed(oneOf(op, "ret_type", {"both", "values",
                                                    "indices"})))
    return failure();
  FailureOr<Type> dtype =
      dtypeAttr(op, "dtype", IntegerType::get(op->getContext(), 32));
  if (failed(dtype))
    return failure();
  if (!isa<IntegerType>(*dtype))
    return op->emitOpError() << "dtype must be an integer type, got "
                             << *dtype;
  int64_t k = *attrI64(op, "k");
  int64_t n = data->getDimSize(*axis);
  if (k >= 1 && !isAny(n) && k > n)
    return op->emitOpError() << "k " << k << " must be <= dim " << *axis
                             << " of 'data' (" << n << ")";
  SmallVector<int64_t> shape(data->getShape());
  shape[*axis] = k >= 1 ? k : n;
  auto values = RankedTensorType::get(shape, data->getElementType());
  auto indices = RankedTensorType::get(shape, *dtype);
  StringRef retType = attrStr(op, "ret_type");
  if (retType == "values")
    results.push_back(values);
  else if (retType == "indices")
    results.push_back(indices);
  else
    results.push_back(TupleType::get(op->getContext(), {values, indices}));
  return success();
}
