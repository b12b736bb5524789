//===- NNSpaceBatch.cpp - nn.space_to_batch_nd / nn.batch_to_space_nd -----===//
//
// Rewritten at the relay level into the data movement they are (topi's
// definition), which this conversion then lowers:
//   space_to_batch_nd: nn.pad, reshape [N, P1/b1, b1, .., PM/bM, bM, rest..],
//     transpose (the block offsets first, then the batch), reshape to the
//     result;
//   batch_to_space_nd: reshape [b1, .., bM, N, S1, .., SM, rest..], transpose
//     (each Si before its bi), reshape [N, S1*b1, .., rest..], strided_slice
//     of the crops.
// Reshape and transpose lower to expand_shape / linalg.transpose /
// collapse_shape, pad to tensor.pad. The reshapes need static shapes: a
// run-time shape is "not supported yet".
//
//===----------------------------------------------------------------------===//
#include "Utils.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

namespace {

/// The static shape of `v` (a relay tensor), or nullopt.
std::optional<ArrayRef<int64_t>> staticShape(Value v) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  if (!t || !t.hasStaticShape())
    return std::nullopt;
  return t.getShape();
}

/// reshape(transpose(reshape(x, split), perm), shape).
Value regroupBlocks(OpBuilder &b, Location loc, Value x,
                    ArrayRef<int64_t> split, ArrayRef<int64_t> perm,
                    ArrayRef<int64_t> shape) {
  Value y = ReshapeOp::create(b, loc, x, b.getDenseI64ArrayAttr(split),
                              b.getBoolAttr(false));
  y = TransposeOp::create(b, loc, y, b.getDenseI64ArrayAttr(perm));
  return ReshapeOp::create(b, loc, y, b.getDenseI64ArrayAttr(shape),
                           b.getBoolAttr(false));
}

struct SpaceToBatchNDDecomposition : OpConversionPattern<SpaceToBatchNDOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SpaceToBatchNDOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<ArrayRef<int64_t>> in = staticShape(op.getData());
    std::optional<ArrayRef<int64_t>> out = staticShape(op->getResult(0));
    if (!in || !out)
      return op.emitError() << "not supported yet: nn.space_to_batch_nd of "
                               "a run-time shape";
    Location loc = op.getLoc();
    ArrayRef<int64_t> block = op.getBlockShape(), pads = op.getPaddings();
    int64_t m = block.size(), rank = in->size();
    SmallVector<int64_t> width(2 * rank, 0), split = {(*in)[0]}, perm;
    for (int64_t i = 0; i < m; ++i) {
      width[2 + 2 * i] = pads[2 * i];
      width[3 + 2 * i] = pads[2 * i + 1];
      split.append({(*out)[1 + i], block[i]});
      perm.push_back(2 + 2 * i);
    }
    perm.push_back(0);
    for (int64_t i = 0; i < m; ++i)
      perm.push_back(1 + 2 * i);
    for (int64_t d = m + 1; d < rank; ++d) {
      split.push_back((*in)[d]);
      perm.push_back(static_cast<int64_t>(split.size()) - 1);
    }
    Type element =
        cast<RankedTensorType>(op.getData().getType()).getElementType();
    auto zeroD = RankedTensorType::get({}, element);
    double value = op.getPadValue().convertToDouble();
    Attribute fill = isa<FloatType>(element)
                         ? Attribute(rewriter.getFloatAttr(element, value))
                         : Attribute(rewriter.getIntegerAttr(
                               element, static_cast<int64_t>(value)));
    Value padValue = ConstantOp::create(
        rewriter, loc, cast<ElementsAttr>(DenseElementsAttr::get(zeroD, fill)));
    Value padded =
        PadOp::create(rewriter, loc, op.getData(), padValue, width, "constant");
    rewriter.replaceOp(op,
                       regroupBlocks(rewriter, loc, padded, split, perm, *out));
    return success();
  }
};

struct BatchToSpaceNDDecomposition : OpConversionPattern<BatchToSpaceNDOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BatchToSpaceNDOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<ArrayRef<int64_t>> in = staticShape(op.getData());
    if (!in)
      return op.emitError() << "not supported yet: nn.batch_to_space_nd of "
                               "a run-time shape";
    Location loc = op.getLoc();
    ArrayRef<int64_t> block = op.getBlockShape(), crops = op.getCrops();
    int64_t m = block.size(), rank = in->size();
    int64_t batch = (*in)[0];
    for (int64_t b : block)
      batch /= b;
    SmallVector<int64_t> split(block), perm = {m}, full = {batch};
    split.push_back(batch);
    for (int64_t i = 0; i < m; ++i) {
      split.push_back((*in)[1 + i]);
      perm.append({m + 1 + i, i});
      full.push_back((*in)[1 + i] * block[i]);
    }
    for (int64_t d = m + 1; d < rank; ++d) {
      split.push_back((*in)[d]);
      perm.push_back(static_cast<int64_t>(split.size()) - 1);
      full.push_back((*in)[d]);
    }
    Value y = regroupBlocks(rewriter, loc, op.getData(), split, perm, full);
    if (llvm::any_of(crops, [](int64_t c) { return c != 0; })) {
      SmallVector<int64_t> begin(rank, 0), end(full);
      for (int64_t i = 0; i < m; ++i) {
        begin[1 + i] = crops[2 * i];
        end[1 + i] = full[1 + i] - crops[2 * i + 1];
      }
      y = StridedSliceOp::create(rewriter, loc, y, begin, end,
                                 DenseI64ArrayAttr(), DenseI64ArrayAttr(),
                                 "end");
    }
    rewriter.replaceOp(op, y);
    return success();
  }
};

} // namespace

void lowering::populateSpaceBatchPatterns(const TypeConverter &tc,
                                          RewritePatternSet &patterns) {
  patterns.add<SpaceToBatchNDDecomposition, BatchToSpaceNDDecomposition>(
      tc, patterns.getContext());
}
