//===- RelayOpBase.td - base classes of relay ops ----------*- tablegen -*-===//
#ifndef RELAY_OPBASE_TD
#define RELAY_OPBASE_TD

include "relay/RelayDialect.td"
include "relay/RelayTypes.td"
include "relay/RelayInterfaces.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class Relay_Op<string mnemonic, list<Trait> traits = []>
    : Op<Relay_Dialect, mnemonic, traits>;

// An op typed by the shared type relation `rel`: the C++ function
// `mlir::relay::rel::<rel>Rel` declared in relay/RelayRelations.h and
// defined in lib/Relations/. Verification and inference both call it.
class Relay_RelOp<string mnemonic, string rel, list<Trait> traits = []>
    : Relay_Op<mnemonic, !listconcat(traits,
          [DeclareOpInterfaceMethods<Relay_TypeRelationInterface>])> {
  string relation = rel;
  let extraClassDefinition = [{
    ::llvm::StringRef $cppClass::getRelationName() { return "}] # rel # [{"; }
    ::llvm::LogicalResult $cppClass::inferRelayTypes(
        ::mlir::TypeRange operandTypes,
        ::llvm::SmallVectorImpl<::mlir::Type> &resultTypes) {
      return ::mlir::relay::rel::}] # rel # [{Rel(getOperation(), operandTypes,
                                                   resultTypes);
    }
  }];
}

// A Relay operator (as opposed to a language construct): pure, one result,
// written `relay.<name> %operands {attrs} : (operand types) -> result type`.
class Relay_Operator<string mnemonic, string rel, list<Trait> traits = []>
    : Relay_RelOp<mnemonic, rel, !listconcat(traits, [Pure])> {
  let results = (outs Relay_AnyValue:$result);
  let assemblyFormat =
      "operands attr-dict `:` functional-type(operands, results)";
}

class Relay_UnaryOp<string mnemonic, string rel = "Identity",
                    list<Trait> traits = []>
    : Relay_Operator<mnemonic, rel, traits> {
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data);
}

class Relay_BinaryOp<string mnemonic, string rel = "Broadcast",
                     list<Trait> traits = []>
    : Relay_Operator<mnemonic, rel, traits> {
  let arguments = (ins Relay_AnyTensorOrIncomplete:$lhs,
                       Relay_AnyTensorOrIncomplete:$rhs);
}

#endif // RELAY_OPBASE_TD
