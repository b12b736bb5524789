//===- ReverseSweep.cpp - adjoints of a function body ---------------------===//
//
// The reverse sweep of `relay-gradient`: walks a block's ops backwards from
// the seeded result, accumulating one adjoint per value. Adjoints of tuples
// are kept per field (a missing field is zero) so a `tuple_get_item` does
// not materialise a whole tuple of zeros; they become values only where a
// rule, a region boundary or the final result needs them.
//
// `relay.if` (`relay.match`) gets a backward `if` on the same condition (a
// `match` on the same value): each branch recomputes its forward ops,
// sweeps them from the op's adjoint, and yields the adjoints of the values
// the branch uses from outside (and a match clause the matched value's,
// AdtAdjoints.cpp). In the pullback form (Pullbacks.cpp: bodies with
// recursive calls) an `if`/`match` instead yields its own pullback, and a
// recursive call returns one; the sweep applies them.
//
//===----------------------------------------------------------------------===//
#include "Sweep.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::gradient;
using namespace mlir::relay::gradient::ad;

bool ad::isFloatTensorType(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && isa<FloatType>(tensor.getElementType());
}

namespace {
/// Tensors, functions and ADT values may sit beside differentiable fields
/// of a tuple.
bool isPassiveLeaf(Type type) {
  if (isa<RankedTensorType, FuncType, ADTType>(type))
    return true;
  auto tuple = dyn_cast<TupleType>(type);
  return tuple && llvm::all_of(tuple.getTypes(), isPassiveLeaf);
}
} // namespace

bool ad::isDifferentiable(Type type, AdtAdjoints *adts) {
  if (isFloatTensorType(type))
    return true;
  if (isa<ADTType>(type))
    return adts && adts->carries(type);
  auto tuple = dyn_cast<TupleType>(type);
  if (!tuple)
    return false;
  bool anyFloat = false;
  for (Type field : tuple.getTypes()) {
    if (isDifferentiable(field, adts))
      anyFloat = true;
    else if (!isPassiveLeaf(field))
      return false;
  }
  return anyFloat;
}

SmallVector<Value> ad::differentiableCaptures(Operation *op,
                                              AdtAdjoints *adts) {
  llvm::SetVector<Value> captures;
  op->walk([&](Operation *inner) {
    if (inner == op) // its own operands (a match's data, an if's condition)
      return;
    for (Value v : inner->getOperands()) {
      Region *defRegion = v.getParentRegion();
      if (op->isProperAncestor(defRegion->getParentOp()) ||
          defRegion->getParentOp() == op)
        continue;
      if (isDifferentiable(v.getType(), adts))
        captures.insert(v);
    }
  });
  return SmallVector<Value>(captures.begin(), captures.end());
}

//===----------------------------------------------------------------------===//
// Adjoint bookkeeping
//===----------------------------------------------------------------------===//

void Sweep::accumulate(Value primal, Value adjoint) {
  if (!adjoint || !isDifferentiable(primal.getType(), adts))
    return;
  addInto(adjoints[primal], primal.getType(), adjoint, primal.getLoc());
}

void Sweep::accumulate(Value primal, const Adjoint &adjoint, Location loc) {
  if (adjoint.empty() || !isDifferentiable(primal.getType(), adts))
    return;
  addTree(adjoints[primal], primal.getType(), adjoint, loc);
}

bool Sweep::hasAdjoint(Value primal) const {
  auto it = adjoints.find(primal);
  return it != adjoints.end() && !it->second.empty();
}

Value Sweep::materialize(Value primal, Location loc) {
  auto it = adjoints.find(primal);
  Adjoint empty;
  return materialize(primal, it == adjoints.end() ? empty : it->second, loc);
}

Value Sweep::field(Value tuple, int64_t index, Location loc) {
  return TupleGetItemOp::create(b, loc, tuple, index);
}

void Sweep::explode(Adjoint &adj, TupleType type, Location loc) {
  if (adj.fields.size() != type.size())
    adj.fields.resize(type.size());
  if (!adj.whole)
    return;
  for (int64_t i = 0, e = type.size(); i < e; ++i)
    addInto(adj.fields[i], type.getType(i), field(adj.whole, i, loc), loc);
  adj.whole = {};
}

void Sweep::addInto(Adjoint &dst, Type type, Value adjoint, Location loc) {
  if (!isDifferentiable(type, adts))
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
  dst.whole = isa<ADTType>(type) ? adts->add(b, loc, dst.whole, adjoint)
                                 : AddOp::create(b, loc, dst.whole, adjoint);
}

void Sweep::addTree(Adjoint &dst, Type type, const Adjoint &src, Location loc) {
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

Value Sweep::materialize(Value primal, const Adjoint &adj, Location loc) {
  if (adj.whole)
    return adj.whole;
  Type type = primal.getType();
  // A function carries no adjoint: its slot holds the function itself,
  // which nothing reads as an adjoint.
  if (isa<FuncType>(type))
    return primal;
  if (isa<ADTType>(type))
    return adts ? adts->zeros(b, loc, primal) : primal;
  auto tuple = dyn_cast<TupleType>(type);
  if (!tuple)
    return ZerosLikeOp::create(b, loc, primal);
  SmallVector<Value> fields;
  Adjoint none;
  for (int64_t i = 0, e = tuple.size(); i < e; ++i) {
    const Adjoint &f =
        i < static_cast<int64_t>(adj.fields.size()) ? adj.fields[i] : none;
    if (f.empty() && !isDifferentiable(tuple.getType(i), adts) &&
        isa<TupleType>(tuple.getType(i)) &&
        cast<TupleType>(tuple.getType(i)).getTypes().empty()) {
      fields.push_back(TupleOp::create(b, loc, ValueRange{}));
      continue;
    }
    fields.push_back(materialize(field(primal, i, loc), f, loc));
  }
  return TupleOp::create(b, loc, fields);
}

//===----------------------------------------------------------------------===//
// Visiting ops
//===----------------------------------------------------------------------===//

Value Sweep::applyPullback(Value pair, Location loc) {
  auto it = adjoints.find(pair);
  Adjoint resultAdj;
  if (it != adjoints.end()) {
    Adjoint copy = it->second; // materialising may rehash the map
    if (copy.whole)
      resultAdj.whole = field(copy.whole, 0, loc);
    else if (!copy.fields.empty())
      resultAdj = copy.fields[0];
  }
  Value grad = materialize(field(pair, 0, loc), resultAdj, loc);
  Value pullback = field(pair, 1, loc);
  return CallOp::create(b, loc, pullback, ValueRange{grad});
}

LogicalResult Sweep::visitPullbackRegionOp(Operation *op,
                                           ArrayRef<Value> captures) {
  Location loc = op->getLoc();
  Value grads = applyPullback(op->getResult(0), loc);
  for (auto [i, c] : llvm::enumerate(captures))
    accumulate(c, field(grads, i, loc));
  if (auto match = dyn_cast<MatchOp>(op))
    accumulate(match.getData(), field(grads, captures.size(), loc));
  return success();
}

LogicalResult Sweep::visitBranches(Operation *op) {
  Location loc = op->getLoc();
  auto match = dyn_cast<MatchOp>(op);
  bool dataAdjoint = match && isDifferentiable(match.getData().getType(), adts);
  SmallVector<Value> captures = differentiableCaptures(op, adts);
  if (captures.empty() && !dataAdjoint)
    return success();
  Value grad = materialize(op->getResult(0), loc);
  SmallVector<Type> types;
  for (Value c : captures)
    types.push_back(c.getType());
  if (dataAdjoint)
    types.push_back(match.getData().getType());
  // The same `if` (on the same condition) or `match` (on the same value;
  // its wildcards were bound before the sweep): each branch recomputes its
  // forward ops, sweeps them, and yields the adjoints of its captures and,
  // for a match, of the matched value, rebuilt from its pattern variables'.
  auto resultType = TupleType::get(b.getContext(), types);
  Operation *backward =
      match ? MatchOp::create(b, loc, resultType, match.getData(),
                              match.getPatterns(), match.getComplete(),
                              match.getClauses().size())
                  .getOperation()
            : IfOp::create(b, loc, resultType, cast<IfOp>(op).getCond())
                  .getOperation();
  for (auto [i, regions] :
       llvm::enumerate(llvm::zip(op->getRegions(), backward->getRegions()))) {
    auto &[src, dst] = regions;
    IRMapping mapping;
    src.cloneInto(&dst, mapping);
    Block &block = dst.front();
    auto yield = cast<YieldOp>(block.getTerminator());
    OpBuilder inner(yield);
    Sweep branch(inner, info, adts);
    branch.accumulate(yield.getValue(), grad);
    if (failed(branch.run(block)))
      return failure();
    SmallVector<Value> results;
    for (Value c : captures)
      results.push_back(branch.materialize(c, loc));
    if (dataAdjoint) {
      SmallVector<Value> vars;
      for (Value arg : block.getArguments())
        vars.push_back(branch.materialize(arg, loc));
      ArrayRef<Value> rest = vars;
      results.push_back(adts->rebuild(inner, loc, match.getPatterns()[i],
                                      match.getData().getType(), rest));
    }
    yield->setOperand(0, TupleOp::create(inner, loc, results));
  }
  for (auto [i, c] : llvm::enumerate(captures))
    accumulate(c, field(backward->getResult(0), i, loc));
  if (dataAdjoint)
    accumulate(match.getData(),
               field(backward->getResult(0), captures.size(), loc));
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
    Adjoint tree;
    tree.fields.resize(type.size());
    tree.fields[get.getIndex()] = adjoints[result];
    accumulate(tuple, tree, loc);
    return success();
  }
  if (info) {
    auto it = info->ifCaptures.find(op);
    if (it != info->ifCaptures.end())
      return visitPullbackRegionOp(op, it->second);
  }
  if (isa<IfOp, MatchOp>(op))
    return visitBranches(op);
  if (auto construct = dyn_cast<ConstructOp>(op)) {
    Value fields = adts->fields(b, loc, materialize(result, loc),
                                construct.getConstructor());
    for (auto [i, f] : llvm::enumerate(construct.getFields()))
      accumulate(f, field(fields, i, loc));
    return success();
  }
  if (isa<ConstantOp>(op))
    return success();
  if (auto call = dyn_cast<func::CallOp>(op);
      call && call->hasAttr(kVJPCallAttr)) {
    Value grads = applyPullback(result, loc);
    for (auto [i, arg] : llvm::enumerate(call.getOperands()))
      accumulate(arg, field(grads, i, loc));
    return success();
  }
  if (isa<func::CallOp, CallOp>(op))
    return op->emitError()
           << "cannot differentiate through this call: the callee is not "
              "known at compile time (a function value), or a recursive "
              "closure";
  if (op->getDialect() != op->getContext()->getLoadedDialect<RelayDialect>() ||
      isa<FnOp, RefNewOp, RefReadOp, RefWriteOp, GradOp, GlobalFnOp, ClosureOp>(
          op))
    return op->emitError() << "cannot differentiate through `" << op->getName()
                           << "` yet";

  // An operator: its gradient rule.
  bool anyDifferentiableOperand = llvm::any_of(
      op->getOperandTypes(), [&](Type t) { return isDifferentiable(t, adts); });
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

LogicalResult Sweep::run(ArrayRef<Operation *> ops) {
  for (Operation *op : llvm::reverse(ops))
    if (failed(visit(op)))
      return failure();
  return success();
}

LogicalResult Sweep::run(Block &block) {
  SmallVector<Operation *> ops;
  for (Operation &op : block.without_terminator())
    ops.push_back(&op);
  return run(ops);
}
