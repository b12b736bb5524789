//===- Reduce.cpp - reductions --------------------------------------------===//
//
// sum/mean/max/min/prod/all/any: linalg.reduce over the reduced dims with
// the op's combiner and identity; `mean` then divides by the number of
// reduced elements (from tensor.dim when dims are `?`).
// argmax/argmin: one linalg.generic with reduction iterators carrying
// (value, int32 index); the index is row-major over the reduced dims and
// ties are broken by index (first, or last with select_last_index), so the
// result does not depend on the order IREE reduces in.
// variance: linalg.generic (data - mean)^2 (mean broadcast), summed, then
// divided by N (N - 1 when unbiased).
// `keepdims` re-inserts unit dims with tensor.expand_shape.
//
//===----------------------------------------------------------------------===//
#include "DynamicUtils.h"
#include "Utils.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

namespace {

/// The dims `op` reduces: `axis` (all when absent or empty), complemented
/// by `exclude`; sorted and unique. Failure if an axis is out of range.
FailureOr<SmallVector<int64_t>> reducedDims(Operation *op, int64_t rank) {
  auto axis = op->getAttrOfType<DenseI64ArrayAttr>("axis");
  auto exclude = op->getAttrOfType<BoolAttr>("exclude");
  bool all = !axis || axis.empty();
  llvm::SmallDenseSet<int64_t> listed;
  if (!all) {
    FailureOr<SmallVector<int64_t>> axes =
        normalizeAxes(axis.asArrayRef(), rank);
    if (failed(axes))
      return failure();
    listed.insert(axes->begin(), axes->end());
  }
  SmallVector<int64_t> dims;
  for (int64_t d = 0; d < rank; ++d) {
    if (all) {
      dims.push_back(d);
      continue;
    }
    bool inList = listed.contains(d);
    if (exclude && exclude.getValue() ? !inList : inList)
      dims.push_back(d);
  }
  return dims;
}

/// `result` (the reduction of `data` over `dims`) with unit dims put back
/// when `resultType` keeps them.
Value finishReduce(OpBuilder &b, Location loc, Value result, Value data,
                   ArrayRef<int64_t> dims, RankedTensorType resultType) {
  int64_t rank = cast<RankedTensorType>(data.getType()).getRank();
  if (resultType.getRank() != rank || dims.empty())
    return result;
  SmallVector<OpFoldResult> sizes = dimSizes(b, loc, data);
  for (int64_t d : dims)
    sizes[d] = b.getIndexAttr(1);
  return expandTo(b, loc, result, resultType, unitDimReassociation(rank, dims),
                  sizes);
}

/// The shape and sizes of `input` without `dims`.
RankedTensorType droppedType(OpBuilder &b, Location loc, Value input,
                             ArrayRef<int64_t> dims, Type elementType,
                             SmallVectorImpl<OpFoldResult> &sizes) {
  auto type = cast<RankedTensorType>(input.getType());
  SmallVector<int64_t> shape;
  SmallVector<OpFoldResult> inSizes = dimSizes(b, loc, input);
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (llvm::is_contained(dims, d))
      continue;
    shape.push_back(type.getDimSize(d));
    sizes.push_back(inSizes[d]);
  }
  return RankedTensorType::get(shape, elementType);
}

enum class Combiner { Sum, Prod, Max, Min, And, Or };

Value identityOf(OpBuilder &b, Location loc, Combiner kind, Type type,
                 bool isUnsigned) {
  switch (kind) {
  case Combiner::Sum:
  case Combiner::Or:
    return scalarConst(b, loc, type, 0.0);
  case Combiner::Prod:
  case Combiner::And:
    return arith::ConstantOp::create(
        b, loc,
        isa<FloatType>(type) ? TypedAttr(b.getFloatAttr(type, 1.0))
                             : TypedAttr(b.getIntegerAttr(type, 1)));
  case Combiner::Max:
    return lowestConst(b, loc, type, isUnsigned);
  case Combiner::Min: {
    if (auto ft = dyn_cast<FloatType>(type))
      return arith::ConstantOp::create(
          b, loc,
          b.getFloatAttr(ft, APFloat::getInf(ft.getFloatSemantics(), false)));
    unsigned width = type.getIntOrFloatBitWidth();
    APInt highest = isUnsigned ? APInt::getMaxValue(width)
                               : APInt::getSignedMaxValue(width);
    return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, highest));
  }
  }
  llvm_unreachable("combiner");
}

Value combine(OpBuilder &b, Location loc, Combiner kind, Value x, Value y,
              bool isUnsigned) {
  bool isFloat = isa<FloatType>(x.getType());
  switch (kind) {
  case Combiner::Sum:
    return isFloat ? arith::AddFOp::create(b, loc, x, y).getResult()
                   : arith::AddIOp::create(b, loc, x, y).getResult();
  case Combiner::Prod:
    return isFloat ? arith::MulFOp::create(b, loc, x, y).getResult()
                   : arith::MulIOp::create(b, loc, x, y).getResult();
  case Combiner::Max:
    if (isFloat)
      return arith::MaximumFOp::create(b, loc, x, y);
    return isUnsigned ? arith::MaxUIOp::create(b, loc, x, y).getResult()
                      : arith::MaxSIOp::create(b, loc, x, y).getResult();
  case Combiner::Min:
    if (isFloat)
      return arith::MinimumFOp::create(b, loc, x, y);
    return isUnsigned ? arith::MinUIOp::create(b, loc, x, y).getResult()
                      : arith::MinSIOp::create(b, loc, x, y).getResult();
  case Combiner::And:
    return arith::AndIOp::create(b, loc, x, y);
  case Combiner::Or:
    return arith::OrIOp::create(b, loc, x, y);
  }
  llvm_unreachable("combiner");
}

/// linalg.reduce of `input` over `dims` (sorted, non-empty) with `kind`.
/// A reduction of every dim of a rank >= 2 input runs in two steps (all but
/// the last dim, then the last): IREE 3.13 fuses a one-step full reduction
/// of a broadcast product into a contraction with a rank-0 accumulator,
/// which its llvm-cpu vectorizer rejects ("vector.contract op invalid
/// accumulator/result vector shape").
Value buildReduce(OpBuilder &b, Location loc, Value input,
                  ArrayRef<int64_t> dims, Combiner kind, bool isUnsigned) {
  int64_t rank = cast<RankedTensorType>(input.getType()).getRank();
  if (rank >= 2 && static_cast<int64_t>(dims.size()) == rank) {
    // the last dim first, then the leading ones
    Value partial = buildReduce(b, loc, input, {rank - 1}, kind, isUnsigned);
    SmallVector<int64_t> leading(dims.drop_back());
    return buildReduce(b, loc, partial, leading, kind, isUnsigned);
  }
  auto inputType = cast<RankedTensorType>(input.getType());
  Type elementType = inputType.getElementType();
  SmallVector<OpFoldResult> sizes;
  RankedTensorType resultType =
      droppedType(b, loc, input, dims, elementType, sizes);
  Value init = filledTensor(b, loc, resultType, sizes,
                            identityOf(b, loc, kind, elementType, isUnsigned));
  FillReduction fillKind = kind == Combiner::Sum    ? FillReduction::Sum
                           : kind == Combiner::Prod ? FillReduction::Prod
                                                    : FillReduction::Idempotent;
  if (Value folded = reduceFill(b, loc, input, dims, fillKind, resultType,
                                sizes, isUnsigned))
    return folded;
  if (Value folded = reduceBroadcast(b, loc, input, dims, fillKind, isUnsigned,
                                     [&](Value v, ArrayRef<int64_t> ds) {
                                       return buildReduce(b, loc, v, ds, kind,
                                                          isUnsigned);
                                     }))
    return folded;
  auto reduce = linalg::ReduceOp::create(
      b, loc, ValueRange{input}, ValueRange{init}, dims,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        linalg::YieldOp::create(
            nb, nloc, combine(nb, nloc, kind, args[0], args[1], isUnsigned));
      });
  return reduce.getResult(0);
}

template <typename OpTy, Combiner kind, bool isMean = false>
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
    FailureOr<SmallVector<int64_t>> dimsOr = reducedDims(op, rank);
    if (failed(dimsOr))
      return rewriter.notifyMatchFailure(op, "axis out of range");
    SmallVector<int64_t> dims = std::move(*dimsOr);
    if (dims.empty()) {
      rewriter.replaceOp(op, data);
      return success();
    }
    Value result = buildReduce(rewriter, loc, data, dims, kind, isUnsigned);
    if (isMean) {
      Value count =
          indexToScalar(rewriter, loc, countOf(rewriter, loc, data, dims),
                        resultType.getElementType(), isUnsigned);
      result = divideByScalar(rewriter, loc, result, count, isUnsigned);
    }
    rewriter.replaceOp(
        op, finishReduce(rewriter, loc, result, data, dims, resultType));
    return success();
  }
};

/// Row-major linear index of the iteration point over `dims` (sizes
/// `sizes`, index values computed outside the region).
Value linearIndex(OpBuilder &b, Location loc, ArrayRef<int64_t> dims,
                  ArrayRef<Value> sizes) {
  Value linear;
  for (auto [d, size] : llvm::zip(dims, sizes)) {
    Value i = linalg::IndexOp::create(b, loc, d);
    linear = linear
                 ? arith::AddIOp::create(
                       b, loc, arith::MulIOp::create(b, loc, linear, size), i)
                       .getResult()
                 : i;
  }
  return linear;
}

template <typename OpTy, bool isMax>
struct ArgReducePattern : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpConversionPattern<OpTy>::OpAdaptor;

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value data = adaptor.getData();
    auto dataType = cast<RankedTensorType>(data.getType());
    int64_t rank = dataType.getRank();
    Type elementType = dataType.getElementType();
    auto resultType = signlessTensorType(cast<RankedTensorType>(op.getType()));
    Type i32 = rewriter.getI32Type();
    bool isUnsigned = isUnsignedInt(op.getData().getType());
    bool last = op.getSelectLastIndex();
    FailureOr<SmallVector<int64_t>> dimsOr = reducedDims(op, rank);
    if (failed(dimsOr))
      return rewriter.notifyMatchFailure(op, "axis out of range");
    SmallVector<int64_t> dims = std::move(*dimsOr);
    SmallVector<OpFoldResult> sizes;
    RankedTensorType valueType =
        droppedType(rewriter, loc, data, dims, elementType, sizes);
    auto indexType = RankedTensorType::get(valueType.getShape(), i32);
    if (dims.empty()) {
      Value zeros = filledTensor(rewriter, loc, indexType, sizes,
                                 scalarConst(rewriter, loc, i32, 0));
      rewriter.replaceOp(op, zeros);
      return success();
    }
    SmallVector<Value> reducedSizes;
    for (int64_t d : dims) {
      reducedSizes.push_back(getValueOrCreateConstantIndexOp(
          rewriter, loc, dimSizes(rewriter, loc, data)[d]));
      // (a static size 0 is refused by the typing rule)
      if (dataType.isDynamicDim(d))
        runtimeCheck(rewriter, loc,
                     cmp(rewriter, loc, arith::CmpIPredicate::ne,
                         reducedSizes.back(), indexConst(rewriter, loc, 0)),
                     op->getName().getStringRef(),
                     "an empty axis has no index of an extreme (dim " +
                         std::to_string(d) + " is 0)");
    }
    Value valueInit =
        filledTensor(rewriter, loc, valueType, sizes,
                     isMax ? identityOf(rewriter, loc, Combiner::Max,
                                        elementType, isUnsigned)
                           : identityOf(rewriter, loc, Combiner::Min,
                                        elementType, isUnsigned));
    Value indexInit =
        filledTensor(rewriter, loc, indexType, sizes,
                     arith::ConstantOp::create(
                         rewriter, loc,
                         rewriter.getI32IntegerAttr(
                             last ? -1 : std::numeric_limits<int32_t>::max())));
    SmallVector<AffineExpr> outExprs;
    SmallVector<utils::IteratorType> iterators;
    for (int64_t d = 0; d < rank; ++d) {
      bool reduced = llvm::is_contained(dims, d);
      iterators.push_back(reduced ? utils::IteratorType::reduction
                                  : utils::IteratorType::parallel);
      if (!reduced)
        outExprs.push_back(rewriter.getAffineDimExpr(d));
    }
    AffineMap outMap = AffineMap::get(rank, 0, outExprs, rewriter.getContext());
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{valueType, indexType}, ValueRange{data},
        ValueRange{valueInit, indexInit},
        {rewriter.getMultiDimIdentityMap(rank), outMap, outMap}, iterators,
        [&](OpBuilder &b, Location l, ValueRange args) {
          Value x = args[0], best = args[1], bestIndex = args[2];
          Value index = arith::IndexCastOp::create(
              b, l, i32, linearIndex(b, l, dims, reducedSizes));
          auto [better, equal] = compareScalars(b, l, x, best,
                                                /*greater=*/isMax, isUnsigned);
          Value tieWins = arith::CmpIOp::create(
              b, l,
              last ? arith::CmpIPredicate::sgt : arith::CmpIPredicate::slt,
              index, bestIndex);
          Value take = arith::OrIOp::create(
              b, l, better, arith::AndIOp::create(b, l, equal, tieWins));
          linalg::YieldOp::create(
              b, l,
              ValueRange{
                  arith::SelectOp::create(b, l, take, x, best),
                  arith::SelectOp::create(b, l, take, index, bestIndex)});
        });
    rewriter.replaceOp(op, finishReduce(rewriter, loc, generic.getResult(1),
                                        data, dims, resultType));
    return success();
  }
};

struct VariancePattern : OpConversionPattern<VarianceOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(VarianceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value data = adaptor.getData(), mean = adaptor.getMean();
    auto dataType = cast<RankedTensorType>(data.getType());
    auto meanType = cast<RankedTensorType>(mean.getType());
    int64_t rank = dataType.getRank();
    auto resultType = signlessTensorType(cast<RankedTensorType>(op.getType()));
    bool isUnsigned = isUnsignedInt(op.getData().getType());
    FailureOr<SmallVector<int64_t>> dimsOr = reducedDims(op, rank);
    if (failed(dimsOr))
      return rewriter.notifyMatchFailure(op, "axis out of range");
    SmallVector<int64_t> dims = std::move(*dimsOr);
    // (data - mean)^2, mean read at index 0 along its unit dims.
    SmallVector<AffineExpr> meanExprs;
    for (int64_t d = 0; d < rank; ++d)
      meanExprs.push_back(meanType.getDimSize(d) == 1 &&
                                  dataType.getDimSize(d) != 1
                              ? rewriter.getAffineConstantExpr(0)
                              : rewriter.getAffineDimExpr(d));
    Value squares =
        buildMap(rewriter, loc, dataType, dimSizes(rewriter, loc, data),
                 ValueRange{data, mean},
                 {rewriter.getMultiDimIdentityMap(rank),
                  AffineMap::get(rank, 0, meanExprs, rewriter.getContext())},
                 [](OpBuilder &b, Location l, ValueRange args) -> Value {
                   if (isa<FloatType>(args[0].getType())) {
                     Value diff = arith::SubFOp::create(b, l, args[0], args[1]);
                     return arith::MulFOp::create(b, l, diff, diff);
                   }
                   Value diff = arith::SubIOp::create(b, l, args[0], args[1]);
                   return arith::MulIOp::create(b, l, diff, diff);
                 });
    Value sum = dims.empty() ? squares
                             : buildReduce(rewriter, loc, squares, dims,
                                           Combiner::Sum, isUnsigned);
    Value count = countOf(rewriter, loc, data, dims);
    if (op.getUnbiased())
      count = arith::SubIOp::create(
          rewriter, loc, count,
          arith::ConstantIndexOp::create(rewriter, loc, 1));
    Value divisor = indexToScalar(rewriter, loc, count,
                                  resultType.getElementType(), isUnsigned);
    Value result = divideByScalar(rewriter, loc, sum, divisor, isUnsigned);
    rewriter.replaceOp(
        op, finishReduce(rewriter, loc, result, data, dims, resultType));
    return success();
  }
};
} // namespace

void relay::populateReduceToLinalgPatterns(const TypeConverter &tc,
                                           RewritePatternSet &patterns) {
  patterns.add<
      ReducePattern<SumOp, Combiner::Sum>,
      ReducePattern<MeanOp, Combiner::Sum, true>,
      ReducePattern<MaxOp, Combiner::Max>, ReducePattern<MinOp, Combiner::Min>,
      ReducePattern<ProdOp, Combiner::Prod>,
      ReducePattern<AllOp, Combiner::And>, ReducePattern<AnyOp, Combiner::Or>,
      ArgReducePattern<ArgMaxOp, true>, ArgReducePattern<ArgMinOp, false>,
      VariancePattern>(tc, patterns.getContext());
}
