//===- RelayTypes.cpp - Relay's types -------------------------------------===//
#include "relay/RelayDialect.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::relay;

#define GET_TYPEDEF_CLASSES
#include "relay/RelayTypes.cpp.inc"

void RelayDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "relay/RelayTypes.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// !relay.fn<(T...) -> R>
//===----------------------------------------------------------------------===//

Type FuncType::parse(AsmParser &parser) {
  SmallVector<Type> inputs;
  Type result;
  if (parser.parseLess() ||
      parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Paren,
          [&] { return parser.parseType(inputs.emplace_back()); }) ||
      parser.parseArrow() || parser.parseType(result) || parser.parseGreater())
    return {};
  return FuncType::get(parser.getContext(), inputs, result);
}

void FuncType::print(AsmPrinter &printer) const {
  printer << "<(";
  llvm::interleaveComma(getInputs(), printer);
  printer << ") -> " << getResult() << ">";
}

//===----------------------------------------------------------------------===//
// !relay.adt<@Name, T...>
//===----------------------------------------------------------------------===//

Type ADTType::parse(AsmParser &parser) {
  FlatSymbolRefAttr name;
  SmallVector<Type> args;
  if (parser.parseLess() || parser.parseAttribute(name))
    return {};
  while (succeeded(parser.parseOptionalComma()))
    if (parser.parseType(args.emplace_back()))
      return {};
  if (parser.parseGreater())
    return {};
  return ADTType::get(parser.getContext(), name, args);
}

void ADTType::print(AsmPrinter &printer) const {
  printer << "<" << getName();
  for (Type arg : getArgs())
    printer << ", " << arg;
  printer << ">";
}

//===----------------------------------------------------------------------===//
// Structural queries
//===----------------------------------------------------------------------===//

/// Calls `fn` on each type directly nested in `type`.
static void forEachChild(Type type, function_ref<void(Type)> fn) {
  if (auto tuple = dyn_cast<TupleType>(type))
    for (Type t : tuple.getTypes())
      fn(t);
  else if (auto func = dyn_cast<FuncType>(type)) {
    for (Type t : func.getInputs())
      fn(t);
    fn(func.getResult());
  } else if (auto ref = dyn_cast<RefType>(type))
    fn(ref.getElementType());
  else if (auto adt = dyn_cast<ADTType>(type))
    for (Type t : adt.getArgs())
      fn(t);
}

bool mlir::relay::isComplete(Type type) {
  if (isa<IncompleteType>(type))
    return false;
  bool complete = true;
  forEachChild(type, [&](Type t) { complete &= isComplete(t); });
  return complete;
}

bool mlir::relay::areCompatible(Type a, Type b) {
  if (a == b || isa<IncompleteType>(a) || isa<IncompleteType>(b))
    return true;
  if (auto ta = dyn_cast<RankedTensorType>(a)) {
    auto tb = dyn_cast<RankedTensorType>(b);
    if (!tb || ta.getElementType() != tb.getElementType() ||
        ta.getRank() != tb.getRank())
      return false;
    for (auto [da, db] : llvm::zip(ta.getShape(), tb.getShape()))
      if (!ShapedType::isDynamic(da) && !ShapedType::isDynamic(db) && da != db)
        return false;
    return true;
  }
  if (a.getTypeID() != b.getTypeID())
    return false;
  SmallVector<Type> ca, cb;
  forEachChild(a, [&](Type t) { ca.push_back(t); });
  forEachChild(b, [&](Type t) { cb.push_back(t); });
  if (ca.size() != cb.size() || ca.empty())
    return false;
  if (auto adtA = dyn_cast<ADTType>(a))
    if (adtA.getName() != cast<ADTType>(b).getName())
      return false;
  for (auto [x, y] : llvm::zip(ca, cb))
    if (!areCompatible(x, y))
      return false;
  return true;
}

bool mlir::relay::areCompatible(TypeRange a, TypeRange b) {
  if (a.size() != b.size())
    return false;
  for (auto [x, y] : llvm::zip(a, b))
    if (!areCompatible(x, y))
      return false;
  return true;
}
