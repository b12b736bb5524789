//===- RelayDtypeTraits.td - operand dtype classes ---------*- tablegen -*-===//
//
// Which element types an operator's tensor operands may have; checked by
// the shared type relations (see RelayDtypeTraits.h).
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_DTYPETRAITS_TD
#define RELAY_DTYPETRAITS_TD

include "mlir/IR/OpBase.td"

class Relay_DtypeTrait<string name> : NativeOpTrait<name> {
  let cppNamespace = "::mlir::relay::OpTrait";
}

def Relay_FloatOperands : Relay_DtypeTrait<"FloatOperands">;
def Relay_IntegerOperands : Relay_DtypeTrait<"IntegerOperands">;
def Relay_IntegerOrBoolOperands : Relay_DtypeTrait<"IntegerOrBoolOperands">;
def Relay_BoolOperands : Relay_DtypeTrait<"BoolOperands">;
def Relay_NumericOperands : Relay_DtypeTrait<"NumericOperands">;

#endif // RELAY_DTYPETRAITS_TD
