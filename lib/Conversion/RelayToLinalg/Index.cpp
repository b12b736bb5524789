//===- Index.cpp - take, gather, gather_nd, scatter_*, one_hot ------------===//
//
// Gathers are one parallel linalg.generic over the result whose body reads
// `data` with tensor.extract at computed coordinates (IREE vectorises these
// as gathers). Scatters are one linalg.generic over `data`'s dims
// (parallel) and the update positions (reduction): each result element
// combines the updates aimed at it, starting from `data`; `update` keeps
// the one at the largest position (the last write, as Relay's sequential
// CPU kernel), so the result does not depend on the reduction order;
// `mean` (Relay's running (acc + u) / 2) does, and relies on linalg's
// reduction loops running in position order (no reassociation: IREE only
// splits reductions whose combiner it recognises).
// This costs |data| x |update positions| compares: fine for the embedding
// and small-update scatters models use, quadratic for huge ones.
// one_hot: a parallel linalg.generic comparing the index with the class.
// sparse_to_dense: a scatter into a fill of the default (the last of equal
// indices wins).
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
Value toIndex(OpBuilder &b, Location loc, Value v, bool isUnsigned) {
  if (isUnsigned)
    return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), v);
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
}

Value cIndex(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

Value dimOf(OpBuilder &b, Location loc, Value t, int64_t d) {
  return getValueOrCreateConstantIndexOp(b, loc, dimSizes(b, loc, t)[d]);
}

/// `i + n` when `i < 0` (a negative index counts from the end).
Value wrapNegative(OpBuilder &b, Location loc, Value i, Value n) {
  Value neg = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, i,
                                    cIndex(b, loc, 0));
  return arith::SelectOp::create(b, loc, neg,
                                 arith::AddIOp::create(b, loc, i, n), i);
}

/// A run-time check on the data's indices: `outOfRange(b, l, index)`, for
/// each element of `indices` (the body may read its position with
/// linalg.index), reduced to one flag that is asserted at the end of `op`'s
/// block (before its terminator). The host then waits for the flag when
/// the block's work is done anyway, not between two dispatches: an ONNX
/// Gather of BERT-tiny's token ids checked before the gather took the model
/// 0.56 -> 0.74 ms (local-task, batch 1, sequence 64), one host round trip
/// in the middle; at the end, +1.5%. The ops read clamped indices until
/// then, so nothing reads out of bounds.
void checkIndicesAtEnd(
    OpBuilder &b, Location loc, Operation *op, Value indices,
    function_ref<Value(OpBuilder &, Location, Value)> outOfRange,
    StringRef what) {
  auto type = cast<RankedTensorType>(indices.getType());
  int64_t rank = type.getRank();
  Type i32 = b.getI32Type();
  auto flagType = RankedTensorType::get({}, i32);
  Value init =
      filledTensor(b, loc, flagType, {},
                   arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0)));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::reduction);
  Value flag =
      linalg::GenericOp::create(
          b, loc, TypeRange{flagType}, ValueRange{indices}, ValueRange{init},
          ArrayRef<AffineMap>{b.getMultiDimIdentityMap(rank),
                              AffineMap::get(rank, 0, {}, b.getContext())},
          iterators,
          [&](OpBuilder &nb, Location l, ValueRange args) {
            Value bit =
                arith::ExtUIOp::create(nb, l, i32, outOfRange(nb, l, args[0]));
            linalg::YieldOp::create(
                nb, l, ValueRange{arith::OrIOp::create(nb, l, args[1], bit)});
          })
          .getResult(0);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(op->getBlock()->getTerminator());
  Value bad = tensor::ExtractOp::create(b, loc, flag, ValueRange{});
  Value ok = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::eq, bad,
      arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0)));
  runtimeCheck(b, loc, ok, op->getName().getStringRef(), what);
}

/// Whether index `i` is outside `[lo, n)` (`lo` 0, or `-n` where negative
/// indices count from the end).
Value outside(OpBuilder &b, Location l, Value i, Value lo, Value n) {
  return arith::OrIOp::create(
      b, l, arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, i, lo),
      arith::CmpIOp::create(b, l, arith::CmpIPredicate::sge, i, n));
}

/// Indices of `indices` (negative ones from the end) into a dim of size
/// `sizes[0]`; with several sizes (gather_nd, scatter_nd), index component
/// j (the position along indices' dim 0) into a dim of size `sizes[j]`. One
/// out of [-size, size) is the run-time error.
void checkWrappedIndicesAtEnd(OpBuilder &b, Location loc, Operation *op,
                              Value indices, ArrayRef<Value> sizes,
                              bool isUnsigned) {
  if (sizes.empty())
    return;
  checkIndicesAtEnd(
      b, loc, op, indices,
      [&](OpBuilder &nb, Location l, Value i) {
        Value size = sizes[0];
        if (sizes.size() > 1) {
          Value j = linalg::IndexOp::create(nb, l, 0);
          for (size_t k = 1; k < sizes.size(); ++k)
            size = arith::SelectOp::create(
                nb, l,
                arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq, j,
                                      cIndex(nb, l, k)),
                sizes[k], size);
        }
        return outside(nb, l, toIndex(nb, l, i, isUnsigned),
                       arith::SubIOp::create(nb, l, cIndex(nb, l, 0), size),
                       size);
      },
      "an index is out of range");
}

/// `i` clamped to `[0, n - 1]`.
Value clampIndex(OpBuilder &b, Location l, Value i, Value n) {
  return arith::MinSIOp::create(
      b, l, arith::MaxSIOp::create(b, l, i, cIndex(b, l, 0)),
      arith::SubIOp::create(b, l, n, cIndex(b, l, 1)));
}

struct TakePattern : OpConversionPattern<TakeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TakeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value data = adaptor.getData(), indices = adaptor.getIndices();
    auto resultType = signlessTensorType(cast<RankedTensorType>(op.getType()));
    bool isUnsigned = isUnsignedInt(op.getIndices().getType());
    int64_t axis = 0, batchDims = 0;
    auto dataType = cast<RankedTensorType>(data.getType());
    if (std::optional<int64_t> a = op.getAxis()) {
      FailureOr<int64_t> axisOr = normalizeAxis(*a, dataType.getRank());
      if (failed(axisOr))
        return rewriter.notifyMatchFailure(op, "axis out of range");
      axis = *axisOr;
      batchDims = op.getBatchDims();
    } else {
      if (dataType.getRank() == 0)
        return rewriter.notifyMatchFailure(op, "rank-0 data");
      ReassociationIndices all;
      for (int64_t d = 0; d < dataType.getRank(); ++d)
        all.push_back(d);
      if (dataType.getRank() != 1)
        data =
            tensor::CollapseShapeOp::create(rewriter, loc, data, ArrayRef{all});
      dataType = cast<RankedTensorType>(data.getType());
    }
    auto indicesType = cast<RankedTensorType>(indices.getType());
    int64_t irank = indicesType.getRank();
    if (batchDims < 0)
      batchDims += irank;
    int64_t outRank = resultType.getRank();
    int64_t span = irank - batchDims; // result dims taken from `indices`

    SmallVector<OpFoldResult> dataSizes = dimSizes(rewriter, loc, data);
    SmallVector<OpFoldResult> idxSizes = dimSizes(rewriter, loc, indices);
    SmallVector<OpFoldResult> sizes;
    for (int64_t d = 0; d < axis; ++d)
      sizes.push_back(dataSizes[d]);
    for (int64_t d = batchDims; d < irank; ++d)
      sizes.push_back(idxSizes[d]);
    for (int64_t d = axis + 1; d < dataType.getRank(); ++d)
      sizes.push_back(dataSizes[d]);

    SmallVector<AffineExpr> idxExprs;
    for (int64_t d = 0; d < batchDims; ++d)
      idxExprs.push_back(rewriter.getAffineDimExpr(d));
    for (int64_t d = 0; d < span; ++d)
      idxExprs.push_back(rewriter.getAffineDimExpr(axis + d));
    AffineMap idxMap =
        AffineMap::get(outRank, 0, idxExprs, rewriter.getContext());
    Value n = getValueOrCreateConstantIndexOp(rewriter, loc, dataSizes[axis]);
    StringRef mode = op.getMode();
    Type elementType = dataType.getElementType();
    if (mode == "nan" && !isa<FloatType>(elementType))
      return op.emitOpError() << "mode \"nan\" needs float data";

    Value result = buildMap(
        rewriter, loc, resultType, sizes, ValueRange{indices}, {idxMap},
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          Value i = toIndex(b, l, args[0], isUnsigned);
          Value zero = cIndex(b, l, 0);
          Value outOfRange;
          if (mode == "clip" || mode == "fast") {
            i = clampIndex(b, l, i, n);
          } else if (mode == "wrap") {
            i = wrapNegative(b, l, arith::RemSIOp::create(b, l, i, n), n);
          } else if (mode == "nan") {
            outOfRange = outside(b, l, i, zero, n);
            i = arith::SelectOp::create(b, l, outOfRange, zero, i);
          }
          SmallVector<Value> coords;
          for (int64_t d = 0; d < axis; ++d)
            coords.push_back(linalg::IndexOp::create(b, l, d));
          coords.push_back(i);
          for (int64_t d = axis + 1; d < dataType.getRank(); ++d)
            coords.push_back(
                linalg::IndexOp::create(b, l, axis + span + (d - axis - 1)));
          Value v = tensor::ExtractOp::create(b, l, data, coords);
          if (outOfRange) {
            auto ft = cast<FloatType>(elementType);
            Value nan = arith::ConstantOp::create(
                b, l,
                b.getFloatAttr(ft, APFloat::getNaN(ft.getFloatSemantics())));
            v = arith::SelectOp::create(b, l, outOfRange, nan, v);
          }
          return v;
        });
    if (mode == "fast")
      checkIndicesAtEnd(
          rewriter, loc, op, indices,
          [&](OpBuilder &b, Location l, Value i) {
            return outside(b, l, toIndex(b, l, i, isUnsigned), cIndex(b, l, 0),
                           n);
          },
          "an index is out of range (mode \"fast\")");
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct GatherPattern : OpConversionPattern<GatherOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value data = adaptor.getData(), indices = adaptor.getIndices();
    auto resultType = signlessTensorType(cast<RankedTensorType>(op.getType()));
    bool isUnsigned = isUnsignedInt(op.getIndices().getType());
    int64_t rank = resultType.getRank();
    FailureOr<int64_t> axisOr = normalizeAxis(op.getAxis(), rank);
    if (failed(axisOr))
      return rewriter.notifyMatchFailure(op, "axis out of range");
    int64_t axis = *axisOr;
    Value n = dimOf(rewriter, loc, data, axis);
    Value result = buildMap(
        rewriter, loc, resultType, dimSizes(rewriter, loc, indices),
        ValueRange{indices}, {rewriter.getMultiDimIdentityMap(rank)},
        [&](OpBuilder &b, Location l, ValueRange args) -> Value {
          SmallVector<Value> coords;
          for (int64_t d = 0; d < rank; ++d)
            coords.push_back(
                d == axis
                    ? clampIndex(
                          b, l,
                          wrapNegative(b, l, toIndex(b, l, args[0], isUnsigned),
                                       n),
                          n)
                    : linalg::IndexOp::create(b, l, d).getResult());
          return tensor::ExtractOp::create(b, l, data, coords);
        });
    checkWrappedIndicesAtEnd(rewriter, loc, op, indices, {n}, isUnsigned);
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct GatherNDPattern : OpConversionPattern<GatherNDOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GatherNDOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value data = adaptor.getData(), indices = adaptor.getIndices();
    auto resultType = signlessTensorType(cast<RankedTensorType>(op.getType()));
    bool isUnsigned = isUnsignedInt(op.getIndices().getType());
    auto indicesType = cast<RankedTensorType>(indices.getType());
    int64_t dataRank = cast<RankedTensorType>(data.getType()).getRank();
    int64_t m =
        op.getIndexRank() ? *op.getIndexRank() : indicesType.getDimSize(0);
    int64_t batchDims = op.getBatchDims();
    int64_t kdim = indicesType.getRank() - 1;
    SmallVector<OpFoldResult> dataSizes = dimSizes(rewriter, loc, data);
    SmallVector<OpFoldResult> idxSizes = dimSizes(rewriter, loc, indices);
    SmallVector<OpFoldResult> sizes(idxSizes.begin() + 1, idxSizes.end());
    for (int64_t d = m + batchDims; d < dataRank; ++d)
      sizes.push_back(dataSizes[d]);
    SmallVector<Value> n;
    for (int64_t j = 0; j < m; ++j)
      n.push_back(getValueOrCreateConstantIndexOp(rewriter, loc,
                                                  dataSizes[batchDims + j]));
    Value result = buildMap(
        rewriter, loc, resultType, sizes, ValueRange{}, {},
        [&](OpBuilder &b, Location l, ValueRange) -> Value {
          SmallVector<Value> y;
          for (int64_t d = 0; d < kdim; ++d)
            y.push_back(linalg::IndexOp::create(b, l, d));
          SmallVector<Value> coords(y.begin(), y.begin() + batchDims);
          for (int64_t j = 0; j < m; ++j) {
            SmallVector<Value> at{cIndex(b, l, j)};
            at.append(y);
            Value idx = tensor::ExtractOp::create(b, l, indices, at);
            coords.push_back(clampIndex(
                b, l, wrapNegative(b, l, toIndex(b, l, idx, isUnsigned), n[j]),
                n[j]));
          }
          for (int64_t d = m + batchDims; d < dataRank; ++d)
            coords.push_back(
                linalg::IndexOp::create(b, l, kdim + d - (m + batchDims)));
          return tensor::ExtractOp::create(b, l, data, coords);
        });
    checkWrappedIndicesAtEnd(rewriter, loc, op, indices, n, isUnsigned);
    rewriter.replaceOp(op, result);
    return success();
  }
};

enum class ScatterKind { Update, Add, Mul, Mean, Min, Max };

FailureOr<ScatterKind> scatterKind(Operation *op, StringRef name) {
  if (name == "update")
    return ScatterKind::Update;
  if (name == "add")
    return ScatterKind::Add;
  if (name == "mul")
    return ScatterKind::Mul;
  if (name == "mean")
    return ScatterKind::Mean;
  if (name == "min")
    return ScatterKind::Min;
  if (name == "max")
    return ScatterKind::Max;
  return op->emitOpError() << "reduction \"" << name
                           << "\" is not supported by the lowering";
}

/// The scatter reduction body: `acc` combined with `upd` where `match`;
/// for `update` also the position, kept when it is the latest.
SmallVector<Value> scatterCombine(OpBuilder &b, Location l, ScatterKind kind,
                                  Value match, Value upd, Value acc, Value pos,
                                  Value accPos, bool isUnsigned) {
  bool isFloat = isa<FloatType>(acc.getType());
  Value combined;
  switch (kind) {
  case ScatterKind::Update: {
    Value later =
        arith::CmpIOp::create(b, l, arith::CmpIPredicate::sgt, pos, accPos);
    Value take = arith::AndIOp::create(b, l, match, later);
    return {arith::SelectOp::create(b, l, take, upd, acc),
            arith::SelectOp::create(b, l, take, pos, accPos)};
  }
  case ScatterKind::Add:
    combined = isFloat ? arith::AddFOp::create(b, l, acc, upd).getResult()
                       : arith::AddIOp::create(b, l, acc, upd).getResult();
    break;
  case ScatterKind::Mul:
    combined = isFloat ? arith::MulFOp::create(b, l, acc, upd).getResult()
                       : arith::MulIOp::create(b, l, acc, upd).getResult();
    break;
  case ScatterKind::Mean: {
    // Relay's (TVM 0.19) running mean: (acc + upd) / 2 per update in
    // position order, so data/2^n + sum_i upd_i/2^(n-i) for n updates.
    Value two = scalarConst(b, l, acc.getType(), 2.0);
    combined =
        arith::DivFOp::create(b, l, arith::AddFOp::create(b, l, acc, upd), two);
    break;
  }
  case ScatterKind::Min:
    combined = isFloat ? arith::MinimumFOp::create(b, l, acc, upd).getResult()
               : isUnsigned
                   ? arith::MinUIOp::create(b, l, acc, upd).getResult()
                   : arith::MinSIOp::create(b, l, acc, upd).getResult();
    break;
  case ScatterKind::Max:
    combined = isFloat ? arith::MaximumFOp::create(b, l, acc, upd).getResult()
               : isUnsigned
                   ? arith::MaxUIOp::create(b, l, acc, upd).getResult()
                   : arith::MaxSIOp::create(b, l, acc, upd).getResult();
    break;
  }
  return {arith::SelectOp::create(b, l, match, combined, acc)};
}

/// The linalg.generic of a scatter: `rank` parallel dims over `data` then
/// `numReduced` reduction dims; `inputs` read through `inputMaps`; `body`
/// returns (match, update value, position as i64) for the point.
using ScatterPoint = std::function<std::tuple<Value, Value, Value>(
    OpBuilder &, Location, ValueRange /*inputs*/)>;
Value buildScatter(OpBuilder &b, Location loc, Value data, int64_t numReduced,
                   ValueRange inputs, ArrayRef<AffineMap> inputMaps,
                   ScatterKind kind, bool isUnsigned,
                   const ScatterPoint &point) {
  auto dataType = cast<RankedTensorType>(data.getType());
  int64_t rank = dataType.getRank();
  int64_t loops = rank + numReduced;
  SmallVector<AffineExpr> outExprs;
  for (int64_t d = 0; d < rank; ++d)
    outExprs.push_back(b.getAffineDimExpr(d));
  AffineMap outMap = AffineMap::get(loops, 0, outExprs, b.getContext());
  SmallVector<AffineMap> maps(inputMaps);
  SmallVector<Value> outs{data};
  SmallVector<Type> outTypes{dataType};
  maps.push_back(outMap);
  if (kind == ScatterKind::Update) {
    auto posType = RankedTensorType::get(dataType.getShape(), b.getI64Type());
    outs.push_back(filledTensor(b, loc, posType, dimSizes(b, loc, data),
                                scalarConst(b, loc, b.getI64Type(), -1)));
    outTypes.push_back(posType);
    maps.push_back(outMap);
  }
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  iterators.append(numReduced, utils::IteratorType::reduction);
  auto generic = linalg::GenericOp::create(
      b, loc, outTypes, inputs, outs, maps, iterators,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        auto [match, upd, pos] = point(nb, l, args.take_front(inputs.size()));
        Value acc = args[inputs.size()];
        Value accPos =
            kind == ScatterKind::Update ? args[inputs.size() + 1] : Value();
        linalg::YieldOp::create(nb, l,
                                scatterCombine(nb, l, kind, match, upd, acc,
                                               pos, accPos, isUnsigned));
      });
  return generic.getResult(0);
}

struct ScatterElementsPattern : OpConversionPattern<ScatterElementsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ScatterElementsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<ScatterKind> kind = scatterKind(op, op.getReduction());
    if (failed(kind))
      return failure();
    if (*kind == ScatterKind::Mean &&
        !isa<FloatType>(elementTypeOf(op.getData().getType())))
      return op.emitOpError()
             << "reduction \"mean\" of integer data is not supported (Relay "
                "defines it as a float running mean)";
    Value data = adaptor.getData(), indices = adaptor.getIndices(),
          updates = adaptor.getUpdates();
    bool isUnsigned = isUnsignedInt(op.getIndices().getType());
    bool dataUnsigned = isUnsignedInt(op.getData().getType());
    int64_t rank = cast<RankedTensorType>(data.getType()).getRank();
    FailureOr<int64_t> axisOr = normalizeAxis(op.getAxis(), rank);
    if (failed(axisOr))
      return rewriter.notifyMatchFailure(op, "axis out of range");
    int64_t axis = *axisOr;
    SmallVector<Value> updSizes;
    for (int64_t d = 0; d < rank; ++d)
      updSizes.push_back(dimOf(rewriter, loc, updates, d));
    Value n = dimOf(rewriter, loc, data, axis);
    // Carries the extent of the update positions along `axis`.
    auto carrierType = RankedTensorType::get(
        {cast<RankedTensorType>(updates.getType()).getDimSize(axis)},
        rewriter.getI8Type());
    Value carrier =
        emptyTensor(rewriter, loc, carrierType, {OpFoldResult(updSizes[axis])});
    AffineMap carrierMap = AffineMap::get(
        rank + 1, 0, {rewriter.getAffineDimExpr(rank)}, rewriter.getContext());
    Value result = buildScatter(
        rewriter, loc, data, 1, ValueRange{carrier}, {carrierMap}, *kind,
        dataUnsigned, [&](OpBuilder &b, Location l, ValueRange) {
          Value k = linalg::IndexOp::create(b, l, rank);
          Value zero = cIndex(b, l, 0);
          Value valid = arith::ConstantOp::create(b, l, b.getBoolAttr(true));
          SmallVector<Value> at;
          for (int64_t d = 0; d < rank; ++d) {
            if (d == axis) {
              at.push_back(k);
              continue;
            }
            Value o = linalg::IndexOp::create(b, l, d);
            Value inside = arith::CmpIOp::create(
                b, l, arith::CmpIPredicate::slt, o, updSizes[d]);
            valid = arith::AndIOp::create(b, l, valid, inside);
            at.push_back(arith::SelectOp::create(b, l, inside, o, zero));
          }
          Value idx = wrapNegative(
              b, l,
              toIndex(b, l, tensor::ExtractOp::create(b, l, indices, at),
                      isUnsigned),
              n);
          Value hit =
              arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, idx,
                                    linalg::IndexOp::create(b, l, axis));
          Value match = arith::AndIOp::create(b, l, valid, hit);
          Value upd = tensor::ExtractOp::create(b, l, updates, at);
          Value pos = arith::IndexCastOp::create(b, l, b.getI64Type(), k);
          return std::make_tuple(match, upd, pos);
        });
    // an index out of [-n, n) would match no element (an update lost)
    checkWrappedIndicesAtEnd(rewriter, loc, op, indices, {n}, isUnsigned);
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct ScatterNDPattern : OpConversionPattern<ScatterNDOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ScatterNDOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<ScatterKind> kind = scatterKind(op, op.getMode());
    if (failed(kind))
      return failure();
    Value data = adaptor.getData(), indices = adaptor.getIndices(),
          updates = adaptor.getUpdates();
    bool isUnsigned = isUnsignedInt(op.getIndices().getType());
    bool dataUnsigned = isUnsignedInt(op.getData().getType());
    auto indicesType = cast<RankedTensorType>(indices.getType());
    int64_t rank = cast<RankedTensorType>(data.getType()).getRank();
    int64_t m = indicesType.getDimSize(0);
    int64_t ky = indicesType.getRank() - 1;
    SmallVector<Value> ySizes;
    for (int64_t d = 0; d < ky; ++d)
      ySizes.push_back(dimOf(rewriter, loc, indices, d + 1));
    SmallVector<Value> n; // data's dims the index components address
    for (int64_t j = 0; j < m; ++j)
      n.push_back(dimOf(rewriter, loc, data, j));
    // updates[y..., x_M...]
    SmallVector<AffineExpr> updExprs;
    for (int64_t d = 0; d < ky; ++d)
      updExprs.push_back(rewriter.getAffineDimExpr(rank + d));
    for (int64_t d = m; d < rank; ++d)
      updExprs.push_back(rewriter.getAffineDimExpr(d));
    AffineMap updMap =
        AffineMap::get(rank + ky, 0, updExprs, rewriter.getContext());
    Value result = buildScatter(
        rewriter, loc, data, ky, ValueRange{updates}, {updMap}, *kind,
        dataUnsigned, [&](OpBuilder &b, Location l, ValueRange args) {
          SmallVector<Value> y;
          for (int64_t d = 0; d < ky; ++d)
            y.push_back(linalg::IndexOp::create(b, l, rank + d));
          Value match = arith::ConstantOp::create(b, l, b.getBoolAttr(true));
          for (int64_t j = 0; j < m; ++j) {
            SmallVector<Value> at{cIndex(b, l, j)};
            at.append(y);
            Value idx = wrapNegative(
                b, l,
                toIndex(b, l, tensor::ExtractOp::create(b, l, indices, at),
                        isUnsigned),
                n[j]);
            match = arith::AndIOp::create(
                b, l, match,
                arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq, idx,
                                      linalg::IndexOp::create(b, l, j)));
          }
          Value pos = cIndex(b, l, 0);
          for (int64_t d = 0; d < ky; ++d)
            pos = arith::AddIOp::create(
                b, l, arith::MulIOp::create(b, l, pos, ySizes[d]), y[d]);
          pos = arith::IndexCastOp::create(b, l, b.getI64Type(), pos);
          return std::make_tuple(match, args[0], pos);
        });
    checkWrappedIndicesAtEnd(rewriter, loc, op, indices, n, isUnsigned);
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct OneHotPattern : OpConversionPattern<OneHotOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OneHotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = signlessTensorType(cast<RankedTensorType>(op.getType()));
    int64_t axis = op.getAxis() == -1 ? resultType.getRank() - 1 : op.getAxis();
    SmallVector<OpFoldResult> sizes =
        dimSizes(rewriter, loc, adaptor.getIndices());
    sizes.insert(sizes.begin() + axis, rewriter.getIndexAttr(op.getDepth()));
    rewriter.replaceOp(op,
                       buildOneHot(rewriter, loc, adaptor.getIndices(),
                                   isUnsignedInt(op.getIndices().getType()),
                                   adaptor.getOnValue(), adaptor.getOffValue(),
                                   axis, resultType, sizes));
    return success();
  }
};

/// sparse_to_dense: out[p] = values[i] for the last i with indices[i] == p
/// (a reduction over the N indices in position order), else the default.
struct SparseToDensePattern : OpConversionPattern<SparseToDenseOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SparseToDenseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value indices = adaptor.getSparseIndices(),
          values = adaptor.getSparseValues();
    auto relayType = cast<RankedTensorType>(op.getType());
    auto resultType = signlessTensorType(relayType);
    int64_t rank = resultType.getRank();
    bool isUnsigned = isUnsignedInt(op.getSparseIndices().getType());
    auto idxType = cast<RankedTensorType>(indices.getType());
    Type idxElt = idxType.getElementType();
    // indices as [N, rank]: [N] and 0-d (a rank-1 output) gain unit dims
    if (idxType.getRank() == 0)
      indices = tensor::ExpandShapeOp::create(
          rewriter, loc, RankedTensorType::get({1, 1}, idxElt), indices,
          ArrayRef<ReassociationIndices>{});
    else if (idxType.getRank() == 1)
      indices = tensor::ExpandShapeOp::create(
          rewriter, loc,
          RankedTensorType::get({idxType.getDimSize(0), 1}, idxElt), indices,
          ArrayRef<ReassociationIndices>{{0, 1}},
          ArrayRef<OpFoldResult>{dimSizes(rewriter, loc, indices)[0],
                                 rewriter.getIndexAttr(1)});
    OpFoldResult n = dimSizes(rewriter, loc, indices)[0];
    auto valType = cast<RankedTensorType>(values.getType());
    if (valType.getRank() == 0) { // one value for every index: [N]
      auto vecType = RankedTensorType::get(
          {cast<RankedTensorType>(indices.getType()).getDimSize(0)},
          valType.getElementType());
      values =
          linalg::BroadcastOp::create(rewriter, loc, values,
                                      emptyTensor(rewriter, loc, vecType, {n}),
                                      ArrayRef<int64_t>{0})
              .getResult()[0];
    }
    SmallVector<OpFoldResult> sizes;
    for (int64_t d : resultType.getShape())
      sizes.push_back(rewriter.getIndexAttr(d));
    Value init =
        filledFrom(rewriter, loc, relayType, sizes, adaptor.getDefaultValue(),
                   elementTypeOf(op.getDefaultValue().getType()));
    SmallVector<AffineExpr> outExprs;
    for (int64_t d = 0; d < rank; ++d)
      outExprs.push_back(rewriter.getAffineDimExpr(d));
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    iterators.push_back(utils::IteratorType::reduction);
    MLIRContext *ctx = rewriter.getContext();
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{resultType}, ValueRange{values},
        ValueRange{init},
        {AffineMap::get(rank + 1, 0, {rewriter.getAffineDimExpr(rank)}, ctx),
         AffineMap::get(rank + 1, 0, outExprs, ctx)},
        iterators, [&](OpBuilder &b, Location l, ValueRange args) {
          Value i = linalg::IndexOp::create(b, l, rank);
          Value hit = arith::ConstantIntOp::create(b, l, 1, 1);
          for (int64_t k = 0; k < rank; ++k) {
            Value at = tensor::ExtractOp::create(
                b, l, indices, ValueRange{i, cIndex(b, l, k)});
            hit = arith::AndIOp::create(
                b, l, hit,
                arith::CmpIOp::create(b, l, arith::CmpIPredicate::eq,
                                      toIndex(b, l, at, isUnsigned),
                                      linalg::IndexOp::create(b, l, k)));
          }
          linalg::YieldOp::create(
              b, l,
              ValueRange{arith::SelectOp::create(b, l, hit, args[0], args[1])});
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};
} // namespace

Value lowering::buildOneHot(OpBuilder &b, Location loc, Value indices,
                            bool isUnsigned, Value onValue, Value offValue,
                            int64_t axis, RankedTensorType resultType,
                            ArrayRef<OpFoldResult> sizes) {
  int64_t outRank = resultType.getRank();
  SmallVector<AffineExpr> idxExprs;
  for (int64_t d = 0; d < outRank; ++d)
    if (d != axis)
      idxExprs.push_back(b.getAffineDimExpr(d));
  AffineMap scalarMap = AffineMap::get(outRank, 0, {}, b.getContext());
  return buildMap(
      b, loc, resultType, sizes, ValueRange{indices, onValue, offValue},
      {AffineMap::get(outRank, 0, idxExprs, b.getContext()), scalarMap,
       scalarMap},
      [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
        Value hit = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq,
                                          toIndex(nb, l, args[0], isUnsigned),
                                          linalg::IndexOp::create(nb, l, axis));
        return arith::SelectOp::create(nb, l, hit, args[1], args[2]);
      });
}

void relay::populateIndexToLinalgPatterns(const TypeConverter &tc,
                                          RewritePatternSet &patterns) {
  patterns
      .add<TakePattern, GatherPattern, GatherNDPattern, ScatterElementsPattern,
           ScatterNDPattern, OneHotPattern, SparseToDensePattern>(
          tc, patterns.getContext());
  populateIndexSortPatterns(tc, patterns);
}
