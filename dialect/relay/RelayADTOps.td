//===- RelayADTOps.td - algebraic data types ---------------*- tablegen -*-===//
//
// Module-level ADT definitions (Relay's TypeData), constructor application
// and `match`.
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_ADT_OPS_TD
#define RELAY_ADT_OPS_TD

include "relay/RelayOpBase.td"
include "relay/RelayAttrs.td"
include "mlir/IR/SymbolInterfaces.td"
include "relay/RelayTypeEquations.td"

def Relay_ADTOp : Relay_Op<"adt", [Symbol, SymbolTable, IsolatedFromAbove,
    NoTerminator, SingleBlock, HasParent<"::mlir::ModuleOp">]> {
  let summary = "defines an algebraic data type (Relay's `type` / TypeData)";
  let description = [{
    Type parameters are named by strings and referred to in constructor
    fields as `!relay.tvar<"T">`.

    ```mlir
    relay.adt @List ["T"] {
      relay.constructor @Nil []
      relay.constructor @Cons [!relay.tvar<"T">, !relay.adt<@List, !relay.tvar<"T">>]
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, StrArrayAttr:$type_params);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$sym_name $type_params attr-dict-with-keyword $body";
  let hasVerifier = 1;
}

def Relay_ConstructorOp : Relay_Op<"constructor", [Symbol,
    HasParent<"ADTOp">, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "a constructor of an algebraic data type";
  let arguments = (ins SymbolNameAttr:$sym_name, TypeArrayAttr:$fields);
  let assemblyFormat = "$sym_name $fields attr-dict";
}

def Relay_ConstructOp : Relay_Op<"construct", [Pure,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>, DeclareOpInterfaceMethods<Relay_TypeEquationsOpInterface>]> {
  let summary = "applies a constructor";
  let description = [{
    Type arguments of the result are solved from the operand types; those
    no operand fixes (`Nil`) come from the declared result type or from
    `relay-infer-type`.

    ```mlir
    %l = relay.construct @List::@Cons(%x, %nil) : (tensor<f32>, !relay.adt<@List, tensor<f32>>) -> !relay.adt<@List, tensor<f32>>
    ```
  }];
  let arguments = (ins SymbolRefAttr:$constructor,
                       Variadic<Relay_AnyValue>:$fields);
  let results = (outs Relay_AnyValue:$result);
  let assemblyFormat = "$constructor `(` $fields `)` attr-dict `:` "
                       "functional-type($fields, results)";
}

def Relay_MatchOp : Relay_Op<"match", [RecursiveMemoryEffects,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>, DeclareOpInterfaceMethods<Relay_TypeEquationsOpInterface>]> {
  let summary = "pattern matching (Relay's `match`)";
  let description = [{
    One region per clause, tried in order; each region's block arguments
    are the variables its pattern binds. `complete = false` is Relay's
    `match?` (a partial match).

    ```mlir
    %r = relay.match %l : !relay.adt<@List, tensor<f32>> -> tensor<f32> {
      case #relay.pat_ctor<@List::@Cons, [#relay.pat_var, #relay.pat_wildcard]> (%h: tensor<f32>) {
        relay.yield %h : tensor<f32>
      }
      case #relay.pat_wildcard {
        relay.yield %zero : tensor<f32>
      }
    }
    ```
  }];
  let arguments = (ins Relay_AnyValue:$data, ArrayAttr:$patterns,
                       DefaultValuedAttr<BoolAttr, "true">:$complete);
  let results = (outs Relay_AnyValue:$result);
  let regions = (region VariadicRegion<SizedRegion<1>>:$clauses);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

#endif // RELAY_ADT_OPS_TD
