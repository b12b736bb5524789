//===- Elementwise.cpp - Identity, Broadcast and the other elementwise rules -//
//
// Shape rules: Identity (and IdentityBool: bool result), AxisIdentity,
// Broadcast (and BroadcastBool: bool result), Where (three-way broadcast),
// Cast and CastLike (shape of `data`, another dtype). The dtype rules are
// the op's dtype-class trait (RelayDtypeTraits.h), checked here.
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

/// The dtype rule of `op` (its dtype-class trait) for the element type
/// shared by its operands; `what` is "operand 'data'" (one operand) or
/// "operands".
static LogicalResult checkDtype(Operation *op, Type element, bool plural,
                                StringRef what) {
  DtypeClass cls = operandDtypeClass(op);
  if (isOfDtypeClass(element, cls))
    return success();
  StringRef name = dtypeClassName(cls);
  InFlightDiagnostic diag = op->emitOpError() << what << " must be ";
  if (plural)
    diag << name << " tensors";
  else
    diag << (name.front() == 'i' ? "an " : "a ") << name << " tensor";
  return diag << ", got " << element;
}

//===----------------------------------------------------------------------===//
// Identity
//===----------------------------------------------------------------------===//

/// The one tensor operand `data`, of an allowed dtype.
static FailureOr<RankedTensorType> unaryOperand(Operation *op,
                                                TypeRange operands) {
  FailureOr<RankedTensorType> data = tensorOperand(op, operands, 0, "data");
  if (failed(data) || failed(checkDtype(op, data->getElementType(),
                                        /*plural=*/false, "operand 'data'")))
    return failure();
  return data;
}

LogicalResult rel::IdentityRel(Operation *op, TypeRange operands,
                               SmallVectorImpl<Type> &results) {
  FailureOr<RankedTensorType> data = unaryOperand(op, operands);
  if (failed(data))
    return failure();
  results.push_back(*data);
  return success();
}

LogicalResult rel::IdentityBoolRel(Operation *op, TypeRange operands,
                                   SmallVectorImpl<Type> &results) {
  FailureOr<RankedTensorType> data = unaryOperand(op, operands);
  if (failed(data))
    return failure();
  results.push_back(data->clone(IntegerType::get(op->getContext(), 1)));
  return success();
}

LogicalResult rel::AxisIdentityRel(Operation *op, TypeRange operands,
                                   SmallVectorImpl<Type> &results) {
  FailureOr<RankedTensorType> data = tensorOperand(op, operands, 0, "data");
  if (failed(data) ||
      failed(normalizeAxis(op, *attrI64(op, "axis"), data->getRank())))
    return failure();
  results.push_back(*data);
  return success();
}

/// numpy broadcasting of two shapes, aligned at the right; `?` broadcasts
/// against 1 as `?` and against a static n > 1 as n.
static FailureOr<SmallVector<int64_t>>
broadcastShapes(Operation *op, ArrayRef<int64_t> lhs, ArrayRef<int64_t> rhs) {
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
      return op->emitOpError()
             << "operands are not broadcastable: dim " << i << " of the result "
             << "would need " << a << " = " << b;
  }
  return out;
}

/// The broadcast shape of `lhs` and `rhs`, which share a dtype allowed by
/// the op's dtype class.
static FailureOr<RankedTensorType> broadcastOperands(Operation *op,
                                                     TypeRange operands) {
  FailureOr<RankedTensorType> lhs = tensorOperand(op, operands, 0, "lhs");
  FailureOr<RankedTensorType> rhs = tensorOperand(op, operands, 1, "rhs");
  if (failed(lhs) || failed(rhs))
    return failure();
  if (lhs->getElementType() != rhs->getElementType())
    return op->emitOpError() << "operand dtypes differ: lhs is "
                             << lhs->getElementType() << ", rhs is "
                             << rhs->getElementType();
  if (failed(checkDtype(op, lhs->getElementType(), /*plural=*/true,
                        "operands")))
    return failure();
  FailureOr<SmallVector<int64_t>> shape =
      broadcastShapes(op, lhs->getShape(), rhs->getShape());
  if (failed(shape))
    return failure();
  return RankedTensorType::get(*shape, lhs->getElementType());
}

LogicalResult rel::BroadcastRel(Operation *op, TypeRange operands,
                                SmallVectorImpl<Type> &results) {
  FailureOr<RankedTensorType> result = broadcastOperands(op, operands);
  if (failed(result))
    return failure();
  results.push_back(*result);
  return success();
}

LogicalResult rel::BroadcastBoolRel(Operation *op, TypeRange operands,
                                    SmallVectorImpl<Type> &results) {
  FailureOr<RankedTensorType> result = broadcastOperands(op, operands);
  if (failed(result))
    return failure();
  results.push_back(result->clone(IntegerType::get(op->getContext(), 1)));
  return success();
}

LogicalResult rel::WhereRel(Operation *op, TypeRange operands,
                            SmallVectorImpl<Type> &results) {
  FailureOr<RankedTensorType> cond =
      tensorOperand(op, operands, 0, "condition");
  FailureOr<RankedTensorType> x = tensorOperand(op, operands, 1, "x");
  FailureOr<RankedTensorType> y = tensorOperand(op, operands, 2, "y");
  if (failed(cond) || failed(x) || failed(y))
    return failure();
  if (x->getElementType() != y->getElementType())
    return op->emitOpError() << "x and y dtypes differ: x is "
                             << x->getElementType() << ", y is "
                             << y->getElementType();
  FailureOr<SmallVector<int64_t>> xy =
      broadcastShapes(op, x->getShape(), y->getShape());
  if (failed(xy))
    return failure();
  FailureOr<SmallVector<int64_t>> shape =
      broadcastShapes(op, cond->getShape(), *xy);
  if (failed(shape))
    return failure();
  results.push_back(RankedTensorType::get(*shape, x->getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// Cast
//===----------------------------------------------------------------------===//

LogicalResult rel::CastRel(Operation *op, TypeRange operands,
                           SmallVectorImpl<Type> &results) {
  FailureOr<RankedTensorType> data = tensorOperand(op, operands, 0, "data");
  if (failed(data))
    return failure();
  std::optional<Type> dtype = attrType(op, "dtype");
  if (!dtype)
    return op->emitOpError() << "requires attribute 'dtype'";
  if (!isa<IntegerType, FloatType>(*dtype))
    return op->emitOpError()
           << "dtype must be an integer, float or bool element type, got "
           << *dtype;
  results.push_back(data->clone(*dtype));
  return success();
}

LogicalResult rel::CastLikeRel(Operation *op, TypeRange operands,
                               SmallVectorImpl<Type> &results) {
  FailureOr<RankedTensorType> data = tensorOperand(op, operands, 0, "data");
  FailureOr<RankedTensorType> like =
      tensorOperand(op, operands, 1, "dtype_like");
  if (failed(data) || failed(like))
    return failure();
  results.push_back(data->clone(like->getElementType()));
  return success();
}
