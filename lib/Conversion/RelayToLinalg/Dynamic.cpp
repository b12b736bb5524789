//===- Dynamic.cpp - shape_of, ndarray_size and dyn.* to tensor/linalg ----===//
//
// Shapes computed at run time: shape entries are read with tensor.extract
// and become the dynamic sizes of tensor.empty / tensor.expand_shape.
// Requests that do not fit the data (a reshape changing the element count,
// a broadcast of a dim that is neither 1 nor the target) fail at run time
// with cf.assert, never silently.
//
//===----------------------------------------------------------------------===//
#include "Utils.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

namespace {

Value indexConst(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// Entry `i` of the 1-d integer tensor `shape`, as an index.
Value shapeEntry(OpBuilder &b, Location loc, Value shape, int64_t i) {
  Value v = tensor::ExtractOp::create(b, loc, shape,
                                      ValueRange{indexConst(b, loc, i)});
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
}

/// All entries of a shape operand of static length `n`.
SmallVector<OpFoldResult> shapeEntries(OpBuilder &b, Location loc, Value shape,
                                       int64_t n) {
  SmallVector<OpFoldResult> sizes;
  for (int64_t i = 0; i < n; ++i)
    sizes.push_back(shapeEntry(b, loc, shape, i));
  return sizes;
}

Value product(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> sizes) {
  Value p = indexConst(b, loc, 1);
  for (OpFoldResult s : sizes)
    p = arith::MulIOp::create(b, loc, p,
                              getValueOrCreateConstantIndexOp(b, loc, s));
  return p;
}

Value cmp(OpBuilder &b, Location loc, arith::CmpIPredicate pred, Value x,
          Value y) {
  return arith::CmpIOp::create(b, loc, pred, x, y);
}

/// A 1-d (or 0-d if `values` is empty) tensor of `type` holding `values`
/// (index values cast to its element type).
Value fromIndices(OpBuilder &b, Location loc, RankedTensorType type,
                  ArrayRef<Value> values) {
  if (type.getNumElements() == 0)
    return tensor::EmptyOp::create(b, loc, type.getShape(),
                                   type.getElementType());
  SmallVector<Value> elements;
  for (Value v : values)
    elements.push_back(
        arith::IndexCastOp::create(b, loc, type.getElementType(), v));
  return tensor::FromElementsOp::create(b, loc, type, elements);
}

struct ShapeOfPattern : OpConversionPattern<ShapeOfOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ShapeOfOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> dims;
    for (OpFoldResult s : dimSizes(rewriter, loc, adaptor.getData()))
      dims.push_back(getValueOrCreateConstantIndexOp(rewriter, loc, s));
    rewriter.replaceOp(
        op,
        fromIndices(rewriter, loc,
                    signlessTensorType(cast<RankedTensorType>(op.getType())),
                    dims));
    return success();
  }
};

struct NdarraySizePattern : OpConversionPattern<NdarraySizeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(NdarraySizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value n =
        product(rewriter, loc, dimSizes(rewriter, loc, adaptor.getData()));
    rewriter.replaceOp(
        op, fromIndices(
                rewriter, loc,
                signlessTensorType(cast<RankedTensorType>(op.getType())), {n}));
    return success();
  }
};

/// dyn.reshape: the requested dims (0 copies the input dim unless
/// `allowzero`, one -1 takes the remaining elements), checked to hold the
/// input's element count, then collapse to 1-d and expand to the result.
struct DynReshapePattern : OpConversionPattern<DynReshapeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DynReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value data = adaptor.getData();
    auto inType = cast<RankedTensorType>(data.getType());
    auto resultType = signlessTensorType(cast<RankedTensorType>(op.getType()));
    int64_t inRank = inType.getRank(), rank = resultType.getRank();
    SmallVector<OpFoldResult> inSizes = dimSizes(rewriter, loc, data);
    Value total = product(rewriter, loc, inSizes);
    Value zero = indexConst(rewriter, loc, 0),
          one = indexConst(rewriter, loc, 1);
    Value minusOne = indexConst(rewriter, loc, -1);
    SmallVector<Value> req;
    Value known = one, wildcards = zero,
          negative = rewriter.createOrFold<arith::ConstantOp>(
              loc, rewriter.getBoolAttr(false));
    for (int64_t i = 0; i < rank; ++i) {
      Value v = shapeEntry(rewriter, loc, adaptor.getNewshape(), i);
      if (!op.getAllowzero() && i < inRank)
        v = arith::SelectOp::create(
            rewriter, loc,
            cmp(rewriter, loc, arith::CmpIPredicate::eq, v, zero),
            getValueOrCreateConstantIndexOp(rewriter, loc, inSizes[i]), v);
      Value isWild = cmp(rewriter, loc, arith::CmpIPredicate::eq, v, minusOne);
      wildcards = arith::AddIOp::create(
          rewriter, loc, wildcards,
          arith::SelectOp::create(rewriter, loc, isWild, one, zero));
      negative = arith::OrIOp::create(
          rewriter, loc, negative,
          arith::AndIOp::create(
              rewriter, loc,
              cmp(rewriter, loc, arith::CmpIPredicate::slt, v, zero),
              arith::XOrIOp::create(rewriter, loc, isWild,
                                    rewriter.createOrFold<arith::ConstantOp>(
                                        loc, rewriter.getBoolAttr(true)))));
      known = arith::MulIOp::create(
          rewriter, loc, known,
          arith::SelectOp::create(rewriter, loc, isWild, one, v));
      req.push_back(v);
    }
    // the -1 dim: the elements left (0 when nothing else is known)
    Value safeKnown = arith::SelectOp::create(
        rewriter, loc,
        cmp(rewriter, loc, arith::CmpIPredicate::eq, known, zero), one, known);
    Value inferred = arith::DivSIOp::create(rewriter, loc, total, safeKnown);
    SmallVector<OpFoldResult> outSizes;
    for (Value v : req)
      outSizes.push_back(
          arith::SelectOp::create(
              rewriter, loc,
              cmp(rewriter, loc, arith::CmpIPredicate::eq, v, minusOne),
              inferred, v)
              .getResult());
    Value ok = arith::AndIOp::create(
        rewriter, loc,
        cmp(rewriter, loc, arith::CmpIPredicate::eq,
            product(rewriter, loc, outSizes), total),
        arith::AndIOp::create(
            rewriter, loc,
            cmp(rewriter, loc, arith::CmpIPredicate::ule, wildcards, one),
            arith::XOrIOp::create(rewriter, loc, negative,
                                  rewriter.createOrFold<arith::ConstantOp>(
                                      loc, rewriter.getBoolAttr(true)))));
    cf::AssertOp::create(
        rewriter, loc, ok,
        "relay.dyn.reshape: newshape does not fit the input's element count "
        "(or has more than one -1 or a negative entry)");

    Type elt = resultType.getElementType();
    // to 1-d
    Value flat = data;
    if (inRank == 0) {
      flat = tensor::ExpandShapeOp::create(
          rewriter, loc, RankedTensorType::get({1}, elt), data,
          ArrayRef<ReassociationIndices>{});
    } else if (inRank > 1) {
      ReassociationIndices all;
      for (int64_t d = 0; d < inRank; ++d)
        all.push_back(d);
      int64_t n = inType.hasStaticShape() ? inType.getNumElements()
                                          : ShapedType::kDynamic;
      flat = tensor::CollapseShapeOp::create(
          rewriter, loc, RankedTensorType::get({n}, elt), data,
          ArrayRef<ReassociationIndices>{all});
    }
    Value result;
    if (rank == 0) {
      flat = castTo(rewriter, loc, flat, RankedTensorType::get({1}, elt));
      result = tensor::CollapseShapeOp::create(
          rewriter, loc, resultType, flat, ArrayRef<ReassociationIndices>{});
    } else if (rank == 1) {
      result = castTo(rewriter, loc, flat, resultType);
    } else {
      ReassociationIndices all;
      for (int64_t d = 0; d < rank; ++d)
        all.push_back(d);
      flat = castTo(rewriter, loc, flat,
                    RankedTensorType::get({ShapedType::kDynamic}, elt));
      result = tensor::ExpandShapeOp::create(
          rewriter, loc, resultType, flat, ArrayRef<ReassociationIndices>{all},
          outSizes);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// dyn.broadcast_to: a gather over the result (a data dim of size 1, known
/// only at run time, reads index 0), with each data dim checked to be 1 or
/// the target size.
struct DynBroadcastToPattern : OpConversionPattern<DynBroadcastToOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DynBroadcastToOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value data = adaptor.getData();
    auto inType = cast<RankedTensorType>(data.getType());
    auto resultType = signlessTensorType(cast<RankedTensorType>(op.getType()));
    int64_t rank = resultType.getRank(), offset = rank - inType.getRank();
    SmallVector<OpFoldResult> sizes =
        shapeEntries(rewriter, loc, adaptor.getShape(), rank);
    SmallVector<OpFoldResult> inSizes = dimSizes(rewriter, loc, data);
    Value one = indexConst(rewriter, loc, 1);
    for (int64_t i = 0; i < inType.getRank(); ++i) {
      if (inType.getDimSize(i) == 1)
        continue;
      Value in = getValueOrCreateConstantIndexOp(rewriter, loc, inSizes[i]);
      Value target =
          getValueOrCreateConstantIndexOp(rewriter, loc, sizes[offset + i]);
      cf::AssertOp::create(
          rewriter, loc,
          arith::OrIOp::create(
              rewriter, loc,
              cmp(rewriter, loc, arith::CmpIPredicate::eq, in, one),
              cmp(rewriter, loc, arith::CmpIPredicate::eq, in, target)),
          "relay.dyn.broadcast_to: a dim of data is neither 1 nor the "
          "target size");
    }
    Value result = buildMap(
        rewriter, loc, resultType, sizes, {}, {},
        [&](OpBuilder &b, Location l, ValueRange) -> Value {
          SmallVector<Value> idx;
          Value zero = indexConst(b, l, 0);
          for (int64_t i = 0; i < inType.getRank(); ++i) {
            if (inType.getDimSize(i) == 1) {
              idx.push_back(zero);
              continue;
            }
            Value j = linalg::IndexOp::create(b, l, offset + i);
            if (!inType.isDynamicDim(i)) {
              idx.push_back(j);
              continue;
            }
            Value dim = tensor::DimOp::create(b, l, data, i);
            idx.push_back(arith::SelectOp::create(
                b, l,
                cmp(b, l, arith::CmpIPredicate::eq, dim, indexConst(b, l, 1)),
                zero, j));
          }
          return tensor::ExtractOp::create(b, l, data, idx);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// dyn.zeros / dyn.ones: a fill of the run-time shape.
template <typename OpT, int Value_>
struct DynConstantFillPattern : OpConversionPattern<OpT> {
  using OpConversionPattern<OpT>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpT op, typename OpT::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = signlessTensorType(cast<RankedTensorType>(op.getType()));
    SmallVector<OpFoldResult> sizes =
        shapeEntries(rewriter, loc, adaptor.getShape(), resultType.getRank());
    rewriter.replaceOp(
        op, filledTensor(rewriter, loc, resultType, sizes,
                         scalarConst(rewriter, loc, resultType.getElementType(),
                                     Value_)));
    return success();
  }
};

struct DynFullPattern : OpConversionPattern<DynFullOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DynFullOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto relayType = cast<RankedTensorType>(op.getType());
    SmallVector<OpFoldResult> sizes =
        shapeEntries(rewriter, loc, adaptor.getShape(), relayType.getRank());
    rewriter.replaceOp(
        op, filledFrom(rewriter, loc, relayType, sizes, adaptor.getFillValue(),
                       elementTypeOf(op.getFillValue().getType())));
    return success();
  }
};

} // namespace

void relay::populateDynamicToLinalgPatterns(const TypeConverter &typeConverter,
                                            RewritePatternSet &patterns) {
  patterns.add<ShapeOfPattern, NdarraySizePattern, DynReshapePattern,
               DynBroadcastToPattern, DynConstantFillPattern<DynZerosOp, 0>,
               DynConstantFillPattern<DynOnesOp, 1>, DynFullPattern>(
      typeConverter, patterns.getContext());
}
