//===- RelayADTOps.cpp - algebraic data types and match -------------------===//
#include "relay/RelayGenerics.h"
#include "relay/RelayOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::relay;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

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
  walkType(type, [&](Type t) {
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
      walkType(typeAttr.getValue(), [&](Type t) {
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
  return checkTypeEquations(*this, &symbolTable);
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
  // (no clause: a scrutinee of an ADT without constructors, which no value
  // has; checked with the symbol table)
  if (getClauses().empty() && !isa<ADTType>(getData().getType()))
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
  }
  return success();
}

LogicalResult MatchOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  if (failed(verifyADTRefs(*this, getData().getType(), "scrutinee",
                           symbolTable)) ||
      failed(verifyADTRefs(*this, getType(), "result", symbolTable)))
    return failure();
  if (getClauses().empty()) {
    auto adt = cast<ADTType>(getData().getType());
    auto def = dyn_cast_or_null<ADTOp>(symbolTable.lookupSymbolIn(
        (*this)->getParentOfType<ModuleOp>(), adt.getName()));
    if (def && !def.getBody().front().empty())
      return emitOpError() << "needs at least one clause (" << adt.getName()
                           << " has constructors)";
  }
  for (auto [i, region] : llvm::enumerate(getClauses()))
    for (BlockArgument arg : region.front().getArguments())
      if (failed(verifyADTRefs(*this, arg.getType(),
                               "clause #" + std::to_string(i), symbolTable)))
        return failure();
  return checkTypeEquations(*this, &symbolTable);
}
