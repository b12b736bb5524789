//===- RelayDialect.td - the relay dialect -----------------*- tablegen -*-===//
//
// Relay: a functional, statically typed, differentiable deep-learning IR
// (Roesch et al., "Relay: A High-Level Compiler for Deep Learning"), as an
// MLIR dialect.
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_DIALECT_TD
#define RELAY_DIALECT_TD

include "mlir/IR/OpBase.td"

def Relay_Dialect : Dialect {
  let name = "relay";
  let cppNamespace = "::mlir::relay";
  let summary = "Relay: a functional, differentiable tensor IR";
  let description = [{
    The `relay` dialect carries the Relay language of TVM: tensor operators
    named as in Relay (`nn.conv2d` is `relay.nn.conv2d`), each typed by a
    type relation, and the functional core (closures, tuples, `if`,
    references, algebraic data types with `match`, and `grad`).

    Tensor types are builtin ranked tensors; a `?` dimension is Relay's
    `Any`. Types not yet known are `!relay.incomplete` and are resolved by
    the `relay-infer-type` pass.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::tensor::TensorDialect"];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let extraClassDeclaration = [{
    void registerTypes();
    void registerAttributes();
  }];
}

#endif // RELAY_DIALECT_TD
