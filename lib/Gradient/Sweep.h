//===- Sweep.h - the reverse sweep of relay-gradient ------------*- C++ -*-===//
//
// Internal to lib/Gradient: the adjoint bookkeeping of one reverse sweep
// (ReverseSweep.cpp) and the pullback information the recursion support
// (Pullbacks.cpp) hands it.
//
//===----------------------------------------------------------------------===//
#ifndef RELAY_LIB_GRADIENT_SWEEP_H
#define RELAY_LIB_GRADIENT_SWEEP_H

#include "relay/RelayGradient.h"
#include "relay/RelayOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"

#include <vector>

namespace mlir::relay::gradient::ad {

bool isFloatTensorType(Type type);
/// Whether `fn` can reach itself through calls or function values.
bool isRecursiveFunction(func::FuncOp fn, SymbolTable &symbols);
/// Whether values of `type` carry adjoints: float tensors, and tuples whose
/// leaves are tensors or functions (function leaves carry none) with at
/// least one float tensor.
bool isDifferentiable(Type type);

/// Values used inside `op`'s regions but defined outside `op` that carry
/// adjoints, in first-use order.
SmallVector<Value> differentiableCaptures(Operation *op);

/// The name of the unit attribute marking a `func.call` of a pullback-
/// returning function (`@f$vjp`: `(params) -> (result, pullback)`).
inline constexpr llvm::StringLiteral kVJPCallAttr = "relay.ad.vjp";

/// What the pullback form of a body tells its sweep: `relay.if`s rewritten
/// to yield `(result, pullback)` and the values their pullbacks return the
/// adjoints of.
struct PullbackInfo {
  llvm::DenseMap<Operation *, SmallVector<Value>> ifCaptures;
};

/// The adjoint of one value: whole (a value of the primal's type) or, for
/// tuples, per field.
struct Adjoint {
  Value whole;
  std::vector<Adjoint> fields;
  bool empty() const {
    return !whole &&
           llvm::all_of(fields, [](const Adjoint &f) { return f.empty(); });
  }
};

/// One reverse sweep: adjoints accumulate per value; ops are visited
/// backwards and their rules emit the backward code at the builder.
class Sweep {
public:
  Sweep(OpBuilder &b, const PullbackInfo *info = nullptr) : b(b), info(info) {}

  /// Adds `adjoint` (of `primal`'s type) to `primal`'s adjoint.
  void accumulate(Value primal, Value adjoint);
  /// Adds a per-field adjoint tree to `primal`'s adjoint.
  void accumulate(Value primal, const Adjoint &adjoint, Location loc);
  bool hasAdjoint(Value primal) const;
  /// The adjoint of `primal` as a value (zeros where nothing accumulated).
  Value materialize(Value primal, Location loc);
  /// Visits `ops` (in program order) backwards.
  LogicalResult run(ArrayRef<Operation *> ops);
  LogicalResult run(Block &block);

private:
  Value field(Value tuple, int64_t index, Location loc);
  void explode(Adjoint &adj, TupleType type, Location loc);
  void addInto(Adjoint &dst, Type type, Value adjoint, Location loc);
  void addTree(Adjoint &dst, Type type, const Adjoint &src, Location loc);
  Value materialize(Value primal, const Adjoint &adj, Location loc);
  /// Field 0's adjoint of a `(result, pullback)` pair `pair`, applied to
  /// the pullback: the tuple of adjoints it returns.
  Value applyPullback(Value pair, Location loc);
  LogicalResult visit(Operation *op);
  LogicalResult visitIf(IfOp op);

  OpBuilder &b;
  const PullbackInfo *info;
  llvm::DenseMap<Value, Adjoint> adjoints;
};

} // namespace mlir::relay::gradient::ad

#endif // RELAY_LIB_GRADIENT_SWEEP_H
