//===- NNMisc.cpp - relations of more nn.* operators ----------------------===//
//
// BatchMatmul, Norm (layer/group/instance norm), AxesIdentity
// (l2_normalize), Dropout, Pad, UpSampling, DepthToSpace and SpaceToDepth,
// with Relay's semantics (src/relay/op/nn/{nn,pad,upsampling}.cc); `?` dims
// propagate.
//
//===----------------------------------------------------------------------===//
#include "RelationUtils.h"

#include <cmath>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::rel;

//===----------------------------------------------------------------------===//
// BatchMatmul: x [b, m, k] · y [b, n, k]ᵀ -> [b, m, n] (transposes by attrs;
// a batch of 1 broadcasts)
//===----------------------------------------------------------------------===//

LogicalResult rel::BatchMatmulRel(Operation *op, TypeRange operands,
                                  SmallVectorImpl<Type> &results) {
  if (failed(expectOperands(op, operands, 2)))
    return failure();
  FailureOr<RankedTensorType> x = tensorOperandOfRank(op, operands, 0, "x", 3);
  if (failed(x))
    return failure();
  FailureOr<RankedTensorType> y = tensorOperandOfRank(op, operands, 1, "y", 3);
  if (failed(y))
    return failure();
  bool ta = attrBool(op, "transpose_a"), tb = attrBool(op, "transpose_b");
  int64_t xb = x->getDimSize(0), yb = y->getDimSize(0);
  int64_t m = x->getDimSize(ta ? 2 : 1), xk = x->getDimSize(ta ? 1 : 2);
  int64_t n = y->getDimSize(tb ? 1 : 2), yk = y->getDimSize(tb ? 2 : 1);
  int64_t batch;
  if (xb == 1)
    batch = yb;
  else if (yb == 1)
    batch = xb;
  else if (FailureOr<int64_t> b = unifyDim(xb, yb); succeeded(b))
    batch = *b;
  else
    return op->emitOpError() << "batch dims " << xb << " (x) and " << yb
                             << " (y) differ and neither is 1";
  if (failed(unifyDim(xk, yk)))
    return op->emitOpError()
           << "reduction dims differ: x dim " << (ta ? 1 : 2) << " " << xk
           << " ≠ y dim " << (tb ? 2 : 1) << " " << yk << " (x is "
           << (ta ? "[b, k, m]" : "[b, m, k]") << ", y is "
           << (tb ? "[b, n, k]" : "[b, k, n]") << ")";
  if (x->getElementType() != y->getElementType())
    return op->emitOpError() << "y dtype " << y->getElementType()
                             << " ≠ x dtype " << x->getElementType();
  FailureOr<Type> dtype = outDtype(op, x->getElementType());
  if (failed(dtype))
    return failure();
  results.push_back(RankedTensorType::get({batch, m, n}, *dtype));
  return success();
}

//===----------------------------------------------------------------------===//
// Norm: (data, gamma, beta) -> data, gamma and beta of size data[axis]
//===----------------------------------------------------------------------===//

LogicalResult rel::NormRel(Operation *op, TypeRange operands,
                           SmallVectorImpl<Type> &results) {
  if (failed(expectOperands(op, operands, 3)))
    return failure();
  FailureOr<RankedTensorType> data = tensorOperand(op, operands, 0, "data");
  if (failed(data))
    return failure();
  if (!isa<FloatType>(data->getElementType()))
    return op->emitOpError() << "operand 'data' must have a float dtype, got "
                             << data->getElementType();
  FailureOr<int64_t> axis =
      normalizeAxis(op, *attrI64(op, "axis"), data->getRank());
  if (failed(axis))
    return failure();
  int64_t size = data->getDimSize(*axis);
  if (std::optional<int64_t> groups = attrI64(op, "num_groups")) {
    if (*groups < 1)
      return op->emitOpError() << "num_groups must be >= 1, got " << *groups;
    if (!isAny(size) && size % *groups != 0)
      return op->emitOpError() << "channels " << size << " (data dim "
                               << *axis << ") are not divisible by num_groups "
                               << *groups;
  }
  static const char *names[] = {"gamma", "beta"};
  for (unsigned index = 1; index < 3; ++index) {
    StringRef name = names[index - 1];
    FailureOr<RankedTensorType> param =
        tensorOperandOfRank(op, operands, index, name, 1);
    if (failed(param))
      return failure();
    if (failed(unifyDim(size, param->getDimSize(0))))
      return op->emitOpError() << "operand '" << name << "' size "
                               << param->getDimSize(0) << " ≠ data dim "
                               << *axis << " (axis) " << size;
    if (param->getElementType() != data->getElementType())
      return op->emitOpError() << "operand '" << name << "' dtype "
                               << param->getElementType() << " ≠ data dtype "
                               << data->getElementType();
  }
  results.push_back(*data);
  return success();
}

//===----------------------------------------------------------------------===//
// AxesIdentity: data with a list of distinct axes in range
//===----------------------------------------------------------------------===//

LogicalResult rel::AxesIdentityRel(Operation *op, TypeRange operands,
                                   SmallVectorImpl<Type> &results) {
  if (failed(expectOperands(op, operands, 1)))
    return failure();
  FailureOr<RankedTensorType> data = tensorOperand(op, operands, 0, "data");
  if (failed(data))
    return failure();
  SmallVector<bool> seen(data->getRank(), false);
  for (int64_t axis : attrI64Array(op, "axis").value_or(ArrayRef<int64_t>{})) {
    FailureOr<int64_t> a = normalizeAxis(op, axis, data->getRank());
    if (failed(a))
      return failure();
    if (seen[*a])
      return op->emitOpError() << "axis " << axis << " is repeated";
    seen[*a] = true;
  }
  results.push_back(*data);
  return success();
}

//===----------------------------------------------------------------------===//
// Dropout: data -> (data, mask of the data type)
//===----------------------------------------------------------------------===//

LogicalResult rel::DropoutRel(Operation *op, TypeRange operands,
                              SmallVectorImpl<Type> &results) {
  if (failed(expectOperands(op, operands, 1)))
    return failure();
  FailureOr<RankedTensorType> data = tensorOperand(op, operands, 0, "data");
  if (failed(data))
    return failure();
  if (auto rate = op->getAttrOfType<FloatAttr>("rate")) {
    double r = rate.getValueAsDouble();
    if (!(r >= 0.0 && r < 1.0))
      return op->emitOpError() << "rate must be in [0, 1), got " << r;
  }
  results.push_back(
      TupleType::get(op->getContext(), {Type(*data), Type(*data)}));
  return success();
}

//===----------------------------------------------------------------------===//
// Pad: data [d...] -> [d + before + after ...]
//===----------------------------------------------------------------------===//

LogicalResult rel::PadRel(Operation *op, TypeRange operands,
                          SmallVectorImpl<Type> &results) {
  if (failed(expectOperands(op, operands, 2)))
    return failure();
  FailureOr<RankedTensorType> data = tensorOperand(op, operands, 0, "data");
  if (failed(data))
    return failure();
  FailureOr<RankedTensorType> value =
      tensorOperandOfRank(op, operands, 1, "pad_value", 0);
  if (failed(value))
    return failure();
  if (value->getElementType() != data->getElementType())
    return op->emitOpError() << "pad_value dtype " << value->getElementType()
                             << " ≠ data dtype " << data->getElementType();
  StringRef mode = attrStr(op, "pad_mode");
  if (mode != "constant" && mode != "edge" && mode != "reflect")
    return op->emitOpError() << "pad_mode \"" << mode
                             << "\" is not one of constant, edge, reflect";
  ArrayRef<int64_t> width =
      attrI64Array(op, "pad_width").value_or(ArrayRef<int64_t>{});
  int64_t rank = data->getRank();
  if (static_cast<int64_t>(width.size()) != 2 * rank)
    return op->emitOpError() << "pad_width must have 2 entries (before, "
                                "after) per data dim: "
                             << 2 * rank << ", got " << width.size();
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t before = width[2 * d], after = width[2 * d + 1];
    if (before < 0 || after < 0)
      return op->emitOpError() << "pad_width entries must be >= 0, got "
                               << std::min(before, after) << " for dim " << d;
    int64_t in = data->getDimSize(d);
    if (mode == "reflect" && !isAny(in) && (before >= in || after >= in))
      return op->emitOpError()
             << "reflect padding of dim " << d << " (size " << in
             << ") must be smaller than the dim, got (" << before << ", "
             << after << ")";
    shape.push_back(isAny(in) ? kAny : in + before + after);
  }
  results.push_back(RankedTensorType::get(shape, data->getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// UpSampling: h, w -> round(h * scale_h), round(w * scale_w)
//===----------------------------------------------------------------------===//

LogicalResult rel::UpSamplingRel(Operation *op, TypeRange operands,
                                 SmallVectorImpl<Type> &results) {
  if (failed(expectOperands(op, operands, 1)))
    return failure();
  FailureOr<Layout2D> l = parseLayout2D(op, attrStr(op, "layout"), "layout");
  if (failed(l))
    return failure();
  FailureOr<RankedTensorType> data =
      tensorOperandOfRank(op, operands, 0, "data", 4);
  if (failed(data))
    return failure();
  StringRef method = attrStr(op, "method");
  if (method != "nearest_neighbor" && method != "bilinear")
    return op->emitOpError() << "method \"" << method
                             << "\" is not one of nearest_neighbor, bilinear";
  SmallVector<int64_t> shape(data->getShape());
  const char *names[] = {"scale_h", "scale_w"};
  int64_t pos[] = {l->h, l->w};
  for (int i = 0; i < 2; ++i) {
    double scale = 1.0;
    if (auto attr = op->getAttrOfType<FloatAttr>(names[i]))
      scale = attr.getValueAsDouble();
    if (!(scale > 0.0))
      return op->emitOpError() << names[i] << " must be > 0, got " << scale;
    int64_t in = shape[pos[i]];
    if (isAny(in))
      continue;
    int64_t out = static_cast<int64_t>(std::round(in * scale));
    if (out < 1)
      return op->emitOpError() << "output size along "
                               << StringRef("HW").substr(i, 1)
                               << " would be " << out << " (" << in << " × "
                               << scale << ")";
    shape[pos[i]] = out;
  }
  results.push_back(RankedTensorType::get(shape, data->getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// DepthToSpace / SpaceToDepth
//===----------------------------------------------------------------------===//

static FailureOr<std::pair<RankedTensorType, Layout2D>>
blockData(Operation *op, TypeRange operands) {
  if (failed(expectOperands(op, operands, 1)))
    return failure();
  FailureOr<Layout2D> l = parseLayout2D(op, attrStr(op, "layout"), "layout");
  if (failed(l))
    return failure();
  FailureOr<RankedTensorType> data =
      tensorOperandOfRank(op, operands, 0, "data", 4);
  if (failed(data))
    return failure();
  if (*attrI64(op, "block_size") < 1)
    return op->emitOpError() << "block_size must be >= 1, got "
                             << *attrI64(op, "block_size");
  return std::make_pair(*data, *l);
}

LogicalResult rel::DepthToSpaceRel(Operation *op, TypeRange operands,
                                   SmallVectorImpl<Type> &results) {
  auto dataAndLayout = blockData(op, operands);
  if (failed(dataAndLayout))
    return failure();
  auto [data, l] = *dataAndLayout;
  StringRef mode = attrStr(op, "mode");
  if (mode != "DCR" && mode != "CRD")
    return op->emitOpError() << "mode \"" << mode
                             << "\" is not one of DCR, CRD";
  int64_t b = *attrI64(op, "block_size");
  SmallVector<int64_t> shape(data.getShape());
  int64_t c = shape[l.c];
  if (!isAny(c) && c % (b * b) != 0)
    return op->emitOpError() << "channels " << c
                             << " are not divisible by block_size² " << b * b;
  shape[l.c] = isAny(c) ? kAny : c / (b * b);
  shape[l.h] = mulDims(shape[l.h], b);
  shape[l.w] = mulDims(shape[l.w], b);
  results.push_back(RankedTensorType::get(shape, data.getElementType()));
  return success();
}

LogicalResult rel::SpaceToDepthRel(Operation *op, TypeRange operands,
                                   SmallVectorImpl<Type> &results) {
  auto dataAndLayout = blockData(op, operands);
  if (failed(dataAndLayout))
    return failure();
  auto [data, l] = *dataAndLayout;
  int64_t b = *attrI64(op, "block_size");
  SmallVector<int64_t> shape(data.getShape());
  for (auto [pos, name] : {std::make_pair(l.h, "height"),
                           std::make_pair(l.w, "width")}) {
    int64_t in = shape[pos];
    if (!isAny(in) && in % b != 0)
      return op->emitOpError() << name << " " << in
                               << " is not divisible by block_size " << b;
    shape[pos] = isAny(in) ? kAny : in / b;
  }
  shape[l.c] = mulDims(shape[l.c], b * b);
  results.push_back(RankedTensorType::get(shape, data.getElementType()));
  return success();
}
