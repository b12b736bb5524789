//===- CombineParallelConv2D.cpp - relay-combine-parallel-conv2d ----------===//
//
// Relay's CombineParallelConv2D (TVM 0.19's ParallelConv2DCombiner): at
// least `min-num-branches` nn.conv2d ops with groups = 1 reading the same
// data, with equal strides, padding, dilation, layouts, out_dtype and kernel
// height and width, become one conv2d of their weights concatenated along O
// (`channels` their sum); elementwise/broadcast ops that follow every branch
// alike are combined too, their other operands concatenated along the
// channel axis (which must hold the branch's channels, not broadcast); each
// branch's result is a strided_slice (slice_mode "size") of its channels.
// The steps shared with the other CombineParallel* passes are in
// CombineParallel.cpp.
//
//===----------------------------------------------------------------------===//
#include "CombineParallel.h"

#include "relay/RelayPasses.h"
#include "relay/Utils/LayoutUtils.h"
#include "relay/Utils/ShapeUtils.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYCOMBINEPARALLELCONV2D
#include "relay/RelayPasses.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::combine;

namespace {

/// Position of `letter` in `layout`, or -1.
int64_t letterPos(StringRef layout, char letter) {
  size_t pos = layout.find(letter);
  return pos == StringRef::npos ? -1 : static_cast<int64_t>(pos);
}

class Conv2DCombiner : public Combiner {
public:
  bool isRoot(Operation *op) const override { return isa<Conv2DOp>(op); }

  void begin(const Group &group) override {
    channel = channelPos(cast<Conv2DOp>(group[0][0]));
  }

  bool isSupported(Operation *op) const override {
    auto conv = cast<Conv2DOp>(op);
    return conv.getGroups() == 1 && staticShape(conv.getWeight().getType()) &&
           staticShape(conv.getResult().getType()) &&
           letterPos(conv.getKernelLayout(), 'O') >= 0 && channelPos(conv) >= 0;
  }

  bool compatible(Operation *opA, Operation *opB) const override {
    auto a = cast<Conv2DOp>(opA), b = cast<Conv2DOp>(opB);
    FailureOr<SpatialPadding> pa = normalizePadding(a.getPadding(), 2);
    FailureOr<SpatialPadding> pb = normalizePadding(b.getPadding(), 2);
    if (failed(pa) || failed(pb) || pa->before != pb->before ||
        pa->after != pb->after)
      return false;
    if (a.getStrides() != b.getStrides() ||
        a.getDilation() != b.getDilation() || a.getGroups() != b.getGroups() ||
        a.getDataLayout() != b.getDataLayout() ||
        a.getKernelLayout() != b.getKernelLayout() ||
        a.getOutDtype() != b.getOutDtype() ||
        a.getOutLayout() != b.getOutLayout())
      return false;
    FailureOr<SmallVector<int64_t>> hw =
        findLayoutDims(a.getKernelLayout(), "HW");
    if (failed(hw))
      return false;
    SmallVector<int64_t> wa = *staticShape(a.getWeight().getType());
    SmallVector<int64_t> wb = *staticShape(b.getWeight().getType());
    return wa[(*hw)[0]] == wb[(*hw)[0]] && wa[(*hw)[1]] == wb[(*hw)[1]];
  }

  bool argCompatible(Operation *a, Operation *b,
                     unsigned index) const override {
    // (an operand of higher rank than the result has no channel axis)
    std::optional<ArgShapes> s = argShapes(a, b, index);
    if (!s)
      return false;
    int64_t pos = argChannelPos(s->outA.size(), s->a.size());
    if (pos < 0 || s->a[pos] != s->outA[channel] ||
        s->b[pos] != s->outB[channel])
      return false;
    for (size_t i = 0; i < s->a.size(); ++i)
      if (static_cast<int64_t>(i) != pos && s->a[i] != s->b[i])
        return false;
    return true;
  }

  Value combineRoots(PatternRewriter &rewriter, Location loc,
                     const Group &group) override {
    auto first = cast<Conv2DOp>(group[0][0]);
    int64_t o = letterPos(first.getKernelLayout(), 'O');
    SmallVector<Value> weights;
    int64_t channels = 0;
    for (const Branch &branch : group) {
      auto conv = cast<Conv2DOp>(branch[0]);
      weights.push_back(conv.getWeight());
      channels += (*staticShape(conv.getWeight().getType()))[o];
    }
    Value weight = ConcatenateOp::create(rewriter, loc, weights,
                                         rewriter.getI64IntegerAttr(o));
    return cloneWith(rewriter, first, {first.getData(), weight},
                     {rewriter.getNamedAttr(
                         "channels", rewriter.getI64IntegerAttr(channels))});
  }

  Value combineFollowers(PatternRewriter &rewriter, Location loc, Value data,
                         const Group &group, unsigned depth,
                         unsigned parent) override {
    int64_t rank =
        cast<RankedTensorType>(group[0][depth]->getResult(0).getType())
            .getRank();
    return combineFollowerOperands(
        rewriter, data, group, depth, parent,
        [&](unsigned, ArrayRef<Value> parts) -> Value {
          int64_t argRank =
              cast<RankedTensorType>(parts[0].getType()).getRank();
          return ConcatenateOp::create(
              rewriter, loc, parts,
              rewriter.getI64IntegerAttr(argChannelPos(rank, argRank)));
        });
  }

  SmallVector<Value> outputs(PatternRewriter &rewriter, Location loc,
                             Value data, const Group &group,
                             unsigned depth) override {
    SmallVector<Value> result;
    int64_t index = 0;
    for (const Branch &branch : group) {
      int64_t channels =
          (*staticShape(branch[0]->getResult(0).getType()))[channel];
      result.push_back(sliceSize(rewriter, loc, data, channel + 1, channel,
                                 index, channels));
      index += channels;
    }
    return result;
  }

private:
  static int64_t channelPos(Conv2DOp conv) {
    StringRef layout = conv.getOutLayout().empty() ? conv.getDataLayout()
                                                   : conv.getOutLayout();
    return letterPos(layout, 'C');
  }
  /// The channel axis of an operand of rank `argRank` of a follower of rank
  /// `rank` (aligned at the right), or -1.
  int64_t argChannelPos(int64_t rank, int64_t argRank) const {
    int64_t pos = channel - rank + argRank;
    return pos < 0 || pos > channel ? -1 : pos;
  }

  /// The output channel axis of the group being combined.
  int64_t channel = 1;
};

struct CombineParallelConv2DPass
    : relay::impl::RelayCombineParallelConv2DBase<CombineParallelConv2DPass> {
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateCombineParallelConv2DPatterns(patterns, minNumBranches);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace

void mlir::relay::populateCombineParallelConv2DPatterns(
    RewritePatternSet &patterns, uint64_t minNumBranches) {
  patterns.add<CombineParallelPattern<Conv2DCombiner>>(patterns.getContext(),
                                                       minNumBranches);
}
