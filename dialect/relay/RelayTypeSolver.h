//===- RelayTypeSolver.h - unification over relay types -------*- C++ -*-===//
//
// The substitution the language's type equations are solved with
// (RelayTypeEquations.h): by an op's verifier for that op alone, by
// `relay-infer-type` for a whole module: a union-find over type
// variables (`!relay.incomplete<N>`, N >= 1), each class optionally bound to
// a type that may itself mention variables. Only variables are ever bound;
// concrete types are never rewritten (as in Relay, where only
// IncompleteTypes are solved). Unifying two concrete tensor types checks
// dtype, rank and dims (`?` agrees with anything) and yields the merged
// type, in which a static dim wins over `?`; that merged type is what a
// variable bound to either ends up with.
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_RELAYTYPESOLVER_H
#define RELAY_RELAYTYPESOLVER_H

#include "relay/RelayDialect.h"
#include "relay/RelayGenerics.h"

#include "mlir/IR/Diagnostics.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::relay {

/// True when `type` mentions `!relay.incomplete` (builtin function types
/// included, unlike isComplete).
bool hasHole(Type type);

/// `type` with every `!relay.incomplete` hole replaced by `fn(hole)`.
Type mapHoles(Type type, function_ref<Type(IncompleteType)> fn);

class TypeSolver {
public:
  explicit TypeSolver(MLIRContext *ctx);

  /// A new unbound variable.
  IncompleteType fresh();

  /// Replaces every `!relay.incomplete` in `type` by a variable: `<0>` (the
  /// unnumbered hole) always by a fresh one; a numbered hole by the variable
  /// `named` maps its number to (created on first sight) when `named` is
  /// given, else by a fresh one.
  Type instantiate(Type type, llvm::DenseMap<unsigned, Type> *named = nullptr);

  /// The type with every bound variable replaced, recursively, by its
  /// binding; unbound variables become their class representative.
  Type resolve(Type type);

  /// Makes `a` and `b` equal, binding variables as needed. On failure
  /// `clash()` describes the innermost conflict.
  LogicalResult unify(Type a, Type b);

  struct Clash {
    Type lhs, rhs;       // the innermost types that disagree
    bool occurs = false; // lhs is a variable occurring in rhs
  };
  const Clash &clash() const { return lastClash; }

  /// Explains the last failed `unify(a, b)` into `diag`: `what` (the
  /// equation that failed), both types as far as they are solved, and the
  /// innermost conflict when it is not the whole.
  void explainClash(Diagnostic &diag, Type a, Type b, const Twine &what);

  /// The class representative of variable `id`.
  unsigned find(unsigned id);

private:
  FailureOr<Type> unifyImpl(Type a, Type b);
  FailureOr<Type> unifyVar(unsigned root, Type other);
  bool occurs(unsigned root, Type type);
  Type var(unsigned id);
  FailureOr<Type> fail(Type a, Type b, bool occursCheck = false);

  MLIRContext *ctx;
  llvm::SmallVector<unsigned> parent; // indexed by variable id; 0 unused
  llvm::SmallVector<Type> binding;    // meaningful for representatives
  Clash lastClash;
};

} // namespace mlir::relay

#endif // RELAY_RELAYTYPESOLVER_H
