//===- RelayLayoutTraits.td - how ops commute with transposes -*- tablegen -*-===//
//
// Marker traits saying how an operator's shape rule treats dims, read by
// relay-convert-layout to move layout transposes across ops (see
// RelayLayoutTraits.h).
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_LAYOUTTRAITS_TD
#define RELAY_LAYOUTTRAITS_TD

include "mlir/IR/OpBase.td"

class Relay_LayoutTrait<string name> : NativeOpTrait<name> {
  let cppNamespace = "::mlir::relay::OpTrait";
}

// One operand; result element i depends on operand element i only.
def Relay_ElementwiseUnary : Relay_LayoutTrait<"ElementwiseUnary">;
// numpy-broadcasting elementwise op of two operands.
def Relay_ElementwiseBroadcast : Relay_LayoutTrait<"ElementwiseBroadcast">;
// A reduction (axis/keepdims/exclude) whose result does not depend on the
// order of the dims it reduces.
def Relay_OrderFreeReduction : Relay_LayoutTrait<"OrderFreeReduction">;

// The op's `axis` (or `axes`) attribute names dims of its first operand, and
// its result keeps that operand's dims in order: permuting the operand
// permutes the result once the axes are remapped (softmax, bias_add,
// batch_norm, reverse, ...).
def Relay_AxisOfData : Relay_LayoutTrait<"AxisOfData">;

#endif // RELAY_LAYOUTTRAITS_TD
