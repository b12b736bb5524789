//===- Reduce.cpp - sum and mean ------------------------------------------===//
//
// linalg.reduce over the reduced dims; `mean` then divides by the number
// of reduced elements (from tensor.dim when dims are `?`); `keepdims`
// re-inserts unit dims with tensor.expand_shape.
//
//===----------------------------------------------------------------------===//
#include "Patterns.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

namespace {

/// The dims `op` reduces: `axis` (all when absent), complemented by
/// `exclude`; sorted and unique.
SmallVector<int64_t> reducedDims(Operation *op, int64_t rank) {
  auto axis = op->getAttrOfType<DenseI64ArrayAttr>("axis");
  auto exclude = op->getAttrOfType<BoolAttr>("exclude");
  llvm::SmallDenseSet<int64_t> listed;
  if (axis)
    for (int64_t a : axis.asArrayRef())
      listed.insert(normAxis(a, rank));
  SmallVector<int64_t> dims;
  for (int64_t d = 0; d < rank; ++d) {
    bool inList = !axis || listed.contains(d);
    if (exclude && exclude.getValue() ? !inList : inList)
      dims.push_back(d);
  }
  return dims;
}

template <typename OpTy, bool isMean>
struct ReducePattern : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpConversionPattern<OpTy>::OpAdaptor;

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value data = adaptor.getData();
    int64_t rank = cast<RankedTensorType>(data.getType()).getRank();
    auto resultType = signlessTensorType(cast<RankedTensorType>(op.getType()));
    bool isUnsigned = isUnsignedInt(op.getData().getType());
    SmallVector<int64_t> dims = reducedDims(op, rank);
    if (dims.empty()) {
      rewriter.replaceOp(op, data);
      return success();
    }
    Value result = buildSum(rewriter, loc, data, dims);
    if (isMean) {
      Value count = indexToScalar(rewriter, loc, countOf(rewriter, loc, data, dims),
                                  resultType.getElementType(), isUnsigned);
      result = divideByScalar(rewriter, loc, result, count, isUnsigned);
    }
    if (resultType.getRank() == rank) { // keepdims
      SmallVector<OpFoldResult> sizes = dimSizes(rewriter, loc, data);
      for (int64_t d : dims)
        sizes[d] = rewriter.getIndexAttr(1);
      result = expandTo(rewriter, loc, result, resultType,
                        unitDimReassociation(rank, dims), sizes);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};
} // namespace

void lowering::populateReducePatterns(const TypeConverter &tc,
                                      RewritePatternSet &patterns) {
  patterns.add<ReducePattern<SumOp, false>, ReducePattern<MeanOp, true>>(
      tc, patterns.getContext());
}
