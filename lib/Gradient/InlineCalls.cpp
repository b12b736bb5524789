//===- InlineCalls.cpp - straight-line code for the reverse sweep ---------===//
//
// Before a body is differentiated, calls whose callee is known and not
// recursive are replaced by the callee's body: `func.call @f`, `relay.call`
// of `relay.global_fn @f`, and `relay.call` of a non-recursive `relay.fn`
// in scope (a let-bound closure).
//
// A recursive callee given a known function argument (`@map(%f, %l)` with
// `%f` a `relay.global_fn` or a closure in scope) is first specialised on
// it: `@map$spec<n>(captures of %f, %l)` makes the function at its entry
// (the closure over its capture parameters) and passes it on in its own
// recursive calls, which therefore call the specialisation again. The
// function parameter is gone, so the recursion is differentiated by
// pullbacks like any other and the calls of `%f` inside are inlined.
//
// A recursive closure (`relay.fn recursive`) called in the body becomes a
// module function of its captures and parameters (lambda lifting), whose
// calls of itself are direct calls: recursion by pullbacks again.
//
// What is left (closures passed in as values of unknown origin) is reported
// by the sweep if it lies on a differentiated path.
//
//===----------------------------------------------------------------------===//
#include "Sweep.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/DenseSet.h"

#include <map>
#include <tuple>

using namespace mlir;
using namespace mlir::relay;

namespace {

/// The module functions `fn` refers to (calls and function values).
SmallVector<func::FuncOp> callees(func::FuncOp fn, SymbolTable &symbols) {
  SmallVector<func::FuncOp> out;
  fn.walk([&](Operation *op) {
    StringRef name;
    if (auto call = dyn_cast<func::CallOp>(op))
      name = call.getCallee();
    else if (auto ref = dyn_cast<GlobalFnOp>(op))
      name = ref.getCallee();
    else
      return;
    if (auto callee = symbols.lookup<func::FuncOp>(name))
      out.push_back(callee);
  });
  return out;
}

} // namespace

bool gradient::ad::isRecursiveFunction(func::FuncOp fn, SymbolTable &symbols) {
  llvm::DenseSet<Operation *> seen;
  SmallVector<func::FuncOp> work = callees(fn, symbols);
  while (!work.empty()) {
    func::FuncOp f = work.pop_back_val();
    if (f == fn)
      return true;
    if (!seen.insert(f).second)
      continue;
    llvm::append_range(work, callees(f, symbols));
  }
  return false;
}

namespace {

/// Replaces `call` (result `result`, arguments `args`) by a copy of
/// `body`'s single block with its first arguments mapped to `prefix` then
/// `args`.
void inlineBlock(Operation *call, Region &body, ValueRange prefix,
                 ValueRange args) {
  Block &src = body.front();
  IRMapping mapping;
  unsigned i = 0;
  for (Value v : prefix)
    mapping.map(src.getArgument(i++), v);
  for (Value v : args)
    mapping.map(src.getArgument(i++), v);
  OpBuilder b(call);
  for (Operation &op : src.without_terminator())
    b.clone(op, mapping);
  Value result = mapping.lookupOrDefault(src.getTerminator()->getOperand(0));
  call->getResult(0).replaceAllUsesWith(result);
  call->erase();
}

/// Specialises calls of recursive module functions on known function
/// arguments (see the file comment).
class Specializer {
public:
  Specializer(ModuleOp module, SymbolTable &symbols)
      : module(module), symbols(symbols) {}

  /// Specialises `call` (a `func.call`) if one of its arguments is a known
  /// function; whether it did.
  FailureOr<bool> specialize(func::CallOp call);

  /// The module function a recursive closure becomes: its captures, then
  /// its parameters; its calls of itself call the function.
  FailureOr<func::FuncOp> lift(FnOp fn);

private:
  /// What a known function argument is: a symbol, or the closure a
  /// specialisation copied (its copies count as the same).
  const void *identity(Operation *def) {
    if (auto ref = dyn_cast<GlobalFnOp>(def))
      return ref.getCalleeAttr().getAttr().getAsOpaquePointer();
    return rootClosure(def);
  }
  /// The closure `fn` copies (itself if it is no copy).
  Operation *rootClosure(Operation *fn) {
    auto it = origin.find(fn);
    return it == origin.end() ? fn : it->second;
  }

  ModuleOp module;
  SymbolTable &symbols;
  std::map<std::tuple<Operation *, unsigned, const void *>, func::FuncOp> made;
  llvm::DenseMap<Operation *, Operation *> origin;
  llvm::DenseMap<Operation *, func::FuncOp> lifted;
  static constexpr int kMaxSpecializations = 256;
};

FailureOr<func::FuncOp> Specializer::lift(FnOp fn) {
  if (func::FuncOp done = lifted.lookup(fn))
    return done;
  Block &body = fn.getBody().front();
  Value self = body.getArgument(0);
  for (OpOperand &use : self.getUses()) {
    auto call = dyn_cast<CallOp>(use.getOwner());
    if (!call || use.getOperandNumber() != 0)
      return fn.emitError() << "cannot differentiate through this recursive "
                               "closure: it uses itself other than by "
                               "calling itself";
  }
  llvm::SetVector<Value> captures;
  getUsedValuesDefinedAbove(fn.getBody(), captures);
  auto type = cast<FuncType>(fn.getType());
  SmallVector<Type> inputs;
  for (Value c : captures)
    inputs.push_back(c.getType());
  llvm::append_range(inputs, type.getInputs());
  MLIRContext *ctx = fn.getContext();
  OpBuilder b(ctx);
  auto enclosing = fn->getParentOfType<func::FuncOp>();
  auto out =
      func::FuncOp::create(b, fn.getLoc(), "closure$rec",
                           FunctionType::get(ctx, inputs, {type.getResult()}));
  out.setPrivate();
  symbols.insert(out, std::next(Block::iterator(enclosing)));
  lifted[fn] = out;
  Block *entry = out.addEntryBlock();
  IRMapping mapping;
  for (auto [c, arg] : llvm::zip(captures, entry->getArguments()))
    mapping.map(c, arg);
  for (auto [param, arg] :
       llvm::zip(body.getArguments().drop_front(),
                 entry->getArguments().drop_front(captures.size())))
    mapping.map(param, arg);
  b.setInsertionPointToStart(entry);
  for (Operation &op : body.without_terminator())
    b.clone(op, mapping);
  func::ReturnOp::create(
      b, fn.getLoc(),
      mapping.lookupOrDefault(body.getTerminator()->getOperand(0)));
  // Calls of itself (the dropped first argument) call the function.
  SmallVector<CallOp> selfCalls;
  out.walk([&](CallOp call) {
    if (call.getCallee() == self)
      selfCalls.push_back(call);
  });
  for (CallOp call : selfCalls) {
    OpBuilder at(call);
    SmallVector<Value> operands(
        entry->getArguments().take_front(captures.size()));
    llvm::append_range(operands, call.getArgs());
    auto direct = func::CallOp::create(at, call.getLoc(), out, operands);
    call->replaceAllUsesWith(direct.getResults());
    call->erase();
  }
  return out;
}

FailureOr<bool> Specializer::specialize(func::CallOp call) {
  auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
  if (!callee || callee.isExternal())
    return false;
  unsigned index = 0;
  Operation *def = nullptr;
  for (auto [i, arg] : llvm::enumerate(call.getOperands())) {
    Operation *d = arg.getDefiningOp();
    if (isa_and_present<GlobalFnOp>(d) ||
        (isa_and_present<FnOp>(d) && !cast<FnOp>(d).getRecursive())) {
      index = i;
      def = d;
      break;
    }
  }
  if (!def)
    return false;
  llvm::SetVector<Value> captures;
  if (auto fn = dyn_cast<FnOp>(def))
    getUsedValuesDefinedAbove(fn.getBody(), captures);

  auto key = std::make_tuple(callee.getOperation(), index, identity(def));
  auto found = made.find(key);
  func::FuncOp spec = found == made.end() ? func::FuncOp() : found->second;
  if (!spec) {
    if (made.size() > kMaxSpecializations)
      return call.emitError()
             << "more than " << kMaxSpecializations
             << " specialisations of recursive functions on their function "
                "arguments while preparing the gradient (is a function "
                "argument rebuilt at every recursive call?)";
    MLIRContext *ctx = call.getContext();
    spec = callee.clone();
    spec.setSymName((callee.getSymName() + "$spec" + Twine(made.size())).str());
    spec.setPrivate();
    spec->removeAttr("relay.type_params");
    Block &entry = spec.getBody().front();
    Location loc = call.getLoc();
    IRMapping mapping;
    for (auto [i, c] : llvm::enumerate(captures))
      mapping.map(c, entry.insertArgument(i, c.getType(), c.getLoc()));
    OpBuilder b = OpBuilder::atBlockBegin(&entry);
    Operation *known = b.clone(*def, mapping);
    if (isa<FnOp>(def))
      origin[known] = rootClosure(def);
    unsigned param = captures.size() + index;
    entry.getArgument(param).replaceAllUsesWith(known->getResult(0));
    entry.eraseArgument(param);
    spec.setFunctionType(FunctionType::get(
        ctx, entry.getArgumentTypes(), callee.getFunctionType().getResults()));
    symbols.insert(spec, std::next(Block::iterator(callee)));
    made[key] = spec;
    // Its own recursive calls pass the function on: specialise them now, so
    // the specialisation calls itself (and is recursive, not inlined).
    SmallVector<func::CallOp> inner;
    spec.walk([&](func::CallOp c) { inner.push_back(c); });
    for (func::CallOp c : inner)
      if (failed(specialize(c)))
        return failure();
  }
  SmallVector<Value> operands(captures.begin(), captures.end());
  for (auto [i, arg] : llvm::enumerate(call.getOperands()))
    if (i != index)
      operands.push_back(arg);
  OpBuilder b(call);
  auto replacement = func::CallOp::create(b, call.getLoc(), spec, operands);
  call.replaceAllUsesWith(replacement.getResults());
  call.erase();
  return true;
}

} // namespace

LogicalResult gradient::inlineCalls(Region &region) {
  auto module = region.getParentOp()->getParentOfType<ModuleOp>();
  SymbolTable symbols(module);
  Specializer specializer(module, symbols);
  llvm::DenseMap<Operation *, bool> recursive;
  auto isRecursiveFn = [&](func::FuncOp fn) {
    auto [it, inserted] = recursive.try_emplace(fn, false);
    if (inserted)
      it->second = ad::isRecursiveFunction(fn, symbols);
    return it->second;
  };
  // Each round inlines the calls it finds; inlined bodies may hold more.
  constexpr int kMaxInlined = 100000;
  int inlined = 0;
  while (true) {
    SmallVector<Operation *> calls;
    region.walk([&](Operation *op) {
      if (isa<func::CallOp, CallOp>(op))
        calls.push_back(op);
    });
    bool changed = false;
    for (Operation *op : calls) {
      if (auto call = dyn_cast<func::CallOp>(op)) {
        auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
        if (!callee || callee.isExternal())
          continue;
        if (isRecursiveFn(callee)) {
          FailureOr<bool> done = specializer.specialize(call);
          if (failed(done))
            return failure();
          changed |= *done;
          continue;
        }
        inlineBlock(call, callee.getBody(), {}, call.getOperands());
      } else {
        auto apply = cast<CallOp>(op);
        Operation *def = apply.getCallee().getDefiningOp();
        if (auto ref = dyn_cast_if_present<GlobalFnOp>(def)) {
          auto callee = symbols.lookup<func::FuncOp>(ref.getCallee());
          if (!callee || callee.isExternal() || isRecursiveFn(callee))
            continue;
          inlineBlock(apply, callee.getBody(), {}, apply.getArgs());
        } else if (auto fn = dyn_cast_if_present<FnOp>(def)) {
          if (fn.getRecursive()) {
            FailureOr<func::FuncOp> lifted = specializer.lift(fn);
            if (failed(lifted))
              return failure();
            SmallVector<Value> operands;
            llvm::SetVector<Value> captures;
            getUsedValuesDefinedAbove(fn.getBody(), captures);
            llvm::append_range(operands, captures);
            llvm::append_range(operands, apply.getArgs());
            OpBuilder b(apply);
            auto call =
                func::CallOp::create(b, apply.getLoc(), *lifted, operands);
            apply->replaceAllUsesWith(call.getResults());
            apply->erase();
          } else {
            inlineBlock(apply, fn.getBody(), {}, apply.getArgs());
          }
        } else {
          continue;
        }
      }
      changed = true;
      if (++inlined > kMaxInlined)
        return region.getParentOp()->emitError()
               << "more than " << kMaxInlined
               << " calls inlined while preparing the gradient";
    }
    if (!changed)
      break;
  }
  // Closures and function references left without uses are dead now.
  SmallVector<Operation *> dead;
  region.walk([&](Operation *op) {
    if (isa<FnOp, GlobalFnOp>(op) && op->use_empty())
      dead.push_back(op);
  });
  for (Operation *op : dead) // post-order: inner closures first
    op->erase();
  ad::promoteLocalRefs(region);
  return success();
}
