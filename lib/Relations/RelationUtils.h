//===- RelationUtils.h - helpers shared by the typing rules ---------------===//
//
// Typing rules receive operand types and typed attribute values and report
// broken rules at an ErrorSite (relay/RelayRelations.h). The `attr*`
// readers below serve the legacy relations over an Operation only.
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_LIB_RELATIONS_RELATIONUTILS_H
#define RELAY_LIB_RELATIONS_RELATIONUTILS_H

#include "relay/RelayOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include <optional>

namespace mlir::relay::rel {

constexpr int64_t kAny = ShapedType::kDynamic;

inline bool isAny(int64_t dim) { return ShapedType::isDynamic(dim); }

inline std::optional<int64_t> attrI64(Operation *op, StringRef name) {
  if (auto attr = op->getAttrOfType<IntegerAttr>(name))
    return attr.getInt();
  return std::nullopt;
}

inline std::optional<ArrayRef<int64_t>> attrI64Array(Operation *op,
                                                     StringRef name) {
  if (auto attr = op->getAttrOfType<DenseI64ArrayAttr>(name))
    return attr.asArrayRef();
  return std::nullopt;
}

inline StringRef attrStr(Operation *op, StringRef name) {
  if (auto attr = op->getAttrOfType<StringAttr>(name))
    return attr.getValue();
  return {};
}

inline bool attrBool(Operation *op, StringRef name) {
  auto attr = op->getAttrOfType<BoolAttr>(name);
  return attr && attr.getValue();
}

inline std::optional<Type> attrType(Operation *op, StringRef name) {
  if (auto attr = op->getAttrOfType<TypeAttr>(name))
    return attr.getValue();
  return std::nullopt;
}

/// `type` as a ranked tensor, or an error naming the operand `what`.
FailureOr<RankedTensorType> tensorType(ErrorSite site, Type type,
                                       StringRef what);

/// `type` as a ranked tensor of rank `rank`.
FailureOr<RankedTensorType> tensorTypeOfRank(ErrorSite site, Type type,
                                             StringRef what, int64_t rank);

/// Checks an integer-list attribute `name`: exactly `size` entries, each
/// >= `minValue`.
LogicalResult checkArray(ErrorSite site, StringRef name,
                         ArrayRef<int64_t> values, size_t size,
                         int64_t minValue = 1);

/// The result element type: `outDtype` if set, else `fallback`. Fails if
/// `outDtype` is not a valid tensor element type.
FailureOr<Type> resultDtype(ErrorSite site, std::optional<Type> outDtype,
                            Type fallback);

/// Operand `index` as a ranked tensor, or an error naming it `what`.
FailureOr<RankedTensorType> tensorOperand(ErrorSite site, TypeRange operands,
                                          unsigned index, StringRef what);

/// Operand `index` as a ranked tensor of rank `rank`.
FailureOr<RankedTensorType> tensorOperandOfRank(ErrorSite site,
                                                TypeRange operands,
                                                unsigned index, StringRef what,
                                                int64_t rank);

/// Normalises a possibly negative `axis` for a tensor of rank `rank`, or
/// reports that it is out of range.
FailureOr<int64_t> normalizeAxis(ErrorSite site, int64_t axis, int64_t rank,
                                 StringRef what = "axis");

/// Checks the expected number of operands.
LogicalResult expectOperands(ErrorSite site, TypeRange operands, unsigned n);

/// Two dims that must agree: the static one wins over `?`; a conflict
/// between static dims fails.
FailureOr<int64_t> unifyDim(int64_t a, int64_t b);

/// Writes a dim (`?` for Any) to a diagnostic.
std::string dimStr(int64_t dim);

/// Product of two dims; `?` if either is `?`.
int64_t mulDims(int64_t a, int64_t b);

/// Product of dims; `?` if any is `?`.
int64_t productOfDims(ArrayRef<int64_t> dims);

/// Writes a shape as `[a, b, ?]` to a diagnostic.
std::string shapeStr(ArrayRef<int64_t> dims);

/// The integer-list attribute `name`, required to have exactly `size`
/// entries, each >= `minValue`. Fails with a diagnostic if it is absent.
FailureOr<ArrayRef<int64_t>> attrI64ArrayOfSize(Operation *op, StringRef name,
                                                size_t size,
                                                int64_t minValue = 1);

/// The result element type: the `out_dtype` attribute if set, else
/// `fallback`. Fails if `out_dtype` is not a valid tensor element type.
FailureOr<Type> outDtype(Operation *op, Type fallback);

/// Parses `layout` as a permutation of the letters of `canonical` (e.g.
/// "NHWC" for canonical "NCHW", "HWIO" for "OIHW"): element i of the result
/// is the position in `layout` of canonical letter i.
FailureOr<SmallVector<int64_t, 4>> parseLayout(ErrorSite site, StringRef layout,
                                               StringRef canonical,
                                               StringRef what);

/// Position of the channel, height and width dims of a 4-letter layout such
/// as NCHW or NHWC.
struct Layout2D {
  int64_t n, c, h, w;
};
FailureOr<Layout2D> parseLayout2D(ErrorSite site, StringRef layout,
                                  StringRef what);

} // namespace mlir::relay::rel

#endif // RELAY_LIB_RELATIONS_RELATIONUTILS_H
