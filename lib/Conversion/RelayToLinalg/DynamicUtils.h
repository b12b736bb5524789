//===- DynamicUtils.h - run-time shape values in the lowering ---*- C++ -*-===//
//
// Helpers of the dyn.* lowerings (Dynamic.cpp, DynamicOps.cpp): reading
// entries of shape operands as index values, checking requested shapes at
// run time (cf.assert with the op's source location), and reshaping to
// sizes known only at run time.
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_LIB_CONVERSION_RELAYTOLINALG_DYNAMICUTILS_H
#define RELAY_LIB_CONVERSION_RELAYTOLINALG_DYNAMICUTILS_H

#include "Utils.h"

namespace mlir::relay::lowering {

Value indexConst(OpBuilder &b, Location loc, int64_t v);

Value cmp(OpBuilder &b, Location loc, arith::CmpIPredicate pred, Value x,
          Value y);

/// Entry `i` of the 1-d integer tensor `shape`, as an index.
Value shapeEntry(OpBuilder &b, Location loc, Value shape, int64_t i);

/// All entries of a shape operand of static length `n`.
SmallVector<OpFoldResult> shapeEntries(OpBuilder &b, Location loc, Value shape,
                                       int64_t n);

/// The element of a one-element integer tensor (0-d or 1-d), as an index.
Value onlyEntry(OpBuilder &b, Location loc, Value v);

/// The product of `sizes`.
Value product(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> sizes);

/// The sizes of a result of type `type` from the run-time `sizes`: a static
/// dim of the type is used as a constant, after checking at run time that
/// the entry holds it; dynamic dims keep the run-time value.
SmallVector<OpFoldResult> checkedSizes(OpBuilder &b, Location loc,
                                       RankedTensorType type,
                                       ArrayRef<OpFoldResult> sizes,
                                       StringRef opName);

/// Run-time checks of a requested shape: no entry is negative and the
/// element count stays at most 2^40.
void checkRequestedShape(OpBuilder &b, Location loc,
                         ArrayRef<OpFoldResult> sizes, StringRef opName);

/// A run-time check that `ok` holds: "<opName>: <what> [at <source>]".
void runtimeCheck(OpBuilder &b, Location loc, Value ok, StringRef opName,
                  StringRef what);

/// A run-time check that dim `i` of `x` and dim `j` of `y` are equal
/// ("<opName>: <what>"), unless both are static (the typing rule checked
/// them) or their product forms agree (SymbolicSizes.h).
void checkSameSize(OpBuilder &b, Location loc, Value x, int64_t i, Value y,
                   int64_t j, StringRef opName, StringRef what);

/// `size == 1` (an i1), after a run-time check that `size` is 1 or
/// `target` ("<opName>: <what>"): a `?` size that may broadcast.
Value checkOneOrSame(OpBuilder &b, Location loc, Value size, Value target,
                     StringRef opName, const Twine &what);

/// Inside a linalg body over a result of shape `outShape`: the element of
/// `v` (aligned to the result's trailing dims) that broadcasts to this
/// point. Dim i of `v` is read at index 0 where `isOne[i]` (an i1 from
/// checkOneOrSame, or null) holds at run time or where it is a static 1
/// the result's dim is not, else at the result's index.
Value extractBroadcast(OpBuilder &b, Location loc, Value v,
                       ArrayRef<Value> isOne, ArrayRef<int64_t> outShape);

/// `data` with the same elements in the row-major order, as `resultType`
/// whose sizes are `sizes` (the element counts must agree: checked by the
/// caller).
Value reshapeToSizes(OpBuilder &b, Location loc, Value data,
                     RankedTensorType resultType, ArrayRef<OpFoldResult> sizes);

} // namespace mlir::relay::lowering

#endif // RELAY_LIB_CONVERSION_RELAYTOLINALG_DYNAMICUTILS_H
