//===- ADT.cpp - the typing rule of relay.construct -----------------------===//
//
// `relay.construct @ADT::@Ctor(fields)`: the field types are matched
// against the constructor's declared field types, solving the ADT's type
// parameters; the result is the ADT applied to them. A parameter no field
// fixes (the `T` of `Nil`) stays `!relay.incomplete`: the declared result
// type, or `relay-infer-type`, supplies it.
//
//===----------------------------------------------------------------------===//
#include "RelationUtils.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::rel;

/// The more precise of two compatible types (a static dim wins over `?`, a
/// known type over an incomplete one).
static Type meet(Type a, Type b) {
  if (a == b || isa<IncompleteType>(b))
    return a;
  if (isa<IncompleteType>(a))
    return b;
  MLIRContext *ctx = a.getContext();
  auto all = [&](TypeRange xs, TypeRange ys) {
    SmallVector<Type> out;
    for (auto [x, y] : llvm::zip(xs, ys))
      out.push_back(meet(x, y));
    return out;
  };
  if (auto ta = dyn_cast<RankedTensorType>(a)) {
    auto tb = cast<RankedTensorType>(b);
    SmallVector<int64_t> dims;
    for (auto [da, db] : llvm::zip(ta.getShape(), tb.getShape()))
      dims.push_back(isAny(da) ? db : da);
    return RankedTensorType::get(dims, ta.getElementType(), ta.getEncoding());
  }
  if (auto ta = dyn_cast<TupleType>(a))
    return TupleType::get(ctx,
                          all(ta.getTypes(), cast<TupleType>(b).getTypes()));
  if (auto fa = dyn_cast<FuncType>(a)) {
    auto fb = cast<FuncType>(b);
    return FuncType::get(ctx, all(fa.getInputs(), fb.getInputs()),
                         meet(fa.getResult(), fb.getResult()));
  }
  if (auto ra = dyn_cast<RefType>(a))
    return RefType::get(
        ctx, meet(ra.getElementType(), cast<RefType>(b).getElementType()));
  if (auto aa = dyn_cast<ADTType>(a))
    return ADTType::get(ctx, aa.getName(),
                        all(aa.getArgs(), cast<ADTType>(b).getArgs()));
  return a;
}

namespace {
/// Solves the type parameters of one ADT by matching declared field types
/// (which mention `!relay.tvar`s) against actual types.
struct ParamSolver {
  ArrayAttr params;
  SmallVector<Type> solved; // null while unknown

  explicit ParamSolver(ArrayAttr params)
      : params(params), solved(params.size()) {}

  std::optional<unsigned> indexOf(StringRef name) {
    for (auto [i, p] : llvm::enumerate(params))
      if (cast<StringAttr>(p).getValue() == name)
        return i;
    return std::nullopt;
  }

  bool match(Type declared, Type actual) {
    if (auto tvar = dyn_cast<TypeVarType>(declared)) {
      std::optional<unsigned> index = indexOf(tvar.getName());
      if (!index)
        return false;
      Type &slot = solved[*index];
      if (!slot) {
        slot = actual;
        return true;
      }
      if (!areCompatible(slot, actual))
        return false;
      slot = meet(slot, actual);
      return true;
    }
    if (isa<IncompleteType>(actual))
      return true;
    auto all = [&](TypeRange xs, TypeRange ys) {
      if (xs.size() != ys.size())
        return false;
      for (auto [x, y] : llvm::zip(xs, ys))
        if (!match(x, y))
          return false;
      return true;
    };
    if (auto td = dyn_cast<TupleType>(declared)) {
      auto ta = dyn_cast<TupleType>(actual);
      return ta && all(td.getTypes(), ta.getTypes());
    }
    if (auto fd = dyn_cast<FuncType>(declared)) {
      auto fa = dyn_cast<FuncType>(actual);
      return fa && all(fd.getInputs(), fa.getInputs()) &&
             match(fd.getResult(), fa.getResult());
    }
    if (auto rd = dyn_cast<RefType>(declared)) {
      auto ra = dyn_cast<RefType>(actual);
      return ra && match(rd.getElementType(), ra.getElementType());
    }
    if (auto ad = dyn_cast<ADTType>(declared)) {
      auto aa = dyn_cast<ADTType>(actual);
      return aa && ad.getName() == aa.getName() &&
             all(ad.getArgs(), aa.getArgs());
    }
    return areCompatible(declared, actual);
  }
};
} // namespace

FailureOr<Type> relay::inferConstruct(ErrorSite site, ConstructorOp ctor,
                                      TypeRange fields) {
  auto adt = cast<ADTOp>(ctor->getParentOp());
  ArrayAttr declaredFields = ctor.getFields();
  if (declaredFields.size() != fields.size())
    return site.emitError()
           << "constructor @" << adt.getSymName() << "::@" << ctor.getSymName()
           << " takes " << declaredFields.size() << " fields, got "
           << fields.size();
  ParamSolver solver(adt.getTypeParams());
  for (auto [i, pair] : llvm::enumerate(llvm::zip(declaredFields, fields))) {
    Type declared = cast<TypeAttr>(std::get<0>(pair)).getValue();
    Type actual = std::get<1>(pair);
    if (!solver.match(declared, actual))
      return site.emitError()
             << "field #" << i << " has type " << actual << " but constructor @"
             << adt.getSymName() << "::@" << ctor.getSymName() << " expects "
             << declared;
  }
  MLIRContext *ctx = ctor->getContext();
  SmallVector<Type> args;
  for (Type t : solver.solved)
    args.push_back(t ? t : IncompleteType::get(ctx, 0));
  return Type(
      ADTType::get(ctx, FlatSymbolRefAttr::get(adt.getSymNameAttr()), args));
}
