//===- Norm.cpp - normalisations and softmax ------------------------------===//
//
// nn.batch_norm (scale and shift folded at compile time for constant
// parameters), nn.layer_norm, nn.group_norm, nn.instance_norm,
// nn.l2_normalize, nn.lrn, nn.softmax and nn.log_softmax.
// Statistics are linalg.reduce sums (Utils' buildSum) and parallel
// linalg.generics that read the reduced tensors through projected maps (nothing
// is broadcast into a materialised tensor); the variance is the mean of squared
// deviations (two passes, as topi).
//
//===----------------------------------------------------------------------===//
#include "DynamicUtils.h"
#include "Window.h"

#include "mlir/IR/Matchers.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

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
  return buildMap(b, loc, type, dimSizes(b, loc, x), ins, maps,
                  [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
                    Value e = scalarConst(nb, l, args[0].getType(), eps);
                    Value inv = math::RsqrtOp::create(
                        nb, l, arith::AddFOp::create(nb, l, args[2], e));
                    Value y = arith::MulFOp::create(
                        nb, l, arith::SubFOp::create(nb, l, args[0], args[1]),
                        inv);
                    unsigned next = 3;
                    if (hasGamma)
                      y = arith::MulFOp::create(nb, l, y, args[next++]);
                    if (hasBeta)
                      y = arith::AddFOp::create(nb, l, y, args[next]);
                    return y;
                  });
}

template <typename OpTy> LogicalResult requireFloat(OpTy op, Value data) {
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
    FailureOr<int64_t> axisOr = normalizeAxis(op.getAxis(), rank);
    if (failed(axisOr))
      return rewriter.notifyMatchFailure(op, "axis out of range");
    int64_t axis = *axisOr;
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
    // (`?` sizes of gamma/beta must be the axis's at run time)
    for (Value param : {adaptor.getGamma(), adaptor.getBeta()})
      checkSameSize(rewriter, op.getLoc(), data, axis, param, 0,
                    op->getName().getStringRef(),
                    "gamma or beta is not the size of the axis");
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
    FailureOr<int64_t> axisOr = normalizeAxis(op.getAxis(), rank);
    if (failed(axisOr))
      return rewriter.notifyMatchFailure(op, "axis out of range");
    int64_t axis = *axisOr;
    int64_t g = op.getNumGroups();
    SmallVector<OpFoldResult> sizes = dimSizes(rewriter, loc, data);
    SmallVector<int64_t> shape;
    SmallVector<OpFoldResult> xSizes;
    SmallVector<ReassociationIndices> re;
    for (int64_t d = 0; d < rank; ++d) {
      if (d == axis) {
        shape.append({g, divDim(type.getDimSize(d), g)});
        xSizes.append(
            {rewriter.getIndexAttr(g), divSize(rewriter, loc, sizes[d], g)});
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
    Value y = normalize(
        rewriter, loc, x, dims, op.getEpsilon().convertToDouble(),
        op.getScale() ? param(adaptor.getGamma()) : Value(),
        op.getCenter() ? param(adaptor.getBeta()) : Value(), paramMap);
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
    FailureOr<SmallVector<int64_t>> axes = normalizeAxes(op.getAxis(), rank);
    if (failed(axes))
      return rewriter.notifyMatchFailure(op, "axes out of range");
    SmallVector<int64_t> dims = *axes;
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
    // (the I64Attr accessor is unsigned: compare the signed value)
    int64_t size = op.getSize();
    if (size < 1)
      return op.emitError() << "nn.lrn size must be >= 1, got " << size;
    auto type = cast<RankedTensorType>(data.getType());
    Type elem = type.getElementType();
    int64_t rank = type.getRank();
    FailureOr<int64_t> axisOr = normalizeAxis(op.getAxis(), rank);
    if (failed(axisOr))
      return rewriter.notifyMatchFailure(op, "axis out of range");
    int64_t axis = *axisOr;
    // the window pads the axis by size - 1; the padded tensor's element
    // count must fit int64 too (a size of 2^62 on a 2x7 input: fuzz_mlir
    // mutant 14:97 aborted in ShapedType::getNumElements)
    if (!type.isDynamicDim(axis) &&
        !llvm::checkedAdd(type.getDimSize(axis), size - 1))
      return op.emitError()
             << "nn.lrn size " << size << " pads dim " << axis << " (size "
             << type.getDimSize(axis) << ") beyond int64";
    std::optional<int64_t> elements = 1;
    for (int64_t i = 0; i < rank && elements; ++i)
      if (!type.isDynamicDim(i))
        elements = llvm::checkedMul(*elements,
                                    i == axis ? type.getDimSize(i) + size - 1
                                              : type.getDimSize(i));
    if (!elements)
      return op.emitError()
             << "nn.lrn size " << size << " pads dim " << axis << " (size "
             << type.getDimSize(axis) << ") to more elements than int64 counts";
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
    Value window =
        tensor::EmptyOp::create(rewriter, loc, ArrayRef<int64_t>{size}, elem);
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
                  b, l,
                  arith::AddFOp::create(b, l, args[0], args[2]).getResult());
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

/// The parts of a (log) softmax along `axis`: the maximum `max`, the
/// shifted exponentials `exp` = exp(x - max) and their sum `sum` (`max` and
/// `sum` without the axis, read back through `reduced`).
struct ShiftedExp {
  Value max, exp, sum;
  SmallVector<OpFoldResult> sizes;
  AffineMap identity, reduced;
};

ShiftedExp buildShiftedExp(OpBuilder &b, Location loc, Value data,
                           int64_t axis) {
  auto type = cast<RankedTensorType>(data.getType());
  Type elem = type.getElementType();
  int64_t rank = type.getRank();
  ShiftedExp r;
  r.sizes = dimSizes(b, loc, data);
  SmallVector<int64_t> redShape;
  SmallVector<OpFoldResult> redSizes;
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis) {
      redShape.push_back(type.getDimSize(d));
      redSizes.push_back(r.sizes[d]);
    }
  auto redType = RankedTensorType::get(redShape, elem);
  Value init =
      filledTensor(b, loc, redType, redSizes, lowestConst(b, loc, elem, false));
  r.max =
      linalg::ReduceOp::create(
          b, loc, ValueRange{data}, ValueRange{init}, ArrayRef<int64_t>{axis},
          [](OpBuilder &nb, Location l, ValueRange args) {
            linalg::YieldOp::create(
                nb, l,
                arith::MaximumFOp::create(nb, l, args[0], args[1]).getResult());
          })
          .getResult(0);
  r.identity = b.getMultiDimIdentityMap(rank);
  r.reduced = droppedMap(b.getContext(), rank, {axis});
  r.exp =
      buildMap(b, loc, type, r.sizes, {data, r.max}, {r.identity, r.reduced},
               [](OpBuilder &nb, Location l, ValueRange args) -> Value {
                 return math::ExpOp::create(
                     nb, l, arith::SubFOp::create(nb, l, args[0], args[1]));
               });
  r.sum = buildSum(b, loc, r.exp, {axis});
  return r;
}

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
    FailureOr<int64_t> axis = normalizeAxis(op.getAxis(), type.getRank());
    if (failed(axis))
      return rewriter.notifyMatchFailure(op, "axis out of range");
    ShiftedExp p = buildShiftedExp(rewriter, loc, data, *axis);
    rewriter.replaceOp(
        op, buildMap(rewriter, loc, type, p.sizes, {data, p.max, p.sum},
                     {p.identity, p.reduced, p.reduced},
                     [](OpBuilder &b, Location l, ValueRange args) -> Value {
                       Value shifted =
                           arith::SubFOp::create(b, l, args[0], args[1]);
                       return arith::SubFOp::create(
                           b, l, shifted, math::LogOp::create(b, l, args[2]));
                     }));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// nn.softmax
//===----------------------------------------------------------------------===//

/// nn.softmax: exp(x - max) / sum(exp(x - max)) along `axis`, as reductions
/// and maps (not `linalg.softmax`, which IREE 3.13 makes one dispatch of its
/// own that nothing fuses into). The maps fuse: the scale before it into the
/// max's dispatch, the division into the packing of the next matmul's
/// operand. ViT-tiny's attention (3x197x197, 12 layers): 0.94x the CPU time
/// of the whole model; along a run-time axis 2.5x faster than
/// `linalg.softmax` with a dynamic reduction (BERT-tiny with dynamic axes:
/// 32 -> 13 us; bench/DYNAMIC.md, bench/PARTIAL.md session 24).
struct SoftmaxPattern : OpConversionPattern<SoftmaxOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SoftmaxOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = resultTensorType(op);
    FailureOr<int64_t> axis = normalizeAxis(op.getAxis(), type.getRank());
    if (failed(axis))
      return rewriter.notifyMatchFailure(op, "axis out of range");
    ShiftedExp p = buildShiftedExp(rewriter, loc, adaptor.getData(), *axis);
    rewriter.replaceOp(
        op, buildMap(rewriter, loc, type, p.sizes, {p.exp, p.sum},
                     {p.identity, p.reduced},
                     [](OpBuilder &b, Location l, ValueRange args) -> Value {
                       return arith::DivFOp::create(b, l, args[0], args[1]);
                     }));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// nn.batch_norm: y = x * scale[c] + shift[c], with
// scale = gamma / sqrt(var + eps) and shift = beta - mean * scale folded at
// compile time when the parameters are constants.
//===----------------------------------------------------------------------===//

/// The per-channel scale and shift as constants, if gamma/beta/mean/var
/// are dense float constants.
std::optional<std::pair<Value, Value>>
foldScaleShift(OpBuilder &b, Location loc, BatchNormOp op, Value gamma,
               Value beta, Value mean, Value var) {
  DenseFPElementsAttr g, be, m, v;
  if (!matchPattern(mean, m_Constant(&m)) ||
      !matchPattern(var, m_Constant(&v)) ||
      (op.getScale() && !matchPattern(gamma, m_Constant(&g))) ||
      (op.getCenter() && !matchPattern(beta, m_Constant(&be))))
    return std::nullopt;
  auto type = cast<RankedTensorType>(mean.getType());
  if (!type.hasStaticShape())
    return std::nullopt;
  int64_t n = type.getNumElements();
  auto at = [](DenseFPElementsAttr attr, int64_t i) {
    return (attr.isSplat() ? *attr.getValues<APFloat>().begin()
                           : attr.getValues<APFloat>()[i])
        .convertToDouble();
  };
  auto &sem = cast<FloatType>(type.getElementType()).getFloatSemantics();
  auto toAPFloat = [&](double x) {
    APFloat f(x);
    bool loses;
    f.convert(sem, APFloat::rmNearestTiesToEven, &loses);
    return f;
  };
  SmallVector<APFloat> scale, shift;
  double eps = op.getEpsilon().convertToDouble();
  for (int64_t i = 0; i < n; ++i) {
    double s = 1.0 / std::sqrt(at(v, i) + eps);
    if (op.getScale())
      s *= at(g, i);
    double t = -at(m, i) * s;
    if (op.getCenter())
      t += at(be, i);
    scale.push_back(toAPFloat(s));
    shift.push_back(toAPFloat(t));
  }
  return std::make_pair(
      arith::ConstantOp::create(b, loc, DenseElementsAttr::get(type, scale))
          .getResult(),
      arith::ConstantOp::create(b, loc, DenseElementsAttr::get(type, shift))
          .getResult());
}

struct BatchNormPattern : OpConversionPattern<BatchNormOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(BatchNormOp op, OneToNOpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value data = adaptor.getData().front(), gamma = adaptor.getGamma().front(),
          beta = adaptor.getBeta().front(),
          mean = adaptor.getMovingMean().front(),
          var = adaptor.getMovingVar().front();
    auto dataType = cast<RankedTensorType>(data.getType());
    if (!isa<FloatType>(dataType.getElementType()))
      return op.emitError() << "not supported yet: nn.batch_norm on integers";
    int64_t rank = dataType.getRank();
    FailureOr<int64_t> axisOr = normalizeAxis(op.getAxis(), rank);
    if (failed(axisOr))
      return rewriter.notifyMatchFailure(op, "axis out of range");
    int64_t axis = *axisOr;

    Value scale, shift;
    if (auto folded =
            foldScaleShift(rewriter, loc, op, gamma, beta, mean, var)) {
      std::tie(scale, shift) = *folded;
    } else {
      auto paramType = cast<RankedTensorType>(mean.getType());
      SmallVector<OpFoldResult> pSizes = dimSizes(rewriter, loc, mean);
      AffineMap id1 = rewriter.getMultiDimIdentityMap(1);
      double eps = op.getEpsilon().convertToDouble();
      bool useGamma = op.getScale(), useBeta = op.getCenter();
      scale = buildMap(
          rewriter, loc, paramType, pSizes, {var, gamma}, {id1, id1},
          [&](OpBuilder &b, Location l, ValueRange args) -> Value {
            Value e = scalarConst(b, l, args[0].getType(), eps);
            Value root = math::SqrtOp::create(
                b, l, arith::AddFOp::create(b, l, args[0], e));
            Value num =
                useGamma ? args[1] : scalarConst(b, l, args[0].getType(), 1.0);
            return arith::DivFOp::create(b, l, num, root);
          });
      shift = buildMap(rewriter, loc, paramType, pSizes, {mean, scale, beta},
                       {id1, id1, id1},
                       [&](OpBuilder &b, Location l, ValueRange args) -> Value {
                         Value ms =
                             arith::MulFOp::create(b, l, args[0], args[1]);
                         if (useBeta)
                           return arith::SubFOp::create(b, l, args[2], ms);
                         return arith::NegFOp::create(b, l, ms);
                       });
    }
    AffineMap channel =
        AffineMap::get(rank, 0, rewriter.getAffineDimExpr(axis));
    Value y = buildMap(
        rewriter, loc, dataType, dimSizes(rewriter, loc, data),
        {data, scale, shift},
        {rewriter.getMultiDimIdentityMap(rank), channel, channel},
        [](OpBuilder &b, Location l, ValueRange args) -> Value {
          return arith::AddFOp::create(
              b, l, arith::MulFOp::create(b, l, args[0], args[1]), args[2]);
        });
    // The tuple (normalized, moving_mean, moving_var) as its three leaves.
    rewriter.replaceOpWithMultiple(op, {SmallVector<Value>{y, mean, var}});
    return success();
  }
};

} // namespace

void relay::populateNormToLinalgPatterns(const TypeConverter &tc,
                                         RewritePatternSet &patterns) {
  patterns.add<BatchNormPattern, SoftmaxPattern,
               AxisNormPattern<LayerNormOp, false>,
               AxisNormPattern<InstanceNormOp, true>, GroupNormPattern,
               L2NormalizePattern, LRNPattern, LogSoftmaxPattern>(
      tc, patterns.getContext());
}
