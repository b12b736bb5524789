//===- IREEOps.h - IREE input ops built in generic form ---------*- C++ -*-===//
//
// Builders of the few IREE input ops the language lowering needs (run-time
// lists, tensor boxing, a run-time failure). Our MLIR build does not contain
// IREE's util/hal dialects, so they are created as unregistered ops in
// generic form (iree-compile parses that form into its registered ops) with
// `OpaqueType`s for `!util.list<?>` and `!hal.buffer_view`. The context must
// allow unregistered dialects (`relay-mlir-opt --allow-unregistered-dialect`;
// Python contexts do, see python/relay_mlir/_context.py).
//
// The forms were read off `iree-opt --mlir-print-op-generic` (IREE 3.13):
//   %l = "util.list.create"(%cap) : (index) -> !util.list<?>
//   "util.list.resize"(%l, %n) : (!util.list<?>, index) -> ()
//   %n = "util.list.size"(%l) : (!util.list<?>) -> index
//   %v = "util.list.get"(%l, %i) : (!util.list<?>, index) -> T
//   "util.list.set"(%l, %i, %v) : (!util.list<?>, index, T) -> ()
//   %b = "hal.tensor.export"(%t, %dyn...) {source_encoding = tensor<...>}
//   %d = "hal.buffer_view.dim"(%b) {index = N : index}
//   %t = "hal.tensor.import"(%b, %dyn...) {operandSegmentSizes =
//          array<i32: 1, #dyn, 0, 0>, target_encoding = tensor<...>}
//   "util.status.check_ok"(%status) {message = "..."} : (i32) -> ()
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_LIB_CONVERSION_RELAYTOLINALG_IREEOPS_H
#define RELAY_LIB_CONVERSION_RELAYTOLINALG_IREEOPS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::relay::iree {

/// The unregistered op `name` in generic form, with `regions` empty regions
/// (the forms above, and the custom dispatches of relay-vnni-matmul).
Operation *createGeneric(OpBuilder &b, Location loc, StringRef name,
                         ValueRange operands, TypeRange results,
                         ArrayRef<NamedAttribute> attrs = {},
                         unsigned regions = 0);

/// `!util.list<?>`: a run-time list of variants (i32/i64/f32 scalars,
/// lists, buffer views).
Type getListType(MLIRContext *ctx);
/// `!hal.buffer_view`: a boxed tensor (a list cannot hold a tensor).
Type getBufferViewType(MLIRContext *ctx);
bool isListType(Type type);
bool isBufferViewType(Type type);

/// A new empty list with room for `capacity` slots (it grows with
/// `resizeList`).
Value createEmptyList(OpBuilder &b, Location loc, Value capacity);
/// A null reference of `type` (e.g. an unused `!util.list<?>` slot value).
Value createNull(OpBuilder &b, Location loc, Type type);
/// A new list of `size` slots (created with that capacity and resized to
/// it; the slots are then set with `setListItem`).
Value createList(OpBuilder &b, Location loc, Value size);
Value createList(OpBuilder &b, Location loc, int64_t size);
/// The number of slots of `list` (an index).
Value getListSize(OpBuilder &b, Location loc, Value list);
/// Grows or shrinks `list` to `size` slots.
void resizeList(OpBuilder &b, Location loc, Value list, Value size);
/// Slot `index` of `list` read as `type` (i32/i64/f32, a list or a buffer
/// view); a slot holding something else is a run-time error.
Value getListItem(OpBuilder &b, Location loc, Value list, Value index,
                  Type type);
Value getListItem(OpBuilder &b, Location loc, Value list, int64_t index,
                  Type type);
/// Stores `value` into slot `index` of `list` (which must exist).
void setListItem(OpBuilder &b, Location loc, Value list, Value index,
                 Value value);
void setListItem(OpBuilder &b, Location loc, Value list, int64_t index,
                 Value value);

/// `tensor` (a signless ranked tensor, any `?` dims) as a buffer view.
Value boxTensor(OpBuilder &b, Location loc, Value tensor);
/// `tensor` as a buffer view behind a `util.optimization_barrier` (never the
/// view an imported tensor came from: IREE folds an export of an import);
/// its `?` sizes are read before the barrier (IREE cannot resolve them
/// through it).
Value boxTensorBehindBarrier(OpBuilder &b, Location loc, Value tensor);
/// The tensor of type `type` (signless, ranked) in buffer view `view`; its
/// `?` sizes are read from the view.
Value unboxTensor(OpBuilder &b, Location loc, Value view,
                  RankedTensorType type);

/// `tensor` as a value IREE cannot identify with `tensor` (boxed behind a
/// barrier, the view behind another, unboxed): unlike a barrier's result,
/// whose `?` sizes
/// IREE cannot resolve ("'tensor.dim' op unexpected during shape cleanup"),
/// its sizes are read from the view.
Value reboxTensor(OpBuilder &b, Location loc, Value tensor);

/// `util.optimization_barrier` of `value`: IREE materializes it and fuses
/// nothing across it.
Value optimizationBarrier(OpBuilder &b, Location loc, Value value);

/// The offset `value` as an index IREE does not fold into the dispatches
/// using it (a constant behind a barrier; the constant itself without
/// IREE's ops, outside relay.compile): dispatches that differ only in such
/// offsets are one executable, compiled once.
OpFoldResult runTimeOffset(OpBuilder &b, Location loc, int64_t value);

/// Whether IREE's ops (built unregistered) can be made in `ctx`; if not, an
/// error at `loc` says that `pass` needs --allow-unregistered-dialect to
/// `what` (instead of the abort creating an unregistered op would be).
bool canBuildOps(MLIRContext *ctx, Location loc, StringRef pass,
                 StringRef what);

/// Aborts the invocation at run time with `message` (a failing
/// util.status.check_ok: the caller sees FAILED_PRECONDITION and the
/// message). Code after it is never reached but must still be valid IR.
void emitRuntimeFailure(OpBuilder &b, Location loc, StringRef message);

/// A value of `type` for a slot that is never read: zeros (a tensor with
/// dynamic dims: an empty one), a null IREE ref; failure for other types.
FailureOr<Value> placeholder(OpBuilder &b, Location loc, Type type);

//===----------------------------------------------------------------------===//
// Relay values in list slots (the layout of docs/design.md, "ADT values and
// references"): a tensor is boxed as a buffer view, an ADT value or a
// reference is its list, a tuple a list of its boxed fields.
//===----------------------------------------------------------------------===//

/// The run-time type of a list slot holding a value of relay type `type`.
Type boxedTypeOf(Type relayType);
/// One slot value for a value of relay type `relayType` whose converted
/// values (`tc`: tuples flattened 1:N) are `leaves`; fails on types that
/// cannot be boxed (function values).
FailureOr<Value> boxValue(OpBuilder &b, Location loc, const TypeConverter &tc,
                          Type relayType, ValueRange leaves);
/// The converted values of a value of relay type `relayType` boxed in
/// `boxed` (the inverse of boxValue), appended to `leaves`.
LogicalResult unboxValue(OpBuilder &b, Location loc, const TypeConverter &tc,
                         Type relayType, Value boxed,
                         SmallVectorImpl<Value> &leaves);

} // namespace mlir::relay::iree

#endif // RELAY_LIB_CONVERSION_RELAYTOLINALG_IREEOPS_H
