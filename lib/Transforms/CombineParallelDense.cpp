//===- CombineParallelDense.cpp - relay-combine-parallel-dense ------------===//
//
// Relay's CombineParallelDense (TVM 0.19's ParallelDenseToBatchCombiner and
// ParallelDenseToDenseCombiner): at least `min-num-branches` nn.dense ops
// of rank-2 data reading the same data, with the same out_dtype, become
//  - to-batch (default): with equal weight shapes, one nn.batch_matmul of
//    the stacked data and the stacked weights; followers alike in every
//    branch are combined with their other operands stacked (a vector made
//    [1, n] first; operands of the branch's shape, a vector or a [1, n]
//    row: TVM also stacks scalars and larger operands, which then broadcast
//    wrongly); each branch's result is field i of a split along axis 0,
//    squeezed;
//  - otherwise: with equal input sizes, one nn.dense of the weights
//    concatenated along their rows (`units` the sum); followers' other
//    operands are concatenated on the last axis (a scalar or a size-1 last
//    axis repeated to the branch's units first); each branch's result is a
//    strided_slice (size mode) of its units, on the last axis of that size.
// The shared steps are in CombineParallel.cpp.
//
//===----------------------------------------------------------------------===//
#include "CombineParallel.h"

#include "relay/RelayPasses.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYCOMBINEPARALLELDENSE
#include "relay/RelayPasses.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::combine;

namespace {

class DenseCombiner : public Combiner {
public:
  explicit DenseCombiner(bool toBatch) : toBatch(toBatch) {}

  bool isRoot(Operation *op) const override { return isa<DenseOp>(op); }

  bool isSupported(Operation *op) const override {
    auto dense = cast<DenseOp>(op);
    auto data = staticShape(dense.getData().getType());
    auto weight = staticShape(dense.getWeight().getType());
    return data && data->size() == 2 && weight && weight->size() == 2 &&
           staticShape(dense.getResult().getType());
  }

  bool compatible(Operation *opA, Operation *opB) const override {
    auto a = cast<DenseOp>(opA), b = cast<DenseOp>(opB);
    SmallVector<int64_t> wa = *staticShape(a.getWeight().getType());
    SmallVector<int64_t> wb = *staticShape(b.getWeight().getType());
    if (a.getOutDtype() != b.getOutDtype() ||
        elementType(a.getWeight()) != elementType(b.getWeight()))
      return false;
    return toBatch ? wa == wb : wa[1] == wb[1];
  }

  bool argCompatible(Operation *a, Operation *b,
                     unsigned index) const override {
    std::optional<ArgShapes> s = argShapes(a, b, index);
    if (!s)
      return false;
    const SmallVector<int64_t> *ta = &s->a, *tb = &s->b, *oa = &s->outA,
                               *ob = &s->outB;
    if (toBatch) {
      // stacked on a new axis 0: a [n] vector ([1, n] first), a [1, n] row
      // or the branch's own shape
      if (ta->empty() || oa->size() != 2 || *ta != *tb)
        return false;
      return ta->back() == oa->back() &&
             (ta->size() == 1 || (*ta)[0] == 1 || (*ta)[0] == (*oa)[0]);
    }
    // concatenated on the last axis: equal other dims, a last dim of the
    // branch's units or 1
    if (ta->empty())
      return true;
    for (size_t i = 0; i + 1 < ta->size(); ++i)
      if ((*ta)[i] != (*tb)[i])
        return false;
    return (ta->back() == oa->back() || ta->back() == 1) &&
           (tb->back() == ob->back() || tb->back() == 1);
  }

  Value combineRoots(PatternRewriter &rewriter, Location loc,
                     const Group &group) override {
    auto first = cast<DenseOp>(group[0][0]);
    SmallVector<Value> data, weights;
    int64_t units = 0;
    for (const Branch &branch : group) {
      auto dense = cast<DenseOp>(branch[0]);
      data.push_back(dense.getData());
      weights.push_back(dense.getWeight());
      units += (*staticShape(dense.getWeight().getType()))[0];
    }
    if (toBatch) {
      Value x = StackOp::create(rewriter, loc, data, 0);
      Value y = StackOp::create(rewriter, loc, weights, 0);
      return BatchMatmulOp::create(rewriter, loc, x, y, first.getOutDtypeAttr(),
                                   false, true);
    }
    Value weight = ConcatenateOp::create(rewriter, loc, weights,
                                         rewriter.getI64IntegerAttr(0));
    return cloneWith(
        rewriter, first, {first.getData(), weight},
        {rewriter.getNamedAttr("units", rewriter.getI64IntegerAttr(units))});
  }

  Value combineFollowers(PatternRewriter &rewriter, Location loc, Value data,
                         const Group &group, unsigned depth,
                         unsigned parent) override {
    return combineFollowerOperands(
        rewriter, data, group, depth, parent,
        [&](unsigned, ArrayRef<Value> args) -> Value {
          int64_t rank = cast<RankedTensorType>(args[0].getType()).getRank();
          SmallVector<Value> parts;
          for (size_t j = 0; j < group.size(); ++j) {
            const Branch &branch = group[j];
            Value arg = args[j];
            if (toBatch) {
              if (rank == 1)
                arg = ExpandDimsOp::create(rewriter, loc, arg,
                                           rewriter.getI64IntegerAttr(0),
                                           rewriter.getI64IntegerAttr(1));
              parts.push_back(arg);
              continue;
            }
            int64_t units =
                (*staticShape(branch[depth]->getOperand(parent).getType()))
                    .back();
            bool repeat = rank == 0;
            if (rank == 0)
              arg = ExpandDimsOp::create(rewriter, loc, arg,
                                         rewriter.getI64IntegerAttr(-1),
                                         rewriter.getI64IntegerAttr(1));
            else
              repeat = units > 1 && (*staticShape(arg.getType())).back() == 1;
            if (repeat)
              arg = RepeatOp::create(rewriter, loc, arg, units,
                                     rank == 0 ? 0 : rank - 1);
            parts.push_back(arg);
          }
          if (toBatch)
            return StackOp::create(rewriter, loc, parts, 0);
          return ConcatenateOp::create(
              rewriter, loc, parts,
              rewriter.getI64IntegerAttr(rank == 0 ? 0 : rank - 1));
        });
  }

  SmallVector<Value> outputs(PatternRewriter &rewriter, Location loc,
                             Value data, const Group &group,
                             unsigned depth) override {
    SmallVector<Value> result;
    if (toBatch) {
      Value split = SplitOp::create(
          rewriter, loc, data,
          rewriter.getI64IntegerAttr(static_cast<int64_t>(group.size())),
          rewriter.getI64IntegerAttr(0));
      for (size_t i = 0; i < group.size(); ++i) {
        Value field = TupleGetItemOp::create(rewriter, loc, split, i);
        result.push_back(SqueezeOp::create(rewriter, loc, field,
                                           rewriter.getDenseI64ArrayAttr({0})));
      }
      return result;
    }
    int64_t index = 0;
    for (const Branch &branch : group) {
      SmallVector<int64_t> out =
          *staticShape(branch[depth]->getResult(0).getType());
      int64_t units = (*staticShape(branch[0]->getResult(0).getType()))[1];
      int64_t axis = static_cast<int64_t>(out.size()) - 1;
      while (axis >= 0 && out[axis] != units)
        --axis;
      if (axis < 0)
        return {};
      result.push_back(
          sliceSize(rewriter, loc, data, out.size(), axis, index, units));
      index += units;
    }
    return result;
  }

private:
  bool toBatch;
};

struct CombineParallelDensePass
    : relay::impl::RelayCombineParallelDenseBase<CombineParallelDensePass> {
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateCombineParallelDensePatterns(patterns, minNumBranches, toBatch);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace

void mlir::relay::populateCombineParallelDensePatterns(
    RewritePatternSet &patterns, uint64_t minNumBranches, bool toBatch) {
  patterns.add<CombineParallelPattern<DenseCombiner>>(patterns.getContext(),
                                                      minNumBranches, toBatch);
}
