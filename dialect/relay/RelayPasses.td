//===- RelayPasses.td - relay passes -----------------------*- tablegen -*-===//
#ifndef RELAY_PASSES_TD
#define RELAY_PASSES_TD

include "mlir/Pass/PassBase.td"

def RelayInferType : Pass<"relay-infer-type", "::mlir::ModuleOp"> {
  let summary = "Hindley-Milner type inference with Relay's type relations";
  let description = [{
    Replaces every `!relay.incomplete` in the module (function signatures,
    op results, closure parameters) by the type the program forces on it.
    Unification covers calls (direct, closure and recursive), `if`, `match`,
    tuples, references and ADTs; operator result types come from their type
    relations, run as soon as their operand types are known. A type left
    unknown, or a relation that fails, is a located error.

    ```mlir
    func.func @main(%x: tensor<1x4xf32>) -> !relay.incomplete {
      %y = relay.nn.relu %x : (tensor<1x4xf32>) -> !relay.incomplete
      return %y : !relay.incomplete
    }
    // becomes: func.func @main(%x: tensor<1x4xf32>) -> tensor<1x4xf32> ...
    ```
  }];
}

def ConvertRelayToLinalg : Pass<"convert-relay-to-linalg", "::mlir::ModuleOp"> {
  let summary = "Lowers relay operators to linalg/tensor/arith/math/scf/func";
  let description = [{
    One pattern set per op family (elementwise, nn, reductions, transforms,
    language). Requires fully inferred types. `relay.if` becomes `scf.if`;
    tuples are flattened at function boundaries. Closures, references and
    ADTs are reported as "not supported yet".

    ```mlir
    %y = relay.nn.relu %x : (tensor<4xf32>) -> tensor<4xf32>
    // becomes a linalg.generic computing arith.maximumf(x, 0)
    ```
  }];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect",
    "::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect", "::mlir::func::FuncDialect",
  ];
}

#endif // RELAY_PASSES_TD
