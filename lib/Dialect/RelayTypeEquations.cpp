//===- RelayTypeEquations.cpp - solving one op's type equations -----------===//
//
// The verifier's and the builders' side of the language's typing rules
// (relay/RelayTypeEquations.h); relay-infer-type has its own TypeEquations
// over the whole module.
//
//===----------------------------------------------------------------------===//
#include "relay/RelayTypeEquations.h"
#include "relay/RelayOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;
using namespace mlir::relay;

#include "relay/RelayTypeEquations.cpp.inc"

SmallVector<Type> TypeEquations::typesOf(ValueRange values) {
  SmallVector<Type> types;
  for (Value v : values)
    types.push_back(typeOf(v));
  return types;
}

Type TypeEquations::yieldType(Region &region) {
  if (region.empty() || region.front().empty())
    return {};
  if (auto yield = dyn_cast<YieldOp>(region.front().back()))
    return typeOf(yield.getValue());
  return {};
}

namespace {
/// The equations of one op (or of one op being built), solved on their own:
/// each hole of the types involved is an unknown; numbered holes
/// (`!relay.incomplete<N>`) are one unknown per number.
class LocalEquations : public TypeEquations {
public:
  LocalEquations(MLIRContext *ctx, Operation *op, std::optional<Location> loc,
                 SymbolTableCollection *symbols)
      : solver(ctx), op(op), loc(loc), symbols(symbols) {}

  Type typeOf(Value value) override {
    Type &slot = types[value];
    if (!slot)
      slot = solver.instantiate(value.getType(), &named);
    return slot;
  }

  Type instantiate(Type declared) override {
    return solver.instantiate(declared, &named);
  }

  Type fresh() override { return solver.fresh(); }

  LogicalResult equal(Type a, Type b, const Twine &what) override {
    if (succeeded(solver.unify(a, b)))
      return success();
    InFlightDiagnostic diag = emitError();
    if (diag.getUnderlyingDiagnostic())
      solver.explainClash(*diag.getUnderlyingDiagnostic(), a, b, what);
    return failure();
  }

  LogicalResult instance(Type use, func::FuncOp callee,
                         const Twine &what) override {
    Type signature = instantiate(getRelayFnType(callee.getFunctionType()));
    if (ArrayAttr params = getTypeParams(callee)) {
      SmallVector<Type> vars;
      for (size_t i = 0, e = params.size(); i < e; ++i)
        vars.push_back(solver.fresh());
      signature = substituteTypeParams(signature, params, vars);
    }
    return equal(use, signature, what);
  }

  Operation *lookup(SymbolRefAttr name) override {
    if (!op)
      return nullptr;
    if (symbols)
      return symbols->lookupNearestSymbolFrom(op, name);
    return SymbolTable::lookupNearestSymbolFrom(op, name);
  }

  InFlightDiagnostic emitError() override {
    if (op)
      return op->emitOpError();
    if (loc)
      return mlir::emitError(*loc);
    // A builder without a location: fail without reporting.
    return InFlightDiagnostic();
  }

  /// `type` as solved; unknowns left become the holes they came from, or
  /// `!relay.incomplete` (unnumbered).
  Type solved(Type type) {
    Type resolved = solver.resolve(type);
    if (!hasHole(resolved))
      return resolved;
    llvm::DenseMap<unsigned, unsigned> holeOf; // variable root -> hole number
    for (auto [number, var] : named)
      holeOf.try_emplace(solver.find(cast<IncompleteType>(var).getId()),
                         number);
    MLIRContext *ctx = type.getContext();
    return mapHoles(resolved, [&](IncompleteType var) -> Type {
      return IncompleteType::get(ctx, holeOf.lookup(solver.find(var.getId())));
    });
  }

private:
  TypeSolver solver;
  Operation *op;
  std::optional<Location> loc;
  SymbolTableCollection *symbols;
  llvm::DenseMap<Value, Type> types;
  llvm::DenseMap<unsigned, Type> named;
};
} // namespace

LogicalResult relay::checkTypeEquations(Operation *op,
                                        SymbolTableCollection *symbols) {
  LocalEquations equations(op->getContext(), op, op->getLoc(), symbols);
  return cast<TypeEquationsOpInterface>(op).buildTypeEquations(equations);
}

FailureOr<Type> relay::inferResultByEquations(
    MLIRContext *ctx, std::optional<Location> loc,
    function_ref<LogicalResult(TypeEquations &, Type)> rule) {
  LocalEquations equations(ctx, nullptr, loc, nullptr);
  Type result = equations.fresh();
  if (failed(rule(equations, result)))
    return failure();
  return equations.solved(result);
}
