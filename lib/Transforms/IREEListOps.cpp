//===- IREEListOps.cpp - minimal builders for IREE util/hal ops -----------===//
//
// Generic forms checked against `iree-compile --compile-to=input
// --mlir-print-op-generic` (IREE 3.13).
//
//===----------------------------------------------------------------------===//
#include "IREEListOps.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OperationSupport.h"

using namespace mlir;

namespace mlir::relay::iree_ops {

namespace {
Operation *createGeneric(OpBuilder &b, Location loc, StringRef name,
                         ValueRange operands, TypeRange results,
                         ArrayRef<NamedAttribute> properties = {}) {
  OperationState state(loc, name);
  state.addOperands(operands);
  state.addTypes(results);
  if (!properties.empty())
    state.propertiesAttr = b.getDictionaryAttr(properties);
  return b.create(state);
}
} // namespace

Type getListType(MLIRContext *ctx) {
  return OpaqueType::get(StringAttr::get(ctx, "util"), "list<?>");
}

Type getBufferViewType(MLIRContext *ctx) {
  return OpaqueType::get(StringAttr::get(ctx, "hal"), "buffer_view");
}

bool isListType(Type type) { return type == getListType(type.getContext()); }

Value createList(OpBuilder &b, Location loc, Value capacity) {
  return createGeneric(b, loc, "util.list.create", capacity,
                       getListType(b.getContext()))
      ->getResult(0);
}

Value listSize(OpBuilder &b, Location loc, Value list) {
  return createGeneric(b, loc, "util.list.size", list, b.getIndexType())
      ->getResult(0);
}

void listResize(OpBuilder &b, Location loc, Value list, Value size) {
  createGeneric(b, loc, "util.list.resize", {list, size}, {});
}

Value listGet(OpBuilder &b, Location loc, Value list, Value index, Type type) {
  return createGeneric(b, loc, "util.list.get", {list, index}, type)
      ->getResult(0);
}

void listSet(OpBuilder &b, Location loc, Value list, Value index, Value value) {
  createGeneric(b, loc, "util.list.set", {list, index, value}, {});
}

Value createNull(OpBuilder &b, Location loc, Type type) {
  return createGeneric(b, loc, "util.null", {}, type)->getResult(0);
}

Value exportTensor(OpBuilder &b, Location loc, Value tensor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  SmallVector<Value> operands{tensor};
  for (int64_t i = 0, e = type.getRank(); i < e; ++i)
    if (type.isDynamicDim(i))
      operands.push_back(tensor::DimOp::create(b, loc, tensor, i));
  return createGeneric(b, loc, "hal.tensor.export", operands,
                       getBufferViewType(b.getContext()),
                       {b.getNamedAttr("source_encoding", TypeAttr::get(type))})
      ->getResult(0);
}

Value importTensor(OpBuilder &b, Location loc, Value view,
                   RankedTensorType type) {
  SmallVector<Value> operands{view};
  for (int64_t i = 0, e = type.getRank(); i < e; ++i)
    if (type.isDynamicDim(i))
      operands.push_back(
          createGeneric(b, loc, "hal.buffer_view.dim", view, b.getIndexType(),
                        {b.getNamedAttr("index", b.getIndexAttr(i))})
              ->getResult(0));
  // Operand segments: source, target dims, wait fence, ... (IREE 3.13).
  int32_t dims = operands.size() - 1;
  return createGeneric(b, loc, "hal.tensor.import", operands, type,
                       {b.getNamedAttr("operandSegmentSizes",
                                       b.getDenseI32ArrayAttr({1, dims, 0, 0})),
                        b.getNamedAttr("target_encoding", TypeAttr::get(type))})
      ->getResult(0);
}

} // namespace mlir::relay::iree_ops
