//===- RelationUtils.cpp - helpers shared by the type relations -----------===//
#include "RelationUtils.h"

#include "llvm/Support/CheckedArithmetic.h"

#include "relay/Utils/ShapeUtils.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::rel;

FailureOr<RankedTensorType> rel::tensorType(ErrorSite site, Type type,
                                            StringRef what) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return site.emitError()
           << "operand '" << what << "' must be a ranked tensor, got " << type;
  return tensor;
}

FailureOr<RankedTensorType>
rel::tensorTypeOfRank(ErrorSite site, Type type, StringRef what, int64_t rank) {
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
    return site.emitError() << name << " must have " << size << " entries, got "
                            << values.size();
  for (int64_t value : values)
    if (value < minValue)
      return site.emitError()
             << name << " entries must be >= " << minValue << ", got " << value;
  return success();
}

FailureOr<Type> rel::resultDtype(ErrorSite site, std::optional<Type> outDtype,
                                 Type fallback) {
  if (!outDtype || !*outDtype)
    return fallback;
  if (isa<ShapedType>(*outDtype) || !TensorType::isValidElementType(*outDtype))
    return site.emitError()
           << "out_dtype must be a scalar element type, got " << *outDtype;
  return *outDtype;
}

FailureOr<int64_t> rel::normalizeAxis(ErrorSite site, int64_t axis,
                                      int64_t rank, StringRef what) {
  FailureOr<int64_t> normalized = relay::normalizeAxis(axis, rank);
  if (failed(normalized))
    return site.emitError()
           << what << " " << axis << " is out of range for rank " << rank;
  return normalized;
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

FailureOr<int64_t> rel::mulDims(ErrorSite site, int64_t a, int64_t b,
                                StringRef what) {
  if (isAny(a) || isAny(b))
    return kAny;
  if (std::optional<int64_t> product = llvm::checkedMul(a, b))
    return *product;
  return site.emitError() << what << " " << a << " * " << b
                          << " overflows int64";
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

FailureOr<RankedTensorType> rel::scalarTensor(ErrorSite site, Type type,
                                              StringRef what) {
  FailureOr<RankedTensorType> t = tensorType(site, type, what);
  if (failed(t))
    return failure();
  if (t->getRank() != 0)
    return site.emitError() << what << " must be a 0-d tensor, got " << *t;
  return t;
}

FailureOr<Type> rel::dtypeOr(ErrorSite site, std::optional<Type> dtype,
                             Type fallback) {
  if (!dtype || !*dtype)
    return fallback;
  if (isa<ShapedType>(*dtype) || !TensorType::isValidElementType(*dtype))
    return site.emitError()
           << "dtype must be a scalar element type, got " << *dtype;
  return *dtype;
}
