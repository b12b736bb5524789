//===- ReverseSweep.cpp - adjoints of a function body ---------------------===//
//
// The reverse sweep of `relay-gradient`: walks a block's ops backwards from
// the seeded result, accumulating one adjoint per value. Adjoints of tuples
// are kept per field (a missing field is zero) so a `tuple_get_item` does
// not materialise a whole tuple of zeros; they become values only where a
// rule, a region boundary or the final result needs them.
//
// `relay.if` gets a backward `if` on the same condition: each branch
// recomputes its forward ops, sweeps them from the if's adjoint, and
// yields the adjoints of the values the branch uses from outside.
//
//===----------------------------------------------------------------------===//
#include "relay/RelayGradient.h"
#include "relay/RelayOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::gradient;

namespace {

bool isFloatTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && isa<FloatType>(tensor.getElementType());
}

/// Whether values of `type` carry adjoints: float tensors, and tuples made
/// of tensors (at any depth) with at least one float tensor.
bool isDifferentiable(Type type) {
  if (isFloatTensor(type))
    return true;
  auto tuple = dyn_cast<TupleType>(type);
  if (!tuple)
    return false;
  bool anyFloat = false;
  for (Type field : tuple.getTypes()) {
    if (isDifferentiable(field))
      anyFloat = true;
    else if (!isa<RankedTensorType>(field) &&
             !(isa<TupleType>(field) &&
               cast<TupleType>(field).getTypes().empty()))
      return false;
  }
  return anyFloat;
}

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

class Sweep {
public:
  explicit Sweep(OpBuilder &b) : b(b) {}

  /// Adds `adjoint` (of `primal`'s type) to `primal`'s adjoint.
  void accumulate(Value primal, Value adjoint) {
    if (!adjoint || !isDifferentiable(primal.getType()))
      return;
    addInto(adjoints[primal], primal.getType(), adjoint, primal.getLoc());
  }

  /// Adds a per-field adjoint tree to `primal`'s adjoint.
  void accumulate(Value primal, const Adjoint &adjoint, Location loc) {
    if (adjoint.empty() || !isDifferentiable(primal.getType()))
      return;
    addTree(adjoints[primal], primal.getType(), adjoint, loc);
  }

  bool hasAdjoint(Value primal) const {
    auto it = adjoints.find(primal);
    return it != adjoints.end() && !it->second.empty();
  }

  /// The adjoint of `primal` as a value (zeros where nothing accumulated).
  Value materialize(Value primal, Location loc) {
    auto it = adjoints.find(primal);
    Adjoint empty;
    return materialize(primal, it == adjoints.end() ? empty : it->second, loc);
  }

  LogicalResult run(Block &block);

private:
  Value field(Value tuple, int64_t index, Location loc) {
    return TupleGetItemOp::create(b, loc, tuple, index);
  }

  void explode(Adjoint &adj, TupleType type, Location loc) {
    if (adj.fields.size() != type.size())
      adj.fields.resize(type.size());
    if (!adj.whole)
      return;
    for (int64_t i = 0, e = type.size(); i < e; ++i)
      addInto(adj.fields[i], type.getType(i), field(adj.whole, i, loc), loc);
    adj.whole = {};
  }

  void addInto(Adjoint &dst, Type type, Value adjoint, Location loc) {
    if (!isDifferentiable(type))
      return;
    if (dst.empty()) {
      dst.fields.clear();
      dst.whole = adjoint;
      return;
    }
    if (auto tuple = dyn_cast<TupleType>(type)) {
      explode(dst, tuple, loc);
      for (int64_t i = 0, e = tuple.size(); i < e; ++i)
        addInto(dst.fields[i], tuple.getType(i), field(adjoint, i, loc), loc);
      return;
    }
    dst.whole = AddOp::create(b, loc, dst.whole, adjoint);
  }

  void addTree(Adjoint &dst, Type type, const Adjoint &src, Location loc) {
    if (src.whole) {
      addInto(dst, type, src.whole, loc);
      return;
    }
    auto tuple = cast<TupleType>(type);
    explode(dst, tuple, loc);
    for (auto [i, f] : llvm::enumerate(src.fields))
      if (!f.empty())
        addTree(dst.fields[i], tuple.getType(i), f, loc);
  }

  Value materialize(Value primal, const Adjoint &adj, Location loc) {
    if (adj.whole)
      return adj.whole;
    Type type = primal.getType();
    auto tuple = dyn_cast<TupleType>(type);
    if (!tuple)
      return ZerosLikeOp::create(b, loc, primal);
    SmallVector<Value> fields;
    Adjoint none;
    for (int64_t i = 0, e = tuple.size(); i < e; ++i) {
      const Adjoint &f =
          i < static_cast<int64_t>(adj.fields.size()) ? adj.fields[i] : none;
      if (f.empty() && !isDifferentiable(tuple.getType(i)) &&
          isa<TupleType>(tuple.getType(i))) {
        fields.push_back(TupleOp::create(b, loc, ValueRange{}));
        continue;
      }
      fields.push_back(materialize(field(primal, i, loc), f, loc));
    }
    return TupleOp::create(b, loc, fields);
  }

  LogicalResult visit(Operation *op);
  LogicalResult visitIf(IfOp op);

  OpBuilder &b;
  llvm::DenseMap<Value, Adjoint> adjoints;
};

/// Values used inside `op`'s regions but defined outside `op` that carry
/// adjoints, in first-use order.
SmallVector<Value> differentiableCaptures(Operation *op) {
  llvm::SetVector<Value> captures;
  op->walk([&](Operation *inner) {
    for (Value v : inner->getOperands()) {
      Region *defRegion = v.getParentRegion();
      if (op->isProperAncestor(defRegion->getParentOp()) ||
          defRegion->getParentOp() == op)
        continue;
      if (isDifferentiable(v.getType()))
        captures.insert(v);
    }
  });
  // The condition is an operand of `op` itself, not a capture.
  return SmallVector<Value>(captures.begin(), captures.end());
}

LogicalResult Sweep::visitIf(IfOp op) {
  Location loc = op.getLoc();
  SmallVector<Value> captures = differentiableCaptures(op);
  if (captures.empty())
    return success();
  Value grad = materialize(op.getResult(), loc);
  SmallVector<Type> types;
  for (Value c : captures)
    types.push_back(c.getType());
  auto backward =
      IfOp::create(b, loc, TupleType::get(b.getContext(), types), op.getCond());
  for (auto [src, dst] : llvm::zip(op->getRegions(), backward->getRegions())) {
    IRMapping mapping;
    src.cloneInto(&dst, mapping);
    Block &block = dst.front();
    auto yield = cast<YieldOp>(block.getTerminator());
    OpBuilder inner(yield);
    Sweep branch(inner);
    branch.accumulate(yield.getValue(), grad);
    if (failed(branch.run(block)))
      return failure();
    SmallVector<Value> results;
    for (Value c : captures)
      results.push_back(branch.materialize(c, loc));
    yield->setOperand(0, TupleOp::create(inner, loc, results));
  }
  for (auto [i, c] : llvm::enumerate(captures))
    accumulate(c, field(backward.getResult(), i, loc));
  return success();
}

LogicalResult Sweep::visit(Operation *op) {
  if (op->getNumResults() != 1)
    return success();
  Value result = op->getResult(0);
  if (!hasAdjoint(result))
    return success();
  Location loc = op->getLoc();

  if (auto tuple = dyn_cast<TupleOp>(op)) {
    Adjoint adj = adjoints[result]; // a copy: accumulating may rehash
    if (adj.whole) {
      for (auto [i, f] : llvm::enumerate(tuple.getFields()))
        accumulate(f, field(adj.whole, i, loc));
      return success();
    }
    for (auto [i, f] : llvm::enumerate(tuple.getFields()))
      if (i < adj.fields.size())
        accumulate(f, adj.fields[i], loc);
    return success();
  }
  if (auto get = dyn_cast<TupleGetItemOp>(op)) {
    Value tuple = get.getTuple();
    auto type = cast<TupleType>(tuple.getType());
    Adjoint sub = adjoints[result];
    Adjoint tree;
    tree.fields.resize(type.size());
    tree.fields[get.getIndex()] = sub;
    accumulate(tuple, tree, loc);
    return success();
  }
  if (auto ifOp = dyn_cast<IfOp>(op))
    return visitIf(ifOp);
  if (isa<ConstantOp>(op))
    return success();
  if (isa<func::CallOp, CallOp>(op))
    return op->emitError()
           << "cannot differentiate through this call: the callee is "
              "recursive or not known at compile time (only calls that can "
              "be inlined are differentiated so far)";
  if (op->getDialect() != op->getContext()->getLoadedDialect<RelayDialect>() ||
      isa<FnOp, MatchOp, ConstructOp, RefNewOp, RefReadOp, RefWriteOp, GradOp,
          GlobalFnOp, ClosureOp>(op))
    return op->emitError() << "cannot differentiate through `" << op->getName()
                           << "` yet";

  // An operator: its gradient rule.
  bool anyDifferentiableOperand = llvm::any_of(
      op->getOperandTypes(), [](Type t) { return isDifferentiable(t); });
  if (!anyDifferentiableOperand)
    return success();
  GradientRule rule = lookupGradientRule(op->getName().getStringRef());
  if (!rule)
    return op->emitError() << "no gradient rule for `" << op->getName()
                           << "`: it lies on a differentiated path (from a "
                              "parameter to the result)";
  Value grad = materialize(result, loc);
  RuleBuilder rb(b, op);
  SmallVector<Value> operandGrads;
  if (failed(rule(rb, grad, operandGrads)))
    return failure();
  for (auto [operand, g] : llvm::zip(op->getOperands(), operandGrads))
    accumulate(operand, g);
  return success();
}

LogicalResult Sweep::run(Block &block) {
  SmallVector<Operation *> ops;
  for (Operation &op : block.without_terminator())
    ops.push_back(&op);
  for (Operation *op : llvm::reverse(ops))
    if (failed(visit(op)))
      return failure();
  return success();
}

/// Ones of `value`'s type on every float tensor (zeros elsewhere).
Value onesSeed(OpBuilder &b, Location loc, Value value) {
  Type type = value.getType();
  if (auto tuple = dyn_cast<TupleType>(type)) {
    SmallVector<Value> fields;
    for (int64_t i = 0, e = tuple.size(); i < e; ++i)
      fields.push_back(
          onesSeed(b, loc, TupleGetItemOp::create(b, loc, value, i)));
    return TupleOp::create(b, loc, fields);
  }
  if (isFloatTensor(type))
    return OnesLikeOp::create(b, loc, value);
  return ZerosLikeOp::create(b, loc, value);
}

} // namespace

LogicalResult gradient::differentiateBody(Block &body, const GradSpec &spec) {
  Operation *terminator = body.getTerminator();
  Location loc = terminator->getLoc();
  Value result = terminator->getOperand(0);
  OpBuilder b(terminator);
  if (!isDifferentiable(result.getType()))
    return terminator->emitError()
           << "cannot differentiate a function whose result is "
           << result.getType()
           << ": the result must be a floating-point tensor or a tuple of "
              "tensors with one";
  Sweep sweep(b);
  sweep.accumulate(result, spec.seed ? spec.seed : onesSeed(b, loc, result));
  if (failed(sweep.run(body)))
    return failure();
  SmallVector<Value> grads;
  for (Value param : spec.wrt)
    grads.push_back(sweep.materialize(param, loc));
  Value gradTuple = TupleOp::create(b, loc, grads);
  Value out = spec.keeping
                  ? TupleOp::create(b, loc, ValueRange{result, gradTuple})
                  : gradTuple;
  terminator->setOperand(0, out);
  return success();
}
