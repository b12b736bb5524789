//===- RelayOpBase.td - base classes of relay ops ----------*- tablegen -*-===//
#ifndef RELAY_OPBASE_TD
#define RELAY_OPBASE_TD

include "relay/RelayDialect.td"
include "relay/RelayTypeEquations.td"
include "relay/RelayTypes.td"
include "relay/RelayLayoutTraits.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class Relay_Op<string mnemonic, list<Trait> traits = []>
    : Op<Relay_Dialect, mnemonic, traits>;

// A Relay operator (as opposed to a language construct): pure, one result,
// written `relay.<name> %operands {attrs} : (operand types) -> result type`,
// typed by a typing rule (relay/RelayRelations.h).
//
// `typeRule` is the C++ call of the rule: an expression of type
// `FailureOr<Type>` over `site` (the ErrorSite to report at) and `adaptor`
// (the op's generated adaptor; read attributes through its accessors), e.g.
//   "inferBroadcast(site, adaptor.getLhs().getType(), adaptor.getRhs().getType())".
// It becomes the op's InferTypeOpInterface::inferReturnTypes, so
// `AddOp::create(builder, loc, x, y)` builds a typed op, and its verifier
// (relay::verifyInferredResultTypes). An operand whose type is or contains
// `!relay.incomplete` gives an incomplete result: the rule runs once
// relay-infer-type has filled the operands in.
class Relay_Operator<string mnemonic, list<Trait> traits = []>
    : Relay_Op<mnemonic, !listconcat(traits,
          [Pure, InferTypeOpAdaptorWithIsCompatible])> {
  code typeRule = ?;
  let results = (outs Relay_AnyValue:$result);
  let assemblyFormat =
      "operands attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *context, std::optional<::mlir::Location> location,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &results) {
      if (::mlir::relay::anyIncomplete(adaptor.getOperands().getTypes())) {
        results.push_back(::mlir::relay::IncompleteType::get(context, 0));
        return ::mlir::success();
      }
      adaptor = ::mlir::relay::withDefaultAttributes<$cppClass>(context,
                                                               adaptor);
      ::mlir::relay::ErrorSite site(location, getOperationName());
      return ::mlir::relay::addResult(results, }] # typeRule # [{);
    }
    bool $cppClass::isCompatibleReturnTypes(::mlir::TypeRange lhs,
                                            ::mlir::TypeRange rhs) {
      return ::mlir::relay::areCompatible(lhs, rhs);
    }
    ::llvm::LogicalResult $cppClass::verify() {
      return ::mlir::relay::verifyInferredResultTypes(getOperation());
    }
  }];
}

class Relay_UnaryOp<string mnemonic, list<Trait> traits = []>
    : Relay_Operator<mnemonic, !listconcat(traits, [Relay_ElementwiseUnary])> {
  let arguments = (ins Relay_AnyTensorOrIncomplete:$data);
  let typeRule = "inferIdentity(site, adaptor.getData().getType())";
}

class Relay_BinaryOp<string mnemonic, list<Trait> traits = []>
    : Relay_Operator<mnemonic,
                     !listconcat(traits, [Relay_ElementwiseBroadcast])> {
  let arguments = (ins Relay_AnyTensorOrIncomplete:$lhs,
                       Relay_AnyTensorOrIncomplete:$rhs);
  let typeRule = "inferBroadcast(site, adaptor.getLhs().getType(), "
                 "adaptor.getRhs().getType())";
}

// A language construct typed by a function of its operand types
// (tuple_get_item, grad; relay/RelayRelations.h): InferTypeOpInterface, with
// its `inferReturnTypes(context, location, adaptor, results)` written in
// lib/Relations/Language.cpp. Unlike operators, these rules accept partly
// known operand types (a field of an unknown tuple is unknown).
class Relay_LanguageRuleOp<string mnemonic, list<Trait> traits = []>
    : Relay_Op<mnemonic, !listconcat(traits,
          [InferTypeOpAdaptorWithIsCompatible])> {
  let results = (outs Relay_AnyValue:$result);
  let hasVerifier = 1;
  let extraClassDefinition = [{
    bool $cppClass::isCompatibleReturnTypes(::mlir::TypeRange lhs,
                                            ::mlir::TypeRange rhs) {
      return ::mlir::relay::areCompatible(lhs, rhs);
    }
    ::llvm::LogicalResult $cppClass::verify() {
      return ::mlir::relay::verifyInferredResultTypes(getOperation());
    }
  }];
}

// A language construct with one result typed by equations
// (relay/RelayTypeEquations.h; tuple, call, refs). Its one rule,
// `typeRule(equations, adaptor, result)` in lib/Relations/Language.cpp,
// serves the verifier and relay-infer-type (`buildTypeEquations`) and the
// typed builder (`inferReturnTypes` solves it for the result).
class Relay_EquationRuleOp<string mnemonic, list<Trait> traits = []>
    : Relay_Op<mnemonic, !listconcat(traits,
          [InferTypeOpAdaptorWithIsCompatible,
           DeclareOpInterfaceMethods<Relay_TypeEquationsOpInterface>])> {
  let results = (outs Relay_AnyValue:$result);
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The typing rule: equations between the operands' types (read
    /// through `adaptor`) and `result`, the result's type.
    static ::llvm::LogicalResult typeRule(::mlir::relay::TypeEquations &eq,
                                          Adaptor adaptor, ::mlir::Type result);
  }];
  let extraClassDefinition = [{
    bool $cppClass::isCompatibleReturnTypes(::mlir::TypeRange lhs,
                                            ::mlir::TypeRange rhs) {
      return ::mlir::relay::areCompatible(lhs, rhs);
    }
    ::llvm::LogicalResult $cppClass::verify() {
      return ::mlir::relay::verifyTypeEquationsOp(getOperation());
    }
    ::llvm::LogicalResult
    $cppClass::buildTypeEquations(::mlir::relay::TypeEquations &eq) {
      return typeRule(eq, Adaptor(*this), eq.typeOf(getResult()));
    }
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *ctx, ::std::optional<::mlir::Location> loc,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &results) {
      return ::mlir::relay::addResult(
          results, ::mlir::relay::inferResultByEquations(
                       ctx, loc,
                       [&](::mlir::relay::TypeEquations &eq,
                           ::mlir::Type result) {
                         return typeRule(eq, adaptor, result);
                       }));
    }
  }];
}

#endif // RELAY_OPBASE_TD
