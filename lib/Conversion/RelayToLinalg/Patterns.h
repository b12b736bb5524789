//===- Patterns.h - private to convert-relay-to-linalg --------------------===//
//
// The per-family pattern sets and the helpers they share. Tensors keep their
// shape; integer dtypes become signless (signedness is read from the relay
// op's own types); tuples are flattened 1:N into their tensor leaves.
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_LIB_CONVERSION_RELAYTOLINALG_PATTERNS_H
#define RELAY_LIB_CONVERSION_RELAYTOLINALG_PATTERNS_H

#include "relay/RelayOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"
#include <functional>

namespace mlir::relay::lowering {

/// tensors → signless tensors, tuple<...> → its flattened leaves, anything
/// else unchanged.
class RelayTypeConverter : public TypeConverter {
public:
  RelayTypeConverter();
};

void populateElementwisePatterns(const TypeConverter &tc,
                                 RewritePatternSet &patterns);
void populateNNPatterns(const TypeConverter &tc, RewritePatternSet &patterns);
void populateReducePatterns(const TypeConverter &tc,
                            RewritePatternSet &patterns);
void populateIndexPatterns(const TypeConverter &tc,
                           RewritePatternSet &patterns);
void populateSortPatterns(const TypeConverter &tc,
                          RewritePatternSet &patterns);
void populateImagePatterns(const TypeConverter &tc,
                           RewritePatternSet &patterns);
void populateTransformPatterns(const TypeConverter &tc,
                               RewritePatternSet &patterns);
void populateLanguagePatterns(const TypeConverter &tc,
                              RewritePatternSet &patterns);

/// True for an elementwise operator with no integer form (exp, log, ...).
bool requiresFloat(Operation *op);

/// Reports what the lowering cannot handle (closures, references, ADTs,
/// `grad`, types left to infer, ...) as located errors; failure if any.
LogicalResult checkLowerable(ModuleOp module);

//===----------------------------------------------------------------------===//
// Shared helpers (Utils.cpp)
//===----------------------------------------------------------------------===//

/// The element type of `t` (a tensor) or `t` itself.
Type elementTypeOf(Type t);

/// True for an unsigned integer element type (or i1) in relay's types.
bool isUnsignedInt(Type relayElementType);

/// `type` converted to a signless ranked tensor type.
RankedTensorType signlessTensorType(RankedTensorType type);

/// One scalar constant of `type` (float or integer); integers are
/// truncated from `value`.
Value scalarConst(OpBuilder &b, Location loc, Type type, double value);

/// `x` (of relay element type `from`, signless in `x`) converted to the
/// signless form of relay element type `toRelay` with Relay's rules: to
/// bool is `x != 0`, float to integer truncates toward zero, bool is
/// unsigned. Meant for linalg bodies: on a scalar outside any linalg op
/// IREE's VM would round float -> int casts to nearest.
Value castScalar(OpBuilder &b, Location loc, Value x, Type from,
                 Type toRelay);

/// The most negative value of `type` (-inf for floats, 0 for unsigned).
Value lowestConst(OpBuilder &b, Location loc, Type type, bool isUnsigned);

/// Sizes of `value`'s dims as index values (constants where static).
SmallVector<OpFoldResult> dimSizes(OpBuilder &b, Location loc, Value value);

/// The `?` dims of `type` taken from `sizes` (as tensor.empty wants them).
SmallVector<Value> dynamicOf(OpBuilder &b, Location loc,
                             RankedTensorType type,
                             ArrayRef<OpFoldResult> sizes);

/// tensor.empty of `type` whose `?` dims come from `sizes`.
Value emptyTensor(OpBuilder &b, Location loc, RankedTensorType type,
                  ArrayRef<OpFoldResult> sizes);

/// tensor.empty of `type` filled with `value`.
Value filledTensor(OpBuilder &b, Location loc, RankedTensorType type,
                   ArrayRef<OpFoldResult> sizes, Value value);

/// A parallel linalg.generic over the iteration space of `resultType`
/// (whose `?` sizes are `sizes`) reading `inputs` through `inputMaps`
/// (the output map is the identity); `body` computes the result scalar
/// from the input scalars.
using ScalarBody =
    std::function<Value(OpBuilder &, Location, ValueRange /*scalars*/)>;
Value buildMap(OpBuilder &b, Location loc, RankedTensorType resultType,
               ArrayRef<OpFoldResult> sizes, ValueRange inputs,
               ArrayRef<AffineMap> inputMaps, const ScalarBody &body);

/// numpy broadcasting of `inputs` to `resultType` with a linalg.generic
/// (no materialised broadcasts: size-1 dims read index 0). A `?` dim is
/// assumed not to broadcast at run time.
Value buildBroadcastMap(OpBuilder &b, Location loc, RankedTensorType resultType,
                        ValueRange inputs, const ScalarBody &body);

/// Sum of `input` over `dims` (sorted) with linalg.reduce; the result drops
/// those dims.
Value buildSum(OpBuilder &b, Location loc, Value input,
               ArrayRef<int64_t> dims);

/// Number of elements in `dims` of `input`, as an index value.
Value countOf(OpBuilder &b, Location loc, Value input, ArrayRef<int64_t> dims);

/// `index` converted to a scalar of element type `type` (float or int).
Value indexToScalar(OpBuilder &b, Location loc, Value index, Type type,
                    bool isUnsigned);

/// Divides every element of `input` by the scalar `divisor`.
Value divideByScalar(OpBuilder &b, Location loc, Value input, Value divisor,
                     bool isUnsigned);

/// tensor.expand_shape of `input` into `resultType` (`?` output sizes
/// `sizes`), regrouping with `reassociation`.
Value expandTo(OpBuilder &b, Location loc, Value input,
               RankedTensorType resultType,
               ArrayRef<ReassociationIndices> reassociation,
               ArrayRef<OpFoldResult> sizes);

/// Reassociation that inserts unit dims at `unitDims` of a rank
/// `resultRank` shape (each unit dim joins a neighbouring group).
SmallVector<ReassociationIndices>
unitDimReassociation(int64_t resultRank, ArrayRef<int64_t> unitDims);

/// Normalises a possibly negative axis.
inline int64_t normAxis(int64_t axis, int64_t rank) {
  return axis < 0 ? axis + rank : axis;
}

} // namespace mlir::relay::lowering

#endif // RELAY_LIB_CONVERSION_RELAYTOLINALG_PATTERNS_H
