//===- Pool.cpp - every pooling operator ----------------------------------===//
//
// nn.{max,avg}_pool{1,2,3}d, one pattern per strategy:
//   PoolNamed    a named linalg pooling op where one exists for the layout
//                and dtype (pooling_{nchw,nhwc}_{max,sum},
//                pooling_nhwc_max_unsigned, pooling_{ncw,nwc}_*,
//                pooling_ndhwc_*)
//   PoolGeneric  the general fallback: a linalg.generic of the same shape
//                (a window operand, the window dims as reductions), e.g.
//                NCDHW or unsigned max in channel-first layouts
// Both pad explicitly (tensor.pad; ceil_mode adds stride - 1 after) and
// crop to the rows the windows read (Window.h). Averages divide by topi's
// count: a constant when every window is full, else a per-position
// divisor from the output indices.
//
// nn.global_avg_pool2d / nn.global_max_pool2d: linalg.reduce over the
// spatial dims.
//
// Any pool with blocked channels (NCHW8c, AlterOpLayout's): the plain pool
// between relay.layout_transforms (BlockedPool).
//
// nn.adaptive_{avg,max}_pool2d: output cell i of an input extent n and
// output extent m covers [floor(i n / m), ceil((i + 1) n / m)); one
// linalg.generic with the largest window as reduction dims gathers
// data[start + k] (tensor.extract: a floordiv map would not tile in IREE)
// and masks the k beyond the cell's end. The spatial input dims must be
// static.
//
// nn.adaptive_{avg,max}_pool{1,3}d (and so TVM's global_*_pool{1,3}d) are
// relay-level rewrites into the 2-D one (AdaptivePoolAs2DPattern): 1-D
// on a unit W; 3-D as H, W with C and D merged, then D with H and W merged
// (the cells are products of per-dim ranges, so max of maxes and - for
// floats - mean of equal-sized means are the cell's max and mean).
//
//===----------------------------------------------------------------------===//
#include "Window.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

namespace {

Value maxScalars(OpBuilder &b, Location loc, Value x, Value y,
                 bool isUnsigned) {
  if (isa<FloatType>(x.getType()))
    return arith::MaximumFOp::create(b, loc, x, y);
  if (isUnsigned)
    return arith::MaxUIOp::create(b, loc, x, y);
  return arith::MaxSIOp::create(b, loc, x, y);
}

Value addScalars2(OpBuilder &b, Location loc, Value x, Value y) {
  if (isa<FloatType>(x.getType()))
    return arith::AddFOp::create(b, loc, x, y);
  return arith::AddIOp::create(b, loc, x, y);
}

/// Max or sum pooling as a linalg.generic: output dims parallel, one
/// reduction dim per spatial dim, input index o * stride + k * dilation.
Value poolGeneric(OpBuilder &b, Location loc, Value padded, Value window,
                  Value init, ArrayRef<int64_t> spatial,
                  ArrayRef<int64_t> strides, ArrayRef<int64_t> dilation,
                  bool isMax, bool isUnsigned) {
  MLIRContext *ctx = b.getContext();
  int64_t rank = cast<RankedTensorType>(init.getType()).getRank();
  int64_t n = spatial.size();
  SmallVector<AffineExpr> inExprs, winExprs;
  for (int64_t d = 0; d < rank; ++d)
    inExprs.push_back(getAffineDimExpr(d, ctx));
  for (int64_t i = 0; i < n; ++i) {
    AffineExpr k = getAffineDimExpr(rank + i, ctx);
    inExprs[spatial[i]] =
        getAffineDimExpr(spatial[i], ctx) * strides[i] + k * dilation[i];
    winExprs.push_back(k);
  }
  SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
  iters.append(n, utils::IteratorType::reduction);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()}, ValueRange{padded, window},
      ValueRange{init},
      ArrayRef<AffineMap>{AffineMap::get(rank + n, 0, inExprs, ctx),
                          AffineMap::get(rank + n, 0, winExprs, ctx),
                          AffineMap::getMultiDimIdentityMap(rank + n, ctx)
                              .getMajorSubMap(rank)},
      iters, [&](OpBuilder &nb, Location l, ValueRange args) {
        Value r = isMax ? maxScalars(nb, l, args[0], args[2], isUnsigned)
                        : addScalars2(nb, l, args[0], args[2]);
        linalg::YieldOp::create(nb, l, r);
      });
  return generic.getResult(0);
}

//===----------------------------------------------------------------------===//
// nn.{max,avg}_pool{1,2,3}d
//===----------------------------------------------------------------------===//

/// The spatial dims of an N-d pool's layout (NCW/NWC, NCHW/NHWC,
/// NCDHW/NDHWC) and whether it is channel-first; nullopt for another
/// layout.
template <int N>
std::optional<std::pair<bool, SmallVector<int64_t, 3>>>
getPoolLayout(StringRef layout) {
  static constexpr StringLiteral cfNames[] = {"NCW", "NCHW", "NCDHW"};
  static constexpr StringLiteral clNames[] = {"NWC", "NHWC", "NDHWC"};
  bool cf = layout == cfNames[N - 1];
  if (!cf && layout != clNames[N - 1])
    return std::nullopt;
  SmallVector<int64_t, 3> spatial;
  for (int64_t i = 0; i < N; ++i)
    spatial.push_back(cf ? 2 + i : 1 + i);
  return std::make_pair(cf, spatial);
}

/// The named linalg pooling op for an N-d pool in layout `cf` with element
/// signedness `isUnsigned`, created on `ins`/`init`; a null Value if
/// upstream linalg has none (only the check when `b` is null).
template <int N, bool isMax>
Value createNamedPool(OpBuilder *b, Location loc, bool cf, bool isUnsigned,
                      RankedTensorType resultType, ValueRange ins, Value init,
                      ArrayRef<NamedAttribute> attrs, bool *exists) {
  auto named = [&](auto tag) -> Value {
    *exists = true;
    if (!b)
      return Value();
    using Named = decltype(tag);
    return Named::create(*b, loc, TypeRange{resultType}, ins, init, attrs)
        ->getResult(0);
  };
  *exists = false;
  if constexpr (N == 1) {
    if (isMax && isUnsigned)
      return cf ? Value() : named(linalg::PoolingNwcMaxUnsignedOp());
    if (isMax)
      return cf ? named(linalg::PoolingNcwMaxOp())
                : named(linalg::PoolingNwcMaxOp());
    return cf ? named(linalg::PoolingNcwSumOp())
              : named(linalg::PoolingNwcSumOp());
  } else if constexpr (N == 2) {
    if (isMax && isUnsigned)
      return cf ? Value() : named(linalg::PoolingNhwcMaxUnsignedOp());
    if (isMax)
      return cf ? named(linalg::PoolingNchwMaxOp())
                : named(linalg::PoolingNhwcMaxOp());
    return cf ? named(linalg::PoolingNchwSumOp())
              : named(linalg::PoolingNhwcSumOp());
  } else {
    if (cf || (isMax && isUnsigned))
      return Value();
    return isMax ? named(linalg::PoolingNdhwcMaxOp())
                 : named(linalg::PoolingNdhwcSumOp());
  }
}

/// nn.max_pool{N}d (isMax) and nn.avg_pool{N}d by strategy: `named` a
/// named linalg pooling op (PoolNamed), else the linalg.generic fallback
/// (PoolGeneric).
template <typename OpTy, int N, bool isMax, bool named>
struct PoolPattern : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpConversionPattern<OpTy>::OpAdaptor;

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto layout = getPoolLayout<N>(op.getLayout());
    if (!layout)
      return rewriter.notifyMatchFailure(op, "layout not lowered");
    auto [cf, spatial] = *layout;
    RankedTensorType resultType = resultTensorType(op);
    bool isUnsigned = isUnsignedInt(op.getData().getType());
    if constexpr (named) {
      bool exists;
      createNamedPool<N, isMax>(nullptr, op.getLoc(), cf, isUnsigned,
                                resultType, {}, Value(), {}, &exists);
      if (!exists)
        return rewriter.notifyMatchFailure(
            op, "no named linalg pooling op for this layout and dtype");
    }

    Location loc = op.getLoc();
    Value data = adaptor.getData();
    Type elem = resultType.getElementType();
    ArrayRef<int64_t> window = op.getPoolSize(), strides = op.getStrides(),
                      dilation = op.getDilation();
    // Verified by the relation.
    SpatialPadding pad = *normalizePadding(op.getPadding(), N);
    // ceil_mode: extra room after the data so that the last (partial)
    // window exists; topi grows pad_after by stride - 1.
    SmallVector<int64_t, 3> extra(N, 0);
    if (op.getCeilMode())
      for (int64_t i = 0; i < N; ++i)
        extra[i] = strides[i] - 1;
    Value padValue = isMax ? lowestConst(rewriter, loc, elem, isUnsigned)
                           : scalarConst(rewriter, loc, elem, 0.0);
    Value padded = padAndCropToWindows(rewriter, loc, data, spatial, pad, extra,
                                       window, strides, dilation, padValue);
    // IREE 3.13 hangs compiling a pool with a pad fused into it that pads
    // some spatial dims and not others (e.g. NCHW 7x8 padded by 1 after W
    // only, a ceil_mode window: minutes, for max and sum pools alike; every
    // dim padded compiled at once in a sweep of 144 cases).
    if (tensor::PadOp p = padUnder(padded))
      if (llvm::any_of(spatial, [&](int64_t d) {
            return p.getStaticLow()[d] == 0 && p.getStaticHigh()[d] == 0;
          }))
        padded = paddedBehindBarrier(rewriter, loc, padded);
    SmallVector<OpFoldResult> inSizes = dimSizes(rewriter, loc, padded);
    SmallVector<OpFoldResult> dataSizes = dimSizes(rewriter, loc, data);
    SmallVector<OpFoldResult> outSizes =
        resultSizes(rewriter, resultType, [&](int64_t d) -> OpFoldResult {
          auto it = llvm::find(spatial, d);
          if (it == spatial.end())
            return inSizes[d];
          int64_t i = it - spatial.begin();
          return windowExtent(rewriter, loc, inSizes[d],
                              rewriter.getIndexAttr(window[i]), strides[i],
                              dilation[i], op->getName().getStringRef());
        });
    Value init = filledTensor(rewriter, loc, resultType, outSizes, padValue);
    Value kernel = tensor::EmptyOp::create(rewriter, loc, window, elem);
    Value pooled;
    if constexpr (named) {
      bool exists;
      pooled = createNamedPool<N, isMax>(
          &rewriter, loc, cf, isUnsigned, resultType, {padded, kernel}, init,
          windowAttrs(rewriter, strides, dilation), &exists);
    } else {
      pooled = poolGeneric(rewriter, loc, padded, kernel, init, spatial,
                           strides, dilation, isMax, isUnsigned);
    }
    if constexpr (isMax)
      rewriter.replaceOp(op, pooled);
    else
      rewriter.replaceOp(op, divideByCount(rewriter, loc, op, pooled,
                                           resultType, spatial, dataSizes,
                                           outSizes, pad, isUnsigned));
    return success();
  }

  /// The sum `pooled` divided by topi's count of each window.
  static Value divideByCount(OpBuilder &b, Location loc, OpTy op, Value pooled,
                             RankedTensorType resultType,
                             ArrayRef<int64_t> spatial,
                             ArrayRef<OpFoldResult> dataSizes,
                             ArrayRef<OpFoldResult> outSizes,
                             const SpatialPadding &pad, bool isUnsigned) {
    Type elem = resultType.getElementType();
    ArrayRef<int64_t> window = op.getPoolSize(), strides = op.getStrides(),
                      dilation = op.getDilation();
    bool countPad = op.getCountIncludePad(), ceil = op.getCeilMode();
    // Every window holds pool_size elements unless windows reach into
    // padding that does not count, or (ceil_mode) past the explicit
    // padding: with count_include_pad the ceil_mode overhang still counts
    // only up to the explicit padding (topi).
    if ((countPad || pad.isZero()) && !ceil) {
      int64_t count = 1;
      for (int64_t w : window)
        count *= w;
      Value c = scalarConst(b, loc, elem, static_cast<double>(count));
      return divideByScalar(b, loc, pooled, c, isUnsigned);
    }
    SmallVector<Value> lasts;
    for (int64_t i = 0; i < N; ++i) {
      // Last index a window may reach: the data's end (+ the explicit
      // padding after it when padding counts).
      Value size =
          getValueOrCreateConstantIndexOp(b, loc, dataSizes[spatial[i]]);
      int64_t extra = countPad ? pad.after[i] - 1 : -1;
      lasts.push_back(arith::AddIOp::create(
          b, loc, size, arith::ConstantIndexOp::create(b, loc, extra)));
    }
    int64_t rank = resultType.getRank();
    return buildMap(
        b, loc, resultType, outSizes, {pooled},
        {b.getMultiDimIdentityMap(rank)},
        [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
          Value count = arith::ConstantIndexOp::create(nb, l, 1);
          for (int64_t i = 0; i < N; ++i) {
            Value o = linalg::IndexOp::create(nb, l, spatial[i]);
            Value ni = windowCount(nb, l, o, window[i], strides[i], dilation[i],
                                   pad.before[i], lasts[i], countPad);
            count = arith::MulIOp::create(nb, l, count, ni);
          }
          count = arith::MaxSIOp::create(
              nb, l, count, arith::ConstantIndexOp::create(nb, l, 1));
          Value divisor = indexToScalar(nb, l, count, elem, isUnsigned);
          if (isa<FloatType>(elem))
            return arith::DivFOp::create(nb, l, args[0], divisor);
          if (isUnsigned)
            return arith::DivUIOp::create(nb, l, args[0], divisor);
          return arith::DivSIOp::create(nb, l, args[0], divisor);
        });
  }
};

template <typename OpTy, int N> std::string poolUnsupported(OpTy op) {
  static constexpr StringLiteral supported[] = {
      " (NCW and NWC are)", " (NCHW and NHWC are)", " (NCDHW and NDHWC are)"};
  return (op->getName().getStringRef() + " with layout " + op.getLayout() +
          supported[N - 1])
      .str();
}

template <typename MaxOp, typename AvgOp, int N>
void addPoolPatterns(const TypeConverter &tc, RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<PoolPattern<MaxOp, N, true, true>,
               PoolPattern<AvgOp, N, false, true>>(tc, ctx, kNamedOpBenefit);
  patterns.add<PoolPattern<MaxOp, N, true, false>,
               PoolPattern<AvgOp, N, false, false>>(tc, ctx, kGeneralBenefit);
  patterns.add<ReportUnsupported<MaxOp>>(tc, ctx, poolUnsupported<MaxOp, N>);
  patterns.add<ReportUnsupported<AvgOp>>(tc, ctx, poolUnsupported<AvgOp, N>);
}

//===----------------------------------------------------------------------===//
// nn.global_avg_pool2d
//===----------------------------------------------------------------------===//

struct GlobalAvgPool2DPattern : OpConversionPattern<GlobalAvgPool2DOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GlobalAvgPool2DOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StringRef layout = op.getLayout();
    if (layout != "NCHW" && layout != "NHWC")
      return op.emitError() << "not supported yet: nn.global_avg_pool2d with "
                               "layout "
                            << layout << " (NCHW and NHWC are)";
    Location loc = op.getLoc();
    SmallVector<int64_t> dims = layout == "NCHW" ? SmallVector<int64_t>{2, 3}
                                                 : SmallVector<int64_t>{1, 2};
    Value data = adaptor.getData();
    RankedTensorType resultType = resultTensorType(op);
    bool isUnsigned = isUnsignedInt(op.getData().getType());
    Value sum = buildSum(rewriter, loc, data, dims);
    Value count =
        indexToScalar(rewriter, loc, countOf(rewriter, loc, data, dims),
                      resultType.getElementType(), isUnsigned);
    Value mean = divideByScalar(rewriter, loc, sum, count, isUnsigned);
    SmallVector<OpFoldResult> sizes = dimSizes(rewriter, loc, data);
    for (int64_t d : dims)
      sizes[d] = rewriter.getIndexAttr(1);
    rewriter.replaceOp(op, expandTo(rewriter, loc, mean, resultType,
                                    unitDimReassociation(4, dims), sizes));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// nn.global_max_pool2d
//===----------------------------------------------------------------------===//

struct GlobalMaxPool2DPattern : OpConversionPattern<GlobalMaxPool2DOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GlobalMaxPool2DOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StringRef layout = op.getLayout();
    if (layout != "NCHW" && layout != "NHWC")
      return op.emitError() << "not supported yet: nn.global_max_pool2d with "
                               "layout "
                            << layout << " (NCHW and NHWC are)";
    Location loc = op.getLoc();
    SmallVector<int64_t> dims = layout == "NCHW" ? SmallVector<int64_t>{2, 3}
                                                 : SmallVector<int64_t>{1, 2};
    Value data = adaptor.getData();
    RankedTensorType resultType = resultTensorType(op);
    Type elem = resultType.getElementType();
    bool isUnsigned = isUnsignedInt(op.getData().getType());
    SmallVector<OpFoldResult> sizes = dimSizes(rewriter, loc, data);
    auto redType =
        RankedTensorType::get({resultType.getDimSize(0),
                               resultType.getDimSize(layout == "NCHW" ? 1 : 3)},
                              elem);
    SmallVector<OpFoldResult> redSizes = {sizes[0],
                                          sizes[layout == "NCHW" ? 1 : 3]};
    Value init = filledTensor(rewriter, loc, redType, redSizes,
                              lowestConst(rewriter, loc, elem, isUnsigned));
    auto reduce = linalg::ReduceOp::create(
        rewriter, loc, ValueRange{data}, ValueRange{init}, dims,
        [&](OpBuilder &nb, Location l, ValueRange args) {
          linalg::YieldOp::create(
              nb, l, maxScalars(nb, l, args[0], args[1], isUnsigned));
        });
    for (int64_t d : dims)
      sizes[d] = rewriter.getIndexAttr(1);
    rewriter.replaceOp(op,
                       expandTo(rewriter, loc, reduce.getResult(0), resultType,
                                unitDimReassociation(4, dims), sizes));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// nn.adaptive_avg_pool2d / nn.adaptive_max_pool2d
//===----------------------------------------------------------------------===//

/// The cells of an adaptive pool over the two spatial dims (`spatial`):
/// output cell o of a dim from `in` to `out` covers
/// [floor(o in / out), floor(((o + 1) in + out - 1) / out)), at most `kmax`
/// wide.
struct AdaptiveCells {
  int64_t spatial[2], in[2], out[2], kmax[2];

  AdaptiveCells(bool nchw, RankedTensorType dataType,
                RankedTensorType resultType)
      : spatial{nchw ? 2 : 1, nchw ? 3 : 2} {
    for (int i = 0; i < 2; ++i) {
      in[i] = dataType.getDimSize(spatial[i]);
      out[i] = resultType.getDimSize(spatial[i]);
      kmax[i] = 1;
      for (int64_t o = 0; o < out[i]; ++o) {
        int64_t start = o * in[i] / out[i];
        int64_t end = ((o + 1) * in[i] + out[i] - 1) / out[i];
        kmax[i] = std::max(kmax[i], end - start);
      }
    }
  }

  /// (k < end(o) - start(o), end(o) - start(o)) in dim i.
  std::pair<Value, Value> inWindow(OpBuilder &b, Location l, Value o, Value k,
                                   int i) const {
    auto cst = [&](int64_t v) {
      return arith::ConstantIndexOp::create(b, l, v);
    };
    Value start = arith::DivUIOp::create(
        b, l, arith::MulIOp::create(b, l, o, cst(in[i])), cst(out[i]));
    Value end = arith::DivUIOp::create(
        b, l,
        arith::AddIOp::create(b, l, arith::MulIOp::create(b, l, o, cst(in[i])),
                              cst(in[i] + out[i] - 1)),
        cst(out[i]));
    return std::make_pair(
        arith::CmpIOp::create(b, l, arith::CmpIPredicate::ult, k,
                              arith::SubIOp::create(b, l, end, start))
            .getResult(),
        Value(arith::SubIOp::create(b, l, end, start)));
  }
};

/// The max (or sum) of every cell: a generic over the output and a
/// [kmax0, kmax1] window reading data[start(o) + k] (clamped to the data;
/// masked when k is past the cell's end: a gather, as the start is
/// o * n / m), accumulated into `init`.
Value reduceCells(OpBuilder &rewriter, Location loc, const AdaptiveCells &c,
                  Value data, Value init, bool isMax, bool isUnsigned) {
  MLIRContext *ctx = rewriter.getContext();
  int64_t rank = 4;
  auto resultType = cast<RankedTensorType>(init.getType());
  Value window = tensor::EmptyOp::create(
      rewriter, loc, ArrayRef<int64_t>{c.kmax[0], c.kmax[1]},
      resultType.getElementType());
  SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
  iters.append(2, utils::IteratorType::reduction);
  auto generic = linalg::GenericOp::create(
      rewriter, loc, TypeRange{resultType}, ValueRange{window},
      ValueRange{init},
      ArrayRef<AffineMap>{AffineMap::get(rank + 2, 0,
                                         {getAffineDimExpr(rank, ctx),
                                          getAffineDimExpr(rank + 1, ctx)},
                                         ctx),
                          AffineMap::getMultiDimIdentityMap(rank + 2, ctx)
                              .getMajorSubMap(rank)},
      iters, [&](OpBuilder &b, Location l, ValueRange args) {
        Value ok;
        SmallVector<Value> idx;
        for (int64_t d = 0; d < rank; ++d)
          idx.push_back(linalg::IndexOp::create(b, l, d));
        for (int i = 0; i < 2; ++i) {
          Value o = idx[c.spatial[i]];
          Value k = linalg::IndexOp::create(b, l, rank + i);
          Value inside = c.inWindow(b, l, o, k, i).first;
          ok =
              ok ? arith::AndIOp::create(b, l, ok, inside).getResult() : inside;
          Value start = arith::DivUIOp::create(
              b, l,
              arith::MulIOp::create(
                  b, l, o, arith::ConstantIndexOp::create(b, l, c.in[i])),
              arith::ConstantIndexOp::create(b, l, c.out[i]));
          idx[c.spatial[i]] = arith::MinUIOp::create(
              b, l, arith::AddIOp::create(b, l, start, k),
              arith::ConstantIndexOp::create(b, l, c.in[i] - 1));
        }
        Value x = tensor::ExtractOp::create(b, l, data, idx);
        Value r = isMax ? maxScalars(b, l, x, args[1], isUnsigned)
                        : addScalars2(b, l, x, args[1]);
        linalg::YieldOp::create(
            b, l, arith::SelectOp::create(b, l, ok, r, args[1]).getResult());
      });
  return generic.getResult(0);
}

/// The cell sums divided by the cells' sizes (adaptive avg).
Value divideByCellSize(OpBuilder &rewriter, Location loc,
                       const AdaptiveCells &c, Value sums,
                       ArrayRef<OpFoldResult> outSizes, bool isUnsigned) {
  auto resultType = cast<RankedTensorType>(sums.getType());
  Type elem = resultType.getElementType();
  return buildMap(
      rewriter, loc, resultType, outSizes, {sums},
      {rewriter.getMultiDimIdentityMap(4)},
      [&](OpBuilder &b, Location l, ValueRange args) -> Value {
        Value zero = arith::ConstantIndexOp::create(b, l, 0);
        Value n0 = c.inWindow(b, l, linalg::IndexOp::create(b, l, c.spatial[0]),
                              zero, 0)
                       .second;
        Value n1 = c.inWindow(b, l, linalg::IndexOp::create(b, l, c.spatial[1]),
                              zero, 1)
                       .second;
        Value count = arith::MulIOp::create(b, l, n0, n1);
        Value divisor = indexToScalar(b, l, count, elem, isUnsigned);
        if (isa<FloatType>(elem))
          return arith::DivFOp::create(b, l, args[0], divisor);
        if (isUnsigned)
          return arith::DivUIOp::create(b, l, args[0], divisor);
        return arith::DivSIOp::create(b, l, args[0], divisor);
      });
}

template <typename OpTy, bool isMax>
struct AdaptivePool2DPattern : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpConversionPattern<OpTy>::OpAdaptor;

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    StringRef layout = op.getLayout();
    if (layout != "NCHW" && layout != "NHWC")
      return op.emitError()
             << "not supported yet: " << op->getName() << " with layout "
             << layout << " (NCHW and NHWC are)";
    Value data = adaptor.getData();
    auto dataType = cast<RankedTensorType>(data.getType());
    RankedTensorType resultType = resultTensorType(op);
    bool nchw = layout == "NCHW";
    if (dataType.isDynamicDim(nchw ? 2 : 1) ||
        dataType.isDynamicDim(nchw ? 3 : 2))
      return op.emitError() << "not supported yet: " << op->getName()
                            << " with a `?` spatial dim";
    AdaptiveCells cells(nchw, dataType, resultType);
    Type elem = resultType.getElementType();
    bool isUnsigned = isUnsignedInt(op.getData().getType());
    Value padValue = isMax ? lowestConst(rewriter, loc, elem, isUnsigned)
                           : scalarConst(rewriter, loc, elem, 0.0);
    SmallVector<OpFoldResult> outSizes = dimSizes(rewriter, loc, data);
    for (int i = 0; i < 2; ++i)
      outSizes[cells.spatial[i]] = rewriter.getIndexAttr(cells.out[i]);
    Value init = filledTensor(rewriter, loc, resultType, outSizes, padValue);
    Value result =
        reduceCells(rewriter, loc, cells, data, init, isMax, isUnsigned);
    if constexpr (!isMax)
      result =
          divideByCellSize(rewriter, loc, cells, result, outSizes, isUnsigned);
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Adaptive 1-D and 3-D: relay-level rewrites into the 2-D pool
//===----------------------------------------------------------------------===//

template <typename OpTy>
LogicalResult checkAdaptiveLayout(OpTy op, StringRef channelsFirst,
                                  StringRef channelsLast) {
  StringRef layout = op.getLayout();
  if (layout == channelsFirst || layout == channelsLast)
    return success();
  return op.emitError() << "not supported yet: " << op->getName()
                        << " with layout " << layout << " (" << channelsFirst
                        << " and " << channelsLast << " are)";
}

template <typename Pool2D>
Value adaptive2D(OpBuilder &b, Location loc, Value x,
                 ArrayRef<int64_t> outputSize, StringRef layout) {
  return Pool2D::create(b, loc, x, b.getDenseI64ArrayAttr(outputSize),
                        b.getStringAttr(layout), b.getStringAttr(""));
}

/// NCW [N, C, W] -> [N, C, W, 1] (NCHW), NWC [N, W, C] -> [N, W, 1, C]
/// (NHWC); the pool to [w, 1]; the unit dim squeezed away.
template <typename Pool2D>
Value adaptive1DAs2D(OpBuilder &b, Location loc, Value data, bool ncw,
                     RankedTensorType resultType) {
  int64_t unit = ncw ? 3 : 2;
  int64_t w = resultType.getDimSize(ncw ? 2 : 1);
  Value x = ExpandDimsOp::create(b, loc, data, b.getI64IntegerAttr(unit),
                                 b.getI64IntegerAttr(1));
  Value y = adaptive2D<Pool2D>(b, loc, x, {w, 1}, ncw ? "NCHW" : "NHWC");
  return SqueezeOp::create(b, loc, y, b.getDenseI64ArrayAttr({unit}));
}

/// nn.adaptive_{avg,max}_pool{1,3}d as the 2-D pool `Pool2D` (N = 1, 3).
template <typename OpTy, typename Pool2D, int N, bool IsAvg>
struct AdaptivePoolAs2DPattern : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(OpTy op,
                  typename OpConversionPattern<OpTy>::OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StringRef channelsFirst = N == 1 ? "NCW" : "NCDHW";
    if (failed(
            checkAdaptiveLayout(op, channelsFirst, N == 1 ? "NWC" : "NDHWC")))
      return failure();
    bool cf = op.getLayout() == channelsFirst;
    Value data = adaptor.getData();
    auto dataType = cast<RankedTensorType>(data.getType());
    RankedTensorType resultType = resultTensorType(op);
    if (N == 1) {
      rewriter.replaceOp(op, adaptive1DAs2D<Pool2D>(rewriter, op.getLoc(), data,
                                                    cf, resultType));
      return success();
    }
    // Mean of equal-sized means is the mean in exact arithmetic only.
    if (IsAvg && !isa<FloatType>(dataType.getElementType()))
      return op.emitError() << "not supported yet: " << op->getName()
                            << " on integer tensors (float ones are)";
    if (llvm::any_of(dataType.getShape().slice(cf ? 2 : 1, 3),
                     ShapedType::isDynamic))
      return op.emitError() << "not supported yet: " << op->getName()
                            << " with a `?` spatial dim";
    Location loc = op.getLoc();
    rewriter.replaceOp(op,
                       separable3DAs2D(rewriter, loc, data, cf, resultType,
                                       [&](Value x, ArrayRef<int64_t> size) {
                                         return adaptive2D<Pool2D>(
                                             rewriter, loc, x, size, "NCHW");
                                       }));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Blocked channels (NCHW8c, from AlterOpLayout): the plain pool between
// layout_transforms
//===----------------------------------------------------------------------===//

/// A pool (any of them) whose layout blocks the channels runs as the pool
/// in the layout's primal letters (NCHW8c -> NCHW) between two
/// relay.layout_transforms, which the conversion then lowers.
template <typename OpTy> struct BlockedPool : OpConversionPattern<OpTy> {
  BlockedPool(const TypeConverter &tc, MLIRContext *ctx)
      : OpConversionPattern<OpTy>(tc, ctx, kSpecialisedBenefit) {}
  LogicalResult
  matchAndRewrite(OpTy op,
                  typename OpConversionPattern<OpTy>::OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    StringRef layout = op.getLayout();
    if (llvm::all_of(layout, llvm::isUpper))
      return rewriter.notifyMatchFailure(op, "channels not blocked");
    std::string primal;
    llvm::copy_if(layout, std::back_inserter(primal), llvm::isUpper);
    Location loc = op.getLoc();
    Value data = LayoutTransformOp::create(rewriter, loc, adaptor.getData(),
                                           rewriter.getStringAttr(layout),
                                           rewriter.getStringAttr(primal));
    Operation *plain = rewriter.clone(*op);
    plain->setOperand(0, data);
    plain->setAttr("layout", rewriter.getStringAttr(primal));
    if (!op.getOutLayout().empty())
      plain->setAttr("out_layout", rewriter.getStringAttr(primal));
    SmallVector<Type> types;
    if (failed(cast<InferTypeOpInterface>(plain).inferReturnTypes(
            plain->getContext(), loc, plain->getOperands(),
            plain->getRawDictionaryAttrs(), plain->getPropertiesStorage(),
            plain->getRegions(), types)))
      return op.emitError() << "not supported yet: " << op->getName()
                            << " with layout " << layout;
    plain->getResult(0).setType(types[0]);
    rewriter.replaceOpWithNewOp<LayoutTransformOp>(
        op, plain->getResult(0), rewriter.getStringAttr(primal),
        rewriter.getStringAttr(layout));
    return success();
  }
};

} // namespace

void relay::populatePoolToLinalgPatterns(const TypeConverter &tc,
                                         RewritePatternSet &patterns) {
  addPoolPatterns<MaxPool1DOp, AvgPool1DOp, 1>(tc, patterns);
  addPoolPatterns<MaxPool2DOp, AvgPool2DOp, 2>(tc, patterns);
  addPoolPatterns<MaxPool3DOp, AvgPool3DOp, 3>(tc, patterns);
  patterns
      .add<BlockedPool<MaxPool1DOp>, BlockedPool<AvgPool1DOp>,
           BlockedPool<MaxPool2DOp>, BlockedPool<AvgPool2DOp>,
           BlockedPool<MaxPool3DOp>, BlockedPool<AvgPool3DOp>,
           BlockedPool<GlobalAvgPool2DOp>, BlockedPool<GlobalMaxPool2DOp>,
           BlockedPool<AdaptiveAvgPool2DOp>, BlockedPool<AdaptiveMaxPool2DOp>,
           BlockedPool<AdaptiveAvgPool1DOp>, BlockedPool<AdaptiveMaxPool1DOp>,
           BlockedPool<AdaptiveAvgPool3DOp>, BlockedPool<AdaptiveMaxPool3DOp>>(
          tc, patterns.getContext());
  patterns.add<GlobalAvgPool2DPattern, GlobalMaxPool2DPattern,
               AdaptivePool2DPattern<AdaptiveAvgPool2DOp, false>,
               AdaptivePool2DPattern<AdaptiveMaxPool2DOp, true>,
               AdaptivePoolAs2DPattern<AdaptiveAvgPool1DOp, AdaptiveAvgPool2DOp,
                                       1, true>,
               AdaptivePoolAs2DPattern<AdaptiveMaxPool1DOp, AdaptiveMaxPool2DOp,
                                       1, false>,
               AdaptivePoolAs2DPattern<AdaptiveAvgPool3DOp, AdaptiveAvgPool2DOp,
                                       3, true>,
               AdaptivePoolAs2DPattern<AdaptiveMaxPool3DOp, AdaptiveMaxPool2DOp,
                                       3, false>>(tc, patterns.getContext());
}
