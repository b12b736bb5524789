//===- RelayRelations.h - Relay's typing rules ----------------------------===//
//
// A typing rule (Relay's "type relation") maps operand types and typed
// attribute values to the result type of an operator, or reports the rule
// that is broken at an `ErrorSite`. Rules are plain functions, named
// `infer<Rule>` after the op (or the family of ops) they type; the generated
// `inferReturnTypes` of every operator forwards to one of them (see
// `Relay_Operator` in RelayOpBase.td), so the verifier, `relay-infer-type`
// and the type-inferring builders (`AddOp::create(b, loc, x, y)`) all run the
// same code. Definitions live in lib/Relations/<family>.cpp.
//
// Rules are only called with complete operand types (no
// `!relay.incomplete` inside); an op with an incomplete operand infers an
// incomplete result.
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_RELAYRELATIONS_H
#define RELAY_RELAYRELATIONS_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/TypeRange.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace mlir::relay {

/// A broken typing rule being reported: stream the message into it, return
/// it as a failure. Reports when it goes out of scope, if there is a location
/// to report at (otherwise it only carries the failure).
class RuleError {
public:
  explicit RuleError(std::optional<InFlightDiagnostic> diag)
      : diag(std::move(diag)) {}

  template <typename T>
  RuleError &operator<<(T &&arg) {
    if (diag)
      *diag << std::forward<T>(arg);
    return *this;
  }

  operator LogicalResult() const { return failure(); }
  template <typename T>
  operator FailureOr<T>() const {
    return failure();
  }

private:
  std::optional<InFlightDiagnostic> diag;
};

/// Where a typing rule reports a broken rule: the op's location (none when
/// a caller only asks whether types can be inferred, e.g. a rewrite probing
/// whether a new op would be valid) and its name, so messages read like
/// `emitOpError`'s: "'relay.nn.conv2d' op operand 'weight' must have rank 4".
class ErrorSite {
public:
  ErrorSite(std::optional<Location> loc, StringRef opName)
      : loc(loc), opName(opName) {}
  /// The site of an existing op.
  ErrorSite(Operation *op)
      : loc(op->getLoc()), opName(op->getName().getStringRef()) {}
  template <typename OpT, typename = std::enable_if_t<
                              std::is_base_of_v<OpState, OpT>>>
  ErrorSite(OpT op) : ErrorSite(op.getOperation()) {}

  /// An error at the site (silent without a location).
  RuleError emitError() const {
    if (!loc)
      return RuleError(std::nullopt);
    InFlightDiagnostic diag = mlir::emitError(*loc);
    diag << "'" << opName << "' op ";
    return RuleError(std::move(diag));
  }

  std::optional<Location> getLoc() const { return loc; }
  StringRef getOpName() const { return opName; }

private:
  std::optional<Location> loc;
  StringRef opName;
};

/// True if some type in `types` is or contains `!relay.incomplete`.
bool anyIncomplete(TypeRange types);

/// Appends the result of a single-result rule; failure if it failed.
LogicalResult addResult(SmallVectorImpl<Type> &results,
                        FailureOr<Type> result);

/// The shared verifier of every relay operator: its typing rule must accept
/// the operands, and the declared result types must be compatible with the
/// inferred ones (equal up to `?` dims and `!relay.incomplete`).
LogicalResult verifyInferredResultTypes(Operation *op);

//===----------------------------------------------------------------------===//
// Elementwise (lib/Relations/Elementwise.cpp)
//===----------------------------------------------------------------------===//

/// The result is the operand (unary elementwise ops).
FailureOr<Type> inferIdentity(ErrorSite site, Type data);
/// The operand's shape with a bool dtype (isnan, isinf, isfinite).
FailureOr<Type> inferIdentityBool(ErrorSite site, Type data);
/// The operand, after checking that `axis` is one of its dims.
FailureOr<Type> inferAxisIdentity(ErrorSite site, Type data, int64_t axis);
/// numpy broadcasting of two operands of one dtype.
FailureOr<Type> inferBroadcast(ErrorSite site, Type lhs, Type rhs);
/// Broadcasting with a bool result (comparisons).
FailureOr<Type> inferBroadcastBool(ErrorSite site, Type lhs, Type rhs);
/// Three-way broadcast of condition, x and y; x's dtype.
FailureOr<Type> inferWhere(ErrorSite site, Type condition, Type x, Type y);
/// `data`'s shape with dtype `dtype`.
FailureOr<Type> inferCast(ErrorSite site, Type data, Type dtype);
/// `data`'s shape with the dtype of `dtypeLike`.
FailureOr<Type> inferCastLike(ErrorSite site, Type data, Type dtypeLike);

//===----------------------------------------------------------------------===//
// Reductions (lib/Relations/Reduce.cpp)
//===----------------------------------------------------------------------===//

/// sum, mean, max, min, prod: `data`'s dtype.
FailureOr<Type> inferReduce(ErrorSite site, Type data,
                            std::optional<ArrayRef<int64_t>> axis,
                            bool keepdims, bool exclude);
/// all, any: `data` must be bool.
FailureOr<Type> inferLogicalReduce(ErrorSite site, Type data,
                                   std::optional<ArrayRef<int64_t>> axis,
                                   bool keepdims, bool exclude);
/// argmax, argmin: int32 indices; `data` must have rank >= 1.
FailureOr<Type> inferArgReduce(ErrorSite site, Type data,
                               std::optional<ArrayRef<int64_t>> axis,
                               bool keepdims, bool exclude);
/// variance(data, mean): `mean` has `data`'s rank and dtype.
FailureOr<Type> inferVariance(ErrorSite site, Type data, Type mean,
                              std::optional<ArrayRef<int64_t>> axis,
                              bool keepdims, bool exclude);

//===----------------------------------------------------------------------===//
// Language constructs (lib/Relations/Language.cpp, ADT.cpp). These accept
// partly known operands: an unknown part gives an unknown part of the result.
//===----------------------------------------------------------------------===//

class ConstructorOp;

/// tuple(fields...).
Type inferTuple(MLIRContext *ctx, TypeRange fields);
/// Field `index` of a tuple.
FailureOr<Type> inferTupleGetItem(ErrorSite site, Type tuple, int64_t index);
/// The result of applying a `!relay.fn` value to `args`.
FailureOr<Type> inferCall(ErrorSite site, Type callee, TypeRange args);
/// A reference to `value`.
Type inferRefNew(Type value);
/// The value a `!relay.ref` holds.
FailureOr<Type> inferRefRead(ErrorSite site, Type ref);
/// Writing `value` into `ref` gives `()`.
FailureOr<Type> inferRefWrite(ErrorSite site, Type ref, Type value);
/// fn(T...) -> R becomes fn(T...) -> (R, (T...)).
FailureOr<Type> inferGrad(ErrorSite site, Type fn);
/// The ADT type `ctor` builds from fields of types `fields` (type arguments
/// no field fixes are `!relay.incomplete`).
FailureOr<Type> inferConstruct(ErrorSite site, ConstructorOp ctor,
                               TypeRange fields);

} // namespace mlir::relay

//===----------------------------------------------------------------------===//
// Legacy relations over an Operation, being replaced family by family by the
// typed rules above.
//===----------------------------------------------------------------------===//
namespace mlir::relay::rel {

#define RELAY_RELATION(NAME)                                                   \
  LogicalResult NAME##Rel(Operation *op, TypeRange operands,                   \
                          SmallVectorImpl<Type> &results);
#include "relay/RelayRelations.def"
#undef RELAY_RELATION

} // namespace mlir::relay::rel

#endif // RELAY_RELAYRELATIONS_H
