//===- RelayTypes.td - Relay's types -----------------------*- tablegen -*-===//
//
// Tensors are builtin ranked tensors (`?` = Relay `Any`) and tuples are the
// builtin `tuple<...>`; this file adds the types Relay has beyond those.
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_TYPES_TD
#define RELAY_TYPES_TD

include "relay/RelayDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"
include "mlir/IR/CommonTypeConstraints.td"

class Relay_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Relay_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Relay_IncompleteType : Relay_Type<"Incomplete", "incomplete"> {
  let summary = "a type not yet known (Relay's IncompleteType)";
  let description = [{
    A hole that `relay-infer-type` fills in. Written `!relay.incomplete` in
    source programs; the inference pass numbers the holes internally
    (`!relay.incomplete<3>`) while it solves, and none survive it.

    ```mlir
    %0 = relay.add %a, %b : (tensor<2xf32>, tensor<2xf32>) -> !relay.incomplete
    ```
  }];
  let parameters = (ins DefaultValuedParameter<"unsigned", "0">:$id);
  let assemblyFormat = "(`<` $id^ `>`)?";
}

def Relay_FuncType : Relay_Type<"Func", "fn"> {
  let summary = "the type of a function or closure value";
  let description = [{
    Relay's `fn(T1, T2) -> R`: one result (a tuple when several values are
    returned).

    ```mlir
    !relay.fn<(tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>>
    !relay.fn<() -> tuple<>>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"::mlir::Type">:$inputs,
                        "::mlir::Type":$result);
  let hasCustomAssemblyFormat = 1;
}

def Relay_RefType : Relay_Type<"Ref", "ref"> {
  let summary = "a mutable reference cell (Relay's RefType)";
  let description = [{
    ```mlir
    !relay.ref<tensor<f32>>
    ```
  }];
  let parameters = (ins "::mlir::Type":$elementType);
  let assemblyFormat = "`<` $elementType `>`";
}

def Relay_TypeVarType : Relay_Type<"TypeVar", "tvar"> {
  let summary = "a type parameter of an algebraic data type";
  let description = [{
    Names a parameter of a `relay.adt` definition inside its constructors'
    field types.

    ```mlir
    !relay.tvar<"T">
    ```
  }];
  let parameters = (ins StringRefParameter<>:$name);
  let assemblyFormat = "`<` $name `>`";
}

def Relay_ADTType : Relay_Type<"ADT", "adt"> {
  let summary = "an algebraic data type applied to type arguments";
  let description = [{
    Refers to a module-level `relay.adt` definition by symbol, applied to
    as many type arguments as it has type parameters.

    ```mlir
    !relay.adt<@List, tensor<f32>>
    !relay.adt<@Nat>
    ```
  }];
  let parameters = (ins "::mlir::FlatSymbolRefAttr":$name,
                        ArrayRefParameter<"::mlir::Type">:$args);
  let hasCustomAssemblyFormat = 1;
}

//===----------------------------------------------------------------------===//
// Type constraints used by the ops.
//===----------------------------------------------------------------------===//

def Relay_AnyTensorOrIncomplete
    : AnyTypeOf<[AnyRankedTensor, Relay_IncompleteType],
                "ranked tensor (or a type to infer)">;
def Relay_AnyValue : AnyTypeOf<[AnyType], "any relay type">;

#endif // RELAY_TYPES_TD
