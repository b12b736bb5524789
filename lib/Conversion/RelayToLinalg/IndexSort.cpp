//===- IndexSort.cpp - sort, argsort, topk, searchsorted, cumsum, cumprod -===//
//
// Upstream linalg has no sort or scan op (IREE's live in iree_linalg_ext),
// so both are expressed as linalg.generic reductions along the axis, which
// IREE tiles and vectorises like any reduction (cost O(n^2) along the axis,
// fine for the axis lengths sort/scan see in models; no sequential loop):
// - sort: rank[i] = #{k : x[k] before x[i]}, where k is before i when its
//   value orders first or the values are equal and k < i (stable, as
//   Relay's CPU std::stable_sort); then out[j] = x[i] with rank[i] == j
//   (topk keeps j < k), indices likewise.
// - scan: out[i] = sum (product) of x[k] for k <= i (k < i if exclusive).
// - searchsorted: out[j] = #{k : s[k] < v[j]} (<= with `right`).
//
//===----------------------------------------------------------------------===//
#include "DynamicUtils.h"
#include "Utils.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

namespace {

/// Converts scalar `v` to `to` (int/float, any widths).
Value convertScalar(OpBuilder &b, Location loc, Value v, Type to,
                    bool srcUnsigned) {
  Type from = v.getType();
  if (from == to)
    return v;
  bool fromFloat = isa<FloatType>(from), toFloat = isa<FloatType>(to);
  if (fromFloat && toFloat)
    return from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth()
               ? arith::ExtFOp::create(b, loc, to, v).getResult()
               : arith::TruncFOp::create(b, loc, to, v).getResult();
  if (!fromFloat && !toFloat) {
    unsigned fw = from.getIntOrFloatBitWidth(), tw = to.getIntOrFloatBitWidth();
    if (fw > tw)
      return arith::TruncIOp::create(b, loc, to, v);
    return srcUnsigned ? arith::ExtUIOp::create(b, loc, to, v).getResult()
                       : arith::ExtSIOp::create(b, loc, to, v).getResult();
  }
  if (!fromFloat)
    return srcUnsigned ? arith::UIToFPOp::create(b, loc, to, v).getResult()
                       : arith::SIToFPOp::create(b, loc, to, v).getResult();
  return arith::FPToSIOp::create(b, loc, to, v);
}

/// Affine map over `rank + 1` loops reading a rank-`rank` tensor with dim
/// `axis` taken from the extra loop `rank`.
AffineMap axisFromLastLoop(OpBuilder &b, int64_t rank, int64_t axis) {
  SmallVector<AffineExpr> exprs;
  for (int64_t d = 0; d < rank; ++d)
    exprs.push_back(b.getAffineDimExpr(d == axis ? rank : d));
  return AffineMap::get(rank + 1, 0, exprs, b.getContext());
}

AffineMap dropLastLoop(OpBuilder &b, int64_t rank) {
  SmallVector<AffineExpr> exprs;
  for (int64_t d = 0; d < rank; ++d)
    exprs.push_back(b.getAffineDimExpr(d));
  return AffineMap::get(rank + 1, 0, exprs, b.getContext());
}

SmallVector<utils::IteratorType> parallelThenReduction(int64_t rank) {
  SmallVector<utils::IteratorType> it(rank, utils::IteratorType::parallel);
  it.push_back(utils::IteratorType::reduction);
  return it;
}

template <typename OpTy, bool isProd>
struct ScanPattern : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpConversionPattern<OpTy>::OpAdaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value data = adaptor.getData();
    auto resultType = signlessTensorType(cast<RankedTensorType>(op.getType()));
    bool isUnsigned = isUnsignedInt(op.getData().getType());
    auto dataType = cast<RankedTensorType>(data.getType());
    int64_t axis = 0;
    if (std::optional<int64_t> a = op.getAxis()) {
      FailureOr<int64_t> axisOr = normalizeAxis(*a, dataType.getRank());
      if (failed(axisOr))
        return rewriter.notifyMatchFailure(op, "axis out of range");
      axis = *axisOr;
    } else if (dataType.getRank() == 0) {
      data = tensor::ExpandShapeOp::create(
          rewriter, loc, RankedTensorType::get({1}, dataType.getElementType()),
          data, ArrayRef<ReassociationIndices>{});
    } else if (dataType.getRank() != 1) {
      ReassociationIndices all;
      for (int64_t d = 0; d < dataType.getRank(); ++d)
        all.push_back(d);
      data =
          tensor::CollapseShapeOp::create(rewriter, loc, data, ArrayRef{all});
    }
    dataType = cast<RankedTensorType>(data.getType());
    int64_t rank = dataType.getRank();
    Type outElt = resultType.getElementType();
    SmallVector<OpFoldResult> sizes = dimSizes(rewriter, loc, data);
    Value ident = isa<FloatType>(outElt)
                      ? scalarConst(rewriter, loc, outElt, isProd ? 1.0 : 0.0)
                      : arith::ConstantOp::create(
                            rewriter, loc,
                            rewriter.getIntegerAttr(outElt, isProd ? 1 : 0))
                            .getResult();
    Value init = filledTensor(rewriter, loc, resultType, sizes, ident);
    bool exclusive = op.getExclusive();
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{resultType}, ValueRange{data},
        ValueRange{init},
        {axisFromLastLoop(rewriter, rank, axis), dropLastLoop(rewriter, rank)},
        parallelThenReduction(rank),
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value x = convertScalar(b, l, args[0], outElt, isUnsigned);
          Value i = linalg::IndexOp::create(b, l, axis);
          Value k = linalg::IndexOp::create(b, l, rank);
          Value in = arith::CmpIOp::create(
              b, l,
              exclusive ? arith::CmpIPredicate::ult : arith::CmpIPredicate::ule,
              k, i);
          Value term = arith::SelectOp::create(b, l, in, x, ident);
          Value acc = args[1];
          Value out;
          if (isa<FloatType>(outElt))
            out = isProd ? arith::MulFOp::create(b, l, acc, term).getResult()
                         : arith::AddFOp::create(b, l, acc, term).getResult();
          else
            out = isProd ? arith::MulIOp::create(b, l, acc, term).getResult()
                         : arith::AddIOp::create(b, l, acc, term).getResult();
          linalg::YieldOp::create(b, l, out);
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

/// Stable rank (i64) of every element of `data` along `axis`.
Value buildRanks(OpBuilder &b, Location loc, Value data, int64_t axis,
                 bool ascending, bool isUnsigned) {
  auto type = cast<RankedTensorType>(data.getType());
  int64_t rank = type.getRank();
  auto rankType = RankedTensorType::get(type.getShape(), b.getI64Type());
  Value init = filledTensor(b, loc, rankType, dimSizes(b, loc, data),
                            scalarConst(b, loc, b.getI64Type(), 0));
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{rankType}, ValueRange{data, data}, ValueRange{init},
      {dropLastLoop(b, rank), axisFromLastLoop(b, rank, axis),
       dropLastLoop(b, rank)},
      parallelThenReduction(rank),
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value xi = args[0], xk = args[1];
        auto [orders, equal] =
            compareScalars(nb, l, xk, xi, /*greater=*/!ascending, isUnsigned);
        Value i = linalg::IndexOp::create(nb, l, axis);
        Value k = linalg::IndexOp::create(nb, l, rank);
        Value earlier =
            arith::CmpIOp::create(nb, l, arith::CmpIPredicate::ult, k, i);
        Value before = arith::OrIOp::create(
            nb, l, orders, arith::AndIOp::create(nb, l, equal, earlier));
        Value one = arith::ExtUIOp::create(nb, l, nb.getI64Type(), before);
        linalg::YieldOp::create(
            nb, l, arith::AddIOp::create(nb, l, args[2], one).getResult());
      });
  return generic.getResult(0);
}

/// Values (if `valueType`) and indices (if `indexType`) of the elements of
/// rank 0..K-1 along `axis`, K the axis extent of the result types.
SmallVector<Value> gatherByRank(OpBuilder &b, Location loc, Value data,
                                Value ranks, int64_t axis,
                                RankedTensorType valueType,
                                RankedTensorType indexType,
                                ArrayRef<OpFoldResult> sizes) {
  int64_t rank = cast<RankedTensorType>(data.getType()).getRank();
  SmallVector<Value> outs;
  SmallVector<Type> types;
  for (RankedTensorType t : {valueType, indexType}) {
    if (!t)
      continue;
    outs.push_back(filledTensor(b, loc, t, sizes,
                                scalarConst(b, loc, t.getElementType(), 0)));
    types.push_back(t);
  }
  SmallVector<AffineMap> maps{axisFromLastLoop(b, rank, axis),
                              axisFromLastLoop(b, rank, axis)};
  maps.append(outs.size(), dropLastLoop(b, rank));
  auto generic = linalg::GenericOp::create(
      b, loc, types, ValueRange{data, ranks}, outs, maps,
      parallelThenReduction(rank),
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value j = arith::IndexCastOp::create(
            nb, l, nb.getI64Type(), linalg::IndexOp::create(nb, l, axis));
        Value match =
            arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq, args[1], j);
        SmallVector<Value> yields;
        unsigned acc = 2;
        if (valueType)
          yields.push_back(
              arith::SelectOp::create(nb, l, match, args[0], args[acc++]));
        if (indexType) {
          Value i =
              arith::IndexCastOp::create(nb, l, indexType.getElementType(),
                                         linalg::IndexOp::create(nb, l, rank));
          yields.push_back(
              arith::SelectOp::create(nb, l, match, i, args[acc++]));
        }
        linalg::YieldOp::create(nb, l, yields);
      });
  return SmallVector<Value>(generic.getResults());
}

/// Result sizes: those of `data` with the axis extent `k` (if >= 1).
SmallVector<OpFoldResult> sortedSizes(OpBuilder &b, Location loc, Value data,
                                      int64_t axis, int64_t k) {
  SmallVector<OpFoldResult> sizes = dimSizes(b, loc, data);
  if (k >= 1)
    sizes[axis] = b.getIndexAttr(k);
  return sizes;
}

/// sort (`ReturnsIndices` false: the values) and argsort (true: the
/// indices): each element's stable rank along the axis, then a gather by rank.
template <typename OpT, bool ReturnsIndices>
struct SortByRankPattern : OpConversionPattern<OpT> {
  using OpConversionPattern<OpT>::OpConversionPattern;
  using OpAdaptor = typename OpT::Adaptor;
  LogicalResult
  matchAndRewrite(OpT op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value data = adaptor.getData();
    auto type = signlessTensorType(cast<RankedTensorType>(op.getType()));
    FailureOr<int64_t> axisOr = normalizeAxis(op.getAxis(), type.getRank());
    if (failed(axisOr))
      return rewriter.notifyMatchFailure(op, "axis out of range");
    int64_t axis = *axisOr;
    Value ranks = buildRanks(rewriter, loc, data, axis, op.getIsAscend(),
                             isUnsignedInt(op.getData().getType()));
    RankedTensorType valuesType = ReturnsIndices ? nullptr : type;
    RankedTensorType indicesType = ReturnsIndices ? type : nullptr;
    rewriter.replaceOp(op, gatherByRank(rewriter, loc, data, ranks, axis,
                                        valuesType, indicesType,
                                        dimSizes(rewriter, loc, data))[0]);
    return success();
  }
};
using SortPattern = SortByRankPattern<SortOp, /*ReturnsIndices=*/false>;
using ArgsortPattern = SortByRankPattern<ArgsortOp, /*ReturnsIndices=*/true>;

struct TopKPattern : OpConversionPattern<TopKOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TopKOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ValueRange dataLeaves = adaptor.getData();
    if (dataLeaves.size() != 1)
      return rewriter.notifyMatchFailure(op, "data is not one tensor");
    Value data = dataLeaves.front();
    int64_t rank = cast<RankedTensorType>(data.getType()).getRank();
    FailureOr<int64_t> axisOr = normalizeAxis(op.getAxis(), rank);
    if (failed(axisOr))
      return rewriter.notifyMatchFailure(op, "axis out of range");
    int64_t k = op.getK(); // (I64Attr getters return uint64_t)
    if (k >= 1 && cast<RankedTensorType>(data.getType()).isDynamicDim(*axisOr))
      runtimeCheck(rewriter, loc,
                   arith::CmpIOp::create(
                       rewriter, loc, arith::CmpIPredicate::sle,
                       arith::ConstantIndexOp::create(rewriter, loc, k),
                       tensor::DimOp::create(rewriter, loc, data, *axisOr)),
                   op->getName().getStringRef(),
                   "k is larger than the axis size");
    FailureOr<SmallVector<Value>> results = buildTopKResults(
        rewriter, loc, *getTypeConverter(), op.getType(), op.getRetType(), data,
        isUnsignedInt(op.getData().getType()), *axisOr, op.getIsAscend(),
        sortedSizes(rewriter, loc, data, *axisOr, k));
    if (failed(results))
      return failure();
    rewriter.replaceOpWithMultiple(op, {*results});
    return success();
  }
};
/// searchsorted: out[..., j] = #{k : s[..., k] < v[..., j]} (<= with
/// `right`), a reduction over k; equal to the binary search's position in
/// a sorted sequence.
struct SearchSortedPattern : OpConversionPattern<SearchSortedOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SearchSortedOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value sorted = adaptor.getSortedSequence(), values = adaptor.getValues();
    auto resultType = signlessTensorType(cast<RankedTensorType>(op.getType()));
    int64_t rank = resultType.getRank();
    int64_t sortedRank = cast<RankedTensorType>(sorted.getType()).getRank();
    SmallVector<AffineExpr> sortedExprs;
    for (int64_t d = 0; d + 1 < sortedRank; ++d)
      sortedExprs.push_back(rewriter.getAffineDimExpr(d));
    sortedExprs.push_back(rewriter.getAffineDimExpr(rank));
    AffineMap sortedMap =
        AffineMap::get(rank + 1, 0, sortedExprs, rewriter.getContext());
    Type outElt = resultType.getElementType();
    Type elt = elementTypeOf(op.getValues().getType());
    bool right = op.getRight(), isUnsigned = isUnsignedInt(elt);
    Value zero = arith::ConstantOp::create(rewriter, loc,
                                           rewriter.getIntegerAttr(outElt, 0));
    Value one = arith::ConstantOp::create(rewriter, loc,
                                          rewriter.getIntegerAttr(outElt, 1));
    Value init = filledTensor(rewriter, loc, resultType,
                              dimSizes(rewriter, loc, values), zero);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{resultType}, ValueRange{sorted, values},
        ValueRange{init},
        {sortedMap, dropLastLoop(rewriter, rank), dropLastLoop(rewriter, rank)},
        parallelThenReduction(rank),
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value before;
          if (isa<FloatType>(elt))
            before = arith::CmpFOp::create(b, l,
                                           right ? arith::CmpFPredicate::OLE
                                                 : arith::CmpFPredicate::OLT,
                                           args[0], args[1]);
          else if (isUnsigned)
            before = arith::CmpIOp::create(b, l,
                                           right ? arith::CmpIPredicate::ule
                                                 : arith::CmpIPredicate::ult,
                                           args[0], args[1]);
          else
            before = arith::CmpIOp::create(b, l,
                                           right ? arith::CmpIPredicate::sle
                                                 : arith::CmpIPredicate::slt,
                                           args[0], args[1]);
          Value term = arith::SelectOp::create(b, l, before, one, zero);
          linalg::YieldOp::create(
              b, l, ValueRange{arith::AddIOp::create(b, l, args[2], term)});
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

} // namespace

FailureOr<SmallVector<Value>> lowering::buildTopKResults(
    OpBuilder &b, Location loc, const TypeConverter &typeConverter,
    Type relayType, StringRef retType, Value data, bool isUnsigned,
    int64_t axis, bool ascending, ArrayRef<OpFoldResult> sizes) {
  SmallVector<Type> resultTypes;
  if (failed(typeConverter.convertType(relayType, resultTypes)))
    return failure();
  RankedTensorType valueType, indexType;
  if (retType == "both") {
    valueType = cast<RankedTensorType>(resultTypes[0]);
    indexType = cast<RankedTensorType>(resultTypes[1]);
  } else if (retType == "values") {
    valueType = cast<RankedTensorType>(resultTypes[0]);
  } else {
    indexType = cast<RankedTensorType>(resultTypes[0]);
  }
  Value ranks = buildRanks(b, loc, data, axis, ascending, isUnsigned);
  return gatherByRank(b, loc, data, ranks, axis, valueType, indexType, sizes);
}

void lowering::populateIndexSortPatterns(const TypeConverter &tc,
                                         RewritePatternSet &patterns) {
  patterns.add<ScanPattern<CumsumOp, false>, ScanPattern<CumprodOp, true>,
               SortPattern, ArgsortPattern, TopKPattern, SearchSortedPattern>(
      tc, patterns.getContext());
}
