//===- Pullbacks.cpp - differentiating bodies, recursion by pullbacks -----===//
//
// `differentiateBody` seeds the result and runs the reverse sweep. Calls of
// recursive functions cannot be inlined; a body that has them is first put
// in pullback form:
//
//   * every recursive callee `@h` gets `@h$vjp : (params) -> (result,
//     pullback)`, where `pullback : fn(adjoint of result) -> (adjoints of
//     params)` is a closure over `@h$vjp`'s forward values whose body is the
//     reverse sweep of `@h` (itself in pullback form, so it applies the
//     pullbacks of its own recursive calls);
//   * a call `@h(args)` becomes `@h$vjp(args)` (result: field 0), and a
//     `relay.if` containing such calls yields `(result, pullback of the
//     branch)` so the backward pass applies the branch's pullback instead of
//     recomputing the branch (which would redo the recursion).
//
// This is the "backpropagator" method of the Relay paper with closures in
// place of a global reference; relay-lambda-lift and relay-defunctionalize
// turn the closures into data (a tape), relay-eliminate-recursion the
// recursion into loops.
//
//===----------------------------------------------------------------------===//
#include "Sweep.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::gradient;
using namespace mlir::relay::gradient::ad;

namespace {

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
  if (isFloatTensorType(type))
    return OnesLikeOp::create(b, loc, value);
  return ZerosLikeOp::create(b, loc, value);
}

/// Whether `type` can have an adjoint materialised (zeros) when nothing
/// flows into it: tensors, ADT values and tuples of them.
bool hasZeroAdjoint(Type type) {
  if (isa<RankedTensorType, ADTType>(type))
    return true;
  auto tuple = dyn_cast<TupleType>(type);
  return tuple && llvm::all_of(tuple.getTypes(), hasZeroAdjoint);
}

/// The adjoint of the value a clause matched, built in its pullback's sweep.
using ExtraAdjoint = function_ref<Value(Sweep &, OpBuilder &, Location)>;

class PullbackBuilder {
public:
  PullbackBuilder(ModuleOp module, AdtAdjoints &adts)
      : module(module), symbols(module), adts(adts) {}

  /// Whether `region` calls a recursive module function.
  bool hasRecursiveCalls(Region &region) {
    bool found = false;
    region.walk([&](func::CallOp call) {
      if (recursiveCallee(call))
        found = true;
    });
    return found;
  }

  /// Rewrites `region` into pullback form (recursive calls -> `$vjp` calls,
  /// `if`s around them -> `if`s yielding their pullback).
  LogicalResult rewrite(Region &region);

  const PullbackInfo &getInfo() const { return info; }

private:
  func::FuncOp recursiveCallee(func::CallOp call) {
    if (call->hasAttr(kVJPCallAttr))
      return {};
    auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
    if (!callee || callee.isExternal())
      return {};
    auto [it, inserted] = recursive.try_emplace(callee, false);
    if (inserted)
      it->second = isRecursiveFunction(callee, symbols);
    return it->second ? callee : func::FuncOp();
  }

  FailureOr<func::FuncOp> vjpOf(func::FuncOp fn);
  /// Makes `block` (ending in `terminator`, whose operand 0 is the result)
  /// return `(result, pullback)`: the pullback, of type `pullbackType`,
  /// sweeps the block's ops from its argument and returns the adjoints of
  /// `inputs`.
  LogicalResult returnPullback(Block &block, Operation *terminator,
                               FuncType pullbackType, ValueRange inputs,
                               ExtraAdjoint extra = nullptr);
  LogicalResult rewriteCall(func::CallOp call);
  /// An `if` or `match` around `$vjp` calls yields `(result, pullback)`.
  LogicalResult rewriteRegionOp(Operation *op);

  ModuleOp module;
  SymbolTable symbols;
  AdtAdjoints &adts;
  llvm::DenseMap<Operation *, bool> recursive;
  PullbackInfo info;
};

LogicalResult PullbackBuilder::rewrite(Region &region) {
  // Innermost first: an `if` is rewritten after the calls and `if`s in it.
  SmallVector<Operation *> ops;
  region.walk([&](Operation *op) {
    if (isa<func::CallOp, IfOp, MatchOp>(op))
      ops.push_back(op);
  });
  for (Operation *op : ops) {
    if (auto call = dyn_cast<func::CallOp>(op)) {
      if (recursiveCallee(call) && failed(rewriteCall(call)))
        return failure();
      continue;
    }
    bool hasVJP = false;
    op->walk([&](func::CallOp c) {
      if (c->hasAttr(kVJPCallAttr))
        hasVJP = true;
    });
    if (hasVJP && failed(rewriteRegionOp(op)))
      return failure();
  }
  return success();
}

LogicalResult PullbackBuilder::rewriteCall(func::CallOp call) {
  FailureOr<func::FuncOp> vjp = vjpOf(recursiveCallee(call));
  if (failed(vjp))
    return failure();
  OpBuilder b(call);
  auto pair = func::CallOp::create(b, call.getLoc(), *vjp, call.getOperands());
  pair->setAttr(kVJPCallAttr, b.getUnitAttr());
  Value result = TupleGetItemOp::create(b, call.getLoc(), pair.getResult(0), 0);
  call.getResult(0).replaceAllUsesWith(result);
  call.erase();
  return success();
}

LogicalResult PullbackBuilder::rewriteRegionOp(Operation *op) {
  Location loc = op->getLoc();
  MLIRContext *ctx = op->getContext();
  SmallVector<Value> captures = differentiableCaptures(op, &adts);
  SmallVector<Type> adjointTypes;
  for (Value c : captures)
    adjointTypes.push_back(c.getType());
  auto match = dyn_cast<MatchOp>(op);
  bool dataAdjoint =
      match && isDifferentiable(match.getData().getType(), &adts);
  if (dataAdjoint)
    adjointTypes.push_back(match.getData().getType());
  Type resultType = op->getResult(0).getType();
  auto pullbackType =
      FuncType::get(ctx, {resultType}, TupleType::get(ctx, adjointTypes));
  auto pairType = TupleType::get(ctx, {resultType, pullbackType});
  OpBuilder b(op);
  Operation *pairOp;
  if (match)
    pairOp =
        MatchOp::create(b, loc, pairType, match.getData(), match.getPatterns(),
                        match.getComplete(), match.getClauses().size());
  else
    pairOp = IfOp::create(b, loc, pairType, cast<IfOp>(op).getCond());
  for (auto [i, regions] :
       llvm::enumerate(llvm::zip(op->getRegions(), pairOp->getRegions()))) {
    auto &[src, dst] = regions;
    dst.takeBody(src);
    Block &block = dst.front();
    // A clause's pullback also rebuilds the matched value's adjoint from
    // its pattern variables'.
    auto rebuild = [&, i = i](Sweep &sweep, OpBuilder &inner, Location at) {
      SmallVector<Value> vars;
      for (Value arg : block.getArguments())
        vars.push_back(sweep.materialize(arg, at));
      ArrayRef<Value> rest = vars;
      return adts.rebuild(inner, at, match.getPatterns()[i],
                          match.getData().getType(), rest);
    };
    if (failed(returnPullback(block, block.getTerminator(), pullbackType,
                              captures,
                              dataAdjoint ? ExtraAdjoint(rebuild) : nullptr)))
      return failure();
  }
  info.ifCaptures[pairOp] = captures;
  op->getResult(0).replaceAllUsesWith(
      TupleGetItemOp::create(b, loc, pairOp->getResult(0), 0));
  op->erase();
  return success();
}

FailureOr<func::FuncOp> PullbackBuilder::vjpOf(func::FuncOp fn) {
  std::string name = (fn.getSymName() + "$vjp").str();
  if (auto existing = symbols.lookup<func::FuncOp>(name))
    return existing;
  for (auto [i, type] : llvm::enumerate(fn.getArgumentTypes()))
    if (!hasZeroAdjoint(type))
      return fn.emitError()
             << "cannot differentiate through the recursive function @"
             << fn.getSymName() << ": parameter #" << i << " has type " << type
             << " (recursion is differentiated over tensors, ADT values and "
             << "tuples of them)";
  if (fn.getNumResults() != 1 ||
      !isDifferentiable(fn.getResultTypes()[0], &adts))
    return fn.emitError() << "cannot differentiate through the recursive "
                             "function @"
                          << fn.getSymName()
                          << ": its result carries no gradient";
  MLIRContext *ctx = fn.getContext();
  Type resultType = fn.getResultTypes()[0];
  auto pullbackType = FuncType::get(ctx, {resultType},
                                    TupleType::get(ctx, fn.getArgumentTypes()));
  func::FuncOp vjp = fn.clone();
  vjp.setSymName(name);
  vjp->removeAttr("relay.type_params");
  vjp.setFunctionType(
      FunctionType::get(ctx, fn.getArgumentTypes(),
                        {TupleType::get(ctx, {resultType, pullbackType})}));
  symbols.insert(vjp, std::next(Block::iterator(fn)));
  // Registered before its body is rewritten: its own recursive calls use it.
  if (failed(inlineCalls(vjp.getBody())))
    return failure();
  vjp.walk([&](MatchOp m) { adts.bindWildcards(m); });
  if (failed(rewrite(vjp.getBody())))
    return failure();
  Block &block = vjp.getBody().front();
  if (failed(returnPullback(block, block.getTerminator(), pullbackType,
                            block.getArguments())))
    return failure();
  return vjp;
}

LogicalResult PullbackBuilder::returnPullback(Block &block,
                                              Operation *terminator,
                                              FuncType pullbackType,
                                              ValueRange inputs,
                                              ExtraAdjoint extra) {
  Location loc = terminator->getLoc();
  Value result = terminator->getOperand(0);
  SmallVector<Operation *> forward;
  for (Operation &op : block.without_terminator())
    forward.push_back(&op);
  OpBuilder atEnd(terminator);
  auto pullback = FnOp::create(atEnd, loc, pullbackType, UnitAttr());
  Block *body = new Block();
  pullback.getBody().push_back(body);
  Value seed = body->addArgument(result.getType(), loc);
  OpBuilder inner = OpBuilder::atBlockEnd(body);
  Sweep sweep(inner, &info, &adts);
  sweep.accumulate(result, seed);
  if (failed(sweep.run(forward)))
    return failure();
  SmallVector<Value> grads;
  for (Value input : inputs)
    grads.push_back(sweep.materialize(input, loc));
  if (extra)
    grads.push_back(extra(sweep, inner, loc));
  YieldOp::create(inner, loc, TupleOp::create(inner, loc, grads));
  terminator->setOperand(
      0, TupleOp::create(atEnd, loc, ValueRange{result, pullback}));
  return success();
}

} // namespace

LogicalResult gradient::differentiateBody(Block &body, const GradSpec &spec) {
  Operation *terminator = body.getTerminator();
  Location loc = terminator->getLoc();
  Value result = terminator->getOperand(0);
  if (!isDifferentiable(result.getType()))
    return terminator->emitError()
           << "cannot differentiate a function whose result is "
           << result.getType()
           << ": the result must be a floating-point tensor or a tuple of "
              "tensors with one";
  auto module = body.getParentOp()->getParentOfType<ModuleOp>();
  AdtAdjoints adts(module);
  PullbackBuilder pullbacks(module, adts);
  Region &region = *body.getParent();
  region.walk([&](MatchOp m) { adts.bindWildcards(m); });
  if (pullbacks.hasRecursiveCalls(region) && failed(pullbacks.rewrite(region)))
    return failure();
  result = terminator->getOperand(0); // the rewrite may replace it
  SmallVector<Operation *> forward;
  for (Operation &op : body.without_terminator())
    forward.push_back(&op);
  OpBuilder b(terminator);
  Sweep sweep(b, &pullbacks.getInfo(), &adts);
  sweep.accumulate(result, spec.seed ? spec.seed : onesSeed(b, loc, result));
  if (failed(sweep.run(forward)))
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
