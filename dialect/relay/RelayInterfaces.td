//===- RelayInterfaces.td - type relations -----------------*- tablegen -*-===//
#ifndef RELAY_INTERFACES_TD
#define RELAY_INTERFACES_TD

include "mlir/IR/OpBase.td"

def Relay_TypeRelationInterface : OpInterface<"TypeRelationOpInterface"> {
  let cppNamespace = "::mlir::relay";
  let description = [{
    Relay types every operator by a *type relation*: a function from the
    operand types and the op's attributes to its result types. The same
    relation is run by the verifier (the declared result types must agree
    with it) and by `relay-infer-type` (which writes its results into the
    IR). Relations are shared by whole families of ops (Broadcast,
    Identity, Reduce, Conv2D, ...) and live in `lib/Relations/`.

    A relation is only asked once every operand type is complete (contains
    no `!relay.incomplete`). On a broken rule it emits an error naming the
    operand and the rule, and fails.
  }];
  let methods = [
    InterfaceMethod<
      "Computes the result types from `operandTypes` and the attributes.",
      "::llvm::LogicalResult", "inferRelayTypes",
      (ins "::mlir::TypeRange":$operandTypes,
           "::llvm::SmallVectorImpl<::mlir::Type> &":$resultTypes)>,
    InterfaceMethod<"The name of the relation typing this op.",
      "::llvm::StringRef", "getRelationName", (ins)>,
  ];
  let verify = [{ return ::mlir::relay::verifyTypeRelation($_op); }];
}

#endif // RELAY_INTERFACES_TD
