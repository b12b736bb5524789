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

/// Strategies: `grouped` false (groups = 1): linalg.conv_2d_nchw_fchw with
/// the kernel [F, C, KH, KW]; `grouped` true (the general fallback, any
/// groups, static input channels): groupedConvGeneric over [N, G, C/G, ...]
/// with the kernel [G, F/G, C/G, KH, KW]. Both flip the kernel with a
/// gather (a map with negated dims would not tile in IREE) and need static
/// kernel sizes. Other layouts (any permutation of NCHW data/out and IOHW
/// kernel, e.g. NHWC with HWOI) are transposed to NCHW/IOHW and back.
template <bool grouped>
struct Conv2DTransposePattern : OpConversionPattern<Conv2DTransposeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Conv2DTransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<Conv2DTransposeLayout> layout = getConv2DTransposeLayout(op);
    if (!layout)
      return rewriter.notifyMatchFailure(op, "layouts not lowered");
    int64_t groups = op.getGroups();
    if (!grouped && groups != 1)
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
    auto dataType = cast<RankedTensorType>(data.getType());
    auto weightType = cast<RankedTensorType>(weight.getType());
    // The result in NCHW, then permuted into the out layout.
    RankedTensorType finalType = resultTensorType(op);
    auto resultType = RankedTensorType::get(
        applyPermutation(finalType.getShape(), layout->out),
        finalType.getElementType());
    Type inElem = dataType.getElementType(),
         outElem = resultType.getElementType();
    bool isUnsigned = isUnsignedInt(elementTypeOf(op.getData().getType()));
    ArrayRef<int64_t> strides = op.getStrides(), dilation = op.getDilation();
    ArrayRef<int64_t> outPad = op.getOutputPadding();
    // Verified by the relation: (top, left), (bottom, right).
    SpatialPadding pad = *normalizePadding(op.getPadding(), 2);
    int64_t k[2] = {weightType.getDimSize(2), weightType.getDimSize(3)};

    // Zero-stuffed input, padded: [N, C, (H-1)*s + 1 + lo + hi, ...] with
    // lo = d(k-1) - pad_before, hi = d(k-1) - pad_after + output_padding;
    // negative amounts crop the output instead.
    SmallVector<OpFoldResult> dSizes = dimSizes(rewriter, loc, data);
    int64_t lo[2], hi[2], crop[2];
    for (int i = 0; i < 2; ++i) {
      int64_t span = dilation[i] * (k[i] - 1);
      lo[i] = span - pad.before[i];
      hi[i] = span - pad.after[i] + outPad[i];
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
    SmallVector<OpFoldResult> offsets = {
        rewriter.getIndexAttr(0), rewriter.getIndexAttr(0),
        rewriter.getIndexAttr(lo[0]), rewriter.getIndexAttr(lo[1])};
    SmallVector<OpFoldResult> steps = {
        rewriter.getIndexAttr(1), rewriter.getIndexAttr(1),
        rewriter.getIndexAttr(strides[0]), rewriter.getIndexAttr(strides[1])};
    Value stuffed =
        insertSlice(rewriter, loc, data, big, offsets, dSizes, steps);

    // Kernel [C, F/G, KH, KW] → [F, C, KH, KW] (groups = 1) or
    // [G, F/G, C/G, KH, KW], flipped spatially.
    SmallVector<OpFoldResult> kSizes = dimSizes(rewriter, loc, weight);
    int64_t cg = grouped ? weightType.getDimSize(0) / groups : 0;
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
    Value w = buildMap(
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

    // Stride-1 convolution, then the crop.
    SmallVector<OpFoldResult> convSizes = {
        dSizes[0],
        !grouped ? kSizes[1] : affineSize(rewriter, loc, kSizes[1], groups, 0)};
    SmallVector<int64_t> convShape = {resultType.getDimSize(0),
                                      resultType.getDimSize(1)};
    for (int i = 0; i < 2; ++i) {
      int64_t span = dilation[i] * (k[i] - 1);
      convSizes.push_back(affineSize(rewriter, loc, bigSizes[2 + i], 1, -span));
      convShape.push_back(ShapedType::isDynamic(bigShape[2 + i])
                              ? ShapedType::kDynamic
                              : bigShape[2 + i] - span);
    }
    auto convType = RankedTensorType::get(convShape, outElem);
    Value out = filledTensor(rewriter, loc, convType, convSizes,
                             scalarConst(rewriter, loc, outElem, 0.0));
    Value result;
    if constexpr (!grouped) {
      auto conv = linalg::Conv2DNchwFchwOp::create(
          rewriter, loc, TypeRange{convType}, ValueRange{stuffed, w},
          ValueRange{out}, windowAttrs(rewriter, {1, 1}, dilation));
      setUnsignedCast(conv, isUnsigned);
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
        shape.insert(shape.begin() + 2,
                     perGroup ? perGroup : weightType.getDimSize(1));
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
            int64_t full = dilation[i] * (k[i] - 1) - pad.before[i] -
                           pad.after[i] + outPad[i] + 1 - strides[i];
            return affineSize(rewriter, loc, dSizes[d], strides[i], full);
          });
      result = tensor::ExtractSliceOp::create(
          rewriter, loc, resultType, result,
          SmallVector<OpFoldResult>{
              rewriter.getIndexAttr(0), rewriter.getIndexAttr(0),
              rewriter.getIndexAttr(crop[0]), rewriter.getIndexAttr(crop[1])},
          rSizes, SmallVector<OpFoldResult>(4, rewriter.getIndexAttr(1)));
    }
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
