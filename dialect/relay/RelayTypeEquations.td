//===- RelayTypeEquations.td - typing by equations ---------*- tablegen -*-===//
//
// The interface of the language ops typed by equations between types
// (relay/RelayTypeEquations.h).
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_TYPEEQUATIONS_TD
#define RELAY_TYPEEQUATIONS_TD

include "mlir/IR/OpBase.td"

def Relay_TypeEquationsOpInterface : OpInterface<"TypeEquationsOpInterface"> {
  let description = [{
    A language construct whose typing rule is a set of equations between
    types (its operands', results', block arguments', yielded values' and
    referenced symbols'). The verifier solves them for the op alone and
    relay-infer-type for the whole module: one rule for both.
  }];
  let cppNamespace = "::mlir::relay";
  let methods = [
    InterfaceMethod<
      "States the op's typing rule into `equations`.",
      "::llvm::LogicalResult", "buildTypeEquations",
      (ins "::mlir::relay::TypeEquations &":$equations)>,
  ];
}

#endif // RELAY_TYPEEQUATIONS_TD
