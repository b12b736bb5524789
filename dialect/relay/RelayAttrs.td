//===- RelayAttrs.td - Relay's attributes ------------------*- tablegen -*-===//
//
// Patterns of `relay.match` (Relay's PatternWildcard, PatternVar,
// PatternConstructor and PatternTuple). A clause's region has one block
// argument per `#relay.pat_var` in its pattern, in depth-first order.
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_ATTRS_TD
#define RELAY_ATTRS_TD

include "relay/RelayDialect.td"
include "mlir/IR/AttrTypeBase.td"

class Relay_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Relay_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def Relay_PatWildcardAttr : Relay_Attr<"PatWildcard", "pat_wildcard"> {
  let summary = "matches anything, binds nothing (`_`)";
}

def Relay_PatVarAttr : Relay_Attr<"PatVar", "pat_var"> {
  let summary = "matches anything and binds it to the next block argument";
}

def Relay_PatCtorAttr : Relay_Attr<"PatCtor", "pat_ctor"> {
  let summary = "matches one constructor; sub-patterns match its fields";
  let description = [{
    ```mlir
    #relay.pat_ctor<@List::@Cons, [#relay.pat_var, #relay.pat_wildcard]>
    ```
  }];
  let parameters = (ins "::mlir::SymbolRefAttr":$constructor,
                        "::mlir::ArrayAttr":$fields);
  let assemblyFormat = "`<` $constructor `,` $fields `>`";
}

def Relay_PatTupleAttr : Relay_Attr<"PatTuple", "pat_tuple"> {
  let summary = "matches a tuple field by field";
  let parameters = (ins "::mlir::ArrayAttr":$fields);
  let assemblyFormat = "`<` $fields `>`";
}

#endif // RELAY_ATTRS_TD
