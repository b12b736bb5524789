//===- IREEOps.cpp - IREE input ops built in generic form -----------------===//
#include "IREEOps.h"
#include "relay/RelayOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Operation.h"

using namespace mlir;
using namespace mlir::relay;
using iree::createGeneric;

/// Absl status code FAILED_PRECONDITION: the program reached a state its
/// types do not rule out but its semantics forbid (no match clause applies).
static constexpr int32_t kFailedPrecondition = 9;

static Type opaque(MLIRContext *ctx, StringRef dialect, StringRef data) {
  return OpaqueType::get(StringAttr::get(ctx, dialect), data);
}

Type iree::getListType(MLIRContext *ctx) {
  return opaque(ctx, "util", "list<?>");
}

Type iree::getBufferViewType(MLIRContext *ctx) {
  return opaque(ctx, "hal", "buffer_view");
}

bool iree::isListType(Type type) {
  return type == getListType(type.getContext());
}

bool iree::isBufferViewType(Type type) {
  return type == getBufferViewType(type.getContext());
}

Operation *iree::createGeneric(OpBuilder &b, Location loc, StringRef name,
                               ValueRange operands, TypeRange results,
                               ArrayRef<NamedAttribute> attrs,
                               unsigned regions) {
  OperationState state(loc, name);
  state.addOperands(operands);
  state.addTypes(results);
  state.addAttributes(attrs);
  for (unsigned i = 0; i < regions; ++i)
    state.addRegion();
  return b.create(state);
}

Value iree::optimizationBarrier(OpBuilder &b, Location loc, Value value) {
  return createGeneric(b, loc, "util.optimization_barrier", value,
                       value.getType())
      ->getResult(0);
}

static Value indexConst(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

OpFoldResult iree::runTimeOffset(OpBuilder &b, Location loc, int64_t value) {
  if (!b.getContext()->allowsUnregisteredDialects())
    return b.getIndexAttr(value);
  return optimizationBarrier(b, loc, indexConst(b, loc, value));
}

Value iree::createEmptyList(OpBuilder &b, Location loc, Value capacity) {
  return createGeneric(b, loc, "util.list.create", capacity,
                       getListType(b.getContext()))
      ->getResult(0);
}

Value iree::createNull(OpBuilder &b, Location loc, Type type) {
  return createGeneric(b, loc, "util.null", {}, type)->getResult(0);
}

Value iree::createList(OpBuilder &b, Location loc, Value size) {
  Value list = createEmptyList(b, loc, size);
  resizeList(b, loc, list, size);
  return list;
}

Value iree::createList(OpBuilder &b, Location loc, int64_t size) {
  return createList(b, loc, indexConst(b, loc, size));
}

Value iree::getListSize(OpBuilder &b, Location loc, Value list) {
  return createGeneric(b, loc, "util.list.size", list, b.getIndexType())
      ->getResult(0);
}

void iree::resizeList(OpBuilder &b, Location loc, Value list, Value size) {
  createGeneric(b, loc, "util.list.resize", {list, size}, {});
}

Value iree::getListItem(OpBuilder &b, Location loc, Value list, Value index,
                        Type type) {
  return createGeneric(b, loc, "util.list.get", {list, index}, type)
      ->getResult(0);
}

Value iree::getListItem(OpBuilder &b, Location loc, Value list, int64_t index,
                        Type type) {
  return getListItem(b, loc, list, indexConst(b, loc, index), type);
}

void iree::setListItem(OpBuilder &b, Location loc, Value list, Value index,
                       Value value) {
  createGeneric(b, loc, "util.list.set", {list, index, value}, {});
}

void iree::setListItem(OpBuilder &b, Location loc, Value list, int64_t index,
                       Value value) {
  setListItem(b, loc, list, indexConst(b, loc, index), value);
}

/// hal.tensor.export of `exported`, whose `?` sizes are those of `sized`.
static Value exportTensor(OpBuilder &b, Location loc, Value exported,
                          Value sized) {
  auto type = cast<RankedTensorType>(exported.getType());
  SmallVector<Value> operands = {exported};
  for (int64_t i = 0; i < type.getRank(); ++i)
    if (type.isDynamicDim(i))
      operands.push_back(tensor::DimOp::create(b, loc, sized, i));
  return createGeneric(b, loc, "hal.tensor.export", operands,
                       iree::getBufferViewType(b.getContext()),
                       {b.getNamedAttr("source_encoding", TypeAttr::get(type))})
      ->getResult(0);
}

Value iree::boxTensor(OpBuilder &b, Location loc, Value tensor) {
  return exportTensor(b, loc, tensor, tensor);
}

Value iree::boxTensorBehindBarrier(OpBuilder &b, Location loc, Value tensor) {
  return exportTensor(b, loc, optimizationBarrier(b, loc, tensor), tensor);
}

Value iree::reboxTensor(OpBuilder &b, Location loc, Value tensor) {
  // barriers on both sides of the export: IREE folds an export of an
  // imported tensor to the view it came from, and an import of an export
  // to the exported tensor
  Value view =
      optimizationBarrier(b, loc, boxTensorBehindBarrier(b, loc, tensor));
  return unboxTensor(b, loc, view, cast<RankedTensorType>(tensor.getType()));
}

Value iree::unboxTensor(OpBuilder &b, Location loc, Value view,
                        RankedTensorType type) {
  SmallVector<Value> operands = {view};
  for (int64_t i = 0; i < type.getRank(); ++i)
    if (type.isDynamicDim(i))
      operands.push_back(
          createGeneric(b, loc, "hal.buffer_view.dim", view, b.getIndexType(),
                        {b.getNamedAttr("index", b.getIndexAttr(i))})
              ->getResult(0));
  int32_t dynamic = static_cast<int32_t>(operands.size()) - 1;
  return createGeneric(
             b, loc, "hal.tensor.import", operands, type,
             {b.getNamedAttr("operandSegmentSizes",
                             b.getDenseI32ArrayAttr({1, dynamic, 0, 0})),
              b.getNamedAttr("target_encoding", TypeAttr::get(type))})
      ->getResult(0);
}

bool iree::canBuildOps(MLIRContext *ctx, Location loc, StringRef pass,
                       StringRef what) {
  if (ctx->allowsUnregisteredDialects())
    return true;
  emitError(loc) << pass << " " << what
                 << " with IREE ops (util, hal), which needs "
                    "--allow-unregistered-dialect";
  return false;
}

void iree::emitRuntimeFailure(OpBuilder &b, Location loc, StringRef message) {
  Value status = arith::ConstantIntOp::create(b, loc, kFailedPrecondition, 32);
  createGeneric(b, loc, "util.status.check_ok", status, {},
                {b.getNamedAttr("message", b.getStringAttr(message))});
}

FailureOr<Value> iree::placeholder(OpBuilder &b, Location loc, Type type) {
  if (auto tensorType = dyn_cast<RankedTensorType>(type)) {
    if (tensorType.hasStaticShape())
      if (auto zero = dyn_cast_or_null<TypedAttr>(
              b.getZeroAttr(tensorType.getElementType())))
        return arith::ConstantOp::create(
                   b, loc, DenseElementsAttr::get(tensorType, zero))
            .getResult();
    Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
    SmallVector<Value> dims(tensorType.getNumDynamicDims(), c0);
    return tensor::EmptyOp::create(b, loc, tensorType.getShape(),
                                   tensorType.getElementType(), dims,
                                   tensorType.getEncoding())
        .getResult();
  }
  if (type.isIntOrIndexOrFloat())
    return arith::ConstantOp::create(b, loc,
                                     cast<TypedAttr>(b.getZeroAttr(type)))
        .getResult();
  if (isa<OpaqueType>(type))
    return iree::createNull(b, loc, type);
  return failure();
}

//===----------------------------------------------------------------------===//
// Relay values in list slots
//===----------------------------------------------------------------------===//

Type iree::boxedTypeOf(Type type) {
  MLIRContext *ctx = type.getContext();
  if (isa<RankedTensorType>(type))
    return iree::getBufferViewType(ctx);
  return iree::getListType(ctx);
}

FailureOr<Value> iree::boxValue(OpBuilder &b, Location loc,
                                const TypeConverter &tc, Type type,
                                ValueRange leaves) {
  if (isa<RankedTensorType>(type) && leaves.size() == 1)
    return iree::boxTensor(b, loc, leaves.front());
  if (isa<ADTType, RefType>(type) && leaves.size() == 1)
    return leaves.front();
  auto tuple = dyn_cast<TupleType>(type);
  if (!tuple)
    return failure();
  Value list = iree::createList(b, loc, tuple.size());
  size_t begin = 0;
  for (auto [i, field] : llvm::enumerate(tuple.getTypes())) {
    SmallVector<Type> fieldTypes;
    if (failed(tc.convertType(field, fieldTypes)) ||
        begin + fieldTypes.size() > leaves.size())
      return failure();
    FailureOr<Value> boxed =
        boxValue(b, loc, tc, field, leaves.slice(begin, fieldTypes.size()));
    if (failed(boxed))
      return failure();
    iree::setListItem(b, loc, list, i, *boxed);
    begin += fieldTypes.size();
  }
  return list;
}

LogicalResult iree::unboxValue(OpBuilder &b, Location loc,
                               const TypeConverter &tc, Type type, Value boxed,
                               SmallVectorImpl<Value> &leaves) {
  if (isa<RankedTensorType>(type)) {
    auto converted = dyn_cast_or_null<RankedTensorType>(tc.convertType(type));
    if (!converted)
      return failure();
    leaves.push_back(iree::unboxTensor(b, loc, boxed, converted));
    return success();
  }
  if (isa<ADTType, RefType>(type)) {
    leaves.push_back(boxed);
    return success();
  }
  auto tuple = dyn_cast<TupleType>(type);
  if (!tuple)
    return failure();
  for (auto [i, field] : llvm::enumerate(tuple.getTypes())) {
    Value item = iree::getListItem(b, loc, boxed, i, boxedTypeOf(field));
    if (failed(unboxValue(b, loc, tc, field, item, leaves)))
      return failure();
  }
  return success();
}
