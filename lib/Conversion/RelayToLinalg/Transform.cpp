//===- Transform.cpp - reshape, transpose, concatenate --------------------===//
//
// reshape becomes tensor.collapse_shape / expand_shape (through a 1-D
// intermediate when it is neither); `?` output sizes are recomputed from
// Relay's newshape codes at run time.
//
//===----------------------------------------------------------------------===//
#include "Patterns.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

namespace {

/// Output sizes of a Relay reshape (newshape codes 0, -1, -2, -3, -4) of a
/// tensor with sizes `in`; static result dims are taken from `resultType`.
SmallVector<OpFoldResult> reshapeSizes(OpBuilder &b, Location loc,
                                       ArrayRef<OpFoldResult> in,
                                       ArrayRef<int64_t> codes, bool allowZero,
                                       RankedTensorType resultType) {
  auto value = [&](OpFoldResult v) {
    return getValueOrCreateConstantIndexOp(b, loc, v);
  };
  auto mul = [&](OpFoldResult x, OpFoldResult y) -> OpFoldResult {
    return arith::MulIOp::create(b, loc, value(x), value(y)).getResult();
  };
  auto div = [&](OpFoldResult x, OpFoldResult y) -> OpFoldResult {
    return arith::DivUIOp::create(b, loc, value(x), value(y)).getResult();
  };
  SmallVector<OpFoldResult> out;
  int64_t inferAt = -1;
  size_t src = 0;
  for (size_t i = 0; i < codes.size(); ++i) {
    int64_t code = codes[i];
    if (code > 0 || (code == 0 && allowZero)) {
      out.push_back(b.getIndexAttr(code));
      ++src;
    } else if (code == 0) {
      out.push_back(in[src++]);
    } else if (code == -1) {
      inferAt = out.size();
      out.push_back(b.getIndexAttr(1));
      ++src;
    } else if (code == -2) {
      for (; src < in.size(); ++src)
        out.push_back(in[src]);
    } else if (code == -3) {
      out.push_back(mul(in[src], in[src + 1]));
      src += 2;
    } else if (code == -4 && i + 2 < codes.size()) {
      int64_t d0 = codes[i + 1], d1 = codes[i + 2];
      OpFoldResult s0 = b.getIndexAttr(d0), s1 = b.getIndexAttr(d1);
      if (d0 == -1)
        s0 = div(in[src], s1);
      if (d1 == -1)
        s1 = div(in[src], s0);
      out.push_back(s0);
      out.push_back(s1);
      ++src;
      i += 2;
    }
  }
  if (inferAt >= 0) {
    OpFoldResult total = b.getIndexAttr(1), others = b.getIndexAttr(1);
    for (OpFoldResult s : in)
      total = mul(total, s);
    for (auto [j, s] : llvm::enumerate(out))
      if (static_cast<int64_t>(j) != inferAt)
        others = mul(others, s);
    out[inferAt] = div(total, others);
  }
  out.resize(resultType.getRank(), b.getIndexAttr(1));
  for (auto [j, dim] : llvm::enumerate(resultType.getShape()))
    if (!ShapedType::isDynamic(dim))
      out[j] = b.getIndexAttr(dim);
  return out;
}

SmallVector<ReassociationIndices> allInOne(int64_t rank) {
  if (rank == 0)
    return {};
  ReassociationIndices group;
  for (int64_t d = 0; d < rank; ++d)
    group.push_back(d);
  return {group};
}

struct ReshapePattern : OpConversionPattern<ReshapeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value data = adaptor.getData();
    auto srcType = cast<RankedTensorType>(data.getType());
    auto dstType = signlessTensorType(cast<RankedTensorType>(op.getType()));
    if (srcType == dstType && srcType.hasStaticShape()) {
      rewriter.replaceOp(op, data);
      return success();
    }
    SmallVector<OpFoldResult> sizes =
        reshapeSizes(rewriter, loc, dimSizes(rewriter, loc, data),
                     op.getNewshape(), op.getAllowzero(), dstType);
    ArrayRef<int64_t> src = srcType.getShape(), dst = dstType.getShape();
    // A direct collapse/expand is only trusted when `?` cannot make the
    // grouping ambiguous.
    bool fewDynamic = llvm::count_if(src, ShapedType::isDynamic) +
                          llvm::count_if(dst, ShapedType::isDynamic) <=
                      2;
    if (fewDynamic && dst.size() < src.size()) {
      if (auto groups = getReassociationIndicesForCollapse(src, dst)) {
        rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(op, dstType, data,
                                                             *groups);
        return success();
      }
    }
    if (fewDynamic && dst.size() > src.size()) {
      if (auto groups = getReassociationIndicesForCollapse(dst, src)) {
        rewriter.replaceOp(op,
                           expandTo(rewriter, loc, data, dstType, *groups, sizes));
        return success();
      }
    }
    // Through 1-D: collapse everything, then expand to the result.
    Value flat = data;
    if (srcType.getRank() != 1) {
      int64_t total = srcType.hasStaticShape() ? srcType.getNumElements()
                                               : ShapedType::kDynamic;
      auto flatType = RankedTensorType::get({total}, srcType.getElementType());
      flat = tensor::CollapseShapeOp::create(rewriter, loc, flatType, data,
                                             allInOne(srcType.getRank()));
    }
    Value result = flat;
    if (dstType.getRank() == 0)
      result = tensor::CollapseShapeOp::create(rewriter, loc, dstType, flat,
                                               allInOne(0));
    else if (dstType.getRank() != 1 || dstType != flat.getType())
      result = expandTo(rewriter, loc, flat, dstType,
                        allInOne(dstType.getRank()), sizes);
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct TransposePattern : OpConversionPattern<TransposeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value data = adaptor.getData();
    int64_t rank = cast<RankedTensorType>(data.getType()).getRank();
    auto resultType = signlessTensorType(cast<RankedTensorType>(op.getType()));
    SmallVector<int64_t> perm;
    std::optional<ArrayRef<int64_t>> axes = op.getAxes();
    if (axes && !axes->empty())
      for (int64_t a : *axes)
        perm.push_back(normAxis(a, rank));
    else
      for (int64_t d = rank - 1; d >= 0; --d)
        perm.push_back(d);
    SmallVector<OpFoldResult> inSizes = dimSizes(rewriter, loc, data), sizes;
    for (int64_t p : perm)
      sizes.push_back(inSizes[p]);
    Value init = emptyTensor(rewriter, loc, resultType, sizes);
    rewriter.replaceOp(op, linalg::TransposeOp::create(rewriter, loc, data,
                                                       init, perm)
                               .getResult()[0]);
    return success();
  }
};

struct ConcatenatePattern : OpConversionPattern<ConcatenateOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConcatenateOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = signlessTensorType(cast<RankedTensorType>(op.getType()));
    ValueRange inputs = adaptor.getData();
    if (inputs.size() == 1) {
      rewriter.replaceOp(op, inputs[0]);
      return success();
    }
    int64_t axis = normAxis(op.getAxis(), resultType.getRank());
    rewriter.replaceOpWithNewOp<tensor::ConcatOp>(
        op, resultType, rewriter.getI64IntegerAttr(axis), inputs);
    return success();
  }
};
} // namespace

void lowering::populateTransformPatterns(const TypeConverter &tc,
                                         RewritePatternSet &patterns) {
  patterns.add<ReshapePattern, TransposePattern, ConcatenatePattern>(
      tc, patterns.getContext());
}
