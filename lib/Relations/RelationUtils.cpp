//===- RelationUtils.cpp - helpers shared by the type relations -----------===//
#include "RelationUtils.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::rel;

FailureOr<RankedTensorType> rel::tensorType(ErrorSite site, Type type,
                                            StringRef what) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return site.emitError() << "operand '" << what
                            << "' must be a ranked tensor, got " << type;
  return tensor;
}

FailureOr<RankedTensorType> rel::tensorTypeOfRank(ErrorSite site, Type type,
                                                  StringRef what,
                                                  int64_t rank) {
  FailureOr<RankedTensorType> tensor = tensorType(site, type, what);
  if (failed(tensor))
    return failure();
  if (tensor->getRank() != rank)
    return site.emitError() << "operand '" << what << "' must have rank "
                            << rank << ", got " << *tensor;
  return tensor;
}

LogicalResult rel::checkArray(ErrorSite site, StringRef name,
                              ArrayRef<int64_t> values, size_t size,
                              int64_t minValue) {
  if (values.size() != size)
    return site.emitError() << name << " must have " << size
                            << " entries, got " << values.size();
  for (int64_t value : values)
    if (value < minValue)
      return site.emitError() << name << " entries must be >= " << minValue
                              << ", got " << value;
  return success();
}

FailureOr<Type> rel::resultDtype(ErrorSite site, std::optional<Type> outDtype,
                                 Type fallback) {
  if (!outDtype || !*outDtype)
    return fallback;
  if (isa<ShapedType>(*outDtype) || !TensorType::isValidElementType(*outDtype))
    return site.emitError() << "out_dtype must be a scalar element type, got "
                            << *outDtype;
  return *outDtype;
}

FailureOr<RankedTensorType> rel::tensorOperand(ErrorSite site,
                                               TypeRange operands,
                                               unsigned index, StringRef what) {
  if (index >= operands.size())
    return site.emitError() << "is missing operand '" << what << "'";
  auto tensor = dyn_cast<RankedTensorType>(operands[index]);
  if (!tensor)
    return site.emitError() << "operand '" << what
                             << "' must be a ranked tensor, got "
                             << operands[index];
  return tensor;
}

FailureOr<RankedTensorType> rel::tensorOperandOfRank(ErrorSite site,
                                                     TypeRange operands,
                                                     unsigned index,
                                                     StringRef what,
                                                     int64_t rank) {
  FailureOr<RankedTensorType> tensor = tensorOperand(site, operands, index, what);
  if (failed(tensor))
    return failure();
  if (tensor->getRank() != rank)
    return site.emitError() << "operand '" << what << "' must have rank "
                             << rank << ", got " << *tensor;
  return tensor;
}

FailureOr<int64_t> rel::normalizeAxis(ErrorSite site, int64_t axis,
                                      int64_t rank, StringRef what) {
  int64_t normalized = axis < 0 ? axis + rank : axis;
  if (normalized < 0 || normalized >= rank)
    return site.emitError() << what << " " << axis
                             << " is out of range for rank " << rank;
  return normalized;
}

LogicalResult rel::expectOperands(ErrorSite site, TypeRange operands,
                                  unsigned n) {
  if (operands.size() != n)
    return site.emitError() << "expects " << n << " operands, got "
                             << operands.size();
  return success();
}

FailureOr<int64_t> rel::unifyDim(int64_t a, int64_t b) {
  if (isAny(a))
    return b;
  if (isAny(b) || a == b)
    return a;
  return failure();
}

std::string rel::dimStr(int64_t dim) {
  return isAny(dim) ? std::string("?") : std::to_string(dim);
}

int64_t rel::mulDims(int64_t a, int64_t b) {
  return isAny(a) || isAny(b) ? kAny : a * b;
}

int64_t rel::productOfDims(ArrayRef<int64_t> dims) {
  int64_t product = 1;
  for (int64_t dim : dims)
    product = mulDims(product, dim);
  return product;
}

std::string rel::shapeStr(ArrayRef<int64_t> dims) {
  std::string out = "[";
  for (auto [i, dim] : llvm::enumerate(dims))
    out += (i ? ", " : "") + dimStr(dim);
  return out + "]";
}

FailureOr<ArrayRef<int64_t>> rel::attrI64ArrayOfSize(Operation *op,
                                                     StringRef name,
                                                     size_t size,
                                                     int64_t minValue) {
  std::optional<ArrayRef<int64_t>> values = attrI64Array(op, name);
  if (!values)
    return op->emitOpError() << "requires attribute '" << name << "'";
  if (values->size() != size)
    return op->emitOpError() << name << " must have " << size
                             << " entries, got " << values->size();
  for (int64_t value : *values)
    if (value < minValue)
      return op->emitOpError() << name << " entries must be >= " << minValue
                               << ", got " << value;
  return *values;
}

FailureOr<Type> rel::outDtype(Operation *op, Type fallback) {
  std::optional<Type> dtype = attrType(op, "out_dtype");
  if (!dtype)
    return fallback;
  if (isa<ShapedType>(*dtype) || !TensorType::isValidElementType(*dtype))
    return op->emitOpError() << "out_dtype must be a scalar element type, got "
                             << *dtype;
  return *dtype;
}

FailureOr<SmallVector<int64_t, 4>> rel::parseLayout(ErrorSite site,
                                                    StringRef layout,
                                                    StringRef canonical,
                                                    StringRef what) {
  SmallVector<int64_t, 4> positions;
  bool ok = layout.size() == canonical.size();
  for (char letter : canonical) {
    if (!ok)
      break;
    ok = layout.count(letter) == 1;
    positions.push_back(layout.find(letter));
  }
  if (!ok)
    return site.emitError() << what << " \"" << layout
                             << "\" is not supported (expected a permutation "
                                "of "
                             << canonical << ")";
  return positions;
}

FailureOr<Layout2D> rel::parseLayout2D(ErrorSite site, StringRef layout,
                                       StringRef what) {
  FailureOr<SmallVector<int64_t, 4>> pos =
      parseLayout(site, layout, "NCHW", what);
  if (failed(pos))
    return failure();
  return Layout2D{(*pos)[0], (*pos)[1], (*pos)[2], (*pos)[3]};
}
