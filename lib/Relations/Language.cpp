//===- Language.cpp - typing rules of the language constructs -------------===//
//
// Equations (relay/RelayTypeEquations.h) of tuple, call, the ref ops, if,
// fn, global_fn and closure (construct and match: ADT.cpp), and the typing
// functions of tuple_get_item and grad, which need their operand's type to
// say anything. Each rule is written once: the verifier, relay-infer-type
// and the typed builders all use it.
//
//===----------------------------------------------------------------------===//
#include "RelationUtils.h"
#include "relay/RelayGenerics.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <functional>

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::rel;

static Type incomplete(MLIRContext *ctx) { return IncompleteType::get(ctx, 0); }

/// True when `type` is known not to be of type class `T` (a hole may still
/// become one).
template <typename T> static bool isKnownNot(Type type) {
  return !isa<T, IncompleteType>(type);
}

//===----------------------------------------------------------------------===//
// tuple, call and the ref ops: one `typeRule` each, which the ODS class
// Relay_EquationRuleOp turns into the interface's equations and the typed
// builder's inference
//===----------------------------------------------------------------------===//

LogicalResult TupleOp::typeRule(TypeEquations &eq, Adaptor adaptor,
                                Type result) {
  return eq.equal(
      result,
      TupleType::get(result.getContext(), eq.typesOf(adaptor.getFields())),
      "tuple");
}

/// As equations, so that an unknown callee (a closure parameter) gets its
/// type from the call.
LogicalResult CallOp::typeRule(TypeEquations &eq, Adaptor adaptor,
                               Type result) {
  Type calleeType = eq.typeOf(adaptor.getCallee());
  SmallVector<Type> argTypes = eq.typesOf(adaptor.getArgs());
  if (isKnownNot<FuncType>(calleeType))
    return eq.emitError() << "callee must have a !relay.fn type, got "
                          << calleeType;
  auto fn = dyn_cast<FuncType>(calleeType);
  if (!fn)
    return eq.equal(calleeType,
                    FuncType::get(result.getContext(), argTypes, result),
                    "callee");
  if (argTypes.size() != fn.getInputs().size())
    return eq.emitError() << "callee takes " << fn.getInputs().size()
                          << " arguments, got " << argTypes.size();
  for (auto [i, pair] : llvm::enumerate(llvm::zip(argTypes, fn.getInputs())))
    if (failed(eq.equal(std::get<0>(pair), std::get<1>(pair),
                        "argument #" + Twine(i) + " of the call")))
      return failure();
  return eq.equal(result, fn.getResult(), "result of the call");
}

LogicalResult RefNewOp::typeRule(TypeEquations &eq, Adaptor adaptor,
                                 Type result) {
  return eq.equal(
      result, RefType::get(result.getContext(), eq.typeOf(adaptor.getValue())),
      "reference");
}

LogicalResult RefReadOp::typeRule(TypeEquations &eq, Adaptor adaptor,
                                  Type result) {
  Type refType = eq.typeOf(adaptor.getRef());
  if (isKnownNot<RefType>(refType))
    return eq.emitError() << "operand must be a !relay.ref, got " << refType;
  return eq.equal(refType, RefType::get(result.getContext(), result),
                  "reference read");
}

LogicalResult RefWriteOp::typeRule(TypeEquations &eq, Adaptor adaptor,
                                   Type result) {
  Type refType = eq.typeOf(adaptor.getRef());
  if (isKnownNot<RefType>(refType))
    return eq.emitError() << "first operand must be a !relay.ref, got "
                          << refType;
  MLIRContext *ctx = result.getContext();
  if (failed(eq.equal(refType, RefType::get(ctx, eq.typeOf(adaptor.getValue())),
                      "reference write")))
    return failure();
  return eq.equal(result, TupleType::get(ctx, {}), "result of reference write");
}

//===----------------------------------------------------------------------===//
// Ops with regions or symbols (built with their result type)
//===----------------------------------------------------------------------===//

LogicalResult IfOp::buildTypeEquations(TypeEquations &eq) {
  Type i1 = RankedTensorType::get({}, IntegerType::get(getContext(), 1));
  Type cond = eq.typeOf(getCond());
  if (auto tensor = dyn_cast<RankedTensorType>(cond);
      isKnownNot<RankedTensorType>(cond) ||
      (tensor &&
       (tensor.getRank() != 0 || !tensor.getElementType().isInteger(1))))
    return eq.emitError()
           << "condition must be a rank-0 i1 tensor (tensor<i1>), got " << cond;
  if (failed(eq.equal(cond, i1, "condition of relay.if")))
    return failure();
  Type result = eq.typeOf(getResult());
  if (Type t = eq.yieldType(getThenRegion()))
    if (failed(eq.equal(t, result, "then branch")))
      return failure();
  if (Type t = eq.yieldType(getElseRegion()))
    if (failed(eq.equal(t, result, "else branch")))
      return failure();
  return success();
}

LogicalResult FnOp::buildTypeEquations(TypeEquations &eq) {
  Type type = eq.typeOf(getResult());
  if (isKnownNot<FuncType>(type))
    return eq.emitError() << "result must be a !relay.fn type, got " << type;
  Block &entry = getBody().front();
  if (getRecursive()) {
    // The self reference is the closure: recursive calls through it share
    // the closure's type.
    if (entry.getNumArguments() == 0)
      return eq.emitError() << "is recursive, so its first block argument "
                               "must be the closure itself, but it has none";
    if (failed(eq.equal(eq.typeOf(entry.getArgument(0)), type,
                        "self reference of the closure")))
      return failure();
  }
  SmallVector<Type> params = eq.typesOf(getParams());
  if (auto fn = dyn_cast<FuncType>(type);
      fn && fn.getInputs().size() != params.size())
    return eq.emitError() << "has " << params.size()
                          << " parameters but its type has "
                          << fn.getInputs().size();
  Type body = eq.yieldType(getBody());
  return eq.equal(type,
                  FuncType::get(getContext(), params, body ? body : eq.fresh()),
                  "closure type");
}

LogicalResult GlobalFnOp::buildTypeEquations(TypeEquations &eq) {
  auto callee = dyn_cast_or_null<func::FuncOp>(eq.lookup(getCalleeAttr()));
  if (!callee)
    return eq.emitError() << "'@" << getCallee()
                          << "' does not name a func.func in this module";
  return eq.instance(eq.typeOf(getResult()), callee, "type of @" + getCallee());
}

LogicalResult ClosureOp::buildTypeEquations(TypeEquations &eq) {
  // A lambda-lifted closure: the captures are the first parameters of the
  // lifted function, the rest are the closure's.
  auto callee = dyn_cast_or_null<func::FuncOp>(eq.lookup(getCalleeAttr()));
  if (!callee)
    return eq.emitError() << "'@" << getCallee()
                          << "' does not name a func.func in this module";
  Type type = eq.typeOf(getResult());
  if (isKnownNot<FuncType>(type))
    return eq.emitError() << "result must be a !relay.fn type, got " << type;
  FunctionType signature = callee.getFunctionType();
  size_t numCaptures = getCaptures().size();
  if (signature.getNumInputs() < numCaptures || signature.getNumResults() != 1)
    return eq.emitError() << "needs '@" << getCallee()
                          << "' to take the captures, then the parameters, "
                             "and return one value, but it has type "
                          << signature;
  SmallVector<Type> inputs;
  for (Type t : signature.getInputs())
    inputs.push_back(eq.instantiate(t));
  for (auto [i, pair] :
       llvm::enumerate(llvm::zip(eq.typesOf(getCaptures()), inputs)))
    if (failed(eq.equal(std::get<0>(pair), std::get<1>(pair),
                        "capture #" + Twine(i) + " of @" + getCallee())))
      return failure();
  Type closure =
      FuncType::get(getContext(), ArrayRef(inputs).drop_front(numCaptures),
                    eq.instantiate(signature.getResult(0)));
  return eq.equal(type, closure, "type of the closure of @" + getCallee());
}

//===----------------------------------------------------------------------===//
// Functions of the operand types
//===----------------------------------------------------------------------===//

FailureOr<Type> relay::inferTupleGetItem(ErrorSite site, Type tuple,
                                         int64_t index) {
  if (isa<IncompleteType>(tuple))
    return incomplete(tuple.getContext());
  auto tupleType = dyn_cast<TupleType>(tuple);
  if (!tupleType)
    return site.emitError() << "operand must be a tuple, got " << tuple;
  if (index < 0 || index >= (int64_t)tupleType.size())
    return site.emitError()
           << "index " << index << " is out of range for " << tuple;
  return tupleType.getType(index);
}

LogicalResult TupleGetItemOp::inferReturnTypes(MLIRContext *,
                                               std::optional<Location> loc,
                                               Adaptor adaptor,
                                               SmallVectorImpl<Type> &results) {
  return addResult(results, inferTupleGetItem({loc, getOperationName()},
                                              adaptor.getTuple().getType(),
                                              adaptor.getIndex()));
}

FailureOr<Type> relay::inferGrad(ErrorSite site, Type fn,
                                 std::optional<ArrayRef<int64_t>> wrt,
                                 bool keeping, bool seedable) {
  MLIRContext *ctx = fn.getContext();
  if (isa<IncompleteType>(fn))
    return incomplete(ctx);
  auto fnType = dyn_cast<FuncType>(fn);
  if (!fnType)
    return site.emitError() << "operand must have a !relay.fn type, got " << fn;
  ArrayRef<Type> inputs = fnType.getInputs();
  SmallVector<int64_t> positions;
  if (wrt) {
    for (int64_t i : *wrt) {
      if (i < 0 || i >= static_cast<int64_t>(inputs.size()))
        return site.emitError()
               << "`wrt` names parameter #" << i << " but the function has "
               << inputs.size() << " parameter(s)";
      if (llvm::is_contained(positions, i))
        return site.emitError() << "`wrt` names parameter #" << i << " twice";
      positions.push_back(i);
    }
  } else {
    for (int64_t i = 0, e = inputs.size(); i < e; ++i)
      positions.push_back(i);
  }
  SmallVector<Type> gradTypes;
  for (int64_t i : positions) {
    Type input = inputs[i];
    if (isa<IncompleteType>(input)) {
      gradTypes.push_back(input);
      continue;
    }
    // As in Relay, an integer or bool parameter gets a zero gradient. An
    // ADT value's gradient is a value of its type (the same constructor
    // tree holding the float tensors' gradients); Relay refuses both.
    std::function<bool(Type)> differentiable = [&](Type t) {
      if (auto tuple = dyn_cast<TupleType>(t))
        return llvm::all_of(tuple.getTypes(), differentiable);
      return isa<RankedTensorType, ADTType>(t);
    };
    if (!differentiable(input))
      return site.emitError() << "can only differentiate with respect to "
                                 "tensors, tuples and ADT values; parameter #"
                              << i << " is " << input;
    gradTypes.push_back(input);
  }
  Type grads = TupleType::get(ctx, gradTypes);
  Type result =
      keeping ? TupleType::get(ctx, {fnType.getResult(), grads}) : grads;
  SmallVector<Type> params(inputs);
  if (seedable)
    params.push_back(fnType.getResult());
  return Type(FuncType::get(ctx, params, result));
}

LogicalResult GradOp::inferReturnTypes(MLIRContext *,
                                       std::optional<Location> loc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &results) {
  return addResult(results,
                   inferGrad({loc, getOperationName()},
                             adaptor.getFn().getType(), adaptor.getWrt(),
                             adaptor.getKeeping(), adaptor.getSeedable()));
}
