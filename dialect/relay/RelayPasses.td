//===- RelayPasses.td - relay passes -----------------------*- tablegen -*-===//
#ifndef RELAY_PASSES_TD
#define RELAY_PASSES_TD

include "mlir/Pass/PassBase.td"

def RelayInferType : Pass<"relay-infer-type", "::mlir::ModuleOp"> {
  let summary = "Hindley-Milner type inference with the ops' typing rules";
  let description = [{
    Replaces every `!relay.incomplete` in the module (function signatures,
    op results, closure parameters) by the type the program forces on it.
    Unification covers calls (direct, closure and recursive), `if`, `match`,
    tuples, references and ADTs; operator result types come from their
    typing rules (InferTypeOpInterface), run as soon as their operand types
    are known. A type left unknown, or a rule that fails, is a located error.

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

def RelayConvertLayout : Pass<"relay-convert-layout", "::mlir::ModuleOp"> {
  let summary = "Converts nn.conv2d to a desired data layout and sinks the "
                "layout transposes through the network (Relay's ConvertLayout)";
  let description = [{
    Rewrites every `nn.conv2d` with a constant weight (any weight with
    `constant-weights-only=false`) whose layouts differ from `desired-layout`
    (default `NHWC`, kernel `HWIO`; or `NCHW`, kernel `OIHW`) into one in the
    desired layouts, with `relay.transpose` of its data and weight before it
    and a `relay.transpose` back to the old layout after it. Transposes of
    constant weights fold at compile time.

    Then, by greedy rewriting, transposes are moved below the ops that can
    take their operand in the new layout, and cancel against the transposes
    in front of the next convolution:
      * unary elementwise ops (trait `ElementwiseUnary`);
      * broadcasting binary ops (`ElementwiseBroadcast`): the other operand
        is brought into the new layout too (lower-rank operands are first expanded to
        full rank, constants fold, a transposed operand loses its transpose);
      * ops whose `axis`/`axes` name dims of their data (`AxisOfData`:
        `nn.bias_add`, `nn.prelu`, `nn.batch_norm`, `nn.softmax`, ...),
        reductions (`OrderFreeReduction`) and `concatenate`: the axes are
        remapped;
      * `nn.max_pool2d`, `nn.avg_pool2d`, `nn.global_avg_pool2d`,
        `nn.global_max_pool2d`: the `layout` attribute changes;
      * `transpose(transpose(x))` composes, identity transposes vanish, a
        transpose that only moves size-1 dims becomes a `reshape`
        (reshapes of reshapes and of constants fold).
    Result types of every new op come from its typing rule (typed builders).
    A ResNet-style
    NCHW network becomes NHWC with one transpose at the input.

    ```mlir
    %y = relay.nn.conv2d %x, %w {padding = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
    %z = relay.nn.relu %y : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
    // becomes (%w a constant: its transpose folds into a new constant)
    %xt = relay.transpose %x {axes = array<i64: 0, 2, 3, 1>} : (tensor<1x3x8x8xf32>) -> tensor<1x8x8x3xf32>
    %c = relay.nn.conv2d %xt, %wt {data_layout = "NHWC", kernel_layout = "HWIO", ...} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x8x8x4xf32>
    %r = relay.nn.relu %c : (tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
    %z = relay.transpose %r {axes = array<i64: 0, 3, 1, 2>} : (tensor<1x8x8x4xf32>) -> tensor<1x4x8x8xf32>
    ```
  }];
  let options = [
    Option<"desiredLayout", "desired-layout", "std::string", "\"NHWC\"",
           "data layout of nn.conv2d after the pass: NHWC (kernel HWIO) or "
           "NCHW (kernel OIHW)">,
    Option<"constantWeightsOnly", "constant-weights-only", "bool", "true",
           "convert only convolutions whose weight is a constant (its "
           "transpose folds); a run-time weight would be transposed on "
           "every call">,
  ];
}

def RelayCheckNoRecursion : Pass<"relay-check-no-recursion", "::mlir::ModuleOp"> {
  let summary = "Refuses recursion (a cycle in the call graph of func.func)";
  let description = [{
    iree-compile (3.13) never returns on a module whose functions call each
    other in a cycle, so `relay-to-iree-input` ends with this check until
    recursion is eliminated. The call graph has one node per `func.func` and
    an edge for each symbol reference from a function's body (nested regions
    included) to a `func.func`: `func.call` callees and `relay.global_fn`
    (a function value may be called). The first cycle found is a located
    error at the call that closes it, with notes at the other calls:

    ```mlir
    func.func @f(%x: tensor<f32>) -> tensor<f32> {
      %y = func.call @g(%x) : (tensor<f32>) -> tensor<f32>
      return %y : tensor<f32>
    }
    func.func @g(%x: tensor<f32>) -> tensor<f32> {
      // error: recursion is not supported by the IREE lowering yet:
      //        @g calls @f (cycle @f -> @g -> @f)
      %y = func.call @f(%x) : (tensor<f32>) -> tensor<f32>
      return %y : tensor<f32>
    }
    ```

    One iterative depth-first search: linear in the module's size.
  }];
}

#endif // RELAY_PASSES_TD
