//===- Conv.cpp - nn.conv1d, nn.conv3d, nn.conv2d_transpose ---------------===//
//
// Named linalg convolutions (conv_1d_ncw_fcw, conv_1d_nwc_wcf,
// conv_3d_ncdhw_fcdhw, conv_3d_ndhwc_dhwcf and their depthwise forms);
// grouped channel-first convolutions become one linalg.generic over the
// input split into [N, G, C/G, ...]. Padding is an explicit tensor.pad.
//
// conv2d_transpose is a stride-1 conv_2d_nchw_fchw over the input with
// (stride - 1) zeros inserted between elements (tensor.insert_slice with
// strides into a zero tensor) and padded by dilation * (k - 1) - padding,
// with the kernel flipped spatially and its I/O dims swapped; groups > 1
// use the grouped generic above. Other layouts (any permutation of NCHW
// data/out and IOHW kernel, e.g. NHWC with HWOI) are transposed to
// NCHW/IOHW and back.
//
//===----------------------------------------------------------------------===//
#include "NNCommon.h"

#include "../../Relations/RelationUtils.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;
using namespace mlir::relay::lowering::nn;

namespace {

/// An N-d grouped convolution in channel-first layout as a linalg.generic:
/// in [N, G, C/G, S...], w [G, F/G, C/G, K...], out [N, G, F/G, O...].
Value groupedConvGeneric(OpBuilder &b, Location loc, Value in, Value w,
                         Value out, ArrayRef<int64_t> strides,
                         ArrayRef<int64_t> dilation, bool isUnsigned) {
  MLIRContext *ctx = b.getContext();
  int64_t n = strides.size();
  // Dims: n, g, f, o_0..o_{n-1} (parallel), c, k_0..k_{n-1} (reduction).
  int64_t numDims = 4 + 2 * n;
  auto d = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
  SmallVector<AffineExpr> inExprs = {d(0), d(1), d(3 + n)};
  SmallVector<AffineExpr> wExprs = {d(1), d(2), d(3 + n)};
  SmallVector<AffineExpr> outExprs = {d(0), d(1), d(2)};
  for (int64_t i = 0; i < n; ++i) {
    inExprs.push_back(d(3 + i) * strides[i] + d(4 + n + i) * dilation[i]);
    wExprs.push_back(d(4 + n + i));
    outExprs.push_back(d(3 + i));
  }
  SmallVector<utils::IteratorType> iters(3 + n, utils::IteratorType::parallel);
  iters.append(1 + n, utils::IteratorType::reduction);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{out.getType()}, ValueRange{in, w}, ValueRange{out},
      ArrayRef<AffineMap>{AffineMap::get(numDims, 0, inExprs, ctx),
                          AffineMap::get(numDims, 0, wExprs, ctx),
                          AffineMap::get(numDims, 0, outExprs, ctx)},
      iters, [&](OpBuilder &nb, Location l, ValueRange args) {
        linalg::YieldOp::create(
            nb, l, mulAcc(nb, l, args[0], args[1], args[2], isUnsigned));
      });
  return generic.getResult(0);
}

template <typename OpTy, int N>
struct ConvNDPattern : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpConversionPattern<OpTy>::OpAdaptor;

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    StringRef dl = op.getDataLayout(), kl = op.getKernelLayout();
    StringRef ol = op.getOutLayout();
    bool cf = N == 1 ? (dl == "NCW" && kl == "OIW")
                     : (dl == "NCDHW" && kl == "OIDHW");
    bool cl = N == 1 ? (dl == "NWC" && kl == "WIO")
                     : (dl == "NDHWC" && kl == "DHWIO");
    if ((!cf && !cl) || (!ol.empty() && ol != dl))
      return op.emitError()
             << "not supported yet: " << op->getName() << " with layouts "
             << dl << "/" << kl
             << (N == 1 ? " (NCW/OIW and NWC/WIO are)"
                        : " (NCDHW/OIDHW and NDHWC/DHWIO are)");
    Value data = adaptor.getData(), weight = adaptor.getWeight();
    auto dataType = cast<RankedTensorType>(data.getType());
    auto weightType = cast<RankedTensorType>(weight.getType());
    RankedTensorType resultType = resultTensorType(op);
    Type outElem = resultType.getElementType();
    bool isUnsigned = isUnsignedInt(elementTypeOf(op.getData().getType()));
    int64_t groups = op.getGroups();
    int64_t cDim = cf ? 1 : N + 1, oDim = cf ? 0 : N + 1, iDim = cf ? 1 : N;
    SmallVector<int64_t, 3> spatial, kSpatial;
    for (int64_t i = 0; i < N; ++i) {
      spatial.push_back(cf ? 2 + i : 1 + i);
      kSpatial.push_back(cf ? 2 + i : i);
    }
    auto [lo, hi] = paddingND(op.getPadding(), N);
    Value zeroIn = scalarConst(rewriter, loc, dataType.getElementType(), 0.0);
    ArrayRef<int64_t> strides = op.getStrides(), dilation = op.getDilation();
    SmallVector<int64_t, 3> kExtent;
    for (int64_t d : kSpatial)
      kExtent.push_back(weightType.getDimSize(d));
    Value padded = cropToWindows(
        rewriter, loc, padDims(rewriter, loc, data, spatial, lo, hi, zeroIn),
        spatial, kExtent, strides, dilation);
    SmallVector<OpFoldResult> inSizes = dimSizes(rewriter, loc, padded);
    SmallVector<OpFoldResult> kSizes = dimSizes(rewriter, loc, weight);
    SmallVector<OpFoldResult> outSizes =
        resultSizes(rewriter, resultType, [&](int64_t d) -> OpFoldResult {
          if (d == 0)
            return inSizes[0];
          if (d == cDim)
            return kSizes[oDim];
          int64_t i = llvm::find(spatial, d) - spatial.begin();
          return windowExtent(rewriter, loc, inSizes[d], kSizes[kSpatial[i]],
                              strides[i], dilation[i]);
        });
    SmallVector<NamedAttribute> attrs = {
        convAttr(rewriter, "strides", strides),
        convAttr(rewriter, "dilations", dilation)};
    Value zero = scalarConst(rewriter, loc, outElem, 0.0);
    auto named = [&](auto tag, Value in, Value w, Value out) -> Value {
      using Named = decltype(tag);
      auto conv = Named::create(rewriter, loc, TypeRange{out.getType()},
                                ValueRange{in, w}, ValueRange{out}, attrs);
      if (isUnsigned)
        conv->setAttr("cast", linalg::TypeFnAttr::get(
                                  rewriter.getContext(),
                                  linalg::TypeFn::cast_unsigned));
      return conv->getResult(0);
    };

    int64_t channels = dataType.getDimSize(cDim);
    int64_t outChannels = weightType.getDimSize(oDim);
    Value result;
    if (groups == 1) {
      Value out = filledTensor(rewriter, loc, resultType, outSizes, zero);
      if constexpr (N == 1)
        result = cf ? named(linalg::Conv1DNcwFcwOp(), padded, weight, out)
                    : named(linalg::Conv1DNwcWcfOp(), padded, weight, out);
      else
        result = cf ? named(linalg::Conv3DNcdhwFcdhwOp(), padded, weight, out)
                    : named(linalg::Conv3DNdhwcDhwcfOp(), padded, weight, out);
    } else if (groups == channels && groups == outChannels &&
               weightType.getDimSize(iDim) == 1) {
      // Depthwise (multiplier 1): drop the unit I dim of the kernel.
      SmallVector<ReassociationIndices> dropI;
      SmallVector<int64_t> wShape;
      for (int64_t d = 0; d < N + 2; ++d) {
        if (d == iDim)
          continue;
        wShape.push_back(weightType.getDimSize(d));
        dropI.push_back({d});
      }
      // The I dim joins its neighbour: O for OI.. (cf), O for ..IO (cl).
      if (cf) {
        dropI[0] = {0, 1};
      } else {
        dropI.back() = {N, N + 1};
      }
      auto wType = RankedTensorType::get(wShape, weightType.getElementType());
      Value w = tensor::CollapseShapeOp::create(rewriter, loc, wType, weight,
                                                dropI);
      Value out = filledTensor(rewriter, loc, resultType, outSizes, zero);
      if constexpr (N == 1)
        result = cf ? named(linalg::DepthwiseConv1DNcwCwOp(), padded, w, out)
                    : named(linalg::DepthwiseConv1DNwcWcOp(), padded, w, out);
      else
        result = cf ? named(linalg::DepthwiseConv3DNcdhwCdhwOp(), padded, w, out)
                    : named(linalg::DepthwiseConv3DNdhwcDhwcOp(), padded, w, out);
    } else if (cf) {
      // Grouped: C → [G, C/G], O → [G, O/G].
      auto pShape = cast<RankedTensorType>(padded.getType()).getShape();
      OpFoldResult g = rewriter.getIndexAttr(groups);
      SmallVector<int64_t> inShape = {pShape[0], groups, divDim(pShape[1], groups)};
      SmallVector<OpFoldResult> inS = {inSizes[0], g,
                                       divSize(rewriter, loc, inSizes[1], groups)};
      SmallVector<int64_t> wShape = {groups, divDim(outChannels, groups),
                                     weightType.getDimSize(1)};
      SmallVector<OpFoldResult> wS = {g, divSize(rewriter, loc, kSizes[0], groups),
                                      kSizes[1]};
      SmallVector<int64_t> oShape = {resultType.getDimSize(0), groups,
                                     divDim(resultType.getDimSize(1), groups)};
      SmallVector<OpFoldResult> oS = {outSizes[0], g,
                                      divSize(rewriter, loc, outSizes[1], groups)};
      SmallVector<ReassociationIndices> inRe = {{0}, {1, 2}}, wRe = {{0, 1}, {2}};
      for (int64_t i = 0; i < N; ++i) {
        inShape.push_back(pShape[2 + i]);
        inS.push_back(inSizes[2 + i]);
        wShape.push_back(weightType.getDimSize(2 + i));
        wS.push_back(kSizes[2 + i]);
        oShape.push_back(resultType.getDimSize(2 + i));
        oS.push_back(outSizes[2 + i]);
        inRe.push_back({3 + i});
        wRe.push_back({3 + i});
      }
      Value in = expandTo(rewriter, loc, padded,
                          RankedTensorType::get(inShape, dataType.getElementType()),
                          inRe, inS);
      Value w = expandTo(rewriter, loc, weight,
                         RankedTensorType::get(wShape, weightType.getElementType()),
                         wRe, wS);
      auto outType = RankedTensorType::get(oShape, outElem);
      Value out = filledTensor(rewriter, loc, outType, oS, zero);
      Value conv = groupedConvGeneric(rewriter, loc, in, w, out, strides,
                                      dilation, isUnsigned);
      result = tensor::CollapseShapeOp::create(rewriter, loc, resultType, conv,
                                               inRe);
    } else {
      return op.emitError() << "not supported yet: grouped " << op->getName()
                            << " in layout " << dl
                            << " (groups > 1 needs the channel-first layout "
                               "unless depthwise)";
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// nn.conv2d_transpose (computed in NCHW data, IOHW kernel)
//===----------------------------------------------------------------------===//

OpFoldResult affineSize(OpBuilder &b, Location loc, OpFoldResult in,
                        int64_t mul, int64_t add) {
  if (auto c = getConstantIntValue(in))
    return b.getIndexAttr(*c * mul + add);
  Value v = getValueOrCreateConstantIndexOp(b, loc, in);
  Value r = arith::MulIOp::create(b, loc, v,
                                  arith::ConstantIndexOp::create(b, loc, mul));
  return arith::AddIOp::create(b, loc, r,
                               arith::ConstantIndexOp::create(b, loc, add))
      .getResult();
}

/// `x` with its dims permuted: result dim i is dim `perm[i]` of `x`
/// (`x` itself for the identity).
Value permuteDims(OpBuilder &b, Location loc, Value x, ArrayRef<int64_t> perm) {
  if (llvm::equal(perm, llvm::seq<int64_t>(0, perm.size())))
    return x;
  auto type = cast<RankedTensorType>(x.getType());
  SmallVector<OpFoldResult> in = dimSizes(b, loc, x), sizes;
  SmallVector<int64_t> shape;
  for (int64_t p : perm) {
    sizes.push_back(in[p]);
    shape.push_back(type.getDimSize(p));
  }
  Value init = emptyTensor(
      b, loc, RankedTensorType::get(shape, type.getElementType()), sizes);
  return linalg::TransposeOp::create(b, loc, x, init, perm).getResult()[0];
}

struct Conv2DTransposePattern : OpConversionPattern<Conv2DTransposeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Conv2DTransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // Position in each layout of the canonical letters (verified by the
    // relation): NCHW data and result, IOHW kernel.
    StringRef outLayout =
        op.getOutLayout().empty() ? op.getDataLayout() : op.getOutLayout();
    auto dl = rel::parseLayout(op, op.getDataLayout(), "NCHW", "data_layout");
    auto kl =
        rel::parseLayout(op, op.getKernelLayout(), "IOHW", "kernel_layout");
    auto ol = rel::parseLayout(op, outLayout, "NCHW", "out_layout");
    if (failed(dl) || failed(kl) || failed(ol))
      return failure();
    int64_t groups = op.getGroups();
    Value data = permuteDims(rewriter, loc, adaptor.getData(), *dl);
    Value weight = permuteDims(rewriter, loc, adaptor.getWeight(), *kl);
    auto dataType = cast<RankedTensorType>(data.getType());
    auto weightType = cast<RankedTensorType>(weight.getType());
    if (weightType.isDynamicDim(2) || weightType.isDynamicDim(3))
      return op.emitError()
             << "not supported yet: nn.conv2d_transpose with a `?` kernel "
                "size";
    if (groups > 1 && weightType.isDynamicDim(0))
      return op.emitError() << "not supported yet: grouped "
                               "nn.conv2d_transpose with `?` input channels";
    // The result in NCHW, then permuted into the out layout.
    SmallVector<int64_t, 4> toOut(4);
    for (int64_t c = 0; c < 4; ++c)
      toOut[(*ol)[c]] = c;
    RankedTensorType finalType = resultTensorType(op);
    SmallVector<int64_t> nchwShape(4);
    for (int64_t c = 0; c < 4; ++c)
      nchwShape[c] = finalType.getDimSize((*ol)[c]);
    auto resultType =
        RankedTensorType::get(nchwShape, finalType.getElementType());
    Type inElem = dataType.getElementType(), outElem = resultType.getElementType();
    bool isUnsigned = isUnsignedInt(elementTypeOf(op.getData().getType()));
    ArrayRef<int64_t> strides = op.getStrides(), dilation = op.getDilation();
    ArrayRef<int64_t> outPad = op.getOutputPadding();
    SmallVector<int64_t, 4> pad = padding4(op.getPadding());
    int64_t k[2] = {weightType.getDimSize(2), weightType.getDimSize(3)};

    // Zero-stuffed input, padded: [N, C, (H-1)*s + 1 + lo + hi, ...] with
    // lo = d(k-1) - pad_before, hi = d(k-1) - pad_after + output_padding;
    // negative amounts crop the output instead.
    SmallVector<OpFoldResult> dSizes = dimSizes(rewriter, loc, data);
    int64_t lo[2], hi[2], crop[2];
    for (int i = 0; i < 2; ++i) {
      int64_t span = dilation[i] * (k[i] - 1);
      lo[i] = span - pad[i];
      hi[i] = span - pad[i + 2] + outPad[i];
      crop[i] = std::max<int64_t>(-lo[i], 0);
      lo[i] = std::max<int64_t>(lo[i], 0);
      hi[i] = std::max<int64_t>(hi[i], 0);
    }
    SmallVector<OpFoldResult> bigSizes = {dSizes[0], dSizes[1]};
    SmallVector<int64_t> bigShape = {dataType.getDimSize(0),
                                     dataType.getDimSize(1)};
    for (int i = 0; i < 2; ++i) {
      bigSizes.push_back(affineSize(rewriter, loc, dSizes[2 + i], strides[i],
                                    1 - strides[i] + lo[i] + hi[i]));
      int64_t h = dataType.getDimSize(2 + i);
      bigShape.push_back(ShapedType::isDynamic(h)
                             ? h
                             : (h - 1) * strides[i] + 1 + lo[i] + hi[i]);
    }
    auto bigType = RankedTensorType::get(bigShape, inElem);
    Value big = filledTensor(rewriter, loc, bigType, bigSizes,
                             scalarConst(rewriter, loc, inElem, 0.0));
    SmallVector<OpFoldResult> offsets = {rewriter.getIndexAttr(0),
                                         rewriter.getIndexAttr(0),
                                         rewriter.getIndexAttr(lo[0]),
                                         rewriter.getIndexAttr(lo[1])};
    SmallVector<OpFoldResult> steps = {
        rewriter.getIndexAttr(1), rewriter.getIndexAttr(1),
        rewriter.getIndexAttr(strides[0]), rewriter.getIndexAttr(strides[1])};
    Value stuffed = tensor::InsertSliceOp::create(rewriter, loc, data, big,
                                                  offsets, dSizes, steps);

    // Kernel [C, F/G, KH, KW] → [F, C, KH, KW] (groups = 1) or
    // [G, F/G, C/G, KH, KW] flipped spatially (a gather: a map with negated
    // dims would not tile in IREE).
    MLIRContext *ctx = rewriter.getContext();
    SmallVector<OpFoldResult> kSizes = dimSizes(rewriter, loc, weight);
    int64_t cg = groups > 1 ? weightType.getDimSize(0) / groups : 0;
    RankedTensorType wType;
    SmallVector<OpFoldResult> wSizes;
    if (groups == 1) {
      wType = RankedTensorType::get(
          {weightType.getDimSize(1), weightType.getDimSize(0), k[0], k[1]},
          weightType.getElementType());
      wSizes = {kSizes[1], kSizes[0], kSizes[2], kSizes[3]};
    } else {
      wType = RankedTensorType::get(
          {groups, weightType.getDimSize(1), cg, k[0], k[1]},
          weightType.getElementType());
      wSizes = {rewriter.getIndexAttr(groups), kSizes[1],
                rewriter.getIndexAttr(cg), kSizes[2], kSizes[3]};
    }
    Value w = buildMap(
        rewriter, loc, wType, wSizes, {}, {},
        [&](OpBuilder &b, Location l, ValueRange) -> Value {
          auto idx = [&](int64_t d) {
            return linalg::IndexOp::create(b, l, d).getResult();
          };
          int64_t sp = groups == 1 ? 2 : 3;
          auto flip = [&](int64_t i) {
            return arith::SubIOp::create(
                       b, l, arith::ConstantIndexOp::create(b, l, k[i] - 1),
                       idx(sp + i))
                .getResult();
          };
          if (groups == 1)
            return tensor::ExtractOp::create(
                b, l, weight, ValueRange{idx(1), idx(0), flip(0), flip(1)});
          // weight[g * C/G + c, f, ...] for w[g, f, c, ...].
          Value c = arith::AddIOp::create(
              b, l,
              arith::MulIOp::create(
                  b, l, idx(0), arith::ConstantIndexOp::create(b, l, cg)),
              idx(2));
          return tensor::ExtractOp::create(
              b, l, weight, ValueRange{c, idx(1), flip(0), flip(1)});
        });

    // Stride-1 convolution, then the crop.
    SmallVector<OpFoldResult> convSizes = {
        dSizes[0], groups == 1 ? kSizes[1]
                               : affineSize(rewriter, loc, kSizes[1], groups, 0)};
    SmallVector<int64_t> convShape = {resultType.getDimSize(0),
                                      resultType.getDimSize(1)};
    for (int i = 0; i < 2; ++i) {
      int64_t span = dilation[i] * (k[i] - 1);
      convSizes.push_back(
          affineSize(rewriter, loc, bigSizes[2 + i], 1, -span));
      convShape.push_back(ShapedType::isDynamic(bigShape[2 + i])
                              ? ShapedType::kDynamic
                              : bigShape[2 + i] - span);
    }
    auto convType = RankedTensorType::get(convShape, outElem);
    Value out = filledTensor(rewriter, loc, convType, convSizes,
                             scalarConst(rewriter, loc, outElem, 0.0));
    Value result;
    if (groups == 1) {
      auto conv = linalg::Conv2DNchwFchwOp::create(
          rewriter, loc, TypeRange{convType}, ValueRange{stuffed, w},
          ValueRange{out},
          SmallVector<NamedAttribute>{
              convAttr(rewriter, "strides", {1, 1}),
              convAttr(rewriter, "dilations", dilation)});
      if (isUnsigned)
        conv->setAttr("cast", linalg::TypeFnAttr::get(
                                  ctx, linalg::TypeFn::cast_unsigned));
      result = conv->getResult(0);
    } else {
      // [N, C, ...] → [N, G, C/G, ...] and back for the output channels.
      auto split = [&](Value x, OpFoldResult channels, int64_t perGroup) {
        auto t = cast<RankedTensorType>(x.getType());
        SmallVector<OpFoldResult> sizes = dimSizes(rewriter, loc, x);
        sizes[1] = rewriter.getIndexAttr(groups);
        sizes.insert(sizes.begin() + 2,
                     perGroup ? OpFoldResult(rewriter.getIndexAttr(perGroup))
                              : channels);
        SmallVector<int64_t> shape(t.getShape());
        shape[1] = groups;
        shape.insert(shape.begin() + 2, perGroup ? perGroup
                                                 : weightType.getDimSize(1));
        return expandTo(rewriter, loc, x,
                        RankedTensorType::get(shape, t.getElementType()),
                        {{0}, {1, 2}, {3}, {4}}, sizes);
      };
      Value in = split(stuffed, OpFoldResult(), cg);
      Value acc = split(out, kSizes[1], 0);
      Value g = groupedConvGeneric(rewriter, loc, in, w, acc, {1, 1}, dilation,
                                   isUnsigned);
      result = tensor::CollapseShapeOp::create(
          rewriter, loc, convType, g,
          SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
    }
    if (convType != resultType || crop[0] || crop[1]) {
      SmallVector<OpFoldResult> rSizes =
          resultSizes(rewriter, resultType, [&](int64_t d) -> OpFoldResult {
            if (d < 2)
              return convSizes[d];
            int i = d - 2;
            int64_t full = dilation[i] * (k[i] - 1) - pad[i] - pad[i + 2] +
                           outPad[i] + 1 - strides[i];
            return affineSize(rewriter, loc, dSizes[d], strides[i], full);
          });
      result = tensor::ExtractSliceOp::create(
          rewriter, loc, resultType, result,
          SmallVector<OpFoldResult>{rewriter.getIndexAttr(0),
                                    rewriter.getIndexAttr(0),
                                    rewriter.getIndexAttr(crop[0]),
                                    rewriter.getIndexAttr(crop[1])},
          rSizes, SmallVector<OpFoldResult>(4, rewriter.getIndexAttr(1)));
    }
    rewriter.replaceOp(op, permuteDims(rewriter, loc, result, toOut));
    return success();
  }
};

} // namespace

void nn::populateConvPatterns(const TypeConverter &tc,
                              RewritePatternSet &patterns) {
  patterns.add<ConvNDPattern<Conv1DOp, 1>, ConvNDPattern<Conv3DOp, 3>,
               Conv2DTransposePattern>(tc, patterns.getContext());
}
