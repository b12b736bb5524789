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
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"

#include <vector>

namespace mlir::relay::gradient::ad {

bool isFloatTensorType(Type type);
/// Whether `fn` can reach itself through calls or function values.
bool isRecursiveFunction(func::FuncOp fn, SymbolTable &symbols);

/// Adjoints of algebraic data type values (AdtAdjoints.cpp): a value of the
/// same type and constructor tree holding the adjoints of its float tensors.
/// Zeros and sums are module functions generated once per ADT type.
class AdtAdjoints {
public:
  explicit AdtAdjoints(ModuleOp module);
  /// Whether `type` holds a float tensor anywhere (ADT fields instantiated
  /// with the type's arguments; recursive ADTs are fine).
  bool carries(Type type);
  /// The zero adjoint of `value` (tensors, tuples, ADTs; a function,
  /// reference or float-free ADT is its own placeholder).
  Value zeros(OpBuilder &b, Location loc, Value value);
  /// `lhs + rhs` for two adjoints of one value.
  Value add(OpBuilder &b, Location loc, Value lhs, Value rhs);
  /// The fields of `value`, built by `ctor`, as a tuple (a partial match).
  Value fields(OpBuilder &b, Location loc, Value value, SymbolRefAttr ctor);
  /// Rewrites `op`'s patterns so no wildcard is left: each becomes a
  /// variable bound to a new block argument (unused by the clause), so the
  /// backward pass can rebuild the matched value's adjoint.
  void bindWildcards(MatchOp op);
  /// The adjoint of a value matched by `pattern` (wildcard-free), built from
  /// the adjoints of the pattern's variables, consumed from `vars`.
  Value rebuild(OpBuilder &b, Location loc, Attribute pattern, Type type,
                ArrayRef<Value> &vars);

private:
  enum class Kind { Zeros, Add };
  ADTOp definition(ADTType type);
  SmallVector<Type> fieldTypes(ADTType type, ConstructorOp ctor);
  ConstructorOp constructor(SymbolRefAttr ref);
  func::FuncOp helper(Kind kind, ADTType type);
  Attribute bindWildcards(Attribute pattern, Type type, Block &block,
                          unsigned &next, Location loc);

  ModuleOp module;
  SymbolTable symbols;
  llvm::DenseMap<Type, bool> carriesMemo;
  llvm::DenseMap<std::pair<int, Type>, func::FuncOp> helpers;
};

/// Whether values of `type` carry adjoints: float tensors, tuples whose
/// leaves are tensors, functions or ADTs with at least one that does, and
/// (with `adts`) ADT values holding a float tensor.
bool isDifferentiable(Type type, AdtAdjoints *adts = nullptr);

/// Replaces references used only by reads and writes in their own block by
/// the values written to them (PromoteRefs.cpp).
void promoteLocalRefs(Region &region);

/// Values used inside `op`'s regions but defined outside `op` that carry
/// adjoints, in first-use order.
SmallVector<Value> differentiableCaptures(Operation *op,
                                          AdtAdjoints *adts = nullptr);

/// The name of the unit attribute marking a `func.call` of a pullback-
/// returning function (`@f$vjp`: `(params) -> (result, pullback)`).
inline constexpr llvm::StringLiteral kVJPCallAttr = "relay.ad.vjp";

/// What the pullback form of a body tells its sweep: `relay.if`s rewritten
/// to yield `(result, pullback)` and the values their pullbacks return the
/// adjoints of.
struct PullbackInfo {
  /// `if`s and `match`es yielding `(result, pullback)`: the values their
  /// pullbacks return the adjoints of (a `match`'s pullback returns the
  /// matched value's adjoint after them).
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
  Sweep(OpBuilder &b, const PullbackInfo *info, AdtAdjoints *adts)
      : b(b), info(info), adts(adts) {}

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
  /// The backward pass of an `if` or `match`: the same op, each branch
  /// sweeping a copy of its forward ops.
  LogicalResult visitBranches(Operation *op);
  /// Applies the pullback an `if`/`match` in pullback form yields.
  LogicalResult visitPullbackRegionOp(Operation *op, ArrayRef<Value> captures);

  OpBuilder &b;
  const PullbackInfo *info;
  AdtAdjoints *adts;
  llvm::DenseMap<Value, Adjoint> adjoints;
};

} // namespace mlir::relay::gradient::ad

#endif // RELAY_LIB_GRADIENT_SWEEP_H
