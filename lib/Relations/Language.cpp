//===- Language.cpp - typing rules of the language constructs -------------===//
//
// tuple, tuple_get_item, call, ref_new/ref_read/ref_write and grad. Unlike
// operator rules these accept partly known operands: a part still
// `!relay.incomplete` gives an incomplete part of the result, and
// relay-infer-type re-runs the rule once it knows more.
//
//===----------------------------------------------------------------------===//
#include "RelationUtils.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::rel;

static Type incomplete(MLIRContext *ctx) { return IncompleteType::get(ctx, 0); }

Type relay::inferTuple(MLIRContext *ctx, TypeRange fields) {
  return TupleType::get(ctx, fields);
}

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

FailureOr<Type> relay::inferCall(ErrorSite site, Type callee, TypeRange args) {
  if (isa<IncompleteType>(callee))
    return incomplete(callee.getContext());
  auto fn = dyn_cast<FuncType>(callee);
  if (!fn)
    return site.emitError()
           << "callee must have a !relay.fn type, got " << callee;
  if (args.size() != fn.getInputs().size())
    return site.emitError() << "callee takes " << fn.getInputs().size()
                            << " arguments, got " << args.size();
  for (auto [i, pair] : llvm::enumerate(llvm::zip(args, fn.getInputs())))
    if (!areCompatible(std::get<0>(pair), std::get<1>(pair)))
      return site.emitError()
             << "argument #" << i << " has type " << std::get<0>(pair)
             << " but the callee expects " << std::get<1>(pair);
  return fn.getResult();
}

Type relay::inferRefNew(Type value) {
  return RefType::get(value.getContext(), value);
}

FailureOr<Type> relay::inferRefRead(ErrorSite site, Type ref) {
  if (isa<IncompleteType>(ref))
    return incomplete(ref.getContext());
  auto refType = dyn_cast<RefType>(ref);
  if (!refType)
    return site.emitError() << "operand must be a !relay.ref, got " << ref;
  return refType.getElementType();
}

FailureOr<Type> relay::inferRefWrite(ErrorSite site, Type ref, Type value) {
  Type unit = TupleType::get(ref.getContext(), {});
  if (isa<IncompleteType>(ref))
    return unit;
  auto refType = dyn_cast<RefType>(ref);
  if (!refType)
    return site.emitError()
           << "first operand must be a !relay.ref, got " << ref;
  if (!areCompatible(refType.getElementType(), value))
    return site.emitError() << "cannot write " << value << " into " << ref;
  return unit;
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
    // As in Relay, an integer or bool parameter gets a zero gradient.
    if (!isa<RankedTensorType>(input))
      return site.emitError() << "can only differentiate with respect to "
                                 "tensors; parameter #"
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
