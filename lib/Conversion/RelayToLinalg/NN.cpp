//===- NN.cpp - nn.* operators outside convs, pools and norms -------------===//
//
// nn.dense / nn.matmul / nn.batch_matmul: linalg.matmul /
// linalg.batch_matmul with the transposes in their indexing maps (a
// broadcast batch is a map without the batch dim). nn.bias_add,
// nn.leaky_relu, nn.prelu, nn.gelu: parallel linalg.generics. nn.dropout:
// the data and a ones mask (inference). nn.pad: tensor.pad for "constant",
// a gather-style linalg.generic (tensor.extract at clamped or mirrored
// indices) for "edge"/"reflect"; nn.upsampling likewise.
// nn.depth_to_space / nn.space_to_depth: expand_shape, linalg.transpose,
// collapse_shape. nn.batch_flatten: collapse_shape.
//
//===----------------------------------------------------------------------===//
#include "DynamicUtils.h"
#include "SymbolicSizes.h"
#include "Utils.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

namespace {

//===----------------------------------------------------------------------===//
// nn.dense: data · weightᵀ as linalg.matmul with a transposed-B map
//===----------------------------------------------------------------------===//

/// lhs [M, K] · weightᵀ ([N, K]) as a linalg.matmul with a transposed-B map.
Value denseMatmul(OpBuilder &b, Location loc, Value lhs, Value weight,
                  OpFoldResult units, Type elementType, bool isUnsigned) {
  auto lhsType = cast<RankedTensorType>(lhs.getType());
  auto weightType = cast<RankedTensorType>(weight.getType());
  int64_t m = lhsType.getDimSize(0);
  auto mmType =
      RankedTensorType::get({m, weightType.getDimSize(0)}, elementType);
  SmallVector<OpFoldResult> mmSizes = {
      ShapedType::isDynamic(m)
          ? OpFoldResult(tensor::DimOp::create(b, loc, lhs, 0).getResult())
          : b.getIndexAttr(m),
      units};
  Value zero = scalarConst(b, loc, elementType, 0.0);
  Value init = filledTensor(b, loc, mmType, mmSizes, zero);
  auto matmul = linalg::MatmulOp::create(
      b, loc, TypeRange{mmType}, ValueRange{lhs, weight}, ValueRange{init});
  MLIRContext *ctx = b.getContext();
  AffineExpr dm, dn, dk;
  bindDims(ctx, dm, dn, dk);
  matmul.setIndexingMapsAttr(b.getAffineMapArrayAttr(
      {AffineMap::get(3, 0, {dm, dk}, ctx), AffineMap::get(3, 0, {dn, dk}, ctx),
       AffineMap::get(3, 0, {dm, dn}, ctx)}));
  if (isUnsigned)
    matmul.setCastAttr(
        linalg::TypeFnAttr::get(ctx, linalg::TypeFn::cast_unsigned));
  return matmul.getResult(0);
}

/// Rows up to which a dense with a run-time row count runs a static
/// kernel: IREE 3.13 vectorizes a matmul's `?` rows in blocks of 8 and runs
/// the rest as scalar code, so one row (batch 1: an RNN step, a decoder
/// step) took 38 us where the static 1x128x512 matmul takes 6 us.
constexpr int64_t kFewRows = 8;

/// Weights (K * N elements) from which that pays outside a loop: the scf.if
/// splits IREE's command buffer in three, a few microseconds, which a small
/// matmul does not win back. In a loop body (a self-recursive function)
/// relay-unswitch-loops decides the branch once, before the loop, so there
/// any weight takes the few-row path (the dynamic LSTM with hidden size 32,
/// batch 1, 16 steps: 0.178 -> 0.121 ms).
constexpr int64_t kFewRowsMinWeight = int64_t(1) << 15;

/// Whether `op` is in a function that calls itself (a loop body before
/// relay-eliminate-recursion); `memo` caches the answer per function.
bool inSelfRecursiveFunction(Operation *op,
                             llvm::DenseMap<Operation *, bool> &memo) {
  auto fn = op->getParentOfType<func::FuncOp>();
  if (!fn)
    return false;
  auto [it, inserted] = memo.try_emplace(fn, false);
  if (inserted)
    it->second = fn.walk([&](func::CallOp call) {
                     return call.getCallee() == fn.getSymName()
                                ? WalkResult::interrupt()
                                : WalkResult::advance();
                   }).wasInterrupted();
  return it->second;
}
/// A dense whose data is [?, K] (a run-time batch) and whose weight has at
/// least kFewRowsMinWeight elements (any, `inLoop`): one row (batch 1) runs a
/// static 1-row kernel, up to kFewRows rows are padded to kFewRows for a static
/// kernel (scf.if on the row count, a host value), more rows take the dynamic
/// matmul.
Value denseFewRows(OpBuilder &b, Location loc, Value lhs, Value weight,
                   OpFoldResult units, Type elementType, bool isUnsigned,
                   bool inLoop) {
  auto lhsType = cast<RankedTensorType>(lhs.getType());
  auto weightType = cast<RankedTensorType>(weight.getType());
  int64_t k = lhsType.getDimSize(1), n = weightType.getDimSize(0);
  if (ShapedType::isDynamic(k) || ShapedType::isDynamic(n) ||
      (k * n < kFewRowsMinWeight && !inLoop))
    return denseMatmul(b, loc, lhs, weight, units, elementType, isUnsigned);
  Value rows = tensor::DimOp::create(b, loc, lhs, 0);
  auto resultType =
      RankedTensorType::get({ShapedType::kDynamic, n}, elementType);
  // `static` rows of lhs (zero-padded past `rows`) times the weight, cut to
  // `rows`
  auto staticRows = [&](OpBuilder &b, int64_t count) -> Value {
    auto rowsType = RankedTensorType::get({count, k}, lhsType.getElementType());
    Value in;
    if (count == 1) {
      in = castTo(b, loc, lhs, rowsType);
    } else {
      Value pad = arith::SubIOp::create(
          b, loc, arith::ConstantIndexOp::create(b, loc, count), rows);
      in = tensor::PadOp::create(
          b, loc, rowsType, lhs,
          ArrayRef<OpFoldResult>{b.getIndexAttr(0), b.getIndexAttr(0)},
          ArrayRef<OpFoldResult>{pad, b.getIndexAttr(0)},
          scalarConst(b, loc, lhsType.getElementType(), 0.0));
    }
    Value full = denseMatmul(b, loc, in, weight, b.getIndexAttr(n), elementType,
                             isUnsigned);
    if (count == 1)
      return castTo(b, loc, full, resultType);
    return tensor::ExtractSliceOp::create(
        b, loc, resultType, full,
        ArrayRef<OpFoldResult>{b.getIndexAttr(0), b.getIndexAttr(0)},
        ArrayRef<OpFoldResult>{rows, b.getIndexAttr(n)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1)});
  };
  auto rowsAtMost = [&](OpBuilder &b, arith::CmpIPredicate pred, int64_t v) {
    return arith::CmpIOp::create(b, loc, pred, rows,
                                 arith::ConstantIndexOp::create(b, loc, v));
  };
  // (every branch yields `rows` x n: said so for the ops after it)
  return withSizes(
      b, loc,
      ifElse(
          b, loc, rowsAtMost(b, arith::CmpIPredicate::eq, 1), resultType,
          [&](OpBuilder &b) { return staticRows(b, 1); },
          [&](OpBuilder &b) {
            return ifElse(
                b, loc, rowsAtMost(b, arith::CmpIPredicate::ule, kFewRows),
                resultType,
                [&](OpBuilder &b) { return staticRows(b, kFewRows); },
                [&](OpBuilder &b) {
                  return denseMatmul(b, loc, lhs, weight, units, elementType,
                                     isUnsigned);
                });
          }),
      {OpFoldResult(rows), b.getIndexAttr(n)});
}

struct DensePattern : OpConversionPattern<DenseOp> {
  using OpConversionPattern::OpConversionPattern;
  /// per function: whether it is a loop body (inSelfRecursiveFunction)
  mutable llvm::DenseMap<Operation *, bool> loopMemo;
  LogicalResult
  matchAndRewrite(DenseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value data = adaptor.getData(), weight = adaptor.getWeight();
    auto dataType = cast<RankedTensorType>(data.getType());
    auto weightType = cast<RankedTensorType>(weight.getType());
    RankedTensorType resultType = resultTensorType(op);
    int64_t rank = dataType.getRank();
    SmallVector<OpFoldResult> dataSizes = dimSizes(rewriter, loc, data);
    OpFoldResult units = dimSizes(rewriter, loc, weight)[0];
    checkSameSize(rewriter, loc, data, rank - 1, weight, 1,
                  op->getName().getStringRef(),
                  "the data's last size is not the weight's input size");

    // A vector: weight · data as linalg.matvec (no unit dim: IREE 3.13
    // folds a slice + expand_shape into a rank-increasing extract_slice that
    // fails to verify, fuzz finding K2).
    if (rank == 1 && !isUnsignedInt(op.getData().getType())) {
      Value zero = scalarConst(rewriter, loc, resultType.getElementType(), 0.0);
      Value init = filledTensor(rewriter, loc, resultType, {units}, zero);
      rewriter.replaceOp(op, linalg::MatvecOp::create(
                                 rewriter, loc, TypeRange{resultType},
                                 ValueRange{weight, data}, ValueRange{init})
                                 .getResult(0));
      return success();
    }

    // data as [M, K]: leading dims collapsed (or a unit M added).
    Value lhs = data;
    int64_t m = 1;
    for (int64_t d = 0; d + 1 < rank; ++d)
      m = ShapedType::isDynamic(m) || dataType.isDynamicDim(d)
              ? ShapedType::kDynamic
              : m * dataType.getDimSize(d);
    int64_t k = dataType.getDimSize(rank - 1);
    auto lhsType = RankedTensorType::get({m, k}, dataType.getElementType());
    if (rank == 1) {
      lhs = expandTo(rewriter, loc, data, lhsType, {{0, 1}},
                     {rewriter.getIndexAttr(1), dataSizes[0]});
    } else if (rank > 2) {
      ReassociationIndices lead;
      for (int64_t d = 0; d + 1 < rank; ++d)
        lead.push_back(d);
      lhs = tensor::CollapseShapeOp::create(
          rewriter, loc, lhsType, data,
          ArrayRef<ReassociationIndices>{lead, {rank - 1}});
    }

    bool isUnsigned = isUnsignedInt(op.getData().getType());
    Value result = rank == 2 && ShapedType::isDynamic(m)
                       ? denseFewRows(rewriter, loc, lhs, weight, units,
                                      resultType.getElementType(), isUnsigned,
                                      inSelfRecursiveFunction(op, loopMemo))
                       : denseMatmul(rewriter, loc, lhs, weight, units,
                                     resultType.getElementType(), isUnsigned);

    if (rank != 2) {
      SmallVector<OpFoldResult> outSizes(dataSizes.begin(),
                                         dataSizes.end() - 1);
      outSizes.push_back(units);
      ReassociationIndices lead;
      for (int64_t d = 0; d + 1 < std::max<int64_t>(rank, 2); ++d)
        lead.push_back(d);
      if (rank == 1)
        result = tensor::CollapseShapeOp::create(
            rewriter, loc, resultType, result,
            ArrayRef<ReassociationIndices>{{0, 1}});
      else
        result = expandTo(rewriter, loc, result, resultType, {lead, {rank - 1}},
                          outSizes);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// nn.bias_add
//===----------------------------------------------------------------------===//

struct BiasAddPattern : OpConversionPattern<BiasAddOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BiasAddOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = resultTensorType(op);
    int64_t rank = type.getRank();
    FailureOr<int64_t> axisOr = normalizeAxis(op.getAxis(), rank);
    if (failed(axisOr))
      return rewriter.notifyMatchFailure(op, "axis out of range");
    int64_t axis = *axisOr;
    checkSameSize(rewriter, loc, adaptor.getData(), axis, adaptor.getBias(), 0,
                  op->getName().getStringRef(),
                  "the bias size is not the data's size on the axis");
    Value result = buildMap(
        rewriter, loc, type, dimSizes(rewriter, loc, adaptor.getData()),
        {adaptor.getData(), adaptor.getBias()},
        {rewriter.getMultiDimIdentityMap(rank),
         AffineMap::get(rank, 0, rewriter.getAffineDimExpr(axis))},
        [](OpBuilder &b, Location l, ValueRange args) -> Value {
          if (isa<FloatType>(args[0].getType()))
            return arith::AddFOp::create(b, l, args[0], args[1]);
          return arith::AddIOp::create(b, l, args[0], args[1]);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// nn.batch_flatten
//===----------------------------------------------------------------------===//

struct BatchFlattenPattern : OpConversionPattern<BatchFlattenOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BatchFlattenOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType = resultTensorType(op);
    Value data = adaptor.getData();
    int64_t rank = cast<RankedTensorType>(data.getType()).getRank();
    if (rank == 2) {
      rewriter.replaceOp(op, data);
      return success();
    }
    if (rank == 1) { // (n) -> (n, 1)
      SmallVector<OpFoldResult> sizes = dimSizes(rewriter, op.getLoc(), data);
      sizes.push_back(rewriter.getIndexAttr(1));
      rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
          op, resultType, data, ArrayRef<ReassociationIndices>{{0, 1}}, sizes);
      return success();
    }
    ReassociationIndices rest;
    for (int64_t d = 1; d < rank; ++d)
      rest.push_back(d);
    rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(
        op, resultType, data, ArrayRef<ReassociationIndices>{{0}, rest});
    return success();
  }
};

Value cstIdx(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

//===----------------------------------------------------------------------===//
// nn.matmul
//===----------------------------------------------------------------------===//

/// nn.matmul's forms, one pattern each (disjoint, so equal benefits):
/// - Matmul2D (no transpose_a): the leading dims of A collapse into M (or
///   a unit M is added), linalg.matmul, then expanded back;
/// - MatmulTransposedA2D (transpose_a, A [K, M]): linalg.matmul reading A
///   through a transposed map;
/// - MatmulTransposedABatch (transpose_a, A [d..., K, M]): the leading dims
///   as a batch, linalg.batch_matmul with B broadcast (a map without the
///   batch dim).
/// B's transpose is always in its indexing map.
enum class MatmulForm { Matmul2D, TransposedA2D, TransposedABatch };

/// What every form of one nn.matmul reads: the operands, the result, the
/// leading dims of A (all but the last one, or two with transpose_a) that
/// collapse into M (without transpose_a) or a batch (with it).
struct MatmulParts {
  Location loc;
  MLIRContext *ctx;
  bool ta, tb, isUnsigned;
  Value a, bm, zero;
  RankedTensorType aType, bType, resultType;
  int64_t rank, leadDim;
  ReassociationIndices leadGroup;
  SmallVector<OpFoldResult> aSizes;
  OpFoldResult units;

  /// The map of B with the contraction dim `k` and column dim `n`.
  AffineMap bMap(unsigned numDims, AffineExpr n, AffineExpr k) const {
    return tb ? AffineMap::get(numDims, 0, {n, k}, ctx)
              : AffineMap::get(numDims, 0, {k, n}, ctx);
  }
  /// The size of the collapsed leading dims of `lhs` (dim 0).
  OpFoldResult leadSize(OpBuilder &b, Value lhs) const {
    return ShapedType::isDynamic(leadDim)
               ? OpFoldResult(tensor::DimOp::create(b, loc, lhs, 0).getResult())
               : b.getIndexAttr(leadDim);
  }
};

/// Matmul2D with A a vector: matvec / vecmat (no unit dim: IREE 3.13 folds
/// a slice + expand_shape into a rank-increasing extract_slice that fails
/// to verify; the gradient of a dense of a vector, random-program fuzzer
/// seed 5 program 224).
Value lowerVectorMatmul(OpBuilder &b, const MatmulParts &p) {
  Value init = filledTensor(b, p.loc, p.resultType, {p.units}, p.zero);
  if (p.tb)
    return linalg::MatvecOp::create(b, p.loc, TypeRange{p.resultType},
                                    ValueRange{p.bm, p.a}, ValueRange{init})
        .getResult(0);
  return linalg::VecmatOp::create(b, p.loc, TypeRange{p.resultType},
                                  ValueRange{p.a, p.bm}, ValueRange{init})
      .getResult(0);
}

/// linalg.matmul of `lhs` ([M, K], or [K, M] when `transposedA`) and B
/// into a zero `type` of `sizes`; B's transpose is in its map.
Value matmulInto(OpBuilder &b, const MatmulParts &p, Value lhs,
                 RankedTensorType type, ArrayRef<OpFoldResult> sizes,
                 bool transposedA) {
  Value init = filledTensor(b, p.loc, type, sizes, p.zero);
  auto mm = linalg::MatmulOp::create(b, p.loc, TypeRange{type},
                                     ValueRange{lhs, p.bm}, ValueRange{init});
  AffineExpr d0, d1, d2;
  bindDims(p.ctx, d0, d1, d2); // (m, n, k)
  AffineMap aMap = transposedA ? AffineMap::get(3, 0, {d2, d0}, p.ctx)
                               : AffineMap::get(3, 0, {d0, d2}, p.ctx);
  mm.setIndexingMapsAttr(b.getAffineMapArrayAttr(
      {aMap, p.bMap(3, d1, d2), AffineMap::get(3, 0, {d0, d1}, p.ctx)}));
  setUnsignedCast(mm, p.isUnsigned);
  return mm.getResult(0);
}

/// Matmul2D (no transpose_a): the leading dims of A collapse into M (or a
/// unit M is added), linalg.matmul, then expanded back.
Value lowerMatmul2D(OpBuilder &b, const MatmulParts &p) {
  if (p.rank == 1 && !p.isUnsigned)
    return lowerVectorMatmul(b, p);
  Location loc = p.loc;
  int64_t rank = p.rank, k = p.aType.getDimSize(rank - 1);
  auto lhsType =
      RankedTensorType::get({p.leadDim, k}, p.aType.getElementType());
  Value lhs = p.a;
  if (rank == 1)
    lhs = expandTo(b, loc, p.a, lhsType, {{0, 1}},
                   {b.getIndexAttr(1), p.aSizes[0]});
  else if (rank > 2)
    lhs = tensor::CollapseShapeOp::create(
        b, loc, lhsType, p.a,
        ArrayRef<ReassociationIndices>{p.leadGroup, {rank - 1}});
  OpFoldResult m = p.leadSize(b, lhs);
  auto mmType =
      RankedTensorType::get({p.leadDim, p.bType.getDimSize(p.tb ? 0 : 1)},
                            p.resultType.getElementType());
  Value result = matmulInto(b, p, lhs, mmType, {m, p.units}, false);
  if (rank == 1)
    return tensor::CollapseShapeOp::create(
        b, loc, p.resultType, result, ArrayRef<ReassociationIndices>{{0, 1}});
  if (rank <= 2)
    return result;
  SmallVector<OpFoldResult> outSizes(p.aSizes.begin(), p.aSizes.end() - 1);
  outSizes.push_back(p.units);
  return expandTo(b, loc, result, p.resultType, {p.leadGroup, {rank - 1}},
                  outSizes);
}

/// MatmulTransposedA2D (transpose_a, A [K, M]): linalg.matmul reading A
/// through a transposed map.
Value lowerTransposedA2D(OpBuilder &b, const MatmulParts &p) {
  return matmulInto(b, p, p.a, p.resultType, {p.aSizes[1], p.units}, true);
}

/// MatmulTransposedABatch (transpose_a, A [d..., K, M]): the leading dims
/// as a batch, linalg.batch_matmul with B broadcast (a map without the
/// batch dim).
Value lowerTransposedABatch(OpBuilder &b, const MatmulParts &p) {
  Location loc = p.loc;
  int64_t rank = p.rank;
  int64_t k = p.aType.getDimSize(rank - 2), mdim = p.aType.getDimSize(rank - 1);
  auto lhsType =
      RankedTensorType::get({p.leadDim, k, mdim}, p.aType.getElementType());
  Value lhs = p.a;
  if (rank > 3)
    lhs = tensor::CollapseShapeOp::create(
        b, loc, lhsType, p.a,
        ArrayRef<ReassociationIndices>{p.leadGroup, {rank - 2}, {rank - 1}});
  OpFoldResult batch = p.leadSize(b, lhs);
  auto bmmType =
      RankedTensorType::get({p.leadDim, mdim, p.bType.getDimSize(p.tb ? 0 : 1)},
                            p.resultType.getElementType());
  Value init = filledTensor(b, loc, bmmType,
                            {batch, p.aSizes[rank - 1], p.units}, p.zero);
  auto bmm = linalg::BatchMatmulOp::create(
      b, loc, TypeRange{bmmType}, ValueRange{lhs, p.bm}, ValueRange{init});
  AffineExpr d0, d1, d2, d3;
  bindDims(p.ctx, d0, d1, d2, d3); // (b, m, n, k)
  bmm.setIndexingMapsAttr(b.getAffineMapArrayAttr(
      {AffineMap::get(4, 0, {d0, d3, d1}, p.ctx), p.bMap(4, d2, d3),
       AffineMap::get(4, 0, {d0, d1, d2}, p.ctx)}));
  setUnsignedCast(bmm, p.isUnsigned);
  Value result = bmm.getResult(0);
  if (rank <= 3)
    return result;
  SmallVector<OpFoldResult> outSizes(p.aSizes.begin(), p.aSizes.end() - 2);
  outSizes.push_back(p.aSizes[rank - 1]);
  outSizes.push_back(p.units);
  return expandTo(b, loc, result, p.resultType,
                  {p.leadGroup, {rank - 2}, {rank - 1}}, outSizes);
}

template <MatmulForm form>
struct MatmulPattern : OpConversionPattern<MatmulOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    bool ta = op.getTransposeA(), tb = op.getTransposeB();
    Value a = adaptor.getTensorA(), bm = adaptor.getTensorB();
    auto aType = cast<RankedTensorType>(a.getType());
    int64_t rank = aType.getRank();
    MatmulForm actual = !ta         ? MatmulForm::Matmul2D
                        : rank == 2 ? MatmulForm::TransposedA2D
                                    : MatmulForm::TransposedABatch;
    if (actual != form)
      return rewriter.notifyMatchFailure(
          op, "another form (transpose_a and the rank of A decide)");

    Location loc = op.getLoc();
    RankedTensorType resultType = resultTensorType(op);
    SmallVector<OpFoldResult> aSizes = dimSizes(rewriter, loc, a);
    SmallVector<OpFoldResult> bSizes = dimSizes(rewriter, loc, bm);
    checkSameSize(rewriter, loc, a, ta ? rank - 2 : rank - 1, bm, tb ? 1 : 0,
                  op->getName().getStringRef(), "the contraction sizes differ");
    Value zero = scalarConst(rewriter, loc, resultType.getElementType(), 0.0);
    int64_t lead = ta ? rank - 2 : rank - 1;
    int64_t leadDim = 1;
    ReassociationIndices leadGroup;
    for (int64_t d = 0; d < lead; ++d) {
      leadDim = ShapedType::isDynamic(leadDim) || aType.isDynamicDim(d)
                    ? ShapedType::kDynamic
                    : leadDim * aType.getDimSize(d);
      leadGroup.push_back(d);
    }
    MatmulParts parts{loc,
                      rewriter.getContext(),
                      ta,
                      tb,
                      isUnsignedInt(op.getTensorA().getType()),
                      a,
                      bm,
                      zero,
                      aType,
                      cast<RankedTensorType>(bm.getType()),
                      resultType,
                      rank,
                      leadDim,
                      leadGroup,
                      aSizes,
                      bSizes[tb ? 0 : 1]};
    Value result;
    if constexpr (form == MatmulForm::Matmul2D)
      result = lowerMatmul2D(rewriter, parts);
    else if constexpr (form == MatmulForm::TransposedA2D)
      result = lowerTransposedA2D(rewriter, parts);
    else
      result = lowerTransposedABatch(rewriter, parts);
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// nn.batch_matmul
//===----------------------------------------------------------------------===//

/// batch_matmul operands whose batch sizes are known only at run time and
/// not proven equal (SymbolicSizes.h): a run-time batch of 1 broadcasts, so
/// both are copied to the common batch (checked: each 1 or the same), a
/// size-1 batch repeated. Nothing when the batches need no run-time work.
std::optional<std::pair<Value, Value>>
repeatRunTimeBatch(OpBuilder &b, Location loc, Value x, Value y,
                   RankedTensorType resultType, StringRef opName) {
  using Pred = arith::CmpIPredicate;
  auto xt = cast<RankedTensorType>(x.getType()),
       yt = cast<RankedTensorType>(y.getType());
  int64_t xb = xt.getDimSize(0), yb = yt.getDimSize(0);
  bool xDyn = ShapedType::isDynamic(xb), yDyn = ShapedType::isDynamic(yb);
  if ((!xDyn && !yDyn) || (!xDyn && xb == 1) || (!yDyn && yb == 1))
    return std::nullopt; // static, or a static 1 broadcast by the maps
  if (provablyEqualDims(x, 0, y, 0))
    return std::nullopt;
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value bx = tensor::DimOp::create(b, loc, x, 0),
        by = tensor::DimOp::create(b, loc, y, 0);
  Value batch =
      arith::SelectOp::create(b, loc, cmp(b, loc, Pred::eq, bx, one), by, bx);
  StringLiteral what =
      "the batch sizes do not broadcast (each must be 1 or the same)";
  Value xOne = checkOneOrSame(b, loc, bx, batch, opName, what),
        yOne = checkOneOrSame(b, loc, by, batch, opName, what);
  auto repeat = [&](Value v, Value isOne) -> Value {
    auto t = cast<RankedTensorType>(v.getType());
    auto type = RankedTensorType::get(
        {resultType.getDimSize(0), t.getDimSize(1), t.getDimSize(2)},
        t.getElementType());
    SmallVector<OpFoldResult> sizes = dimSizes(b, loc, v);
    sizes[0] = batch;
    return buildMap(b, loc, type, sizes, {}, {},
                    [&](OpBuilder &nb, Location nl, ValueRange) -> Value {
                      return extractBroadcast(nb, nl, v, {isOne},
                                              type.getShape());
                    });
  };
  Value rx = repeat(x, xOne);
  return std::make_pair(rx, repeat(y, yOne));
}

struct BatchMatmulPattern : OpConversionPattern<BatchMatmulOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BatchMatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Value x = adaptor.getX(), y = adaptor.getY();
    auto xType = cast<RankedTensorType>(x.getType());
    auto yType = cast<RankedTensorType>(y.getType());
    RankedTensorType resultType = resultTensorType(op);
    bool ta = op.getTransposeA(), tb = op.getTransposeB();
    bool isUnsigned = isUnsignedInt(op.getX().getType());
    StringRef name = op->getName().getStringRef();
    checkSameSize(rewriter, loc, x, ta ? 1 : 2, y, tb ? 2 : 1, name,
                  "the contraction sizes differ");
    if (std::optional<std::pair<Value, Value>> repeated =
            repeatRunTimeBatch(rewriter, loc, x, y, resultType, name)) {
      std::tie(x, y) = *repeated;
      xType = cast<RankedTensorType>(x.getType());
      yType = cast<RankedTensorType>(y.getType());
    }
    SmallVector<OpFoldResult> xs = dimSizes(rewriter, loc, x);
    SmallVector<OpFoldResult> ys = dimSizes(rewriter, loc, y);
    // (b, m, n, k)
    AffineExpr b, m, n, k;
    bindDims(ctx, b, m, n, k);
    bool batchOne = resultType.getDimSize(0) == 1;
    // `e` is the operand's map ({b, rows, cols}); `transposed` whether its
    // matrix is stored transposed relative to linalg's (m, k) / (k, n).
    auto operand = [&](Value v, RankedTensorType t, SmallVector<AffineExpr> e,
                       bool transposed) -> std::pair<Value, AffineMap> {
      // A static batch of 1 against a larger batch broadcasts: drop it. A
      // broadcast operand must be in linalg's order, so a transposed one is
      // transposed first.
      if (t.getDimSize(0) == 1 && !batchOne) {
        auto type = RankedTensorType::get({t.getDimSize(1), t.getDimSize(2)},
                                          t.getElementType());
        Value c = tensor::CollapseShapeOp::create(
            rewriter, loc, type, v,
            ArrayRef<ReassociationIndices>{{0, 1}, {2}});
        SmallVector<AffineExpr> dims(ArrayRef<AffineExpr>(e).drop_front());
        if (transposed) {
          c = transposeDims(rewriter, loc, c, {1, 0});
          std::swap(dims[0], dims[1]);
        }
        return {c, AffineMap::get(4, 0, dims, ctx)};
      }
      return {v, AffineMap::get(4, 0, e, ctx)};
    };
    auto [lhs, lhsMap] = operand(x, xType,
                                 ta ? SmallVector<AffineExpr>{b, k, m}
                                    : SmallVector<AffineExpr>{b, m, k},
                                 ta);
    auto [rhs, rhsMap] = operand(y, yType,
                                 tb ? SmallVector<AffineExpr>{b, n, k}
                                    : SmallVector<AffineExpr>{b, k, n},
                                 tb);
    OpFoldResult batch = xType.getDimSize(0) == 1 ? ys[0] : xs[0];
    SmallVector<OpFoldResult> sizes = {batch, xs[ta ? 2 : 1], ys[tb ? 1 : 2]};
    Value init = filledTensor(
        rewriter, loc, resultType, sizes,
        scalarConst(rewriter, loc, resultType.getElementType(), 0.0));
    auto bmm =
        linalg::BatchMatmulOp::create(rewriter, loc, TypeRange{resultType},
                                      ValueRange{lhs, rhs}, ValueRange{init});
    bmm.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(
        {lhsMap, rhsMap, AffineMap::get(4, 0, {b, m, n}, ctx)}));
    setUnsignedCast(bmm, isUnsigned);
    rewriter.replaceOp(op, bmm.getResult(0));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Activations
//===----------------------------------------------------------------------===//

template <typename OpTy> LogicalResult requireFloatData(OpTy op, Value data) {
  if (!isa<FloatType>(elementTypeOf(data.getType())))
    return op.emitError() << "not supported yet: " << op->getName()
                          << " on integers";
  return success();
}

struct LeakyReluPattern : OpConversionPattern<LeakyReluOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LeakyReluOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value data = adaptor.getData();
    if (failed(requireFloatData(op, data)))
      return failure();
    Location loc = op.getLoc();
    RankedTensorType type = resultTensorType(op);
    double alpha = op.getAlpha().convertToDouble();
    rewriter.replaceOp(
        op, buildMap(rewriter, loc, type, dimSizes(rewriter, loc, data), {data},
                     {rewriter.getMultiDimIdentityMap(type.getRank())},
                     [&](OpBuilder &b, Location l, ValueRange args) -> Value {
                       Type t = args[0].getType();
                       Value pos = arith::CmpFOp::create(
                           b, l, arith::CmpFPredicate::OGT, args[0],
                           scalarConst(b, l, t, 0.0));
                       Value neg = arith::MulFOp::create(
                           b, l, args[0], scalarConst(b, l, t, alpha));
                       return arith::SelectOp::create(b, l, pos, args[0], neg);
                     }));
    return success();
  }
};

struct PReluPattern : OpConversionPattern<PReluOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(PReluOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value data = adaptor.getData();
    if (failed(requireFloatData(op, data)))
      return failure();
    Location loc = op.getLoc();
    RankedTensorType type = resultTensorType(op);
    int64_t rank = type.getRank();
    FailureOr<int64_t> axisOr = normalizeAxis(op.getAxis(), rank);
    if (failed(axisOr))
      return rewriter.notifyMatchFailure(op, "axis out of range");
    int64_t axis = *axisOr;
    rewriter.replaceOp(
        op, buildMap(rewriter, loc, type, dimSizes(rewriter, loc, data),
                     {data, adaptor.getAlpha()},
                     {rewriter.getMultiDimIdentityMap(rank),
                      AffineMap::get(rank, 0, rewriter.getAffineDimExpr(axis))},
                     [&](OpBuilder &b, Location l, ValueRange args) -> Value {
                       Value pos = arith::CmpFOp::create(
                           b, l, arith::CmpFPredicate::OGT, args[0],
                           scalarConst(b, l, args[0].getType(), 0.0));
                       Value neg =
                           arith::MulFOp::create(b, l, args[0], args[1]);
                       return arith::SelectOp::create(b, l, pos, args[0], neg);
                     }));
    return success();
  }
};

struct GeluPattern : OpConversionPattern<GeluOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GeluOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value data = adaptor.getData();
    if (failed(requireFloatData(op, data)))
      return failure();
    Location loc = op.getLoc();
    RankedTensorType type = resultTensorType(op);
    rewriter.replaceOp(
        op, buildMap(rewriter, loc, type, dimSizes(rewriter, loc, data), {data},
                     {rewriter.getMultiDimIdentityMap(type.getRank())},
                     [&](OpBuilder &b, Location l, ValueRange args) -> Value {
                       Type t = args[0].getType();
                       Value scaled = arith::MulFOp::create(
                           b, l, args[0], scalarConst(b, l, t, M_SQRT1_2));
                       Value cdf = arith::AddFOp::create(
                           b, l, scalarConst(b, l, t, 1.0),
                           math::ErfOp::create(b, l, scaled));
                       Value half = arith::MulFOp::create(
                           b, l, args[0], scalarConst(b, l, t, 0.5));
                       return arith::MulFOp::create(b, l, half, cdf);
                     }));
    return success();
  }
};

struct DropoutPattern : OpConversionPattern<DropoutOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DropoutOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value data = adaptor.getData().front();
    auto type = cast<RankedTensorType>(data.getType());
    Value ones =
        filledTensor(rewriter, loc, type, dimSizes(rewriter, loc, data),
                     scalarConst(rewriter, loc, type.getElementType(), 1.0));
    rewriter.replaceOpWithMultiple(op, {SmallVector<Value>{data, ones}});
    return success();
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// nn.pad
//===----------------------------------------------------------------------===//

Value lowering::buildPadded(OpBuilder &b, Location loc, Value data,
                            Value padValue, ArrayRef<OpFoldResult> before,
                            ArrayRef<OpFoldResult> after, StringRef mode,
                            RankedTensorType resultType,
                            ArrayRef<OpFoldResult> outSizes, StringRef opName) {
  int64_t rank = resultType.getRank();
  Value zero = cstIdx(b, loc, 0), one = cstIdx(b, loc, 1);
  auto value = [&](OpFoldResult v) {
    return getValueOrCreateConstantIndexOp(b, loc, v);
  };
  SmallVector<OpFoldResult> inSizes = dimSizes(b, loc, data);
  if (mode == "constant") {
    Value fill = tensor::ExtractOp::create(b, loc, padValue, ValueRange{});
    auto nonNegative = [](OpFoldResult v) {
      std::optional<int64_t> c = getConstantIntValue(v);
      return c && *c >= 0;
    };
    if (llvm::all_of(before, nonNegative) && llvm::all_of(after, nonNegative))
      return tensor::PadOp::create(b, loc, resultType, data, before, after,
                                   fill);
    // widths known only at run time: a negative one crops first
    SmallVector<OpFoldResult> offsets, sizes, strides, lo, hi;
    Value fits = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
    for (int64_t d = 0; d < rank; ++d) {
      Value bw = value(before[d]), aw = value(after[d]);
      Value cropBefore = arith::MaxSIOp::create(
          b, loc, arith::SubIOp::create(b, loc, zero, bw), zero);
      Value cropAfter = arith::MaxSIOp::create(
          b, loc, arith::SubIOp::create(b, loc, zero, aw), zero);
      Value kept = arith::SubIOp::create(
          b, loc, arith::SubIOp::create(b, loc, value(inSizes[d]), cropBefore),
          cropAfter);
      fits = arith::AndIOp::create(
          b, loc, fits,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, kept, zero));
      offsets.push_back(cropBefore);
      sizes.push_back(kept);
      strides.push_back(b.getIndexAttr(1));
      lo.push_back(arith::MaxSIOp::create(b, loc, bw, zero).getResult());
      hi.push_back(arith::MaxSIOp::create(b, loc, aw, zero).getResult());
    }
    cf::AssertOp::create(b, loc, fits,
                         (Twine(opName) +
                          ": negative pad widths crop more than the dim" +
                          sourceSuffix(loc))
                             .str());
    Value cropped =
        tensor::ExtractSliceOp::create(b, loc, data, offsets, sizes, strides);
    Value padded = tensor::PadOp::create(b, loc, Type(), cropped, lo, hi, fill);
    return castTo(b, loc, padded, resultType);
  }
  // edge: clamped; reflect: mirrored without repeating the border, as often
  // as the width needs (numpy's `reflect`)
  bool reflect = mode == "reflect";
  return buildMap(
      b, loc, resultType, outSizes, {}, {},
      [&](OpBuilder &nb, Location l, ValueRange) -> Value {
        SmallVector<Value> idx;
        for (int64_t d = 0; d < rank; ++d) {
          Value n = value(inSizes[d]);
          Value last = arith::SubIOp::create(nb, l, n, one);
          Value i = arith::SubIOp::create(
              nb, l, linalg::IndexOp::create(nb, l, d), value(before[d]));
          if (reflect) {
            Value period = arith::MaxSIOp::create(
                nb, l, arith::AddIOp::create(nb, l, last, last), one);
            Value m = arith::RemSIOp::create(nb, l, i, period);
            m = arith::SelectOp::create(
                nb, l,
                arith::CmpIOp::create(nb, l, arith::CmpIPredicate::slt, m,
                                      zero),
                arith::AddIOp::create(nb, l, m, period), m);
            i = arith::SelectOp::create(
                nb, l,
                arith::CmpIOp::create(nb, l, arith::CmpIPredicate::slt, m, n),
                m, arith::SubIOp::create(nb, l, period, m));
          } else {
            i = arith::MinSIOp::create(
                nb, l, arith::MaxSIOp::create(nb, l, i, zero), last);
          }
          idx.push_back(i);
        }
        return tensor::ExtractOp::create(nb, l, data, idx);
      });
}

namespace {

struct PadPattern : OpConversionPattern<PadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(PadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value data = adaptor.getData();
    int64_t rank = cast<RankedTensorType>(data.getType()).getRank();
    ArrayRef<int64_t> width = op.getPadWidth();
    RankedTensorType resultType = resultTensorType(op);
    SmallVector<OpFoldResult> inSizes = dimSizes(rewriter, loc, data);
    SmallVector<OpFoldResult> before, after;
    for (int64_t d = 0; d < rank; ++d) {
      before.push_back(rewriter.getIndexAttr(width[2 * d]));
      after.push_back(rewriter.getIndexAttr(width[2 * d + 1]));
    }
    SmallVector<OpFoldResult> outSizes =
        resultSizes(rewriter, resultType, [&](int64_t d) -> OpFoldResult {
          return arith::AddIOp::create(
                     rewriter, loc,
                     getValueOrCreateConstantIndexOp(rewriter, loc, inSizes[d]),
                     cstIdx(rewriter, loc, width[2 * d] + width[2 * d + 1]))
              .getResult();
        });
    rewriter.replaceOp(op,
                       buildPadded(rewriter, loc, data, adaptor.getPadValue(),
                                   before, after, op.getPadMode(), resultType,
                                   outSizes, "relay.nn.pad"));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// nn.upsampling (topi resize2d: "asymmetric" or "align_corners")
//===----------------------------------------------------------------------===//

/// nn.upsampling's sizes: per spatial dim (`sp`), the output size
/// round(in * scale) (static when the result type says), the last input
/// index, and the factor from output to input coordinates ((in-1)/(out-1)
/// with align_corners, else in/out).
struct UpSamplingGeometry {
  int64_t sp[2];
  SmallVector<OpFoldResult> outSizes;
  SmallVector<Value> inLast = SmallVector<Value>(2);
  SmallVector<Value> coordScale = SmallVector<Value>(2);
};

UpSamplingGeometry upSamplingGeometry(OpBuilder &rewriter, Location loc,
                                      UpSamplingOp op, Value data,
                                      RankedTensorType resultType) {
  bool nchw = op.getLayout() == "NCHW";
  UpSamplingGeometry geo;
  geo.sp[0] = nchw ? 2 : 1;
  geo.sp[1] = nchw ? 3 : 2;
  double scales[2] = {op.getScaleH().convertToDouble(),
                      op.getScaleW().convertToDouble()};
  SmallVector<OpFoldResult> inSizes = dimSizes(rewriter, loc, data);
  Type f32 = rewriter.getF32Type();
  geo.outSizes = inSizes;
  for (int i = 0; i < 2; ++i) {
    int64_t d = geo.sp[i];
    Value in = getValueOrCreateConstantIndexOp(rewriter, loc, inSizes[d]);
    Value inF = arith::UIToFPOp::create(
        rewriter, loc, f32,
        arith::IndexCastUIOp::create(rewriter, loc, rewriter.getI64Type(), in));
    Value outF = math::RoundOp::create(
        rewriter, loc,
        arith::MulFOp::create(
            rewriter, loc, inF,
            arith::ConstantOp::create(rewriter, loc,
                                      rewriter.getF32FloatAttr(scales[i]))));
    Value out = arith::IndexCastUIOp::create(
        rewriter, loc, rewriter.getIndexType(),
        arith::FPToUIOp::create(rewriter, loc, rewriter.getI64Type(), outF));
    if (!resultType.isDynamicDim(d)) {
      geo.outSizes[d] = rewriter.getIndexAttr(resultType.getDimSize(d));
      outF = arith::ConstantOp::create(
          rewriter, loc, rewriter.getF32FloatAttr(resultType.getDimSize(d)));
    } else {
      geo.outSizes[d] = out;
    }
    geo.inLast[i] =
        arith::SubIOp::create(rewriter, loc, in, cstIdx(rewriter, loc, 1));
    if (op.getAlignCorners()) {
      Value one = arith::ConstantOp::create(rewriter, loc,
                                            rewriter.getF32FloatAttr(1.0));
      Value den = arith::MaximumFOp::create(
          rewriter, loc, arith::SubFOp::create(rewriter, loc, outF, one), one);
      geo.coordScale[i] = arith::DivFOp::create(
          rewriter, loc, arith::SubFOp::create(rewriter, loc, inF, one), den);
    } else {
      geo.coordScale[i] = arith::DivFOp::create(rewriter, loc, inF, outF);
    }
  }
  return geo;
}

/// The body of one output element of nn.upsampling: its input coordinates
/// (f32) and reads of the input at clamped indices.
struct UpSamplingBody {
  OpBuilder &b;
  Location l;
  Value data;
  const UpSamplingGeometry &geo;
  Value zero;
  SmallVector<Value> base, coords;

  UpSamplingBody(OpBuilder &b, Location l, Value data,
                 const UpSamplingGeometry &geo, int64_t rank)
      : b(b), l(l), data(data), geo(geo) {
    zero = cstIdx(b, l, 0);
    for (int i = 0; i < 2; ++i) {
      Value o = linalg::IndexOp::create(b, l, geo.sp[i]);
      Value oF = arith::SIToFPOp::create(
          b, l, b.getF32Type(),
          arith::IndexCastOp::create(b, l, b.getI64Type(), o));
      coords.push_back(arith::MulFOp::create(b, l, oF, geo.coordScale[i]));
    }
    for (int64_t d = 0; d < rank; ++d)
      base.push_back(linalg::IndexOp::create(b, l, d));
  }

  Value clampIdx(Value i, int d) {
    return arith::MinSIOp::create(b, l, arith::MaxSIOp::create(b, l, i, zero),
                                  geo.inLast[d]);
  }
  Value toIdx(Value f) {
    return arith::IndexCastOp::create(
        b, l, b.getIndexType(),
        arith::FPToSIOp::create(b, l, b.getI64Type(), f));
  }
  /// The input at (y, x) in the spatial dims, the output's other indices.
  Value at(Value y, Value x) {
    SmallVector<Value> idx = base;
    idx[geo.sp[0]] = y;
    idx[geo.sp[1]] = x;
    return tensor::ExtractOp::create(b, l, data, idx);
  }

  /// nearest_neighbor: coordinates rounded (align_corners) or floored.
  Value nearest(bool alignCorners) {
    SmallVector<Value> idx(2);
    for (int i = 0; i < 2; ++i) {
      Value c = coords[i];
      Value r =
          alignCorners
              ? math::RoundOp::create(b, l, c).getResult()
              : math::FloorOp::create(
                    b, l,
                    arith::AddFOp::create(b, l, c,
                                          arith::ConstantOp::create(
                                              b, l, b.getF32FloatAttr(1e-5))))
                    .getResult();
      idx[i] = clampIdx(toIdx(r), i);
    }
    return at(idx[0], idx[1]);
  }

  /// bilinear: the 2x2 neighbours interpolated along x, then y.
  Value bilinear(Type elem) {
    SmallVector<Value> i0(2), i1(2), frac(2);
    for (int i = 0; i < 2; ++i) {
      Value fl = math::FloorOp::create(b, l, coords[i]);
      frac[i] = arith::SubFOp::create(b, l, coords[i], fl);
      Value ii = toIdx(fl);
      i0[i] = clampIdx(ii, i);
      i1[i] = clampIdx(arith::AddIOp::create(b, l, ii, cstIdx(b, l, 1)), i);
    }
    auto lerp = [&](Value p, Value q, Value t) -> Value {
      Value tf = convertScalar(b, l, t, elem, false);
      return arith::AddFOp::create(
          b, l, p,
          arith::MulFOp::create(b, l, arith::SubFOp::create(b, l, q, p), tf));
    };
    Value top = lerp(at(i0[0], i0[1]), at(i0[0], i1[1]), frac[1]);
    Value bottom = lerp(at(i1[0], i0[1]), at(i1[0], i1[1]), frac[1]);
    return lerp(top, bottom, frac[0]);
  }
};

struct UpSamplingPattern : OpConversionPattern<UpSamplingOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(UpSamplingOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    StringRef layout = op.getLayout();
    if (layout != "NCHW" && layout != "NHWC")
      return op.emitError() << "not supported yet: nn.upsampling with layout "
                            << layout << " (NCHW and NHWC are)";
    Value data = adaptor.getData();
    if (failed(requireFloatData(op, data)))
      return failure();
    RankedTensorType resultType = resultTensorType(op);
    UpSamplingGeometry geo =
        upSamplingGeometry(rewriter, loc, op, data, resultType);
    bool bilinear = op.getMethod() == "bilinear";
    rewriter.replaceOp(
        op,
        buildMap(rewriter, loc, resultType, geo.outSizes, {}, {},
                 [&](OpBuilder &b, Location l, ValueRange) -> Value {
                   UpSamplingBody body(b, l, data, geo, resultType.getRank());
                   return bilinear ? body.bilinear(resultType.getElementType())
                                   : body.nearest(op.getAlignCorners());
                 }));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// nn.depth_to_space / nn.space_to_depth
//===----------------------------------------------------------------------===//

/// expand_shape `x` into `shape`, transpose by `perm`, collapse into
/// `resultType` by `collapse`.
Value rearrange(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> shape,
                ArrayRef<OpFoldResult> sizes,
                ArrayRef<ReassociationIndices> expand, ArrayRef<int64_t> perm,
                ArrayRef<ReassociationIndices> collapse,
                RankedTensorType resultType) {
  Type elem = resultType.getElementType();
  Value e =
      expandTo(b, loc, x, RankedTensorType::get(shape, elem), expand, sizes);
  SmallVector<int64_t> tShape = applyPermutation(shape, perm);
  SmallVector<OpFoldResult> tSizes = applyPermutation(sizes, perm);
  auto tType = RankedTensorType::get(tShape, elem);
  Value t = linalg::TransposeOp::create(
                b, loc, e, emptyTensor(b, loc, tType, tSizes), perm)
                .getResult()[0];
  return tensor::CollapseShapeOp::create(b, loc, resultType, t, collapse);
}

struct DepthToSpacePattern : OpConversionPattern<DepthToSpaceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DepthToSpaceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    StringRef layout = op.getLayout();
    if (layout != "NCHW" && layout != "NHWC")
      return op.emitError() << "not supported yet: nn.depth_to_space with "
                               "layout "
                            << layout << " (NCHW and NHWC are)";
    Value data = adaptor.getData();
    auto type = cast<RankedTensorType>(data.getType());
    bool nchw = layout == "NCHW", dcr = op.getMode() == "DCR";
    int64_t bs = op.getBlockSize();
    SmallVector<OpFoldResult> s = dimSizes(rewriter, loc, data);
    auto dim = [&](int64_t d) { return type.getDimSize(d); };
    OpFoldResult b = rewriter.getIndexAttr(bs);
    int64_t cDim = nchw ? 1 : 3;
    int64_t c2 = divDim(dim(cDim), bs * bs);
    OpFoldResult c2s = divSize(rewriter, loc, s[cDim], bs * bs);
    // The channel split: DCR [b, b, C'], CRD [C', b, b].
    SmallVector<int64_t> split = dcr ? SmallVector<int64_t>{bs, bs, c2}
                                     : SmallVector<int64_t>{c2, bs, bs};
    SmallVector<OpFoldResult> splitS =
        dcr ? SmallVector<OpFoldResult>{b, b, c2s}
            : SmallVector<OpFoldResult>{c2s, b, b};
    SmallVector<int64_t> shape;
    SmallVector<OpFoldResult> sizes;
    SmallVector<int64_t> perm;
    SmallVector<ReassociationIndices> expand, collapse;
    if (nchw) {
      shape = {dim(0), split[0], split[1], split[2], dim(2), dim(3)};
      sizes = {s[0], splitS[0], splitS[1], splitS[2], s[2], s[3]};
      expand = {{0}, {1, 2, 3}, {4}, {5}};
      perm = dcr ? SmallVector<int64_t>{0, 3, 4, 1, 5, 2}
                 : SmallVector<int64_t>{0, 1, 4, 2, 5, 3};
      collapse = {{0}, {1}, {2, 3}, {4, 5}};
    } else {
      shape = {dim(0), dim(1), dim(2), split[0], split[1], split[2]};
      sizes = {s[0], s[1], s[2], splitS[0], splitS[1], splitS[2]};
      expand = {{0}, {1}, {2}, {3, 4, 5}};
      perm = dcr ? SmallVector<int64_t>{0, 1, 3, 2, 4, 5}
                 : SmallVector<int64_t>{0, 1, 4, 2, 5, 3};
      collapse = {{0}, {1, 2}, {3, 4}, {5}};
    }
    rewriter.replaceOp(op, rearrange(rewriter, loc, data, shape, sizes, expand,
                                     perm, collapse, resultTensorType(op)));
    return success();
  }
};

struct SpaceToDepthPattern : OpConversionPattern<SpaceToDepthOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SpaceToDepthOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    StringRef layout = op.getLayout();
    if (layout != "NCHW" && layout != "NHWC")
      return op.emitError() << "not supported yet: nn.space_to_depth with "
                               "layout "
                            << layout << " (NCHW and NHWC are)";
    Value data = adaptor.getData();
    auto type = cast<RankedTensorType>(data.getType());
    bool nchw = layout == "NCHW";
    int64_t bs = op.getBlockSize();
    SmallVector<OpFoldResult> s = dimSizes(rewriter, loc, data);
    auto dim = [&](int64_t d) { return type.getDimSize(d); };
    OpFoldResult b = rewriter.getIndexAttr(bs);
    int64_t hDim = nchw ? 2 : 1, wDim = nchw ? 3 : 2;
    int64_t h2 = divDim(dim(hDim), bs), w2 = divDim(dim(wDim), bs);
    OpFoldResult h2s = divSize(rewriter, loc, s[hDim], bs),
                 w2s = divSize(rewriter, loc, s[wDim], bs);
    SmallVector<int64_t> shape;
    SmallVector<OpFoldResult> sizes;
    SmallVector<int64_t> perm;
    SmallVector<ReassociationIndices> expand, collapse;
    if (nchw) {
      // [N, C, H', by, W', bx] → [N, by, bx, C, H', W']
      shape = {dim(0), dim(1), h2, bs, w2, bs};
      sizes = {s[0], s[1], h2s, b, w2s, b};
      expand = {{0}, {1}, {2, 3}, {4, 5}};
      perm = {0, 3, 5, 1, 2, 4};
      collapse = {{0}, {1, 2, 3}, {4}, {5}};
    } else {
      // [N, H', by, W', bx, C] → [N, H', W', by, bx, C]
      shape = {dim(0), h2, bs, w2, bs, dim(3)};
      sizes = {s[0], h2s, b, w2s, b, s[3]};
      expand = {{0}, {1, 2}, {3, 4}, {5}};
      perm = {0, 1, 3, 2, 4, 5};
      collapse = {{0}, {1}, {2}, {3, 4, 5}};
    }
    rewriter.replaceOp(op, rearrange(rewriter, loc, data, shape, sizes, expand,
                                     perm, collapse, resultTensorType(op)));
    return success();
  }
};

} // namespace

void relay::populateNNToLinalgPatterns(const TypeConverter &tc,
                                       RewritePatternSet &patterns) {
  patterns.add<DensePattern, BiasAddPattern, BatchFlattenPattern,
               MatmulPattern<MatmulForm::Matmul2D>,
               MatmulPattern<MatmulForm::TransposedA2D>,
               MatmulPattern<MatmulForm::TransposedABatch>, BatchMatmulPattern,
               LeakyReluPattern, PReluPattern, GeluPattern, DropoutPattern,
               PadPattern, UpSamplingPattern, DepthToSpacePattern,
               SpaceToDepthPattern>(tc, patterns.getContext());
  populateSpaceBatchPatterns(tc, patterns);
  populateNNCompositePatterns(tc, patterns);
  populateNNLossPatterns(tc, patterns);
}
