//===- SymbolicSizes.h - sizes as products of run-time dims -----*- C++ -*-===//
//
// Shape reasoning for reshapes whose sizes are known only at run time. A
// size is read as a product `factor * d1 * d2 * ...`, where each `di` is a
// run-time value named by its origin (a dim of a function argument, a value
// the program computed): `tensor.dim` is followed back through the ops
// that only carry sizes along (tensor.empty, the inits of linalg ops, casts,
// expand/collapse_shape), and `muli`, exact `divsi`/`divui` and products in
// `affine.apply` are multiplied out. Two sizes with the same product are
// equal at run time, whatever the values; so a reshape whose source and
// result dims can be cut into runs with equal products is one
// collapse_shape and/or expand_shape, never a trip through 1-D (e.g.
// [B, 2, S, 64] -> [B * 2, S, 64] -> [B, 2, S, 64] around a batch_matmul).
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_LIB_CONVERSION_RELAYTOLINALG_SYMBOLICSIZES_H
#define RELAY_LIB_CONVERSION_RELAYTOLINALG_SYMBOLICSIZES_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"

#include <optional>

namespace mlir::relay::lowering {

/// `factor` times the product of `dims` (a sorted multiset of run-time
/// values, each a (tensor, dim) pair or an index value with dim -1).
struct SymbolicSize {
  int64_t factor = 1;
  SmallVector<std::pair<Value, int64_t>> dims;

  bool operator==(const SymbolicSize &o) const {
    return factor == o.factor && dims == o.dims;
  }
};

/// The product form of a size, if it has one (nothing for a zero factor or
/// an overflowing one).
std::optional<SymbolicSize> symbolicSize(OpFoldResult size);

/// The product form of dim `i` of `tensor`.
std::optional<SymbolicSize> symbolicDim(Value tensor, int64_t i);

/// Whether dim `i` of `x` and dim `j` of `y` are equal at run time whatever
/// the inputs: static and equal, the same product form, or proven by MLIR's
/// value-bounds analysis (the size arithmetic of arith, affine, tensor and
/// linalg ops, e.g. a convolution's output size against its input's).
bool provablyEqualDims(Value x, int64_t i, Value y, int64_t j);

/// Whether dim `i` of `x` is `c` at run time whatever the inputs.
bool provablyDimIs(Value x, int64_t i, int64_t c);

/// `data` as `dstType` (result sizes `sizes`) by collapse_shape and/or
/// expand_shape when the source and result dims cut into consecutive runs
/// whose sizes have equal products; nothing otherwise.
std::optional<Value> symbolicRegroup(OpBuilder &b, Location loc, Value data,
                                     RankedTensorType dstType,
                                     ArrayRef<OpFoldResult> sizes);

} // namespace mlir::relay::lowering

#endif // RELAY_LIB_CONVERSION_RELAYTOLINALG_SYMBOLICSIZES_H
