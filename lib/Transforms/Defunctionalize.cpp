//===- Defunctionalize.cpp - relay-defunctionalize ------------------------===//
//
// Reynolds' defunctionalization of the lambda-lifted program: each function
// type becomes an ADT with one constructor per function that flows as a
// value of that type (its fields are the captures), and applying a function
// value becomes a direct call of that type's `@apply$N`, which matches on
// the constructor and calls its function directly.
//
//   0. a call of a function value built in sight (`relay.call` of a
//      `relay.closure` or `relay.global_fn`) is a direct `func.call` of its
//      function, captures first, and closures left unused go: no closure is
//      built, boxed and matched at run time, and a loop written as a
//      recursive closure (TVM's `while_loop`) calls itself directly, a loop
//      for relay-eliminate-recursion carrying its captures as tensors;
//   1. every `!relay.fn` type of the module is numbered (inner function
//      types first, then in order of first occurrence);
//   2. `relay.closure` and `relay.global_fn` ops give each type its
//      constructors; the types they and `relay.call` use are checked to be
//      exactly the ones their direct calls will need;
//   3. the ADTs and apply functions are created, the three ops replaced;
//   4. an AttrTypeReplacer turns every `!relay.fn` into its ADT everywhere
//      (values, block arguments, signatures, constructor fields);
//   5. nothing function-valued may be left.
//
//===----------------------------------------------------------------------===//
#include "relay/RelayOps.h"
#include "relay/RelayPasses.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYDEFUNCTIONALIZE
#include "relay/RelayPasses.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

namespace {

/// A function that flows as a value of one function type.
struct Target {
  FlatSymbolRefAttr callee;
  SmallVector<Type> captures; // the constructor's fields
  Location loc;
};

/// One function type and what defunctionalizes it.
struct FnClass {
  FuncType type;
  Location loc; // where the type first occurs
  llvm::MapVector<StringAttr, Target> targets;
  ADTType adt;
  std::string adtName, applyName;
};

bool containsFuncType(Type type) {
  bool found = false;
  type.walk([&](FuncType) { found = true; });
  return found;
}

class Defunctionalizer {
public:
  explicit Defunctionalizer(ModuleOp module)
      : module(module), ctx(module.getContext()), symbols(module) {}

  LogicalResult run() {
    if (failed(checkInput()))
      return failure();
    callKnownFunctions();
    if (failed(collectTypes()) || failed(collectTargets()) ||
        failed(checkCalls()))
      return failure();
    createADTsAndApplies();
    replaceOps();
    replaceTypes();
    return checkOutput();
  }

private:
  //===--------------------------------------------------------------------===//
  // 0. Calls of known functions
  //===--------------------------------------------------------------------===//

  /// Each `relay.call` of a `relay.closure` or `relay.global_fn` becomes a
  /// `func.call` of its function (the captures, then the arguments) where
  /// the types agree exactly; closures left unused are erased.
  void callKnownFunctions() {
    SmallVector<CallOp> calls;
    module.walk([&](CallOp call) {
      if (isa_and_nonnull<ClosureOp, GlobalFnOp>(
              call.getCallee().getDefiningOp()))
        calls.push_back(call);
    });
    llvm::SetVector<Operation *> maybeDead;
    for (CallOp call : calls) {
      Operation *def = call.getCallee().getDefiningOp();
      SmallVector<Value> operands;
      FlatSymbolRefAttr callee;
      if (auto closure = dyn_cast<ClosureOp>(def)) {
        callee = closure.getCalleeAttr();
        llvm::append_range(operands, closure.getCaptures());
      } else {
        callee = cast<GlobalFnOp>(def).getCalleeAttr();
      }
      llvm::append_range(operands, call.getArgs());
      auto fn = symbols.lookup<func::FuncOp>(callee.getValue());
      if (!fn || TypeRange(ValueRange(operands)) != fn.getArgumentTypes() ||
          call->getResultTypes() != fn.getResultTypes())
        continue;
      OpBuilder b(call);
      auto direct = func::CallOp::create(b, call.getLoc(), fn, operands);
      call->replaceAllUsesWith(direct.getResults());
      call.erase();
      maybeDead.insert(def);
    }
    for (Operation *def : maybeDead)
      if (def->use_empty())
        def->erase();
  }

  //===--------------------------------------------------------------------===//
  // 1. Function types
  //===--------------------------------------------------------------------===//

  LogicalResult checkInput() {
    WalkResult walk = module.walk([&](Operation *op) {
      if (isa<FnOp>(op)) {
        op->emitError() << "relay-defunctionalize: relay.fn closures must be "
                           "lifted first; run relay-lambda-lift";
        return WalkResult::interrupt();
      }
      if (isa<GradOp>(op)) {
        op->emitError() << "relay-defunctionalize: relay.grad must be "
                           "expanded before function values are "
                           "defunctionalized";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    return failure(walk.wasInterrupted());
  }

  /// Numbers the function types in `type`, inner ones first.
  LogicalResult noteType(Type type, Location loc) {
    LogicalResult result = success();
    // Post-order: the function types inside a function type come first.
    type.walk([&](FuncType fn) {
      if (failed(result) || classes.count(fn))
        return;
      bool generic = false, incomplete = false;
      fn.walk([&](Type t) {
        generic |= isa<TypeVarType>(t);
        incomplete |= isa<IncompleteType>(t);
      });
      if (generic) {
        result = emitError(loc)
                 << "relay-defunctionalize: function type " << fn
                 << " mentions ADT type parameters; only monomorphic "
                    "function types can be defunctionalized";
        return;
      }
      if (incomplete) {
        result = emitError(loc) << "relay-defunctionalize: function type " << fn
                                << " is not inferred; run relay-infer-type "
                                   "first";
        return;
      }
      classes.insert({fn, FnClass{fn, loc, {}, {}, {}, {}}});
    });
    return result;
  }

  LogicalResult collectTypes() {
    WalkResult walk = module.walk<WalkOrder::PreOrder>([&](Operation *op) {
      auto note = [&](Type t, Location loc) {
        return failed(noteType(t, loc));
      };
      if (auto fn = dyn_cast<func::FuncOp>(op))
        if (note(fn.getFunctionType(), fn.getLoc()))
          return WalkResult::interrupt();
      if (auto ctor = dyn_cast<ConstructorOp>(op))
        for (Attribute field : ctor.getFields())
          if (auto typeAttr = dyn_cast<TypeAttr>(field))
            if (note(typeAttr.getValue(), ctor.getLoc()))
              return WalkResult::interrupt();
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            if (note(arg.getType(), arg.getLoc()))
              return WalkResult::interrupt();
      for (Type t : op->getResultTypes())
        if (note(t, op->getLoc()))
          return WalkResult::interrupt();
      return WalkResult::advance();
    });
    return failure(walk.wasInterrupted());
  }

  //===--------------------------------------------------------------------===//
  // 2. Constructors, and the exact types the direct calls need
  //===--------------------------------------------------------------------===//

  /// The class of function type `type` (a type of `op`), or null after an
  /// error at `op` when it is not a function type.
  FnClass *classOf(Operation *op, Type type) {
    auto fn = dyn_cast<FuncType>(type);
    auto it = fn ? classes.find(fn) : classes.end();
    if (it == classes.end()) {
      op->emitError() << "relay-defunctionalize: expected a !relay.fn type, "
                         "got "
                      << type;
      return nullptr;
    }
    return &it->second;
  }

  /// Adds `callee` (with fields `captures`) to the constructors of `cls`.
  LogicalResult addTarget(Operation *op, FnClass &cls, FlatSymbolRefAttr callee,
                          TypeRange captures) {
    auto [it, inserted] = cls.targets.insert(
        {callee.getAttr(),
         Target{callee, llvm::to_vector(captures), op->getLoc()}});
    if (!inserted && TypeRange(it->second.captures) != captures)
      return op->emitError()
             << "relay-defunctionalize: @" << callee.getValue()
             << " is a closure of type " << cls.type
             << " with different capture types in different places";
    return success();
  }

  LogicalResult collectTargets() {
    WalkResult walk =
        module.walk<WalkOrder::PreOrder>([&](Operation *op) -> WalkResult {
          if (auto closure = dyn_cast<ClosureOp>(op)) {
            FnClass *cls = classOf(op, closure.getType());
            if (!cls)
              return WalkResult::interrupt();
            auto callee = symbols.lookup<func::FuncOp>(closure.getCallee());
            if (!callee)
              return WalkResult(LogicalResult(
                  closure.emitOpError() << "'@" << closure.getCallee()
                                        << "' does not name a func.func"));
            SmallVector<Type> inputs(closure.getCaptures().getTypes());
            llvm::append_range(inputs, cls->type.getInputs());
            auto expected = FunctionType::get(ctx, inputs,
                                              TypeRange{cls->type.getResult()});
            if (callee.getFunctionType() != expected)
              return WalkResult(LogicalResult(
                  closure.emitError()
                  << "relay-defunctionalize: @" << closure.getCallee()
                  << " has type " << callee.getFunctionType()
                  << " but calling it directly from the closure's apply "
                     "function needs exactly "
                  << expected));
            return WalkResult(addTarget(op, *cls, closure.getCalleeAttr(),
                                        closure.getCaptures().getTypes()));
          }
          if (auto global = dyn_cast<GlobalFnOp>(op)) {
            FnClass *cls = classOf(op, global.getType());
            if (!cls)
              return WalkResult::interrupt();
            auto callee = symbols.lookup<func::FuncOp>(global.getCallee());
            if (!callee)
              return WalkResult(LogicalResult(
                  global.emitOpError() << "'@" << global.getCallee()
                                       << "' does not name a func.func"));
            if (getRelayFnType(callee.getFunctionType()) != cls->type)
              return WalkResult(LogicalResult(
                  global.emitError()
                  << "relay-defunctionalize: @" << global.getCallee()
                  << " has type " << callee.getFunctionType()
                  << " but calling it directly as a value of type " << cls->type
                  << " needs exactly that type"));
            return WalkResult(
                addTarget(op, *cls, global.getCalleeAttr(), TypeRange()));
          }
          return WalkResult::advance();
        });
    return failure(walk.wasInterrupted());
  }

  /// Whether a `tensor.cast` turns a value of type `from` into `to` (tensors
  /// that differ only where one has a `?` dim, e.g. a closure parameter
  /// written with Relay's `Any` applied to a static tensor).
  static bool castable(Type from, Type to) {
    return isa<RankedTensorType>(from) && isa<RankedTensorType>(to) &&
           areCompatible(from, to);
  }

  /// `relay.call` becomes a `func.call` of the apply function, which takes
  /// the function type's parameter types: equal ones, or tensors a
  /// `tensor.cast` converts.
  LogicalResult checkCalls() {
    WalkResult walk =
        module.walk([&](relay::CallOp call) {
          FnClass *cls = classOf(call, call.getCallee().getType());
          if (!cls)
            return WalkResult::interrupt();
          auto fits = [](Type from, Type to) {
            return from == to || castable(from, to);
          };
          bool ok = call.getArgs().size() == cls->type.getInputs().size() &&
                    fits(cls->type.getResult(), call.getType());
          for (auto [arg, input] :
               llvm::zip(call.getArgs().getTypes(), cls->type.getInputs()))
            ok &= fits(arg, input);
          if (!ok) {
            call.emitError()
                << "relay-defunctionalize: the call's types "
                << FunctionType::get(ctx, call.getArgs().getTypes(),
                                     call.getType())
                << " differ from its callee's type " << cls->type
                << " beyond tensor dims a tensor.cast can convert; the direct "
                   "call of the apply function needs them equal";
            return WalkResult::interrupt();
          }
          return WalkResult::advance();
        });
    return failure(walk.wasInterrupted());
  }

  //===--------------------------------------------------------------------===//
  // 3. ADTs, apply functions and the new ops
  //===--------------------------------------------------------------------===//

  SymbolRefAttr constructorRef(const FnClass &cls, const Target &target) {
    return SymbolRefAttr::get(ctx, cls.adtName, {target.callee});
  }

  void createADTsAndApplies() {
    unsigned next = 0;
    auto taken = [&](unsigned n) {
      return symbols.lookup(("Fn$" + Twine(n)).str()) ||
             symbols.lookup(("apply$" + Twine(n)).str());
    };
    for (auto &[type, cls] : classes) {
      while (taken(next))
        ++next;
      cls.adtName = ("Fn$" + Twine(next)).str();
      cls.applyName = ("apply$" + Twine(next)).str();
      ++next;
      cls.adt = ADTType::get(ctx, FlatSymbolRefAttr::get(ctx, cls.adtName), {});
    }

    // The ADTs at the top of the module, the apply functions at its end.
    OpBuilder builder(ctx);
    builder.setInsertionPointToStart(module.getBody());
    for (auto &[type, cls] : classes) {
      auto adt = ADTOp::create(builder, cls.loc, cls.adtName,
                               builder.getStrArrayAttr({}));
      symbols.insert(adt);
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointToStart(&adt.getBody().emplaceBlock());
      for (auto &[name, target] : cls.targets) {
        SmallVector<Attribute> fields;
        for (Type t : target.captures)
          fields.push_back(TypeAttr::get(t));
        ConstructorOp::create(builder, target.loc, target.callee.getValue(),
                              builder.getArrayAttr(fields));
      }
    }
    builder.setInsertionPointToEnd(module.getBody());
    for (auto &[type, cls] : classes)
      createApply(builder, cls);
  }

  /// `@apply$N(%clo, %args...)`: match %clo, call the constructor's
  /// function with its captures and %args. Without constructors the match
  /// has no clause (no value of the type exists: a call, left in a function
  /// nothing calls with one, fails at run time).
  void createApply(OpBuilder &builder, FnClass &cls) {
    SmallVector<Type> inputs{cls.adt};
    llvm::append_range(inputs, cls.type.getInputs());
    auto apply = func::FuncOp::create(
        builder, cls.loc, cls.applyName,
        FunctionType::get(ctx, inputs, TypeRange{cls.type.getResult()}));
    apply.setPrivate();
    symbols.insert(apply);
    OpBuilder::InsertionGuard guard(builder);
    Block *entry = apply.addEntryBlock();
    builder.setInsertionPointToStart(entry);
    Value clo = entry->getArgument(0);
    ValueRange args = entry->getArguments().drop_front();
    SmallVector<Attribute> patterns;
    for (auto &[name, target] : cls.targets)
      patterns.push_back(
          PatCtorAttr::get(ctx, constructorRef(cls, target),
                           builder.getArrayAttr(SmallVector<Attribute>(
                               target.captures.size(), PatVarAttr::get(ctx)))));
    auto match =
        MatchOp::create(builder, cls.loc, cls.type.getResult(), clo,
                        builder.getArrayAttr(patterns), /*complete=*/true,
                        /*clausesCount=*/cls.targets.size());
    for (auto [region, entryPair] :
         llvm::zip(match.getClauses(), cls.targets)) {
      Target &target = entryPair.second;
      Block *block = &region.emplaceBlock();
      builder.setInsertionPointToStart(block);
      SmallVector<Value> operands;
      for (Type t : target.captures)
        operands.push_back(block->addArgument(t, target.loc));
      llvm::append_range(operands, args);
      auto callee = symbols.lookup<func::FuncOp>(target.callee.getValue());
      auto call = func::CallOp::create(builder, target.loc, callee, operands);
      // A global of zero or several results is a function of a tuple.
      Value result;
      if (call.getNumResults() == 1)
        result = call.getResult(0);
      else
        result =
            TupleOp::create(builder, target.loc, call.getResults()).getResult();
      YieldOp::create(builder, target.loc, result);
    }
    builder.setInsertionPointAfter(match);
    func::ReturnOp::create(builder, cls.loc, match.getResult());
  }

  void replaceOps() {
    // Each op's class is read off its original type before any operand it
    // uses is replaced.
    SmallVector<std::pair<Operation *, FnClass *>> ops;
    module.walk([&](Operation *op) {
      Type type;
      if (auto call = dyn_cast<relay::CallOp>(op))
        type = call.getCallee().getType();
      else if (isa<ClosureOp, GlobalFnOp>(op))
        type = op->getResult(0).getType();
      else
        return;
      ops.push_back({op, &classes.find(cast<FuncType>(type))->second});
    });
    OpBuilder builder(ctx);
    for (auto [op, cls] : ops) {
      builder.setInsertionPoint(op);
      Value replacement;
      if (auto call = dyn_cast<relay::CallOp>(op)) {
        // Arguments and result are cast where only `?` dims differ.
        auto cast = [&](Value value, Type type) -> Value {
          // (Values of function type may already have their ADT type.)
          if (value.getType() == type ||
              !isa<RankedTensorType>(value.getType()))
            return value;
          return tensor::CastOp::create(builder, call.getLoc(), type, value);
        };
        SmallVector<Value> operands{call.getCallee()};
        for (auto [arg, input] :
             llvm::zip(call.getArgs(), cls->type.getInputs()))
          operands.push_back(cast(arg, input));
        Value result =
            func::CallOp::create(builder, call.getLoc(), cls->applyName,
                                 TypeRange{cls->type.getResult()}, operands)
                .getResult(0);
        replacement = cast(result, call.getType());
      } else {
        FlatSymbolRefAttr callee;
        ValueRange fields;
        if (auto closure = dyn_cast<ClosureOp>(op)) {
          callee = closure.getCalleeAttr();
          fields = closure.getCaptures();
        } else {
          callee = cast<GlobalFnOp>(op).getCalleeAttr();
        }
        const Target &target = cls->targets.find(callee.getAttr())->second;
        replacement = ConstructOp::create(builder, op->getLoc(), cls->adt,
                                          constructorRef(*cls, target), fields)
                          .getResult();
      }
      op->getResult(0).replaceAllUsesWith(replacement);
      op->erase();
    }
  }

  //===--------------------------------------------------------------------===//
  // 4. Types
  //===--------------------------------------------------------------------===//

  void replaceTypes() {
    AttrTypeReplacer replacer;
    replacer.addReplacement([&](FuncType fn) -> std::optional<Type> {
      auto it = classes.find(fn);
      if (it == classes.end())
        return std::nullopt; // reported by checkOutput
      return Type(it->second.adt);
    });
    replacer.recursivelyReplaceElementsIn(module, /*replaceAttrs=*/true,
                                          /*replaceLocs=*/false,
                                          /*replaceTypes=*/true);
  }

  //===--------------------------------------------------------------------===//
  // 5. Nothing function-valued left
  //===--------------------------------------------------------------------===//

  LogicalResult checkOutput() {
    WalkResult walk = module.walk([&](Operation *op) {
      if (isa<FnOp, ClosureOp, GlobalFnOp, relay::CallOp>(op)) {
        op->emitError() << "relay-defunctionalize: left a function value";
        return WalkResult::interrupt();
      }
      SmallVector<Type> types(op->getResultTypes());
      for (Region &region : op->getRegions())
        for (Block &block : region)
          llvm::append_range(types, block.getArgumentTypes());
      if (auto fn = dyn_cast<func::FuncOp>(op))
        types.push_back(fn.getFunctionType());
      if (auto ctor = dyn_cast<ConstructorOp>(op))
        for (Attribute field : ctor.getFields())
          if (auto typeAttr = dyn_cast<TypeAttr>(field))
            types.push_back(typeAttr.getValue());
      for (Type t : types)
        if (containsFuncType(t)) {
          op->emitError() << "relay-defunctionalize: left a function type in "
                          << t;
          return WalkResult::interrupt();
        }
      return WalkResult::advance();
    });
    return failure(walk.wasInterrupted());
  }

  ModuleOp module;
  MLIRContext *ctx;
  SymbolTable symbols;
  llvm::MapVector<FuncType, FnClass> classes;
};

struct DefunctionalizePass
    : relay::impl::RelayDefunctionalizeBase<DefunctionalizePass> {
  void runOnOperation() override {
    if (failed(Defunctionalizer(getOperation()).run()))
      signalPassFailure();
  }
};
} // namespace
