//===- FoldExplicitPadding.cpp - relay-fold-explicit-padding --------------===//
//
// Relay's FoldExplicitPadding: an `nn.pad` feeding a convolution or a pool
// becomes part of the op's own `padding` attribute, as TVM 0.19 folds it
// (src/relay/transforms/fold_explicit_padding.cc). One rewrite pattern per
// consumer family: nn.conv1d/2d/3d and nn.avg_pool1d/2d/3d take a pad of
// value 0, nn.max_pool1d/2d/3d a pad of the value their own padding uses
// (-inf for floats, the lowest value for integers) if every window still
// reads data (static sizes). The pad must be in
// "constant" mode, pad only spatial dims of the consumer's layout, and have
// no other use. An average pool that does not count its padding takes the
// pad only if it has none of its own, and then counts it (the explicit
// zeros were counted). Repeated pads fold one after the other.
//
//===----------------------------------------------------------------------===//
#include "relay/RelayOps.h"
#include "relay/RelayPasses.h"
#include "relay/Utils/LayoutUtils.h"
#include "relay/Utils/ShapeUtils.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYFOLDEXPLICITPADDING
#include "relay/RelayPasses.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;

namespace {

/// Which pad value a consumer can take as its own padding.
enum class PadValue { Zero, Lowest };

/// `value` is a rank-0 constant equal to 0 (Zero) or to the value max
/// pooling pads with (Lowest: -inf for floats, the signed minimum or
/// unsigned 0 for integers).
bool isPadValue(Value value, PadValue want) {
  auto constant = value.getDefiningOp<ConstantOp>();
  if (!constant)
    return false;
  auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
  if (!dense || dense.getType().getRank() != 0)
    return false;
  Type element = dense.getElementType();
  if (isa<FloatType>(element)) {
    APFloat v = dense.getSplatValue<APFloat>();
    return want == PadValue::Zero ? v.isZero()
                                  : v.isInfinity() && v.isNegative();
  }
  auto integer = dyn_cast<IntegerType>(element);
  if (!integer || integer.getWidth() == 1)
    return false;
  APInt v = dense.getSplatValue<APInt>();
  if (want == PadValue::Zero || integer.isUnsigned())
    return v.isZero();
  return v.isMinSignedValue();
}

/// The positions of the n spatial dims (W, HW or DHW) in `layout`.
FailureOr<SmallVector<int64_t>> spatialDims(StringRef layout, unsigned n) {
  return findLayoutDims(layout, n == 1 ? "W" : n == 2 ? "HW" : "DHW");
}

/// The consumer's padding plus that of `pad` (which feeds it), as 2n
/// entries (befores, then afters in the order D, H, W), or failure if the
/// pad cannot become the consumer's padding.
FailureOr<SmallVector<int64_t>> combinedPadding(PadOp pad, StringRef layout,
                                                unsigned n,
                                                ArrayRef<int64_t> padding) {
  if (pad.getPadMode() != "constant")
    return failure();
  ArrayRef<int64_t> width = pad.getPadWidth();
  if (width.size() != 2 * layout.size())
    return failure();
  FailureOr<SmallVector<int64_t>> spatial = spatialDims(layout, n);
  FailureOr<SpatialPadding> own = normalizePadding(padding, n);
  if (failed(spatial) || failed(own))
    return failure();
  for (size_t d = 0; d < layout.size(); ++d)
    if (!llvm::is_contained(*spatial, static_cast<int64_t>(d)) &&
        (width[2 * d] != 0 || width[2 * d + 1] != 0))
      return failure(); // a batch or channel dim is padded
  SmallVector<int64_t> result(2 * n);
  for (unsigned i = 0; i < n; ++i) {
    int64_t d = (*spatial)[i];
    result[i] = own->before[i] + width[2 * d];
    result[n + i] = own->after[i] + width[2 * d + 1];
  }
  return result;
}

/// Every window of a max pool over `data` (static spatial sizes) with the
/// 2n-entry `padding` reads at least one element of `data` (a window of
/// padding alone is a run-time error of max pooling, and the pad's elements
/// were data before the fold).
template <typename Pool>
bool everyWindowReadsData(Pool op, Value data, unsigned n,
                          ArrayRef<int64_t> padding) {
  auto type = dyn_cast<RankedTensorType>(data.getType());
  FailureOr<SmallVector<int64_t>> spatial = spatialDims(op.getLayout(), n);
  ArrayRef<int64_t> pool = op.getPoolSize(), strides = op.getStrides(),
                    dilation = op.getDilation();
  if (!type || failed(spatial) || pool.size() != n || strides.size() != n ||
      dilation.size() != n)
    return false;
  for (unsigned i = 0; i < n; ++i) {
    int64_t in = type.getDimSize((*spatial)[i]);
    if (ShapedType::isDynamic(in))
      return false;
    int64_t before = padding[i], after = padding[n + i];
    int64_t out = windowOutputSize(in, pool[i], strides[i], dilation[i], before,
                                   after, op.getCeilMode());
    for (int64_t o = 0; o < out; ++o) {
      int64_t start = o * strides[i] - before;
      bool reads = false;
      for (int64_t k = 0; k < pool[i] && !reads; ++k)
        reads = start + k * dilation[i] >= 0 && start + k * dilation[i] < in;
      if (!reads)
        return false;
    }
  }
  return true;
}

/// The `nn.pad` that is the data of `op` and has no other use, if any.
PadOp soleUsePad(Value data) {
  auto pad = data.getDefiningOp<PadOp>();
  if (!pad || !pad.getResult().hasOneUse())
    return {};
  return pad;
}

/// The consumer families that take a pad as their own padding.
enum class Consumer { Conv, AvgPool, MaxPool };

/// One pattern per family and rank N:
///  - conv{1,2,3}d(pad(x, 0)) -> conv{1,2,3}d(x) with the pad in `padding`;
///  - avg_pool{1,2,3}d(pad(x, 0)) -> avg_pool{1,2,3}d(x) with the pad in
///    `padding`, counting it (only if the pool counts its padding or has
///    none);
///  - max_pool{1,2,3}d(pad(x, lowest)) -> max_pool{1,2,3}d(x) with the pad in
///    `padding`.
template <typename Op, unsigned N, Consumer K>
struct FoldPadInto : OpRewritePattern<Op> {
  using OpRewritePattern<Op>::OpRewritePattern;
  LogicalResult matchAndRewrite(Op op,
                                PatternRewriter &rewriter) const override {
    PadOp pad = soleUsePad(op.getData());
    if constexpr (K == Consumer::MaxPool) {
      if (!pad || !isPadValue(pad.getPadValue(), PadValue::Lowest))
        return rewriter.notifyMatchFailure(op, "data is not a pad with the "
                                               "lowest value used only here");
    } else {
      if (!pad || !isPadValue(pad.getPadValue(), PadValue::Zero))
        return rewriter.notifyMatchFailure(op, "data is not a zero pad used "
                                               "only here");
    }
    if constexpr (K == Consumer::AvgPool)
      if (!op.getCountIncludePad() &&
          llvm::any_of(op.getPadding(), [](int64_t p) { return p != 0; }))
        return rewriter.notifyMatchFailure(op, "own padding is not counted, "
                                               "the explicit zeros are");
    StringRef layout;
    if constexpr (K == Consumer::Conv)
      layout = op.getDataLayout();
    else
      layout = op.getLayout();
    FailureOr<SmallVector<int64_t>> padding =
        combinedPadding(pad, layout, N, op.getPadding());
    if (failed(padding))
      return rewriter.notifyMatchFailure(op, "pad is not constant-mode on "
                                             "spatial dims only");
    if constexpr (K == Consumer::MaxPool)
      if (!everyWindowReadsData(op, pad.getData(), N, *padding))
        return rewriter.notifyMatchFailure(op, "a window would read padding "
                                               "alone (or sizes are ?)");
    rewriter.modifyOpInPlace(op, [&] {
      op.getDataMutable().assign(pad.getData());
      op.setPadding(*padding);
      if constexpr (K == Consumer::AvgPool)
        op.setCountIncludePad(true);
    });
    return success();
  }
};

template <typename Op, unsigned N>
using FoldPadIntoConv = FoldPadInto<Op, N, Consumer::Conv>;
template <typename Op, unsigned N>
using FoldPadIntoAvgPool = FoldPadInto<Op, N, Consumer::AvgPool>;
template <typename Op, unsigned N>
using FoldPadIntoMaxPool = FoldPadInto<Op, N, Consumer::MaxPool>;

struct FoldExplicitPaddingPass
    : relay::impl::RelayFoldExplicitPaddingBase<FoldExplicitPaddingPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateFoldExplicitPaddingPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace

void mlir::relay::populateFoldExplicitPaddingPatterns(
    RewritePatternSet &patterns) {
  patterns.add<
      FoldPadIntoConv<Conv1DOp, 1>, FoldPadIntoConv<Conv2DOp, 2>,
      FoldPadIntoConv<Conv3DOp, 3>, FoldPadIntoAvgPool<AvgPool1DOp, 1>,
      FoldPadIntoAvgPool<AvgPool2DOp, 2>, FoldPadIntoAvgPool<AvgPool3DOp, 3>,
      FoldPadIntoMaxPool<MaxPool1DOp, 1>, FoldPadIntoMaxPool<MaxPool2DOp, 2>,
      FoldPadIntoMaxPool<MaxPool3DOp, 3>>(patterns.getContext());
}
