//===- ConvTranspose.cpp - nn.conv2d_transpose ----------------------------===//
//
// A stride-1 conv_2d_nchw_fchw over the input with (stride - 1) zeros
// inserted between elements and the kernel flipped (groups = 1), or the
// grouped linalg.generic (groupedConvGeneric, any groups); computed in NCHW
// data and an IOHW kernel.
//
//===----------------------------------------------------------------------===//
#include "DynamicUtils.h"
#include "Window.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;

namespace {

//===----------------------------------------------------------------------===//
// nn.conv2d_transpose (computed in NCHW data, IOHW kernel): a stride-1
// convolution over the zero-stuffed input with the flipped kernel.
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

/// Permutations from conv2d_transpose's layouts to NCHW data / IOHW kernel /
/// NCHW result (relay/Utils/LayoutUtils.h); nullopt if not permutations.
struct Conv2DTransposeLayout {
  SmallVector<int64_t> data, kernel, out;
};

std::optional<Conv2DTransposeLayout>
getConv2DTransposeLayout(Conv2DTransposeOp op) {
  StringRef outLayout =
      op.getOutLayout().empty() ? op.getDataLayout() : op.getOutLayout();
  auto dl = getLayoutPermutation(op.getDataLayout(), "NCHW");
  auto kl = getLayoutPermutation(op.getKernelLayout(), "IOHW");
  auto ol = getLayoutPermutation(outLayout, "NCHW");
  if (failed(dl) || failed(kl) || failed(ol))
    return std::nullopt;
  return Conv2DTransposeLayout{*dl, *kl, *ol};
}

/// The phases of one conv2d_transpose lowering, in NCHW data and IOHW
/// kernel: the input zero-stuffed and padded, the kernel flipped (and split
/// by group), a stride-1 convolution, the crop to the result.
struct ConvTransposeLowering {
  ConversionPatternRewriter &rewriter;
  Location loc;
  Conv2DTransposeOp op;
  bool grouped;
  int64_t groups;
  ArrayRef<int64_t> strides, dilation, outPad;
  // Verified by the relation: (top, left), (bottom, right).
  SpatialPadding pad;
  int64_t k[2];
  // Set by stuffInput: the input's sizes, the stuffed input's, the crop.
  SmallVector<OpFoldResult> dSizes, bigSizes;
  SmallVector<int64_t> bigShape;
  int64_t crop[2];
  // Set by flipKernel: the IOHW kernel's sizes, C/G (grouped) and F/G.
  SmallVector<OpFoldResult> kSizes;
  int64_t cg = 0, fg = 0;

  ConvTransposeLowering(ConversionPatternRewriter &rewriter,
                        Conv2DTransposeOp op, bool grouped, int64_t kh,
                        int64_t kw)
      : rewriter(rewriter), loc(op.getLoc()), op(op), grouped(grouped),
        groups(op.getGroups()), strides(op.getStrides()),
        dilation(op.getDilation()), outPad(op.getOutputPadding()),
        pad(*normalizePadding(op.getPadding(), 2)), k{kh, kw} {}

  /// Zero-stuffed input, padded: [N, C, (H-1)*s + 1 + lo + hi, ...] with
  /// lo = d(k-1) - pad_before, hi = d(k-1) - pad_after + output_padding;
  /// negative amounts crop the output instead.
  Value stuffInput(Value data) {
    auto dataType = cast<RankedTensorType>(data.getType());
    Type inElem = dataType.getElementType();
    dSizes = dimSizes(rewriter, loc, data);
    int64_t lo[2], hi[2];
    for (int i = 0; i < 2; ++i) {
      int64_t span = dilation[i] * (k[i] - 1);
      lo[i] = span - pad.before[i];
      hi[i] = span - pad.after[i] + outPad[i];
      crop[i] = std::max<int64_t>(-lo[i], 0);
      lo[i] = std::max<int64_t>(lo[i], 0);
      hi[i] = std::max<int64_t>(hi[i], 0);
    }
    bigSizes = {dSizes[0], dSizes[1]};
    bigShape = {dataType.getDimSize(0), dataType.getDimSize(1)};
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
    SmallVector<OpFoldResult> offsets = {
        rewriter.getIndexAttr(0), rewriter.getIndexAttr(0),
        rewriter.getIndexAttr(lo[0]), rewriter.getIndexAttr(lo[1])};
    SmallVector<OpFoldResult> steps = {
        rewriter.getIndexAttr(1), rewriter.getIndexAttr(1),
        rewriter.getIndexAttr(strides[0]), rewriter.getIndexAttr(strides[1])};
    return insertSlice(rewriter, loc, data, big, offsets, dSizes, steps);
  }

  /// Kernel [C, F/G, KH, KW] → [F, C, KH, KW] (groups = 1) or
  /// [G, F/G, C/G, KH, KW], flipped spatially with a gather (a map with
  /// negated dims would not tile in IREE).
  Value flipKernel(Value weight) {
    auto weightType = cast<RankedTensorType>(weight.getType());
    kSizes = dimSizes(rewriter, loc, weight);
    cg = grouped ? weightType.getDimSize(0) / groups : 0;
    fg = weightType.getDimSize(1);
    RankedTensorType wType;
    SmallVector<OpFoldResult> wSizes;
    if (!grouped) {
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
    return buildMap(
        rewriter, loc, wType, wSizes, {}, {},
        [&](OpBuilder &b, Location l, ValueRange) -> Value {
          auto idx = [&](int64_t d) {
            return linalg::IndexOp::create(b, l, d).getResult();
          };
          int64_t sp = grouped ? 3 : 2;
          auto flip = [&](int64_t i) {
            return arith::SubIOp::create(
                       b, l, arith::ConstantIndexOp::create(b, l, k[i] - 1),
                       idx(sp + i))
                .getResult();
          };
          if (!grouped)
            return tensor::ExtractOp::create(
                b, l, weight, ValueRange{idx(1), idx(0), flip(0), flip(1)});
          // weight[g * C/G + c, f, ...] for w[g, f, c, ...].
          Value c = arith::AddIOp::create(
              b, l,
              arith::MulIOp::create(b, l, idx(0),
                                    arith::ConstantIndexOp::create(b, l, cg)),
              idx(2));
          return tensor::ExtractOp::create(
              b, l, weight, ValueRange{c, idx(1), flip(0), flip(1)});
        });
  }

  /// [N, C, ...] → [N, G, C/G, ...]: `perGroup` channels per group, or
  /// (when 0) `channels`, of static size F/G.
  Value splitGroups(Value x, OpFoldResult channels, int64_t perGroup) {
    auto t = cast<RankedTensorType>(x.getType());
    SmallVector<OpFoldResult> sizes = dimSizes(rewriter, loc, x);
    sizes[1] = rewriter.getIndexAttr(groups);
    sizes.insert(sizes.begin() + 2,
                 perGroup ? OpFoldResult(rewriter.getIndexAttr(perGroup))
                          : channels);
    SmallVector<int64_t> shape(t.getShape());
    shape[1] = groups;
    shape.insert(shape.begin() + 2, perGroup ? perGroup : fg);
    return expandTo(rewriter, loc, x,
                    RankedTensorType::get(shape, t.getElementType()),
                    {{0}, {1, 2}, {3}, {4}}, sizes);
  }

  /// The stride-1 convolution of the stuffed input with the flipped kernel
  /// `w` into a zero `convType` of `convSizes`.
  Value convolve(Value stuffed, Value w, RankedTensorType convType,
                 ArrayRef<OpFoldResult> convSizes) {
    Type outElem = convType.getElementType();
    bool isUnsigned = isUnsignedInt(elementTypeOf(op.getData().getType()));
    Value out = filledTensor(rewriter, loc, convType, convSizes,
                             scalarConst(rewriter, loc, outElem, 0.0));
    if (!grouped) {
      auto conv = linalg::Conv2DNchwFchwOp::create(
          rewriter, loc, TypeRange{convType}, ValueRange{stuffed, w},
          ValueRange{out}, windowAttrs(rewriter, {1, 1}, dilation));
      setUnsignedCast(conv, isUnsigned);
      return conv->getResult(0);
    }
    Value in = splitGroups(stuffed, OpFoldResult(), cg);
    Value acc = splitGroups(out, kSizes[1], 0);
    Value g = groupedConvGeneric(rewriter, loc, in, w, acc, {1, 1}, dilation,
                                 isUnsigned);
    return tensor::CollapseShapeOp::create(
        rewriter, loc, convType, g,
        SmallVector<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
  }

  /// The convolution's [N, F, ...] sizes and type, before the crop.
  RankedTensorType convShape(RankedTensorType resultType,
                             SmallVectorImpl<OpFoldResult> &convSizes) {
    convSizes.assign({dSizes[0], !grouped ? kSizes[1]
                                          : affineSize(rewriter, loc, kSizes[1],
                                                       groups, 0)});
    SmallVector<int64_t> shape = {resultType.getDimSize(0),
                                  resultType.getDimSize(1)};
    for (int i = 0; i < 2; ++i) {
      int64_t span = dilation[i] * (k[i] - 1);
      convSizes.push_back(affineSize(rewriter, loc, bigSizes[2 + i], 1, -span));
      shape.push_back(ShapedType::isDynamic(bigShape[2 + i])
                          ? ShapedType::kDynamic
                          : bigShape[2 + i] - span);
    }
    return RankedTensorType::get(shape, resultType.getElementType());
  }

  /// The convolution cropped to the result (when the sizes differ).
  Value cropTo(Value conv, RankedTensorType resultType,
               ArrayRef<OpFoldResult> convSizes) {
    if (conv.getType() == resultType && !crop[0] && !crop[1])
      return conv;
    SmallVector<OpFoldResult> rSizes =
        resultSizes(rewriter, resultType, [&](int64_t d) -> OpFoldResult {
          if (d < 2)
            return convSizes[d];
          int i = d - 2;
          int64_t full = dilation[i] * (k[i] - 1) - pad.before[i] -
                         pad.after[i] + outPad[i] + 1 - strides[i];
          return affineSize(rewriter, loc, dSizes[d], strides[i], full);
        });
    return tensor::ExtractSliceOp::create(
        rewriter, loc, resultType, conv,
        SmallVector<OpFoldResult>{
            rewriter.getIndexAttr(0), rewriter.getIndexAttr(0),
            rewriter.getIndexAttr(crop[0]), rewriter.getIndexAttr(crop[1])},
        rSizes, SmallVector<OpFoldResult>(4, rewriter.getIndexAttr(1)));
  }
};

/// Strategies: `grouped` false (groups = 1): linalg.conv_2d_nchw_fchw with
/// the kernel [F, C, KH, KW]; `grouped` true (the general fallback, any
/// groups, static input channels): groupedConvGeneric over [N, G, C/G, ...]
/// with the kernel [G, F/G, C/G, KH, KW]. Both flip the kernel with a
/// gather and need static kernel sizes. Other layouts (any permutation of
/// NCHW data/out and IOHW kernel, e.g. NHWC with HWOI) are transposed to
/// NCHW/IOHW and back.
template <bool grouped>
struct Conv2DTransposePattern : OpConversionPattern<Conv2DTransposeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Conv2DTransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<Conv2DTransposeLayout> layout = getConv2DTransposeLayout(op);
    if (!layout)
      return rewriter.notifyMatchFailure(op, "layouts not lowered");
    if (!grouped && op.getGroups() != 1)
      return rewriter.notifyMatchFailure(op, "groups > 1");
    // The kernel's I, KH and KW dims in its own layout.
    auto kernelType = cast<RankedTensorType>(adaptor.getWeight().getType());
    if (kernelType.isDynamicDim(layout->kernel[2]) ||
        kernelType.isDynamicDim(layout->kernel[3]))
      return rewriter.notifyMatchFailure(op, "`?` kernel size");
    if (grouped && kernelType.isDynamicDim(layout->kernel[0]))
      return rewriter.notifyMatchFailure(op, "`?` input channels");

    Location loc = op.getLoc();
    Value data = transposeDims(rewriter, loc, adaptor.getData(), layout->data);
    Value weight =
        transposeDims(rewriter, loc, adaptor.getWeight(), layout->kernel);
    auto weightType = cast<RankedTensorType>(weight.getType());
    // The result in NCHW, then permuted into the out layout.
    RankedTensorType finalType = resultTensorType(op);
    auto resultType = RankedTensorType::get(
        applyPermutation(finalType.getShape(), layout->out),
        finalType.getElementType());
    ConvTransposeLowering lower(rewriter, op, grouped, weightType.getDimSize(2),
                                weightType.getDimSize(3));
    Value stuffed = lower.stuffInput(data);
    Value w = lower.flipKernel(weight);
    SmallVector<OpFoldResult> convSizes;
    RankedTensorType convType = lower.convShape(resultType, convSizes);
    Value conv = lower.convolve(stuffed, w, convType, convSizes);
    Value result = lower.cropTo(conv, resultType, convSizes);
    rewriter.replaceOp(op, transposeDims(rewriter, loc, result,
                                         invertPermutationVector(layout->out)));
    return success();
  }
};

std::string conv2DTransposeUnsupported(Conv2DTransposeOp op) {
  std::optional<Conv2DTransposeLayout> layout = getConv2DTransposeLayout(op);
  if (!layout)
    return ("nn.conv2d_transpose with layouts " + op.getDataLayout() + "/" +
            op.getKernelLayout())
        .str();
  auto kernelType = cast<RankedTensorType>(op.getWeight().getType());
  if (kernelType.isDynamicDim(layout->kernel[2]) ||
      kernelType.isDynamicDim(layout->kernel[3]))
    return "nn.conv2d_transpose with a `?` kernel size";
  return "grouped nn.conv2d_transpose with `?` input channels";
}

} // namespace

void lowering::populateConvTransposePatterns(const TypeConverter &tc,
                                             RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<Conv2DTransposePattern<false>>(tc, ctx, kNamedOpBenefit);
  patterns.add<Conv2DTransposePattern<true>>(tc, ctx, kGeneralBenefit);
  patterns.add<ReportUnsupported<Conv2DTransposeOp>>(
      tc, ctx, conv2DTransposeUnsupported);
}
