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

Type elementType(Value v) {
  return cast<RankedTensorType>(v.getType()).getElementType();
}

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
    auto ta = staticShape(a->getOperand(index).getType());
    auto tb = staticShape(b->getOperand(index).getType());
    auto oa = staticShape(a->getResult(0).getType());
    auto ob = staticShape(b->getResult(0).getType());
    if (!ta || !tb || !oa || !ob || ta->empty() || ta->size() != tb->size() ||
        ta->size() > oa->size() ||
        elementType(a->getOperand(index)) != elementType(b->getOperand(index)))
      return false;
    if (ta->back() != oa->back() || tb->back() != ob->back())
      return false;
    for (size_t i = 0; i + 1 < ta->size(); ++i)
      if ((*ta)[i] != (*tb)[i])
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
    Operation *first = group[0][depth];
    SmallVector<Value> operands;
    for (unsigned i = 0; i < first->getNumOperands(); ++i) {
      if (i == parent) {
        operands.push_back(data);
        continue;
      }
      SmallVector<Value> parts;
      for (const Branch &branch : group)
        parts.push_back(branch[depth]->getOperand(i));
      int64_t rank = cast<RankedTensorType>(parts[0].getType()).getRank();
      operands.push_back(ConcatenateOp::create(
          rewriter, loc, parts, rewriter.getI64IntegerAttr(rank - 1)));
    }
    return cloneWith(rewriter, first, operands);
  }

  SmallVector<Value> outputs(PatternRewriter &rewriter, Location loc,
                             Value data, const Group &group,
                             unsigned depth) override {
    SmallVector<Value> result;
    int64_t index = 0;
    for (const Branch &branch : group) {
      int64_t features =
          (*staticShape(cast<BatchMatmulOp>(branch[0]).getY().getType()))[1];
      SmallVector<int64_t> begin{0, 0, index}, end{-1, -1, features};
      index += features;
      result.push_back(
          StridedSliceOp::create(rewriter, loc, data, begin, end,
                                 rewriter.getDenseI64ArrayAttr({1, 1, 1}),
                                 DenseI64ArrayAttr(), "size"));
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
