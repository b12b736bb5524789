//===- IREEListOps.h - minimal builders for IREE util/hal ops ---*- C++ -*-===//
//
// Our MLIR build has no IREE dialects, so the few IREE ops that
// relay-eliminate-recursion emits are built as unregistered ops in IREE's
// generic form (iree-compile parses it), with OpaqueType for `!util.list<?>`
// and `!hal.buffer_view`. Contexts must allow unregistered dialects.
//
// These builders are deliberately minimal and self-contained so they can be
// merged with the shared IREE op builders of the ADT lowering
// (lib/Conversion/RelayToLinalg/IREEOps.{h,cpp}) later.
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_TRANSFORMS_IREELISTOPS_H
#define RELAY_TRANSFORMS_IREELISTOPS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::relay::iree_ops {

/// `!util.list<?>`: a list of variants (scalars, refs, other lists).
Type getListType(MLIRContext *ctx);
/// `!hal.buffer_view`: a boxed tensor.
Type getBufferViewType(MLIRContext *ctx);
bool isListType(Type type);

/// `util.list.create %capacity : !util.list<?>`.
Value createList(OpBuilder &b, Location loc, Value capacity);
/// `util.list.size %list : !util.list<?>` (index).
Value listSize(OpBuilder &b, Location loc, Value list);
/// `util.list.resize %list, %size : !util.list<?>`.
void listResize(OpBuilder &b, Location loc, Value list, Value size);
/// `util.list.get %list[%index] : !util.list<?> -> type`.
Value listGet(OpBuilder &b, Location loc, Value list, Value index, Type type);
/// `util.list.set %list[%index], %value : type -> !util.list<?>`.
void listSet(OpBuilder &b, Location loc, Value list, Value index, Value value);
/// `util.null : type` (a null ref, e.g. an unused `!util.list<?>`).
Value createNull(OpBuilder &b, Location loc, Type type);

/// `hal.tensor.export %tensor : tensor<...>{dynamic dims} -> !hal.buffer_view`.
Value exportTensor(OpBuilder &b, Location loc, Value tensor);
/// `hal.tensor.import %view : !hal.buffer_view -> type{dims}`, the dynamic
/// dims read back with `hal.buffer_view.dim`.
Value importTensor(OpBuilder &b, Location loc, Value view,
                   RankedTensorType type);

} // namespace mlir::relay::iree_ops

#endif // RELAY_TRANSFORMS_IREELISTOPS_H
