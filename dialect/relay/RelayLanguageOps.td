//===- RelayLanguageOps.td - Relay's functional core -------*- tablegen -*-===//
//
// Constants, tuples, closures, calls, `if`, references and `grad`.
// Module-level (global) functions are `func.func` and direct calls to them
// are `func.call`; algebraic data types live in RelayADTOps.td.
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_LANGUAGE_OPS_TD
#define RELAY_LANGUAGE_OPS_TD

include "relay/RelayOpBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "relay/RelayTypeEquations.td"

def Relay_ConstantOp : Relay_Op<"constant",
    [ConstantLike, Pure, AllTypesMatch<["value", "result"]>]> {
  let summary = "a tensor constant (Relay's `const`)";
  let description = [{
    ```mlir
    %w = relay.constant dense<[1.0, 2.0]> : tensor<2xf32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
}

def Relay_TupleOp : Relay_EquationRuleOp<"tuple", [Pure]> {
  let summary = "builds a tuple (Relay's `Tuple`)";
  let description = [{
    ```mlir
    %t = relay.tuple %a, %b : (tensor<2xf32>, tensor<f32>) -> tuple<tensor<2xf32>, tensor<f32>>
    ```
  }];
  let arguments = (ins Variadic<Relay_AnyValue>:$fields);
  let assemblyFormat =
      "$fields attr-dict `:` functional-type($fields, results)";
}

def Relay_TupleGetItemOp : Relay_LanguageRuleOp<"tuple_get_item", [Pure]> {
  let summary = "projects a tuple field (Relay's `TupleGetItem`)";
  let description = [{
    ```mlir
    %a = relay.tuple_get_item %t[0] : (tuple<tensor<2xf32>, tensor<f32>>) -> tensor<2xf32>
    ```
  }];
  let arguments = (ins Relay_AnyValue:$tuple, I64Attr:$index);
  let assemblyFormat = "$tuple `[` $index `]` attr-dict `:` "
                       "functional-type($tuple, results)";
  let hasFolder = 1;
}

def Relay_YieldOp : Relay_Op<"yield", [Pure, Terminator, ReturnLike,
    ParentOneOf<["IfOp", "FnOp", "MatchOp"]>]> {
  let summary = "the value of a region of `if`, `fn` or `match`";
  let description = [{
    ```mlir
    relay.yield %x : tensor<2xf32>
    ```
  }];
  let arguments = (ins Relay_AnyValue:$value);
  let assemblyFormat = "$value attr-dict `:` type($value)";
}

def Relay_IfOp : Relay_Op<"if", [RecursiveMemoryEffects,
    NoRegionArguments, DeclareOpInterfaceMethods<Relay_TypeEquationsOpInterface>]> {
  let summary = "a conditional expression (Relay's `If`)";
  let description = [{
    The condition is a rank-0 `i1` tensor; both branches yield a value of
    the result type.

    ```mlir
    %r = relay.if %c : tensor<i1> -> tensor<2xf32> {
      relay.yield %a : tensor<2xf32>
    } else {
      relay.yield %b : tensor<2xf32>
    }
    ```
  }];
  let arguments = (ins Relay_AnyValue:$cond);
  let results = (outs Relay_AnyValue:$result);
  let regions = (region SizedRegion<1>:$thenRegion,
                        SizedRegion<1>:$elseRegion);
  let assemblyFormat = "$cond `:` type($cond) `->` type($result) "
                       "$thenRegion `else` $elseRegion attr-dict";
  let hasVerifier = 1;
}

def Relay_FnOp : Relay_Op<"fn", [RecursiveMemoryEffects,
    DeclareOpInterfaceMethods<Relay_TypeEquationsOpInterface>]> {
  let summary = "a closure (Relay's anonymous `fn`)";
  let description = [{
    Creates a function value. The region's entry block arguments are the
    parameters; the region may use any value defined outside it, which the
    closure captures.

    ```mlir
    %scale = relay.fn : !relay.fn<(tensor<2xf32>) -> tensor<2xf32>> {
    ^bb0(%x: tensor<2xf32>):
      %y = relay.multiply %x, %k : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      relay.yield %y : tensor<2xf32>
    }
    ```

    A `recursive` closure refers to itself (Relay's
    `let %loop = fn (...) { ... %loop(...) ... }`): the entry block's first
    argument is the closure itself, of the op's result type, and the
    parameters follow it.

    ```mlir
    %loop = relay.fn recursive : !relay.fn<(tensor<i32>) -> tensor<i32>> {
    ^bb0(%self: !relay.fn<(tensor<i32>) -> tensor<i32>>, %i: tensor<i32>):
      %c = relay.less %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %r = relay.if %c : tensor<i1> -> tensor<i32> {
        %j = relay.add %i, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
        %k = relay.call %self(%j) : (!relay.fn<(tensor<i32>) -> tensor<i32>>, tensor<i32>) -> tensor<i32>
        relay.yield %k : tensor<i32>
      } else {
        relay.yield %i : tensor<i32>
      }
      relay.yield %r : tensor<i32>
    }
    ```
  }];
  let arguments = (ins UnitAttr:$recursive);
  let results = (outs Relay_AnyValue:$result);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat =
      "(`recursive` $recursive^)? attr-dict `:` type($result) $body";
  let extraClassDeclaration = [{
    /// The entry block arguments that are parameters (without the self
    /// reference of a recursive closure).
    ::mlir::Block::BlockArgListType getParams() {
      return getBody().front().getArguments().drop_front(
          getRecursive() ? 1 : 0);
    }
  }];
  let hasVerifier = 1;
}

def Relay_GlobalFnOp : Relay_Op<"global_fn", [Pure,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>, DeclareOpInterfaceMethods<Relay_TypeEquationsOpInterface>]> {
  let summary = "a module-level function as a value (Relay's `GlobalVar`)";
  let description = [{
    ```mlir
    %f = relay.global_fn @square : !relay.fn<(tensor<f32>) -> tensor<f32>>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee);
  let results = (outs Relay_AnyValue:$result);
  let assemblyFormat = "$callee attr-dict `:` type($result)";
}

def Relay_ClosureOp : Relay_Op<"closure", [Pure,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>, DeclareOpInterfaceMethods<Relay_TypeEquationsOpInterface>]> {
  let summary = "a lambda-lifted closure: a module function and its captures";
  let description = [{
    What `relay-lambda-lift` puts in place of a `relay.fn`: the function
    value that applies `@callee` to the captured values followed by its own
    arguments. `@callee` is a `func.func` whose parameters are the capture
    types followed by the closure's parameter types and whose one result is
    the closure's result type. `relay-defunctionalize` turns it into a
    constructor of the closure type's ADT.

    ```mlir
    %f = relay.closure @main$fn0(%b : tensor<4xf32>) : !relay.fn<(tensor<4xf32>) -> tensor<4xf32>>
    %g = relay.closure @main$fn1() : !relay.fn<(tensor<4xf32>) -> tensor<4xf32>>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee,
                       Variadic<Relay_AnyValue>:$captures);
  let results = (outs Relay_AnyValue:$result);
  let assemblyFormat = "$callee `(` ($captures^ `:` type($captures))? `)` "
                       "attr-dict `:` type($result)";
}

def Relay_CallOp : Relay_EquationRuleOp<"call"> {
  let summary = "calls a function value (closure or global)";
  let description = [{
    Direct calls of module-level functions are `func.call`; `relay.call`
    applies a value of type `!relay.fn<...>`.

    ```mlir
    %y = relay.call %f(%x) : (!relay.fn<(tensor<2xf32>) -> tensor<2xf32>>, tensor<2xf32>) -> tensor<2xf32>
    ```
  }];
  let arguments = (ins Relay_AnyValue:$callee, Variadic<Relay_AnyValue>:$args);
  let assemblyFormat = "$callee `(` $args `)` attr-dict `:` "
                       "functional-type(operands, results)";
}

def Relay_RefNewOp : Relay_EquationRuleOp<"ref_new",
    [MemoryEffects<[MemAlloc]>]> {
  let summary = "allocates a reference cell (Relay's `RefCreate`)";
  let description = [{
    ```mlir
    %r = relay.ref_new %x : (tensor<f32>) -> !relay.ref<tensor<f32>>
    ```
  }];
  let arguments = (ins Relay_AnyValue:$value);
  let assemblyFormat = "$value attr-dict `:` functional-type(operands, results)";
}

def Relay_RefReadOp : Relay_EquationRuleOp<"ref_read",
    [MemoryEffects<[MemRead]>]> {
  let summary = "reads a reference cell (Relay's `RefRead`)";
  let description = [{
    ```mlir
    %v = relay.ref_read %r : (!relay.ref<tensor<f32>>) -> tensor<f32>
    ```
  }];
  let arguments = (ins Relay_AnyValue:$ref);
  let assemblyFormat = "$ref attr-dict `:` functional-type(operands, results)";
}

def Relay_RefWriteOp : Relay_EquationRuleOp<"ref_write",
    [MemoryEffects<[MemWrite]>]> {
  let summary = "writes a reference cell (Relay's `RefWrite`); yields ()";
  let description = [{
    ```mlir
    %u = relay.ref_write %r, %v : (!relay.ref<tensor<f32>>, tensor<f32>) -> tuple<>
    ```
  }];
  let arguments = (ins Relay_AnyValue:$ref, Relay_AnyValue:$value);
  let assemblyFormat =
      "$ref `,` $value attr-dict `:` functional-type(operands, results)";
}

def Relay_GradOp : Relay_LanguageRuleOp<"grad", [Pure]> {
  let summary = "the gradient of a function (Relay's `gradient`)";
  let description = [{
    Typed as in Relay: a function `fn(T1..Tn) -> R` becomes
    `fn(T1..Tn) -> (R, (T1..Tn))`, returning the value and the gradient
    with respect to each parameter. `relay-gradient` expands it (reverse
    mode; docs/autodiff.md).

    DLVM-style declarations change what is differentiated and returned:
    * `wrt = array<i64: i, ...>`: only these parameters (by position) get
      a gradient, in this order;
    * `keeping = false`: return only the gradients' tuple, not `(R, grads)`;
    * `seedable`: the function takes the adjoint of `R` (of R's type) as an
      extra last parameter instead of seeding with ones.

    ```mlir
    %g = relay.grad %f : (!relay.fn<(tensor<f32>) -> tensor<f32>>) -> !relay.fn<(tensor<f32>) -> tuple<tensor<f32>, tuple<tensor<f32>>>>
    %h = relay.grad %f {wrt = array<i64: 1>, keeping = false, seedable} : (!relay.fn<(tensor<f32>, tensor<2xf32>) -> tensor<f32>>) -> !relay.fn<(tensor<f32>, tensor<2xf32>, tensor<f32>) -> tuple<tensor<2xf32>>>
    ```
  }];
  let arguments = (ins Relay_AnyValue:$fn,
                       OptionalAttr<DenseI64ArrayAttr>:$wrt,
                       DefaultValuedAttr<BoolAttr, "true">:$keeping,
                       UnitAttr:$seedable);
  let assemblyFormat = "$fn attr-dict `:` functional-type(operands, results)";
}

#endif // RELAY_LANGUAGE_OPS_TD
