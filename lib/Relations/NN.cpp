//===- NN.cpp - relations of the nn.* operators ---------------------------===//
//
// Dense, BiasAdd, Pool2D, GlobalPool2D, BatchFlatten and BatchNorm, with
// Relay's semantics (src/relay/op/nn/{nn,pooling}.cc): the same attributes,
// defaults and output-size formulas; `?` dims propagate. Conv2D shares the
// N-d convolution relation in ConvPool.cpp.
//
//===----------------------------------------------------------------------===//
#include "RelationUtils.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::rel;

//===----------------------------------------------------------------------===//
// Dense: data [d..., k] · weight [units, k]ᵀ -> [d..., units]
//===----------------------------------------------------------------------===//

LogicalResult rel::DenseRel(Operation *op, TypeRange operands,
                            SmallVectorImpl<Type> &results) {
  if (failed(expectOperands(op, operands, 2)))
    return failure();
  // nn.dense is nn.matmul with transpose_b = true (and no transpose_a).
  bool isMatmul = isa<MatmulOp>(op);
  bool transposeA = isMatmul && attrBool(op, "transpose_a");
  bool transposeB = !isMatmul || attrBool(op, "transpose_b");
  StringRef aName = isMatmul ? "tensor_a" : "data";
  StringRef bName = isMatmul ? "tensor_b" : "weight";
  FailureOr<RankedTensorType> data = tensorOperand(op, operands, 0, aName);
  if (failed(data))
    return failure();
  FailureOr<RankedTensorType> weight =
      tensorOperandOfRank(op, operands, 1, bName, 2);
  if (failed(weight))
    return failure();
  int64_t minRank = transposeA ? 2 : 1;
  if (data->getRank() < minRank)
    return op->emitOpError() << "operand '" << aName << "' must have rank >= "
                             << minRank << ", got " << *data;
  int64_t rank = data->getRank();
  int64_t k = transposeA ? data->getDimSize(rank - 2) : data->getDimSize(rank - 1);
  int64_t weightUnits = weight->getDimSize(transposeB ? 0 : 1);
  int64_t weightK = weight->getDimSize(transposeB ? 1 : 0);
  if (failed(unifyDim(k, weightK))) {
    if (!isMatmul)
      return op->emitOpError() << "data reduction dim (last) " << k
                               << " ≠ weight dim 1 " << weightK
                               << " (weight must be [units, k])";
    return op->emitOpError()
           << "tensor_a reduction dim (" << (transposeA ? "second last" : "last")
           << ") " << k << " ≠ tensor_b dim " << (transposeB ? 1 : 0) << " "
           << weightK << " (tensor_b must be "
           << (transposeB ? "[units, k]" : "[k, units]") << ")";
  }
  int64_t units = weightUnits;
  if (std::optional<int64_t> attr = attrI64(op, "units")) {
    if (*attr < 1)
      return op->emitOpError() << "units must be >= 1, got " << *attr;
    if (failed(unifyDim(*attr, weightUnits)))
      return op->emitOpError() << "units attribute " << *attr << " ≠ "
                               << bName << " dim " << (transposeB ? 0 : 1)
                               << " " << weightUnits;
    units = *attr;
  }
  FailureOr<Type> dtype = outDtype(op, data->getElementType());
  if (failed(dtype))
    return failure();
  SmallVector<int64_t> shape(data->getShape());
  if (transposeA)
    shape[rank - 2] = data->getDimSize(rank - 1);
  shape.back() = units;
  results.push_back(RankedTensorType::get(shape, *dtype));
  return success();
}

//===----------------------------------------------------------------------===//
// BiasAdd: data + bias broadcast along `axis`
//===----------------------------------------------------------------------===//

LogicalResult rel::BiasAddRel(Operation *op, TypeRange operands,
                              SmallVectorImpl<Type> &results) {
  if (failed(expectOperands(op, operands, 2)))
    return failure();
  FailureOr<RankedTensorType> data = tensorOperand(op, operands, 0, "data");
  if (failed(data))
    return failure();
  // nn.prelu shares this relation; its vector operand is 'alpha'.
  StringRef what = isa<PReluOp>(op) ? "alpha" : "bias";
  FailureOr<RankedTensorType> bias =
      tensorOperandOfRank(op, operands, 1, what, 1);
  if (failed(bias))
    return failure();
  FailureOr<int64_t> axis =
      normalizeAxis(op, *attrI64(op, "axis"), data->getRank());
  if (failed(axis))
    return failure();
  if (failed(unifyDim(bias->getDimSize(0), data->getDimSize(*axis))))
    return op->emitOpError()
           << what << " size " << bias->getDimSize(0) << " ≠ data dim " << *axis
           << " (axis) " << data->getDimSize(*axis);
  if (bias->getElementType() != data->getElementType())
    return op->emitOpError() << what << " dtype " << bias->getElementType()
                             << " ≠ data dtype " << data->getElementType();
  results.push_back(*data);
  return success();
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

/// The data operand of a 2-D pool in `layout` (rank 4), with `out_layout`
/// empty or equal to `layout` as Relay requires.
static FailureOr<std::pair<RankedTensorType, Layout2D>>
poolData(Operation *op, TypeRange operands) {
  if (failed(expectOperands(op, operands, 1)))
    return failure();
  StringRef layout = attrStr(op, "layout");
  FailureOr<Layout2D> l = parseLayout2D(op, layout, "layout");
  if (failed(l))
    return failure();
  StringRef outLayout = attrStr(op, "out_layout");
  if (!outLayout.empty() && outLayout != layout)
    return op->emitOpError() << "out_layout \"" << outLayout
                             << "\" must be empty or equal to layout \""
                             << layout << "\"";
  FailureOr<RankedTensorType> data =
      tensorOperandOfRank(op, operands, 0, "data", 4);
  if (failed(data))
    return failure();
  return std::make_pair(*data, *l);
}

LogicalResult rel::Pool2DRel(Operation *op, TypeRange operands,
                             SmallVectorImpl<Type> &results) {
  auto dataAndLayout = poolData(op, operands);
  if (failed(dataAndLayout))
    return failure();
  auto [data, l] = *dataAndLayout;
  FailureOr<ArrayRef<int64_t>> poolSize =
      attrI64ArrayOfSize(op, "pool_size", 2);
  if (failed(poolSize))
    return failure();
  FailureOr<ArrayRef<int64_t>> strides = attrI64ArrayOfSize(op, "strides", 2);
  if (failed(strides))
    return failure();
  FailureOr<ArrayRef<int64_t>> dilation =
      attrI64ArrayOfSize(op, "dilation", 2);
  if (failed(dilation))
    return failure();
  FailureOr<SmallVector<int64_t, 4>> pad =
      padding2D(op, *attrI64Array(op, "padding"));
  if (failed(pad))
    return failure();
  bool ceilMode = attrBool(op, "ceil_mode");

  SmallVector<int64_t> shape(data.getShape());
  int64_t h = shape[l.h], w = shape[l.w];
  int64_t outH = windowOutput(h, (*poolSize)[0], (*strides)[0], (*dilation)[0],
                              (*pad)[0], (*pad)[2], ceilMode);
  int64_t outW = windowOutput(w, (*poolSize)[1], (*strides)[1], (*dilation)[1],
                              (*pad)[1], (*pad)[3], ceilMode);
  if (!isAny(outH) && outH < 1)
    return op->emitOpError()
           << "output height would be " << outH << ": input height " << h
           << " + padding " << (*pad)[0] + (*pad)[2]
           << " is smaller than the dilated pool height "
           << ((*poolSize)[0] - 1) * (*dilation)[0] + 1;
  if (!isAny(outW) && outW < 1)
    return op->emitOpError()
           << "output width would be " << outW << ": input width " << w
           << " + padding " << (*pad)[1] + (*pad)[3]
           << " is smaller than the dilated pool width "
           << ((*poolSize)[1] - 1) * (*dilation)[1] + 1;
  shape[l.h] = outH;
  shape[l.w] = outW;
  results.push_back(RankedTensorType::get(shape, data.getElementType()));
  return success();
}

LogicalResult rel::GlobalPool2DRel(Operation *op, TypeRange operands,
                                   SmallVectorImpl<Type> &results) {
  auto dataAndLayout = poolData(op, operands);
  if (failed(dataAndLayout))
    return failure();
  auto [data, l] = *dataAndLayout;
  SmallVector<int64_t> shape(data.getShape());
  shape[l.h] = 1;
  shape[l.w] = 1;
  results.push_back(RankedTensorType::get(shape, data.getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// BatchFlatten: [n, a, b, ...] -> [n, a * b * ...]
//===----------------------------------------------------------------------===//

LogicalResult rel::BatchFlattenRel(Operation *op, TypeRange operands,
                                   SmallVectorImpl<Type> &results) {
  if (failed(expectOperands(op, operands, 1)))
    return failure();
  FailureOr<RankedTensorType> data = tensorOperand(op, operands, 0, "data");
  if (failed(data))
    return failure();
  if (data->getRank() < 1)
    return op->emitOpError() << "operand 'data' must have rank >= 1, got "
                             << *data;
  ArrayRef<int64_t> shape = data->getShape();
  results.push_back(RankedTensorType::get(
      {shape[0], productOfDims(shape.drop_front())}, data->getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// BatchNorm: (data, gamma, beta, moving_mean, moving_var)
//            -> (data type, [C], [C]) with C = data dim `axis`
//===----------------------------------------------------------------------===//

LogicalResult rel::BatchNormRel(Operation *op, TypeRange operands,
                                SmallVectorImpl<Type> &results) {
  if (failed(expectOperands(op, operands, 5)))
    return failure();
  FailureOr<RankedTensorType> data = tensorOperand(op, operands, 0, "data");
  if (failed(data))
    return failure();
  int64_t rank = data->getRank();
  int64_t axis = *attrI64(op, "axis");
  // As in Relay, -1 (the last dim) is the only negative axis accepted.
  if (axis < -1 || axis >= rank)
    return op->emitOpError() << "axis " << axis
                             << " is out of range for rank " << rank
                             << " (expected -1 <= axis < " << rank << ")";
  if (axis == -1)
    axis = rank - 1;
  int64_t size = data->getDimSize(axis);
  static const char *names[] = {"gamma", "beta", "moving_mean", "moving_var"};
  for (unsigned index = 1; index < 5; ++index) {
    StringRef name = names[index - 1];
    FailureOr<RankedTensorType> param =
        tensorOperandOfRank(op, operands, index, name, 1);
    if (failed(param))
      return failure();
    FailureOr<int64_t> unified = unifyDim(size, param->getDimSize(0));
    if (failed(unified))
      return op->emitOpError() << "operand '" << name << "' size "
                               << param->getDimSize(0) << " ≠ data dim "
                               << axis << " (axis) " << size;
    size = *unified;
    if (param->getElementType() != data->getElementType())
      return op->emitOpError() << "operand '" << name << "' dtype "
                               << param->getElementType() << " ≠ data dtype "
                               << data->getElementType();
  }
  auto stat = RankedTensorType::get({size}, data->getElementType());
  results.push_back(
      TupleType::get(op->getContext(), {Type(*data), Type(stat), Type(stat)}));
  return success();
}
