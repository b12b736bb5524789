//===- AdtAdjoints.cpp - adjoints of algebraic data type values -----------===//
//
// The adjoint of an ADT value is a value of the same ADT type with the same
// constructor tree, holding the adjoints of the float tensors in it (zeros
// of integer tensors, the functions themselves). Every contribution to it
// mirrors the primal's tree (a `match` clause rebuilds the constructor it
// matched, a pullback returns what its sweep built), so two adjoints of one
// value always have the same shape and add field by field.
//
// Zeros and sums of ADT values need recursion over the tree: they are
// module functions generated once per ADT type (`@ad$zeros$List`,
// `@ad$add$List`), a `relay.match` over the constructors each, compiled like
// any recursive function (relay-eliminate-recursion).
//
//===----------------------------------------------------------------------===//
#include "Sweep.h"

#include "relay/RelayGenerics.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::gradient::ad;

AdtAdjoints::AdtAdjoints(ModuleOp module) : module(module), symbols(module) {}

ADTOp AdtAdjoints::definition(ADTType type) {
  return symbols.lookup<ADTOp>(type.getName().getValue());
}

SmallVector<Type> AdtAdjoints::fieldTypes(ADTType type, ConstructorOp ctor) {
  auto adt = cast<ADTOp>(ctor->getParentOp());
  SmallVector<Type> fields;
  for (Attribute field : ctor.getFields())
    fields.push_back(substituteTypeParams(cast<TypeAttr>(field).getValue(),
                                          adt.getTypeParams(), type.getArgs()));
  return fields;
}

bool AdtAdjoints::carries(Type type) {
  if (isFloatTensorType(type))
    return true;
  if (auto tuple = dyn_cast<TupleType>(type))
    return llvm::any_of(tuple.getTypes(), [&](Type t) { return carries(t); });
  auto adtType = dyn_cast<ADTType>(type);
  if (!adtType)
    return false;
  auto [it, inserted] = carriesMemo.try_emplace(type, false);
  if (!inserted)
    return it->second; // known, or being decided (a recursive field)
  ADTOp adt = definition(adtType);
  bool any = false;
  if (adt)
    for (auto ctor : adt.getBody().getOps<ConstructorOp>())
      for (Type field : fieldTypes(adtType, ctor))
        any = any || carries(field);
  carriesMemo[type] = any;
  return any;
}

Value AdtAdjoints::zeros(OpBuilder &b, Location loc, Value value) {
  Type type = value.getType();
  if (isa<RankedTensorType>(type))
    return ZerosLikeOp::create(b, loc, value);
  if (auto tuple = dyn_cast<TupleType>(type)) {
    SmallVector<Value> fields;
    for (int64_t i = 0, e = tuple.size(); i < e; ++i)
      fields.push_back(zeros(b, loc, TupleGetItemOp::create(b, loc, value, i)));
    return TupleOp::create(b, loc, fields);
  }
  auto adt = dyn_cast<ADTType>(type);
  if (!adt || !carries(adt))
    return value; // functions, references, ADTs of no float: no adjoint
  return func::CallOp::create(b, loc, helper(Kind::Zeros, adt),
                              ValueRange{value})
      .getResult(0);
}

Value AdtAdjoints::add(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  Type type = lhs.getType();
  if (isFloatTensorType(type))
    return AddOp::create(b, loc, lhs, rhs);
  if (auto tuple = dyn_cast<TupleType>(type)) {
    SmallVector<Value> fields;
    for (int64_t i = 0, e = tuple.size(); i < e; ++i)
      fields.push_back(add(b, loc, TupleGetItemOp::create(b, loc, lhs, i),
                           TupleGetItemOp::create(b, loc, rhs, i)));
    return TupleOp::create(b, loc, fields);
  }
  auto adt = dyn_cast<ADTType>(type);
  if (!adt || !carries(adt))
    return lhs;
  return func::CallOp::create(b, loc, helper(Kind::Add, adt),
                              ValueRange{lhs, rhs})
      .getResult(0);
}

/// One clause per constructor, binding every field to a variable.
static MatchOp matchEveryConstructor(OpBuilder &b, Location loc, Type result,
                                     Value data, ArrayRef<ConstructorOp> ctors,
                                     ArrayRef<SymbolRefAttr> refs,
                                     bool complete) {
  MLIRContext *ctx = b.getContext();
  SmallVector<Attribute> patterns;
  for (auto [ctor, ref] : llvm::zip(ctors, refs))
    patterns.push_back(PatCtorAttr::get(
        ctx, ref,
        b.getArrayAttr(SmallVector<Attribute>(
            ConstructorOp(ctor).getFields().size(), PatVarAttr::get(ctx)))));
  return MatchOp::create(b, loc, result, data, b.getArrayAttr(patterns),
                         complete, ctors.size());
}

func::FuncOp AdtAdjoints::helper(Kind kind, ADTType type) {
  auto key = std::make_pair(static_cast<int>(kind), Type(type));
  if (auto it = helpers.find(key); it != helpers.end())
    return it->second;
  MLIRContext *ctx = type.getContext();
  Location loc = module.getLoc();
  ADTOp adt = definition(type);
  SmallVector<Type> params(kind == Kind::Zeros ? 1 : 2, type);
  std::string name = (Twine("ad$") + (kind == Kind::Zeros ? "zeros$" : "add$") +
                      type.getName().getValue())
                         .str();
  OpBuilder b(ctx);
  auto fn = func::FuncOp::create(b, loc, name,
                                 FunctionType::get(ctx, params, {type}));
  fn.setPrivate();
  symbols.insert(fn); // renamed if taken (one per type-argument list)
  helpers[key] = fn;  // before the body: its recursive fields call it

  SmallVector<ConstructorOp> ctors(adt.getBody().getOps<ConstructorOp>());
  SmallVector<SymbolRefAttr> refs;
  for (ConstructorOp ctor : ctors)
    refs.push_back(SymbolRefAttr::get(ctx, adt.getSymName(),
                                      {FlatSymbolRefAttr::get(ctor)}));
  Block *entry = fn.addEntryBlock();
  b.setInsertionPointToStart(entry);
  auto outer = matchEveryConstructor(b, loc, type, entry->getArgument(0), ctors,
                                     refs, /*complete=*/true);
  for (auto [i, ctor] : llvm::enumerate(ctors)) {
    SmallVector<Type> fieldTys = fieldTypes(type, ctor);
    Block *block = &outer.getClauses()[i].emplaceBlock();
    SmallVector<Value> lhs;
    for (Type t : fieldTys)
      lhs.push_back(block->addArgument(t, loc));
    OpBuilder inner = OpBuilder::atBlockEnd(block);
    if (kind == Kind::Zeros) {
      SmallVector<Value> fields;
      for (Value f : lhs)
        fields.push_back(zeros(inner, loc, f));
      YieldOp::create(
          inner, loc,
          ConstructOp::create(inner, loc, type, refs[i], fields).getResult());
      continue;
    }
    // The other operand has the same constructor (adjoints of one value
    // mirror its tree): a partial match on just that one.
    auto second = matchEveryConstructor(inner, loc, type, entry->getArgument(1),
                                        {ctor}, {refs[i]}, /*complete=*/false);
    Block *both = &second.getClauses()[0].emplaceBlock();
    OpBuilder innermost = OpBuilder::atBlockEnd(both);
    SmallVector<Value> sums;
    for (Value l : lhs)
      sums.push_back(
          add(innermost, loc, l, both->addArgument(l.getType(), loc)));
    YieldOp::create(
        innermost, loc,
        ConstructOp::create(innermost, loc, type, refs[i], sums).getResult());
    YieldOp::create(inner, loc, second.getResult());
  }
  b.setInsertionPointAfter(outer);
  func::ReturnOp::create(b, loc, outer.getResult());
  return fn;
}

ConstructorOp AdtAdjoints::constructor(SymbolRefAttr ref) {
  auto adt = symbols.lookup<ADTOp>(ref.getRootReference());
  if (!adt)
    return {};
  return dyn_cast_or_null<ConstructorOp>(
      SymbolTable::lookupSymbolIn(adt, ref.getLeafReference()));
}

Value AdtAdjoints::fields(OpBuilder &b, Location loc, Value value,
                          SymbolRefAttr ref) {
  ConstructorOp ctor = constructor(ref);
  SmallVector<Type> types = fieldTypes(cast<ADTType>(value.getType()), ctor);
  auto tupleType = TupleType::get(b.getContext(), types);
  auto match = matchEveryConstructor(b, loc, tupleType, value, {ctor}, {ref},
                                     /*complete=*/false);
  Block *block = &match.getClauses()[0].emplaceBlock();
  SmallVector<Value> args;
  for (Type t : types)
    args.push_back(block->addArgument(t, loc));
  OpBuilder inner = OpBuilder::atBlockEnd(block);
  YieldOp::create(inner, loc, TupleOp::create(inner, loc, args).getResult());
  return match.getResult();
}

Attribute AdtAdjoints::bindWildcards(Attribute pattern, Type type, Block &block,
                                     unsigned &next, Location loc) {
  MLIRContext *ctx = type.getContext();
  if (isa<PatWildcardAttr>(pattern)) {
    block.insertArgument(next++, type, loc);
    return PatVarAttr::get(ctx);
  }
  if (isa<PatVarAttr>(pattern)) {
    ++next;
    return pattern;
  }
  SmallVector<Type> types;
  ArrayAttr subs;
  if (auto ctorPat = dyn_cast<PatCtorAttr>(pattern)) {
    types =
        fieldTypes(cast<ADTType>(type), constructor(ctorPat.getConstructor()));
    subs = ctorPat.getFields();
  } else {
    auto tuplePat = cast<PatTupleAttr>(pattern);
    types = llvm::to_vector(cast<TupleType>(type).getTypes());
    subs = tuplePat.getFields();
  }
  SmallVector<Attribute> bound;
  for (auto [sub, t] : llvm::zip(subs, types))
    bound.push_back(bindWildcards(sub, t, block, next, loc));
  ArrayAttr fields = ArrayAttr::get(ctx, bound);
  if (auto ctorPat = dyn_cast<PatCtorAttr>(pattern))
    return PatCtorAttr::get(ctx, ctorPat.getConstructor(), fields);
  return PatTupleAttr::get(ctx, fields);
}

void AdtAdjoints::bindWildcards(MatchOp op) {
  SmallVector<Attribute> patterns;
  for (auto [pattern, region] : llvm::zip(op.getPatterns(), op.getClauses())) {
    unsigned next = 0;
    patterns.push_back(bindWildcards(pattern, op.getData().getType(),
                                     region.front(), next, op.getLoc()));
  }
  op.setPatternsAttr(ArrayAttr::get(op.getContext(), patterns));
}

Value AdtAdjoints::rebuild(OpBuilder &b, Location loc, Attribute pattern,
                           Type type, ArrayRef<Value> &vars) {
  if (isa<PatVarAttr>(pattern)) {
    Value v = vars.front();
    vars = vars.drop_front();
    return v;
  }
  SmallVector<Value> fields;
  if (auto ctorPat = dyn_cast<PatCtorAttr>(pattern)) {
    SmallVector<Type> types =
        fieldTypes(cast<ADTType>(type), constructor(ctorPat.getConstructor()));
    for (auto [sub, t] : llvm::zip(ctorPat.getFields(), types))
      fields.push_back(rebuild(b, loc, sub, t, vars));
    return ConstructOp::create(b, loc, type, ctorPat.getConstructor(), fields)
        .getResult();
  }
  auto tuplePat = cast<PatTupleAttr>(pattern);
  for (auto [sub, t] :
       llvm::zip(tuplePat.getFields(), cast<TupleType>(type).getTypes()))
    fields.push_back(rebuild(b, loc, sub, t, vars));
  return TupleOp::create(b, loc, fields).getResult();
}
