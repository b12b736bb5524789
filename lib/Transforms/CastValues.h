//===- CastValues.h - which casts keep every value ------------------------===//
//
// Shared by SimplifyExpr.cpp and SimplifyClip.cpp (defined in the latter).
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_TRANSFORMS_CASTVALUES_H
#define RELAY_TRANSFORMS_CASTVALUES_H

#include "mlir/IR/Types.h"

namespace mlir::relay {

/// Casting any value of dtype `from` to `to` keeps it exactly: integers to
/// integers that hold their range, integers to floats up to the float's
/// exact integers, floats to floats wider in exponent and mantissa. (TVM's
/// IsWidenCast also calls int -> uint of the same width and int32 ->
/// float32 widening: they change -1 and 2^24 + 1.)
bool castKeepsEveryValue(Type from, Type to);

} // namespace mlir::relay

#endif // RELAY_TRANSFORMS_CASTVALUES_H
