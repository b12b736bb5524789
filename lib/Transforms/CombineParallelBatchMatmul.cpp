//===- CombineParallelBatchMatmul.cpp - relay-combine-parallel-batch-matmul
//===//
//
// Relay's CombineParallelBatchMatmul (TVM 0.19's ParallelBatchMatmul
// Combiner): at least `min-num-branches` nn.batch_matmul ops (x @ yᵀ:
// transpose_a false, transpose_b true) reading the same x, whose y have rank
// 3, the same batch, dtype and out_dtype, become one batch_matmul of the y
// concatenated along their rows (axis 1); elementwise/broadcast followers
// alike in every branch are combined, their other operands concatenated on
// the last axis (only operands holding the branch's columns there: TVM
// concatenates any operand); each branch's result is a strided_slice (size
// mode) of its columns. The shared steps are in CombineParallel.cpp.
//
//===----------------------------------------------------------------------===//
#include "CombineParallel.h"

#include "relay/RelayPasses.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYCOMBINEPARALLELBATCHMATMUL
#include "relay/RelayPasses.h.inc"
} // namespace mlir::relay

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::combine;

namespace {

class BatchMatmulCombiner : public Combiner {
public:
  bool isRoot(Operation *op) const override { return isa<BatchMatmulOp>(op); }

  bool isSupported(Operation *op) const override {
    auto bmm = cast<BatchMatmulOp>(op);
    auto y = staticShape(bmm.getY().getType());
    return y && y->size() == 3 && staticShape(bmm.getResult().getType()) &&
           !bmm.getTransposeA() && bmm.getTransposeB();
  }

  bool compatible(Operation *opA, Operation *opB) const override {
    auto a = cast<BatchMatmulOp>(opA), b = cast<BatchMatmulOp>(opB);
    return elementType(a.getY()) == elementType(b.getY()) &&
           elementType(a.getResult()) == elementType(b.getResult()) &&
           (*staticShape(a.getY().getType()))[0] ==
               (*staticShape(b.getY().getType()))[0] &&
           a.getOutDtype() == b.getOutDtype();
  }

  bool argCompatible(Operation *a, Operation *b,
                     unsigned index) const override {
    std::optional<ArgShapes> s = argShapes(a, b, index);
    if (!s || s->a.empty())
      return false;
    if (s->a.back() != s->outA.back() || s->b.back() != s->outB.back())
      return false;
    for (size_t i = 0; i + 1 < s->a.size(); ++i)
      if (s->a[i] != s->b[i])
        return false;
    return true;
  }

  Value combineRoots(PatternRewriter &rewriter, Location loc,
                     const Group &group) override {
    auto first = cast<BatchMatmulOp>(group[0][0]);
    SmallVector<Value> ys;
    for (const Branch &branch : group)
      ys.push_back(cast<BatchMatmulOp>(branch[0]).getY());
    Value y =
        ConcatenateOp::create(rewriter, loc, ys, rewriter.getI64IntegerAttr(1));
    return cloneWith(rewriter, first, {first.getX(), y});
  }

  Value combineFollowers(PatternRewriter &rewriter, Location loc, Value data,
                         const Group &group, unsigned depth,
                         unsigned parent) override {
    return combineFollowerOperands(
        rewriter, data, group, depth, parent,
        [&](unsigned, ArrayRef<Value> parts) -> Value {
          int64_t rank = cast<RankedTensorType>(parts[0].getType()).getRank();
          return ConcatenateOp::create(rewriter, loc, parts,
                                       rewriter.getI64IntegerAttr(rank - 1));
        });
  }

  SmallVector<Value> outputs(PatternRewriter &rewriter, Location loc,
                             Value data, const Group &group,
                             unsigned depth) override {
    SmallVector<Value> result;
    int64_t index = 0;
    for (const Branch &branch : group) {
      int64_t features =
          (*staticShape(cast<BatchMatmulOp>(branch[0]).getY().getType()))[1];
      result.push_back(sliceSize(rewriter, loc, data, 3, 2, index, features));
      index += features;
    }
    return result;
  }
};

struct CombineParallelBatchMatmulPass
    : relay::impl::RelayCombineParallelBatchMatmulBase<
          CombineParallelBatchMatmulPass> {
  using Base::Base;
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateCombineParallelBatchMatmulPatterns(patterns, minNumBranches);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace

void mlir::relay::populateCombineParallelBatchMatmulPatterns(
    RewritePatternSet &patterns, uint64_t minNumBranches) {
  patterns.add<CombineParallelPattern<BatchMatmulCombiner>>(
      patterns.getContext(), minNumBranches);
}
