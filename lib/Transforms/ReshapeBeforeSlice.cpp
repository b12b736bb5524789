//===- ReshapeBeforeSlice.cpp - relay-reshape-before-slice ----------------===//
//
// reshape(extract_slice(x)) -> extract_slice(reshape(x)) for static slices
// with unit strides, where the slice stays a box of the reshaped source:
//
//  * expand_shape splitting slice dim i (size s, offset o, source size n)
//    into [s0, f1, ..., fk]: with F = f1*...*fk, F divides n and o; the
//    source dim becomes [n/F, f1, ..., fk], sliced at [o/F, 0, ..., 0];
//  * collapse_shape merging slice dims [a..b]: dims a+1..b are taken whole
//    (offset 0, full size); the merged source dim is sliced at
//    o_a * (n_{a+1} * ... * n_b).
//
// IREE folds an extract_slice of a dispatch operand into the dispatch's
// load, but a reshape of a slice becomes a copy dispatch first.
//
//===----------------------------------------------------------------------===//
#include "relay/RelayPasses.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::relay {
#define GEN_PASS_DEF_RELAYRESHAPEBEFORESLICE
#include "relay/RelayPasses.h.inc"
} // namespace mlir::relay

using namespace mlir;

namespace {
/// A static, unit-stride, rank-preserving slice of a static tensor.
struct StaticBox {
  SmallVector<int64_t> offsets, sizes, source;
};

std::optional<StaticBox> staticBox(tensor::ExtractSliceOp slice) {
  RankedTensorType src = slice.getSourceType();
  if (!src.hasStaticShape() || !slice.getType().hasStaticShape() ||
      slice.getType().getRank() != src.getRank())
    return std::nullopt;
  ArrayRef<int64_t> strides = slice.getStaticStrides();
  if (llvm::any_of(strides, [](int64_t s) { return s != 1; }) ||
      ShapedType::isDynamicShape(slice.getStaticOffsets()) ||
      ShapedType::isDynamicShape(slice.getStaticSizes()))
    return std::nullopt;
  return StaticBox{llvm::to_vector(slice.getStaticOffsets()),
                   llvm::to_vector(slice.getStaticSizes()),
                   llvm::to_vector(src.getShape())};
}

/// Replaces `reshape` by the slice `box` of `newSource` (already reshaped).
void replaceBySlice(PatternRewriter &rewriter, Operation *reshape,
                    Value newSource, const StaticBox &box) {
  SmallVector<int64_t> strides(box.sizes.size(), 1);
  rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
      reshape, reshape->getResult(0).getType(), newSource,
      /*offsets=*/ValueRange{}, /*sizes=*/ValueRange{},
      /*strides=*/ValueRange{}, rewriter.getDenseI64ArrayAttr(box.offsets),
      rewriter.getDenseI64ArrayAttr(box.sizes),
      rewriter.getDenseI64ArrayAttr(strides));
}

struct ExpandOfSlice : OpRewritePattern<tensor::ExpandShapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::ExpandShapeOp op,
                                PatternRewriter &rewriter) const override {
    auto slice = op.getSrc().getDefiningOp<tensor::ExtractSliceOp>();
    std::optional<StaticBox> box = slice ? staticBox(slice) : std::nullopt;
    if (!box || !op.getResultType().hasStaticShape() || box->sizes.empty())
      return rewriter.notifyMatchFailure(op, "not a static box slice");
    ArrayRef<int64_t> out = op.getResultType().getShape();
    StaticBox expanded;
    for (auto [dim, group] : llvm::enumerate(op.getReassociationIndices())) {
      int64_t inner = 1;
      for (int64_t d : ArrayRef<int64_t>(group).drop_front())
        inner *= out[d];
      int64_t n = box->source[dim], o = box->offsets[dim];
      if (n % inner || o % inner)
        return rewriter.notifyMatchFailure(op, "a split is not aligned");
      expanded.source.push_back(n / inner);
      expanded.offsets.push_back(o / inner);
      expanded.sizes.push_back(out[group.front()]);
      for (int64_t d : ArrayRef<int64_t>(group).drop_front()) {
        expanded.source.push_back(out[d]);
        expanded.offsets.push_back(0);
        expanded.sizes.push_back(out[d]);
      }
    }
    auto type = RankedTensorType::get(expanded.source,
                                      op.getResultType().getElementType());
    Value source = tensor::ExpandShapeOp::create(rewriter, op.getLoc(), type,
                                                 slice.getSource(),
                                                 op.getReassociationIndices());
    replaceBySlice(rewriter, op, source, expanded);
    return success();
  }
};

struct CollapseOfSlice : OpRewritePattern<tensor::CollapseShapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::CollapseShapeOp op,
                                PatternRewriter &rewriter) const override {
    auto slice = op.getSrc().getDefiningOp<tensor::ExtractSliceOp>();
    std::optional<StaticBox> box = slice ? staticBox(slice) : std::nullopt;
    // (a collapse to rank 0 has no groups to carry the offsets)
    if (!box || op.getReassociationIndices().empty())
      return rewriter.notifyMatchFailure(op, "not a static box slice");
    StaticBox collapsed;
    for (ReassociationIndices group : op.getReassociationIndices()) {
      int64_t inner = 1;
      for (int64_t d : ArrayRef<int64_t>(group).drop_front()) {
        if (box->offsets[d] != 0 || box->sizes[d] != box->source[d])
          return rewriter.notifyMatchFailure(op, "an inner dim is not whole");
        inner *= box->source[d];
      }
      collapsed.source.push_back(box->source[group.front()] * inner);
      collapsed.offsets.push_back(box->offsets[group.front()] * inner);
      collapsed.sizes.push_back(box->sizes[group.front()] * inner);
    }
    auto type = RankedTensorType::get(collapsed.source,
                                      op.getResultType().getElementType());
    Value source = tensor::CollapseShapeOp::create(
        rewriter, op.getLoc(), type, slice.getSource(),
        op.getReassociationIndices());
    replaceBySlice(rewriter, op, source, collapsed);
    return success();
  }
};

struct ReshapeBeforeSlicePass
    : relay::impl::RelayReshapeBeforeSliceBase<ReshapeBeforeSlicePass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ExpandOfSlice, CollapseOfSlice>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
