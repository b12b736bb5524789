//===- RelationUtils.h - helpers shared by the typing rules ---------------===//
//
// Typing rules receive operand types and typed attribute values and report
// broken rules at an ErrorSite (relay/RelayRelations.h).
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_LIB_RELATIONS_RELATIONUTILS_H
#define RELAY_LIB_RELATIONS_RELATIONUTILS_H

#include "relay/RelayOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include <optional>

namespace mlir::relay::rel {

/// The most dims a rule builds a result with (shapes are built dim by dim:
/// a rank taken from an attribute or a shape tensor's length could
/// otherwise exhaust the memory).
constexpr int64_t kMaxRank = 64;

constexpr int64_t kAny = ShapedType::kDynamic;

inline bool isAny(int64_t dim) { return ShapedType::isDynamic(dim); }

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

/// `type` as a 0-d tensor named `what`.
FailureOr<RankedTensorType> scalarTensor(ErrorSite site, Type type,
                                         StringRef what);

/// The `dtype` attribute (a scalar element type), or `fallback` (which may
/// be null) if absent.
FailureOr<Type> dtypeOr(ErrorSite site, std::optional<Type> dtype,
                        Type fallback);

/// Normalises a possibly negative `axis` for a tensor of rank `rank`, or
/// reports that it is out of range.
FailureOr<int64_t> normalizeAxis(ErrorSite site, int64_t axis, int64_t rank,
                                 StringRef what = "axis");

/// Two dims that must agree: the static one wins over `?`; a conflict
/// between static dims fails.
FailureOr<int64_t> unifyDim(int64_t a, int64_t b);

/// Writes a dim (`?` for Any) to a diagnostic.
std::string dimStr(int64_t dim);

/// Product of two dims; `?` if either is `?`.
int64_t mulDims(int64_t a, int64_t b);

/// Product of two dims (`?` if either is `?`), or an error at `site` saying
/// that `what` overflows int64: for dims scaled by attributes (tile reps,
/// repeats, block sizes), which may be anything.
FailureOr<int64_t> mulDims(ErrorSite site, int64_t a, int64_t b,
                           StringRef what);

/// Product of dims; `?` if any is `?`.
int64_t productOfDims(ArrayRef<int64_t> dims);

/// Writes a shape as `[a, b, ?]` to a diagnostic.
std::string shapeStr(ArrayRef<int64_t> dims);

} // namespace mlir::relay::rel

#endif // RELAY_LIB_RELATIONS_RELATIONUTILS_H
