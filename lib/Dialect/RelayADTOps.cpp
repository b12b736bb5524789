//===- RelayADTOps.cpp - algebraic data types and match -------------------===//
#include "relay/RelayOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::relay;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Calls `fn` on `type` and every type nested in it.
static void walkNested(Type type, function_ref<void(Type)> fn) {
  fn(type);
  if (auto tuple = dyn_cast<TupleType>(type)) {
    for (Type t : tuple.getTypes())
      walkNested(t, fn);
  } else if (auto func = dyn_cast<FuncType>(type)) {
    for (Type t : func.getInputs())
      walkNested(t, fn);
    walkNested(func.getResult(), fn);
  } else if (auto ref = dyn_cast<RefType>(type)) {
    walkNested(ref.getElementType(), fn);
  } else if (auto adt = dyn_cast<ADTType>(type)) {
    for (Type t : adt.getArgs())
      walkNested(t, fn);
  }
}

/// Replaces the type parameters `params` of an ADT by `args` in `type`.
static Type substTypeParams(Type type, ArrayAttr params, ArrayRef<Type> args) {
  MLIRContext *ctx = type.getContext();
  auto all = [&](TypeRange types) {
    SmallVector<Type> out;
    for (Type t : types)
      out.push_back(substTypeParams(t, params, args));
    return out;
  };
  if (auto tvar = dyn_cast<TypeVarType>(type)) {
    for (auto [param, arg] : llvm::zip(params, args))
      if (cast<StringAttr>(param).getValue() == tvar.getName())
        return arg;
    return type;
  }
  if (auto tuple = dyn_cast<TupleType>(type))
    return TupleType::get(ctx, all(tuple.getTypes()));
  if (auto fn = dyn_cast<FuncType>(type))
    return FuncType::get(ctx, all(fn.getInputs()),
                         substTypeParams(fn.getResult(), params, args));
  if (auto ref = dyn_cast<RefType>(type))
    return RefType::get(ctx,
                        substTypeParams(ref.getElementType(), params, args));
  if (auto adt = dyn_cast<ADTType>(type))
    return ADTType::get(ctx, adt.getName(), all(adt.getArgs()));
  return type;
}

/// Every `!relay.adt<@X, ...>` in `type` must name a relay.adt of the
/// module with as many type parameters as it gives arguments. With
/// `moduleVerified` false (a relay.constructor, verified with its relay.adt
/// before the module has checked that its symbols are unique) the module's
/// relay.adt ops are searched one by one: building its SymbolTable would
/// assert on a duplicate symbol (which the module reports afterwards).
static LogicalResult verifyADTRefs(Operation *op, Type type, StringRef what,
                                   SymbolTableCollection &symbolTable,
                                   bool moduleVerified = true) {
  auto module = op->getParentOfType<ModuleOp>();
  if (!module)
    return success();
  LogicalResult result = success();
  walkNested(type, [&](Type t) {
    auto adt = dyn_cast<ADTType>(t);
    if (!adt || failed(result))
      return;
    ADTOp def;
    if (moduleVerified) {
      def = dyn_cast_or_null<ADTOp>(
          symbolTable.lookupSymbolIn(module, adt.getName()));
    } else {
      for (auto candidate : module.getOps<ADTOp>())
        if (candidate.getSymNameAttr() == adt.getName().getAttr()) {
          def = candidate;
          break;
        }
    }
    if (!def)
      result = op->emitOpError()
               << what << ": " << adt << " names " << adt.getName()
               << ", which is not a relay.adt";
    else if (def.getTypeParams().size() != adt.getArgs().size())
      result = op->emitOpError()
               << what << ": " << adt << " gives " << adt.getArgs().size()
               << " type arguments but " << adt.getName() << " has "
               << def.getTypeParams().size() << " type parameters";
  });
  return result;
}

LogicalResult ADTOp::verify() {
  llvm::StringSet<> seen;
  for (Attribute param : getTypeParams()) {
    StringRef name = cast<StringAttr>(param).getValue();
    if (!seen.insert(name).second)
      return emitOpError() << "type parameter \"" << name
                           << "\" is declared twice";
  }
  for (Operation &op : getBody().front()) {
    auto ctor = dyn_cast<ConstructorOp>(op);
    if (!ctor)
      return op.emitOpError() << "only relay.constructor may appear in a "
                                 "relay.adt body";
    for (auto [i, field] : llvm::enumerate(ctor.getFields())) {
      auto typeAttr = dyn_cast<TypeAttr>(field);
      if (!typeAttr)
        return ctor.emitOpError() << "field #" << i << " is not a type";
      std::optional<StringRef> unknown;
      bool incomplete = false;
      walkNested(typeAttr.getValue(), [&](Type t) {
        incomplete |= isa<IncompleteType>(t);
        if (auto tvar = dyn_cast<TypeVarType>(t))
          if (!unknown && !seen.contains(tvar.getName()))
            unknown = tvar.getName();
      });
      if (unknown)
        return ctor.emitOpError()
               << "field #" << i << " uses type parameter \"" << *unknown
               << "\", which @" << getSymName() << " does not declare";
      if (incomplete)
        return ctor.emitOpError()
               << "field #" << i << " has an incomplete type "
               << typeAttr.getValue();
    }
  }
  return success();
}

LogicalResult
ConstructorOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  for (auto [i, field] : llvm::enumerate(getFields()))
    if (auto typeAttr = dyn_cast<TypeAttr>(field))
      if (failed(verifyADTRefs(*this, typeAttr.getValue(),
                               "field #" + std::to_string(i), symbolTable,
                               /*moduleVerified=*/false)))
        return failure();
  return success();
}

LogicalResult
ConstructOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto ctor = symbolTable.lookupNearestSymbolFrom<ConstructorOp>(
      *this, getConstructorAttr());
  if (!ctor)
    return emitOpError() << getConstructor()
                         << " does not name a relay.constructor";
  if (ctor.getFields().size() != getFields().size())
    return emitOpError() << "constructor " << getConstructor() << " takes "
                         << ctor.getFields().size() << " fields, got "
                         << getFields().size();
  for (auto [i, type] : llvm::enumerate(getFields().getTypes()))
    if (failed(verifyADTRefs(*this, type, "field #" + std::to_string(i),
                             symbolTable)))
      return failure();
  if (failed(verifyADTRefs(*this, getType(), "result", symbolTable)))
    return failure();
  // The typing rule needs the constructor, hence runs here.
  if (anyIncomplete(getFields().getTypes()))
    return success(); // checked again once relay-infer-type filled them in
  FailureOr<Type> inferred =
      inferConstruct(*this, ctor, getFields().getTypes());
  if (failed(inferred))
    return failure();
  if (!areCompatible(*inferred, getType()))
    return emitOpError() << "result #0 has type " << getType()
                         << " but its typing rule gives " << *inferred;
  return success();
}

//===----------------------------------------------------------------------===//
// relay.match
//===----------------------------------------------------------------------===//

ParseResult MatchOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand data;
  Type dataType, resultType;
  if (parser.parseOperand(data) || parser.parseColon() ||
      parser.parseType(dataType) || parser.parseArrow() ||
      parser.parseType(resultType) ||
      parser.resolveOperand(data, dataType, result.operands) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes) ||
      parser.parseLBrace())
    return failure();
  result.addTypes(resultType);
  SmallVector<Attribute> patterns;
  while (succeeded(parser.parseOptionalKeyword("case"))) {
    Attribute pattern;
    if (parser.parseAttribute(pattern))
      return failure();
    patterns.push_back(pattern);
    SmallVector<OpAsmParser::Argument> args;
    if (parser.parseArgumentList(args, OpAsmParser::Delimiter::OptionalParen,
                                 /*allowType=*/true))
      return failure();
    Region *region = result.addRegion();
    if (parser.parseRegion(*region, args))
      return failure();
  }
  if (parser.parseRBrace())
    return failure();
  result.addAttribute(getPatternsAttrName(result.name),
                      parser.getBuilder().getArrayAttr(patterns));
  return success();
}

void MatchOp::print(OpAsmPrinter &p) {
  p << " " << getData() << " : " << getData().getType() << " -> " << getType();
  SmallVector<StringRef, 2> elided = {getPatternsAttrName()};
  if (getComplete())
    elided.push_back(getCompleteAttrName());
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs(), elided);
  p << " {";
  p.increaseIndent();
  for (auto [pattern, region] : llvm::zip(getPatterns(), getClauses())) {
    p.printNewline();
    p << "case " << pattern;
    Block &entry = region.front();
    if (entry.getNumArguments()) {
      p << " (";
      llvm::interleaveComma(entry.getArguments(), p, [&](BlockArgument arg) {
        p.printRegionArgument(arg);
      });
      p << ")";
    }
    p << " ";
    p.printRegion(region, /*printEntryBlockArgs=*/false);
  }
  p.decreaseIndent();
  p.printNewline();
  p << "}";
}

/// Number of variables `pattern` binds; fails on an attribute that is not a
/// pattern.
static FailureOr<unsigned> countBinders(Attribute pattern) {
  if (isa<PatWildcardAttr>(pattern))
    return 0u;
  if (isa<PatVarAttr>(pattern))
    return 1u;
  ArrayAttr fields;
  if (auto ctor = dyn_cast<PatCtorAttr>(pattern))
    fields = ctor.getFields();
  else if (auto tuple = dyn_cast<PatTupleAttr>(pattern))
    fields = tuple.getFields();
  else
    return failure();
  unsigned total = 0;
  for (Attribute field : fields) {
    FailureOr<unsigned> n = countBinders(field);
    if (failed(n))
      return failure();
    total += *n;
  }
  return total;
}

LogicalResult MatchOp::verify() {
  if (getPatterns().size() != getClauses().size())
    return emitOpError() << "has " << getPatterns().size() << " patterns but "
                         << getClauses().size() << " clauses";
  if (getClauses().empty())
    return emitOpError() << "needs at least one clause";
  for (auto [i, pair] :
       llvm::enumerate(llvm::zip(getPatterns(), getClauses()))) {
    auto &[pattern, region] = pair;
    FailureOr<unsigned> binders = countBinders(pattern);
    if (failed(binders))
      return emitOpError() << "clause #" << i << ": " << pattern
                           << " is not a relay pattern";
    if (region.front().getNumArguments() != *binders)
      return emitOpError() << "clause #" << i << " binds " << *binders
                           << " variables but its region has "
                           << region.front().getNumArguments() << " arguments";
    // (the region's block is not verified yet: it may lack a terminator)
    Block &block = region.front();
    auto yield = block.empty() ? YieldOp() : dyn_cast<YieldOp>(block.back());
    if (!yield)
      return emitOpError() << "clause #" << i << " must end with relay.yield";
    if (!areCompatible(yield.getValue().getType(), getType()))
      return emitOpError() << "clause #" << i << " yields "
                           << yield.getValue().getType()
                           << " but the result type is " << getType();
  }
  return success();
}

namespace {
/// Checks the patterns of one match clause against the type they match.
struct PatternChecker {
  MatchOp op;
  ModuleOp module;
  SymbolTableCollection &symbolTable;
  unsigned clause;
  Block::BlockArgListType args;
  unsigned next = 0;

  InFlightDiagnostic error() {
    return op.emitOpError() << "clause #" << clause << ": ";
  }

  /// `type` is what the pattern matches, or null when not known yet.
  LogicalResult check(Attribute pattern, Type type) {
    if (type && isa<IncompleteType>(type))
      type = {};
    if (isa<PatWildcardAttr>(pattern))
      return success();
    if (isa<PatVarAttr>(pattern)) {
      if (next >= args.size())
        return error() << "more pattern variables than block arguments";
      BlockArgument arg = args[next++];
      if (type && !areCompatible(arg.getType(), type))
        return error() << "pattern variable #" << arg.getArgNumber()
                       << " has type " << arg.getType()
                       << " but the pattern binds a value of type " << type;
      return success();
    }
    if (auto pat = dyn_cast<PatCtorAttr>(pattern)) {
      auto ctor = dyn_cast_or_null<ConstructorOp>(
          module ? symbolTable.lookupSymbolIn(module, pat.getConstructor())
                 : nullptr);
      if (!ctor)
        return error() << pat.getConstructor()
                       << " does not name a relay.constructor";
      auto adt = cast<ADTOp>(ctor->getParentOp());
      ArrayAttr fields = ctor.getFields();
      if (fields.size() != pat.getFields().size())
        return error() << "constructor " << pat.getConstructor() << " has "
                       << fields.size() << " fields but the pattern gives "
                       << pat.getFields().size();
      SmallVector<Type> typeArgs;
      if (type) {
        auto adtType = dyn_cast<ADTType>(type);
        if (!adtType || adtType.getName().getValue() != adt.getSymName())
          return error() << "constructor " << pat.getConstructor() << " (of @"
                         << adt.getSymName()
                         << ") cannot match a value of type " << type;
        if (adtType.getArgs().size() == adt.getTypeParams().size())
          typeArgs.assign(adtType.getArgs().begin(), adtType.getArgs().end());
      }
      for (auto [sub, field] : llvm::zip(pat.getFields(), fields)) {
        Type fieldType;
        if (!typeArgs.empty() || (type && adt.getTypeParams().empty()))
          fieldType = substTypeParams(cast<TypeAttr>(field).getValue(),
                                      adt.getTypeParams(), typeArgs);
        if (failed(check(sub, fieldType)))
          return failure();
      }
      return success();
    }
    if (auto pat = dyn_cast<PatTupleAttr>(pattern)) {
      TupleType tuple;
      if (type) {
        tuple = dyn_cast<TupleType>(type);
        if (!tuple || tuple.size() != pat.getFields().size())
          return error() << "a tuple pattern of " << pat.getFields().size()
                         << " fields cannot match a value of type " << type;
      }
      for (auto [i, sub] : llvm::enumerate(pat.getFields()))
        if (failed(check(sub, tuple ? tuple.getType(i) : Type())))
          return failure();
      return success();
    }
    return error() << pattern << " is not a relay pattern";
  }
};
} // namespace

LogicalResult MatchOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  if (failed(verifyADTRefs(*this, getData().getType(), "scrutinee",
                           symbolTable)) ||
      failed(verifyADTRefs(*this, getType(), "result", symbolTable)))
    return failure();
  auto module = (*this)->getParentOfType<ModuleOp>();
  for (auto [i, pair] :
       llvm::enumerate(llvm::zip(getPatterns(), getClauses()))) {
    auto &[pattern, region] = pair;
    for (BlockArgument arg : region.front().getArguments())
      if (failed(verifyADTRefs(*this, arg.getType(),
                               "clause #" + std::to_string(i), symbolTable)))
        return failure();
    PatternChecker checker{*this, module, symbolTable, (unsigned)i,
                           region.front().getArguments()};
    if (failed(checker.check(pattern, getData().getType())))
      return failure();
  }
  return success();
}
