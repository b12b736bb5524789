//===- InferType.cpp - relay-infer-type -----------------------------------===//
//
// Hindley-Milner inference over a whole module, with Relay's type relations
// (the ops' typing rules, relay/RelayRelations.h) for operators:
//   1. every `!relay.incomplete` in the IR becomes a fresh variable;
//   2. the language constructs (functions, calls, if, closures, match,
//      constructors, tuples, references) add equality constraints, solved
//      at once by unification (RelayTypeSolver.h): the relay ones state
//      their typing rules (TypeEquationsOpInterface, the equations their
//      verifiers check), func.func/return/call theirs here;
//   3. every op with a typing rule (InferTypeOpInterface) runs it as soon as
//      its operand types are complete, and its declared results are unified
//      with the rule's; this repeats until nothing changes (a rule is re-run
//      when its operands got refined, e.g. `?` became static). An op whose
//      operands are not all known yet types the unknown ones its operator
//      implies (inferOperandTypes: an untyped conv2d weight from `channels`
//      and `kernel_size`, as TVM's relations assign operand types);
//   4. the solution is written back; a type still unknown is an error.
//
// Generic functions (`relay.type_params`): their `!relay.tvar` parameters
// are rigid inside them (solver constants, equal only to themselves); each
// use of one elsewhere unifies with its signature instantiated with fresh
// variables for the parameters. A generic signature with holes is solved
// from its own body first: uses of it outside its body wait (`deferred`)
// until the relations have run and its signature is complete.
//
//===----------------------------------------------------------------------===//
#include "relay/RelayImpliedOperands.h"
#include "relay/RelayOps.h"
#include "relay/RelayPasses.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYINFERTYPE
#include "relay/RelayPasses.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

namespace {

/// True for relay ops whose result types come from a typing rule
/// (InferTypeOpInterface).
bool hasTypingRule(Operation *op) {
  return isa<InferTypeOpInterface>(op) && !isa<TypeEquationsOpInterface>(op) &&
         isa<RelayDialect>(op->getDialect());
}

/// Runs `op`'s typing rule on `operandTypes` (the solver's current view of
/// its operands, all complete), reporting a broken rule at `op`.
LogicalResult runTypingRule(Operation *op, ArrayRef<Type> operandTypes,
                            SmallVectorImpl<Type> &results) {
  // InferTypeOpInterface reads operand types off the values: give them the
  // solved types for the call, then put the IR back as it was.
  SmallVector<Type> saved(op->getOperandTypes());
  for (auto [operand, type] : llvm::zip(op->getOperands(), operandTypes))
    operand.setType(type);
  LogicalResult result = cast<InferTypeOpInterface>(op).inferReturnTypes(
      op->getContext(), op->getLoc(), op->getOperands(),
      op->getRawDictionaryAttrs(), op->getPropertiesStorage(), op->getRegions(),
      results);
  for (auto [operand, type] :
       llvm::reverse(llvm::zip(op->getOperands(), saved)))
    operand.setType(type);
  return result;
}

/// How diagnostics name the rule typing `op`.
std::string ruleName(Operation *op) {
  return "typing rule of " + op->getName().getStringRef().str();
}

class Inferer : public TypeEquations {
public:
  explicit Inferer(ModuleOp module)
      : module(module), solver(module.getContext()) {}

  LogicalResult run() {
    if (failed(instantiateAll()))
      return failure();
    WalkResult walk = module.walk([&](Operation *op) {
      return failed(constrain(op)) ? WalkResult::interrupt()
                                   : WalkResult::advance();
    });
    if (walk.wasInterrupted() || failed(solveRelations()) ||
        failed(solveDeferredInstances()) || failed(reportUnresolved()))
      return failure();
    writeBack();
    castToSignatures();
    return success();
  }

private:
  //===--------------------------------------------------------------------===//
  // 1. Fresh variables
  //===--------------------------------------------------------------------===//

  /// Errors on `!relay.adt<@X, ...>` naming no ADT or with the wrong number
  /// of type arguments.
  LogicalResult checkADTs(Type type, Location loc) {
    LogicalResult result = success();
    walkType(type, [&](Type t) {
      auto adt = dyn_cast<ADTType>(t);
      if (!adt || failed(result))
        return;
      auto def = dyn_cast_or_null<ADTOp>(
          symbols.lookupSymbolIn(module, adt.getName()));
      if (!def) {
        result = mlir::emitError(loc)
                 << "type " << adt << " names " << adt.getName()
                 << ", which is not a relay.adt";
        return;
      }
      if (def.getTypeParams().size() != adt.getArgs().size())
        result = mlir::emitError(loc)
                 << "type " << adt << " gives " << adt.getArgs().size()
                 << " type arguments but " << adt.getName() << " has "
                 << def.getTypeParams().size() << " type parameters";
    });
    return result;
  }

  Type fresh(Type type) { return solver.instantiate(type, &named); }

  /// Errors on a `!relay.tvar` in `type` that is not a type parameter of
  /// `fn`, the function the type occurs in.
  LogicalResult checkTypeVars(Type type, func::FuncOp fn, Location loc) {
    if (!fn)
      return success();
    ArrayAttr params = getTypeParams(fn);
    LogicalResult result = success();
    walkType(type, [&](Type t) {
      auto tvar = dyn_cast<TypeVarType>(t);
      if (!tvar || failed(result))
        return;
      if (params && llvm::any_of(params, [&](Attribute p) {
            auto name = dyn_cast<StringAttr>(p);
            return name && name.getValue() == tvar.getName();
          }))
        return;
      InFlightDiagnostic diag = mlir::emitError(loc)
                                << "type variable " << tvar
                                << " is not a type parameter of @"
                                << fn.getName();
      if (params)
        diag << " (its type parameters are " << params << ")";
      else
        diag << " (it has no '" << kTypeParamsAttrName << "')";
      result = failure();
    });
    return result;
  }

  /// checkADTs and checkTypeVars.
  LogicalResult checkType(Type type, func::FuncOp fn, Location loc) {
    return success(succeeded(checkADTs(type, loc)) &&
                   succeeded(checkTypeVars(type, fn, loc)));
  }

  LogicalResult instantiateAll() {
    for (auto fn : module.getOps<func::FuncOp>())
      if (failed(verifyTypeParams(fn)))
        return failure();
    WalkResult walk = module.walk([&](Operation *op) {
      auto enclosing = dyn_cast<func::FuncOp>(op);
      if (!enclosing)
        enclosing = op->getParentOfType<func::FuncOp>();
      if (auto fn = dyn_cast<func::FuncOp>(op)) {
        if (failed(checkType(fn.getFunctionType(), fn, fn.getLoc())))
          return WalkResult::interrupt();
        fn.setFunctionType(cast<FunctionType>(fresh(fn.getFunctionType())));
      }
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments()) {
            if (failed(checkType(arg.getType(), enclosing, arg.getLoc())))
              return WalkResult::interrupt();
            arg.setType(fresh(arg.getType()));
          }
      for (OpResult result : op->getResults()) {
        if (failed(checkType(result.getType(), enclosing, op->getLoc())))
          return WalkResult::interrupt();
        result.setType(fresh(result.getType()));
      }
      return WalkResult::advance();
    });
    return failure(walk.wasInterrupted());
  }

  //===--------------------------------------------------------------------===//
  // 2. Constraints of the language constructs
  //===--------------------------------------------------------------------===//

  /// Unifies `a` and `b`; on a clash reports both types at `op`, `what`
  /// saying which constraint failed.
  LogicalResult unifyAt(Operation *op, Type a, Type b, const Twine &what) {
    if (succeeded(solver.unify(a, b)))
      return success();
    InFlightDiagnostic diag = op->emitError();
    solver.explainClash(*diag.getUnderlyingDiagnostic(), a, b, what);
    return failure();
  }

  // TypeEquations, for the relay language ops' rules: their types are the
  // solver's (instantiated) types already.
  Type typeOf(Value value) override { return value.getType(); }
  // Signatures were instantiated with the rest of the module (step 1).
  Type instantiate(Type declared) override { return declared; }
  Type fresh() override { return solver.fresh(); }
  LogicalResult equal(Type a, Type b, const Twine &what) override {
    return unifyAt(current, a, b, what);
  }
  LogicalResult instance(Type use, func::FuncOp callee,
                         const Twine &) override {
    Type signature = getRelayFnType(callee.getFunctionType());
    if (getTypeParams(callee))
      return constrainInstance({current, callee, use, signature});
    return unifyAt(current, use, signature, "type of @" + callee.getName());
  }
  Operation *lookup(SymbolRefAttr name) override {
    return symbols.lookupSymbolIn(module, name);
  }
  InFlightDiagnostic emitError() override { return current->emitError(); }

  /// A use of the generic function `callee` at `useType`; `sigType` is the
  /// callee's signature (both as `!relay.fn`).
  struct Instance {
    Operation *use;
    func::FuncOp callee;
    Type useType, sigType;
  };

  /// Unifies `inst.useType` with the callee's signature, its type
  /// parameters replaced by fresh variables.
  LogicalResult instantiate(Instance inst) {
    ArrayAttr params = getTypeParams(inst.callee);
    SmallVector<Type> vars;
    for (size_t i = 0, e = params.size(); i < e; ++i)
      vars.push_back(solver.fresh());
    Type type =
        substituteTypeParams(solver.resolve(inst.sigType), params, vars);
    return unifyAt(inst.use, inst.useType, type,
                   "instance of generic @" + inst.callee.getName());
  }

  /// The constraint of a use of a generic function: an instance of its
  /// signature; a signature with holes is shared by uses inside the
  /// function itself and waits to be solved for uses elsewhere.
  LogicalResult constrainInstance(Instance inst) {
    if (!hasHole(inst.callee.getFunctionType()))
      return instantiate(inst);
    if (inst.use->getParentOfType<func::FuncOp>() == inst.callee)
      return unifyAt(inst.use, inst.useType, inst.sigType,
                     "recursive use of @" + inst.callee.getName());
    deferred.push_back(inst);
    return success();
  }

  /// Instantiates the deferred uses of generic functions whose signatures
  /// the solved constraints completed, re-running the relations after
  /// each round; a signature that stays unknown is an error at its uses.
  LogicalResult solveDeferredInstances() {
    while (!deferred.empty()) {
      SmallVector<Instance> waiting;
      for (Instance inst : deferred) {
        if (hasHole(solver.resolve(inst.sigType))) {
          waiting.push_back(inst);
          continue;
        }
        if (failed(instantiate(inst)))
          return failure();
      }
      if (waiting.size() == deferred.size()) {
        for (Instance inst : waiting)
          inst.use->emitError()
              << "cannot instantiate generic @" << inst.callee.getName()
              << ": its type is not known from its own body (only "
              << solver.resolve(inst.sigType)
              << " is); annotate its parameters and results";
        return failure();
      }
      deferred = std::move(waiting);
      if (failed(solveRelations()))
        return failure();
    }
    return success();
  }

  LogicalResult constrain(Operation *op) {
    MLIRContext *ctx = op->getContext();
    if (hasTypingRule(op))
      relOps.push_back(op);

    if (auto fn = dyn_cast<func::FuncOp>(op)) {
      if (fn.isExternal())
        return success();
      FunctionType type = fn.getFunctionType();
      Block &entry = fn.getBody().front();
      if (entry.getNumArguments() != type.getNumInputs())
        return fn.emitError()
               << "has " << entry.getNumArguments()
               << " arguments but its type has " << type.getNumInputs();
      for (auto [i, pair] : llvm::enumerate(
               llvm::zip(entry.getArgumentTypes(), type.getInputs())))
        if (failed(unifyAt(fn, std::get<0>(pair), std::get<1>(pair),
                           "argument #" + Twine(i) + " of @" + fn.getName())))
          return failure();
      return success();
    }
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      auto fn = dyn_cast<func::FuncOp>(ret->getParentOp());
      if (!fn)
        return success();
      ArrayRef<Type> results = fn.getFunctionType().getResults();
      if (results.size() != ret.getNumOperands())
        return ret.emitError()
               << "returns " << ret.getNumOperands() << " values but @"
               << fn.getName() << " has " << results.size() << " results";
      for (auto [i, pair] :
           llvm::enumerate(llvm::zip(ret.getOperandTypes(), results)))
        if (failed(unifyAt(ret, std::get<0>(pair), std::get<1>(pair),
                           "returned value #" + Twine(i) + " of @" +
                               fn.getName())))
          return failure();
      return success();
    }
    if (auto call = dyn_cast<func::CallOp>(op)) {
      auto callee = dyn_cast_or_null<func::FuncOp>(
          symbols.lookupSymbolIn(module, call.getCalleeAttr()));
      if (!callee)
        return call.emitError()
               << "'" << call.getCallee() << "' does not name a func.func";
      FunctionType type = callee.getFunctionType();
      if (type.getNumInputs() != call.getNumOperands() ||
          type.getNumResults() != call.getNumResults())
        return call.emitError()
               << "does not match the arity of @" << call.getCallee();
      if (getTypeParams(callee))
        return constrainInstance(
            {call, callee,
             getRelayFnType(FunctionType::get(ctx, call.getOperandTypes(),
                                              call.getResultTypes())),
             getRelayFnType(type)});
      for (auto [i, pair] :
           llvm::enumerate(llvm::zip(call.getOperandTypes(), type.getInputs())))
        if (failed(unifyAt(call, std::get<0>(pair), std::get<1>(pair),
                           "argument #" + Twine(i) + " of the call to @" +
                               call.getCallee())))
          return failure();
      for (auto [i, pair] :
           llvm::enumerate(llvm::zip(call.getResultTypes(), type.getResults())))
        if (failed(unifyAt(call, std::get<0>(pair), std::get<1>(pair),
                           "result #" + Twine(i) + " of the call to @" +
                               call.getCallee())))
          return failure();
      return success();
    }
    if (auto rule = dyn_cast<TypeEquationsOpInterface>(op)) {
      current = op;
      return rule.buildTypeEquations(*this);
    }
    return success();
  }

  //===--------------------------------------------------------------------===//
  // 3. Relations, to a fixpoint
  //===--------------------------------------------------------------------===//

  LogicalResult solveRelations() {
    // Each re-run needs strictly more refined operand types, so this
    // terminates; the bound only guards against a bug turning into a hang.
    constexpr unsigned kMaxSweeps = 100000;
    bool progress = true;
    for (unsigned sweep = 0; progress; ++sweep) {
      if (sweep == kMaxSweeps)
        return module.emitError()
               << "relay-infer-type: the typing rules did not reach a "
                  "fixpoint";
      progress = false;
      for (Operation *op : relOps) {
        SmallVector<Type> operandTypes;
        for (Value v : op->getOperands())
          operandTypes.push_back(solver.resolve(v.getType()));
        if (!llvm::all_of(operandTypes, isComplete)) {
          FailureOr<bool> typed = typeUnknownOperands(op, operandTypes);
          if (failed(typed))
            return failure();
          progress |= *typed;
          continue; // the rule runs once its operands are known
        }
        auto it = lastOperands.find(op);
        if (it != lastOperands.end() && it->second == operandTypes)
          continue; // nothing new since the last run
        lastOperands[op] = operandTypes;
        progress = true;
        SmallVector<Type> computed;
        if (failed(runTypingRule(op, operandTypes, computed)))
          return failure(); // the rule reported what is broken
        if (computed.size() != op->getNumResults())
          return op->emitError()
                 << ruleName(op) << " produced " << computed.size()
                 << " result types for " << op->getNumResults() << " results";
        for (auto [i, pair] :
             llvm::enumerate(llvm::zip(op->getResultTypes(), computed))) {
          auto [declared, result] = pair;
          Type inferred = solver.instantiate(result);
          if (failed(
                  unifyAt(op, declared, inferred,
                          "result #" + Twine(i) + " (" + ruleName(op) + ")")))
            return failure();
        }
      }
    }
    return success();
  }

  /// Unifies `op`'s unknown operands with the types its operator implies
  /// for them (inferOperandTypes: TVM's relations typing an untyped weight
  /// from the data and the attributes); true if it implied any. An operator
  /// that cannot type them says why in reportUnresolved, if nothing else
  /// types them.
  FailureOr<bool> typeUnknownOperands(Operation *op,
                                      ArrayRef<Type> operandTypes) {
    FailureOr<SmallVector<Type>> implied =
        inferOperandTypes(ErrorSite(std::nullopt, op->getName().getStringRef()),
                          op, operandTypes);
    if (failed(implied))
      return false;
    bool any = false;
    for (auto [i, pair] :
         llvm::enumerate(llvm::zip(op->getOperandTypes(), *implied))) {
      auto [declared, type] = pair;
      if (!type)
        continue;
      any = true;
      if (failed(unifyAt(op, declared, solver.instantiate(type),
                         "operand #" + Twine(i) + " (" + ruleName(op) + ")")))
        return failure();
    }
    return any;
  }

  //===--------------------------------------------------------------------===//
  // 4. Unknowns and write-back
  //===--------------------------------------------------------------------===//

  /// The unresolved variables of `type` not reported yet; true when there is
  /// at least one (and marks them reported).
  bool takeUnresolved(Type type) {
    Type resolved = solver.resolve(type);
    if (!hasHole(resolved))
      return false;
    bool fresh = false;
    walkType(resolved, [&](Type t) {
      if (auto hole = dyn_cast<IncompleteType>(t))
        fresh |= reported.insert(solver.find(hole.getId())).second;
    });
    return fresh;
  }

  static std::string describeArg(BlockArgument arg) {
    Operation *owner = arg.getOwner()->getParentOp();
    std::string s;
    llvm::raw_string_ostream os(s);
    if (auto fn = dyn_cast<func::FuncOp>(owner))
      os << "argument #" << arg.getArgNumber() << " of @" << fn.getName();
    else if (auto fnOp = dyn_cast<FnOp>(owner)) {
      if (fnOp.getRecursive() && arg.getArgNumber() == 0)
        os << "the self reference of a recursive closure";
      else
        os << "closure parameter #"
           << arg.getArgNumber() - (fnOp.getRecursive() ? 1 : 0);
    } else if (isa<MatchOp>(owner))
      os << "pattern variable #" << arg.getArgNumber() << " of a match clause";
    else
      os << "block argument #" << arg.getArgNumber() << " of '"
         << owner->getName() << "'";
    return s;
  }

  /// Reports the operators that would type an unknown operand but cannot
  /// (nn.conv2d's untyped weight without `channels`, ...), saying what
  /// would let them; their operands are not reported again.
  bool explainUntypedOperands() {
    bool ok = true;
    for (Operation *op : relOps) {
      SmallVector<Type> operandTypes;
      for (Value v : op->getOperands())
        operandTypes.push_back(solver.resolve(v.getType()));
      if (llvm::all_of(operandTypes, isComplete) ||
          succeeded(inferOperandTypes(ErrorSite(op), op, operandTypes)))
        continue;
      ok = false;
      for (Type t : op->getOperandTypes())
        (void)takeUnresolved(t);
    }
    return ok;
  }

  LogicalResult reportUnresolved() {
    bool ok = explainUntypedOperands();
    // Parameters first (the usual root of an unknown), then op results,
    // then function signatures; each unknown variable is reported once.
    module.walk([&](Operation *op) {
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            if (takeUnresolved(arg.getType())) {
              mlir::emitError(arg.getLoc())
                  << "cannot infer the type of " << describeArg(arg)
                  << " (only " << solver.resolve(arg.getType()) << " is known)";
              ok = false;
            }
    });
    // An op with a typing rule waiting for an unknown operand is not the
    // cause: its results are unknown because of that operand, reported
    // elsewhere.
    auto waiting = [&](Operation *op) {
      return hasTypingRule(op) &&
             !llvm::all_of(op->getOperandTypes(), [&](Type t) {
               return isComplete(solver.resolve(t));
             });
    };
    Operation *firstWaiting = nullptr;
    module.walk([&](Operation *op) {
      if (!waiting(op))
        return;
      if (!firstWaiting)
        firstWaiting = op;
      for (Type t : op->getResultTypes())
        (void)takeUnresolved(t);
    });
    module.walk([&](Operation *op) {
      if (waiting(op))
        return;
      for (OpResult result : op->getResults())
        if (takeUnresolved(result.getType())) {
          InFlightDiagnostic diag = op->emitError()
                                    << "cannot infer the type of ";
          if (op->getNumResults() > 1)
            diag << "result #" << result.getResultNumber() << " of ";
          diag << "this '" << op->getName() << "' (only "
               << solver.resolve(result.getType()) << " is known)";
          ok = false;
        }
    });
    module.walk([&](func::FuncOp fn) {
      if (takeUnresolved(fn.getFunctionType())) {
        fn.emitError() << "cannot infer the type of @" << fn.getName()
                       << " (only " << solver.resolve(fn.getFunctionType())
                       << " is known)";
        ok = false;
      }
    });
    if (ok && firstWaiting) {
      // Only a cycle of typing rules waiting on each other is left.
      firstWaiting->emitError()
          << "cannot infer the types of the operands of this '"
          << firstWaiting->getName() << "'";
      ok = false;
    }
    return success(ok);
  }

  void writeBack() {
    module.walk([&](Operation *op) {
      if (auto fn = dyn_cast<func::FuncOp>(op))
        fn.setFunctionType(
            cast<FunctionType>(solver.resolve(fn.getFunctionType())));
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            arg.setType(solver.resolve(arg.getType()));
      for (OpResult result : op->getResults())
        result.setType(solver.resolve(result.getType()));
    });
  }

  /// Relay's `Any` dim takes any size (the solver unifies `?` with a static
  /// size), but func.call and func.return need a function's exact signature:
  /// a value of a more static type passed to a `?` parameter (an empty
  /// tensor<0x2xf32> starting a loop that grows a tensor<?x2xf32>) or
  /// returned as a `?` result is cast (tensor.cast), and so is a call's
  /// result that the program typed more statically than the callee.
  /// Whether `general` is `specific` with some static dims made `?`.
  static bool isMoreGeneral(Type general, Type specific) {
    auto g = dyn_cast<RankedTensorType>(general);
    auto s = dyn_cast<RankedTensorType>(specific);
    if (!g || !s || g == s || g.getElementType() != s.getElementType() ||
        g.getRank() != s.getRank())
      return false;
    for (auto [a, b] : llvm::zip(g.getShape(), s.getShape()))
      if (!ShapedType::isDynamic(a) && a != b)
        return false;
    return true;
  }

  static bool castCompatible(Type from, Type to) {
    return from != to && isa<RankedTensorType>(from) &&
           isa<RankedTensorType>(to) &&
           tensor::CastOp::areCastCompatible(from, to);
  }

  /// Casts `op`'s operands to `types` where those have `?` for some of
  /// their static dims (never the other way: that would assume a size).
  static void castOperands(Operation *op, TypeRange types) {
    OpBuilder b(op);
    for (auto [operand, want] : llvm::zip(op->getOpOperands(), types))
      if (isMoreGeneral(want, operand.get().getType()))
        operand.set(
            tensor::CastOp::create(b, op->getLoc(), want, operand.get()));
  }

  /// A closure's type is its parameters' (the solver gave it the static
  /// sizes of the arguments it is called with where a parameter says `?`:
  /// a loop closure started on an empty tensor<0x2xf32> that it grows).
  void widenClosureTypes() {
    module.walk([&](FnOp fn) {
      auto type = dyn_cast<FuncType>(fn.getType());
      if (!type || type.getInputs().size() != fn.getParams().size())
        return;
      SmallVector<Type> inputs(type.getInputs());
      bool widened = false;
      for (auto [input, param] : llvm::zip(inputs, fn.getParams()))
        if (isMoreGeneral(param.getType(), input)) {
          input = param.getType();
          widened = true;
        }
      if (!widened)
        return;
      auto wider = FuncType::get(fn.getContext(), inputs, type.getResult());
      fn.getResult().setType(wider);
      if (fn.getRecursive())
        fn.getBody().front().getArgument(0).setType(wider);
    });
    // calls of a widened closure: the arguments cast to its parameter types
    module.walk([&](relay::CallOp call) {
      auto type = dyn_cast<FuncType>(call.getCallee().getType());
      if (type && type.getInputs().size() == call.getArgs().size())
        for (auto [operand, want] :
             llvm::zip(call.getArgsMutable(), type.getInputs()))
          if (isMoreGeneral(want, operand.get().getType())) {
            OpBuilder b(call);
            operand.set(
                tensor::CastOp::create(b, call.getLoc(), want, operand.get()));
          }
    });
  }

  void castToSignatures() {
    widenClosureTypes();
    module.walk([&](Operation *op) {
      if (auto ret = dyn_cast<func::ReturnOp>(op)) {
        auto fn = dyn_cast<func::FuncOp>(ret->getParentOp());
        if (fn && fn.getNumResults() == ret.getNumOperands())
          castOperands(ret, fn.getResultTypes());
        return;
      }
      auto call = dyn_cast<func::CallOp>(op);
      if (!call)
        return;
      auto callee = dyn_cast_or_null<func::FuncOp>(
          symbols.lookupSymbolIn(module, call.getCalleeAttr()));
      if (!callee || getTypeParams(callee))
        return;
      FunctionType type = callee.getFunctionType();
      if (type.getNumInputs() != call.getNumOperands() ||
          type.getNumResults() != call.getNumResults())
        return;
      castOperands(call, type.getInputs());
      OpBuilder b(call->getContext());
      b.setInsertionPointAfter(call);
      for (auto [result, want] :
           llvm::zip(call.getResults(), type.getResults())) {
        Type had = result.getType();
        if (!castCompatible(want, had))
          continue;
        result.setType(want);
        auto cast = tensor::CastOp::create(b, call.getLoc(), had, result);
        result.replaceAllUsesExcept(cast, cast);
      }
    });
  }

  ModuleOp module;
  TypeSolver solver;
  SymbolTableCollection symbols;
  llvm::DenseMap<unsigned, Type> named;
  SmallVector<Operation *> relOps;
  llvm::DenseMap<Operation *, SmallVector<Type>> lastOperands;
  llvm::DenseSet<unsigned> reported;
  SmallVector<Instance> deferred;
  Operation *current = nullptr; // the op whose equations are being stated
};

struct InferTypePass : relay::impl::RelayInferTypeBase<InferTypePass> {
  void runOnOperation() override {
    if (failed(Inferer(getOperation()).run()))
      signalPassFailure();
  }
};
} // namespace

LogicalResult relay::inferModuleTypes(ModuleOp module) {
  return Inferer(module).run();
}
