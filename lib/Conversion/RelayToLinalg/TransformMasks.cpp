//===- TransformMasks.cpp - masks, diagonals, grids, index maps -----------===//
//
// TVM 0.19's trilu, sequence_mask, reverse_sequence, meshgrid,
// unravel_index, invert_permutation, matrix_set_diag and collapse_sum_to:
//   trilu, sequence_mask, matrix_set_diag: one parallel linalg.generic over
//     the result choosing, from its indices, the data element or the
//     replacement (0, mask_value, the diagonal's element read with
//     tensor.extract at clamped coordinates).
//   reverse_sequence: a linalg.generic reading data at the reversed step.
//   meshgrid: one linalg.broadcast per input.
//   unravel_index: out[r, j] = floormod(floordiv(indices[j], stride_r),
//     shape[r]), the
//     strides multiplied from the shape tensor's entries (its length must
//     be static).
//   invert_permutation: out[j] = sum_i (data[i] == j ? i : 0), a reduction
//     (quadratic in the length; permutations are short).
//   collapse_sum_to: collapse_sum_like of a zeros of `shape`.
//   contrib_reverse_reshape: reshape to its inferred shape.
//   sliding_window: a parallel linalg.generic reading data at
//     window start * stride + offset per windowed dim.
//
//===----------------------------------------------------------------------===//
#include "DynamicUtils.h"
#include "Utils.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

namespace {

/// An integer scalar as an index (sign- or zero-extended).
Value asIndex(OpBuilder &b, Location loc, Value v, bool isUnsigned) {
  if (isUnsigned)
    return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), v);
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
}

Value cIdx(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

Value dimValue(OpBuilder &b, Location loc, Value t, int64_t d) {
  return getValueOrCreateConstantIndexOp(b, loc, dimSizes(b, loc, t)[d]);
}

Value cmp(OpBuilder &b, Location loc, arith::CmpIPredicate p, Value x,
          Value y) {
  return arith::CmpIOp::create(b, loc, p, x, y);
}

/// `v` clamped to [lo, hi] (index values).
Value clampTo(OpBuilder &b, Location loc, Value v, Value lo, Value hi) {
  return arith::MinSIOp::create(b, loc, arith::MaxSIOp::create(b, loc, v, lo),
                                hi);
}

/// A map over `loops` loops reading dims `dims` (in order).
AffineMap readDims(OpBuilder &b, int64_t loops, ArrayRef<int64_t> dims) {
  SmallVector<AffineExpr> exprs;
  for (int64_t d : dims)
    exprs.push_back(b.getAffineDimExpr(d));
  return AffineMap::get(loops, 0, exprs, b.getContext());
}

Value zeroOf(OpBuilder &b, Location loc, Type type) {
  return arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
}

struct TriluPattern : OpConversionPattern<TriluOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TriluOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value data = adaptor.getData();
    auto resultType = signlessTensorType(cast<RankedTensorType>(op.getType()));
    int64_t rank = resultType.getRank();
    bool kUnsigned = isUnsignedInt(op.getK().getType()), upper = op.getUpper();
    Value zero = zeroOf(rewriter, loc, resultType.getElementType());
    Value result = buildMap(
        rewriter, loc, resultType, dimSizes(rewriter, loc, data),
        ValueRange{data, adaptor.getK()},
        {rewriter.getMultiDimIdentityMap(rank), readDims(rewriter, rank, {})},
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          Value i = linalg::IndexOp::create(b, l, rank - 2);
          Value j = linalg::IndexOp::create(b, l, rank - 1);
          Value diff = arith::SubIOp::create(b, l, j, i);
          Value k = asIndex(b, l, args[1], kUnsigned);
          Value keep =
              cmp(b, l,
                  upper ? arith::CmpIPredicate::sge : arith::CmpIPredicate::sle,
                  diff, k);
          return arith::SelectOp::create(b, l, keep, args[0], zero);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct SequenceMaskPattern : OpConversionPattern<SequenceMaskOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SequenceMaskOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value data = adaptor.getData();
    auto resultType = signlessTensorType(cast<RankedTensorType>(op.getType()));
    int64_t rank = resultType.getRank(), axis = op.getAxis();
    bool lenUnsigned = isUnsignedInt(op.getValidLength().getType());
    Value mask = scalarConst(rewriter, loc, resultType.getElementType(),
                             op.getMaskValue().convertToDouble());
    Value result =
        buildMap(rewriter, loc, resultType, dimSizes(rewriter, loc, data),
                 ValueRange{data, adaptor.getValidLength()},
                 {rewriter.getMultiDimIdentityMap(rank),
                  readDims(rewriter, rank, {1 - axis})},
                 [&](OpBuilder &b, Location l, ValueRange args) -> Value {
                   Value t = linalg::IndexOp::create(b, l, axis);
                   Value keep = cmp(b, l, arith::CmpIPredicate::slt, t,
                                    asIndex(b, l, args[1], lenUnsigned));
                   return arith::SelectOp::create(b, l, keep, args[0], mask);
                 });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct ReverseSequencePattern : OpConversionPattern<ReverseSequenceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReverseSequenceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value data = adaptor.getData();
    auto resultType = signlessTensorType(cast<RankedTensorType>(op.getType()));
    int64_t rank = resultType.getRank();
    FailureOr<int64_t> seq = normalizeAxis(op.getSeqAxis(), rank);
    FailureOr<int64_t> batch = normalizeAxis(op.getBatchAxis(), rank);
    if (failed(seq) || failed(batch))
      return rewriter.notifyMatchFailure(op, "axis out of range");
    bool lenUnsigned = isUnsignedInt(op.getSeqLengths().getType());
    Value n = dimValue(rewriter, loc, data, *seq);
    Value result = buildMap(
        rewriter, loc, resultType, dimSizes(rewriter, loc, data),
        ValueRange{adaptor.getSeqLengths()},
        {readDims(rewriter, rank, {*batch})},
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          // Steps s < len (len clamped to the dim) read len - 1 - s.
          Value len = arith::MinSIOp::create(
              b, l, asIndex(b, l, args[0], lenUnsigned), n);
          SmallVector<Value> at;
          for (int64_t d = 0; d < rank; ++d)
            at.push_back(linalg::IndexOp::create(b, l, d));
          Value s = at[*seq];
          Value flipped = arith::SubIOp::create(
              b, l, arith::SubIOp::create(b, l, len, cIdx(b, l, 1)), s);
          at[*seq] = arith::SelectOp::create(
              b, l, cmp(b, l, arith::CmpIPredicate::slt, s, len), flipped, s);
          return tensor::ExtractOp::create(b, l, data, at);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct MeshgridPattern : OpConversionPattern<MeshgridOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MeshgridOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> inputs(adaptor.getData());
    int64_t n = inputs.size();
    // Input q fills result dim pos[q] ("xy" swaps the first two).
    SmallVector<int64_t> pos;
    for (int64_t q = 0; q < n; ++q)
      pos.push_back(op.getIndexing() == "xy" && n >= 2 && q < 2 ? 1 - q : q);
    SmallVector<OpFoldResult> sizes(n);
    for (int64_t q = 0; q < n; ++q) {
      auto type = cast<RankedTensorType>(inputs[q].getType());
      sizes[pos[q]] = type.getRank() ? dimSizes(rewriter, loc, inputs[q])[0]
                                     : OpFoldResult(rewriter.getIndexAttr(1));
    }
    auto tuple = cast<TupleType>(op.getType());
    SmallVector<Value> grids;
    for (int64_t q = 0; q < n; ++q) {
      auto gridType =
          signlessTensorType(cast<RankedTensorType>(tuple.getType(q)));
      auto type = cast<RankedTensorType>(inputs[q].getType());
      SmallVector<int64_t> added;
      for (int64_t d = 0; d < n; ++d)
        if (type.getRank() == 0 || d != pos[q])
          added.push_back(d);
      Value init = emptyTensor(rewriter, loc, gridType, sizes);
      grids.push_back(
          linalg::BroadcastOp::create(rewriter, loc, inputs[q], init, added)
              .getResult()[0]);
    }
    rewriter.replaceOpWithMultiple(op, {grids});
    return success();
  }
};

struct UnravelIndexPattern : OpConversionPattern<UnravelIndexOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(UnravelIndexOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value indices = adaptor.getIndices(), shape = adaptor.getShape();
    auto resultType = signlessTensorType(cast<RankedTensorType>(op.getType()));
    int64_t m = resultType.getDimSize(0);
    if (ShapedType::isDynamic(m))
      return op.emitError() << "not supported yet: " << op->getName()
                            << " with a `?` shape length";
    bool isUnsigned = isUnsignedInt(op.getIndices().getType());
    int64_t rank = resultType.getRank();
    SmallVector<OpFoldResult> sizes = {rewriter.getIndexAttr(m)};
    if (rank == 2)
      sizes.push_back(dimSizes(rewriter, loc, indices)[0]);
    Type elt = resultType.getElementType();
    Value one = arith::ConstantOp::create(rewriter, loc,
                                          rewriter.getIntegerAttr(elt, 1));
    Value result = buildMap(
        rewriter, loc, resultType, sizes, ValueRange{indices},
        {rank == 2 ? readDims(rewriter, 2, {1}) : readDims(rewriter, 1, {})},
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          Value r = linalg::IndexOp::create(b, l, 0);
          // stride_r = product of shape[q] for q > r; dim_r = shape[r]
          Value stride = one, dim = one;
          for (int64_t q = 0; q < m; ++q) {
            Value sq = tensor::ExtractOp::create(b, l, shape,
                                                 ValueRange{cIdx(b, l, q)});
            Value qv = cIdx(b, l, q);
            Value after = cmp(b, l, arith::CmpIPredicate::ugt, qv, r);
            stride = arith::MulIOp::create(
                b, l, stride, arith::SelectOp::create(b, l, after, sq, one));
            dim = arith::SelectOp::create(
                b, l, cmp(b, l, arith::CmpIPredicate::eq, qv, r), sq, dim);
          }
          Value x = args[0];
          if (isUnsigned)
            return arith::RemUIOp::create(
                b, l, arith::DivUIOp::create(b, l, x, stride), dim);
          // Relay's floordiv and floormod (a negative index counts from the
          // end of the flattened shape).
          Value q = arith::FloorDivSIOp::create(b, l, x, stride);
          return arith::SubIOp::create(
              b, l, q,
              arith::MulIOp::create(
                  b, l, arith::FloorDivSIOp::create(b, l, q, dim), dim));
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct InvertPermutationPattern : OpConversionPattern<InvertPermutationOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(InvertPermutationOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value data = adaptor.getData();
    auto resultType = signlessTensorType(cast<RankedTensorType>(op.getType()));
    Type elt = resultType.getElementType();
    SmallVector<OpFoldResult> sizes = dimSizes(rewriter, loc, data);
    Value zero = zeroOf(rewriter, loc, elt);
    Value init = filledTensor(rewriter, loc, resultType, sizes, zero);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{resultType}, ValueRange{data},
        ValueRange{init},
        {readDims(rewriter, 2, {1}), readDims(rewriter, 2, {0})},
        {utils::IteratorType::parallel, utils::IteratorType::reduction},
        [&](OpBuilder &b, Location l, ValueRange args) {
          auto asElt = [&](int64_t d) -> Value {
            return arith::IndexCastOp::create(b, l, elt,
                                              linalg::IndexOp::create(b, l, d));
          };
          Value hit = cmp(b, l, arith::CmpIPredicate::eq, args[0], asElt(0));
          Value term = arith::SelectOp::create(b, l, hit, asElt(1), zero);
          linalg::YieldOp::create(
              b, l, ValueRange{arith::AddIOp::create(b, l, args[1], term)});
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

struct MatrixSetDiagPattern : OpConversionPattern<MatrixSetDiagOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MatrixSetDiagOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value data = adaptor.getData(), diag = adaptor.getDiagonal();
    auto resultType = signlessTensorType(cast<RankedTensorType>(op.getType()));
    int64_t rank = resultType.getRank();
    int64_t k1 = op.getK1(), k2 = op.getK2();
    bool superRight = op.getSuperDiagRightAlign(),
         subRight = op.getSubDiagRightAlign();
    Value rows = dimValue(rewriter, loc, data, rank - 2);
    Value cols = dimValue(rewriter, loc, data, rank - 1);
    auto diagType = cast<RankedTensorType>(diag.getType());
    Value maxLen = dimValue(rewriter, loc, diag, diagType.getRank() - 1);
    Value result = buildMap(
        rewriter, loc, resultType, dimSizes(rewriter, loc, data),
        ValueRange{data}, {rewriter.getMultiDimIdentityMap(rank)},
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          using P = arith::CmpIPredicate;
          SmallVector<Value> at;
          for (int64_t d = 0; d < rank - 2; ++d)
            at.push_back(linalg::IndexOp::create(b, l, d));
          Value i = linalg::IndexOp::create(b, l, rank - 2);
          Value j = linalg::IndexOp::create(b, l, rank - 1);
          Value zero = cIdx(b, l, 0);
          Value d = arith::SubIOp::create(b, l, j, i);
          Value in =
              arith::AndIOp::create(b, l, cmp(b, l, P::sge, d, cIdx(b, l, k1)),
                                    cmp(b, l, P::sle, d, cIdx(b, l, k2)));
          if (k1 != k2) // which diagonal: k2 - d, from the top
            at.push_back(clampTo(b, l,
                                 arith::SubIOp::create(b, l, cIdx(b, l, k2), d),
                                 zero, cIdx(b, l, k2 - k1)));
          // Position along the diagonal: the row above the main diagonal,
          // the column below it; right-aligned diagonals shift by
          // max_len - len(d), len(d) = min(rows + min(d, 0), cols - max(d, 0)).
          Value above = cmp(b, l, P::sge, d, zero);
          Value pos = arith::SelectOp::create(b, l, above, i, j);
          Value len = arith::MinSIOp::create(
              b, l,
              arith::AddIOp::create(b, l, rows,
                                    arith::MinSIOp::create(b, l, d, zero)),
              arith::SubIOp::create(b, l, cols,
                                    arith::MaxSIOp::create(b, l, d, zero)));
          Value shift = arith::SubIOp::create(b, l, maxLen, len);
          Value right = arith::SelectOp::create(
              b, l, above, cIdx(b, l, superRight), cIdx(b, l, subRight));
          pos = arith::AddIOp::create(
              b, l, pos, arith::MulIOp::create(b, l, right, shift));
          at.push_back(
              clampTo(b, l, pos, zero,
                      arith::SubIOp::create(b, l, maxLen, cIdx(b, l, 1))));
          Value fromDiag = tensor::ExtractOp::create(b, l, diag, at);
          return arith::SelectOp::create(b, l, in, fromDiag, args[0]);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct CollapseSumToPattern : OpConversionPattern<CollapseSumToOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CollapseSumToOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value like = ZerosOp::create(rewriter, op.getLoc(), op.getShapeAttr(),
                                 TypeAttr::get(elementTypeOf(op.getType())));
    rewriter.replaceOpWithNewOp<CollapseSumLikeOp>(op, op.getData(), like);
    return success();
  }
};

/// contrib_reverse_reshape: a reshape to the inferred shape (static dims
/// as they are, one `?` as -1).
struct ReverseReshapePattern : OpConversionPattern<ReverseReshapeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ReverseReshapeOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    if (type.getNumDynamicDims() > 1)
      return op.emitError() << "not supported yet: " << op->getName()
                            << " with more than one `?` result dim";
    SmallVector<int64_t> codes;
    for (int64_t d : type.getShape())
      codes.push_back(ShapedType::isDynamic(d) ? -1 : d);
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, op.getData(),
                                           rewriter.getDenseI64ArrayAttr(codes),
                                           /*allowzero=*/true);
    return success();
  }
};

/// sliding_window: out[b..., n..., w...] = data[b..., n * s + w ...].
struct SlidingWindowPattern : OpConversionPattern<SlidingWindowOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SlidingWindowOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value data = adaptor.getData();
    auto resultType = signlessTensorType(cast<RankedTensorType>(op.getType()));
    int64_t axis = op.getAxis();
    ArrayRef<int64_t> window = op.getWindowShape(), strides = op.getStrides();
    int64_t n = window.size();
    SmallVector<OpFoldResult> in = dimSizes(rewriter, loc, data);
    SmallVector<OpFoldResult> sizes(in.begin(), in.begin() + axis);
    for (int64_t i = 0; i < n; ++i) {
      int64_t out = resultType.getDimSize(axis + i);
      if (!ShapedType::isDynamic(out)) {
        sizes.push_back(rewriter.getIndexAttr(out));
        continue;
      }
      // (d - w) / s + 1, with d >= w checked at run time
      Value d = getValueOrCreateConstantIndexOp(rewriter, loc, in[axis + i]);
      Value w = cIdx(rewriter, loc, window[i]);
      runtimeCheck(rewriter, loc,
                   cmp(rewriter, loc, arith::CmpIPredicate::sge, d, w),
                   op->getName().getStringRef(),
                   "a window is larger than dim " + std::to_string(axis + i) +
                       " of data");
      Value count = arith::DivUIOp::create(
          rewriter, loc, arith::SubIOp::create(rewriter, loc, d, w),
          cIdx(rewriter, loc, strides[i]));
      sizes.push_back(
          arith::AddIOp::create(rewriter, loc, count, cIdx(rewriter, loc, 1))
              .getResult());
    }
    for (int64_t w : window)
      sizes.push_back(rewriter.getIndexAttr(w));
    Value result =
        buildMap(rewriter, loc, resultType, sizes, ValueRange{}, {},
                 [&](OpBuilder &b, Location l, ValueRange) -> Value {
                   SmallVector<Value> at;
                   for (int64_t d = 0; d < axis; ++d)
                     at.push_back(linalg::IndexOp::create(b, l, d));
                   for (int64_t i = 0; i < n; ++i)
                     at.push_back(arith::AddIOp::create(
                         b, l,
                         arith::MulIOp::create(
                             b, l, linalg::IndexOp::create(b, l, axis + i),
                             cIdx(b, l, strides[i])),
                         linalg::IndexOp::create(b, l, axis + n + i)));
                   return tensor::ExtractOp::create(b, l, data, at);
                 });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void lowering::populateTransformMaskPatterns(const TypeConverter &tc,
                                             RewritePatternSet &patterns) {
  patterns.add<TriluPattern, SequenceMaskPattern, ReverseSequencePattern,
               MeshgridPattern, UnravelIndexPattern, InvertPermutationPattern,
               MatrixSetDiagPattern, CollapseSumToPattern,
               ReverseReshapePattern, SlidingWindowPattern>(
      tc, patterns.getContext());
}
