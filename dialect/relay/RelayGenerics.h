//===- RelayGenerics.h - type parameters, substitution, matching ----------===//
//
// Structural walks over relay types, and generic (polymorphic) functions:
// a `func.func` with `relay.type_params = ["A", "B"]` whose signature and
// body mention `!relay.tvar<"A">`. A use of one is an instance of its
// signature: the signature with one type substituted for each parameter
// (matchTypeParams checks and computes that substitution;
// substituteTypeParams applies one).
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_RELAYGENERICS_H
#define RELAY_RELAYGENERICS_H

#include "relay/RelayDialect.h"

namespace mlir::relay {

/// Rebuilds `type` bottom-up: `leaf` is asked first about every (sub)type;
/// when it returns a type, that replaces the subtree, otherwise the children
/// of tuples, functions (relay and builtin), refs and ADTs are transformed.
Type transformType(Type type, function_ref<Type(Type)> leaf);

/// Calls `fn` on `type` and on every type nested in it (builtin function
/// types included).
void walkType(Type type, function_ref<void(Type)> fn);

/// The attribute making a `func.func` generic: its type parameters.
constexpr StringLiteral kTypeParamsAttrName = "relay.type_params";

/// The type parameters of `fn` (an ArrayAttr of StringAttr), or null when
/// `fn` is not generic.
ArrayAttr getTypeParams(func::FuncOp fn);

/// Checks `fn`'s `relay.type_params`, if any: a non-empty array of
/// distinct non-empty names, covering every `!relay.tvar` of the signature.
/// Reports at `fn`.
LogicalResult verifyTypeParams(func::FuncOp fn);

/// `type` with every `!relay.tvar<P>` naming one of `params` replaced by the
/// matching entry of `args` (null entries leave the variable in place).
Type substituteTypeParams(Type type, ArrayAttr params, ArrayRef<Type> args);

/// Matches `instance` against `generic`, a type mentioning the type
/// variables `params`: succeeds when `instance` equals `generic` with each
/// parameter replaced by one type (up to `areCompatible`: `?` dims and
/// `!relay.incomplete` agree with anything). Returns that type per
/// parameter (the most precise one seen when it occurs several times; null
/// for a parameter `instance` does not determine).
FailureOr<SmallVector<Type>> matchTypeParams(Type generic, Type instance,
                                             ArrayAttr params);

/// The more precise of two compatible types (`areCompatible(a, b)`): holes
/// are filled and `?` dims take the static ones.
Type mergeCompatibleTypes(Type a, Type b);

/// Every `relay.call` of a `relay.global_fn @f` (non-generic) at @f's own
/// types becomes `func.call @f` (plus a relay.tuple packing several
/// results); function values no call needs any more are erased. Used by
/// relay-monomorphize and relay-gradient (whose `relay.grad` expansions
/// leave such calls).
void rewriteDirectCalls(ModuleOp module);

} // namespace mlir::relay

#endif // RELAY_RELAYGENERICS_H
