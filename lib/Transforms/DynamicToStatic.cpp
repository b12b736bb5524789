//===- DynamicToStatic.cpp - relay-dynamic-to-static ----------------------===//
//
// Relay's DynamicToStatic: a dyn.* op whose shape operand is a constant is
// its static op; shape_of of a static shape is a constant. After each round
// of rewrites the types downstream of the replaced values are reset to
// `!relay.incomplete` and inferred again (relay-infer-type), which may make
// more shapes static and more dyn.* ops rewritable; rounds repeat until
// nothing changes.
//
//===----------------------------------------------------------------------===//
#include "relay/RelayOps.h"
#include "relay/RelayPasses.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"

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

/// The static replacement of `op`, or null.
Value staticForm(OpBuilder &b, Operation *op) {
  Location loc = op->getLoc();
  auto named = [&](StringRef attr, Attribute value) {
    return b.getNamedAttr(attr, value);
  };
  if (auto shapeOf = dyn_cast<ShapeOfOp>(op)) {
    OpFoldResult folded = shapeOf.fold(ShapeOfOp::FoldAdaptor({}, shapeOf));
    if (auto attr = dyn_cast_if_present<Attribute>(folded))
      return ConstantOp::create(b, loc, cast<ElementsAttr>(attr));
    return {};
  }
  if (auto size = dyn_cast<NdarraySizeOp>(op)) {
    OpFoldResult folded = size.fold(NdarraySizeOp::FoldAdaptor({}, size));
    if (auto attr = dyn_cast_if_present<Attribute>(folded))
      return ConstantOp::create(b, loc, cast<ElementsAttr>(attr));
    return {};
  }
  if (auto reshape = dyn_cast<DynReshapeOp>(op)) {
    if (auto shape = constantShape(reshape.getNewshape()))
      return staticOp(
          b, loc, ReshapeOp::getOperationName(), {reshape.getData()},
          {named("newshape", b.getDenseI64ArrayAttr(*shape)),
           named("allowzero", b.getBoolAttr(reshape.getAllowzero()))});
    return {};
  }
  if (auto bcast = dyn_cast<DynBroadcastToOp>(op)) {
    if (auto shape = constantShape(bcast.getShape()))
      return staticOp(b, loc, BroadcastToOp::getOperationName(),
                      {bcast.getData()},
                      {named("shape", b.getDenseI64ArrayAttr(*shape))});
    return {};
  }
  if (isa<DynZerosOp, DynOnesOp>(op)) {
    if (auto shape = constantShape(op->getOperand(0)))
      return staticOp(b, loc,
                      isa<DynZerosOp>(op) ? ZerosOp::getOperationName()
                                          : OnesOp::getOperationName(),
                      {},
                      {named("shape", b.getDenseI64ArrayAttr(*shape)),
                       named("dtype", op->getAttr("dtype"))});
    return {};
  }
  if (auto full = dyn_cast<DynFullOp>(op)) {
    if (auto shape = constantShape(full.getShape())) {
      SmallVector<NamedAttribute> attrs = {
          named("shape", b.getDenseI64ArrayAttr(*shape))};
      if (full.getDtypeAttr())
        attrs.push_back(named("dtype", full.getDtypeAttr()));
      return staticOp(b, loc, FullOp::getOperationName(), {full.getFillValue()},
                      attrs);
    }
    return {};
  }
  if (auto slice = dyn_cast<DynStridedSliceOp>(op)) {
    auto begin = constantShape(slice.getBegin());
    auto end = constantShape(slice.getEnd());
    auto strides = constantShape(slice.getStrides());
    if (!begin || !end || !strides)
      return {};
    return staticOp(b, loc, StridedSliceOp::getOperationName(),
                    {slice.getData()},
                    {named("begin", b.getDenseI64ArrayAttr(*begin)),
                     named("end", b.getDenseI64ArrayAttr(*end)),
                     named("strides", b.getDenseI64ArrayAttr(*strides)),
                     named("slice_mode", slice.getSliceModeAttr())});
  }
  if (auto tile = dyn_cast<DynTileOp>(op)) {
    if (auto reps = constantShape(tile.getReps()))
      return staticOp(b, loc, TileOp::getOperationName(), {tile.getData()},
                      {named("reps", b.getDenseI64ArrayAttr(*reps))});
    return {};
  }
  if (auto pad = dyn_cast<DynPadOp>(op)) {
    if (auto width = constantShape(pad.getPadWidth()))
      return staticOp(b, loc, PadOp::getOperationName(),
                      {pad.getData(), pad.getPadValue()},
                      {named("pad_width", b.getDenseI64ArrayAttr(*width)),
                       named("pad_mode", pad.getPadModeAttr())});
    return {};
  }
  if (auto oneHot = dyn_cast<DynOneHotOp>(op)) {
    if (auto depth = constantShape(oneHot.getDepth()))
      return staticOp(
          b, loc, OneHotOp::getOperationName(),
          {oneHot.getIndices(), oneHot.getOnValue(), oneHot.getOffValue()},
          {named("depth", b.getI64IntegerAttr((*depth)[0])),
           named("axis", oneHot.getAxisAttr()),
           named("dtype", oneHot.getDtypeAttr())});
    return {};
  }
  if (auto squeeze = dyn_cast<DynSqueezeOp>(op)) {
    if (auto axis = constantShape(squeeze.getAxis()))
      return staticOp(b, loc, SqueezeOp::getOperationName(),
                      {squeeze.getData()},
                      {named("axis", b.getDenseI64ArrayAttr(*axis))});
    return {};
  }
  if (auto expand = dyn_cast<DynExpandDimsOp>(op)) {
    if (auto axis = constantShape(expand.getAxis()))
      return staticOp(b, loc, ExpandDimsOp::getOperationName(),
                      {expand.getData()},
                      {named("axis", b.getI64IntegerAttr((*axis)[0])),
                       named("num_newaxis", expand.getNumNewaxisAttr())});
    return {};
  }
  if (auto topk = dyn_cast<DynTopKOp>(op)) {
    // (the static op reads k < 1 as the whole axis: only k >= 1 carries over)
    auto k = constantShape(topk.getK());
    if (!k || (*k)[0] < 1)
      return {};
    SmallVector<NamedAttribute> attrs = {
        named("k", b.getI64IntegerAttr((*k)[0])),
        named("axis", topk.getAxisAttr()),
        named("ret_type", topk.getRetTypeAttr()),
        named("is_ascend", topk.getIsAscendAttr())};
    if (topk.getDtypeAttr())
      attrs.push_back(named("dtype", topk.getDtypeAttr()));
    return staticOp(b, loc, TopKOp::getOperationName(), {topk.getData()},
                    attrs);
  }
  return {};
}

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
    for (int round = 0; round < 64; ++round) {
      SmallVector<Operation *> candidates;
      module.walk([&](Operation *op) {
        if (isa<ShapeOfOp, NdarraySizeOp, DynReshapeOp, DynBroadcastToOp,
                DynZerosOp, DynOnesOp, DynFullOp, DynStridedSliceOp, DynTileOp,
                DynPadOp, DynOneHotOp, DynSqueezeOp, DynExpandDimsOp,
                DynTopKOp>(op))
          candidates.push_back(op);
      });
      SmallVector<Value> changed;
      for (Operation *op : candidates) {
        if (llvm::any_of(op->getOperandTypes(),
                         [](Type t) { return isa<IncompleteType>(t); }))
          continue;
        OpBuilder b(op);
        Value replacement = staticForm(b, op);
        if (!replacement)
          continue;
        op->getResult(0).replaceAllUsesWith(replacement);
        op->erase();
        changed.push_back(replacement);
      }
      if (changed.empty())
        return;
      resetDownstream(module, changed);
      if (failed(inferModuleTypes(module)))
        return signalPassFailure();
    }
  }
};

} // namespace
