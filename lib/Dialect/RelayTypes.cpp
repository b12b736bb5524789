//===- RelayTypes.cpp - Relay's types -------------------------------------===//
#include "relay/RelayDialect.h"
#include "relay/RelayGenerics.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/DenseSet.h"
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

//===----------------------------------------------------------------------===//
// Structural rebuilding
//===----------------------------------------------------------------------===//

Type mlir::relay::transformType(Type type, function_ref<Type(Type)> leaf) {
  if (Type replaced = leaf(type))
    return replaced;
  auto all = [&](TypeRange types) {
    SmallVector<Type> out;
    for (Type t : types)
      out.push_back(transformType(t, leaf));
    return out;
  };
  MLIRContext *ctx = type.getContext();
  if (auto tuple = dyn_cast<TupleType>(type))
    return TupleType::get(ctx, all(tuple.getTypes()));
  if (auto fn = dyn_cast<FuncType>(type))
    return FuncType::get(ctx, all(fn.getInputs()),
                         transformType(fn.getResult(), leaf));
  if (auto fn = dyn_cast<FunctionType>(type))
    return FunctionType::get(ctx, all(fn.getInputs()), all(fn.getResults()));
  if (auto ref = dyn_cast<RefType>(type))
    return RefType::get(ctx, transformType(ref.getElementType(), leaf));
  if (auto adt = dyn_cast<ADTType>(type))
    return ADTType::get(ctx, adt.getName(), all(adt.getArgs()));
  return type;
}

void mlir::relay::walkType(Type type, function_ref<void(Type)> fn) {
  fn(type);
  if (auto func = dyn_cast<FunctionType>(type)) {
    for (Type t : func.getInputs())
      walkType(t, fn);
    for (Type t : func.getResults())
      walkType(t, fn);
    return;
  }
  forEachChild(type, [&](Type t) { walkType(t, fn); });
}

//===----------------------------------------------------------------------===//
// Generic functions
//===----------------------------------------------------------------------===//

ArrayAttr mlir::relay::getTypeParams(func::FuncOp fn) {
  return fn->getAttrOfType<ArrayAttr>(kTypeParamsAttrName);
}

LogicalResult mlir::relay::verifyTypeParams(func::FuncOp fn) {
  Attribute attr = fn->getAttr(kTypeParamsAttrName);
  if (!attr)
    return success();
  auto params = dyn_cast<ArrayAttr>(attr);
  if (!params)
    return fn.emitError() << "'" << kTypeParamsAttrName
                          << "' must be an array of type parameter names";
  if (params.empty())
    return fn.emitError() << "'" << kTypeParamsAttrName
                          << "' must name at least one type parameter "
                             "(drop it for a non-generic function)";
  llvm::SmallDenseSet<StringRef> seen;
  for (Attribute param : params) {
    auto name = dyn_cast<StringAttr>(param);
    if (!name || name.getValue().empty())
      return fn.emitError()
             << "'" << kTypeParamsAttrName
             << "' must hold non-empty strings (type parameter names), got "
             << param;
    if (!seen.insert(name.getValue()).second)
      return fn.emitError() << "type parameter \"" << name.getValue()
                            << "\" is declared twice";
  }
  LogicalResult result = success();
  walkType(fn.getFunctionType(), [&](Type t) {
    auto tvar = dyn_cast<TypeVarType>(t);
    if (!tvar || failed(result) || seen.contains(tvar.getName()))
      return;
    result = fn.emitError()
             << "signature mentions " << tvar
             << ", which is not one of its type parameters " << params;
  });
  return result;
}

/// The index of the parameter `tvar` names in `params`, if any.
static std::optional<size_t> paramIndex(ArrayAttr params, TypeVarType tvar) {
  for (auto [i, param] : llvm::enumerate(params))
    if (auto name = dyn_cast<StringAttr>(param))
      if (name.getValue() == tvar.getName())
        return i;
  return std::nullopt;
}

Type mlir::relay::substituteTypeParams(Type type, ArrayAttr params,
                                       ArrayRef<Type> args) {
  return transformType(type, [&](Type t) -> Type {
    auto tvar = dyn_cast<TypeVarType>(t);
    if (!tvar)
      return {};
    std::optional<size_t> i = paramIndex(params, tvar);
    if (!i || *i >= args.size() || !args[*i])
      return {};
    return args[*i];
  });
}

Type mlir::relay::mergeCompatibleTypes(Type a, Type b) {
  if (isa<IncompleteType>(a))
    return b;
  if (isa<IncompleteType>(b) || a == b)
    return a;
  MLIRContext *ctx = a.getContext();
  auto mergeAll = [&](TypeRange xs, TypeRange ys) {
    SmallVector<Type> out;
    for (auto [x, y] : llvm::zip(xs, ys))
      out.push_back(mergeCompatibleTypes(x, y));
    return out;
  };
  if (auto ta = dyn_cast<RankedTensorType>(a)) {
    auto tb = cast<RankedTensorType>(b);
    SmallVector<int64_t> dims;
    for (auto [da, db] : llvm::zip(ta.getShape(), tb.getShape()))
      dims.push_back(ShapedType::isDynamic(da) ? db : da);
    return RankedTensorType::get(dims, ta.getElementType(), ta.getEncoding());
  }
  if (auto ta = dyn_cast<TupleType>(a))
    return TupleType::get(
        ctx, mergeAll(ta.getTypes(), cast<TupleType>(b).getTypes()));
  if (auto fa = dyn_cast<FuncType>(a)) {
    auto fb = cast<FuncType>(b);
    return FuncType::get(ctx, mergeAll(fa.getInputs(), fb.getInputs()),
                         mergeCompatibleTypes(fa.getResult(), fb.getResult()));
  }
  if (auto ra = dyn_cast<RefType>(a))
    return RefType::get(
        ctx, mergeCompatibleTypes(ra.getElementType(),
                                  cast<RefType>(b).getElementType()));
  if (auto aa = dyn_cast<ADTType>(a))
    return ADTType::get(ctx, aa.getName(),
                        mergeAll(aa.getArgs(), cast<ADTType>(b).getArgs()));
  return a;
}

/// matchTypeParams on one pair of (sub)types, filling `args`.
static bool matchInto(Type generic, Type instance, ArrayAttr params,
                      SmallVectorImpl<Type> &args) {
  if (auto tvar = dyn_cast<TypeVarType>(generic))
    if (std::optional<size_t> i = paramIndex(params, tvar)) {
      Type &slot = args[*i];
      if (!slot) {
        slot = instance;
        return true;
      }
      if (!areCompatible(slot, instance))
        return false;
      slot = mergeCompatibleTypes(slot, instance);
      return true;
    }
  if (isa<IncompleteType>(generic) || isa<IncompleteType>(instance))
    return true;
  if (generic.getTypeID() != instance.getTypeID())
    return false;
  auto matchAll = [&](TypeRange gs, TypeRange is) {
    if (gs.size() != is.size())
      return false;
    for (auto [g, i] : llvm::zip(gs, is))
      if (!matchInto(g, i, params, args))
        return false;
    return true;
  };
  if (auto fg = dyn_cast<FunctionType>(generic)) {
    auto fi = cast<FunctionType>(instance);
    return matchAll(fg.getInputs(), fi.getInputs()) &&
           matchAll(fg.getResults(), fi.getResults());
  }
  if (auto ag = dyn_cast<ADTType>(generic))
    if (ag.getName() != cast<ADTType>(instance).getName())
      return false;
  SmallVector<Type> gs, is;
  forEachChild(generic, [&](Type t) { gs.push_back(t); });
  forEachChild(instance, [&](Type t) { is.push_back(t); });
  if (gs.empty() && is.empty())
    return areCompatible(generic, instance);
  return matchAll(gs, is);
}

FailureOr<SmallVector<Type>>
mlir::relay::matchTypeParams(Type generic, Type instance, ArrayAttr params) {
  SmallVector<Type> args(params.size());
  if (!matchInto(generic, instance, params, args))
    return failure();
  return args;
}
