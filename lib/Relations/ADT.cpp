//===- ADT.cpp - typing rules of relay.construct and relay.match ----------===//
//
// Equations (relay/RelayTypeEquations.h). A constructor's ADT is applied to
// one unknown per type parameter, its declared field types instantiated
// with them: `relay.construct` equates its fields and result with those, a
// constructor pattern of `relay.match` the matched value and its
// sub-patterns. A type argument nothing fixes (the `T` of `Nil`) comes from
// the declared result type or from relay-infer-type.
//
//===----------------------------------------------------------------------===//
#include "RelationUtils.h"
#include "relay/RelayGenerics.h"

using namespace mlir;
using namespace mlir::relay;

/// The constructor `name` refers to, or null after reporting.
static ConstructorOp lookupConstructor(TypeEquations &eq, SymbolRefAttr name) {
  auto ctor = dyn_cast_or_null<ConstructorOp>(eq.lookup(name));
  if (!ctor)
    eq.emitError() << name << " does not name a relay.constructor";
  return ctor;
}

/// `ctor`'s ADT applied to fresh unknowns; `fields` receives the field types
/// instantiated with them.
static Type instantiateConstructor(TypeEquations &eq, ConstructorOp ctor,
                                   SmallVectorImpl<Type> &fields) {
  auto adt = cast<ADTOp>(ctor->getParentOp());
  SmallVector<Type> vars;
  for (size_t i = 0, e = adt.getTypeParams().size(); i < e; ++i)
    vars.push_back(eq.fresh());
  for (Attribute field : ctor.getFields())
    fields.push_back(substituteTypeParams(cast<TypeAttr>(field).getValue(),
                                          adt.getTypeParams(), vars));
  return ADTType::get(ctor->getContext(),
                      FlatSymbolRefAttr::get(adt.getSymNameAttr()), vars);
}

LogicalResult ConstructOp::buildTypeEquations(TypeEquations &eq) {
  ConstructorOp ctor = lookupConstructor(eq, getConstructor());
  if (!ctor)
    return failure();
  SmallVector<Type> fields;
  Type adt = instantiateConstructor(eq, ctor, fields);
  if (fields.size() != getFields().size())
    return eq.emitError() << "constructor " << getConstructor() << " takes "
                          << fields.size() << " fields, got "
                          << getFields().size();
  StringRef name = getConstructor().getLeafReference().getValue();
  for (auto [i, pair] :
       llvm::enumerate(llvm::zip(eq.typesOf(getFields()), fields)))
    if (failed(eq.equal(std::get<0>(pair), std::get<1>(pair),
                        "field #" + Twine(i) + " of " + name)))
      return failure();
  return eq.equal(eq.typeOf(getResult()), adt, "result of " + name);
}

namespace {
/// States what one clause's pattern binds: the pattern variables are the
/// clause's block arguments, in order.
struct PatternEquations {
  TypeEquations &eq;
  Block::BlockArgListType args;
  StringRef what;
  unsigned next = 0;

  LogicalResult bind(Attribute pattern, Type type) {
    if (isa<PatWildcardAttr>(pattern))
      return success();
    if (isa<PatVarAttr>(pattern)) {
      if (next >= args.size())
        return eq.emitError() << what
                              << ": more pattern variables than block "
                                 "arguments";
      return eq.equal(eq.typeOf(args[next++]), type, what);
    }
    if (auto pat = dyn_cast<PatCtorAttr>(pattern)) {
      ConstructorOp ctor = lookupConstructor(eq, pat.getConstructor());
      if (!ctor)
        return failure();
      SmallVector<Type> fields;
      Type adt = instantiateConstructor(eq, ctor, fields);
      if (fields.size() != pat.getFields().size())
        return eq.emitError()
               << what << ": constructor " << pat.getConstructor() << " has "
               << fields.size() << " fields, the pattern gives "
               << pat.getFields().size();
      if (failed(eq.equal(type, adt, what)))
        return failure();
      for (auto [sub, field] : llvm::zip(pat.getFields(), fields))
        if (failed(bind(sub, field)))
          return failure();
      return success();
    }
    if (auto pat = dyn_cast<PatTupleAttr>(pattern)) {
      SmallVector<Type> fields;
      for (size_t i = 0, e = pat.getFields().size(); i < e; ++i)
        fields.push_back(eq.fresh());
      if (failed(
              eq.equal(type, TupleType::get(type.getContext(), fields), what)))
        return failure();
      for (auto [sub, field] : llvm::zip(pat.getFields(), fields))
        if (failed(bind(sub, field)))
          return failure();
      return success();
    }
    return eq.emitError() << what << ": " << pattern
                          << " is not a relay pattern";
  }
};
} // namespace

LogicalResult MatchOp::buildTypeEquations(TypeEquations &eq) {
  Type data = eq.typeOf(getData());
  Type result = eq.typeOf(getResult());
  for (auto [i, pair] :
       llvm::enumerate(llvm::zip(getPatterns(), getClauses()))) {
    auto &[pattern, region] = pair;
    std::string what = "pattern of clause #" + std::to_string(i);
    PatternEquations patterns{eq, region.front().getArguments(), what};
    if (failed(patterns.bind(pattern, data)))
      return failure();
    if (Type t = eq.yieldType(region))
      if (failed(eq.equal(t, result, "clause #" + Twine(i))))
        return failure();
  }
  return success();
}
