//===- Elementwise.cpp - Identity, Broadcast and the other elementwise rules -//
//
// Shape rules: Identity (and IdentityBool: bool result), AxisIdentity,
// Broadcast (and BroadcastBool: bool result), Where (three-way broadcast),
// Cast and CastLike (shape of `data`, another dtype). The dtype rules are
// the op's dtype-class trait (RelayDtypeTraits.h), verified here too.
//
//===----------------------------------------------------------------------===//
#include "RelationUtils.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::rel;

//===----------------------------------------------------------------------===//
// Dtype classes
//===----------------------------------------------------------------------===//

DtypeClass relay::operandDtypeClass(Operation *op) {
  if (op->hasTrait<OpTrait::FloatOperands>())
    return DtypeClass::Float;
  if (op->hasTrait<OpTrait::IntegerOperands>())
    return DtypeClass::Integer;
  if (op->hasTrait<OpTrait::IntegerOrBoolOperands>())
    return DtypeClass::IntegerOrBool;
  if (op->hasTrait<OpTrait::BoolOperands>())
    return DtypeClass::Bool;
  if (op->hasTrait<OpTrait::NumericOperands>())
    return DtypeClass::Numeric;
  return DtypeClass::Any;
}

bool relay::isOfDtypeClass(Type element, DtypeClass cls) {
  bool isFloat = isa<FloatType>(element);
  bool isBool = element.isInteger(1);
  bool isInt = isa<IntegerType>(element) && !isBool;
  switch (cls) {
  case DtypeClass::Any:
    return true;
  case DtypeClass::Float:
    return isFloat;
  case DtypeClass::Integer:
    return isInt;
  case DtypeClass::IntegerOrBool:
    return isInt || isBool;
  case DtypeClass::Bool:
    return isBool;
  case DtypeClass::Numeric:
    return isFloat || isInt;
  }
  llvm_unreachable("unknown dtype class");
}

StringRef relay::dtypeClassName(DtypeClass cls) {
  switch (cls) {
  case DtypeClass::Any:
    return "any";
  case DtypeClass::Float:
    return "float";
  case DtypeClass::Integer:
    return "integer";
  case DtypeClass::IntegerOrBool:
    return "integer or bool";
  case DtypeClass::Bool:
    return "bool";
  case DtypeClass::Numeric:
    return "float or integer";
  }
  llvm_unreachable("unknown dtype class");
}

LogicalResult relay::verifyOperandDtypes(Operation *op, DtypeClass cls) {
  for (Value operand : op->getOperands()) {
    auto tensor = dyn_cast<RankedTensorType>(operand.getType());
    if (!tensor || isOfDtypeClass(tensor.getElementType(), cls))
      continue;
    StringRef name = dtypeClassName(cls);
    InFlightDiagnostic diag = op->emitOpError();
    if (op->getNumOperands() == 1)
      diag << "operand 'data' must be " << (name.front() == 'i' ? "an " : "a ")
           << name << " tensor";
    else
      diag << "operands must be " << name << " tensors";
    return diag << ", got " << tensor.getElementType();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Identity
//===----------------------------------------------------------------------===//

FailureOr<Type> relay::inferIdentity(ErrorSite site, Type data) {
  FailureOr<RankedTensorType> tensor = tensorType(site, data, "data");
  if (failed(tensor))
    return failure();
  return Type(*tensor);
}

FailureOr<Type> relay::inferIdentityBool(ErrorSite site, Type data) {
  FailureOr<RankedTensorType> tensor = tensorType(site, data, "data");
  if (failed(tensor))
    return failure();
  return Type(tensor->clone(IntegerType::get(data.getContext(), 1)));
}

FailureOr<Type> relay::inferAxisIdentity(ErrorSite site, Type data,
                                         int64_t axis) {
  FailureOr<RankedTensorType> tensor = tensorType(site, data, "data");
  if (failed(tensor) || failed(normalizeAxis(site, axis, tensor->getRank())))
    return failure();
  return Type(*tensor);
}

/// numpy broadcasting of two shapes, aligned at the right; `?` broadcasts
/// against 1 as `?` and against a static n > 1 as n.
static FailureOr<SmallVector<int64_t>>
broadcastShapes(ErrorSite site, ArrayRef<int64_t> lhs, ArrayRef<int64_t> rhs) {
  size_t rank = std::max(lhs.size(), rhs.size());
  SmallVector<int64_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t a = i < rank - lhs.size() ? 1 : lhs[i - (rank - lhs.size())];
    int64_t b = i < rank - rhs.size() ? 1 : rhs[i - (rank - rhs.size())];
    if (a == 1)
      out[i] = b;
    else if (b == 1)
      out[i] = a;
    else if (isAny(a))
      out[i] = b;
    else if (isAny(b) || a == b)
      out[i] = a;
    else
      return site.emitError()
             << "operands are not broadcastable: dim " << i << " of the result "
             << "would need " << a << " = " << b;
  }
  return out;
}

/// The broadcast shape of `lhs` and `rhs`, which share a dtype.
static FailureOr<RankedTensorType> broadcastOperands(ErrorSite site, Type lhs,
                                                     Type rhs) {
  FailureOr<RankedTensorType> l = tensorType(site, lhs, "lhs");
  FailureOr<RankedTensorType> r = tensorType(site, rhs, "rhs");
  if (failed(l) || failed(r))
    return failure();
  if (l->getElementType() != r->getElementType())
    return site.emitError()
           << "operand dtypes differ: lhs is " << l->getElementType()
           << ", rhs is " << r->getElementType();
  FailureOr<SmallVector<int64_t>> shape =
      broadcastShapes(site, l->getShape(), r->getShape());
  if (failed(shape))
    return failure();
  return RankedTensorType::get(*shape, l->getElementType());
}

FailureOr<Type> relay::inferBroadcast(ErrorSite site, Type lhs, Type rhs) {
  FailureOr<RankedTensorType> result = broadcastOperands(site, lhs, rhs);
  if (failed(result))
    return failure();
  return Type(*result);
}

FailureOr<Type> relay::inferBroadcastBool(ErrorSite site, Type lhs, Type rhs) {
  FailureOr<RankedTensorType> result = broadcastOperands(site, lhs, rhs);
  if (failed(result))
    return failure();
  return Type(result->clone(IntegerType::get(lhs.getContext(), 1)));
}

FailureOr<Type> relay::inferWhere(ErrorSite site, Type condition, Type x,
                                  Type y) {
  FailureOr<RankedTensorType> c = tensorType(site, condition, "condition");
  FailureOr<RankedTensorType> xt = tensorType(site, x, "x");
  FailureOr<RankedTensorType> yt = tensorType(site, y, "y");
  if (failed(c) || failed(xt) || failed(yt))
    return failure();
  if (xt->getElementType() != yt->getElementType())
    return site.emitError()
           << "x and y dtypes differ: x is " << xt->getElementType()
           << ", y is " << yt->getElementType();
  FailureOr<SmallVector<int64_t>> xy =
      broadcastShapes(site, xt->getShape(), yt->getShape());
  if (failed(xy))
    return failure();
  FailureOr<SmallVector<int64_t>> shape =
      broadcastShapes(site, c->getShape(), *xy);
  if (failed(shape))
    return failure();
  return Type(RankedTensorType::get(*shape, xt->getElementType()));
}

//===----------------------------------------------------------------------===//
// Cast
//===----------------------------------------------------------------------===//

FailureOr<Type> relay::inferCast(ErrorSite site, Type data, Type dtype) {
  FailureOr<RankedTensorType> tensor = tensorType(site, data, "data");
  if (failed(tensor))
    return failure();
  if (!isa<IntegerType, FloatType>(dtype))
    return site.emitError()
           << "dtype must be an integer, float or bool element type, got "
           << dtype;
  return Type(tensor->clone(dtype));
}

FailureOr<Type> relay::inferReinterpret(ErrorSite site, Type data, Type dtype) {
  // cast's rule (a tensor, an integer/float/bool dtype), then the bit widths
  FailureOr<Type> result = inferCast(site, data, dtype);
  if (failed(result))
    return failure();
  auto tensor = cast<RankedTensorType>(data);
  // The bits are read in place: a width change would change the shape.
  if (!tensor.getElementType().isIntOrFloat())
    return site.emitError()
           << "data must hold integers or floats, got " << tensor;
  unsigned from = tensor.getElementType().getIntOrFloatBitWidth();
  if (dtype.getIntOrFloatBitWidth() != from)
    return site.emitError()
           << "dtype " << dtype << " has " << dtype.getIntOrFloatBitWidth()
           << " bits, data dtype " << tensor.getElementType() << " " << from;
  return result;
}

FailureOr<Type> relay::inferCastLike(ErrorSite site, Type data,
                                     Type dtypeLike) {
  FailureOr<RankedTensorType> tensor = tensorType(site, data, "data");
  FailureOr<RankedTensorType> like = tensorType(site, dtypeLike, "dtype_like");
  if (failed(tensor) || failed(like))
    return failure();
  return Type(tensor->clone(like->getElementType()));
}
