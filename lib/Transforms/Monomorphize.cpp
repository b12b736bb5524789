//===- Monomorphize.cpp - relay-monomorphize ------------------------------===//
//
// Generic functions (`relay.type_params`) are cloned once per distinct
// substitution of their type parameters that the program uses:
//   1. a worklist starts with the non-generic functions; in each, every
//      use of a generic function (`relay.global_fn @g` at an instance of
//      its type, or `func.call @g`) is matched against the signature of @g
//      (matchTypeParams), giving one complete type per parameter;
//   2. the first use of a substitution clones @g under a mangled name,
//      substitutes the types in the clone's signature and body and queues
//      the clone (its own uses are instances too); later uses find the
//      memoised clone, so recursion terminates; polymorphic recursion
//      (instances without end) is refused after `max-instances`;
//   3. the generic functions are deleted, and `relay.call` of a
//      `relay.global_fn` at the callee's exact type becomes `func.call`.
//
//===----------------------------------------------------------------------===//
#include "relay/RelayGenerics.h"
#include "relay/RelayOps.h"
#include "relay/RelayPasses.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYMONOMORPHIZE
#include "relay/RelayPasses.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

namespace {

/// Appends `text` keeping only characters valid in a bare MLIR identifier
/// (others become `_`).
void appendSanitized(StringRef text, std::string &out) {
  for (char c : text)
    out.push_back(llvm::isAlnum(c) || c == '_' ? c : '_');
}

/// A readable spelling of `type` made of identifier characters, in prefix
/// form with `.` between parts: `f32`, `2xDxf32` (`D` a dynamic dim),
/// `tuple2.f32.i32`, `fn1.f32.f32` (inputs, then the result), `ref.f32`,
/// `List.f32` (an ADT and its arguments).
void mangle(Type type, std::string &out) {
  auto list = [&](TypeRange types) {
    for (Type t : types) {
      out += ".";
      mangle(t, out);
    }
  };
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    for (int64_t dim : tensor.getShape())
      out += (ShapedType::isDynamic(dim) ? std::string("D")
                                         : std::to_string(dim)) +
             "x";
    std::string element;
    llvm::raw_string_ostream os(element);
    os << tensor.getElementType();
    appendSanitized(element, out);
  } else if (auto tuple = dyn_cast<TupleType>(type)) {
    out += "tuple" + std::to_string(tuple.size());
    list(tuple.getTypes());
  } else if (auto fn = dyn_cast<FuncType>(type)) {
    out += "fn" + std::to_string(fn.getInputs().size());
    list(fn.getInputs());
    out += ".";
    mangle(fn.getResult(), out);
  } else if (auto ref = dyn_cast<RefType>(type)) {
    out += "ref.";
    mangle(ref.getElementType(), out);
  } else if (auto adt = dyn_cast<ADTType>(type)) {
    appendSanitized(adt.getName().getValue(), out);
    list(adt.getArgs());
  } else {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << type;
    appendSanitized(text, out);
  }
}

/// True when `type` mentions a `!relay.tvar` or `!relay.incomplete`.
bool isPolymorphicOrUnknown(Type type) {
  bool found = false;
  walkType(type, [&](Type t) { found |= isa<TypeVarType, IncompleteType>(t); });
  return found;
}

class Monomorphizer {
public:
  Monomorphizer(ModuleOp module, unsigned maxInstances)
      : module(module), symbols(module), maxInstances(maxInstances) {}

  LogicalResult run() {
    SmallVector<func::FuncOp> generics, worklist;
    for (auto fn : module.getOps<func::FuncOp>()) {
      if (failed(verifyTypeParams(fn)))
        return failure();
      (getTypeParams(fn) ? generics : worklist).push_back(fn);
    }
    for (size_t i = 0; i < worklist.size(); ++i)
      if (failed(instantiateUses(worklist[i], worklist)))
        return failure();
    for (func::FuncOp fn : generics)
      symbols.erase(fn);
    relay::rewriteDirectCalls(module);
    return success();
  }

private:
  /// Retargets every use of a generic function in `fn` to its instance,
  /// queueing new instances on `worklist`.
  LogicalResult instantiateUses(func::FuncOp fn,
                                SmallVectorImpl<func::FuncOp> &worklist) {
    WalkResult walk = fn.walk([&](Operation *op) {
      func::FuncOp callee;
      Type useType, sigType;
      if (auto global = dyn_cast<GlobalFnOp>(op)) {
        callee = symbols.lookup<func::FuncOp>(global.getCallee());
        if (!callee || !getTypeParams(callee))
          return WalkResult::advance();
        useType = global.getType();
        sigType = getRelayFnType(callee.getFunctionType());
      } else if (auto call = dyn_cast<func::CallOp>(op)) {
        callee = symbols.lookup<func::FuncOp>(call.getCallee());
        if (!callee || !getTypeParams(callee))
          return WalkResult::advance();
        useType = FunctionType::get(op->getContext(), call.getOperandTypes(),
                                    call.getResultTypes());
        sigType = callee.getFunctionType();
      } else {
        return WalkResult::advance();
      }
      FailureOr<func::FuncOp> instance =
          getInstance(op, callee, useType, sigType, worklist);
      if (failed(instance))
        return WalkResult::interrupt();
      auto ref = FlatSymbolRefAttr::get(instance->getSymNameAttr());
      if (auto global = dyn_cast<GlobalFnOp>(op))
        global.setCalleeAttr(ref);
      else
        cast<func::CallOp>(op).setCalleeAttr(ref);
      return WalkResult::advance();
    });
    return failure(walk.wasInterrupted());
  }

  /// The clone of `callee` for the substitution `useType` (a use at `op`)
  /// gives, created and queued on first sight.
  FailureOr<func::FuncOp> getInstance(Operation *op, func::FuncOp callee,
                                      Type useType, Type sigType,
                                      SmallVectorImpl<func::FuncOp> &worklist) {
    ArrayAttr params = getTypeParams(callee);
    FailureOr<SmallVector<Type>> args =
        matchTypeParams(sigType, useType, params);
    if (failed(args))
      return op->emitError()
             << "type " << useType << " is not an instance of generic @"
             << callee.getName() << " : " << sigType;
    for (auto [param, arg] : llvm::zip(params, *args)) {
      if (!arg)
        return op->emitError()
               << "cannot monomorphize this use of generic @"
               << callee.getName() << ": type parameter " << param
               << " does not occur in its type " << sigType
               << ", so the use does not determine it";
      if (isPolymorphicOrUnknown(arg))
        return op->emitError()
               << "cannot monomorphize this use of generic @"
               << callee.getName() << ": type argument " << param << " is "
               << arg << ", not a known type (run relay-infer-type first)";
    }
    MLIRContext *ctx = module.getContext();
    SmallVector<Attribute> key{FlatSymbolRefAttr::get(callee.getSymNameAttr())};
    SmallVector<Attribute> typeArgs;
    for (Type arg : *args)
      typeArgs.push_back(TypeAttr::get(arg));
    key.append(typeArgs);
    auto [it, inserted] =
        instances.try_emplace(ArrayAttr::get(ctx, key), func::FuncOp());
    if (!inserted)
      return it->second;
    if (instances.size() > maxInstances) {
      InFlightDiagnostic diag =
          op->emitError()
          << "more than " << maxInstances
          << " instances of generic functions (this use needs @"
          << callee.getName() << " at " << ArrayAttr::get(ctx, typeArgs)
          << "): the program is polymorphically recursive (a generic "
             "function uses itself at ever new types) and cannot be "
             "monomorphized";
      return diag;
    }

    std::string name = callee.getName().str();
    for (Type arg : *args) {
      name += "$";
      mangle(arg, name);
    }
    std::string unique = name;
    for (unsigned n = 1; symbols.lookup(unique); ++n)
      unique = name + "$" + std::to_string(n);

    func::FuncOp clone = callee.clone();
    clone.setSymName(unique);
    clone->removeAttr(kTypeParamsAttrName);
    clone.setPrivate();
    substitute(clone, params, *args);
    // The generic it instantiates (a name, not a symbol reference: the
    // generic is deleted; the type arguments are in the mangled name, not
    // in an attribute, so no relay type outlives the lowering).
    clone->setAttr("relay.instance_of", callee.getSymNameAttr());
    // Instances follow their generic function, in the order of discovery.
    Operation *&after = lastInstance[callee];
    if (!after)
      after = callee;
    symbols.insert(clone, std::next(after->getIterator()));
    after = clone;
    it = instances.find(ArrayAttr::get(ctx, key));
    it->second = clone;
    worklist.push_back(clone);
    return clone;
  }

  /// Replaces the type parameters by `args` in every type of `fn`.
  static void substitute(func::FuncOp fn, ArrayAttr params,
                         ArrayRef<Type> args) {
    auto subst = [&](Type type) {
      return substituteTypeParams(type, params, args);
    };
    fn.walk([&](Operation *op) {
      for (NamedAttribute attr : op->getAttrs())
        if (auto typeAttr = dyn_cast<TypeAttr>(attr.getValue()))
          op->setAttr(attr.getName(),
                      TypeAttr::get(subst(typeAttr.getValue())));
      for (OpResult result : op->getResults())
        result.setType(subst(result.getType()));
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            arg.setType(subst(arg.getType()));
    });
  }

  ModuleOp module;
  SymbolTable symbols;
  unsigned maxInstances;
  /// [@generic, type args...] -> its instance.
  llvm::DenseMap<Attribute, func::FuncOp> instances;
  llvm::DenseMap<Operation *, Operation *> lastInstance;
};

struct MonomorphizePass : relay::impl::RelayMonomorphizeBase<MonomorphizePass> {
  using Base::Base;
  void runOnOperation() override {
    if (failed(Monomorphizer(getOperation(), maxInstances).run()))
      signalPassFailure();
  }
};
} // namespace

void mlir::relay::rewriteDirectCalls(ModuleOp module) {
  SymbolTable symbols(module);
  SmallVector<relay::CallOp> calls;
  module.walk([&](relay::CallOp call) { calls.push_back(call); });
  for (relay::CallOp call : calls) {
    auto global = call.getCallee().getDefiningOp<GlobalFnOp>();
    if (!global)
      continue;
    auto callee = symbols.lookup<func::FuncOp>(global.getCallee());
    if (!callee || getTypeParams(callee))
      continue;
    FunctionType type = callee.getFunctionType();
    if (TypeRange(call.getArgs().getTypes()) != type.getInputs() ||
        call.getType() != getRelayFnType(type).getResult())
      continue;
    OpBuilder builder(call);
    auto direct =
        func::CallOp::create(builder, call.getLoc(), callee, call.getArgs());
    Value result;
    if (type.getNumResults() == 1)
      result = direct.getResult(0);
    else
      result = TupleOp::create(builder, call.getLoc(), direct.getResults());
    call.replaceAllUsesWith(result);
    call.erase();
    if (global->use_empty())
      global.erase();
  }
}
