//===- DynamicToStatic.cpp - relay-dynamic-to-static ----------------------===//
//
// Relay's DynamicToStatic: a dyn.* op whose shape operand is a constant is
// its static op; shape_of of a static shape is a constant (one rewrite
// pattern per op, `populateDynamicToStaticPatterns`). After each round
// of rewrites the types downstream of the replaced values are reset to
// `!relay.incomplete` and inferred again (relay-infer-type), which may make
// more shapes static and more dyn.* ops rewritable; rounds repeat until
// nothing changes.
//
//===----------------------------------------------------------------------===//
#include "relay/RelayOps.h"
#include "relay/RelayPasses.h"
#include "relay/RelayRewritePatterns.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Rewrite/PatternApplicator.h"

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYDYNAMICTOSTATIC
#include "relay/RelayPasses.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

namespace {

/// The integer values of a 1-d shape operand that is a constant.
std::optional<SmallVector<int64_t>> constantShape(Value shape) {
  DenseIntElementsAttr attr;
  if (!matchPattern(shape, m_Constant(&attr)))
    return std::nullopt;
  SmallVector<int64_t> values;
  for (const APInt &v : attr.getValues<APInt>())
    values.push_back(v.getSExtValue());
  return values;
}

/// The static op of kind `name` on `operands` with `attrs`, or null if its
/// typing rule rejects them (the dyn op then stays, checked at run time).
Value staticOp(OpBuilder &b, Location loc, StringRef name, ValueRange operands,
               ArrayRef<NamedAttribute> attrs) {
  FailureOr<Operation *> op =
      createInferred(b, loc, OperationName(name, b.getContext()), operands,
                     b.getDictionaryAttr(attrs));
  return succeeded(op) ? (*op)->getResult(0) : Value();
}

NamedAttribute named(OpBuilder &b, StringRef attr, Attribute value) {
  return b.getNamedAttr(attr, value);
}

/// The rewrites' base: `staticForm` builds the static replacement, or returns
/// null when a shape operand is not a constant (or the static op's typing
/// rule rejects it: the dyn op stays, checked at run time). An op with an
/// operand whose type is not inferred yet waits for the next round.
template <typename OpT> struct ToStatic : OpRewritePattern<OpT> {
  using OpRewritePattern<OpT>::OpRewritePattern;
  virtual Value staticForm(OpT op, OpBuilder &b) const = 0;

  LogicalResult matchAndRewrite(OpT op, PatternRewriter &rewriter) const final {
    if (llvm::any_of(op->getOperandTypes(),
                     [](Type t) { return isa<IncompleteType>(t); }))
      return rewriter.notifyMatchFailure(op, "an operand type is incomplete");
    Value replacement = staticForm(op, rewriter);
    if (!replacement)
      return rewriter.notifyMatchFailure(op, "no static form");
    rewriter.replaceOp(op, replacement);
    return success();
  }
};

/// shape_of / ndarray_size of a static shape: its folded constant.
template <typename OpT> struct FoldToConstant : ToStatic<OpT> {
  using ToStatic<OpT>::ToStatic;
  Value staticForm(OpT op, OpBuilder &b) const override {
    OpFoldResult folded = op.fold(typename OpT::FoldAdaptor({}, op));
    if (auto attr = dyn_cast_if_present<Attribute>(folded))
      return ConstantOp::create(b, op.getLoc(), cast<ElementsAttr>(attr));
    return {};
  }
};

struct ReshapeToStatic : ToStatic<DynReshapeOp> {
  using ToStatic::ToStatic;
  Value staticForm(DynReshapeOp op, OpBuilder &b) const override {
    auto shape = constantShape(op.getNewshape());
    if (!shape)
      return {};
    return staticOp(b, op.getLoc(), ReshapeOp::getOperationName(),
                    {op.getData()},
                    {named(b, "newshape", b.getDenseI64ArrayAttr(*shape)),
                     named(b, "allowzero", b.getBoolAttr(op.getAllowzero()))});
  }
};

struct BroadcastToToStatic : ToStatic<DynBroadcastToOp> {
  using ToStatic::ToStatic;
  Value staticForm(DynBroadcastToOp op, OpBuilder &b) const override {
    auto shape = constantShape(op.getShape());
    if (!shape)
      return {};
    return staticOp(b, op.getLoc(), BroadcastToOp::getOperationName(),
                    {op.getData()},
                    {named(b, "shape", b.getDenseI64ArrayAttr(*shape))});
  }
};

/// dyn.zeros / dyn.ones as zeros / ones.
template <typename DynOpT, typename StaticOpT>
struct FillToStatic : ToStatic<DynOpT> {
  using ToStatic<DynOpT>::ToStatic;
  Value staticForm(DynOpT op, OpBuilder &b) const override {
    auto shape = constantShape(op->getOperand(0));
    if (!shape)
      return {};
    return staticOp(b, op.getLoc(), StaticOpT::getOperationName(), {},
                    {named(b, "shape", b.getDenseI64ArrayAttr(*shape)),
                     named(b, "dtype", op->getAttr("dtype"))});
  }
};

struct FullToStatic : ToStatic<DynFullOp> {
  using ToStatic::ToStatic;
  Value staticForm(DynFullOp op, OpBuilder &b) const override {
    auto shape = constantShape(op.getShape());
    if (!shape)
      return {};
    SmallVector<NamedAttribute> attrs = {
        named(b, "shape", b.getDenseI64ArrayAttr(*shape))};
    if (op.getDtypeAttr())
      attrs.push_back(named(b, "dtype", op.getDtypeAttr()));
    return staticOp(b, op.getLoc(), FullOp::getOperationName(),
                    {op.getFillValue()}, attrs);
  }
};

struct StridedSliceToStatic : ToStatic<DynStridedSliceOp> {
  using ToStatic::ToStatic;
  Value staticForm(DynStridedSliceOp op, OpBuilder &b) const override {
    auto begin = constantShape(op.getBegin());
    auto end = constantShape(op.getEnd());
    auto strides = constantShape(op.getStrides());
    if (!begin || !end || !strides)
      return {};
    return staticOp(b, op.getLoc(), StridedSliceOp::getOperationName(),
                    {op.getData()},
                    {named(b, "begin", b.getDenseI64ArrayAttr(*begin)),
                     named(b, "end", b.getDenseI64ArrayAttr(*end)),
                     named(b, "strides", b.getDenseI64ArrayAttr(*strides)),
                     named(b, "slice_mode", op.getSliceModeAttr())});
  }
};

struct TileToStatic : ToStatic<DynTileOp> {
  using ToStatic::ToStatic;
  Value staticForm(DynTileOp op, OpBuilder &b) const override {
    auto reps = constantShape(op.getReps());
    if (!reps)
      return {};
    return staticOp(b, op.getLoc(), TileOp::getOperationName(), {op.getData()},
                    {named(b, "reps", b.getDenseI64ArrayAttr(*reps))});
  }
};

struct PadToStatic : ToStatic<DynPadOp> {
  using ToStatic::ToStatic;
  Value staticForm(DynPadOp op, OpBuilder &b) const override {
    auto width = constantShape(op.getPadWidth());
    if (!width)
      return {};
    return staticOp(b, op.getLoc(), PadOp::getOperationName(),
                    {op.getData(), op.getPadValue()},
                    {named(b, "pad_width", b.getDenseI64ArrayAttr(*width)),
                     named(b, "pad_mode", op.getPadModeAttr())});
  }
};

struct OneHotToStatic : ToStatic<DynOneHotOp> {
  using ToStatic::ToStatic;
  Value staticForm(DynOneHotOp op, OpBuilder &b) const override {
    auto depth = constantShape(op.getDepth());
    if (!depth)
      return {};
    return staticOp(b, op.getLoc(), OneHotOp::getOperationName(),
                    {op.getIndices(), op.getOnValue(), op.getOffValue()},
                    {named(b, "depth", b.getI64IntegerAttr((*depth)[0])),
                     named(b, "axis", op.getAxisAttr()),
                     named(b, "dtype", op.getDtypeAttr())});
  }
};

struct SqueezeToStatic : ToStatic<DynSqueezeOp> {
  using ToStatic::ToStatic;
  Value staticForm(DynSqueezeOp op, OpBuilder &b) const override {
    auto axis = constantShape(op.getAxis());
    if (!axis)
      return {};
    return staticOp(b, op.getLoc(), SqueezeOp::getOperationName(),
                    {op.getData()},
                    {named(b, "axis", b.getDenseI64ArrayAttr(*axis))});
  }
};

struct ExpandDimsToStatic : ToStatic<DynExpandDimsOp> {
  using ToStatic::ToStatic;
  Value staticForm(DynExpandDimsOp op, OpBuilder &b) const override {
    auto axis = constantShape(op.getAxis());
    if (!axis)
      return {};
    return staticOp(b, op.getLoc(), ExpandDimsOp::getOperationName(),
                    {op.getData()},
                    {named(b, "axis", b.getI64IntegerAttr((*axis)[0])),
                     named(b, "num_newaxis", op.getNumNewaxisAttr())});
  }
};

struct TopKToStatic : ToStatic<DynTopKOp> {
  using ToStatic::ToStatic;
  Value staticForm(DynTopKOp op, OpBuilder &b) const override {
    // (the static op reads k < 1 as the whole axis: only k >= 1 carries over)
    auto k = constantShape(op.getK());
    if (!k || (*k)[0] < 1)
      return {};
    SmallVector<NamedAttribute> attrs = {
        named(b, "k", b.getI64IntegerAttr((*k)[0])),
        named(b, "axis", op.getAxisAttr()),
        named(b, "ret_type", op.getRetTypeAttr()),
        named(b, "is_ascend", op.getIsAscendAttr())};
    if (op.getDtypeAttr())
      attrs.push_back(named(b, "dtype", op.getDtypeAttr()));
    return staticOp(b, op.getLoc(), TopKOp::getOperationName(), {op.getData()},
                    attrs);
  }
};

/// Collects the values that replaced ops (the roots of the types to reset).
struct ReplacementListener : RewriterBase::Listener {
  SmallVector<Value> replacements;
  void notifyOperationReplaced(Operation *, ValueRange values) override {
    replacements.append(values.begin(), values.end());
  }
};

/// Sets every type that depends on `roots` to `!relay.incomplete`: results
/// of their users (transitively), the results of the op a `relay.yield`
/// belongs to, and a function's result types with the results of its calls.
void resetDownstream(ModuleOp module, ArrayRef<Value> roots) {
  MLIRContext *ctx = module.getContext();
  Type incomplete = IncompleteType::get(ctx, 0);
  SymbolTableCollection symbols;
  SmallVector<Value> work(roots.begin(), roots.end());
  llvm::DenseSet<Operation *> seen;
  auto resetResults = [&](Operation *op) {
    if (!seen.insert(op).second)
      return;
    for (OpResult r : op->getResults()) {
      r.setType(incomplete);
      work.push_back(r);
    }
  };
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (isa<YieldOp>(user)) {
        if (Operation *parent = user->getParentOp())
          resetResults(parent);
        continue;
      }
      if (isa<func::ReturnOp>(user)) {
        auto fn = user->getParentOfType<func::FuncOp>();
        if (!fn || !seen.insert(fn).second)
          continue;
        SmallVector<Type> results(fn.getNumResults(), incomplete);
        fn.setFunctionType(
            FunctionType::get(ctx, fn.getFunctionType().getInputs(), results));
        if (auto uses = SymbolTable::getSymbolUses(fn, module))
          for (const SymbolTable::SymbolUse &use : *uses)
            resetResults(use.getUser());
        continue;
      }
      resetResults(user);
    }
  }
}

struct DynamicToStaticPass
    : relay::impl::RelayDynamicToStaticBase<DynamicToStaticPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    RewritePatternSet set(&getContext());
    populateDynamicToStaticPatterns(set);
    FrozenRewritePatternSet patterns(std::move(set));
    PatternApplicator applicator(patterns);
    applicator.applyDefaultCostModel();
    ReplacementListener listener;
    PatternRewriter rewriter(&getContext());
    rewriter.setListener(&listener);
    for (int round = 0; round < 64; ++round) {
      SmallVector<Operation *> ops;
      module.walk([&](Operation *op) { ops.push_back(op); });
      listener.replacements.clear();
      for (Operation *op : ops) {
        rewriter.setInsertionPoint(op);
        (void)applicator.matchAndRewrite(op, rewriter);
      }
      if (listener.replacements.empty())
        return;
      resetDownstream(module, listener.replacements);
      if (failed(inferModuleTypes(module)))
        return signalPassFailure();
    }
  }
};

} // namespace

void mlir::relay::populateDynamicToStaticPatterns(RewritePatternSet &patterns) {
  patterns
      .add<FoldToConstant<ShapeOfOp>, FoldToConstant<NdarraySizeOp>,
           ReshapeToStatic, BroadcastToToStatic,
           FillToStatic<DynZerosOp, ZerosOp>, FillToStatic<DynOnesOp, OnesOp>,
           FullToStatic, StridedSliceToStatic, TileToStatic, PadToStatic,
           OneHotToStatic, SqueezeToStatic, ExpandDimsToStatic, TopKToStatic>(
          patterns.getContext());
}
