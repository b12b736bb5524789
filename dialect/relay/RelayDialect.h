//===- RelayDialect.h - the relay dialect, its types and attributes -------===//
#ifndef RELAY_RELAYDIALECT_H
#define RELAY_RELAYDIALECT_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"

#include "relay/RelayDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "relay/RelayTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "relay/RelayAttrs.h.inc"

namespace mlir::relay {

/// True when `type` contains no `!relay.incomplete` anywhere inside it.
bool isComplete(Type type);

/// True when two types can describe the same value: equal, or tensors of
/// one dtype and rank whose dims agree wherever both are static; applied
/// structurally inside tuples, functions, refs and ADTs. Incomplete types
/// are compatible with everything.
bool areCompatible(Type a, Type b);

/// Element-wise `areCompatible` of two type lists of one length.
bool areCompatible(TypeRange a, TypeRange b);

/// The Relay function type of a `func.func`: its single result, or a tuple
/// of its results when there are none or several.
FuncType getRelayFnType(FunctionType type);

} // namespace mlir::relay

#endif // RELAY_RELAYDIALECT_H
