//===- RelayLayoutTraits.h - how ops commute with transposes --------------===//
//
// Marker traits (ODS: RelayLayoutTraits.td) read by relay-convert-layout: an
// op with one of them computes the same values, permuted, when its operands
// are permuted, so a layout transpose can move across it.
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_RELAYLAYOUTTRAITS_H
#define RELAY_RELAYLAYOUTTRAITS_H

#include "mlir/IR/OpDefinition.h"

namespace mlir::relay::OpTrait {
/// One operand; result element i depends on operand element i only.
template <typename ConcreteType>
class ElementwiseUnary
    : public ::mlir::OpTrait::TraitBase<ConcreteType, ElementwiseUnary> {};
/// A numpy-broadcasting elementwise op of two operands.
template <typename ConcreteType>
class ElementwiseBroadcast
    : public ::mlir::OpTrait::TraitBase<ConcreteType, ElementwiseBroadcast> {};
/// A reduction whose result does not depend on the order of reduced dims.
template <typename ConcreteType>
class OrderFreeReduction
    : public ::mlir::OpTrait::TraitBase<ConcreteType, OrderFreeReduction> {};
/// `axis`/`axes` name dims of the first operand, whose dim order the result
/// keeps.
template <typename ConcreteType>
class AxisOfData : public ::mlir::OpTrait::TraitBase<ConcreteType, AxisOfData> {
};
} // namespace mlir::relay::OpTrait

#endif // RELAY_RELAYLAYOUTTRAITS_H
