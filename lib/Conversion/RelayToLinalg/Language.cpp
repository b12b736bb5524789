//===- Language.cpp - constants, tuples, if, function boundaries ----------===//
//
// Tuples disappear: the type converter maps a tuple to its flattened tensor
// leaves (1:N), `relay.tuple` and `relay.tuple_get_item` just regroup
// those values, and func.func/call/return signatures are rewritten by the
// upstream 1:N function conversion patterns. `relay.if` becomes `scf.if`.
// ADTs and match are in ADT.cpp, references in LanguageRef.cpp. Closures
// and `grad` are rejected up front by `checkLowerable`, with one located
// error each.
//
//===----------------------------------------------------------------------===//
#include "Utils.h"

#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

namespace {

/// The elements of a narrow-integer constant (int4, uint4, int2, uint2) in
/// their i8 storage `type` (signlessTensorType): sign- or zero-extended.
DenseElementsAttr widenNarrowInts(DenseElementsAttr dense,
                                  RankedTensorType type) {
  bool isUnsigned = isUnsignedInt(dense.getElementType());
  SmallVector<APInt> bytes;
  for (const APInt &v : dense.getValues<APInt>())
    bytes.push_back(isUnsigned ? v.zext(8) : v.sext(8));
  return DenseElementsAttr::get(type, bytes);
}

struct ConstantPattern : OpConversionPattern<ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConstantOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = signlessTensorType(cast<RankedTensorType>(op.getType()));
    TypedAttr value = cast<TypedAttr>(op.getValue());
    if (type != op.getType()) {
      auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
      if (!dense)
        return rewriter.notifyMatchFailure(op, "non-dense signed constant");
      bool widened = dense.getElementType().getIntOrFloatBitWidth() !=
                     type.getElementType().getIntOrFloatBitWidth();
      value = widened ? widenNarrowInts(dense, type)
                      : dense.bitcast(type.getElementType());
    }
    // A bool constant that is not a splat is stored as i8 and truncated:
    // large i1 constants print as hex data, which MLIR 22 and IREE 3.13's
    // parser read with different sizes ("elements hex data size is invalid
    // for provided type").
    auto dense = dyn_cast<DenseElementsAttr>(value);
    if (type.getElementType().isInteger(1) && dense && !dense.isSplat()) {
      SmallVector<APInt> bytes;
      for (bool bit : dense.getValues<bool>())
        bytes.push_back(APInt(8, bit ? 1 : 0));
      Value wide = arith::ConstantOp::create(
          rewriter, op.getLoc(),
          DenseElementsAttr::get(type.clone(rewriter.getI8Type()), bytes));
      rewriter.replaceOp(op, buildBroadcastMap(
                                 rewriter, op.getLoc(), type, wide,
                                 [](OpBuilder &b, Location loc, ValueRange in) {
                                   return arith::TruncIOp::create(
                                              b, loc, b.getI1Type(), in[0])
                                       .getResult();
                                 },
                                 op->getName().getStringRef()));
      return success();
    }
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, type, value);
    return success();
  }
};

struct TuplePattern : OpConversionPattern<TupleOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TupleOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Value> leaves;
    for (ValueRange field : adaptor.getFields())
      llvm::append_range(leaves, field);
    rewriter.replaceOpWithMultiple(op, {leaves});
    return success();
  }
};

struct TupleGetItemPattern : OpConversionPattern<TupleGetItemOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TupleGetItemOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto tupleType = dyn_cast<TupleType>(op.getTuple().getType());
    if (!tupleType)
      return rewriter.notifyMatchFailure(op, "operand is not a tuple");
    // Leaves of the fields before `index`, then those of field `index`.
    size_t begin = 0;
    SmallVector<Type> leafTypes;
    for (int64_t i = 0; i <= op.getIndex(); ++i) {
      leafTypes.clear();
      if (failed(
              getTypeConverter()->convertType(tupleType.getType(i), leafTypes)))
        return failure();
      if (i < op.getIndex())
        begin += leafTypes.size();
    }
    ValueRange leaves = adaptor.getTuple();
    SmallVector<Value> field(leaves.slice(begin, leafTypes.size()));
    rewriter.replaceOpWithMultiple(op, {field});
    return success();
  }
};

struct IfPattern : OpConversionPattern<IfOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(IfOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> types;
    if (failed(getTypeConverter()->convertType(op.getType(), types)))
      return failure();
    Location loc = op.getLoc();
    Value cond = tensor::ExtractOp::create(
        rewriter, loc, adaptor.getCond().front(), ValueRange{});
    auto ifOp = scf::IfOp::create(rewriter, loc, types, cond,
                                  /*addThenBlock=*/false,
                                  /*addElseBlock=*/false);
    rewriter.inlineRegionBefore(op.getThenRegion(), ifOp.getThenRegion(),
                                ifOp.getThenRegion().end());
    rewriter.inlineRegionBefore(op.getElseRegion(), ifOp.getElseRegion(),
                                ifOp.getElseRegion().end());
    rewriter.replaceOpWithMultiple(op, {SmallVector<Value>(ifOp.getResults())});
    return success();
  }
};

/// relay.yield of a branch of (what is now) an scf.if.
struct YieldPattern : OpConversionPattern<YieldOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(YieldOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<scf::IfOp>(op->getParentOp()))
      return rewriter.notifyMatchFailure(op, "not in an scf.if");
    rewriter.replaceOpWithNewOp<scf::YieldOp>(op, adaptor.getValue());
    return success();
  }
};

//===----------------------------------------------------------------------===//
// What cannot be lowered yet
//===----------------------------------------------------------------------===//

struct Unsupported {
  StringLiteral op;
  StringLiteral what;
};
const Unsupported kUnsupportedOps[] = {
    {FnOp::getOperationName(), "closures"},
    {ClosureOp::getOperationName(),
     "lambda-lifted closures; run relay-defunctionalize"},
    {CallOp::getOperationName(), "calls of function values"},
    {GlobalFnOp::getOperationName(), "functions as values"},
    {GradOp::getOperationName(), "automatic differentiation"},
};

/// What makes `type` unlowerable ("" if nothing).
StringRef typeProblem(Type type) {
  if (isa<IncompleteType>(type))
    return "incomplete";
  if (isa<FuncType>(type))
    return "function values (!relay.fn)";
  if (isa<TypeVarType>(type))
    return "type variables (!relay.tvar: polymorphic values)";
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return typeProblem(tensor.getElementType());
  SmallVector<Type> parts;
  if (auto tuple = dyn_cast<TupleType>(type))
    llvm::append_range(parts, tuple.getTypes());
  else if (auto adt = dyn_cast<ADTType>(type))
    llvm::append_range(parts, adt.getArgs());
  else if (auto ref = dyn_cast<RefType>(type))
    parts.push_back(ref.getElementType());
  for (Type part : parts)
    if (StringRef problem = typeProblem(part); !problem.empty())
      return problem;
  return "";
}

/// True if `type` is or contains an ADT or reference (lowered to IREE
/// lists).
bool needsLists(Type type) {
  if (isa<ADTType, RefType>(type))
    return true;
  if (auto tuple = dyn_cast<TupleType>(type))
    return llvm::any_of(tuple.getTypes(), needsLists);
  return false;
}

/// Reports the first unlowerable type among `types` on `op`.
LogicalResult checkTypes(Operation *op, TypeRange types) {
  for (Type type : types) {
    StringRef problem = typeProblem(type);
    if (problem.empty())
      continue;
    if (problem == "incomplete")
      return op->emitError() << "type " << type
                             << " is not inferred: run relay-infer-type first";
    return op->emitError() << "not supported yet: " << problem;
  }
  return success();
}
} // namespace

LogicalResult lowering::checkLowerable(ModuleOp module) {
  bool ok = true;
  Operation *firstListUser = nullptr;
  module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    for (const Unsupported &entry : kUnsupportedOps) {
      if (op->getName().getStringRef() != entry.op)
        continue;
      op->emitError() << "not supported yet: " << entry.op << " (" << entry.what
                      << ")";
      ok = false;
      return WalkResult::skip();
    }
    if (isa<ADTOp>(op))
      return WalkResult::skip(); // constructor fields name type parameters
    SmallVector<Type> types(op->getOperandTypes());
    llvm::append_range(types, op->getResultTypes());
    if (auto fn = dyn_cast<func::FuncOp>(op)) {
      llvm::append_range(types, fn.getFunctionType().getInputs());
      llvm::append_range(types, fn.getFunctionType().getResults());
    }
    for (Region &region : op->getRegions())
      for (Block &block : region)
        llvm::append_range(types, block.getArgumentTypes());
    if (failed(checkTypes(op, types))) {
      ok = false;
      return WalkResult::skip();
    }
    if (!firstListUser && llvm::any_of(types, needsLists))
      firstListUser = op;
    if (op->getNumResults() == 1 && requiresFloat(op) &&
        !isa<FloatType>(elementTypeOf(op->getResult(0).getType()))) {
      op->emitError() << "not supported yet: " << op->getName()
                      << " on integer tensors";
      ok = false;
    }
    return WalkResult::advance();
  });
  if (ok && firstListUser &&
      !module->getContext()->allowsUnregisteredDialects()) {
    firstListUser->emitError()
        << "lowering ADTs and references emits IREE's util/hal ops in generic "
           "form: the context must allow unregistered dialects "
           "(relay-mlir-opt --allow-unregistered-dialect)";
    ok = false;
  }
  return success(ok);
}

void relay::populateLanguageToLinalgPatterns(const TypeConverter &tc,
                                             RewritePatternSet &patterns) {
  patterns.add<ConstantPattern, TuplePattern, TupleGetItemPattern, IfPattern,
               YieldPattern>(tc, patterns.getContext());
  populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns, tc);
  populateCallOpTypeConversionPattern(patterns, tc);
  populateReturnOpTypeConversionPattern(patterns, tc);
}
