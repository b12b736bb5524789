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

    Generic functions (`relay.type_params = ["A", ...]` on a `func.func`):
    inside one, its `!relay.tvar` parameters are rigid (equal only to
    themselves); each use of a generic function elsewhere (`relay.global_fn`,
    or `func.call` at the signature's own types) instantiates its
    parameters with fresh variables, as constructors instantiate their
    ADT's parameters. A generic signature with holes is solved from its own
    body first (recursive uses inside it share the signature).

    ```mlir
    func.func @main(%x: tensor<1x4xf32>) -> !relay.incomplete {
      %y = relay.nn.relu %x : (tensor<1x4xf32>) -> !relay.incomplete
      return %y : !relay.incomplete
    }
    // becomes: func.func @main(%x: tensor<1x4xf32>) -> tensor<1x4xf32> ...
    ```
  }];
}

def RelayDynamicToStatic : Pass<"relay-dynamic-to-static", "::mlir::ModuleOp"> {
  let summary = "Turns dyn.* ops whose shape operands are constants into "
                "their static forms (Relay's DynamicToStatic)";
  let description = [{
    `shape_of`/`ndarray_size` of tensors with static shapes fold to
    constants; `dyn.reshape`, `dyn.broadcast_to`, `dyn.zeros`, `dyn.ones`
    and `dyn.full` whose shape operand is a `relay.constant` become
    `reshape`, `broadcast_to`, `zeros`, `ones` and `full`. The types that
    depended on the replaced values are inferred again (relay-infer-type),
    so static shapes flow on; repeated until nothing changes.

    ```mlir
    %s = relay.constant dense<[3, 2]> : tensor<2xi64>
    %y = relay.dyn.reshape %x, %s : (tensor<6xf32>, tensor<2xi64>) -> tensor<?x?xf32>
    // becomes: relay.reshape %x {newshape = array<i64: 3, 2>} ... -> tensor<3x2xf32>
    ```
  }];
}

def RelayGradient : Pass<"relay-gradient", "::mlir::ModuleOp"> {
  let summary = "Expands `relay.grad` by reverse-mode automatic differentiation";
  let description = [{
    Runs on inferred IR. `relay.grad` of a module function `@f` becomes
    `relay.global_fn @f$grad...`, a new function that computes `f`'s result,
    then its adjoints backwards with the gradient rule of each operator (one
    table, docs/autodiff.md) and returns `(result, (grads...))` (or what
    the op's `wrt`/`keeping`/`seedable` declare). `relay.grad` of a
    `relay.fn` becomes a `relay.fn` in place.

    Calls of non-recursive functions and let-bound closures are inlined
    into the gradient function first, so straight-line code has no call,
    closure or reference left. `relay.if` is differentiated by a backward
    `if` on the same condition whose branches recompute the forward branch
    and return the adjoints of the values it uses from outside. Adjoints of
    broadcast operands are summed back to their shapes (`collapse_sum_like`).

    An operator without a gradient rule on a path from a parameter to the
    result, a recursive function, or a construct not differentiated yet
    (`match`, references, closures that escape) is a located error naming it.

    ```mlir
    %g = relay.grad %f : (!relay.fn<(tensor<f32>) -> tensor<f32>>) -> !relay.fn<(tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>>
    ```
  }];
}

def RelayFoldConstants : Pass<"relay-fold-constants", "::mlir::ModuleOp"> {
  let summary = "Evaluates operators on constants (Relay's FoldConstant), "
                "folds splats and algebraic identities";
  let description = [{
    Relay's FoldConstant, by rewrite patterns. An operator whose operands
    are all `relay.constant`s (dense, static shapes, f16/bf16/f32/f64 or
    integers up to 64 bits) is evaluated at compile time into a constant,
    by a table from op name to a small C++ evaluator
    (lib/Transforms/FoldConstants.cpp, `EvaluateConstantOp`): elementwise
    unary/binary ops with broadcasting (float and integer, comparisons,
    logical/bitwise ops, shifts), `where`, `cast`/`cast_like`, `clip`,
    `nn.relu`/`leaky_relu`/`prelu`/`gelu`/`bias_add`, `reshape`/`reshape_like`/`squeeze`/
    `expand_dims`/`nn.batch_flatten`, `transpose`, `concatenate`, `stack`,
    `split` (a `relay.tuple` of constants), `take`, `strided_slice`,
    `broadcast_to(_like)`, `tile`, `repeat`, `reverse`, `full`/`full_like`,
    `sum`/`mean`/`max`/`min`/`prod`/`all`/`any`, `argmax`/`argmin`, `nn.softmax`/
    `log_softmax`, `nn.pad`, `arange` (of a static result type), `nn.dense`,
    `nn.matmul`, `nn.batch_matmul`, `nn.conv2d`. `*_like` operands are read for their
    type only. Values are the reference interpreter's
    (python/relay_mlir/interpreter_ops.py): integers bit-exact (wrap-around,
    Relay's `x / 0 = 0`, truncating `divide`/`mod`), float arithmetic in the
    dtype's precision step by step, transcendentals and accumulations in
    double rounded once. What would be undefined or an error is left: a
    float-to-int cast of NaN or out of range, a "fast" `take` out of range.
    No result above 2^22 elements is built (nor a product above 2^28
    multiply-adds; TVM 0.19 has no limit). `shape_of`/`ndarray_size` of
    static shapes and `tuple_get_item` of a `relay.tuple` fold (the ops'
    folders). Ops with effects (`nn.dropout`, references) are not in the
    table.

    Also, as a cleanup for generated code (the gradient's seeds and zeros):
    `zeros`/`ones`/`zeros_like`/`ones_like` of a static shape become splat
    constants; shape and indexing ops (`expand_dims`, `reshape`, `squeeze`,
    `broadcast_to(_like)`, `transpose`, `take`, `gather(_nd)`,
    `strided_slice`, `tile`, `repeat`, `reverse`) of a splat constant become
    the splat of their result type; `x * 1`, `1 * x`, `x / 1`, `x + 0`,
    `0 + x`, `x - 0` become `x` when the result has `x`'s type;
    `collapse_sum_like` of a float constant is computed. Values are never
    changed: `x * 0` is not folded (it is NaN for an infinite x).

    ```mlir
    %c = relay.constant dense<[0.0, 1.0]> : tensor<2xf32>
    %e = relay.exp %c : (tensor<2xf32>) -> tensor<2xf32>
    // becomes: relay.constant dense<[1.000000e+00, 2.71828175]> : tensor<2xf32>
    %o = relay.ones_like %s : (tensor<f32>) -> tensor<f32>
    %b = relay.broadcast_to_like %o, %w : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %y = relay.multiply %b, %w : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    // becomes: %w
    ```
  }];
}

def RelayPartialEval : Pass<"relay-partial-eval", "::mlir::ModuleOp"> {
  let summary = "Inlines known calls and closures, selects constant branches";
  let description = [{
    The static part of Relay's PartialEvaluate: in every function, calls of
    non-recursive module functions (`func.call`, `relay.call` of a
    `relay.global_fn`) and of non-recursive `relay.fn`s in scope are replaced
    by the callee's body (repeatedly: inlined bodies are inlined into), and
    a `relay.if` whose condition is a constant becomes the chosen branch.
    Closures and references left without uses disappear with them; follow
    with `relay-fold-constants`, `canonicalize` and `cse` for the rest.
    Recursive functions stay calls.

    ```mlir
    %f = relay.fn : !relay.fn<(tensor<f32>) -> tensor<f32>> { ... }
    %y = relay.call %f(%x) : ...
    // becomes: the body of %f on %x
    ```
  }];
}

def RelayMonomorphize : Pass<"relay-monomorphize", "::mlir::ModuleOp"> {
  let summary = "Clones generic functions once per instantiation";
  let description = [{
    Runs on inferred IR. Starting from the non-generic functions, every use
    of a generic function (`relay.global_fn @g` at an instance of its type,
    or a `func.call @g` whose types are the signature itself) gets the
    substitution of its type parameters (the instance type matched against
    the generic signature); the generic function is cloned once per
    distinct substitution, under a readable deterministic name (the type
    arguments mangled after a `$`: `@map$f32$List.i32`, private, with
    `relay.instance_of = "map"`), with the type
    arguments substituted everywhere in the clone's signature and body, and
    the use is retargeted. Clones are processed the same way (a worklist;
    instances are memoised, so recursion terminates). Generic functions are
    deleted afterwards, and `relay.call` of a `relay.global_fn` whose types
    are the callee's exactly becomes a direct `func.call`.

    A type argument that is unknown at a use (a hole, or a parameter the
    instance type does not determine) is a located error, as is polymorphic
    recursion (more than `max-instances` instances).

    ```mlir
    func.func @id(%x: !relay.tvar<"A">) -> !relay.tvar<"A"> attributes {relay.type_params = ["A"]} {
      return %x : !relay.tvar<"A">
    }
    func.func @main(%x: tensor<f32>) -> tensor<f32> {
      %f = relay.global_fn @id : !relay.fn<(tensor<f32>) -> tensor<f32>>
      %y = relay.call %f(%x) : (!relay.fn<(tensor<f32>) -> tensor<f32>>, tensor<f32>) -> tensor<f32>
      return %y : tensor<f32>
    }
    // becomes: func.func private @id$f32(%x: tensor<f32>) -> tensor<f32>
    // and %y = call @id$f32(%x) : (tensor<f32>) -> tensor<f32>
    ```
  }];
  let options = [
    Option<"maxInstances", "max-instances", "unsigned", "1000",
           "instances of generic functions allowed before the program is "
           "refused as polymorphically recursive">,
  ];
}

def RelayLambdaLift : Pass<"relay-lambda-lift", "::mlir::ModuleOp"> {
  let summary = "Turns every relay.fn closure into a module function and a "
                "relay.closure of its captures";
  let description = [{
    Every `relay.fn` (innermost first) becomes a private `func.func` named
    after the module function it appears in (`@outer$fn0`, `@outer$fn1`,
    ... in the order the closures are lifted, innermost first), whose
    parameters are the values the closure captures (in order of first use)
    followed by its own parameters. In place of the `relay.fn` stands
    `relay.closure @outer$fnN(captures...)`, of the closure's type. Inside a
    `recursive` closure the self reference becomes a `relay.closure` of the
    lifted function's own capture parameters. An inner closure's captures
    become uses inside the outer closure, so they are captured by it in
    turn.

    Needs complete types (run `relay-infer-type` first).

    ```mlir
    func.func @main(%x: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
      %f = relay.fn : !relay.fn<(tensor<4xf32>) -> tensor<4xf32>> {
      ^bb0(%p: tensor<4xf32>):
        %q = relay.add %p, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
        relay.yield %q : tensor<4xf32>
      }
      ...
    // becomes
    func.func private @main$fn0(%b: tensor<4xf32>, %p: tensor<4xf32>) -> tensor<4xf32> {
      %q = relay.add %p, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      return %q : tensor<4xf32>
    }
    func.func @main(%x: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
      %f = relay.closure @main$fn0(%b : tensor<4xf32>) : !relay.fn<(tensor<4xf32>) -> tensor<4xf32>>
      ...
    ```
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

def RelayDefunctionalize : Pass<"relay-defunctionalize", "::mlir::ModuleOp"> {
  let summary = "Replaces function values by ADTs and calls of function "
                "values by direct calls of an apply function (Reynolds' "
                "defunctionalization)";
  let description = [{
    Runs after `relay-lambda-lift` (no `relay.fn` may be left). Every
    distinct function type `!relay.fn<(A...) -> B>` that occurs in the
    module (anywhere in a value's type, a function signature or an ADT
    field) gets, numbered in order of first occurrence with the function
    types inside a function type first,
      * an ADT `relay.adt @Fn$N []` with one constructor per function that
        flows as a value of that type: `relay.constructor @f [captures...]`
        for every `relay.closure @f` and `relay.global_fn @f` (no fields);
      * `func.func private @apply$N(%clo: !relay.adt<@Fn$N>, %a: A...) -> B`,
        a `relay.match` over `%clo` with one clause per constructor binding
        its captures and calling `@f(captures..., a...)` directly (a tuple
        of the results for a global with zero or several results). A type
        no function value is ever made of gets an ADT without constructors
        and a body-less `@apply$N` (no value of that type can exist).
    Then `relay.closure @f(c...)` and `relay.global_fn @f` become
    `relay.construct @Fn$N::@f(c...)`, `relay.call %f(a...)` becomes
    `func.call @apply$N(%f, a...)`, and every `!relay.fn<...>` in every type
    of the module (function signatures, values, block arguments, tuple
    fields, references, ADT arguments and constructor fields) becomes its
    ADT. The function types inside one function type are replaced too:
    `@apply$N` of `!relay.fn<(!relay.fn<(A) -> B>) -> C>` takes the inner
    type's ADT.

    Where a closure calls itself the result is recursive through
    `@apply$N`; recursion is removed by a later pass. Afterwards no
    `!relay.fn`, `relay.fn`, `relay.closure`, `relay.global_fn` or
    `relay.call` is left; what cannot be converted (`relay.grad`, a function
    type with ADT type parameters in a constructor field) is a located
    error. Where a call's argument or result types differ from the function
    type only in `?` dims of tensors (a parameter written with Relay's
    `Any`), a `tensor.cast` converts them.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::tensor::TensorDialect"];
}

def ConvertRelayToLinalg : Pass<"convert-relay-to-linalg", "::mlir::ModuleOp"> {
  let summary = "Lowers relay operators to linalg/tensor/arith/math/scf/func";
  let description = [{
    One pattern set per op family (elementwise, nn, reductions, transforms,
    language). Requires fully inferred types. `relay.if` becomes `scf.if`;
    tuples are flattened at function boundaries. ADT values and references
    become IREE run-time lists (`!util.list<?>`: [tag, boxed fields...]),
    `relay.match` a chain of `scf.if` that fails at run time when no clause
    matches; these IREE ops are emitted in generic form, so the context must
    allow unregistered dialects. Closures and `grad` are reported as "not
    supported yet".

    ```mlir
    %y = relay.nn.relu %x : (tensor<4xf32>) -> tensor<4xf32>
    // becomes a linalg.generic computing arith.maximumf(x, 0)
    ```
  }];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect", "::mlir::tensor::TensorDialect",
    "::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect", "::mlir::func::FuncDialect",
    "::mlir::cf::ControlFlowDialect",
  ];
  let options = [
    Option<"int8MatmulKernel", "int8-matmul-kernel", "bool", "false",
           "i8 x i8 matmuls with constant weights run on relay-vnni-matmul's "
           "kernel (relay-to-iree-input with cpu-kernels=avx512vnni): "
           "integer convolutions take the patch matmul, not integer "
           "Winograd">,
    Option<"f32MatmulKernel", "f32-matmul-kernel", "bool", "false",
           "f32 matmuls and convolutions with constant weights run on "
           "relay-vnni-matmul's f32 kernels (relay-to-iree-input with "
           "cpu-kernels=avx512 or avx512vnni): float convolutions that "
           "would take the patch matmul are direct ones, whose windows "
           "that kernel reads in place">,
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
    Option<"layoutTransforms", "layout-transforms", "bool", "false",
           "write the NCHW<->NHWC (and OIHW<->HWIO) transposes the pass "
           "leaves as "
           "relay.layout_transform, as TVM's ConvertLayout prints them "
           "(relay.transform.ConvertLayout sets it; the lowering keeps "
           "transposes)">,
  ];
}

def RelayEliminateRecursion
    : Pass<"relay-eliminate-recursion", "::mlir::ModuleOp"> {
  let summary = "Removes every cycle of the call graph: self tail calls become "
                "loops, other recursion one dispatcher with a heap frame stack";
  let description = [{
    iree-compile never returns on a program whose call graph has a cycle, so
    this pass runs on the output of `convert-relay-to-linalg` (func, scf, cf,
    arith, tensor, linalg, ..., unregistered IREE `util`/`hal` ops) and
    removes every cycle of `func.call` edges. For each strongly connected
    component of the call graph with a cycle:

      * its functions are put in CFG form (scf-to-cf on the ops of the
        function's own control flow; scf inside e.g. linalg bodies stays);
      * a call whose results are returned unchanged (a tail call, also from
        inside an `scf.if`) becomes a branch to the callee's entry block;
      * if all recursive calls are self tail calls, the function becomes a
        loop (its entry block is the loop header): no stack, no heap growth;
      * otherwise the functions' blocks move into one private function
        `@<first>__recursion(%which: i32, <argument slots>) -> (<result
        slots>)` (one slot group per distinct argument / result type list).
        A non-tail call pushes a frame [live values..., return-site tag: i32]
        onto a heap stack (`!util.list<?>` made at entry; tensors boxed with
        `hal.tensor.export` as `!hal.buffer_view`, index as i64, narrow
        integers as i32, f64 as i64 bits) and branches to the callee's entry
        block. A return with an empty stack returns from the dispatcher;
        otherwise it pops the top frame and `cf.switch`es on its tag to the
        block after the call, passing the results and the restored values.
        The original functions keep their names and signatures and call the
        dispatcher with their index (`%which`) and their arguments.

    ```mlir
    func.func @loop(%i: i32) -> i32 {   // self tail call inside scf.if
      ... %r = scf.if %c -> i32 { %x = func.call @loop(%j) ... scf.yield %x }
      return %r : i32
    }
    // becomes: ^entry(%i): cf.br ^header(%i)  ^header(%i): ... cf.br ^header(%j)
    ```

    Requires contexts that allow unregistered dialects (the IREE ops are
    emitted in generic form).
  }];
  let dependentDialects = [
    "::mlir::cf::ControlFlowDialect", "::mlir::arith::ArithDialect",
    "::mlir::tensor::TensorDialect", "::mlir::func::FuncDialect",
  ];
}

def RelayHostScalars : Pass<"relay-host-scalars", "::mlir::ModuleOp"> {
  let summary = "Computes the 0-d integer tensors the host can compute on "
                "the host (loop counters, bounds, branch conditions)";
  let description = [{
    Relay counts with 0-d tensors (a loop's index and bound, an `if`'s
    condition). Lowered as they are, every step of that arithmetic is a
    one-element `linalg.generic`, a dispatch in IREE, and every branch on
    one reads the value back from the device and waits for it: a loop over a
    run-time length pays both on each iteration.

    A 0-d integer/index tensor is host-known if it is a constant, a
    `tensor.from_elements`, the result of a loop-free `linalg.generic` over
    0-d operands whose body is pure `arith` (no possibly-trapping division)
    and whose operands are host-known, a CFG block argument or private
    function argument every incoming edge / call passes a host-known value,
    or an `scf.if` result whose yields are host-known (the greatest such set:
    a loop counter feeds itself). Such generics become their arith ops on the
    host, such arguments and results become scalars, and a generic reading a
    0-d `tensor.from_elements` takes the scalar into its body. A loop entered
    with 0-d integers the host does not know reads them once, before it. A
    host boolean still needed as a tensor is a `linalg.fill` of it (IREE
    fails on a `tensor.from_elements` of i1 in a dispatch).

    ```mlir
    %c = linalg.generic {iterator_types = []} ins(%i, %n : tensor<i64>,
        tensor<i64>) ... { arith.cmpi slt ... } -> tensor<i1>
    %b = tensor.extract %c[] : tensor<i1>
    cf.cond_br %b, ^body, ^exit
    ```
    becomes `%b = arith.cmpi slt, %i, %n : i64` with `%i`, `%n` scalars.
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect"];
}

def RelayUnswitchLoops : Pass<"relay-unswitch-loops", "::mlir::ModuleOp"> {
  let summary = "Decides a loop's branches on its argument sizes once, "
                "before the loop (versions of the self-recursive function)";
  let description = [{
    Relay's loops are self-tail-recursive functions. A loop body that
    branches on its arguments' sizes (the few-row dense's `scf.if` on a
    `?` row count) decides the same thing at every iteration, and each such
    host branch splits the iteration's IREE command buffer. Run before
    `relay-eliminate-recursion` on functions that call only themselves.

    A condition is decidable from the arguments if the side-effect free,
    speculatable scalar arithmetic computing it reads only constants,
    scalar arguments every self call passes on unchanged, and `tensor.dim`
    of tensor arguments. The function is versioned on such `scf.if`
    conditions, outermost first (each version: a clone with the condition
    and every structurally equal one replaced by its outcome, then
    canonicalized), up to `max-versions` versions. The original function
    keeps its name and signature and becomes the dispatcher: it evaluates
    the conditions on its arguments and calls the matching version, whose
    self calls stay self calls (a loop of its own).

    A size may change between iterations; if a version's conditions read
    a `tensor.dim` of an argument a self call may pass another size in (not
    the argument itself, nor a tensor provably of the same size: a state
    computed from the current one), that call re-checks them on its
    operands and otherwise continues in `<name>__any`, a copy of the
    unversioned function.

    ```mlir
    func.func private @loop(%i: i64, %h: tensor<?x128xf32>, ...) {
      ... %one = arith.cmpi eq, %rows, %c1 ...   // %rows = tensor.dim %h, 0
      %r = scf.if %one -> tensor<?x512xf32> { 1-row matmul } else { ... }
      ... func.call @loop(%i2, %h2, ...) ...
    }
    ```
    becomes `@loop` calling `@loop__v1` (the 1-row case, no branch) or
    `@loop__v2` by `tensor.dim %h, 0`; their self calls are guarded unless
    the next `%h` provably has the rows of this one.
  }];
  let options = [
    Option<"maxVersions", "max-versions", "unsigned", /*default=*/"4",
           "versions of one function at most (1 disables the pass)">,
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::cf::ControlFlowDialect",
                           "::mlir::func::FuncDialect"];
}

def RelayDropSizeReshapes : Pass<"relay-drop-size-reshapes"> {
  let summary = "Removes the same-type tensor.reshapes that name run-time "
                "sizes (after the passes that read them)";
  let description = [{
    The relay-to-linalg lowering names a tensor's run-time sizes, where it
    knows them equal to other values, with a `tensor.reshape` to the same
    type marked `relay.sizes_only`: later lowerings prove sizes equal
    through it, and `relay-unswitch-loops` sees a loop's branches on them as
    branches on the loop's invariant arguments. Afterwards they only stand
    in IREE's way (each is a dispatch boundary); each is replaced by its
    source.
  }];
}

def RelayReshapeBeforeSlice : Pass<"relay-reshape-before-slice"> {
  let summary = "Reshapes a tensor before slicing it, not the slice, so IREE "
                "reads the slice inside its consumer's dispatch";
  let description = [{
    `tensor.expand_shape` / `tensor.collapse_shape` of a static
    `tensor.extract_slice` becomes the slice of the reshaped source, where
    the slice stays a box of the reshaped source: a split dimension's offset
    and size are multiples of its inner factors; a merged group takes its
    inner dimensions whole. IREE folds a slice of a dispatch operand into
    the dispatch's load, but not a reshape of a slice: before, each was a
    copy dispatch (`slow_memcpy`) of its own - attention's query, key and
    value, sliced from one fused projection and split into heads, cost
    three copies per layer.
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

def RelayContiguousSlices : Pass<"relay-contiguous-slices"> {
  let summary = "Transposes a tensor read by many slices along an inner dim "
                "so that each slice is contiguous";
  let description = [{
    A static tensor whose only users are at least 8 `tensor.extract_slice`s
    of one size along one dim (offsets multiples of it), whole along the
    other dims, is expanded (the dim split into slice index x slice size)
    and transposed once with the slice index outermost; each slice becomes
    a contiguous slice of that, reshaped. IREE 3.13 reads a contiguous
    slice of a dispatch operand through its binding offset, so the
    slices' consumers share one executable; a strided slice is read at
    static offsets inside the dispatch, one executable per offset (an
    unrolled LSTM's per-step input projections at batch 8: 32 executables,
    iree-compile 36 s instead of 3 s). The transpose fuses into the
    tensor's producer.
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect",
                           "::mlir::linalg::LinalgDialect"];
}

def RelayFoldEmptyIterations : Pass<"relay-fold-empty-iterations"> {
  let summary = "Replaces linalg ops that iterate over nothing by their "
                "inits";
  let description = [{
    A structured linalg op one of whose loops runs zero times (a static
    size-0 dim: a `dense` with no contraction elements, a `sum` over an
    empty axis, a convolution with no input channels) never runs its body:
    each result is its init (the zeros a contraction accumulates into, a
    reduction's identity). A destination-style op whose results have no
    elements (a softmax of an empty tensor) is its inits too. Both are
    folded: iree-compile 3.13 dies of SIGFPE (AnnotateDispatchesPass) on
    dispatches over an empty iteration space.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def RelayPrivatizeCallees : Pass<"relay-privatize-callees",
                                  "::mlir::ModuleOp"> {
  let summary = "Gives each public function that is called a private twin "
                "with its body";
  let description = [{
    Relay's global functions are public entry points, and some are also
    called (a global loop calls itself; @main calls it). Passes that
    specialise a function to its callers (relay-host-scalars, sccp,
    relay-unswitch-loops) only handle private functions. Each called public
    `@f` gets a private `@f$body` holding its body; every call goes to it,
    and `@f` only calls it.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

def RelayBoxJoinTensors : Pass<"relay-box-join-tensors", "::mlir::ModuleOp"> {
  let summary = "Passes tensors into join blocks as buffer views";
  let description = [{
    iree-compile 3.13 mishandles tensors passed through the arguments of a
    block entered from several places (a loop header, the join of an `if` in
    CFG form, a recursion dispatcher's return block): a branch passing two
    tensors one dispatch region produced, or one tensor twice, loses one at
    run time ("indirect buffer reference slot 0 is out of range", "ref is
    null"). In every function: dead block arguments are removed (region
    DCE); a 0-d tensor argument that every branch builds from a scalar takes
    the scalar; a block entered by two branches or more that takes two
    tensors or more, or one with a dynamic dim, takes them as
    `!hal.buffer_view`s (a named `hal.tensor.export` behind a
    `util.optimization_barrier` per argument on each branch, a
    `hal.tensor.import` at the block's start).
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

def RelayFailEndlessLoops : Pass<"relay-fail-endless-loops",
                                  "::mlir::ModuleOp"> {
  let summary = "Replaces loops that can never exit by a run-time error";
  let description = [{
    A block of a function from which no return can be reached (a loop with
    no exit, e.g. a recursion's version where its base case is known never
    to hold again) is replaced by a run-time failure, "this program never
    terminates: it entered a loop that never exits [at file:line:col]",
    followed by a return of placeholder results. iree-compile 3.13 cannot
    compile a function with a path on which its results have no producer,
    and the program would spin forever there. Blocks that can still return
    are not changed.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::func::FuncDialect"];
}

def RelayHoistRuntimeChecks : InterfacePass<"relay-hoist-runtime-checks",
                                             "::mlir::FunctionOpInterface"> {
  let summary = "Moves run-time shape checks that depend only on input dims "
                "to the start of the function";
  let description = [{
    A `cf.assert` between two dispatches makes IREE submit the work before
    it and wait for it before the host can check and go on. The lowering's
    checks of run-time shape values (a reshape's element count, an arange's
    length, ...) mostly depend only on the function's input dims once
    `resolve-ranked-shaped-type-result-dims` has rewritten every
    `tensor.dim` of an intermediate into arithmetic on them. Such an
    assert, and the side-effect free arithmetic (arith ops, `tensor.dim` of
    the function's arguments) computing its condition, moves to the start
    of the entry block, asserts in their original order; the others stay.

    ```mlir
    %y = linalg.generic ... -> tensor<?xf32>          // a dispatch
    %n = arith.muli %d0, %c2 : index                 // %d0 = tensor.dim %arg0
    %ok = arith.cmpi eq, %n, %c8 : index
    cf.assert %ok, "relay.dyn.reshape: ..."
    ```
    becomes the `tensor.dim`, `arith.muli`, `arith.cmpi` and `cf.assert`
    first, then the `linalg.generic`.
  }];
  let dependentDialects = ["::mlir::cf::ControlFlowDialect"];
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

def RelayVnniMatmul : Pass<"relay-vnni-matmul", "::mlir::ModuleOp"> {
  let summary = "Computes 8-bit matmuls with a constant right operand by an "
                "AVX-512 VNNI kernel of our own (an IREE custom dispatch)";
  let description = [{
    Runs on the output of `convert-relay-to-linalg` (`relay-to-iree-input`
    adds it with `cpu-kernels=avx512vnni`, which `relay_mlir.compile` sets
    for llvm-cpu when the host CPU has AVX-512 VNNI). A `linalg.matmul` of
    i8 x i8 -> i32 (signed) with static sizes, maps `(m, k) x (k, n)` or
    `(m, k) x (n, k)`, whose right operand is computed from constants
    alone, becomes a `flow.dispatch` of an IREE `stream.executable` whose
    body is an MLIR GEMM over `vpdpbusd` (u8 x s8 in groups of four, which
    IREE 3.13's own kernels do not use):

    ```mlir
    %c = linalg.matmul ins(%a, %w : tensor<252x512xi8>, tensor<512x256xi8>)
           outs(%zero : tensor<252x256xi32>) -> tensor<252x256xi32>
    %q = linalg.generic {...} ins(%c, %bias : ...) { addi, sitofp, mulf, ... trunci }
    // becomes
    %p = arith.constant dense<"0x..."> : tensor<131072xi8>   // %w as [panels][k/4][16][4]
    %s = arith.constant dense<[...]> : tensor<256xi32>        // -128 * sum_k %w
    %q = "flow.dispatch"(%a_flat, %p, %s, %bias) {entry_points = [@relay_vnni_gemm_252x256x512_e<hash>::@...], ...}
    ```

    The kernel reads A as signed bytes and makes each group of four u8
    (xor 0x80808080); its accumulators start from the constant row
    `-128·Σ_k B`, and a non-zero init is the first step of its epilogue. The epilogue then takes
    the elementwise `linalg.generic` consumers of the result (bias,
    requantize, clip, cast to i8 — ops of the arith and math dialects whose
    other inputs are per-column vectors, whole tensors of the result's shape
    or scalars; in the same block, in order, up to a value that is the only
    one other ops read: a value read by several steps is taken once they
    join again; at most 48 ops), applies them to each vector of 16 products
    in registers and stores their result instead of the i32 products.

    Convolutions: a `linalg.conv_2d_nhwc_hwcf` of the same kind is the GEMM
    with its windows read in place (channels padded to groups of 4); a
    `linalg.depthwise_conv_2d_nhwc_hwc` with kernel rows of at most 4 taps
    is a depthwise kernel of its own (per channel, a kernel row's 4 input
    bytes interleaved into one vpdpbusd lane; the filter packed per row and
    16 channels; same epilogue).

    One executable per shape and epilogue function
    (`@relay_vnni_gemm_MxNxK_e<hash>`, `@relay_vnni_conv_..._e<hash>` or
    `@relay_vnni_dwconv_..._e<hash>`, at the
    module's start, its entry function of the same name: IREE links all
    executables into one). The packed weights and column sums are constants
    computed by the pass when it can read the weights' bytes (a constant
    through reshapes, transposes, pads and byte maps); otherwise they are
    ops that iree-compile folds. The context must allow unregistered
    dialects (the IREE ops are built in generic form). Other matmuls are
    left alone.

    With `float32`, matmuls and convolutions of f32 x f32 -> f32 with a
    constant right operand take the same GEMM with `vfmadd` (one k per
    step, B packed as 16-column panels, accumulators from 0, a zero
    spatial padding read in place for inputs of 8 channels or more;
    `@relay_f32_gemm_...`, `@relay_f32_conv_...`) and depthwise ones the
    depthwise kernel's f32 form (any kernel width, one fma per tap and 16
    channels; `@relay_f32_dwconv_...`): no packing dispatch of A (IREE's
    data tiling packs each matmul's activations in a dispatch of its
    own).
  }];
  let options = [
    Option<"int8", "int8", "bool", /*default=*/"true",
           "8-bit matmuls and convolutions (needs AVX-512 VNNI)">,
    Option<"float32", "float32", "bool", /*default=*/"false",
           "f32 matmuls and convolutions with constant weights (needs "
           "AVX-512 F)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect", "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect", "::mlir::LLVM::LLVMDialect",
    "::mlir::func::FuncDialect", "::mlir::memref::MemRefDialect",
  ];
}

def RelayByteTables : Pass<"relay-byte-tables"> {
  let summary = "Replaces an elementwise function of one 8-bit tensor by a "
                "lookup in a table of its 256 values";
  let description = [{
    Runs on linalg (`relay-to-iree-input` adds it before the CPU kernels).
    A region of elementwise `linalg.generic`s whose only non-constant leaf
    is an 8-bit tensor X — each reads the region's values with the identity
    map and otherwise only scalar constants, its body arith and math ops —
    computes a function of X's byte, whatever its float ops between: a
    quantized model's dequantize, GELU or sigmoid with quantize/dequantize
    pairs inside, and the final quantize. The region (grown in block order
    up to its last single exit, at least 8 body ops) is evaluated for the
    256 bytes at compile time by the ops' folders (IEEE arithmetic in their
    own types; `math.erf` and friends by the host's libm) and replaced by

    ```mlir
    %t = arith.constant dense<[...]> : tensor<256xT>
    %y = linalg.generic ins(%x : tensor<...xi8>) outs(...) {
      ^bb0(%b: i8, %o: T):
        %i = arith.index_castui %b : i8 to index
        %v = tensor.extract %t[%i] : tensor<256xT>
        linalg.yield %v : T
    }
    ```

    A region some value of which does not fold (a conversion out of range)
    is left as it is.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def RelaySimplifyInference
    : Pass<"relay-simplify-inference", "::mlir::ModuleOp"> {
  let summary = "Expands the normalisations into elementary ops for inference "
                "(Relay's SimplifyInference)";
  let description = [{
    As TVM 0.19's SimplifyInference, by rewrite patterns
    (`populateSimplifyInferencePatterns`) on typed IR:
      * field 0 of `nn.batch_norm` becomes `data * scale + shift` with
        `scale = 1 / sqrt(moving_var + eps) * gamma` and
        `shift = -moving_mean * scale + beta` (no gamma / beta when `scale` /
        `center` are false), both expanded to broadcast along `axis`; the
        batch_norm stays only if fields 1 or 2 are used;
      * field 0 of `nn.dropout` is its data;
      * `nn.layer_norm`, `nn.instance_norm` and `nn.group_norm` become
        `mean`, `variance(x, mean)`, `subtract`, `add` eps, `sqrt`, `divide`,
        then `multiply` by gamma and `add` beta (group_norm reshapes the
        channels into groups and back: only with a static shape);
      * `nn.l2_normalize` becomes `x / sqrt(max(sum(x * x), eps))`.
    The arithmetic on the statistics stays as operators (FoldConstant
    computes it when they are constants). An operand that is not a typed
    tensor is an error (run relay-infer-type first).

    ```mlir
    %t = relay.nn.batch_norm %x, %g, %b, %m, %v : (tensor<1x8x4x4xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tuple<tensor<1x8x4x4xf32>, tensor<8xf32>, tensor<8xf32>>
    %y = relay.tuple_get_item %t[0] : (tuple<tensor<1x8x4x4xf32>, tensor<8xf32>, tensor<8xf32>>) -> tensor<1x8x4x4xf32>
    // becomes: add(multiply(%x, expand_dims(scale)), expand_dims(shift))
    ```
  }];
}

def RelayDeadCodeElimination
    : Pass<"relay-dead-code-elimination", "::mlir::ModuleOp"> {
  let summary = "Removes dead lets: unused pure values (Relay's "
                "DeadCodeElimination)";
  let description = [{
    A Relay `let` is an SSA value here: a dead let is an op whose results
    are unused. It is erased, in every function and nested region, if
    evaluating it is pure, as TVM 0.19 decides: operators, constants,
    tuples, closures (`relay.fn`, `relay.closure`, `relay.global_fn`) and
    `ref_new` are pure; `ref_read` and `ref_write` are not; a call
    (`func.call`, `relay.call`) is pure if the callee is known (a module
    function, a `relay.fn` or a recursive closure's self reference) and its
    body is pure (recursive functions are assumed pure while their body is
    examined); a function value from a parameter, a tuple field or a
    reference is assumed impure; `if` and `match` are pure if their regions
    are. A chain of dead lets goes at once.

    `ignore-impurity` erases every dead op. `inline-once` moves a pure
    value used exactly once, inside a branch of `if` or a clause of `match`
    of its block, to just before that use (so it is computed only when the
    branch runs), as TVM inlines a let used once; a use inside a `relay.fn`
    is not moved into (the closure may run many times: TVM counts it as two
    uses). A use in the same block needs nothing: SSA is already inlined.

    ```mlir
    %a = relay.exp %x : (tensor<2xf32>) -> tensor<2xf32>      // unused: erased
    %w = relay.ref_write %r, %x : (!relay.ref<tensor<2xf32>>, tensor<2xf32>) -> tuple<>  // kept
    ```
  }];
  let options = [
    Option<"inlineOnce", "inline-once", "bool", "false",
           "move pure values used once inside an if/match branch to their use">,
    Option<"ignoreImpurity", "ignore-impurity", "bool", "false",
           "erase unused ops even if they have effects">,
  ];
}

def RelayEliminateCommonSubexpr
    : Pass<"relay-eliminate-common-subexpr", "::mlir::ModuleOp"> {
  let summary = "Merges identical operator calls (Relay's "
                "EliminateCommonSubexpr)";
  let description = [{
    As TVM 0.19's EliminateCommonSubexpr, in each function, in evaluation
    order: an operator call with at least one operand is replaced by an
    earlier call of the same operator with the same attributes and result
    type whose operands are the same values (or equal rank-0 constants); a
    `tuple_get_item` by an earlier one of the same tuple value and index.
    Only operators are merged: constants, tuples, closures, calls of
    functions, constructors, reference reads/writes and `nn.dropout`
    (stateful in TVM) never are, nor ops that are not free of memory effects
    or carry the unit attribute `relay.cse_skip` (what Python's `fskip`
    marks; the pass removes the attribute).

    As in TVM, a call in one `if` branch, `match` clause or closure body
    merges with an equal one elsewhere (another branch, after the `if`): the
    kept op moves up to the block that holds both, which is where Relay
    evaluates a node two branches share (its operands are visible there;
    equal scalar constants move with it).

    ```mlir
    %a = relay.exp %x : (tensor<2xf32>) -> tensor<2xf32>
    %b = relay.exp %x : (tensor<2xf32>) -> tensor<2xf32>   // uses of %b read %a
    ```
  }];
}

def RelayDivToMul : Pass<"relay-div-to-mul", "::mlir::ModuleOp"> {
  let summary = "Division by a float constant as multiplication by its "
                "reciprocal (Relay's DivToMul)";
  let description = [{
    As TVM 0.19's DivToMul, by a rewrite pattern (`populateDivToMulPatterns`):
    `relay.divide %x, %c` with `%c` a `relay.constant` of float16, float32 or
    float64 becomes `relay.multiply %x, %r` with `%r` the constant `1 / c`,
    computed element by element (TVM 0.19 inverts only element 0 of a
    non-scalar constant). A divisor with a zero element, of an integer or
    bfloat16 type, or not a constant is left alone (FoldConstant makes
    constant divisors constants first).

    ```mlir
    %c = relay.constant dense<4.0> : tensor<f32>
    %y = relay.divide %x, %c : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
    // becomes: relay.multiply %x, (relay.constant dense<0.25> : tensor<f32>)
    ```
  }];
}

def RelayCanonicalizeCast
    : Pass<"relay-canonicalize-cast", "::mlir::ModuleOp"> {
  let summary = "A widening cast gets one copy per elementwise consumer "
                "(Relay's CanonicalizeCast)";
  let description = [{
    As TVM 0.19's CanonicalizeCast, by a rewrite pattern
    (`populateCanonicalizeCastPatterns`): a `relay.cast` to a type of more
    bits read by several elementwise or broadcast operators (TVM's
    TOpPattern kElemWise/kBroadcast: unary math, `cast`, `clip`, `nn.relu`,
    the binary arithmetic and comparisons, `where`, `expand_dims`, `tile`,
    ...) is copied before each such use after the first (in evaluation
    order; a consumer reading it twice counts twice), so each consumer can
    fuse with its own cast. Other consumers keep the original; casts to as
    many bits or fewer are left alone.

    ```mlir
    %c = relay.cast %x {dtype = f32} : (tensor<3xi8>) -> tensor<3xf32>
    %a = relay.add %c, %y : ...        // reads %c
    %m = relay.multiply %c, %y : ...   // reads a copy of %c
    ```
  }];
}

def RelaySimplifyExpr : Pass<"relay-simplify-expr", "::mlir::ModuleOp"> {
  let summary = "Local algebraic and data-movement simplifications (Relay's "
                "SimplifyExpr)";
  let description = [{
    TVM 0.19's SimplifyExpr sub-rewrites, one rewrite pattern each
    (`populateSimplifyExprPatterns`): consecutive reshapes become one
    reshape to the static result shape; consecutive transposes one
    transpose; a transpose keeping every axis, and a cast or cast_like to
    the data's own dtype, vanish; `cast(cast(x))` casts `x` directly when
    the first cast loses nothing (TVM's widening order int < uint < float,
    bfloat16 apart); `x + 0`, `x * 1`, `x - 0`, `x / 1` (zeros/ones(_like)
    or a scalar constant; only if `x` has the result's type) are `x`;
    `x / sqrt(y)` is `x * rsqrt(y)`; `x + x` is `x * 2`;
    `zeros_like`/`ones_like` of a static type become `zeros`/`ones`,
    `cast_like` a `cast`; a zeros/ones operand of add, subtract, multiply,
    divide, maximum, minimum or power, whose other operand has the result's
    type, becomes a scalar constant; a clip whose bounds hold every value of
    its dtype vanishes, and so does a cast after a clip that changes none of
    the clipped values (`populateSimplifyClipPatterns`; exact where TVM
    only compares the bounds with the dtype's range, see SimplifyClip.cpp).
    Not yet: TVM's SwitchAddMultiply, SimplifyAdjacentMultiplyOrAdd,
    SimplifyBinomial, the dequantize-arg rewrites, full_like/reshape_like/
    broadcast_to_like/collapse_sum_like concretization, layout_transform.

    ```mlir
    %a = relay.transpose %x {axes = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
    %b = relay.transpose %a {axes = array<i64: 1, 0>} : (tensor<3x2xf32>) -> tensor<2x3xf32>
    // becomes: %x
    ```
  }];
}

def RelaySimplifyExprPostAlterOp
    : Pass<"relay-simplify-expr-post-alter-op", "::mlir::ModuleOp"> {
  let summary = "SimplifyExpr's identity, reshape, cast and clip rewrites "
                "(Relay's SimplifyExprPostAlterOp)";
  let description = [{
    TVM 0.19's SimplifyExprPostAlterOp, which relay.build runs after
    AlterOpLayout at every opt level: of relay-simplify-expr's patterns
    only `x + 0`, `x * 1`, `x - 0`, `x / 1` → `x` [EliminateIdentity],
    consecutive reshapes [SimplifyReshape], casts to the data's own dtype
    [SimplifySameCast], a cast after a widening cast [SimplifyConsecutive
    Cast], the casts after a clip that change no value [SimplifyClipAnd
    ConsecutiveCast] and a clip that clips nothing [SimplifyClip]
    (`populateSimplifyExprPostAlterOpPatterns`). Transposes,
    layout_transforms, `x + x`, `x / sqrt(y)` and the `*_like` operators
    stay.

    ```mlir
    %c = relay.clip %x {a_min = 0.0 : f64, a_max = 255.0 : f64} : (tensor<4xi32>) -> tensor<4xi32>
    %u = relay.cast %c {dtype = ui8} : (tensor<4xi32>) -> tensor<4xui8>
    %i = relay.cast %u {dtype = i32} : (tensor<4xui8>) -> tensor<4xi32>
    // becomes: %c
    ```
  }];
}

def RelayFoldExplicitPadding
    : Pass<"relay-fold-explicit-padding", "::mlir::ModuleOp"> {
  let summary = "Folds an explicit nn.pad into the padding of the convolution "
                "or pool it feeds (Relay's FoldExplicitPadding)";
  let description = [{
    As TVM 0.19's FoldExplicitPadding, by rewrite patterns
    (`populateFoldExplicitPaddingPatterns`): `relay.nn.pad` in "constant"
    mode that pads only the spatial dims (D, H, W of the consumer's layout)
    and has no other use is dropped and its widths added to the `padding`
    of the `nn.conv1d/2d/3d` or `nn.avg_pool1d/2d/3d` it feeds if its value
    is 0, of the `nn.max_pool1d/2d/3d` if its value is the one max pooling
    pads with (-inf for floats, the lowest integer). An average pool with
    `count_include_pad = false` takes it only without padding of its own,
    and then counts its padding. The padding becomes 2n entries (befores,
    then afters). Other pads (edge/reflect, a non-constant or other value,
    a padded batch or channel dim, more uses) stay. TVM folds a max pool's
    pad of the lowest finite float (what its max pools pad with) and not
    -inf; here max pools pad with -inf, so that is what folds.

    ```mlir
    %p = relay.nn.pad %x, %zero {pad_width = array<i64: 0, 0, 0, 0, 1, 1, 1, 1>} : (tensor<1x2x5x5xf32>, tensor<f32>) -> tensor<1x2x7x7xf32>
    %y = relay.nn.conv2d %p, %w : (tensor<1x2x7x7xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x5x5xf32>
    // becomes: relay.nn.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>}
    ```
  }];
}

def RelayFlattenAtrousConv
    : Pass<"relay-flatten-atrous-conv", "::mlir::ModuleOp"> {
  let summary = "TensorFlow's atrous convolution as one dilated nn.conv2d "
                "(Relay's FlattenAtrousConv)";
  let description = [{
    As TVM 0.19's FlattenAtrousConv, by a rewrite pattern
    (`populateFlattenAtrousConvPatterns`): `relay.nn.batch_to_space_nd` of
    an NHWC `relay.nn.conv2d` of `relay.nn.space_to_batch_nd %x` becomes
    one `relay.nn.conv2d %x` with `dilation = block_shape` and the padding
    the three ops compute: paddings minus crops per spatial dim
    ([top, left, bottom, right]). TVM gives the conv SAME padding computed
    from `%x`'s size whatever the paddings and crops, which is wrong for a
    VALID atrous conv (its type checker rejects the result); both agree on
    TensorFlow's SAME pattern. The three stay unless a dilated conv equals
    them: a block_shape of 2 entries equal in both block moves, `pad_value`
    0, a conv2d in NHWC with strides [1, 1], dilation [1, 1] and no padding
    of its own, and crops no larger than the paddings.

    ```mlir
    %s = relay.nn.space_to_batch_nd %x {block_shape = array<i64: 2, 2>, paddings = array<i64: 2, 2, 2, 2>} : (tensor<1x10x10x3xf32>) -> tensor<4x7x7x3xf32>
    %c = relay.nn.conv2d %s, %w {data_layout = "NHWC", kernel_layout = "HWIO"} : (tensor<4x7x7x3xf32>, tensor<3x3x3x4xf32>) -> tensor<4x5x5x4xf32>
    %y = relay.nn.batch_to_space_nd %c {block_shape = array<i64: 2, 2>, crops = array<i64: 0, 0, 0, 0>} : (tensor<4x5x5x4xf32>) -> tensor<1x10x10x4xf32>
    // becomes: relay.nn.conv2d %x, %w {data_layout = "NHWC", dilation = array<i64: 2, 2>, kernel_layout = "HWIO", padding = array<i64: 2, 2, 2, 2>}
    ```
  }];
}

def RelayCanonicalizeOps : Pass<"relay-canonicalize-ops", "::mlir::ModuleOp"> {
  let summary = "Special operators as basic ones (Relay's CanonicalizeOps)";
  let description = [{
    As TVM 0.19's CanonicalizeOps, by a rewrite pattern
    (`populateCanonicalizeOpsPatterns`): `relay.nn.bias_add %x, %b {axis}`
    becomes `relay.add %x, %b'` where `%b'` is
    `relay.expand_dims %b {axis = 1, num_newaxis = rank - axis - 1}` (just
    `%b` when `axis` is the last dim), which broadcasts along `axis`. A
    bias_add whose sizes along the axis are a `?` and a static size stays
    (the add would have another type). TVM rewrites no other operator.

    ```mlir
    %y = relay.nn.bias_add %x, %b {axis = 1 : i64} : (tensor<1x8x4x4xf32>, tensor<8xf32>) -> tensor<1x8x4x4xf32>
    // becomes:
    %e = relay.expand_dims %b {axis = 1 : i64, num_newaxis = 2 : i64} : (tensor<8xf32>) -> tensor<8x1x1xf32>
    %y = relay.add %x, %e : (tensor<1x8x4x4xf32>, tensor<8x1x1xf32>) -> tensor<1x8x4x4xf32>
    ```
  }];
}

def RelayBackwardFoldScaleAxis
    : Pass<"relay-backward-fold-scale-axis", "::mlir::ModuleOp"> {
  let summary = "Folds a per-channel multiply after a conv2d/conv3d/dense "
                "into its weight (Relay's BackwardFoldScaleAxis)";
  let description = [{
    As TVM 0.19's BackwardFoldScaleAxis, by a rewrite pattern
    (`populateBackwardFoldScaleAxisPatterns`): `relay.multiply %y, %s` (or
    `%s, %y`) where `%s` broadcasts along the channel axis only (a scalar,
    `[C]`, `[C, 1, 1]`, `[1, C, 1, 1]` for NCHW) and `%y` comes from
    `relay.nn.conv2d`/`conv3d` (groups 1 or depthwise; C of its out layout)
    or `relay.nn.dense` (its last axis) through `nn.relu`/`nn.leaky_relu`
    (then `%s` must be a non-negative constant), `add`/`subtract` with an
    operand broadcasting along the channel (multiplied by `%s`) or of two
    such producers of one type (both scaled), and `nn.bias_add` on the
    channel axis (the bias multiplied by `%s`), every value on the way used
    once: the multiply disappears and the weights are multiplied along O
    (dense: along units). A constant weight and scale give a new constant;
    otherwise `multiply(w, expand_dims(squeeze(s)))` is built. The weight
    must have the result's element type. Repeated scales fold in turn.

    ```mlir
    %y = relay.nn.conv2d %x, %w : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x3x3xf32>
    %z = relay.multiply %y, %s : (tensor<1x3x3x3xf32>, tensor<3x1x1xf32>) -> tensor<1x3x3x3xf32>
    // becomes: relay.nn.conv2d %x, %w' with %w' = %w * %s along O
    ```
  }];
}

def RelayForwardFoldScaleAxis
    : Pass<"relay-forward-fold-scale-axis", "::mlir::ModuleOp"> {
  let summary = "Folds a per-channel multiply before conv2d/conv3d/dense "
                "ops into their weights (Relay's ForwardFoldScaleAxis)";
  let description = [{
    As TVM 0.19's ForwardFoldScaleAxis, by a rewrite pattern
    (`populateForwardFoldScaleAxisPatterns`): `relay.multiply %x, %s` (or
    `%s, %x`), `%s` broadcasting along one axis only, whose every use leads
    to the data of a `relay.nn.conv2d`/`conv3d` (groups 1 or depthwise; the
    C axis of its data layout) or `relay.nn.dense` (its last axis) through
    `nn.relu`/`nn.leaky_relu` (then `%s` must be a non-negative constant)
    and float `add`/`subtract` with an operand broadcasting along that axis
    (divided by `%s`, which then must not have a zero if it is a constant):
    the multiply disappears, the weights are multiplied along I (O for a
    depthwise conv; dense: along the input axis). Any other use, or uses
    disagreeing on the axis, leave it. A constant weight and scale give a
    new constant; otherwise ops are built.

    ```mlir
    %m = relay.multiply %x, %s : (tensor<1x2x5x5xf32>, tensor<2x1x1xf32>) -> tensor<1x2x5x5xf32>
    %y = relay.nn.conv2d %m, %w : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x3x3xf32>
    // becomes: relay.nn.conv2d %x, %w' with %w' = %w * %s along I
    ```
  }];
}

def RelayCombineParallelConv2D
    : Pass<"relay-combine-parallel-conv2d", "::mlir::ModuleOp"> {
  let summary = "Combines parallel nn.conv2d ops reading the same data "
                "(Relay's CombineParallelConv2D)";
  let description = [{
    As TVM 0.19's CombineParallelConv2D, by a rewrite pattern
    (`populateCombineParallelConv2DPatterns`): the `relay.nn.conv2d` ops
    with groups = 1 reading the same value in one block are grouped (an op
    joins the first group whose first op has its strides, padding,
    dilation, layouts, out_dtype and kernel height and width); a group of
    at least `min-num-branches` (and 2) ops becomes one conv2d of the
    weights concatenated along O. Elementwise/broadcast ops that follow
    every branch alike (the only operator reading the value before them;
    same operator and attributes; other operands with the branch's
    channels on the channel axis) are combined too, their other operands
    concatenated along that axis. Each branch's result is a
    `relay.strided_slice` (`slice_mode = "size"`) of its channels.

    ```mlir
    %a = relay.nn.conv2d %x, %w1 : (tensor<1x4x8x8xf32>, tensor<2x4x3x3xf32>) -> tensor<1x2x6x6xf32>
    %b = relay.nn.conv2d %x, %w2 : (tensor<1x4x8x8xf32>, tensor<3x4x3x3xf32>) -> tensor<1x3x6x6xf32>
    %c = relay.nn.conv2d %x, %w3 : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x6xf32>
    // becomes: %w = concatenate(%w1, %w2, %w3), one conv2d {channels = 9},
    // strided_slice of channels [0, 2), [2, 5), [5, 9)
    ```
  }];
  let options = [
    Option<"minNumBranches", "min-num-branches", "uint64_t", "3",
           "the fewest parallel ops that are combined">
  ];
}

def RelayCombineParallelDense
    : Pass<"relay-combine-parallel-dense", "::mlir::ModuleOp"> {
  let summary = "Combines parallel nn.dense ops reading the same data "
                "(Relay's CombineParallelDense)";
  let description = [{
    As TVM 0.19's CombineParallelDense, by a rewrite pattern
    (`populateCombineParallelDensePatterns`, the shared procedure of
    relay-combine-parallel-conv2d): at least `min-num-branches` (and 2)
    `relay.nn.dense` ops of rank-2 data reading the same value with the same
    out_dtype become, with `to-batch` (default), one `relay.nn.batch_matmul`
    of `stack`ed data and `stack`ed weights (equal weight shapes), each
    branch's result a `squeeze` of field i of a `split` along axis 0, and
    followers alike in every branch combined with their other operands
    stacked (vectors made `[1, n]` first); without `to-batch`, one dense of
    the weights concatenated along their rows (equal input sizes), each
    branch's result a `strided_slice` of its units, followers' operands
    concatenated on the last axis (scalars and size-1 last axes repeated to
    the branch's units).
  }];
  let options = [
    Option<"minNumBranches", "min-num-branches", "uint64_t", "3",
           "the fewest parallel ops that are combined">,
    Option<"toBatch", "to-batch", "bool", "true",
           "combine into a batch_matmul (else into one dense)">
  ];
}

def RelayCombineParallelBatchMatmul
    : Pass<"relay-combine-parallel-batch-matmul", "::mlir::ModuleOp"> {
  let summary = "Combines parallel nn.batch_matmul ops reading the same "
                "data (Relay's CombineParallelBatchMatmul)";
  let description = [{
    As TVM 0.19's CombineParallelBatchMatmul, by a rewrite pattern
    (`populateCombineParallelBatchMatmulPatterns`, the shared procedure of
    relay-combine-parallel-conv2d): at least `min-num-branches` (and 2)
    `relay.nn.batch_matmul` ops (transpose_a false, transpose_b true) of the
    same x, with rank-3 y of the same batch and dtype and the same
    out_dtype, become one batch_matmul of the y concatenated along axis 1;
    followers alike in every branch are combined, their other operands
    (holding the branch's columns on the last axis) concatenated there;
    each branch's result is a `strided_slice` of its columns.
  }];
  let options = [
    Option<"minNumBranches", "min-num-branches", "uint64_t", "3",
           "the fewest parallel ops that are combined">
  ];
}

def RelayFastMath : Pass<"relay-fast-math", "::mlir::ModuleOp"> {
  let summary = "exp, tanh and erf as their fast approximations (Relay's "
                "FastMath)";
  let description = [{
    As TVM 0.19's FastMath, by rewrite patterns (`populateFastMathPatterns`):
    `relay.exp`, `relay.tanh` and `relay.erf` become `relay.fast_exp`,
    `relay.fast_tanh` and `relay.fast_erf` on the same operand. TVM also
    makes `nn.softmax` an `nn.fast_softmax`, which the relay dialect does
    not have: softmax stays. The fast operators lower to the math dialect's
    exp/tanh/erf as the exact ones do (docs/passes.md gives the errors
    measured on llvm-cpu and those of TVM's approximations).

    ```mlir
    %y = relay.exp %x : (tensor<3xf32>) -> tensor<3xf32>
    // becomes: %y = relay.fast_exp %x : (tensor<3xf32>) -> tensor<3xf32>
    ```
  }];
}

def RelayToMixedPrecision
    : Pass<"relay-to-mixed-precision", "::mlir::ModuleOp"> {
  let summary = "Operators compute in float16/bfloat16 where safe (Relay's "
                "ToMixedPrecision)";
  let description = [{
    As TVM 0.19's ToMixedPrecision with its default op lists: ALWAYS
    operators (`nn.conv1d/2d/3d`, their transposes, `nn.dense`,
    `nn.batch_matmul`) cast their float operands to `mixed-precision-type`
    and accumulate in it (`out_dtype`); FOLLOW operators (data movement,
    simple arithmetic and activations, pools, `clip`, `cast`, ...) do so
    when every float operand has that type or is a function parameter or a
    constant, else compute in float32; NEVER operators (`exp`, `power`,
    `nn.softmax`, `erf`, `sum`, `mean`, `variance`, `nn.layer_norm`,
    `nn.global_avg_pool2d`, ...) get float16/bfloat16 operands cast back to
    float32. An operator on no list is FOLLOW and reported:
    `missing-op-mode` 0 is an error, 1 a warning, 2 silent. zeros/ones/full
    create the low type; a clip with bounds the type cannot hold stays
    float32. Constants are converted at compile time. Values read by
    anything but operators, tuples and the function's return (if/match,
    yields, calls, references) are cast back to their types, so closures,
    branches and callees keep theirs. Function results take the low type
    unless `keep-orig-output-dtype` (or the function is used as a value).

    ```mlir
    %y = relay.nn.dense %x, %w : (tensor<2x4xf32>, tensor<3x4xf32>) -> tensor<2x3xf32>
    // becomes:
    %a = relay.cast %x {dtype = f16} : (tensor<2x4xf32>) -> tensor<2x4xf16>
    %b = relay.cast %w {dtype = f16} : (tensor<3x4xf32>) -> tensor<3x4xf16>
    %y = relay.nn.dense %a, %b {out_dtype = f16} : (tensor<2x4xf16>, tensor<3x4xf16>) -> tensor<2x3xf16>
    ```
  }];
  let options = [
    Option<"mixedPrecisionType", "mixed-precision-type", "std::string",
           "\"float16\"", "the low type: float16 or bfloat16 (float32, "
           "float64 accepted)">,
    Option<"missingOpMode", "missing-op-mode", "int", "1",
           "operators on no list: 0 error, 1 warning, 2 silent">,
    Option<"keepOrigOutputDtype", "keep-orig-output-dtype", "bool", "false",
           "function results keep their types">
  ];
}

def RelayRemoveUnusedFunctions
    : Pass<"relay-remove-unused-functions", "::mlir::ModuleOp"> {
  let summary = "Erases the module functions no entry function reaches "
                "(Relay's RemoveUnusedFunctions)";
  let description = [{
    As TVM 0.19's RemoveUnusedFunctions(entry_functions): the functions
    named by `entry-functions` (`main` when the option is not given) and
    every function they reach through symbol uses (`func.call`,
    `relay.global_fn`, `relay.closure`, transitively) stay; the other
    `func.func`s are erased. With `public-entries` every public function
    is an entry as well (relay.build's sequence inside `compile()`, whose
    executables export every public function). Type definitions (`relay.adt`) stay. An entry
    name that is no function of the module is an error naming it and the
    functions there are.

    ```mlir
    func.func @unused(%x: tensor<2xf32>) -> tensor<2xf32> { ... }
    func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> { ... }
    // becomes: only @main
    ```
  }];
  let options = [
    ListOption<"entryFunctions", "entry-functions", "std::string",
               "the functions kept with what they reach (default: main)">,
    Option<"publicEntries", "public-entries", "bool", "false",
           "every public function is an entry too (what compile() builds: "
           "each public function is exported)">,
  ];
}

def RelayInline : Pass<"relay-inline", "::mlir::ModuleOp"> {
  let summary = "Inlines the calls of module functions marked Inline=1 "
                "(Relay's Inline)";
  let description = [{
    As TVM 0.19's Inline: a `func.func` whose `relay.attrs` dictionary has
    a non-zero `Inline` and which is not recursive (directly or through
    other functions) and has no `Compiler` attribute is inlined at every
    `func.call` of it (rewrite patterns: `populateInlinePatterns`; bodies
    inlined into are inlined into in turn). Afterwards an inlined function
    nothing refers to any more is erased, unless nothing referred to it
    before (an entry such as `main` stays). Unlike TVM 0.19: a function
    called twice by one caller is inlined at both calls (TVM crashes), an
    Inline function calling functions that are not Inline is inlined (TVM
    crashes: "marked as inline but not inlined"), and one used as a value
    (`relay.global_fn`) stays a function that the value refers to (TVM
    crashes: parameter count mismatch).

    ```mlir
    func.func @g(%x: tensor<2xf32>) -> tensor<2xf32> attributes {relay.attrs = {Inline = 1 : i32}} {
      %y = relay.exp %x : (tensor<2xf32>) -> tensor<2xf32>
      return %y : tensor<2xf32>
    }
    func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {
      %r = call @g(%a) : (tensor<2xf32>) -> tensor<2xf32>
      return %r : tensor<2xf32>
    }
    // becomes: @main computes relay.exp %a; @g is erased
    ```
  }];
}

def RelayEtaExpand : Pass<"relay-eta-expand", "::mlir::ModuleOp"> {
  let summary = "Module functions used as values become closures calling "
                "them (Relay's EtaExpand)";
  let description = [{
    As TVM 0.19's EtaExpand(expand_constructor, expand_global_var), by a
    rewrite pattern (`populateEtaExpandPatterns`): with
    `expand-global-var`, each `relay.global_fn @g` used other than as the
    callee of a `relay.call` is, at those uses, a `relay.fn` of its type
    whose body calls `@g` with the closure's parameters. Constructors used
    as values are closures already in the relay dialect (the Python
    builder writes `fn (fields) { C(fields) }`), so `expand-constructor`
    changes nothing here. At least one of the two options must be given
    (as in TVM).

    ```mlir
    %f = relay.global_fn @g : !relay.fn<(tensor<2xf32>) -> tensor<2xf32>>
    %t = relay.tuple %f : (!relay.fn<(tensor<2xf32>) -> tensor<2xf32>>) -> ...
    // becomes
    %f = relay.fn : !relay.fn<(tensor<2xf32>) -> tensor<2xf32>> {
    ^bb0(%p: tensor<2xf32>):
      %y = func.call @g(%p) : (tensor<2xf32>) -> tensor<2xf32>
      relay.yield %y : tensor<2xf32>
    }
    ```
  }];
  let options = [
    Option<"expandConstructor", "expand-constructor", "bool", "false",
           "expand constructors used as values (they already are closures)">,
    Option<"expandGlobalVar", "expand-global-var", "bool", "false",
           "expand module functions used as values">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

def RelayLegalize : Pass<"relay-legalize", "::mlir::ModuleOp"> {
  let summary = "The operator legalizations TVM 0.19 applies for the llvm "
                "target (Relay's Legalize)";
  let description = [{
    By rewrite patterns (`populateLegalizePatterns`), what TVM 0.19's
    Legalize does on `llvm` to the operators relay-mlir has: `relay.erf` of
    float16 is computed in float32 (two casts around it), and
    `relay.nn.conv2d_transpose` gets NCHW data and an IOHW kernel (NHWC data
    transposed to NCHW and the result back, other kernel layouts transposed
    to IOHW). TVM's int8 dense/conv2d/batch_matmul rewrites for VNNI and
    AVX-512 targets are not done.

    ```mlir
    %y = relay.erf %x : (tensor<4xf16>) -> tensor<4xf16>
    // becomes
    %a = relay.cast %x {dtype = f32} : (tensor<4xf16>) -> tensor<4xf32>
    %b = relay.erf %a : (tensor<4xf32>) -> tensor<4xf32>
    %y = relay.cast %b {dtype = f16} : (tensor<4xf32>) -> tensor<4xf16>
    ```
  }];
}

def RelayAlterOpLayout : Pass<"relay-alter-op-layout", "::mlir::ModuleOp"> {
  let summary = "TVM 0.19's x86 NCHW{n}c blocking of NCHW convolutions "
                "(Relay's AlterOpLayout)";
  let description = [{
    By rewrite patterns (`populateAlterOpLayoutPatterns`), what TVM 0.19's
    AlterOpLayout does on an x86 target (untuned: AutoTVM's fallback
    tiles); `simd-lanes` is the target's 32-bit SIMD lanes (the Python pass
    reads it from the current tvm Target, `relay_mlir.x86_target`, and does
    not run this pass without a CPU target). Each `relay.nn.conv2d` with
    NCHW data, an OIHW kernel and static shapes, `groups` 1 or depthwise
    (groups = input channels = output channels), becomes
    `relay.nn.contrib_conv2d_NCHWc` (`relay.nn.contrib_depthwise_conv2d_NCHWc`)
    with data `NCHW{ic}c`, kernel `OIHW{ic}i{oc}o` (`OIHW1i{oc}o`) and
    result `NCHW{oc}c`: `oc` the largest divisor of the output channels up
    to the lanes, `ic` the largest divisor of the input channels up to `oc`
    (int8 convolutions stay when the lanes are above 4). Its result goes
    back to NCHW with a `relay.layout_transform`, and the operators that
    TVM runs blocked take the blocked value instead: elementwise operators,
    binary broadcast operators whose other operand is a scalar, an NCHW
    tensor of the same channels or a `[C, 1, 1]` bias (`relay.expand_dims`
    first), `relay.concatenate` on the channels of values blocked alike,
    2-D pools (`layout = "NCHW{n}c"`) and sum / mean / max / min / prod with
    an axis (reducing C reduces its block, axis 4; without keepdims the
    result goes back to its primal layout at once). One
    `relay.layout_transform` per value and layouts, shared by its users.
    Functions with a `Compiler` or `SkipOptimization` attribute stay.

    ```mlir
    %c = relay.nn.conv2d %x, %w : (tensor<1x8x5x5xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x3x3xf32>
    %r = relay.nn.relu %c : (tensor<1x8x3x3xf32>) -> tensor<1x8x3x3xf32>
    // becomes (simd-lanes=4)
    %d = relay.layout_transform %x {dst_layout = "NCHW4c", src_layout = "NCHW"} : (tensor<1x8x5x5xf32>) -> tensor<1x2x5x5x4xf32>
    %k = relay.layout_transform %w {dst_layout = "OIHW4i4o", src_layout = "OIHW"} : (tensor<8x8x3x3xf32>) -> tensor<2x2x3x3x4x4xf32>
    %b = relay.nn.contrib_conv2d_NCHWc %d, %k {channels = 8 : i64, data_layout = "NCHW4c", kernel_layout = "OIHW4i4o", out_layout = "NCHW4c"} : (tensor<1x2x5x5x4xf32>, tensor<2x2x3x3x4x4xf32>) -> tensor<1x2x3x3x4xf32>
    %br = relay.nn.relu %b : (tensor<1x2x3x3x4xf32>) -> tensor<1x2x3x3x4xf32>
    %r = relay.layout_transform %br {dst_layout = "NCHW", src_layout = "NCHW4c"} : (tensor<1x2x3x3x4xf32>) -> tensor<1x8x3x3xf32>
    ```
  }];
  let options = [
    Option<"simdLanes", "simd-lanes", "int64_t", /*default=*/"4",
           "The target's 32-bit SIMD lanes (TVM's get_simd_32bit_lanes: 16 "
           "with avx512f and avx512bw, 8 with avx2, else 4), the largest "
           "channel block">,
  ];
}

def RelayQnnLegalize : Pass<"relay-qnn-legalize", "::mlir::ModuleOp"> {
  let summary = "TVM 0.19's x86 rewrites of qnn.conv2d and qnn.dense "
                "(relay.qnn.transform.Legalize)";
  let description = [{
    By rewrite patterns (`populateQnnLegalizePatterns`), what TVM 0.19's
    qnn Legalize does to `relay.qnn.conv2d` and `relay.qnn.dense` for an
    x86 target; `fast-int8` says whether the target has sse4.2 (the Python
    pass reads it from the current tvm Target and does not run this pass
    without a CPU target). Without fast int8 the op becomes `relay.nn.conv2d`
    / `relay.nn.dense` (its attributes, out_dtype int32 unless given) of
    `cast(data, int16) - cast(input_zero_point, int16)` and
    `cast(weight, int16) - cast(kernel_zero_point, int16)` (a per-channel
    kernel zero point: `relay.nn.bias_add` of its negation on the kernel's
    O axis); the scales are dropped. With fast int8, int8 data becomes
    uint8 (`cast(cast(data, int32) + 128, uint8)`, the input zero point
    + 128: a new constant when it is a 0-d constant) and a uint8 weight int8
    (- 128); uint8 data with an int8 weight stay. Other qnn ops stay.

    ```mlir
    %y = relay.qnn.dense %x, %w, %zx, %zw, %sx, %sw {units = 4 : i64} : (tensor<2x8xi8>, tensor<4x8xi8>, tensor<i32>, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<2x4xi32>
    // becomes (fast-int8=false)
    %a = relay.cast %x {dtype = i16} : (tensor<2x8xi8>) -> tensor<2x8xi16>
    %b = relay.cast %zx {dtype = i16} : (tensor<i32>) -> tensor<i16>
    %d = relay.subtract %a, %b : (tensor<2x8xi16>, tensor<i16>) -> tensor<2x8xi16>
    // ... %k likewise from %w and %zw
    %y = relay.nn.dense %d, %k {out_dtype = i32, units = 4 : i64} : (tensor<2x8xi16>, tensor<4x8xi16>) -> tensor<2x4xi32>
    ```
  }];
  let options = [
    Option<"fastInt8", "fast-int8", "bool", /*default=*/"false",
           "The target has fast int8 arithmetic (x86 sse4.2): shift int8 "
           "data to uint8 and a uint8 kernel to int8 instead of widening "
           "to int16">,
  ];
}

#endif // RELAY_PASSES_TD
