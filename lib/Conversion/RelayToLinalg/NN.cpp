//===- NN.cpp - nn.* operators --------------------------------------------===//
//
// Named linalg ops wherever one exists (matmul, convolutions, pooling,
// softmax) so that IREE sees them; padding is an explicit tensor.pad.
//
//===----------------------------------------------------------------------===//
#include "NNCommon.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::relay;
using namespace mlir::relay::lowering;
using namespace mlir::relay::lowering::nn;

namespace {

//===----------------------------------------------------------------------===//
// Shared pieces
//===----------------------------------------------------------------------===//

//===----------------------------------------------------------------------===//
// nn.dense: data · weightᵀ as linalg.matmul with a transposed-B map
//===----------------------------------------------------------------------===//

struct DensePattern : OpConversionPattern<DenseOp> {
  using OpConversionPattern::OpConversionPattern;
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

    auto mmType = RankedTensorType::get({m, weightType.getDimSize(0)},
                                        resultType.getElementType());
    SmallVector<OpFoldResult> mmSizes = {
        ShapedType::isDynamic(m) ? OpFoldResult(tensor::DimOp::create(
                                                    rewriter, loc, lhs, 0)
                                                    .getResult())
                                 : rewriter.getIndexAttr(m),
        units};
    Value zero = scalarConst(rewriter, loc, resultType.getElementType(), 0.0);
    Value init = filledTensor(rewriter, loc, mmType, mmSizes, zero);
    auto matmul = linalg::MatmulOp::create(rewriter, loc, TypeRange{mmType},
                                           ValueRange{lhs, weight},
                                           ValueRange{init});
    MLIRContext *ctx = rewriter.getContext();
    AffineExpr dm, dn, dk;
    bindDims(ctx, dm, dn, dk);
    matmul.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(
        {AffineMap::get(3, 0, {dm, dk}, ctx), AffineMap::get(3, 0, {dn, dk}, ctx),
         AffineMap::get(3, 0, {dm, dn}, ctx)}));
    if (isUnsignedInt(op.getData().getType()))
      matmul.setCastAttr(
          linalg::TypeFnAttr::get(ctx, linalg::TypeFn::cast_unsigned));
    Value result = matmul.getResult(0);

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
        result = expandTo(rewriter, loc, result, resultType,
                          {lead, {rank - 1}}, outSizes);
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
    int64_t axis = normAxis(op.getAxis(), rank);
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
// nn.conv2d
//===----------------------------------------------------------------------===//

/// Output pixels (N*OH*OW) up to which a static NHWC/HWIO convolution is
/// lowered as im2col + linalg.matmul. IREE 3.13's llvm-cpu codegen of
/// linalg.conv_2d_nhwc_hwcf is fast on large feature maps but re-reads the
/// weights per output tile on small ones: ResNet-18's 7x7x512 3x3 conv ran
/// at ~10 GFLOP/s, 2-3x slower than the same contraction as a matmul over
/// a patch matrix (which IREE data-tiles); on 56x56x64 the direct conv was
/// 2x faster than im2col (measured 2026-11-22, bench/RESULTS.md).
constexpr int64_t kIm2colMaxPixels = 256;

/// `padded` (NHWC, already padded and cropped) convolved with `weight`
/// (HWIO) as a matmul: patches [N*OH*OW, KH*KW*C] (one linalg.generic
/// copy) times the weight collapsed to [KH*KW*C, O]. Static shapes only.
Value conv2DAsMatmul(OpBuilder &b, Location loc, Value padded, Value weight,
                     RankedTensorType resultType, ArrayRef<int64_t> strides,
                     ArrayRef<int64_t> dilation) {
  MLIRContext *ctx = b.getContext();
  auto wType = cast<RankedTensorType>(weight.getType());
  ArrayRef<int64_t> out = resultType.getShape(), k = wType.getShape();
  int64_t n = out[0], oh = out[1], ow = out[2], o = out[3];
  int64_t kh = k[0], kw = k[1], c = k[2];
  Type elem = resultType.getElementType();
  Type inElem = cast<RankedTensorType>(padded.getType()).getElementType();

  Value patches = padded;
  if (kh != 1 || kw != 1 || strides[0] != 1 || strides[1] != 1) {
    AffineExpr dn, doh, dow, dkh, dkw, dc;
    bindDims(ctx, dn, doh, dow, dkh, dkw, dc);
    auto patchType = RankedTensorType::get({n, oh, ow, kh, kw, c}, inElem);
    patches = buildMap(
        b, loc, patchType, {}, padded,
        {AffineMap::get(6, 0,
                        {dn, doh * strides[0] + dkh * dilation[0],
                         dow * strides[1] + dkw * dilation[1], dc},
                        ctx)},
        [](OpBuilder &, Location, ValueRange args) { return args[0]; });
  }
  int64_t m = n * oh * ow, kk = kh * kw * c;
  ArrayRef<int64_t> patchShape =
      cast<RankedTensorType>(patches.getType()).getShape();
  ReassociationIndices rows, cols;
  for (int64_t d = 0; d < 3; ++d)
    rows.push_back(d);
  for (int64_t d = 3; d < (int64_t)patchShape.size(); ++d)
    cols.push_back(d);
  Value lhs = tensor::CollapseShapeOp::create(
      b, loc, RankedTensorType::get({m, kk}, inElem), patches,
      ArrayRef<ReassociationIndices>{rows, cols});
  Value rhs = tensor::CollapseShapeOp::create(
      b, loc, RankedTensorType::get({kk, o}, wType.getElementType()), weight,
      ArrayRef<ReassociationIndices>{{0, 1, 2}, {3}});
  auto mmType = RankedTensorType::get({m, o}, elem);
  Value init = filledTensor(b, loc, mmType, {},
                            scalarConst(b, loc, elem, 0.0));
  Value mm = linalg::MatmulOp::create(b, loc, TypeRange{mmType},
                                      ValueRange{lhs, rhs}, ValueRange{init})
                 .getResult(0);
  return tensor::ExpandShapeOp::create(
      b, loc, resultType, mm, ArrayRef<ReassociationIndices>{{0, 1, 2}, {3}});
}

struct Conv2DPattern : OpConversionPattern<Conv2DOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(Conv2DOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    StringRef dataLayout = op.getDataLayout(), kernelLayout = op.getKernelLayout();
    bool nchw = dataLayout == "NCHW" && kernelLayout == "OIHW";
    bool nhwc = dataLayout == "NHWC" &&
                (kernelLayout == "HWIO" || kernelLayout == "HWOI");
    if (!nchw && !nhwc) {
      return op.emitError() << "not supported yet: nn.conv2d with layouts "
                            << dataLayout << "/" << kernelLayout
                            << " (NCHW/OIHW and NHWC/HWIO are)";
    }
    Value data = adaptor.getData(), weight = adaptor.getWeight();
    auto dataType = cast<RankedTensorType>(data.getType());
    auto weightType = cast<RankedTensorType>(weight.getType());
    RankedTensorType resultType = resultTensorType(op);
    Type outElem = resultType.getElementType();
    int64_t groups = op.getGroups();
    int64_t hDim = nchw ? 2 : 1, wDim = nchw ? 3 : 2, cDim = nchw ? 1 : 3;
    // Kernel dims by role: O, I, KH, KW.
    int64_t oDim = nchw ? 0 : (kernelLayout == "HWIO" ? 3 : 2);
    int64_t iDim = nchw ? 1 : (kernelLayout == "HWIO" ? 2 : 3);
    int64_t khDim = nchw ? 2 : 0, kwDim = nchw ? 3 : 1;

    SmallVector<int64_t, 4> pad = padding4(op.getPadding());
    Value zeroIn = scalarConst(rewriter, loc, dataType.getElementType(), 0.0);
    ArrayRef<int64_t> strides = op.getStrides(), dilation = op.getDilation();
    Value padded = cropToWindows(
        rewriter, loc,
        pad2D(rewriter, loc, data, hDim, wDim, {pad[0], pad[1]},
              {pad[2], pad[3]}, zeroIn),
        {hDim, wDim},
        {weightType.getDimSize(khDim), weightType.getDimSize(kwDim)}, strides,
        dilation);
    SmallVector<OpFoldResult> inSizes = dimSizes(rewriter, loc, padded);
    SmallVector<OpFoldResult> kSizes = dimSizes(rewriter, loc, weight);
    SmallVector<OpFoldResult> outSizes =
        resultSizes(rewriter, resultType, [&](int64_t d) -> OpFoldResult {
          if (d == 0)
            return inSizes[0];
          if (d == cDim)
            return kSizes[oDim];
          bool h = d == hDim;
          return windowExtent(rewriter, loc, inSizes[h ? hDim : wDim],
                              kSizes[h ? khDim : kwDim], strides[h ? 0 : 1],
                              dilation[h ? 0 : 1]);
        });
    SmallVector<NamedAttribute> attrs = {
        convAttr(rewriter, "strides", strides),
        convAttr(rewriter, "dilations", dilation)};
    Value zero = scalarConst(rewriter, loc, outElem, 0.0);
    auto init = [&](RankedTensorType type, ArrayRef<OpFoldResult> sizes) {
      return filledTensor(rewriter, loc, type, sizes, zero);
    };
    auto replace = [&](Operation *conv) {
      if (isUnsignedInt(op.getData().getType()))
        conv->setAttr("cast", linalg::TypeFnAttr::get(
                                  getContext(), linalg::TypeFn::cast_unsigned));
      return conv->getResult(0);
    };

    int64_t channels = dataType.getDimSize(cDim);
    int64_t outChannels = weightType.getDimSize(oDim);
    Value result;
    bool small = resultType.hasStaticShape() &&
                 resultType.getDimSize(0) * resultType.getDimSize(1) *
                         resultType.getDimSize(2) <=
                     kIm2colMaxPixels;
    if (groups == 1 && nhwc && kernelLayout == "HWIO" && small &&
        isa<FloatType>(outElem) && weightType.hasStaticShape() &&
        cast<RankedTensorType>(padded.getType()).hasStaticShape()) {
      result = conv2DAsMatmul(rewriter, loc, padded, weight, resultType,
                              strides, dilation);
    } else if (groups == 1) {
      Value out = init(resultType, outSizes);
      Value w = weight;
      if (nhwc && kernelLayout == "HWOI") {
        auto wType = RankedTensorType::get(
            {weightType.getDimSize(0), weightType.getDimSize(1),
             weightType.getDimSize(3), weightType.getDimSize(2)},
            weightType.getElementType());
        SmallVector<OpFoldResult> wSizes = {kSizes[0], kSizes[1], kSizes[3],
                                            kSizes[2]};
        w = linalg::TransposeOp::create(
                rewriter, loc, weight, emptyTensor(rewriter, loc, wType, wSizes),
                ArrayRef<int64_t>{0, 1, 3, 2})
                .getResult()[0];
      }
      result = nchw ? replace(linalg::Conv2DNchwFchwOp::create(
                          rewriter, loc, TypeRange{resultType},
                          ValueRange{padded, w}, ValueRange{out}, attrs))
                    : replace(linalg::Conv2DNhwcHwcfOp::create(
                          rewriter, loc, TypeRange{resultType},
                          ValueRange{padded, w}, ValueRange{out}, attrs));
    } else if (groups == channels && weightType.getDimSize(iDim) == 1 &&
               !ShapedType::isDynamic(outChannels) &&
               (nhwc || outChannels == channels)) {
      // Depthwise: drop the unit I dim of the kernel.
      int64_t kh = weightType.getDimSize(khDim), kw = weightType.getDimSize(kwDim);
      SmallVector<ReassociationIndices> dropI =
          nchw ? SmallVector<ReassociationIndices>{{0, 1}, {2}, {3}}
               : (kernelLayout == "HWIO"
                      ? SmallVector<ReassociationIndices>{{0}, {1}, {2, 3}}
                      : SmallVector<ReassociationIndices>{{0}, {1}, {2, 3}});
      auto wType = nchw ? RankedTensorType::get({outChannels, kh, kw},
                                                weightType.getElementType())
                        : RankedTensorType::get({kh, kw, outChannels},
                                                weightType.getElementType());
      Value w = tensor::CollapseShapeOp::create(rewriter, loc, wType, weight,
                                                dropI);
      if (outChannels == channels) {
        Value out = init(resultType, outSizes);
        result = nchw ? replace(linalg::DepthwiseConv2DNchwChwOp::create(
                            rewriter, loc, TypeRange{resultType},
                            ValueRange{padded, w}, ValueRange{out}, attrs))
                      : replace(linalg::DepthwiseConv2DNhwcHwcOp::create(
                            rewriter, loc, TypeRange{resultType},
                            ValueRange{padded, w}, ValueRange{out}, attrs));
      } else {
        // NHWC with a channel multiplier: [KH, KW, C, M] → [N, OH, OW, C, M].
        int64_t mult = outChannels / channels;
        auto wmType = RankedTensorType::get({kh, kw, channels, mult},
                                            weightType.getElementType());
        Value wm = expandTo(rewriter, loc, w, wmType, {{0}, {1}, {2, 3}},
                            {kSizes[khDim], kSizes[kwDim],
                             rewriter.getIndexAttr(channels),
                             rewriter.getIndexAttr(mult)});
        auto outType = RankedTensorType::get(
            {resultType.getDimSize(0), resultType.getDimSize(1),
             resultType.getDimSize(2), channels, mult},
            outElem);
        Value out = init(outType, {outSizes[0], outSizes[1], outSizes[2],
                                   rewriter.getIndexAttr(channels),
                                   rewriter.getIndexAttr(mult)});
        Value conv = replace(linalg::DepthwiseConv2DNhwcHwcmOp::create(
            rewriter, loc, TypeRange{outType}, ValueRange{padded, wm},
            ValueRange{out}, attrs));
        result = tensor::CollapseShapeOp::create(
            rewriter, loc, resultType, conv,
            ArrayRef<ReassociationIndices>{{0}, {1}, {2}, {3, 4}});
      }
    } else {
      // Grouped: split C into [G, C/G] and O into [G, O/G].
      auto elem = [](Value v) {
        return cast<RankedTensorType>(v.getType()).getElementType();
      };
      auto pShape = cast<RankedTensorType>(padded.getType()).getShape();
      int64_t fPerG = divDim(outChannels, groups);
      OpFoldResult fPerGSize = divSize(rewriter, loc, kSizes[oDim], groups);
      OpFoldResult cPerGSize = divSize(rewriter, loc, inSizes[cDim], groups);
      int64_t cPerG = divDim(pShape[cDim], groups);
      OpFoldResult g = rewriter.getIndexAttr(groups);
      if (nchw) {
        auto inType = RankedTensorType::get(
            {pShape[0], groups, cPerG, pShape[2], pShape[3]}, elem(padded));
        Value in = expandTo(rewriter, loc, padded, inType, {{0}, {1, 2}, {3}, {4}},
                            {inSizes[0], g, cPerGSize, inSizes[2], inSizes[3]});
        auto wType = RankedTensorType::get(
            {groups, fPerG, weightType.getDimSize(1), weightType.getDimSize(2),
             weightType.getDimSize(3)},
            elem(weight));
        Value w = expandTo(rewriter, loc, weight, wType, {{0, 1}, {2}, {3}, {4}},
                           {g, fPerGSize, kSizes[1], kSizes[2], kSizes[3]});
        auto outType = RankedTensorType::get(
            {resultType.getDimSize(0), groups, fPerG, resultType.getDimSize(2),
             resultType.getDimSize(3)},
            outElem);
        Value out = init(outType, {outSizes[0], g, fPerGSize, outSizes[2],
                                   outSizes[3]});
        Value conv = replace(linalg::Conv2DNgchwGfchwOp::create(
            rewriter, loc, TypeRange{outType}, ValueRange{in, w},
            ValueRange{out}, attrs));
        result = tensor::CollapseShapeOp::create(
            rewriter, loc, resultType, conv,
            ArrayRef<ReassociationIndices>{{0}, {1, 2}, {3}, {4}});
      } else {
        auto inType = RankedTensorType::get(
            {pShape[0], pShape[1], pShape[2], groups, cPerG}, elem(padded));
        Value in = expandTo(rewriter, loc, padded, inType, {{0}, {1}, {2}, {3, 4}},
                            {inSizes[0], inSizes[1], inSizes[2], g, cPerGSize});
        // Kernel [KH, KW, I, O] (or [KH, KW, O, I]) → [G, F, KH, KW, I].
        bool hwio = kernelLayout == "HWIO";
        int64_t kh = weightType.getDimSize(0), kw = weightType.getDimSize(1),
                ci = weightType.getDimSize(iDim);
        auto splitType =
            hwio ? RankedTensorType::get({kh, kw, ci, groups, fPerG}, elem(weight))
                 : RankedTensorType::get({kh, kw, groups, fPerG, ci}, elem(weight));
        Value split =
            hwio ? expandTo(rewriter, loc, weight, splitType, {{0}, {1}, {2}, {3, 4}},
                            {kSizes[0], kSizes[1], kSizes[2], g, fPerGSize})
                 : expandTo(rewriter, loc, weight, splitType, {{0}, {1}, {2, 3}, {4}},
                            {kSizes[0], kSizes[1], g, fPerGSize, kSizes[3]});
        SmallVector<int64_t> perm = hwio ? SmallVector<int64_t>{3, 4, 0, 1, 2}
                                         : SmallVector<int64_t>{2, 3, 0, 1, 4};
        auto wType = RankedTensorType::get({groups, fPerG, kh, kw, ci}, elem(weight));
        Value w = linalg::TransposeOp::create(
                      rewriter, loc, split,
                      emptyTensor(rewriter, loc, wType,
                                  {g, fPerGSize, kSizes[0], kSizes[1], kSizes[iDim]}),
                      perm)
                      .getResult()[0];
        auto outType = RankedTensorType::get(
            {resultType.getDimSize(0), resultType.getDimSize(1),
             resultType.getDimSize(2), groups, fPerG},
            outElem);
        Value out = init(outType, {outSizes[0], outSizes[1], outSizes[2], g,
                                   fPerGSize});
        Value conv = replace(linalg::Conv2DNhwgcGfhwcOp::create(
            rewriter, loc, TypeRange{outType}, ValueRange{in, w},
            ValueRange{out}, attrs));
        result = tensor::CollapseShapeOp::create(
            rewriter, loc, resultType, conv,
            ArrayRef<ReassociationIndices>{{0}, {1}, {2}, {3, 4}});
      }
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// nn.max_pool2d / nn.avg_pool2d
//===----------------------------------------------------------------------===//

template <typename OpTy, bool isMax>
struct Pool2DPattern : OpConversionPattern<OpTy> {
  using OpConversionPattern<OpTy>::OpConversionPattern;
  using OpAdaptor = typename OpConversionPattern<OpTy>::OpAdaptor;

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    StringRef layout = op.getLayout();
    if (layout != "NCHW" && layout != "NHWC")
      return op.emitError() << "not supported yet: " << op->getName()
                            << " with layout " << layout
                            << " (NCHW and NHWC are)";
    bool nchw = layout == "NCHW";
    int64_t hDim = nchw ? 2 : 1, wDim = nchw ? 3 : 2;
    Value data = adaptor.getData();
    RankedTensorType resultType = resultTensorType(op);
    Type elem = resultType.getElementType();
    bool isUnsigned = isUnsignedInt(op.getData().getType());
    ArrayRef<int64_t> window = op.getPoolSize(), strides = op.getStrides(),
                      dilation = op.getDilation();
    SmallVector<int64_t, 4> pad = padding4(op.getPadding());
    // ceil_mode: extra room after the data so that the last (partial)
    // window exists; topi grows pad_after by stride - 1.
    SmallVector<int64_t, 2> high = {pad[2], pad[3]};
    if (op.getCeilMode()) {
      high[0] += strides[0] - 1;
      high[1] += strides[1] - 1;
    }
    Value padValue = isMax ? lowestConst(rewriter, loc, elem, isUnsigned)
                           : scalarConst(rewriter, loc, elem, 0.0);
    Value padded = cropToWindows(
        rewriter, loc,
        pad2D(rewriter, loc, data, hDim, wDim, {pad[0], pad[1]}, high,
              padValue),
        {hDim, wDim}, window, strides, dilation);
    SmallVector<OpFoldResult> inSizes = dimSizes(rewriter, loc, padded);
    SmallVector<OpFoldResult> dataSizes = dimSizes(rewriter, loc, data);
    SmallVector<OpFoldResult> outSizes =
        resultSizes(rewriter, resultType, [&](int64_t d) -> OpFoldResult {
          if (d != hDim && d != wDim)
            return inSizes[d];
          int64_t i = d == hDim ? 0 : 1;
          return windowExtent(rewriter, loc, inSizes[d],
                              rewriter.getIndexAttr(window[i]), strides[i],
                              dilation[i]);
        });
    Value init = filledTensor(rewriter, loc, resultType, outSizes, padValue);
    Value kernel = tensor::EmptyOp::create(
        rewriter, loc, ArrayRef<int64_t>{window[0], window[1]}, elem);
    SmallVector<NamedAttribute> attrs = {
        convAttr(rewriter, "strides", strides),
        convAttr(rewriter, "dilations", dilation)};
    SmallVector<Value> ins = {padded, kernel};
    Operation *pool;
    if constexpr (isMax) {
      if (isa<FloatType>(elem))
        pool = nchw ? linalg::PoolingNchwMaxOp::create(rewriter, loc,
                                                       TypeRange{resultType},
                                                       ins, init, attrs)
                          .getOperation()
                    : linalg::PoolingNhwcMaxOp::create(rewriter, loc,
                                                       TypeRange{resultType},
                                                       ins, init, attrs)
                          .getOperation();
      else if (!nchw && isUnsigned)
        pool = linalg::PoolingNhwcMaxUnsignedOp::create(
            rewriter, loc, TypeRange{resultType}, ins, init, attrs);
      else if (!isUnsigned)
        pool = nchw ? linalg::PoolingNchwMaxOp::create(rewriter, loc,
                                                       TypeRange{resultType},
                                                       ins, init, attrs)
                          .getOperation()
                    : linalg::PoolingNhwcMaxOp::create(rewriter, loc,
                                                       TypeRange{resultType},
                                                       ins, init, attrs)
                          .getOperation();
      else
        return op.emitError()
               << "not supported yet: unsigned nn.max_pool2d in NCHW";
      rewriter.replaceOp(op, pool->getResult(0));
      return success();
    } else {
      pool = nchw ? linalg::PoolingNchwSumOp::create(rewriter, loc,
                                                     TypeRange{resultType},
                                                     ins, init, attrs)
                        .getOperation()
                  : linalg::PoolingNhwcSumOp::create(rewriter, loc,
                                                     TypeRange{resultType},
                                                     ins, init, attrs)
                        .getOperation();
      Value sum = pool->getResult(0);
      bool countPad = op.getCountIncludePad();
      bool noPad = llvm::all_of(pad, [](int64_t p) { return p == 0; });
      Value result;
      if (countPad || (noPad && !op.getCeilMode())) {
        // Every window holds pool_size elements.
        Value count = scalarConst(rewriter, loc, elem,
                                  static_cast<double>(window[0] * window[1]));
        result = divideByScalar(rewriter, loc, sum, count, isUnsigned);
      } else {
        // Per-position divisor from the output indices.
        int64_t rank = resultType.getRank();
        Value lastH = arith::SubIOp::create(
            rewriter, loc,
            getValueOrCreateConstantIndexOp(rewriter, loc, dataSizes[hDim]),
            arith::ConstantIndexOp::create(rewriter, loc, 1));
        Value lastW = arith::SubIOp::create(
            rewriter, loc,
            getValueOrCreateConstantIndexOp(rewriter, loc, dataSizes[wDim]),
            arith::ConstantIndexOp::create(rewriter, loc, 1));
        result = buildMap(
            rewriter, loc, resultType, outSizes, {sum},
            {rewriter.getMultiDimIdentityMap(rank)},
            [&](OpBuilder &b, Location l, ValueRange args) -> Value {
              Value oh = linalg::IndexOp::create(b, l, hDim);
              Value ow = linalg::IndexOp::create(b, l, wDim);
              Value nh = windowCount(b, l, oh, window[0], strides[0],
                                     dilation[0], pad[0], lastH, false);
              Value nw = windowCount(b, l, ow, window[1], strides[1],
                                     dilation[1], pad[1], lastW, false);
              Value n = arith::MaxSIOp::create(
                  b, l, arith::MulIOp::create(b, l, nh, nw),
                  arith::ConstantIndexOp::create(b, l, 1));
              Value divisor = indexToScalar(b, l, n, elem, isUnsigned);
              if (isa<FloatType>(elem))
                return arith::DivFOp::create(b, l, args[0], divisor);
              if (isUnsigned)
                return arith::DivUIOp::create(b, l, args[0], divisor);
              return arith::DivSIOp::create(b, l, args[0], divisor);
            });
      }
      rewriter.replaceOp(op, result);
      return success();
    }
  }
};

//===----------------------------------------------------------------------===//
// nn.global_avg_pool2d, nn.batch_flatten, nn.softmax
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
    Value count = indexToScalar(rewriter, loc, countOf(rewriter, loc, data, dims),
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
    ReassociationIndices rest;
    for (int64_t d = 1; d < rank; ++d)
      rest.push_back(d);
    rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(
        op, resultType, data, ArrayRef<ReassociationIndices>{{0}, rest});
    return success();
  }
};

struct SoftmaxPattern : OpConversionPattern<SoftmaxOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SoftmaxOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // linalg.softmax is max-subtracted when decomposed (and IREE knows it).
    Location loc = op.getLoc();
    RankedTensorType type = resultTensorType(op);
    Value data = adaptor.getData();
    Value init = emptyTensor(rewriter, loc, type, dimSizes(rewriter, loc, data));
    rewriter.replaceOpWithNewOp<linalg::SoftmaxOp>(
        op, TypeRange{type}, data, init,
        static_cast<uint64_t>(normAxis(op.getAxis(), type.getRank())));
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
  if (!matchPattern(mean, m_Constant(&m)) || !matchPattern(var, m_Constant(&v)) ||
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
    int64_t axis = normAxis(op.getAxis(), rank);

    Value scale, shift;
    if (auto folded = foldScaleShift(rewriter, loc, op, gamma, beta, mean, var)) {
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
            Value num = useGamma ? args[1]
                                 : scalarConst(b, l, args[0].getType(), 1.0);
            return arith::DivFOp::create(b, l, num, root);
          });
      shift = buildMap(
          rewriter, loc, paramType, pSizes, {mean, scale, beta},
          {id1, id1, id1},
          [&](OpBuilder &b, Location l, ValueRange args) -> Value {
            Value ms = arith::MulFOp::create(b, l, args[0], args[1]);
            if (useBeta)
              return arith::SubFOp::create(b, l, args[2], ms);
            return arith::NegFOp::create(b, l, ms);
          });
    }
    AffineMap channel = AffineMap::get(rank, 0, rewriter.getAffineDimExpr(axis));
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

void lowering::populateNNPatterns(const TypeConverter &tc,
                                  RewritePatternSet &patterns) {
  patterns.add<DensePattern, BiasAddPattern, Conv2DPattern,
               Pool2DPattern<MaxPool2DOp, true>,
               Pool2DPattern<AvgPool2DOp, false>, GlobalAvgPool2DPattern,
               BatchFlattenPattern, SoftmaxPattern, BatchNormPattern>(
      tc, patterns.getContext());
  nn::populateConvPatterns(tc, patterns);
  nn::populatePoolPatterns(tc, patterns);
  nn::populateNormPatterns(tc, patterns);
  nn::populateNNMiscPatterns(tc, patterns);
}
