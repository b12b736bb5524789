//===- RelayTypeEquations.h - typing rules of the language -----*- C++ -*-===//
//
// The language constructs (tuple, call, ref_new/ref_read/ref_write, if, fn,
// global_fn, closure, construct, match) are typed by equations between
// types, stated once per op by TypeEquationsOpInterface::buildTypeEquations
// (lib/Relations/Language.cpp, ADT.cpp). The same equations
//   - verify the op: solved for that op alone, its `!relay.incomplete` parts
//     as unknowns (checkTypeEquations);
//   - type a module: relay-infer-type states them into its whole-module
//     unification;
//   - give the typed builders of tuple, call and the ref ops their result
//     type (inferResultByEquations).
// Operator-like rules that need their operands' types to compute anything
// (tuple_get_item, grad, every tensor operator) are InferTypeOpInterface
// functions instead (RelayRelations.h).
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_RELAYTYPEEQUATIONS_H
#define RELAY_RELAYTYPEEQUATIONS_H

#include "relay/RelayTypeSolver.h"

#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::func {
class FuncOp;
} // namespace mlir::func

namespace mlir::relay {

/// Where the equations of one op go. `what` arguments name the equation in
/// the error reported when it cannot hold.
class TypeEquations {
public:
  virtual ~TypeEquations() = default;

  /// The type of `value` as the equations see it (its holes are unknowns).
  virtual Type typeOf(Value value) = 0;
  /// A declared type (a signature's, a constructor field's) as the
  /// equations see it: its holes are unknowns.
  virtual Type instantiate(Type declared) = 0;
  /// A new unknown.
  virtual Type fresh() = 0;
  /// States `a == b` (`?` dims agree with any dim).
  virtual LogicalResult equal(Type a, Type b, const Twine &what) = 0;
  /// States that `use` is an instance of the signature of `callee` (as a
  /// `!relay.fn`): the signature itself, or for a generic function the
  /// signature with an unknown per type parameter.
  virtual LogicalResult instance(Type use, func::FuncOp callee,
                                 const Twine &what) = 0;
  /// The symbol `name` refers to, or null (the caller reports).
  virtual Operation *lookup(SymbolRefAttr name) = 0;
  /// Reports an error that is not a mismatch (a missing symbol, an arity)
  /// at the op being typed.
  virtual InFlightDiagnostic emitError() = 0;

  /// typeOf of each value.
  SmallVector<Type> typesOf(ValueRange values);
  /// The type `region`'s `relay.yield` yields, or null when the region does
  /// not end with one yet (its verifier reports that).
  Type yieldType(Region &region);
};

/// Solves `op`'s equations (TypeEquationsOpInterface) for `op` alone;
/// reports the first that cannot hold at `op`. `symbols` serves lookups
/// (from verifySymbolUses); without it they go through the nearest symbol
/// table.
LogicalResult checkTypeEquations(Operation *op,
                                 SymbolTableCollection *symbols = nullptr);

/// For typed builders: the type `result` stands for once `rule` (stating
/// equations about `result`, an unknown) holds; parts the equations leave
/// unknown are `!relay.incomplete`. Errors are reported at `loc`.
FailureOr<Type>
inferResultByEquations(MLIRContext *ctx, std::optional<Location> loc,
                       function_ref<LogicalResult(TypeEquations &, Type)> rule);

} // namespace mlir::relay

#include "relay/RelayTypeEquations.h.inc"

#endif // RELAY_RELAYTYPEEQUATIONS_H
