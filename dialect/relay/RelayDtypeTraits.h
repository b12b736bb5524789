//===- RelayDtypeTraits.h - operand dtype classes of relay ops ------------===//
//
// Marker traits stating which element types an operator accepts for its
// tensor operands, as in Relay (e.g. `sin` on floats, `bitwise_and` on
// integers or bools, `logical_and` on bools). The shared type relations
// (lib/Relations/) read them through `operandDtypeClass` and reject other
// dtypes, so one relation per shape rule serves every dtype rule. An op
// without such a trait accepts any element type. ODS: RelayDtypeTraits.td.
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_RELAYDTYPETRAITS_H
#define RELAY_RELAYDTYPETRAITS_H

#include "mlir/IR/OpDefinition.h"

namespace mlir::relay {

namespace OpTrait {
/// Operands must be float tensors (f16, bf16, f32, f64).
template <typename ConcreteType>
class FloatOperands
    : public ::mlir::OpTrait::TraitBase<ConcreteType, FloatOperands> {};
/// Operands must be integer (signed or unsigned, not bool) tensors.
template <typename ConcreteType>
class IntegerOperands
    : public ::mlir::OpTrait::TraitBase<ConcreteType, IntegerOperands> {};
/// Operands must be integer or bool tensors.
template <typename ConcreteType>
class IntegerOrBoolOperands
    : public ::mlir::OpTrait::TraitBase<ConcreteType, IntegerOrBoolOperands> {
};
/// Operands must be bool (i1) tensors.
template <typename ConcreteType>
class BoolOperands
    : public ::mlir::OpTrait::TraitBase<ConcreteType, BoolOperands> {};
/// Operands must be float or integer tensors (not bool).
template <typename ConcreteType>
class NumericOperands
    : public ::mlir::OpTrait::TraitBase<ConcreteType, NumericOperands> {};
} // namespace OpTrait

enum class DtypeClass { Any, Float, Integer, IntegerOrBool, Bool, Numeric };

/// The dtype class declared by `op`'s trait (Any without one).
DtypeClass operandDtypeClass(Operation *op);

/// True if `element` belongs to `cls`.
bool isOfDtypeClass(Type element, DtypeClass cls);

/// "float", "integer", "integer or bool", "bool", "float or integer".
StringRef dtypeClassName(DtypeClass cls);

} // namespace mlir::relay

#endif // RELAY_RELAYDTYPETRAITS_H
