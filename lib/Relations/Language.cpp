//===- Language.cpp - relations of the language constructs ----------------===//
//
// Tuple, TupleGetItem, Call, RefNew/RefRead/RefWrite and Grad.
//
//===----------------------------------------------------------------------===//
#include "RelationUtils.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::rel;

LogicalResult rel::TupleRel(Operation *op, TypeRange operands,
                            SmallVectorImpl<Type> &results) {
  results.push_back(TupleType::get(op->getContext(), operands));
  return success();
}

LogicalResult rel::TupleGetItemRel(Operation *op, TypeRange operands,
                                   SmallVectorImpl<Type> &results) {
  auto tuple = dyn_cast<TupleType>(operands[0]);
  if (!tuple)
    return op->emitOpError() << "operand must be a tuple, got " << operands[0];
  int64_t index = *attrI64(op, "index");
  if (index < 0 || index >= (int64_t)tuple.size())
    return op->emitOpError() << "index " << index << " is out of range for "
                             << tuple;
  results.push_back(tuple.getType(index));
  return success();
}

LogicalResult rel::CallRel(Operation *op, TypeRange operands,
                           SmallVectorImpl<Type> &results) {
  auto fn = dyn_cast<FuncType>(operands[0]);
  if (!fn)
    return op->emitOpError() << "callee must have a !relay.fn type, got "
                             << operands[0];
  TypeRange args = operands.drop_front();
  if (args.size() != fn.getInputs().size())
    return op->emitOpError() << "callee takes " << fn.getInputs().size()
                             << " arguments, got " << args.size();
  for (auto [i, pair] : llvm::enumerate(llvm::zip(args, fn.getInputs())))
    if (!areCompatible(std::get<0>(pair), std::get<1>(pair)))
      return op->emitOpError() << "argument #" << i << " has type "
                               << std::get<0>(pair) << " but the callee expects "
                               << std::get<1>(pair);
  results.push_back(fn.getResult());
  return success();
}

LogicalResult rel::RefNewRel(Operation *op, TypeRange operands,
                             SmallVectorImpl<Type> &results) {
  results.push_back(RefType::get(op->getContext(), operands[0]));
  return success();
}

LogicalResult rel::RefReadRel(Operation *op, TypeRange operands,
                              SmallVectorImpl<Type> &results) {
  auto ref = dyn_cast<RefType>(operands[0]);
  if (!ref)
    return op->emitOpError() << "operand must be a !relay.ref, got "
                             << operands[0];
  results.push_back(ref.getElementType());
  return success();
}

LogicalResult rel::RefWriteRel(Operation *op, TypeRange operands,
                               SmallVectorImpl<Type> &results) {
  auto ref = dyn_cast<RefType>(operands[0]);
  if (!ref)
    return op->emitOpError() << "first operand must be a !relay.ref, got "
                             << operands[0];
  if (!areCompatible(ref.getElementType(), operands[1]))
    return op->emitOpError() << "cannot write " << operands[1] << " into "
                             << ref;
  results.push_back(TupleType::get(op->getContext(), {}));
  return success();
}

LogicalResult rel::GradRel(Operation *op, TypeRange operands,
                           SmallVectorImpl<Type> &results) {
  auto fn = dyn_cast<FuncType>(operands[0]);
  if (!fn)
    return op->emitOpError() << "operand must have a !relay.fn type, got "
                             << operands[0];
  for (auto [i, input] : llvm::enumerate(fn.getInputs()))
    if (!isa<RankedTensorType>(input))
      return op->emitOpError() << "can only differentiate with respect to "
                                  "tensors; parameter #"
                               << i << " is " << input;
  MLIRContext *ctx = op->getContext();
  Type grads = TupleType::get(ctx, fn.getInputs());
  Type result = TupleType::get(ctx, {fn.getResult(), grads});
  results.push_back(FuncType::get(ctx, fn.getInputs(), result));
  return success();
}
