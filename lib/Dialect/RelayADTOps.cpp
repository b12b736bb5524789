//===- RelayADTOps.cpp - algebraic data types and match -------------------===//
#include "relay/RelayOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::relay;

LogicalResult ADTOp::verify() {
  llvm::StringSet<> seen;
  for (Attribute param : getTypeParams()) {
    StringRef name = cast<StringAttr>(param).getValue();
    if (!seen.insert(name).second)
      return emitOpError() << "type parameter \"" << name
                           << "\" is declared twice";
  }
  for (Operation &op : getBody().front())
    if (!isa<ConstructorOp>(op))
      return op.emitOpError() << "only relay.constructor may appear in a "
                                 "relay.adt body";
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
      parser.parseOptionalAttrDictWithKeyword(result.attributes) || parser.parseLBrace())
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
  p << " " << getData() << " : " << getData().getType() << " -> "
    << getType();
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
    return emitOpError() << "has " << getPatterns().size()
                         << " patterns but " << getClauses().size()
                         << " clauses";
  if (getClauses().empty())
    return emitOpError() << "needs at least one clause";
  for (auto [i, pair] : llvm::enumerate(llvm::zip(getPatterns(), getClauses()))) {
    auto &[pattern, region] = pair;
    FailureOr<unsigned> binders = countBinders(pattern);
    if (failed(binders))
      return emitOpError() << "clause #" << i << ": " << pattern
                           << " is not a relay pattern";
    if (region.front().getNumArguments() != *binders)
      return emitOpError() << "clause #" << i << " binds " << *binders
                           << " variables but its region has "
                           << region.front().getNumArguments()
                           << " arguments";
    auto yield = dyn_cast<YieldOp>(region.front().getTerminator());
    if (!yield)
      return emitOpError() << "clause #" << i << " must end with relay.yield";
    if (!areCompatible(yield.getValue().getType(), getType()))
      return emitOpError() << "clause #" << i << " yields "
                           << yield.getValue().getType()
                           << " but the result type is " << getType();
  }
  return success();
}
