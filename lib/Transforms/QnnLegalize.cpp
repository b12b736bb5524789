//===- QnnLegalize.cpp - relay-qnn-legalize -------------------------------===//
//
// TVM 0.19's qnn Legalize (`relay.qnn.transform.Legalize()`,
// python/tvm/relay/qnn/op/legalizations.py) on its x86 targets, measured in
// the side venv, for `qnn.conv2d` and `qnn.dense`:
//   * without fast int8 (no sse4.2: `llvm`, `-mcpu=core2`), the op becomes
//     `nn.conv2d` / `nn.dense` (out_dtype int32 unless it says otherwise)
//     of `cast(data, int16) - cast(input_zero_point, int16)` and
//     `cast(kernel, int16) - cast(kernel_zero_point, int16)`; a per-channel
//     kernel zero point is `nn.bias_add` of its negation on the kernel's O
//     axis. The scales are dropped (the int32 result does not depend on
//     them).
//   * with fast int8 (sse4.2), uint8 data with an int8 kernel stay; int8
//     data becomes uint8 (`cast(cast(data, int32) + 128, uint8)`, the input
//     zero point + 128: a new constant when it is a 0-d one), a uint8 kernel
//     int8 (- 128) the same way.
// Which of the two the target asks for is the pass's `fast-int8` option;
// the Python pass reads it from the current tvm Target and runs nothing
// without a CPU target (TVM's CUDA/Vulkan/ARM rewrites are not done).
//
//===----------------------------------------------------------------------===//
#include "relay/RelayOps.h"
#include "relay/RelayPasses.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYQNNLEGALIZE
#include "relay/RelayPasses.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

namespace {

/// The element type of `v` if it is a ranked tensor, else null.
Type elementOf(Value v) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  return type ? type.getElementType() : Type();
}

Value castTo(PatternRewriter &rewriter, Location loc, Value x, Type element) {
  return CastOp::create(rewriter, loc, x, TypeAttr::get(element));
}

/// A 0-d int32 constant.
Value int32Scalar(PatternRewriter &rewriter, Location loc, int64_t value) {
  auto type = RankedTensorType::get({}, rewriter.getI32Type());
  return ConstantOp::create(
      rewriter, loc,
      cast<ElementsAttr>(DenseElementsAttr::get(
          type, rewriter.getI32IntegerAttr(value).getValue())));
}

/// `cast(x, int16) - cast(zeroPoint, int16)`; a zero point that is not 0-d
/// is broadcast on `kernelAxis` by `nn.bias_add` of its negation (TVM's
/// form), when given.
Value int16Minus(PatternRewriter &rewriter, Location loc, Value x,
                 Value zeroPoint, std::optional<int64_t> kernelAxis) {
  Type i16 = rewriter.getI16Type();
  Value wide = castTo(rewriter, loc, x, i16);
  Value zp = castTo(rewriter, loc, zeroPoint, i16);
  auto zpType = cast<RankedTensorType>(zeroPoint.getType());
  if (!kernelAxis || zpType.getRank() == 0)
    return SubtractOp::create(rewriter, loc, wide, zp);
  return BiasAddOp::create(rewriter, loc, wide,
                           NegativeOp::create(rewriter, loc, zp),
                           rewriter.getI64IntegerAttr(*kernelAxis));
}

/// Without fast int8: qnn.conv2d / qnn.dense -> nn.conv2d / nn.dense of
/// int16 operands minus their zero points.
template <typename Op>
LogicalResult widenToInt16(Op op, PatternRewriter &rewriter) {
  // The kernel's output-channel axis (dense: [units, k]).
  int64_t axis = 0;
  if constexpr (std::is_same_v<Op, QnnConv2DOp>) {
    size_t o = op.getKernelLayout().find('O');
    if (o == StringRef::npos)
      return rewriter.notifyMatchFailure(op, "kernel layout has no O");
    axis = static_cast<int64_t>(o);
  }
  Location loc = op.getLoc();
  Value data = int16Minus(rewriter, loc, op.getData(), op.getInputZeroPoint(),
                          std::nullopt);
  Value weight =
      int16Minus(rewriter, loc, op.getWeight(), op.getKernelZeroPoint(), axis);
  TypeAttr outDtype = op.getOutDtypeAttr();
  if (!outDtype)
    outDtype = TypeAttr::get(rewriter.getI32Type());
  if constexpr (std::is_same_v<Op, QnnConv2DOp>)
    rewriter.replaceOpWithNewOp<Conv2DOp>(
        op, data, weight, op.getStridesAttr(), op.getPaddingAttr(),
        op.getDilationAttr(), op.getGroupsAttr(), op.getChannelsAttr(),
        op.getKernelSizeAttr(), op.getDataLayoutAttr(),
        op.getKernelLayoutAttr(), op.getOutLayoutAttr(), outDtype);
  else
    rewriter.replaceOpWithNewOp<DenseOp>(op, data, weight, op.getUnitsAttr(),
                                         outDtype);
  return success();
}

/// TVM's `_shift`: `x` moved by `by` into `to`
/// (`cast(cast(x, int32) + by, to)`), and its zero point with it (a new
/// constant when it is a 0-d constant, else `zeroPoint + by`).
std::pair<Value, Value> shifted(PatternRewriter &rewriter, Location loc,
                                Value x, Value zeroPoint, int64_t by, Type to) {
  Value wide = castTo(rewriter, loc, x, rewriter.getI32Type());
  Value moved = castTo(
      rewriter, loc,
      AddOp::create(rewriter, loc, wide, int32Scalar(rewriter, loc, by)), to);
  auto constant = zeroPoint.getDefiningOp<ConstantOp>();
  auto zp = constant ? dyn_cast<DenseIntElementsAttr>(constant.getValue())
                     : DenseIntElementsAttr();
  if (zp && zp.getType().getRank() == 0) {
    APInt value = zp.getSplatValue<APInt>();
    int64_t z = zp.getElementType().isUnsignedInteger()
                    ? static_cast<int64_t>(value.getZExtValue())
                    : value.getSExtValue();
    return {moved, int32Scalar(rewriter, loc, z + by)};
  }
  return {moved, AddOp::create(rewriter, loc, zeroPoint,
                               int32Scalar(rewriter, loc, by))};
}

/// With fast int8: int8 data shifted to uint8 (+128), a uint8 kernel to
/// int8 (-128); uint8 data with an int8 kernel stay.
template <typename Op>
LogicalResult shiftToUint8Int8(Op op, PatternRewriter &rewriter) {
  Type i8 = rewriter.getIntegerType(8);
  Type u8 = rewriter.getIntegerType(8, /*isSigned=*/false);
  bool shiftData = elementOf(op.getData()) == i8;
  bool shiftKernel = elementOf(op.getWeight()) == u8;
  if (!shiftData && !shiftKernel)
    return rewriter.notifyMatchFailure(op,
                                       "neither int8 data nor a uint8 kernel");
  Location loc = op.getLoc();
  std::pair<Value, Value> data = {op.getData(), op.getInputZeroPoint()};
  std::pair<Value, Value> kernel = {op.getWeight(), op.getKernelZeroPoint()};
  if (shiftData)
    data = shifted(rewriter, loc, data.first, data.second, 128, u8);
  if (shiftKernel)
    kernel = shifted(rewriter, loc, kernel.first, kernel.second, -128, i8);
  rewriter.modifyOpInPlace(op, [&] {
    op.getDataMutable().assign(data.first);
    op.getInputZeroPointMutable().assign(data.second);
    op.getWeightMutable().assign(kernel.first);
    op.getKernelZeroPointMutable().assign(kernel.second);
  });
  return success();
}

/// qnn.conv2d / qnn.dense with typed data, weight and zero points,
/// legalized as the target asks: shifted to uint8 x int8 (`fastInt8`) or
/// widened to int16.
template <typename Op> struct LegalizeQnn : OpRewritePattern<Op> {
  LegalizeQnn(MLIRContext *ctx, bool fastInt8)
      : OpRewritePattern<Op>(ctx), fastInt8(fastInt8) {}
  LogicalResult matchAndRewrite(Op op,
                                PatternRewriter &rewriter) const override {
    if (!elementOf(op.getData()) || !elementOf(op.getWeight()) ||
        !elementOf(op.getInputZeroPoint()) ||
        !elementOf(op.getKernelZeroPoint()))
      return rewriter.notifyMatchFailure(op, "operands not typed tensors");
    return fastInt8 ? shiftToUint8Int8(op, rewriter)
                    : widenToInt16(op, rewriter);
  }
  bool fastInt8;
};

struct QnnLegalizePass : relay::impl::RelayQnnLegalizeBase<QnnLegalizePass> {
  using RelayQnnLegalizeBase::RelayQnnLegalizeBase;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateQnnLegalizePatterns(patterns, fastInt8);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

void mlir::relay::populateQnnLegalizePatterns(RewritePatternSet &patterns,
                                              bool fastInt8) {
  patterns.add<LegalizeQnn<QnnConv2DOp>, LegalizeQnn<QnnDenseOp>>(
      patterns.getContext(), fastInt8);
}
