//===- Norm.cpp - normalisations: layer/group/instance norm, l2, lrn ------===//
//
// Also nn.log_softmax. Statistics are linalg.reduce sums (Utils'
// buildSum) and parallel linalg.generics that read the reduced tensors
// through projected maps (nothing is broadcast into a materialised tensor);
// the variance is the mean of squared deviations (two passes, as topi).
//
//===----------------------------------------------------------------------===//
#include "NNCommon.h"

#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;
using namespace mlir::relay::lowering::nn;

namespace {

/// The map from a rank-`rank` iteration space to the dims not in `dims`.
AffineMap droppedMap(MLIRContext *ctx, int64_t rank, ArrayRef<int64_t> dims) {
  SmallVector<AffineExpr> exprs;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(dims, d))
      exprs.push_back(getAffineDimExpr(d, ctx));
  return AffineMap::get(rank, 0, exprs, ctx);
}

/// Mean and biased variance of `x` over `dims` (sorted); both drop `dims`.
std::pair<Value, Value> meanVar(OpBuilder &b, Location loc, Value x,
                                ArrayRef<int64_t> dims) {
  auto type = cast<RankedTensorType>(x.getType());
  int64_t rank = type.getRank();
  Type elem = type.getElementType();
  Value count = indexToScalar(b, loc, countOf(b, loc, x, dims), elem, false);
  Value mean = divideByScalar(b, loc, buildSum(b, loc, x, dims), count, false);
  Value sq = buildMap(
      b, loc, type, dimSizes(b, loc, x), {x, mean},
      {b.getMultiDimIdentityMap(rank), droppedMap(b.getContext(), rank, dims)},
      [](OpBuilder &nb, Location l, ValueRange args) -> Value {
        Value d = arith::SubFOp::create(nb, l, args[0], args[1]);
        return arith::MulFOp::create(nb, l, d, d);
      });
  Value var = divideByScalar(b, loc, buildSum(b, loc, sq, dims), count, false);
  return {mean, var};
}

/// (x - mean) / sqrt(var + eps) [* gamma] [+ beta] over the shape of `x`;
/// gamma and beta (if given) are read through `paramMap`.
Value normalize(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> dims,
                double eps, Value gamma, Value beta, AffineMap paramMap) {
  auto type = cast<RankedTensorType>(x.getType());
  int64_t rank = type.getRank();
  auto [mean, var] = meanVar(b, loc, x, dims);
  AffineMap stat = droppedMap(b.getContext(), rank, dims);
  SmallVector<Value> ins = {x, mean, var};
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank), stat, stat};
  if (gamma) {
    ins.push_back(gamma);
    maps.push_back(paramMap);
  }
  if (beta) {
    ins.push_back(beta);
    maps.push_back(paramMap);
  }
  bool hasGamma = static_cast<bool>(gamma), hasBeta = static_cast<bool>(beta);
  return buildMap(
      b, loc, type, dimSizes(b, loc, x), ins, maps,
      [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
        Value e = scalarConst(nb, l, args[0].getType(), eps);
        Value inv = math::RsqrtOp::create(
            nb, l, arith::AddFOp::create(nb, l, args[2], e));
        Value y = arith::MulFOp::create(
            nb, l, arith::SubFOp::create(nb, l, args[0], args[1]), inv);
        unsigned next = 3;
        if (hasGamma)
          y = arith::MulFOp::create(nb, l, y, args[next++]);
        if (hasBeta)
          y = arith::AddFOp::create(nb, l, y, args[next]);
        return y;
      });
}

template <typename OpTy>
LogicalResult requireFloat(OpTy op, Value data) {
  if (!isa<FloatType>(elementTypeOf(data.getType())))
    return op.emitError() << "not supported yet: " << op->getName()
                          << " on integers";
  return success();
}

/// nn.layer_norm (reduce `axis`) and nn.instance_norm (reduce every dim
/// after `axis`); gamma and beta along `axis`.
template <typename OpTy, bool isInstance>
struct AxisNormPattern : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpConversionPattern<OpTy>::OpAdaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value data = adaptor.getData();
    if (failed(requireFloat(op, data)))
      return failure();
    int64_t rank = cast<RankedTensorType>(data.getType()).getRank();
    int64_t axis = normAxis(op.getAxis(), rank);
    SmallVector<int64_t> dims;
    if (isInstance) {
      for (int64_t d = 1; d < rank; ++d)
        if (d != axis)
          dims.push_back(d);
    } else {
      dims.push_back(axis);
    }
    AffineMap paramMap =
        AffineMap::get(rank, 0, rewriter.getAffineDimExpr(axis));
    rewriter.replaceOp(
        op, normalize(rewriter, op.getLoc(), data, dims,
                      op.getEpsilon().convertToDouble(),
                      op.getScale() ? adaptor.getGamma() : Value(),
                      op.getCenter() ? adaptor.getBeta() : Value(), paramMap));
    return success();
  }
};

/// nn.group_norm: channels (dim `axis`) split into [G, C/G]; each group is
/// normalised over C/G and every dim after `axis`.
struct GroupNormPattern : OpConversionPattern<GroupNormOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GroupNormOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value data = adaptor.getData();
    if (failed(requireFloat(op, data)))
      return failure();
    auto type = cast<RankedTensorType>(data.getType());
    int64_t rank = type.getRank();
    int64_t axis = normAxis(op.getAxis(), rank);
    int64_t g = op.getNumGroups();
    SmallVector<OpFoldResult> sizes = dimSizes(rewriter, loc, data);
    SmallVector<int64_t> shape;
    SmallVector<OpFoldResult> xSizes;
    SmallVector<ReassociationIndices> re;
    for (int64_t d = 0; d < rank; ++d) {
      if (d == axis) {
        shape.append({g, divDim(type.getDimSize(d), g)});
        xSizes.append({rewriter.getIndexAttr(g), divSize(rewriter, loc, sizes[d], g)});
        re.push_back({d, d + 1});
      } else {
        shape.push_back(type.getDimSize(d));
        xSizes.push_back(sizes[d]);
        re.push_back({d < axis ? d : d + 1});
      }
    }
    auto xType = RankedTensorType::get(shape, type.getElementType());
    Value x = expandTo(rewriter, loc, data, xType, re, xSizes);
    SmallVector<int64_t> dims;
    for (int64_t d = axis + 1; d < rank + 1; ++d)
      dims.push_back(d);
    auto pType = RankedTensorType::get({g, divDim(type.getDimSize(axis), g)},
                                       type.getElementType());
    SmallVector<OpFoldResult> pSizes = {xSizes[axis], xSizes[axis + 1]};
    auto param = [&](Value p) {
      return expandTo(rewriter, loc, p, pType, {{0, 1}}, pSizes);
    };
    AffineMap paramMap = AffineMap::get(
        rank + 1, 0,
        {rewriter.getAffineDimExpr(axis), rewriter.getAffineDimExpr(axis + 1)},
        rewriter.getContext());
    Value y = normalize(rewriter, loc, x, dims,
                        op.getEpsilon().convertToDouble(),
                        op.getScale() ? param(adaptor.getGamma()) : Value(),
                        op.getCenter() ? param(adaptor.getBeta()) : Value(),
                        paramMap);
    rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(
        op, resultTensorType(op), y, re);
    return success();
  }
};

/// nn.l2_normalize: x / sqrt(max(Σ x², eps)) over `axis` (all dims if
/// empty).
struct L2NormalizePattern : OpConversionPattern<L2NormalizeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(L2NormalizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value data = adaptor.getData();
    if (failed(requireFloat(op, data)))
      return failure();
    auto type = cast<RankedTensorType>(data.getType());
    int64_t rank = type.getRank();
    SmallVector<int64_t> dims;
    for (int64_t a : op.getAxis())
      dims.push_back(normAxis(a, rank));
    if (dims.empty())
      for (int64_t d = 0; d < rank; ++d)
        dims.push_back(d);
    llvm::sort(dims);
    SmallVector<OpFoldResult> sizes = dimSizes(rewriter, loc, data);
    AffineMap id = rewriter.getMultiDimIdentityMap(rank);
    Value sq = buildMap(rewriter, loc, type, sizes, {data}, {id},
                        [](OpBuilder &b, Location l, ValueRange args) -> Value {
                          return arith::MulFOp::create(b, l, args[0], args[0]);
                        });
    Value ss = buildSum(rewriter, loc, sq, dims);
    double eps = op.getEps().convertToDouble();
    rewriter.replaceOp(
        op, buildMap(rewriter, loc, type, sizes, {data, ss},
                     {id, droppedMap(rewriter.getContext(), rank, dims)},
                     [&](OpBuilder &b, Location l, ValueRange args) -> Value {
                       Value e = scalarConst(b, l, args[0].getType(), eps);
                       Value m = arith::MaximumFOp::create(b, l, args[1], e);
                       return arith::MulFOp::create(
                           b, l, args[0], math::RsqrtOp::create(b, l, m));
                     }));
    return success();
  }
};

/// nn.lrn: x / (bias + alpha / size * Σ_{j < size} x²[c - size/2 + j])^beta
/// along `axis` (out-of-range neighbours count 0), as topi.
struct LRNPattern : OpConversionPattern<LRNOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LRNOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value data = adaptor.getData();
    if (failed(requireFloat(op, data)))
      return failure();
    if (op.getSize() < 1)
      return op.emitError() << "nn.lrn size must be >= 1, got " << op.getSize();
    auto type = cast<RankedTensorType>(data.getType());
    Type elem = type.getElementType();
    int64_t rank = type.getRank();
    int64_t axis = normAxis(op.getAxis(), rank);
    int64_t size = op.getSize();
    SmallVector<OpFoldResult> sizes = dimSizes(rewriter, loc, data);
    AffineMap id = rewriter.getMultiDimIdentityMap(rank);
    Value sq = buildMap(rewriter, loc, type, sizes, {data}, {id},
                        [](OpBuilder &b, Location l, ValueRange args) -> Value {
                          return arith::MulFOp::create(b, l, args[0], args[0]);
                        });
    Value zero = scalarConst(rewriter, loc, elem, 0.0);
    Value padded = padDims(rewriter, loc, sq, {axis}, {size / 2},
                           {size - 1 - size / 2}, zero);
    MLIRContext *ctx = rewriter.getContext();
    SmallVector<AffineExpr> inExprs;
    for (int64_t d = 0; d < rank; ++d)
      inExprs.push_back(getAffineDimExpr(d, ctx));
    inExprs[axis] = inExprs[axis] + getAffineDimExpr(rank, ctx);
    Value window = tensor::EmptyOp::create(rewriter, loc,
                                           ArrayRef<int64_t>{size}, elem);
    Value init = filledTensor(rewriter, loc, type, sizes, zero);
    SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
    iters.push_back(utils::IteratorType::reduction);
    Value sum =
        linalg::GenericOp::create(
            rewriter, loc, TypeRange{type}, ValueRange{padded, window},
            ValueRange{init},
            ArrayRef<AffineMap>{
                AffineMap::get(rank + 1, 0, inExprs, ctx),
                AffineMap::get(rank + 1, 0, getAffineDimExpr(rank, ctx)),
                AffineMap::getMultiDimIdentityMap(rank + 1, ctx)
                    .getMajorSubMap(rank)},
            iters,
            [](OpBuilder &b, Location l, ValueRange args) {
              linalg::YieldOp::create(
                  b, l, arith::AddFOp::create(b, l, args[0], args[2])
                            .getResult());
            })
            .getResult(0);
    double bias = op.getBias().convertToDouble();
    double alpha = op.getAlpha().convertToDouble() / size;
    double beta = op.getBeta().convertToDouble();
    rewriter.replaceOp(
        op, buildMap(rewriter, loc, type, sizes, {data, sum}, {id, id},
                     [&](OpBuilder &b, Location l, ValueRange args) -> Value {
                       Type t = args[0].getType();
                       Value base = arith::AddFOp::create(
                           b, l, scalarConst(b, l, t, bias),
                           arith::MulFOp::create(
                               b, l, scalarConst(b, l, t, alpha), args[1]));
                       Value den = math::PowFOp::create(
                           b, l, base, scalarConst(b, l, t, beta));
                       return arith::DivFOp::create(b, l, args[0], den);
                     }));
    return success();
  }
};

/// nn.log_softmax: x - max - log(Σ exp(x - max)) along `axis`.
struct LogSoftmaxPattern : OpConversionPattern<LogSoftmaxOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(LogSoftmaxOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value data = adaptor.getData();
    if (failed(requireFloat(op, data)))
      return failure();
    auto type = cast<RankedTensorType>(data.getType());
    Type elem = type.getElementType();
    int64_t rank = type.getRank();
    int64_t axis = normAxis(op.getAxis(), rank);
    SmallVector<OpFoldResult> sizes = dimSizes(rewriter, loc, data);
    SmallVector<int64_t> redShape;
    SmallVector<OpFoldResult> redSizes;
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis) {
        redShape.push_back(type.getDimSize(d));
        redSizes.push_back(sizes[d]);
      }
    auto redType = RankedTensorType::get(redShape, elem);
    Value init = filledTensor(rewriter, loc, redType, redSizes,
                              lowestConst(rewriter, loc, elem, false));
    Value max = linalg::ReduceOp::create(
                    rewriter, loc, ValueRange{data}, ValueRange{init},
                    ArrayRef<int64_t>{axis},
                    [](OpBuilder &b, Location l, ValueRange args) {
                      linalg::YieldOp::create(
                          b, l,
                          arith::MaximumFOp::create(b, l, args[0], args[1])
                              .getResult());
                    })
                    .getResult(0);
    AffineMap id = rewriter.getMultiDimIdentityMap(rank);
    AffineMap red = droppedMap(rewriter.getContext(), rank, {axis});
    Value e = buildMap(rewriter, loc, type, sizes, {data, max}, {id, red},
                       [](OpBuilder &b, Location l, ValueRange args) -> Value {
                         return math::ExpOp::create(
                             b, l, arith::SubFOp::create(b, l, args[0], args[1]));
                       });
    Value s = buildSum(rewriter, loc, e, {axis});
    rewriter.replaceOp(
        op, buildMap(rewriter, loc, type, sizes, {data, max, s}, {id, red, red},
                     [](OpBuilder &b, Location l, ValueRange args) -> Value {
                       Value shifted =
                           arith::SubFOp::create(b, l, args[0], args[1]);
                       return arith::SubFOp::create(
                           b, l, shifted, math::LogOp::create(b, l, args[2]));
                     }));
    return success();
  }
};

} // namespace

void nn::populateNormPatterns(const TypeConverter &tc,
                              RewritePatternSet &patterns) {
  patterns.add<AxisNormPattern<LayerNormOp, false>,
               AxisNormPattern<InstanceNormOp, true>, GroupNormPattern,
               L2NormalizePattern, LRNPattern, LogSoftmaxPattern>(
      tc, patterns.getContext());
}
