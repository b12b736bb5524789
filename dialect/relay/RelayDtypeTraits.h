//===- RelayDtypeTraits.h - operand dtype classes of relay ops ------------===//
//
// Marker traits stating which element types an operator accepts for its
// tensor operands, as in Relay (e.g. `sin` on floats, `bitwise_and` on
// integers or bools, `logical_and` on bools). Their `verifyTrait` checks
// the operands (`verifyOperandDtypes`), so one typing rule per shape rule
// serves every dtype rule. An op without such a trait accepts any Relay
// dtype (every operator's verifier rejects other element types, see
// verifyInferredResultTypes). ODS: RelayDtypeTraits.td (docs/ops.md lists
// them per op).
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_RELAYDTYPETRAITS_H
#define RELAY_RELAYDTYPETRAITS_H

#include "mlir/IR/OpDefinition.h"

namespace mlir::relay {

enum class DtypeClass { Any, Float, Integer, IntegerOrBool, Bool, Numeric };

/// Checks that every tensor operand of `op` has an element type of `cls`
/// (operands not typed yet are skipped).
LogicalResult verifyOperandDtypes(Operation *op, DtypeClass cls);

namespace OpTrait {
#define RELAY_DTYPE_TRAIT(NAME, CLASS)                                         \
  template <typename ConcreteType>                                             \
  class NAME : public ::mlir::OpTrait::TraitBase<ConcreteType, NAME> {         \
  public:                                                                      \
    static LogicalResult verifyTrait(Operation *op) {                          \
      return verifyOperandDtypes(op, DtypeClass::CLASS);                       \
    }                                                                          \
  };
/// Operands must be float tensors (f16, bf16, f32, f64).
RELAY_DTYPE_TRAIT(FloatOperands, Float)
/// Operands must be integer (signed or unsigned, not bool) tensors.
RELAY_DTYPE_TRAIT(IntegerOperands, Integer)
/// Operands must be integer or bool tensors.
RELAY_DTYPE_TRAIT(IntegerOrBoolOperands, IntegerOrBool)
/// Operands must be bool (i1) tensors.
RELAY_DTYPE_TRAIT(BoolOperands, Bool)
/// Operands must be float or integer tensors (not bool).
RELAY_DTYPE_TRAIT(NumericOperands, Numeric)
#undef RELAY_DTYPE_TRAIT
} // namespace OpTrait

/// The dtype class declared by `op`'s trait (Any without one).
DtypeClass operandDtypeClass(Operation *op);

/// True if `element` belongs to `cls`.
bool isOfDtypeClass(Type element, DtypeClass cls);

/// "float", "integer", "integer or bool", "bool", "float or integer".
StringRef dtypeClassName(DtypeClass cls);

} // namespace mlir::relay

#endif // RELAY_RELAYDTYPETRAITS_H
