//===- RelayTypeSolver.cpp - unification over relay types -----------------===//
#include "relay/RelayTypeSolver.h"

using namespace mlir;
using namespace mlir::relay;

//===----------------------------------------------------------------------===//
// Structural helpers
//===----------------------------------------------------------------------===//

/// Like isComplete, but also looking into builtin function types.
bool mlir::relay::hasHole(Type type) {
  bool found = false;
  walkType(type, [&](Type t) { found |= isa<IncompleteType>(t); });
  return found;
}

Type mlir::relay::mapHoles(Type type, function_ref<Type(IncompleteType)> fn) {
  if (!hasHole(type))
    return type;
  return transformType(type, [&](Type t) -> Type {
    auto hole = dyn_cast<IncompleteType>(t);
    return hole ? fn(hole) : Type();
  });
}

//===----------------------------------------------------------------------===//
// Variables
//===----------------------------------------------------------------------===//

TypeSolver::TypeSolver(MLIRContext *ctx) : ctx(ctx) {
  parent.push_back(0);
  binding.push_back(Type());
}

IncompleteType TypeSolver::fresh() {
  unsigned id = parent.size();
  parent.push_back(id);
  binding.push_back(Type());
  return IncompleteType::get(ctx, id);
}

Type TypeSolver::var(unsigned id) { return IncompleteType::get(ctx, id); }

unsigned TypeSolver::find(unsigned id) {
  if (id == 0 || id >= parent.size())
    return id; // not one of ours; treated as an opaque unbound variable
  unsigned root = id;
  while (parent[root] != root)
    root = parent[root];
  while (parent[id] != root) {
    unsigned next = parent[id];
    parent[id] = root;
    id = next;
  }
  return root;
}

Type TypeSolver::instantiate(Type type, llvm::DenseMap<unsigned, Type> *named) {
  return mapHoles(type, [&](IncompleteType hole) -> Type {
    if (hole.getId() == 0 || !named)
      return fresh();
    Type &slot = (*named)[hole.getId()];
    if (!slot)
      slot = fresh();
    return slot;
  });
}

Type TypeSolver::resolve(Type type) {
  return mapHoles(type, [&](IncompleteType hole) -> Type {
    unsigned root = find(hole.getId());
    if (root < binding.size() && binding[root])
      return resolve(binding[root]);
    return var(root);
  });
}

bool TypeSolver::occurs(unsigned root, Type type) {
  bool found = false;
  walkType(type, [&](Type t) {
    if (found)
      return;
    auto hole = dyn_cast<IncompleteType>(t);
    if (!hole)
      return;
    unsigned r = find(hole.getId());
    if (r == root)
      found = true;
    else if (r < binding.size() && binding[r])
      found = occurs(root, binding[r]);
  });
  return found;
}

//===----------------------------------------------------------------------===//
// Unification
//===----------------------------------------------------------------------===//

FailureOr<Type> TypeSolver::fail(Type a, Type b, bool occursCheck) {
  lastClash = {a, b, occursCheck};
  return failure();
}

LogicalResult TypeSolver::unify(Type a, Type b) {
  lastClash = {};
  return success(succeeded(unifyImpl(a, b)));
}

FailureOr<Type> TypeSolver::unifyVar(unsigned root, Type other) {
  if (root == 0 || root >= parent.size())
    return fail(var(root), other);
  if (!binding[root]) {
    if (occurs(root, other))
      return fail(var(root), resolve(other), /*occursCheck=*/true);
    binding[root] = other;
    return var(root);
  }
  FailureOr<Type> merged = unifyImpl(binding[root], other);
  if (failed(merged))
    return failure();
  root = find(root);
  if (occurs(root, *merged))
    return fail(var(root), resolve(*merged), /*occursCheck=*/true);
  binding[root] = *merged;
  return var(root);
}

/// Two types that are not type variables: equal if they have the same
/// constructor (tensor, tuple, function, reference, ADT) and their children
/// unify (`unify`); a tensor's `?` dims take the other's sizes. `mismatch`
/// reports a clash.
static FailureOr<Type>
unifyStructure(MLIRContext *ctx, Type a, Type b,
               function_ref<FailureOr<Type>(Type, Type)> unify,
               function_ref<FailureOr<Type>()> mismatch) {
  if (auto ta = dyn_cast<RankedTensorType>(a)) {
    auto tb = dyn_cast<RankedTensorType>(b);
    if (!tb || ta.getElementType() != tb.getElementType() ||
        ta.getRank() != tb.getRank())
      return mismatch();
    SmallVector<int64_t> dims;
    for (auto [da, db] : llvm::zip(ta.getShape(), tb.getShape())) {
      if (ShapedType::isDynamic(da))
        dims.push_back(db);
      else if (ShapedType::isDynamic(db) || da == db)
        dims.push_back(da);
      else
        return mismatch();
    }
    return Type(
        RankedTensorType::get(dims, ta.getElementType(), ta.getEncoding()));
  }
  auto unifyAll = [&](TypeRange xs, TypeRange ys,
                      SmallVectorImpl<Type> &out) -> LogicalResult {
    if (xs.size() != ys.size())
      return failure();
    for (auto [x, y] : llvm::zip(xs, ys)) {
      FailureOr<Type> t = unify(x, y);
      if (failed(t))
        return failure();
      out.push_back(*t);
    }
    return success();
  };
  if (auto ta = dyn_cast<TupleType>(a)) {
    auto tb = dyn_cast<TupleType>(b);
    if (!tb || ta.size() != tb.size())
      return mismatch();
    SmallVector<Type> fields;
    if (failed(unifyAll(ta.getTypes(), tb.getTypes(), fields)))
      return failure();
    return Type(TupleType::get(ctx, fields));
  }
  if (auto fa = dyn_cast<FuncType>(a)) {
    auto fb = dyn_cast<FuncType>(b);
    if (!fb || fa.getInputs().size() != fb.getInputs().size())
      return mismatch();
    SmallVector<Type> inputs;
    if (failed(unifyAll(fa.getInputs(), fb.getInputs(), inputs)))
      return failure();
    FailureOr<Type> result = unify(fa.getResult(), fb.getResult());
    if (failed(result))
      return failure();
    return Type(FuncType::get(ctx, inputs, *result));
  }
  if (auto ra = dyn_cast<RefType>(a)) {
    auto rb = dyn_cast<RefType>(b);
    if (!rb)
      return mismatch();
    FailureOr<Type> elem = unify(ra.getElementType(), rb.getElementType());
    if (failed(elem))
      return failure();
    return Type(RefType::get(ctx, *elem));
  }
  if (auto aa = dyn_cast<ADTType>(a)) {
    auto ab = dyn_cast<ADTType>(b);
    if (!ab || aa.getName() != ab.getName() ||
        aa.getArgs().size() != ab.getArgs().size())
      return mismatch();
    SmallVector<Type> args;
    if (failed(unifyAll(aa.getArgs(), ab.getArgs(), args)))
      return failure();
    return Type(ADTType::get(ctx, aa.getName(), args));
  }
  return mismatch();
}

FailureOr<Type> TypeSolver::unifyImpl(Type a, Type b) {
  if (a == b)
    return a;
  auto va = dyn_cast<IncompleteType>(a);
  auto vb = dyn_cast<IncompleteType>(b);
  if (va && vb) {
    unsigned ra = find(va.getId()), rb = find(vb.getId());
    if (ra == rb)
      return var(ra);
    if (ra == 0 || rb == 0 || ra >= parent.size() || rb >= parent.size())
      return fail(a, b);
    Type ba = binding[ra], bb = binding[rb];
    if (!ba) {
      if (bb && occurs(ra, bb))
        return fail(var(ra), resolve(bb), /*occursCheck=*/true);
      parent[ra] = rb;
      return var(rb);
    }
    if (!bb) {
      if (occurs(rb, ba))
        return fail(var(rb), resolve(ba), /*occursCheck=*/true);
      parent[rb] = ra;
      return var(ra);
    }
    FailureOr<Type> merged = unifyImpl(ba, bb);
    if (failed(merged))
      return failure();
    ra = find(ra);
    rb = find(rb);
    if (ra == rb) {
      binding[ra] = *merged;
      return var(ra);
    }
    if (occurs(ra, *merged) || occurs(rb, *merged))
      return fail(var(ra), resolve(*merged), /*occursCheck=*/true);
    parent[ra] = rb;
    binding[rb] = *merged;
    return var(rb);
  }
  if (va)
    return unifyVar(find(va.getId()), b);
  if (vb)
    return unifyVar(find(vb.getId()), a);

  // Two non-variables: same constructor, children unified.
  return unifyStructure(
      ctx, a, b, [&](Type x, Type y) { return unifyImpl(x, y); },
      [&] { return fail(a, b); });
}

void TypeSolver::explainClash(Diagnostic &diag, Type a, Type b,
                              const Twine &what) {
  if (lastClash.occurs) {
    diag << what << ": occurs check failed: type variable " << lastClash.lhs
         << " would have to contain itself (" << lastClash.rhs
         << "); cannot construct an infinite type";
    return;
  }
  // Unknowns print as `!relay.incomplete`: their numbers are the solver's.
  auto shown = [&](Type t) {
    return mapHoles(resolve(t), [&](IncompleteType) -> Type {
      return IncompleteType::get(ctx, 0);
    });
  };
  Type ra = shown(a), rb = shown(b);
  diag << what << ": type mismatch: cannot unify " << ra << " with " << rb;
  if (lastClash.lhs && lastClash.rhs) {
    Type ca = shown(lastClash.lhs), cb = shown(lastClash.rhs);
    if (!((ca == ra && cb == rb) || (ca == rb && cb == ra)))
      diag << " (" << ca << " vs " << cb << ")";
  }
}
